//! What pairing a Swiss round costs (`docs/performance.md`, "The Swiss pairing"): 200 entrants
//! after six rounds played out (each paired by `pair_swiss`, results drawn from a seeded RNG, a
//! few forbidden pairs), pairing the seventh.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use herald::tournament::{DuelGame, DuelResult, DuelRound, Entrant, EntrantId, pair_swiss};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const ENTRANTS: u64 = 200;
const PLAYED: usize = 6;

fn history() -> (Vec<Entrant>, Vec<DuelRound>, Vec<[EntrantId; 2]>) {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let entrants: Vec<Entrant> = (1..=ENTRANTS)
        .map(|i| Entrant {
            rating: rng
                .random_bool(0.7)
                .then(|| f64::from(rng.random_range(1000..2200u32))),
            ..Entrant::new(EntrantId(i), i as u32)
        })
        .collect();
    let forbidden: Vec<[EntrantId; 2]> = (0..10)
        .map(|k| [EntrantId(2 * k + 1), EntrantId(2 * k + 2)])
        .collect();
    let mut rounds = Vec::new();
    for _ in 0..PLAYED {
        let pairing = pair_swiss(&entrants, &rounds, &forbidden).expect("pairs");
        let games = pairing
            .games
            .into_iter()
            .map(|players| {
                let result = match rng.random_range(0..10u8) {
                    0..=3 => DuelResult::Won { winner: players[0] },
                    4..=7 => DuelResult::Won { winner: players[1] },
                    _ => DuelResult::Drawn,
                };
                DuelGame {
                    players,
                    result: Some(result),
                }
            })
            .collect();
        rounds.push(DuelRound {
            games,
            byes: pairing.byes,
        });
    }
    (entrants, rounds, forbidden)
}

fn pairing(c: &mut Criterion) {
    let (entrants, rounds, forbidden) = history();
    c.bench_function("pair_swiss: 200 entrants, round 7", |b| {
        b.iter(|| {
            pair_swiss(
                black_box(&entrants),
                black_box(&rounds),
                black_box(&forbidden),
            )
        })
    });
}

criterion_group!(benches, pairing);
criterion_main!(benches);
