//! What storing a step's log canonically costs against plain JSON, and what digesting it
//! costs either way (`docs/performance.md`, "The step digest"). The log is shaped as a
//! 16-player Crossing Swords round's: tagged events flattened into entries with their line.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use herald::fairness::jcs::{self, Field, Node, to_canonical};
use herald::fairness::{StoredStep, stored_step_digest};
use serde::Serialize;

#[derive(Serialize)]
struct PlayerRef {
    id: String,
    name: String,
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
enum Event {
    Struck {
        attacker: PlayerRef,
        target: PlayerRef,
        #[serde(rename = "move")]
        mv: &'static str,
        damage: u32,
        focused: bool,
    },
    Countered {
        victim: PlayerRef,
        counters: u32,
        hp: i64,
    },
}

#[derive(Serialize)]
struct Entry<'a> {
    #[serde(flatten)]
    event: &'a Event,
    text: String,
}

fn player(i: u32) -> PlayerRef {
    PlayerRef {
        id: format!("00000000-0000-4000-8000-{i:012}"),
        name: format!("bot-{i}"),
    }
}

fn round() -> Vec<Event> {
    (0..16)
        .flat_map(|i| {
            [
                Event::Struck {
                    attacker: player(i),
                    target: player((i + 1) % 16),
                    mv: "strike",
                    damage: 3,
                    focused: i % 3 == 0,
                },
                Event::Countered {
                    victim: player(i),
                    counters: 2,
                    hp: 17,
                },
            ]
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let events = round();
    let entries: Vec<Entry> = events
        .iter()
        .enumerate()
        .map(|(i, event)| Entry {
            event,
            text: format!("Line {i} of the round, as a person reads it."),
        })
        .collect();
    let plain = serde_json::to_string(&entries).unwrap();
    let canonical = to_canonical(&entries).unwrap();
    let step = |log| StoredStep {
        round: 3,
        step: "orders",
        revealed: "[]",
        log,
        public_log: None,
        pools: "{}",
    };
    let mut group = c.benchmark_group("step log");
    group.throughput(Throughput::Elements(entries.len() as u64));
    group.bench_function("plain JSON", |b| {
        b.iter(|| serde_json::to_string(&entries).unwrap())
    });
    group.bench_function("canonical JSON", |b| {
        b.iter(|| to_canonical(&entries).unwrap())
    });
    group.bench_function("step digest, canonical log", |b| {
        b.iter(|| stored_step_digest("prev", step(&canonical)).unwrap())
    });
    // The path before logs were stored canonically: read the text back, then digest it.
    group.bench_function("digest of plain text, read back", |b| {
        b.iter(|| {
            let node = Node::parse(&plain).unwrap();
            jcs::digest_fields(&[("log", Field::Node(&node))])
        })
    });
    group.bench_function("digest of canonical text, as stored", |b| {
        b.iter(|| jcs::digest_fields(&[("log", Field::Canonical(&canonical))]))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
