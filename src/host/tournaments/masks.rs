//! Anonymous tournaments (docs/tournaments.md, "Anonymous tournaments"): a tournament whose
//! lobby settings say `anonymous: true` must not tie an entrant to a seat of a game in progress,
//! as its lobby does not. Two things would: the tournament's own list of a game's players, and
//! the seat order itself, which the format's public rules (seeding by entry and rating, the
//! better placed first, a melee's seating seeded by the tournament's id) would let anyone work
//! out. So a game's players are listed by their seats' pseudonyms until its result is known,
//! and the seats of each game are put in an order drawn at random when it is written.

use rand::seq::SliceRandom;
use serde_json::Value;

use super::super::anonymity::pseudonym;
use super::super::engine::from_stored;
use super::super::timing::Timing;
use super::record::{players_of, result_of};
use crate::error::AppError;
use crate::store::{TournamentGameRow, TournamentRow};

/// Whether the tournament's games are anonymous (its lobby settings' `anonymous`).
pub(super) fn anonymous(tournament: &TournamentRow) -> Result<bool, AppError> {
    let mut settings: Value = from_stored(&tournament.settings)?;
    Ok(Timing::split_from(&mut settings)?.is_anonymous())
}

/// The seats of a game about to be written, in the order they are seated: as paired, or, in
/// an anonymous tournament, shuffled by the process's random generator. The order is stored
/// with the game, so it is drawn once, whichever process writes the round.
pub(super) fn seat_order(anonymous: bool, mut entries: Vec<u64>) -> Vec<u64> {
    if anonymous {
        entries.shuffle(&mut rand::rng());
    }
    entries
}

/// Who a game's line names, in seat order: each entrant by `handle` of his entry, except in an
/// anonymous tournament while the game's result is unknown, where each seat is named by its
/// pseudonym, as its lobby names it.
pub(super) fn shown_players(
    anonymous: bool,
    game: &TournamentGameRow,
    handle: impl Fn(u64) -> String,
) -> Result<Vec<String>, AppError> {
    let entries = players_of(game)?;
    if anonymous && result_of(game)?.is_none() {
        return Ok((0..entries.len()).map(pseudonym).collect());
    }
    Ok(entries.into_iter().map(handle).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_anonymous_game_keeps_its_entrants_whatever_their_order() {
        let mut seated = seat_order(true, (1..=12).collect());
        seated.sort_unstable();
        assert_eq!(seated, (1..=12).collect::<Vec<u64>>());
        assert_eq!(seat_order(false, vec![3, 1, 2]), [3, 1, 2]);
    }
}
