//! The missed-turn policy (the lobby's `miss_limit`): which players a step's resolution
//! kicks for missing too many steps in a row. The misses are counted by `resolve.rs`
//! (`miss_counts`); the kicks are written there too, in the resolving transaction, with the
//! host's kick's code (`controls::write_kick`). See docs/deadlines.md, "Missed turns".

use super::timing::Timing;
use crate::error::AppError;
use crate::rules::{Game, HostAct, Seat};
use crate::store::{PlayerPatch, Snapshot};

/// A player the missed-turn policy kicks: their seat, their misses in a row, and the rules'
/// kick (applied after the previous one's).
pub(super) struct PolicyKick<G: Game> {
    pub seat: usize,
    pub misses: i64,
    pub act: HostAct<G>,
}

/// The kicks of the missed-turn policy after a step: every seat whose new count (`patches`)
/// reached the lobby's `miss_limit`, in seat order, each applied to the state the previous
/// one left (starting from `next`, the resolved state); none once one ends the game. A seat
/// the rules will not kick (already out, the game over) is left alone.
pub(super) fn policy_kicks<G: Game>(
    snapshot: &Snapshot,
    next: &G::State,
    patches: &[PlayerPatch],
) -> Result<Vec<PolicyKick<G>>, AppError> {
    let Some(limit) = Timing::parse(&snapshot.lobby.timing)?.miss_limit else {
        return Ok(Vec::new());
    };
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut kicks: Vec<PolicyKick<G>> = Vec::new();
    for patch in patches {
        let Some(misses) = patch.misses.filter(|m| *m >= limit) else {
            continue;
        };
        let Some(player) = snapshot.players.iter().find(|p| p.id == patch.id) else {
            continue;
        };
        let state = kicks.last().map_or(next, |k| &k.act.state);
        if G::owes(state).is_empty() {
            break;
        }
        if let Ok(act) = G::kick(state, Seat(player.seat)) {
            kicks.push(PolicyKick {
                seat: player.seat,
                misses,
                act,
            });
        }
    }
    Ok(kicks)
}
