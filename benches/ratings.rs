//! What one rating update costs (`docs/ratings.md`, "Cost"): a Glicko-2 duel between two
//! settled players, one of them idle for a month, and a 16-player Crossing Swords melee with
//! a tie, each through `Ratings::apply` on ratings loaded as the finish transaction loads
//! them. A game is rated once, when it finishes.

use criterion::{Criterion, criterion_group, criterion_main};
use herald::games::GameKind;
use herald::ratings::{DuelOutcome, Finish, Kind, Pool, RatedResult, Rating, Ratings};
use std::hint::black_box;

const DAY: i64 = 86_400_000;

fn duel(c: &mut Criterion) {
    let pool = Pool::new(GameKind::Bst, Kind::Humans);
    let ended = 400 * DAY;
    let stored: Ratings<u32> = [
        (
            1,
            Rating::from_columns(pool, 1720.0, 62.0, Some(0.06), 40, Some(ended - 30 * DAY)),
        ),
        (
            2,
            Rating::from_columns(pool, 1650.0, 80.0, Some(0.059), 25, Some(ended - DAY)),
        ),
    ]
    .into_iter()
    .map(|(p, r)| (p, r.expect("stored columns")))
    .collect();
    let result = RatedResult::duel(pool, ended, 1, 2, DuelOutcome::SecondWon).expect("a duel");
    c.bench_function("ratings/glicko2-duel", |b| {
        b.iter(|| black_box(stored.clone()).apply(black_box(&result)))
    });
}

fn melee(c: &mut Criterion) {
    let pool = Pool::new(GameKind::CrossingSwords, Kind::Humans);
    let stored: Ratings<u32> = (0..16)
        .map(|p| {
            let mu = 20.0 + f64::from(p);
            let rating = Rating::from_columns(pool, mu, 3.0 + f64::from(p) / 8.0, None, 12, None);
            (p, rating.expect("stored columns"))
        })
        .collect();
    let finishes = (0..16)
        .map(|p| Finish {
            participant: p,
            place: (p / 2).max(1),
        })
        .collect();
    let result = RatedResult::new(pool, DAY, finishes).expect("a melee");
    c.bench_function("ratings/weng-lin-16-players", |b| {
        b.iter(|| black_box(stored.clone()).apply(black_box(&result)))
    });
}

criterion_group!(benches, duel, melee);
criterion_main!(benches);
