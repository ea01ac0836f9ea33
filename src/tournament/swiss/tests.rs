//! The Swiss pairing's rules one by one, and the matching against a brute-force search of every
//! pairing on many random histories of up to 12 players.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::tournament::record::{DuelGame, DuelResult};

fn id(n: u64) -> EntrantId {
    EntrantId(n)
}

fn field(n: u64) -> Vec<Entrant> {
    (1..=n).map(|i| Entrant::new(id(i), i as u32)).collect()
}

fn won(winner: u64, loser: u64) -> DuelGame {
    DuelGame {
        players: [id(winner), id(loser)],
        result: Some(DuelResult::Won { winner: id(winner) }),
    }
}

fn games(pairing: &DuelPairing) -> Vec<[u64; 2]> {
    pairing.games.iter().map(|[a, b]| [a.0, b.0]).collect()
}

fn byes(pairing: &DuelPairing) -> Vec<u64> {
    pairing.byes.iter().map(|b| b.0).collect()
}

#[test]
fn the_first_round_pairs_the_top_half_against_the_bottom_half_by_seed() {
    let mut entrants = field(8);
    // Seeded by rating first: 8 is rated, so he leads.
    entrants[7].rating = Some(1700.0);
    let pairing = pair_swiss(&entrants, &[], &[]).unwrap();
    assert_eq!(games(&pairing), [[8, 4], [1, 5], [2, 6], [3, 7]]);
    assert!(pairing.byes.is_empty());
}

#[test]
fn an_odd_field_s_bye_keeps_score_gaps_smallest_then_goes_to_the_lowest_placed() {
    let entrants = field(5);
    let first = pair_swiss(&entrants, &[], &[]).unwrap();
    assert_eq!(byes(&first), [5]);
    assert_eq!(games(&first), [[1, 3], [2, 4]]);
    // 1, 2 and 5 have a point, 3 and 4 none; 5 has had the bye. A bye to 3 or 4 would leave a
    // one-point gap in a game; a bye to 1 or 2 leaves none: the sum of squared differences
    // comes first, then the lower placed of the two.
    let rounds = [DuelRound {
        games: vec![won(1, 3), won(2, 4)],
        byes: vec![id(5)],
    }];
    let second = pair_swiss(&entrants, &rounds, &[]).unwrap();
    assert_eq!(byes(&second), [2]);
    assert_eq!(games(&second), [[1, 5], [3, 4]]);
}

#[test]
fn nobody_gets_a_second_bye_while_someone_has_had_none_even_at_a_price_in_scores() {
    let entrants = field(3);
    // 3 had a bye and lost since; 1 and 2 have had none. 1 leads alone.
    let rounds = [
        DuelRound {
            games: vec![won(1, 2)],
            byes: vec![id(3)],
        },
        DuelRound {
            games: vec![won(1, 3)],
            byes: vec![id(2)],
        },
    ];
    // Scores: 1 two wins, 2 one bye, 3 one bye. The bye goes to 1, the only one without.
    let pairing = pair_swiss(&entrants, &rounds, &[]).unwrap();
    assert_eq!(byes(&pairing), [1]);
    assert_eq!(games(&pairing), [[2, 3]]);
}

#[test]
fn nobody_meets_an_opponent_again_while_another_pairing_avoids_it() {
    let entrants = field(4);
    let rounds = [DuelRound {
        games: vec![won(1, 3), won(2, 4)],
        byes: vec![],
    }];
    // By scores 1 v 2 and 3 v 4 (no score gap), which are new pairs.
    let second = pair_swiss(&entrants, &rounds, &[]).unwrap();
    assert_eq!(games(&second), [[1, 2], [3, 4]]);
    let rounds = [
        rounds[0].clone(),
        DuelRound {
            games: vec![won(1, 2), won(3, 4)],
            byes: vec![],
        },
    ];
    // 1 (2 wins) and 4 (none) are the only new pairs left: a gap of two points rather than a
    // rematch.
    let third = pair_swiss(&entrants, &rounds, &[]).unwrap();
    assert_eq!(games(&third), [[1, 4], [2, 3]]);
    // When every pairing repeats, the game is still played.
    let two = field(2);
    let met = [DuelRound {
        games: vec![won(1, 2)],
        byes: vec![],
    }];
    assert_eq!(games(&pair_swiss(&two, &met, &[]).unwrap()), [[1, 2]]);
}

#[test]
fn a_forbidden_pair_is_never_paired_even_when_that_costs_a_bye() {
    let entrants = field(4);
    let pairing = pair_swiss(&entrants, &[], &[[id(3), id(1)]]).unwrap();
    assert_eq!(pairing.games.len(), 2);
    assert!(!games(&pairing).contains(&[1, 3]));
    let two = field(2);
    let alone = pair_swiss(&two, &[], &[[id(1), id(2)]]).unwrap();
    assert!(alone.games.is_empty());
    assert_eq!(byes(&alone), [1, 2]);
    assert_eq!(
        pair_swiss(&two, &[], &[[id(1), id(9)]]),
        Err(PairingError::UnknownForbidden(id(9)))
    );
}

#[test]
fn the_withdrawn_are_not_paired_and_a_late_entrant_plays_from_his_round_on() {
    let mut entrants = field(5);
    entrants[1].withdrawn = true;
    entrants[4].first_round = 2;
    let first = pair_swiss(&entrants, &[], &[]).unwrap();
    assert_eq!(games(&first), [[1, 3]]);
    assert_eq!(byes(&first), [4]);
    let rounds = [DuelRound {
        games: vec![won(1, 3)],
        byes: vec![id(4)],
    }];
    // 5 enters with the late half: 1 and 4 lead with 1, then 5 (½), then 3.
    let second = pair_swiss(&entrants, &rounds, &[]).unwrap();
    assert_eq!(games(&second), [[1, 4], [5, 3]]);
}

#[test]
fn scores_decide_before_the_order_within_a_group() {
    let entrants = field(6);
    let rounds = [DuelRound {
        games: vec![won(1, 4), won(2, 5), won(3, 6)],
        byes: vec![],
    }];
    // Winners among themselves, losers among themselves, each without a rematch.
    let second = pair_swiss(&entrants, &rounds, &[]).unwrap();
    let cost = |p: &DuelPairing| -> u64 {
        let tallies = tally_duels(&entrants, &rounds).unwrap();
        p.games
            .iter()
            .map(|[a, b]| {
                (tallies[a].points.quarters() / 2)
                    .abs_diff(tallies[b].points.quarters() / 2)
                    .pow(2)
            })
            .sum()
    };
    assert_eq!(cost(&second), 4, "one winner must float down: {second:?}");
    assert_eq!(second.games.len(), 3);
}

/// Every pairing of `p` (any player may be left with a bye), searched exhaustively: the best
/// cost by the contract's order.
fn oracle(p: &Problem) -> Cost {
    fn search(
        p: &Problem,
        mate: &mut Vec<Option<usize>>,
        done: &mut Vec<bool>,
        best: &mut Option<Cost>,
    ) {
        let Some(i) = done.iter().position(|d| !d) else {
            let cost = p.cost(mate);
            if best.is_none_or(|b| cost.key() < b.key()) {
                *best = Some(cost);
            }
            return;
        };
        done[i] = true;
        search(p, mate, done, best);
        for j in i + 1..p.len() {
            if !done[j] && p.allowed(i, j) {
                done[j] = true;
                mate[i] = Some(j);
                mate[j] = Some(i);
                search(p, mate, done, best);
                mate[i] = None;
                mate[j] = None;
                done[j] = false;
            }
        }
        done[i] = false;
    }
    let mut best = None;
    search(
        p,
        &mut vec![None; p.len()],
        &mut vec![false; p.len()],
        &mut best,
    );
    best.expect("leaving everyone a bye is a pairing")
}

/// A random history of `n` entrants: some rated, some late, some withdrawn, up to five rounds
/// paired at random (so rematches and repeated byes happen), every kind of result, and a few
/// forbidden pairs.
fn history(seed: u64, n: u64) -> (Vec<Entrant>, Vec<DuelRound>, Vec<[EntrantId; 2]>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let played = rng.random_range(0..=5u32);
    let mut entrants = field(n);
    for e in &mut entrants {
        if rng.random_bool(0.3) {
            e.rating = Some(f64::from(rng.random_range(1000..2000u32)));
        }
        if played > 0 && rng.random_bool(0.15) {
            e.first_round = rng.random_range(2..=played + 1);
        }
        e.withdrawn = rng.random_bool(0.1);
    }
    let mut rounds = Vec::new();
    for round in 1..=played {
        let mut players: Vec<EntrantId> = entrants
            .iter()
            .filter(|e| e.first_round <= round)
            .map(|e| e.id)
            .collect();
        for i in (1..players.len()).rev() {
            players.swap(i, rng.random_range(0..=i));
        }
        let mut record = DuelRound::default();
        for pair in players.chunks(2) {
            match pair {
                [a, b] => {
                    let result = match rng.random_range(0..5u8) {
                        0 | 1 => Some(DuelResult::Won { winner: *a }),
                        2 => Some(DuelResult::Drawn),
                        3 => Some(DuelResult::Forfeited { winner: *b }),
                        _ => Some(DuelResult::Won { winner: *b }),
                    };
                    record.games.push(DuelGame {
                        players: [*a, *b],
                        result,
                    });
                }
                [a] => record.byes.push(*a),
                _ => unreachable!("chunks of two"),
            }
        }
        rounds.push(record);
    }
    let pairs = if n < 2 { 0 } else { rng.random_range(0..=3u32) };
    let forbidden = (0..pairs)
        .map(|_| [id(rng.random_range(1..=n)), id(rng.random_range(1..=n))])
        .filter(|[a, b]| a != b)
        .collect();
    (entrants, rounds, forbidden)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The matching finds a pairing as good as the best of all pairings, on every criterion.
    #[test]
    fn the_matching_pairs_as_well_as_the_brute_force_oracle(seed in any::<u64>(), n in 0u64..=12) {
        let (entrants, rounds, forbidden) = history(seed, n);
        let p = problem(&entrants, &rounds, &forbidden).unwrap();
        let mates = best_mates(&p).unwrap();
        for (i, m) in mates.iter().enumerate() {
            if let Some(j) = m {
                prop_assert_eq!(mates[*j], Some(i));
                prop_assert!(p.allowed(i, *j));
            }
        }
        prop_assert_eq!(p.cost(&mates), oracle(&p));
    }

    /// Every player of the round is in exactly one game or bye; nobody else is; no forbidden
    /// pair plays; a rematch only when the oracle has none without it.
    #[test]
    fn a_pairing_seats_exactly_the_round_s_players(seed in any::<u64>(), n in 0u64..=40) {
        let (entrants, rounds, forbidden) = history(seed, n);
        let pairing = pair_swiss(&entrants, &rounds, &forbidden).unwrap();
        let round = rounds.len() as u32 + 1;
        let mut seated: Vec<EntrantId> = pairing.games.iter().flatten().copied().collect();
        seated.extend(&pairing.byes);
        seated.sort();
        let expected: Vec<EntrantId> = entrants.iter().filter(|e| e.plays_in(round)).map(|e| e.id).collect();
        prop_assert_eq!(seated, expected);
        for [a, b] in &pairing.games {
            prop_assert!(!forbidden.contains(&[*a, *b]) && !forbidden.contains(&[*b, *a]));
        }
        // Without forbidden pairs, at most one bye.
        if forbidden.is_empty() {
            prop_assert!(pairing.byes.len() <= 1);
        }
    }
}
