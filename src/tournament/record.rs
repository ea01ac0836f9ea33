//! The record of a tournament's rounds, as the server reads it from its games: each duel's result
//! (won, drawn, forfeited), each board's VP and winners, and the byes; and what follows from it for
//! pairing: who met whom, how often ([`Meetings`]), and each duel entrant's tally.

use std::collections::{BTreeMap, BTreeSet};

use super::entrants::{Entrant, EntrantId};
use super::points::Points;

/// How a duel ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DuelResult {
    /// Played to a decision: the winner scores 1, the loser 0.
    Won { winner: EntrantId },
    /// Drawn: ½ each (in a knockout, replayed: [`super::Knockout::decide`]).
    Drawn,
    /// Lost by forfeit (the loser withdrew during the game, or never played): the winner scores
    /// 1, the loser 0, and for both it is a round with no opponent (no tie-break counts it).
    Forfeited { winner: EntrantId },
}

impl DuelResult {
    /// The entrant who scored the win, if any.
    pub fn winner(self) -> Option<EntrantId> {
        match self {
            DuelResult::Won { winner } | DuelResult::Forfeited { winner } => Some(winner),
            DuelResult::Drawn => None,
        }
    }
}

/// One duel of a round; `result` is `None` while the game is unfinished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuelGame {
    pub players: [EntrantId; 2],
    pub result: Option<DuelResult>,
}

/// One round of duels: its games (in a knockout, a drawn game's replays follow it in the same
/// round) and its pairing byes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DuelRound {
    pub games: Vec<DuelGame>,
    pub byes: Vec<EntrantId>,
}

/// A round's pairing of duels: the games to create, and who has a bye.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DuelPairing {
    pub games: Vec<[EntrantId; 2]>,
    pub byes: Vec<EntrantId>,
}

/// One player's seat at a finished or running board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeleeSeat {
    pub entrant: EntrantId,
    /// His final VP on this board (ignored while the board is unfinished).
    pub vp: u32,
    /// Whether he is among the board's winners (co-winners each count a board won).
    pub won: bool,
}

/// One board of a melee round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MeleeBoard {
    pub seats: Vec<MeleeSeat>,
    /// Whether the board's game has finished; an unfinished board scores nothing yet.
    pub finished: bool,
}

/// One round of a melee: its boards, and who sat out (a melee bye scores nothing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MeleeRound {
    pub boards: Vec<MeleeBoard>,
    pub byes: Vec<EntrantId>,
}

/// Why a record cannot be counted. Rounds are numbered from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("round {round} names {entrant:?}, who is not an entrant")]
    UnknownEntrant { round: u32, entrant: EntrantId },
    #[error("round {round} seats {entrant:?} twice")]
    Twice { round: u32, entrant: EntrantId },
    #[error("round {round} names {winner:?} as the winner of a game he did not play")]
    WinnerNotPlaying { round: u32, winner: EntrantId },
}

/// How often each pair of entrants has been paired (a duel or a shared board), whatever the
/// result: a forfeited or unfinished game was still a pairing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Meetings {
    pairs: BTreeMap<(EntrantId, EntrantId), u32>,
}

fn ordered(a: EntrantId, b: EntrantId) -> (EntrantId, EntrantId) {
    (a.min(b), a.max(b))
}

impl Meetings {
    /// The meetings of duel rounds (a knockout's replays of one pair count once).
    pub fn of_duels(rounds: &[DuelRound]) -> Meetings {
        let mut meetings = Meetings::default();
        for round in rounds {
            let pairs: BTreeSet<_> = round
                .games
                .iter()
                .map(|g| ordered(g.players[0], g.players[1]))
                .collect();
            for (a, b) in pairs {
                meetings.add(a, b);
            }
        }
        meetings
    }

    /// The meetings of melee rounds: every two players who shared a board.
    pub fn of_melee(rounds: &[MeleeRound]) -> Meetings {
        let mut meetings = Meetings::default();
        for board in rounds.iter().flat_map(|r| &r.boards) {
            for (i, a) in board.seats.iter().enumerate() {
                for b in &board.seats[i + 1..] {
                    meetings.add(a.entrant, b.entrant);
                }
            }
        }
        meetings
    }

    /// Counts one more meeting of `a` and `b`.
    pub fn add(&mut self, a: EntrantId, b: EntrantId) {
        *self.pairs.entry(ordered(a, b)).or_default() += 1;
    }

    /// How often `a` and `b` have met.
    pub fn count(&self, a: EntrantId, b: EntrantId) -> u32 {
        self.pairs.get(&ordered(a, b)).copied().unwrap_or(0)
    }
}

/// How one game ended for one of its players, against whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Played {
    Won(EntrantId),
    Drew(EntrantId),
    Lost(EntrantId),
}

/// One duel entrant's record: points (games, byes, forfeit wins, the late half), the games
/// played out against an opponent, and the byes had.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub points: Points,
    pub played: Vec<Played>,
    pub byes: u32,
}

/// Every entrant's tally over duel rounds, checking the record on the way: every name an
/// entrant, nobody twice in a round, every winner a player of his game.
pub(crate) fn tally_duels(
    entrants: &[Entrant],
    rounds: &[DuelRound],
) -> Result<BTreeMap<EntrantId, Tally>, RecordError> {
    let mut tallies: BTreeMap<EntrantId, Tally> = entrants
        .iter()
        .map(|e| {
            let late = match e.is_late() {
                true => Points::HALF,
                false => Points::ZERO,
            };
            let tally = Tally {
                points: late,
                ..Tally::default()
            };
            (e.id, tally)
        })
        .collect();
    for (index, round) in rounds.iter().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let mut seen = BTreeSet::new();
        let names = round
            .games
            .iter()
            .flat_map(|g| g.players)
            .chain(round.byes.iter().copied());
        for entrant in names {
            if !tallies.contains_key(&entrant) {
                return Err(RecordError::UnknownEntrant {
                    round: number,
                    entrant,
                });
            }
            if !seen.insert(entrant) {
                return Err(RecordError::Twice {
                    round: number,
                    entrant,
                });
            }
        }
        for &bye in &round.byes {
            let tally = tallies.get_mut(&bye).expect("checked above");
            tally.points = tally.points + Points::ONE;
            tally.byes += 1;
        }
        for game in &round.games {
            score_game(&mut tallies, game, number)?;
        }
    }
    Ok(tallies)
}

fn score_game(
    tallies: &mut BTreeMap<EntrantId, Tally>,
    game: &DuelGame,
    round: u32,
) -> Result<(), RecordError> {
    let [a, b] = game.players;
    let Some(result) = game.result else {
        return Ok(());
    };
    if let Some(winner) = result.winner().filter(|w| *w != a && *w != b) {
        return Err(RecordError::WinnerNotPlaying { round, winner });
    }
    let mut add = |who: EntrantId, points: Points, played: Option<Played>| {
        let tally = tallies.get_mut(&who).expect("checked by the caller");
        tally.points = tally.points + points;
        tally.played.extend(played);
    };
    match result {
        DuelResult::Won { winner } => {
            let loser = if winner == a { b } else { a };
            add(winner, Points::ONE, Some(Played::Won(loser)));
            add(loser, Points::ZERO, Some(Played::Lost(winner)));
        }
        DuelResult::Drawn => {
            add(a, Points::HALF, Some(Played::Drew(b)));
            add(b, Points::HALF, Some(Played::Drew(a)));
        }
        // A round with no opponent for both: the winner's point, nothing for tie-breaks.
        DuelResult::Forfeited { winner } => add(winner, Points::ONE, None),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u64) -> EntrantId {
        EntrantId(n)
    }

    fn game(a: u64, b: u64, result: Option<DuelResult>) -> DuelGame {
        DuelGame {
            players: [id(a), id(b)],
            result,
        }
    }

    #[test]
    fn a_tally_counts_games_byes_forfeits_and_the_late_half_once() {
        let entrants = vec![
            Entrant::new(id(1), 0),
            Entrant::new(id(2), 1),
            Entrant::new(id(3), 2),
            Entrant {
                first_round: 2,
                ..Entrant::new(id(4), 3)
            },
        ];
        let rounds = vec![
            DuelRound {
                games: vec![game(1, 2, Some(DuelResult::Won { winner: id(1) }))],
                byes: vec![id(3)],
            },
            DuelRound {
                games: vec![
                    game(1, 3, Some(DuelResult::Drawn)),
                    game(2, 4, Some(DuelResult::Forfeited { winner: id(4) })),
                ],
                byes: vec![],
            },
            DuelRound {
                games: vec![game(1, 4, None)],
                byes: vec![],
            },
        ];
        let t = tally_duels(&entrants, &rounds).unwrap();
        assert_eq!(t[&id(1)].points, Points::ONE + Points::HALF);
        assert_eq!(t[&id(1)].played, [Played::Won(id(2)), Played::Drew(id(3))]);
        assert_eq!(t[&id(2)].points, Points::ZERO);
        assert_eq!(t[&id(2)].played, [Played::Lost(id(1))]);
        assert_eq!(t[&id(3)].points, Points::ONE + Points::HALF);
        assert_eq!(t[&id(3)].byes, 1);
        // The late half once, and the forfeit win without an opponent.
        assert_eq!(t[&id(4)].points, Points::ONE + Points::HALF);
        assert!(t[&id(4)].played.is_empty());
    }

    #[test]
    fn a_record_that_names_a_stranger_or_someone_twice_is_refused() {
        let entrants = vec![Entrant::new(id(1), 0), Entrant::new(id(2), 1)];
        let stranger = vec![DuelRound {
            games: vec![game(1, 9, None)],
            byes: vec![],
        }];
        assert_eq!(
            tally_duels(&entrants, &stranger),
            Err(RecordError::UnknownEntrant {
                round: 1,
                entrant: id(9)
            })
        );
        let twice = vec![DuelRound {
            games: vec![game(1, 2, None)],
            byes: vec![id(2)],
        }];
        assert_eq!(
            tally_duels(&entrants, &twice),
            Err(RecordError::Twice {
                round: 1,
                entrant: id(2)
            })
        );
        let wrong_winner = vec![DuelRound {
            games: vec![game(1, 2, Some(DuelResult::Won { winner: id(3) }))],
            byes: vec![],
        }];
        assert!(matches!(
            tally_duels(&entrants, &wrong_winner),
            Err(RecordError::WinnerNotPlaying { round: 1, .. })
        ));
    }

    #[test]
    fn meetings_count_pairs_once_per_round_and_every_pair_at_a_board() {
        let rounds = vec![
            DuelRound {
                games: vec![game(1, 2, Some(DuelResult::Drawn)), game(2, 1, None)],
                byes: vec![],
            },
            DuelRound {
                games: vec![game(2, 1, Some(DuelResult::Forfeited { winner: id(1) }))],
                byes: vec![],
            },
        ];
        let duels = Meetings::of_duels(&rounds);
        assert_eq!(duels.count(id(1), id(2)), 2);
        assert_eq!(duels.count(id(1), id(3)), 0);
        let seat = |n| MeleeSeat {
            entrant: id(n),
            vp: 0,
            won: false,
        };
        let melee = Meetings::of_melee(&[MeleeRound {
            boards: vec![MeleeBoard {
                seats: vec![seat(1), seat(2), seat(3)],
                finished: false,
            }],
            byes: vec![],
        }]);
        assert_eq!(melee.count(id(3), id(1)), 1);
        assert_eq!(melee.count(id(2), id(3)), 1);
        assert_eq!(melee.count(id(1), id(4)), 0);
    }
}
