//! Ratings as a fold (docs/ratings.md, "The fold"): over random histories of duels and melees
//! in several pools, rating each game from the stored columns of its participants' ratings (as
//! the finish transaction will) reaches bit for bit what a rebuild from nothing reaches, with
//! the same changes; each change starts where the participant's last one ended; provisional
//! marks and the leaderboard's order follow the rules.

use std::collections::BTreeMap;

use herald::games::GameKind;
use herald::ratings::{
    DuelOutcome, Finish, Kind, Limit, Pool, RatedResult, Rating, RatingChange, Ratings, Skill,
    System,
};
use proptest::prelude::*;

const DAY: i64 = 86_400_000;

/// The pools a history draws from: a duel and the melee, for humans and bots.
fn pools() -> [Pool; 4] {
    [
        Pool::new(GameKind::Bst, Kind::Humans),
        Pool::new(GameKind::ScaleOfStyles, Kind::Bots),
        Pool::new(GameKind::CrossingSwords, Kind::Humans),
        Pool::new(GameKind::CrossingSwords, Kind::Bots),
    ]
}

/// A drawn game: the index of its pool, hours since the previous one, (participant, place).
type Drawn = (usize, u32, Vec<(u8, u32)>);

/// One game: its pool, the days since the previous game ended (0 to 400, fractional), and
/// its participants (distinct, of 12) with their places.
fn game() -> impl Strategy<Value = Drawn> {
    (
        0..pools().len(),
        0u32..400 * 24,
        prop::sample::subsequence((0u8..12).collect::<Vec<_>>(), 2..=8).prop_shuffle(),
        prop::collection::vec(1u32..=4, 8),
    )
        .prop_map(|(pool, hours, players, places)| {
            (
                pool,
                hours,
                players.into_iter().zip(places).collect::<Vec<_>>(),
            )
        })
}

fn history(games: Vec<Drawn>) -> Vec<RatedResult<u8>> {
    let mut at = 1_700_000_000_000;
    games
        .into_iter()
        .map(|(pool, hours, mut players)| {
            let pool = pools()[pool];
            at += i64::from(hours) * DAY / 24;
            match pool.system() {
                System::Glicko2 => {
                    players.truncate(2);
                    let (a, b) = (players[0], players[1]);
                    let outcome = match a.1.cmp(&b.1) {
                        std::cmp::Ordering::Less => DuelOutcome::FirstWon,
                        std::cmp::Ordering::Equal => DuelOutcome::Draw,
                        std::cmp::Ordering::Greater => DuelOutcome::SecondWon,
                    };
                    RatedResult::duel(pool, at, a.0, b.0, outcome).unwrap()
                }
                System::WengLin => {
                    let finishes = players
                        .into_iter()
                        .map(|(participant, place)| Finish { participant, place })
                        .collect();
                    RatedResult::new(pool, at, finishes).unwrap()
                }
            }
        })
        .collect()
}

/// A rating as a store keeps it: the entry's columns and the last game's time.
type Columns = (f64, f64, Option<f64>, u32, Option<i64>);

/// The stored ratings, by pool and participant.
type Store = BTreeMap<(Pool, u8), Columns>;

fn columns(rating: &Rating) -> Columns {
    let entry = rating.entry();
    (
        entry.rating,
        entry.deviation,
        entry.volatility,
        entry.games,
        rating.last_game_at(),
    )
}

/// The finish transaction's path: read the participants' stored columns, rate the one game,
/// write the `after`s back.
fn incremental(results: &[RatedResult<u8>]) -> (Store, Vec<RatingChange<u8>>) {
    let mut store = Store::new();
    let mut changes = Vec::new();
    for result in results {
        let pool = result.pool();
        let loaded: Ratings<u8> = result
            .finishes()
            .iter()
            .filter_map(|f| {
                let (rating, deviation, volatility, games, last) =
                    *store.get(&(pool, f.participant))?;
                let stored =
                    Rating::from_columns(pool, rating, deviation, volatility, games, last).unwrap();
                Some((f.participant, stored))
            })
            .collect();
        let mut loaded = loaded;
        for change in loaded.apply(result) {
            store.insert((pool, change.participant), columns(&change.after));
            changes.push(change);
        }
    }
    (store, changes)
}

fn provisional_by_the_rules(rating: &Rating) -> bool {
    match rating.skill() {
        Skill::Glicko2(g) => g.deviation >= 110.0,
        Skill::WengLin(w) => w.sigma > 4.0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn rating_game_by_game_from_the_store_equals_a_rebuild(
        games in prop::collection::vec(game(), 1..60),
    ) {
        let results = history(games);
        let (rebuilt, rebuilt_changes) = Ratings::rebuild(&results);
        let (store, changes) = incremental(&results);
        prop_assert_eq!(&changes, &rebuilt_changes);
        let rebuilt_store: Store = rebuilt
            .pools()
            .flat_map(|pool| {
                rebuilt
                    .pool(pool)
                    .map(move |(p, r)| ((pool, *p), columns(r)))
            })
            .collect();
        prop_assert_eq!(store, rebuilt_store);

        // One result at a time into one fold is the same fold.
        let mut one_by_one = Ratings::new();
        for result in &results {
            one_by_one.apply(result);
        }
        prop_assert_eq!(one_by_one, rebuilt);
    }

    #[test]
    fn each_change_starts_where_the_last_one_ended(
        games in prop::collection::vec(game(), 1..60),
    ) {
        let results = history(games);
        let (rebuilt, changes) = Ratings::rebuild(&results);
        let mut last: BTreeMap<(Pool, u8), Rating> = BTreeMap::new();
        let per_change = results
            .iter()
            .flat_map(|r| std::iter::repeat_n(r, r.finishes().len()));
        for (result, change) in per_change.zip(&changes) {
            let key = (result.pool(), change.participant);
            let expected = last
                .get(&key)
                .copied()
                .unwrap_or_else(|| Rating::start(result.pool()));
            prop_assert_eq!(change.before, expected);
            prop_assert_eq!(change.after.games(), change.before.games() + 1);
            prop_assert_eq!(change.after.last_game_at(), Some(result.ended_at()));
            last.insert(key, change.after);
        }
        for ((pool, participant), rating) in last {
            prop_assert_eq!(rebuilt.get(pool, &participant), Some(&rating));
        }
    }

    #[test]
    fn provisional_marks_and_the_leaderboard_follow_the_rules(
        games in prop::collection::vec(game(), 1..80),
        limit in 1u32..=200,
    ) {
        let results = history(games);
        let (rebuilt, _) = Ratings::rebuild(&results);
        let limit = Limit::new(limit).unwrap();
        for pool in rebuilt.pools() {
            for (_, rating) in rebuilt.pool(pool) {
                let provisional = provisional_by_the_rules(rating);
                prop_assert_eq!(rating.is_provisional(), provisional);
                prop_assert_eq!(rating.entry().provisional, provisional);
                prop_assert_eq!(rating.shown().to_string().ends_with('?'), provisional);
            }
            let full = rebuilt.leaderboard(pool, Limit::MAX);
            prop_assert_eq!(full.len(), rebuilt.pool(pool).count());
            let board = rebuilt.leaderboard(pool, limit);
            prop_assert_eq!(board.len(), full.len().min(limit.get()));
            prop_assert_eq!(&board[..], &full[..board.len()]);
            for pair in full.windows(2) {
                let (a, b) = (pair[0].1, pair[1].1);
                // Settled first; within each group, the higher score first.
                prop_assert!(a.is_provisional() <= b.is_provisional());
                if a.is_provisional() == b.is_provisional() {
                    prop_assert!(a.score() >= b.score());
                }
                let expected = match pool.system() {
                    System::Glicko2 => a.entry().rating,
                    System::WengLin => a.entry().rating - 3.0 * a.entry().deviation,
                };
                prop_assert_eq!(a.score(), expected);
            }
        }
    }
}
