//! The melee's board sizes, byes, and seating against an exhaustive search.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::tournament::record::{MeleeBoard, MeleeSeat};

fn id(n: u64) -> EntrantId {
    EntrantId(n)
}

fn field(n: u64) -> Vec<Entrant> {
    (1..=n).map(|i| Entrant::new(id(i), i as u32)).collect()
}

/// A finished round from a seating (every board's first player wins with 1 VP).
fn played(seating: &MeleeSeating) -> MeleeRound {
    MeleeRound {
        boards: seating
            .boards
            .iter()
            .map(|board| MeleeBoard {
                seats: board
                    .iter()
                    .enumerate()
                    .map(|(i, e)| MeleeSeat {
                        entrant: *e,
                        vp: u32::from(i == 0),
                        won: i == 0,
                    })
                    .collect(),
                finished: true,
            })
            .collect(),
        byes: seating.byes.clone(),
    }
}

#[test]
fn boards_are_as_few_as_fit_and_differ_by_at_most_one() {
    assert_eq!(board_sizes(9, 5), [5, 4]);
    assert_eq!(board_sizes(10, 5), [5, 5]);
    assert_eq!(board_sizes(11, 5), [4, 4, 3]);
    assert_eq!(board_sizes(6, 5), [3, 3]);
    assert_eq!(board_sizes(16, 16), [16]);
    // Boards of two and an odd field: one player sits out.
    assert_eq!(board_sizes(5, 2), [2, 2]);
    assert_eq!(board_sizes(1, 7), Vec::<usize>::new());
    assert_eq!(board_sizes(0, 7), Vec::<usize>::new());
}

#[test]
fn nine_players_at_boards_of_three_never_meet_twice_in_four_rounds() {
    // The nine points of the affine plane of order 3 have four parallel classes: four rounds
    // without a repeat exist, and the search finds them round by round.
    let entrants = field(9);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut rounds = Vec::new();
    for _ in 0..4 {
        let seating = seat_melee(&entrants, &rounds, 3, &mut rng).unwrap();
        assert_eq!(seating.repeats, 0, "{seating:?} after {rounds:?}");
        assert_eq!(seating.boards.len(), 3);
        rounds.push(played(&seating));
    }
    let meetings = Meetings::of_melee(&rounds);
    for a in 1..=9 {
        for b in a + 1..=9 {
            assert_eq!(meetings.count(id(a), id(b)), 1, "{a} and {b}");
        }
    }
}

#[test]
fn the_bye_goes_to_the_lowest_placed_with_the_fewest_byes() {
    let entrants = field(5);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let first = seat_melee(&entrants, &[], 2, &mut rng).unwrap();
    assert_eq!(first.byes, [id(5)]);
    let rounds = vec![played(&first)];
    let second = seat_melee(&entrants, &rounds, 2, &mut rng).unwrap();
    assert_eq!(second.byes.len(), 1);
    assert_ne!(second.byes, [id(5)]);
    assert_eq!(
        seat_melee(&entrants, &[], 1, &mut rng),
        Err(MeleeError::BoardTooSmall)
    );
}

#[test]
fn the_withdrawn_sit_no_more_and_a_late_entrant_sits_from_his_round() {
    let mut entrants = field(9);
    entrants[0].withdrawn = true;
    entrants[8].first_round = 2;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let first = seat_melee(&entrants, &[], 5, &mut rng).unwrap();
    let mut seated: Vec<u64> = first.boards.iter().flatten().map(|e| e.0).collect();
    seated.sort();
    assert_eq!(seated, [2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(
        first.boards.iter().map(Vec::len).collect::<Vec<_>>(),
        [4, 3]
    );
}

/// The fewest repeated pairs of any seating at boards of `sizes`, by trying every one.
fn exhaustive(players: &[EntrantId], sizes: &[usize], meetings: &Meetings) -> u64 {
    fn go(
        players: &[EntrantId],
        boards: &mut Vec<Vec<EntrantId>>,
        sizes: &[usize],
        meetings: &Meetings,
        best: &mut u64,
    ) {
        let Some((first, rest)) = players.split_first() else {
            *best = (*best).min(cost(boards, meetings).0);
            return;
        };
        for b in 0..boards.len() {
            // Boards of equal size are interchangeable: fill the first empty one only.
            let empty_before = (0..b).any(|c| boards[c].is_empty() && sizes[c] == sizes[b]);
            if boards[b].len() < sizes[b] && !empty_before {
                boards[b].push(*first);
                go(rest, boards, sizes, meetings, best);
                boards[b].pop();
            }
        }
    }
    let mut best = u64::MAX;
    go(
        players,
        &mut vec![Vec::new(); sizes.len()],
        sizes,
        meetings,
        &mut best,
    );
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Sizes as the contract says, everyone seated once, and as few repeats as the best of all
    /// seatings, after random earlier rounds.
    #[test]
    fn the_seating_repeats_as_few_pairs_as_the_best_seating(
        seed in any::<u64>(),
        n in 2u64..=9,
        board_size in 2usize..=5,
        earlier in 0usize..=4,
    ) {
        let entrants = field(n);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut rounds = Vec::new();
        for _ in 0..earlier {
            // Earlier rounds seated at random boards of a random size.
            let mut order: Vec<EntrantId> = entrants.iter().map(|e| e.id).collect();
            order.shuffle(&mut rng);
            let size = rng.random_range(2..=4usize);
            let boards = order.chunks(size).map(<[EntrantId]>::to_vec).collect();
            rounds.push(played(&MeleeSeating { boards, byes: vec![], repeats: 0 }));
        }
        let seating = seat_melee(&entrants, &rounds, board_size, &mut rng).unwrap();
        let sizes: Vec<usize> = seating.boards.iter().map(Vec::len).collect();
        prop_assert_eq!(&sizes, &board_sizes(n as usize, board_size));
        prop_assert!(sizes.iter().all(|s| *s <= board_size && *s >= 2));
        prop_assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        let mut everyone: Vec<EntrantId> = seating.boards.iter().flatten().chain(&seating.byes).copied().collect();
        everyone.sort();
        prop_assert_eq!(everyone, entrants.iter().map(|e| e.id).collect::<Vec<_>>());
        let meetings = Meetings::of_melee(&rounds);
        prop_assert_eq!(seating.repeats, cost(&seating.boards, &meetings).0);
        let seated: Vec<EntrantId> = seating.boards.iter().flatten().copied().collect();
        prop_assert_eq!(seating.repeats, exhaustive(&seated, &sizes, &meetings));
    }
}
