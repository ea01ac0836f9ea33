//! The knockout (`docs/tournaments.md`, "Knockout"): a bracket of 2^k slots (k = ⌈log₂ n⌉) with
//! the entrants in seed order (rating, unrated last, then entry) placed so that seeds 1 and 2 can
//! meet only in the final; the slots beyond n are byes, which fall to the top seeds in the first
//! round. A round's losers are out; a drawn game is replayed in a new game up to twice, and after
//! a third draw the higher seed goes through.

use std::collections::BTreeSet;

use super::entrants::{Entrant, EntrantId, seed_cmp};
use super::points::Points;
use super::record::{DuelGame, DuelPairing, DuelResult, DuelRound};
use super::standings::{Standing, Tiebreaks, ranked};

/// How many times a drawn knockout game is replayed before the higher seed goes through.
pub const REPLAYS: u32 = 2;

/// A seeded bracket.
#[derive(Clone, Debug, PartialEq)]
pub struct Knockout {
    /// The entrants in seed order (index 0 is seed 1).
    seeds: Vec<Entrant>,
    /// The bracket's slots, first-round neighbours side by side; `None` is a bye.
    slots: Vec<Option<EntrantId>>,
}

/// What a knockout match needs next, from its games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchDecision {
    /// A game is still being played.
    Pending,
    /// Every game so far was drawn: replay number `replay` (1 or 2) is to be created.
    Replay { replay: u32 },
    /// The match is decided.
    Through { winner: EntrantId, by: Advance },
}

/// Why an entrant went through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advance {
    /// He won a game.
    Won,
    /// His opponent forfeited.
    Forfeit,
    /// The game and both replays were drawn: the higher seed goes through.
    HigherSeed,
}

/// Why the bracket cannot answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KnockoutError {
    #[error("{0:?} is not in the bracket")]
    NotInBracket(EntrantId),
    #[error("round {round} is not finished")]
    RoundUnfinished { round: u32 },
    #[error("a match has a game after it was decided")]
    GameAfterDecision,
    #[error("a match names a winner who did not play it")]
    WinnerNotPlaying,
    #[error("round {round} does not follow the bracket: {entrant:?} is not one of its survivors")]
    OffBracket { round: u32, entrant: EntrantId },
}

/// The order of seeds in a bracket of `size` slots (a power of two): 1, 8, 4, 5, 2, 7, 3, 6.
fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let doubled = order.len() * 2;
        order = order.iter().flat_map(|s| [*s, doubled + 1 - s]).collect();
    }
    order
}

impl Knockout {
    /// The bracket of `entrants` as entries closed (an entrant who withdraws later keeps his
    /// slot; his next opponent goes through without a game).
    pub fn new(entrants: &[Entrant]) -> Knockout {
        let mut seeds = entrants.to_vec();
        seeds.sort_by(seed_cmp);
        let size = seeds.len().max(1).next_power_of_two();
        let slots = bracket_order(size)
            .into_iter()
            .map(|seed| seeds.get(seed - 1).map(|e| e.id))
            .collect();
        Knockout { seeds, slots }
    }

    /// ⌈log₂ n⌉ rounds.
    pub fn rounds_total(&self) -> u32 {
        self.slots.len().trailing_zeros()
    }

    /// The entrants in seed order, seed 1 first.
    pub fn seeds(&self) -> Vec<EntrantId> {
        self.seeds.iter().map(|e| e.id).collect()
    }

    /// An entrant's seed (1 the highest).
    pub fn seed_of(&self, entrant: EntrantId) -> Option<usize> {
        self.seeds
            .iter()
            .position(|e| e.id == entrant)
            .map(|i| i + 1)
    }

    fn seed_or_err(&self, entrant: EntrantId) -> Result<usize, KnockoutError> {
        self.seed_of(entrant)
            .ok_or(KnockoutError::NotInBracket(entrant))
    }

    /// What the match of `players` needs next, from its games in the order they were created
    /// (`None` for a game still being played).
    pub fn decide(
        &self,
        players: [EntrantId; 2],
        games: &[Option<DuelResult>],
    ) -> Result<MatchDecision, KnockoutError> {
        let seeds = [self.seed_or_err(players[0])?, self.seed_or_err(players[1])?];
        let mut draws = 0;
        for (index, game) in games.iter().enumerate() {
            let decision = match game {
                None => MatchDecision::Pending,
                Some(DuelResult::Drawn) => {
                    draws += 1;
                    continue;
                }
                Some(DuelResult::Won { winner }) => MatchDecision::Through {
                    winner: *winner,
                    by: Advance::Won,
                },
                Some(DuelResult::Forfeited { winner }) => MatchDecision::Through {
                    winner: *winner,
                    by: Advance::Forfeit,
                },
            };
            if let MatchDecision::Through { winner, .. } = decision
                && !players.contains(&winner)
            {
                return Err(KnockoutError::WinnerNotPlaying);
            }
            if index + 1 != games.len() {
                return Err(KnockoutError::GameAfterDecision);
            }
            return Ok(decision);
        }
        Ok(match draws {
            0 => MatchDecision::Pending,
            d if d <= REPLAYS => MatchDecision::Replay { replay: d },
            _ => {
                let higher = if seeds[0] < seeds[1] {
                    players[0]
                } else {
                    players[1]
                };
                MatchDecision::Through {
                    winner: higher,
                    by: Advance::HigherSeed,
                }
            }
        })
    }

    /// Who went through a round: its byes and the winners of its matches (a match is every game
    /// of one pair, in order).
    fn advanced(
        &self,
        round: u32,
        record: &DuelRound,
    ) -> Result<BTreeSet<EntrantId>, KnockoutError> {
        let mut through: BTreeSet<EntrantId> = record.byes.iter().copied().collect();
        let mut pairs: Vec<[EntrantId; 2]> = Vec::new();
        for game in &record.games {
            let [a, b] = game.players;
            if !pairs.iter().any(|p| p.contains(&a) && p.contains(&b)) {
                pairs.push([a, b]);
            }
        }
        for pair in pairs {
            let games: Vec<Option<DuelResult>> = record
                .games
                .iter()
                .filter(|g: &&DuelGame| {
                    g.players.contains(&pair[0]) && g.players.contains(&pair[1])
                })
                .map(|g| g.result)
                .collect();
            match self.decide(pair, &games)? {
                MatchDecision::Through { winner, .. } => {
                    through.insert(winner);
                }
                MatchDecision::Pending | MatchDecision::Replay { .. } => {
                    return Err(KnockoutError::RoundUnfinished { round });
                }
            }
        }
        Ok(through)
    }

    /// The pairing of the next round (`rounds.len() + 1`), or `None` when every round has been
    /// played. In each block of the bracket the survivor of one half meets the survivor of the
    /// other (the higher seed named first); a survivor without an opponent (a bye slot, or an
    /// opponent who withdrew) has a bye. `entrants` gives who has withdrawn since.
    pub fn pair_round(
        &self,
        entrants: &[Entrant],
        rounds: &[DuelRound],
    ) -> Result<Option<DuelPairing>, KnockoutError> {
        let number = u32::try_from(rounds.len() + 1).unwrap_or(u32::MAX);
        if number > self.rounds_total() {
            return Ok(None);
        }
        let withdrawn: BTreeSet<EntrantId> = entrants
            .iter()
            .filter(|e| e.withdrawn)
            .map(|e| e.id)
            .collect();
        let alive: BTreeSet<EntrantId> = match rounds.last() {
            Some(last) => self.advanced(number - 1, last)?,
            None => self.slots.iter().flatten().copied().collect(),
        };
        let block = 1usize << number;
        let mut pairing = DuelPairing::default();
        for chunk in self.slots.chunks(block) {
            let (left, right) = chunk.split_at(block / 2);
            let survivor =
                |half: &[Option<EntrantId>]| -> Result<Option<EntrantId>, KnockoutError> {
                    let mut found = half.iter().flatten().filter(|e| alive.contains(e));
                    let first = found.next().copied();
                    match found.next() {
                        Some(second) => Err(KnockoutError::OffBracket {
                            round: number - 1,
                            entrant: *second,
                        }),
                        None => Ok(first.filter(|e| !withdrawn.contains(e))),
                    }
                };
            match (survivor(left)?, survivor(right)?) {
                (Some(a), Some(b)) => {
                    let higher_first = self.seed_of(a) < self.seed_of(b);
                    pairing
                        .games
                        .push(if higher_first { [a, b] } else { [b, a] });
                }
                (Some(a), None) | (None, Some(a)) => pairing.byes.push(a),
                (None, None) => {}
            }
        }
        Ok(Some(pairing))
    }

    /// The standings: points are the rounds an entrant went through (a bye counts), so the
    /// winner is first, the final's loser second, and those out in the same round share a rank.
    pub fn standings(&self, rounds: &[DuelRound]) -> Result<Vec<Standing>, KnockoutError> {
        let mut won: Vec<(EntrantId, u64)> = self.seeds.iter().map(|e| (e.id, 0)).collect();
        for (index, record) in rounds.iter().enumerate() {
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            let through = match self.advanced(number, record) {
                Ok(through) => through,
                // The round being played: nobody has gone through it yet.
                Err(KnockoutError::RoundUnfinished { .. }) if index + 1 == rounds.len() => {
                    BTreeSet::new()
                }
                Err(e) => return Err(e),
            };
            for entrant in through {
                let row = won
                    .iter_mut()
                    .find(|(id, _)| *id == entrant)
                    .ok_or(KnockoutError::NotInBracket(entrant))?;
                row.1 += 1;
            }
        }
        let rows = won
            .into_iter()
            .map(|(id, n)| (id, Points::whole(n), Tiebreaks::Knockout {}))
            .collect();
        Ok(ranked(&self.seeds, rows))
    }
}

#[cfg(test)]
mod tests;
