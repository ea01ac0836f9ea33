//! Standings of each format with the tie-breaks the contract fixes (`docs/tournaments.md`,
//! "Scoring and tie-breaks"): points first, then the format's tie-breaks in order; entrants equal
//! on all of them share a rank (1, 2, 2, 4) and are listed by seed.

use std::collections::BTreeMap;

use serde::Serialize;

use super::entrants::{Entrant, EntrantId, seed_cmp};
use super::points::Points;
use super::record::{DuelRound, MeleeRound, Played, RecordError, Tally, tally_duels};

/// The tie-breaks of one standing, by format; serialised as the contract's `tiebreaks` object
/// (`{"sonneborn_berger": 2.5, "buchholz": 7}`, `{"boards_won": 1}`, `{}` for a knockout).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Tiebreaks {
    /// Swiss: Sonneborn-Berger (the scores of the opponents beaten, plus half the scores of those
    /// drawn), then Buchholz (the sum of the opponents' scores).
    Swiss {
        sonneborn_berger: Points,
        buchholz: Points,
    },
    /// Round robin: Sonneborn-Berger.
    RoundRobin { sonneborn_berger: Points },
    /// Knockout: none; the points are the rounds won, and those out in the same round share a
    /// rank.
    Knockout {},
    /// Melee: the boards won (co-winners each count one).
    Melee { boards_won: u32 },
}

impl Tiebreaks {
    /// The tie-breaks as comparable numbers, in the order they apply.
    fn key(&self) -> Vec<u64> {
        match self {
            Tiebreaks::Swiss {
                sonneborn_berger,
                buchholz,
            } => vec![sonneborn_berger.quarters(), buchholz.quarters()],
            Tiebreaks::RoundRobin { sonneborn_berger } => vec![sonneborn_berger.quarters()],
            Tiebreaks::Knockout {} => vec![],
            Tiebreaks::Melee { boards_won } => vec![u64::from(*boards_won)],
        }
    }
}

/// One entrant's place in the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// 1 for the first; entrants equal on points and every tie-break share a rank.
    pub rank: u32,
    pub entrant: EntrantId,
    pub points: Points,
    pub tiebreaks: Tiebreaks,
}

/// A standing as the contract shows it: `{"rank", "handle", "points", "tiebreaks"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StandingRow {
    pub rank: u32,
    pub handle: String,
    pub points: Points,
    pub tiebreaks: Tiebreaks,
}

/// The standings with each entrant's handle, as the caller names them.
pub fn named(standings: &[Standing], handle: impl Fn(EntrantId) -> String) -> Vec<StandingRow> {
    standings
        .iter()
        .map(|s| StandingRow {
            rank: s.rank,
            handle: handle(s.entrant),
            points: s.points,
            tiebreaks: s.tiebreaks.clone(),
        })
        .collect()
}

/// Orders standings by points then tie-breaks (highest first), seed within a tie, and ranks them.
pub(crate) fn ranked(
    entrants: &[Entrant],
    unranked: Vec<(EntrantId, Points, Tiebreaks)>,
) -> Vec<Standing> {
    let seeds: BTreeMap<EntrantId, &Entrant> = entrants.iter().map(|e| (e.id, e)).collect();
    let mut rows: Vec<(Vec<u64>, EntrantId, Points, Tiebreaks)> = unranked
        .into_iter()
        .map(|(id, points, tiebreaks)| {
            let mut key = vec![points.quarters()];
            key.extend(tiebreaks.key());
            (key, id, points, tiebreaks)
        })
        .collect();
    let by_seed = |a: &EntrantId, b: &EntrantId| match (seeds.get(a), seeds.get(b)) {
        (Some(x), Some(y)) => seed_cmp(x, y),
        _ => a.cmp(b),
    };
    rows.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| by_seed(&a.1, &b.1)));
    let mut standings: Vec<Standing> = Vec::with_capacity(rows.len());
    for (index, (key, entrant, points, tiebreaks)) in rows.iter().enumerate() {
        let rank = match index.checked_sub(1).map(|i| &rows[i].0) {
            Some(previous) if previous == key => standings[index - 1].rank,
            _ => u32::try_from(index + 1).unwrap_or(u32::MAX),
        };
        standings.push(Standing {
            rank,
            entrant: *entrant,
            points: *points,
            tiebreaks: tiebreaks.clone(),
        });
    }
    standings
}

/// Sonneborn-Berger: the final scores of the opponents beaten, plus half those of the opponents
/// drawn. A bye, the late half and a forfeit add nothing (they have no opponent).
fn sonneborn_berger(tally: &Tally, all: &BTreeMap<EntrantId, Tally>) -> Points {
    let score = |o: &EntrantId| all.get(o).map_or(Points::ZERO, |t| t.points);
    tally
        .played
        .iter()
        .map(|p| match p {
            Played::Won(o) => score(o),
            Played::Drew(o) => score(o).half(),
            Played::Lost(_) => Points::ZERO,
        })
        .sum()
}

/// Buchholz: the sum of the final scores of the opponents played (not of byes or forfeits).
fn buchholz(tally: &Tally, all: &BTreeMap<EntrantId, Tally>) -> Points {
    let score = |o: &EntrantId| all.get(o).map_or(Points::ZERO, |t| t.points);
    tally
        .played
        .iter()
        .map(|p| match p {
            Played::Won(o) | Played::Drew(o) | Played::Lost(o) => score(o),
        })
        .sum()
}

/// The standings of a Swiss: points (win 1, draw ½, loss 0, bye 1, forfeit win 1, the late half
/// once), then Sonneborn-Berger, then Buchholz. Unfinished games count nothing yet.
pub fn swiss_standings(
    entrants: &[Entrant],
    rounds: &[DuelRound],
) -> Result<Vec<Standing>, RecordError> {
    let tallies = tally_duels(entrants, rounds)?;
    let rows = tallies
        .iter()
        .map(|(id, tally)| {
            let tiebreaks = Tiebreaks::Swiss {
                sonneborn_berger: sonneborn_berger(tally, &tallies),
                buchholz: buchholz(tally, &tallies),
            };
            (*id, tally.points, tiebreaks)
        })
        .collect();
    Ok(ranked(entrants, rows))
}

/// The standings of a round robin: points as in a Swiss, then Sonneborn-Berger.
pub fn round_robin_standings(
    entrants: &[Entrant],
    rounds: &[DuelRound],
) -> Result<Vec<Standing>, RecordError> {
    let tallies = tally_duels(entrants, rounds)?;
    let rows = tallies
        .iter()
        .map(|(id, tally)| {
            let tiebreaks = Tiebreaks::RoundRobin {
                sonneborn_berger: sonneborn_berger(tally, &tallies),
            };
            (*id, tally.points, tiebreaks)
        })
        .collect();
    Ok(ranked(entrants, rows))
}

/// The standings of a melee: points are the sum of the VP of every finished board, then the
/// boards won. A melee bye and an unfinished board score nothing, nor do the rounds a late
/// entrant missed (the late half is the duels' rule: VP have no half to give).
pub fn melee_standings(
    entrants: &[Entrant],
    rounds: &[MeleeRound],
) -> Result<Vec<Standing>, RecordError> {
    let mut totals: BTreeMap<EntrantId, (u64, u32)> =
        entrants.iter().map(|e| (e.id, (0, 0))).collect();
    for (index, round) in rounds.iter().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let mut seen = std::collections::BTreeSet::new();
        let seated = round
            .boards
            .iter()
            .flat_map(|b| b.seats.iter().map(|s| s.entrant));
        for entrant in seated.chain(round.byes.iter().copied()) {
            if !totals.contains_key(&entrant) {
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
        for seat in round
            .boards
            .iter()
            .filter(|b| b.finished)
            .flat_map(|b| &b.seats)
        {
            let total = totals.get_mut(&seat.entrant).expect("checked above");
            total.0 += u64::from(seat.vp);
            total.1 += u32::from(seat.won);
        }
    }
    let rows = totals
        .into_iter()
        .map(|(id, (vp, won))| (id, Points::whole(vp), Tiebreaks::Melee { boards_won: won }))
        .collect();
    Ok(ranked(entrants, rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::record::{DuelGame, DuelResult, MeleeBoard, MeleeSeat};

    fn id(n: u64) -> EntrantId {
        EntrantId(n)
    }

    fn q(quarters: u64) -> Points {
        Points::from_quarters(quarters)
    }

    fn game(a: u64, b: u64, result: DuelResult) -> DuelGame {
        DuelGame {
            players: [id(a), id(b)],
            result: Some(result),
        }
    }

    /// Five entrants, E late from round 2; B withdraws during round 2 and forfeits to E.
    fn worked_example() -> (Vec<Entrant>, Vec<DuelRound>) {
        let mut entrants: Vec<Entrant> = (1..=5).map(|n| Entrant::new(id(n), n as u32)).collect();
        entrants[4].first_round = 2;
        entrants[1].withdrawn = true;
        let rounds = vec![
            DuelRound {
                games: vec![
                    game(1, 2, DuelResult::Won { winner: id(1) }),
                    game(3, 4, DuelResult::Drawn),
                ],
                byes: vec![],
            },
            DuelRound {
                games: vec![
                    game(1, 3, DuelResult::Drawn),
                    game(2, 5, DuelResult::Forfeited { winner: id(5) }),
                ],
                byes: vec![id(4)],
            },
        ];
        (entrants, rounds)
    }

    #[test]
    fn swiss_standings_count_sonneborn_berger_then_buchholz_as_worked_by_hand() {
        let (entrants, rounds) = worked_example();
        let got: Vec<(u64, u32, Points, Tiebreaks)> = swiss_standings(&entrants, &rounds)
            .unwrap()
            .into_iter()
            .map(|s| (s.entrant.0, s.rank, s.points, s.tiebreaks))
            .collect();
        let swiss = |sb, b| Tiebreaks::Swiss {
            sonneborn_berger: q(sb),
            buchholz: q(b),
        };
        assert_eq!(
            got,
            [
                // A: beat B (0) and drew C (1): SB ½; Buchholz 0 + 1.
                (1, 1, q(6), swiss(2, 4)),
                // D: drew C (1), then a bye (nothing): equal to A on everything.
                (4, 1, q(6), swiss(2, 4)),
                // E: the late half and a forfeit win, both without an opponent.
                (5, 3, q(6), swiss(0, 0)),
                // C: drew D (1½) and A (1½).
                (3, 4, q(4), swiss(6, 12)),
                // B: lost to A (1½); his forfeit adds nothing.
                (2, 5, q(0), swiss(0, 6)),
            ]
        );
    }

    #[test]
    fn round_robin_standings_break_ties_by_sonneborn_berger_only() {
        let (entrants, rounds) = worked_example();
        let got: Vec<(u64, u32)> = round_robin_standings(&entrants, &rounds)
            .unwrap()
            .into_iter()
            .map(|s| (s.entrant.0, s.rank))
            .collect();
        assert_eq!(got, [(1, 1), (4, 1), (5, 3), (3, 4), (2, 5)]);
    }

    #[test]
    fn melee_standings_add_the_vp_of_finished_boards_then_count_boards_won() {
        let entrants: Vec<Entrant> = (1..=4).map(|n| Entrant::new(id(n), n as u32)).collect();
        let seat = |n, vp, won| MeleeSeat {
            entrant: id(n),
            vp,
            won,
        };
        let rounds = vec![
            MeleeRound {
                boards: vec![
                    MeleeBoard {
                        seats: vec![seat(1, 5, true), seat(2, 5, true)],
                        finished: true,
                    },
                    MeleeBoard {
                        seats: vec![seat(3, 7, true), seat(4, 2, false)],
                        finished: true,
                    },
                ],
                byes: vec![],
            },
            MeleeRound {
                boards: vec![
                    MeleeBoard {
                        seats: vec![seat(1, 2, false), seat(3, 4, true), seat(4, 1, false)],
                        finished: true,
                    },
                    // Unfinished: its VP are not counted yet.
                    MeleeBoard {
                        seats: vec![seat(2, 9, true)],
                        finished: false,
                    },
                ],
                byes: vec![],
            },
        ];
        let got: Vec<(u64, u32, Points, Tiebreaks)> = melee_standings(&entrants, &rounds)
            .unwrap()
            .into_iter()
            .map(|s| (s.entrant.0, s.rank, s.points, s.tiebreaks))
            .collect();
        let won = |n| Tiebreaks::Melee { boards_won: n };
        assert_eq!(
            got,
            [
                (3, 1, Points::whole(11), won(2)),
                (1, 2, Points::whole(7), won(1)),
                (2, 3, Points::whole(5), won(1)),
                (4, 4, Points::whole(3), won(0)),
            ]
        );
    }

    #[test]
    fn standing_rows_serialise_as_the_contract_shows_them() {
        let (entrants, rounds) = worked_example();
        let standings = swiss_standings(&entrants, &rounds).unwrap();
        let rows = named(&standings[..1], |e| format!("p{}", e.0));
        assert_eq!(
            serde_json::to_value(&rows).unwrap(),
            serde_json::json!([{
                "rank": 1,
                "handle": "p1",
                "points": 1.5,
                "tiebreaks": {"sonneborn_berger": 0.5, "buchholz": 1}
            }])
        );
        let others = [
            Tiebreaks::RoundRobin {
                sonneborn_berger: Points::HALF,
            },
            Tiebreaks::Knockout {},
            Tiebreaks::Melee { boards_won: 2 },
        ];
        assert_eq!(
            serde_json::to_string(&others).unwrap(),
            r#"[{"sonneborn_berger":0.5},{},{"boards_won":2}]"#
        );
    }
}
