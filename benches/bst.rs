//! Criterion benchmark of the BST adjudicator: full random games per second and rounds per
//! second, with random legal answers for every step (the answers are chosen from each prompt
//! as a bot would, so the figures include prompt building and order checking).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use herald::rules::bst::{Bst, Character, OrderBody, Settings, State};
use herald::rules::{Entrant, Game, GameRng, PlayerId, Seat};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};

const GAMES: u64 = 16;

fn entrants(a: Character, b: Character) -> Vec<Entrant<herald::rules::bst::Join>> {
    [a, b]
        .into_iter()
        .enumerate()
        .map(|(i, c)| Entrant {
            id: PlayerId(uuid::Uuid::from_u128(i as u128 + 1)),
            name: format!("P{}", i + 1),
            join: herald::rules::bst::Join { character: c },
        })
        .collect()
}

fn answer(state: &State, seat: Seat, rng: &mut GameRng) -> OrderBody {
    let p = <Bst as Game>::prompt(state, seat).expect("owed seats have prompts");
    let mut body = OrderBody::default();
    if p.can_decline && rng.random_bool(0.3) {
        body.decline = Some(true);
        return body;
    }
    let choices = p.choices.clone().unwrap_or_default();
    match <Bst as Game>::step(state) {
        "play" => {
            let moves = p.moves.expect("moves");
            body.play = Some(moves.choose(rng).expect("ten").tile.id().to_owned());
            body.token = Some(p.hand.choose(rng).expect("a hand").to_string());
        }
        "set-aside" | "power-surge" | "channeler-steal" => body.accept = Some(true),
        "follow-up" if p.random_pool && rng.random_bool(0.5) => body.random_pool = Some(true),
        "follow-up" | "parry-pick" | "evasion-pick" => {
            body.token = Some(choices.choose(rng).expect("a choice").to_string())
        }
        "gather-power" => {
            let pair = p
                .pairs
                .expect("pairs")
                .choose(rng)
                .copied()
                .expect("a pair");
            body.tokens = Some(pair.iter().map(ToString::to_string).collect());
        }
        _ => {
            let (min, max) = (p.min_tokens.unwrap_or(1), p.max_tokens.unwrap_or(1));
            let mut c = choices;
            c.shuffle(rng);
            let n = rng
                .random_range(min..=max.min(c.len()).max(min))
                .min(c.len());
            body.tokens = Some(c[..n].iter().map(ToString::to_string).collect());
        }
    }
    body
}

/// Plays one game to its end; answers the number of rounds played.
fn game(seed: u64) -> u32 {
    let chars = Character::ALL;
    let (a, b) = (chars[(seed % 6) as usize], chars[(seed / 6 % 6) as usize]);
    let settings = Settings {
        seed: Some(seed),
        ..Settings::default()
    };
    let mut rng = GameRng::seed_from_u64(seed);
    let mut answers = GameRng::seed_from_u64(!seed);
    let mut state = <Bst as Game>::start(&settings, &entrants(a, b), &mut rng).expect("start");
    loop {
        let owes = <Bst as Game>::owes(&state);
        if owes.is_empty() {
            return state.round;
        }
        let orders: Vec<_> = owes
            .into_iter()
            .map(|s| {
                (
                    s,
                    <Bst as Game>::check_order(&state, s, answer(&state, s, &mut answers))
                        .expect("legal"),
                )
            })
            .collect();
        state = <Bst as Game>::resolve(&state, &orders, &mut rng).state;
    }
}

fn bench(c: &mut Criterion) {
    let rounds: u64 = (0..GAMES).map(|s| u64::from(game(s))).sum();
    let mut g = c.benchmark_group("bst");
    g.throughput(Throughput::Elements(GAMES));
    g.bench_function("full random games", |b| {
        b.iter(|| (0..GAMES).map(|s| game(black_box(s))).sum::<u32>())
    });
    g.throughput(Throughput::Elements(rounds));
    g.bench_function("rounds", |b| {
        b.iter(|| (0..GAMES).map(|s| game(black_box(s))).sum::<u32>())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
