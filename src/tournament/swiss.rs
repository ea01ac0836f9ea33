//! The Swiss pairing (`docs/tournaments.md`, "Swiss pairing"): one maximum-weight matching over
//! the entrants who play this round, whose weights make it the lexicographic best pairing by,
//! in order:
//! 1. the most games (a forbidden pair is no edge at all, so it is never paired; whoever is left
//!    without a game has a bye: one player when their number is odd, more only when forbidden
//!    pairs leave no other way);
//! 2. the fewest rematches (counted by earlier meetings): nobody meets an opponent again while
//!    another pairing avoids it;
//! 3. the fewest earlier byes among those given a bye: nobody gets a second bye while another
//!    player has had none;
//! 4. the smallest sum, over the games, of the squared score difference;
//! 5. then, where the contract leaves the order free, the bye to the lowest placed, and
//! 6. within a score group, its top half against its bottom half (1 v 3 and 2 v 4 of four).
//!
//! Each criterion's unit weighs more than the most the criteria below it can add up to, so the
//! matching's total weight orders pairings exactly as that list does ([`Weights`]). The
//! matching is `integer-blossom`'s (O(n³), `i128` weights); `tests` check it against a
//! brute-force search of every pairing for up to 12 players.

use std::collections::BTreeSet;

use super::entrants::{Entrant, EntrantId};
use super::record::{DuelPairing, DuelRound, Meetings, RecordError, tally_duels};
use super::standings::swiss_standings;

/// Why a Swiss round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("a forbidden pair names {0:?}, who is not an entrant")]
    UnknownForbidden(EntrantId),
    #[error("too many entrants or rounds for the pairing's weights")]
    TooLarge,
}

/// What the pairing knows about the players of this round, in standings order (index 0 is the
/// leader). Scores are in half points, the unit of a duel's result.
#[derive(Clone, Debug)]
pub(crate) struct Problem {
    pub ids: Vec<EntrantId>,
    pub score: Vec<u64>,
    pub byes: Vec<u64>,
    /// (place within the score group, the group's size).
    pub group: Vec<(u64, u64)>,
    met: Vec<u64>,
    forbidden: Vec<bool>,
}

impl Problem {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether `i` and `j` may be paired at all.
    pub fn allowed(&self, i: usize, j: usize) -> bool {
        i != j && !self.forbidden[i * self.len() + j]
    }

    pub fn met(&self, i: usize, j: usize) -> u64 {
        self.met[i * self.len() + j]
    }

    pub fn squared_gap(&self, i: usize, j: usize) -> u64 {
        self.score[i].abs_diff(self.score[j]).pow(2)
    }

    /// How far a game within a score group is from top half against bottom half (doubled, to
    /// stay whole for odd groups); 0 across groups.
    pub fn slide(&self, i: usize, j: usize) -> u64 {
        match self.score[i] == self.score[j] {
            true => {
                let (gi, size) = self.group[i];
                (2 * gi.abs_diff(self.group[j].0)).abs_diff(size)
            }
            false => 0,
        }
    }

    /// The cost of leaving `i` with a bye below the contract's rules: the lowest placed costs 0.
    pub fn bye_rank(&self, i: usize) -> u64 {
        (self.len() - 1 - i) as u64
    }

    /// A pairing's cost, criterion by criterion (`mate[i]` is `i`'s opponent, `None` a bye):
    /// what the brute-force oracle minimises, to compare with the matching's pairing.
    #[cfg(test)]
    pub fn cost(&self, mate: &[Option<usize>]) -> Cost {
        let mut cost = Cost::default();
        for (i, m) in mate.iter().enumerate() {
            match m {
                Some(j) if i < *j => {
                    cost.games += 1;
                    cost.rematches += self.met(i, *j);
                    cost.squared_gaps += self.squared_gap(i, *j);
                    cost.slide += self.slide(i, *j);
                }
                Some(_) => {}
                None => {
                    cost.second_byes += self.byes[i];
                    cost.bye_rank += self.bye_rank(i);
                }
            }
        }
        cost
    }
}

/// A pairing's measures, in the order they decide (`docs/tournaments.md`, "Swiss pairing").
#[cfg(test)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cost {
    pub games: u64,
    pub rematches: u64,
    pub second_byes: u64,
    pub squared_gaps: u64,
    pub bye_rank: u64,
    pub slide: u64,
}

#[cfg(test)]
impl Cost {
    /// Smaller is better.
    pub fn key(&self) -> (std::cmp::Reverse<u64>, u64, u64, u64, u64, u64) {
        (
            std::cmp::Reverse(self.games),
            self.rematches,
            self.second_byes,
            self.squared_gaps,
            self.bye_rank,
            self.slide,
        )
    }
}

/// The unit of each criterion: more than the most that every criterion below it can add up to
/// in one pairing, so that the total weight compares pairings lexicographically.
struct Weights {
    game: i128,
    rematch: i128,
    second_bye: i128,
    squared_gap: i128,
    bye_rank: i128,
}

impl Weights {
    fn for_problem(p: &Problem) -> Option<Weights> {
        let n = i128::try_from(p.len()).ok()?;
        let max_gap = p.score.iter().max()?.abs_diff(*p.score.iter().min()?);
        let max_met = (0..p.len())
            .flat_map(|i| (0..p.len()).map(move |j| (i, j)))
            .map(|(i, j)| p.met(i, j))
            .max()?;
        let max_byes = *p.byes.iter().max()?;
        // Each bound: (per game or per bye at most) × n ≥ its total in any pairing.
        let next = |unit: i128, bound: i128| unit.checked_mul(bound.checked_add(1)?);
        let slide_bound = n.checked_mul(2 * n)?;
        let bye_rank = next(1, slide_bound)?;
        let squared_gap = next(bye_rank, n.checked_mul(n)?)?;
        let gap_bound = i128::from(max_gap).checked_pow(2)?.checked_mul(n)?;
        let second_bye = next(squared_gap, gap_bound)?;
        let rematch = next(second_bye, i128::from(max_byes).checked_mul(n)?)?;
        let game = next(rematch, i128::from(max_met).checked_mul(n)?)?;
        // The heaviest edge, with both ends' bye credits, must stay far below the solver's
        // infinity (i128::MAX / 4) summed over every game.
        game.checked_mul(4 * n + 4)?.checked_mul(n + 1)?;
        Some(Weights {
            game,
            rematch,
            second_bye,
            squared_gap,
            bye_rank,
        })
    }

    /// An edge's weight: a game's unit less its penalties, plus both ends' bye cost (which a
    /// game saves them), so that the total is a constant less the pairing's cost.
    fn edge(&self, p: &Problem, i: usize, j: usize) -> i128 {
        let penalty = self.rematch * i128::from(p.met(i, j))
            + self.squared_gap * i128::from(p.squared_gap(i, j))
            + i128::from(p.slide(i, j));
        self.game - penalty + self.bye_cost(p, i) + self.bye_cost(p, j)
    }

    fn bye_cost(&self, p: &Problem, i: usize) -> i128 {
        self.second_bye * i128::from(p.byes[i]) + self.bye_rank * i128::from(p.bye_rank(i))
    }
}

/// The problem of pairing the next round (`rounds.len() + 1`): who plays (not withdrawn, entered
/// by then), in standings order, with their scores, byes, meetings and forbidden pairs.
pub(crate) fn problem(
    entrants: &[Entrant],
    rounds: &[DuelRound],
    forbidden: &[[EntrantId; 2]],
) -> Result<Problem, PairingError> {
    let round = u32::try_from(rounds.len() + 1).map_err(|_| PairingError::TooLarge)?;
    let known: BTreeSet<EntrantId> = entrants.iter().map(|e| e.id).collect();
    if let Some(stranger) = forbidden.iter().flatten().find(|id| !known.contains(id)) {
        return Err(PairingError::UnknownForbidden(*stranger));
    }
    let tallies = tally_duels(entrants, rounds)?;
    let playing: BTreeSet<EntrantId> = entrants
        .iter()
        .filter(|e| e.plays_in(round))
        .map(|e| e.id)
        .collect();
    let ids: Vec<EntrantId> = swiss_standings(entrants, rounds)?
        .into_iter()
        .map(|s| s.entrant)
        .filter(|id| playing.contains(id))
        .collect();
    let score: Vec<u64> = ids
        .iter()
        .map(|id| tallies[id].points.quarters() / 2)
        .collect();
    let byes = ids.iter().map(|id| u64::from(tallies[id].byes)).collect();
    let group = (0..ids.len())
        .map(|i| {
            let first = score.iter().position(|s| *s == score[i]).unwrap_or(i);
            let size = score.iter().filter(|s| **s == score[i]).count();
            ((i - first) as u64, size as u64)
        })
        .collect();
    let n = ids.len();
    let meetings = Meetings::of_duels(rounds);
    let banned: BTreeSet<(EntrantId, EntrantId)> = forbidden
        .iter()
        .flat_map(|[a, b]| [(*a, *b), (*b, *a)])
        .collect();
    let mut met = vec![0; n * n];
    let mut forbidden = vec![false; n * n];
    for i in 0..n {
        for j in 0..n {
            met[i * n + j] = u64::from(meetings.count(ids[i], ids[j]));
            forbidden[i * n + j] = banned.contains(&(ids[i], ids[j]));
        }
    }
    Ok(Problem {
        ids,
        score,
        byes,
        group,
        met,
        forbidden,
    })
}

/// The best pairing's opponents (`mate[i]`), by maximum-weight matching.
pub(crate) fn best_mates(p: &Problem) -> Result<Vec<Option<usize>>, PairingError> {
    let n = p.len();
    if n < 2 {
        return Ok(vec![None; n]);
    }
    let weights = Weights::for_problem(p).ok_or(PairingError::TooLarge)?;
    let mut matrix = vec![0i128; n * n];
    for i in 0..n {
        for j in i + 1..n {
            if p.allowed(i, j) {
                matrix[i * n + j] = weights.edge(p, i, j);
            }
        }
    }
    Ok(integer_blossom::max_weight_matching(&matrix, n))
}

/// Pairs the next Swiss round (`rounds.len() + 1`) of `entrants` after `rounds`, never pairing a
/// `forbidden` pair: the games in board order (the better placed player first, the leaders'
/// game first) and the byes.
pub fn pair_swiss(
    entrants: &[Entrant],
    rounds: &[DuelRound],
    forbidden: &[[EntrantId; 2]],
) -> Result<DuelPairing, PairingError> {
    let p = problem(entrants, rounds, forbidden)?;
    let mates = best_mates(&p)?;
    let mut pairing = DuelPairing::default();
    for (i, mate) in mates.iter().enumerate() {
        match mate {
            Some(j) if i < *j => pairing.games.push([p.ids[i], p.ids[*j]]),
            Some(_) => {}
            None => pairing.byes.push(p.ids[i]),
        }
    }
    Ok(pairing)
}

#[cfg(test)]
mod tests;
