//! The melee's seating (`docs/tournaments.md`, "Melee"): each round seats the entrants at the
//! fewest boards of at most `board_size`, whose sizes differ by at most one, choosing the seating
//! with the fewest pairs at a board who already met (then the fewest earlier meetings in all).
//! The search is the one Diplomacy tournament tools use: random starts, each improved by swapping
//! two players of different boards while a swap helps; the RNG is the caller's, seeded.

use rand::Rng;
use rand::seq::SliceRandom;

use super::entrants::{Entrant, EntrantId};
use super::record::{Meetings, MeleeRound, RecordError};
use super::standings::melee_standings;

/// Boards of players, each in seat order.
type Boards = Vec<Vec<EntrantId>>;

/// How many random starts the search makes (it stops early at a seating with no repeat).
const STARTS: usize = 24;

/// A round's seating: the boards, and who sits out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MeleeSeating {
    pub boards: Vec<Vec<EntrantId>>,
    /// A player left alone at a board (only with boards of two and an odd field) sits out: the
    /// one with the fewest byes so far, then the lowest placed. A melee bye scores nothing.
    pub byes: Vec<EntrantId>,
    /// The pairs at a board who had already met.
    pub repeats: u64,
}

/// Why a melee round cannot be seated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeleeError {
    #[error("a board seats at least two")]
    BoardTooSmall,
    #[error(transparent)]
    Record(#[from] RecordError),
}

/// The sizes of the boards for `players` players at boards of at most `board_size`: the fewest
/// boards, their sizes differing by at most one, larger boards first. A board of one is no board
/// (its player sits out).
pub fn board_sizes(players: usize, board_size: usize) -> Vec<usize> {
    if players == 0 || board_size == 0 {
        return Vec::new();
    }
    let boards = players.div_ceil(board_size);
    let (base, extra) = (players / boards, players % boards);
    (0..boards)
        .map(|b| base + usize::from(b < extra))
        .filter(|size| *size >= 2)
        .collect()
}

/// What a seating costs: the pairs at a board who met before, then their earlier meetings.
fn cost(boards: &[Vec<EntrantId>], meetings: &Meetings) -> (u64, u64) {
    let mut cost = (0, 0);
    for board in boards {
        for (i, a) in board.iter().enumerate() {
            for b in &board[i + 1..] {
                let met = u64::from(meetings.count(*a, *b));
                cost.0 += u64::from(met > 0);
                cost.1 += met;
            }
        }
    }
    cost
}

/// What `who` costs at `board` (without `without`, the player he would replace).
fn cost_at(
    who: EntrantId,
    board: &[EntrantId],
    without: EntrantId,
    meetings: &Meetings,
) -> (i64, i64) {
    let mut cost = (0, 0);
    for other in board.iter().filter(|o| **o != without && **o != who) {
        let met = i64::from(meetings.count(who, *other));
        cost.0 += i64::from(met > 0);
        cost.1 += met;
    }
    cost
}

/// Swaps two players of different boards while a swap lowers the cost.
fn improve(boards: &mut [Vec<EntrantId>], meetings: &Meetings) {
    loop {
        let mut improved = false;
        for a in 0..boards.len() {
            for b in a + 1..boards.len() {
                for i in 0..boards[a].len() {
                    for j in 0..boards[b].len() {
                        let (x, y) = (boards[a][i], boards[b][j]);
                        let before_x = cost_at(x, &boards[a], x, meetings);
                        let before_y = cost_at(y, &boards[b], y, meetings);
                        let after_x = cost_at(x, &boards[b], y, meetings);
                        let after_y = cost_at(y, &boards[a], x, meetings);
                        let delta = (
                            after_x.0 + after_y.0 - before_x.0 - before_y.0,
                            after_x.1 + after_y.1 - before_x.1 - before_y.1,
                        );
                        if delta < (0, 0) {
                            boards[a][i] = y;
                            boards[b][j] = x;
                            improved = true;
                        }
                    }
                }
            }
        }
        if !improved {
            return;
        }
    }
}

/// Seats the next melee round (`rounds.len() + 1`): every entrant who plays in it (not
/// withdrawn, entered by then), at boards of at most `board_size`.
pub fn seat_melee(
    entrants: &[Entrant],
    rounds: &[MeleeRound],
    board_size: usize,
    rng: &mut impl Rng,
) -> Result<MeleeSeating, MeleeError> {
    if board_size < 2 {
        return Err(MeleeError::BoardTooSmall);
    }
    let round = u32::try_from(rounds.len() + 1).unwrap_or(u32::MAX);
    // Standings order, lowest placed last: the order in which a bye is given, from the end.
    let mut players: Vec<EntrantId> = melee_standings(entrants, rounds)?
        .into_iter()
        .map(|s| s.entrant)
        .filter(|id| entrants.iter().any(|e| e.id == *id && e.plays_in(round)))
        .collect();
    let sizes = board_sizes(players.len(), board_size);
    let seated: usize = sizes.iter().sum();
    let mut byes = Vec::new();
    while players.len() > seated {
        let byes_had = |id: &EntrantId| rounds.iter().filter(|r| r.byes.contains(id)).count();
        let fewest = players.iter().map(byes_had).min().unwrap_or(0);
        let at = players
            .iter()
            .rposition(|p| byes_had(p) == fewest)
            .expect("a player has the fewest byes");
        byes.push(players.remove(at));
    }
    let meetings = Meetings::of_melee(rounds);
    let mut best: Option<(Boards, (u64, u64))> = None;
    for _ in 0..STARTS {
        players.shuffle(rng);
        let mut rest = players.as_slice();
        let mut boards: Vec<Vec<EntrantId>> = sizes
            .iter()
            .map(|size| {
                let (board, after) = rest.split_at(*size);
                rest = after;
                board.to_vec()
            })
            .collect();
        improve(&mut boards, &meetings);
        let found = cost(&boards, &meetings);
        if best.as_ref().is_none_or(|(_, c)| found < *c) {
            best = Some((boards, found));
        }
        if found == (0, 0) {
            break;
        }
    }
    let (boards, (repeats, _)) = best.unwrap_or_default();
    Ok(MeleeSeating {
        boards,
        byes,
        repeats,
    })
}

#[cfg(test)]
mod tests;
