//! The knockout's bracket, byes, drawn games replayed, withdrawals and standings.

use proptest::prelude::*;

use super::*;

fn id(n: u64) -> EntrantId {
    EntrantId(n)
}

fn field(n: u64) -> Vec<Entrant> {
    (1..=n).map(|i| Entrant::new(id(i), i as u32)).collect()
}

fn game(a: u64, b: u64, result: Option<DuelResult>) -> DuelGame {
    DuelGame {
        players: [id(a), id(b)],
        result,
    }
}

fn won(winner: u64) -> Option<DuelResult> {
    Some(DuelResult::Won { winner: id(winner) })
}

fn numbers(pairing: &DuelPairing) -> (Vec<[u64; 2]>, Vec<u64>) {
    let games = pairing.games.iter().map(|[a, b]| [a.0, b.0]).collect();
    (games, pairing.byes.iter().map(|b| b.0).collect())
}

#[test]
fn the_bracket_keeps_the_top_seeds_apart_until_the_end() {
    assert_eq!(bracket_order(8), [1, 8, 4, 5, 2, 7, 3, 6]);
    assert_eq!(bracket_order(4), [1, 4, 2, 3]);
    assert_eq!(bracket_order(1), [1]);
}

#[test]
fn seeds_follow_ratings_then_entry_and_byes_go_to_the_top_seeds() {
    let mut entrants = field(6);
    entrants[5].rating = Some(1800.0);
    entrants[2].rating = Some(1600.0);
    let bracket = Knockout::new(&entrants);
    assert_eq!(bracket.rounds_total(), 3);
    assert_eq!(bracket.seeds(), [id(6), id(3), id(1), id(2), id(4), id(5)]);
    assert_eq!(bracket.seed_of(id(1)), Some(3));
    let first = bracket.pair_round(&entrants, &[]).unwrap().unwrap();
    // Seeds 4 v 5 and 3 v 6 play; seeds 1 and 2 have the byes.
    assert_eq!(numbers(&first), (vec![[2, 4], [1, 5]], vec![6, 3]));
}

#[test]
fn a_drawn_game_is_replayed_twice_then_the_higher_seed_goes_through() {
    let bracket = Knockout::new(&field(2));
    let pair = [id(2), id(1)];
    let drawn = Some(DuelResult::Drawn);
    assert_eq!(bracket.decide(pair, &[]), Ok(MatchDecision::Pending));
    assert_eq!(bracket.decide(pair, &[None]), Ok(MatchDecision::Pending));
    assert_eq!(
        bracket.decide(pair, &[drawn]),
        Ok(MatchDecision::Replay { replay: 1 })
    );
    assert_eq!(
        bracket.decide(pair, &[drawn, drawn]),
        Ok(MatchDecision::Replay { replay: 2 })
    );
    assert_eq!(
        bracket.decide(pair, &[drawn, drawn, None]),
        Ok(MatchDecision::Pending)
    );
    assert_eq!(
        bracket.decide(pair, &[drawn, drawn, drawn]),
        Ok(MatchDecision::Through {
            winner: id(1),
            by: Advance::HigherSeed
        })
    );
    assert_eq!(
        bracket.decide(pair, &[drawn, won(2)]),
        Ok(MatchDecision::Through {
            winner: id(2),
            by: Advance::Won
        })
    );
    assert_eq!(
        bracket.decide(pair, &[Some(DuelResult::Forfeited { winner: id(1) })]),
        Ok(MatchDecision::Through {
            winner: id(1),
            by: Advance::Forfeit
        })
    );
    assert_eq!(
        bracket.decide(pair, &[won(2), drawn]),
        Err(KnockoutError::GameAfterDecision)
    );
    assert_eq!(
        bracket.decide(pair, &[won(3)]),
        Err(KnockoutError::WinnerNotPlaying)
    );
    assert_eq!(
        bracket.decide([id(1), id(9)], &[]),
        Err(KnockoutError::NotInBracket(id(9)))
    );
}

/// Six entrants (seeds by entry): 4 v 5 drawn then replayed, 3 beats 6; 1 beats 5 and 3 beats
/// 2; 3 wins the final by forfeit.
#[test]
fn a_knockout_of_six_with_a_drawn_game_runs_to_its_end() {
    let entrants = field(6);
    let bracket = Knockout::new(&entrants);
    let mut rounds = vec![DuelRound {
        games: vec![game(4, 5, Some(DuelResult::Drawn)), game(3, 6, won(3))],
        byes: vec![id(1), id(2)],
    }];
    assert_eq!(
        bracket.pair_round(&entrants, &rounds),
        Err(KnockoutError::RoundUnfinished { round: 1 })
    );
    rounds[0].games.push(game(4, 5, won(5)));
    let second = bracket.pair_round(&entrants, &rounds).unwrap().unwrap();
    assert_eq!(numbers(&second), (vec![[1, 5], [2, 3]], vec![]));
    rounds.push(DuelRound {
        games: vec![game(1, 5, won(1)), game(2, 3, won(3))],
        byes: vec![],
    });
    let last = bracket.pair_round(&entrants, &rounds).unwrap().unwrap();
    assert_eq!(numbers(&last), (vec![[1, 3]], vec![]));
    // While the final is played, the standings stand as after round 2.
    rounds.push(DuelRound {
        games: vec![game(1, 3, None)],
        byes: vec![],
    });
    let during: Vec<(u64, u32)> = bracket
        .standings(&rounds)
        .unwrap()
        .iter()
        .map(|s| (s.entrant.0, s.rank))
        .collect();
    assert_eq!(during, [(1, 1), (3, 1), (2, 3), (5, 3), (4, 5), (6, 5)]);
    rounds[2].games[0].result = Some(DuelResult::Forfeited { winner: id(3) });
    assert_eq!(bracket.pair_round(&entrants, &rounds), Ok(None));
    let standings: Vec<(u64, u32, Points)> = bracket
        .standings(&rounds)
        .unwrap()
        .iter()
        .map(|s| (s.entrant.0, s.rank, s.points))
        .collect();
    assert_eq!(
        standings,
        [
            (3, 1, Points::whole(3)),
            (1, 2, Points::whole(2)),
            (2, 3, Points::whole(1)),
            (5, 3, Points::whole(1)),
            (4, 5, Points::whole(0)),
            (6, 5, Points::whole(0)),
        ]
    );
}

#[test]
fn a_withdrawn_entrant_s_next_opponent_goes_through_without_a_game() {
    let mut entrants = field(4);
    let bracket = Knockout::new(&entrants);
    let rounds = vec![DuelRound {
        games: vec![game(1, 4, won(1)), game(2, 3, won(2))],
        byes: vec![],
    }];
    entrants[1].withdrawn = true;
    let last = bracket.pair_round(&entrants, &rounds).unwrap().unwrap();
    assert_eq!(numbers(&last), (vec![], vec![1]));
    // A result that does not follow the bracket is refused.
    let stray = vec![DuelRound {
        games: vec![game(1, 4, won(1)), game(2, 3, won(2))],
        byes: vec![id(4)],
    }];
    assert_eq!(
        bracket.pair_round(&entrants, &stray),
        Err(KnockoutError::OffBracket {
            round: 1,
            entrant: id(4)
        })
    );
}

proptest! {
    /// Whatever the field and whoever wins, every round halves the field, the rounds number
    /// ⌈log₂ n⌉, and exactly one entrant is ranked first at the end.
    #[test]
    fn a_knockout_ends_with_one_winner_after_its_rounds(n in 2u64..=40, coin in any::<u64>()) {
        let entrants = field(n);
        let bracket = Knockout::new(&entrants);
        let mut rounds = Vec::new();
        let mut bit = 0;
        while let Some(pairing) = bracket.pair_round(&entrants, &rounds).unwrap() {
            let games = pairing
                .games
                .iter()
                .map(|[a, b]| {
                    bit = (bit + 1) % 64;
                    let winner = if coin >> bit & 1 == 1 { *a } else { *b };
                    DuelGame { players: [*a, *b], result: Some(DuelResult::Won { winner }) }
                })
                .collect();
            rounds.push(DuelRound { games, byes: pairing.byes });
        }
        let total = (n as f64).log2().ceil() as usize;
        prop_assert_eq!(rounds.len(), total);
        prop_assert_eq!(rounds[0].byes.len() as u64, n.next_power_of_two() - n);
        let standings = bracket.standings(&rounds).unwrap();
        prop_assert_eq!(standings.iter().filter(|s| s.rank == 1).count(), 1);
        prop_assert_eq!(standings[0].points, Points::whole(total as u64));
    }
}
