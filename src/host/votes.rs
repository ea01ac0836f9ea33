//! End votes (docs/table-talk.md, "End votes"): a main-step order may carry `"vote": "draw"`,
//! sealed with the order and revealed with it. When every living player's order of a round's
//! main step carries it, the game ends once that round is over, by the rules'
//! [`Game::end_by_draw_vote`], recorded as its own act so that a replay ends it the same way.
//!
//! The vote is the host's: it is no part of a game's order (the rules never see it), and a
//! fallback or default order carries none.

use serde_json::{Map, Value};
use uuid::Uuid;

use super::receipts::Seal;
use crate::error::AppError;
use crate::fairness::act::{Ledger, Vote};
use crate::rules::{Game, Seat};
use crate::store::Snapshot;

/// Takes the `vote` out of an order's body: none when absent or null; `draw` only in the main
/// step ([`Game::MAIN_STEP`]: `main` says whether the open step is it).
pub(super) fn take_vote(
    body: &mut Map<String, Value>,
    main: bool,
) -> Result<Option<Vote>, AppError> {
    let vote = match body.remove("vote") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(text)) => match text.as_str() {
            "draw" => Vote::Draw,
            _ => {
                return Err(AppError::rejected(
                    "invalid-vote",
                    format!("{text:?} is no vote: the only vote is \"draw\"."),
                ));
            }
        },
        Some(_) => {
            return Err(AppError::malformed(
                "invalid-body",
                "An order's \"vote\" is the string \"draw\" or null.",
            ));
        }
    };
    match main {
        true => Ok(Some(vote)),
        false => Err(AppError::rejected(
            "vote-not-here",
            "A vote goes with a round's main order, not with a decision.",
        )),
    }
}

/// Whether the step that `state` has open, resolved now, is a main step in which every living
/// player voted a draw: each living seat was owed an order and sent its own (`missing` says
/// which sent none), with a vote sealed with it (`seals`, by player).
pub(super) fn unanimous<G: Game>(
    snapshot: &Snapshot,
    state: &G::State,
    missing: impl Fn(Seat) -> bool,
    seals: &[(Uuid, Seal)],
) -> bool {
    if G::step(state) != G::MAIN_STEP {
        return false;
    }
    let owed = G::owes(state);
    let living: Vec<Seat> = (0..snapshot.players.len())
        .map(Seat)
        .filter(|seat| G::alive(state, *seat))
        .collect();
    !living.is_empty()
        && living.iter().all(|seat| {
            let voted = snapshot.players.get(seat.0).is_some_and(|player| {
                seals
                    .iter()
                    .any(|(id, seal)| *id == player.id && seal.vote == Some(Vote::Draw))
            });
            owed.contains(seat) && !missing(*seat) && voted
        })
}

/// The round, if any, whose main step every living player voted a draw in: `round` itself
/// when the step resolving now is that main step (`unanimous`); otherwise the one the
/// lobby's ledger keeps while a round goes on through its decision steps.
pub(super) fn agreed_round<G: Game>(
    snapshot: &Snapshot,
    state: &G::State,
    unanimous: bool,
) -> Option<u32> {
    match (unanimous, G::step(state) == G::MAIN_STEP) {
        (true, _) => Some(G::round(state)),
        // A new main step: any agreement was of an earlier round.
        (false, true) => None,
        (false, false) => Ledger::read(&snapshot.lobby.fairness).draw_vote,
    }
}
