//! A position between turns as a `setup` (api.md "Starting from a position"; docs/fairness.md "Forking").

use super::setup::{Settings, Setup, SetupPlayer};
use super::state::{Pending, State};
use crate::rules::ForkRefusal;

/// The settings of a game that starts where `state` stands: turn `state.round` after its
/// draw and poison (T1, T2), which is what a `setup` describes. Hands, Charges, poison,
/// Off-Balance, a set-aside Piercing Strike (L307), a Warpriest's free turn (L292) and the
/// face-up discard pile are kept exactly.
///
/// The pool is left out, so the new game shuffles what remains with its own secret seed: the
/// archive the position came from publishes the old seed, and with it the old pool's order,
/// so keeping it would let everyone read the coming draws (S1: the pool is drawn unseen).
/// The seed and an explicit `pool` of the old settings go for the same reason.
pub fn fork_settings(state: &State, settings: &Settings) -> Result<Settings, ForkRefusal> {
    if state.finish.is_some() {
        return Err(ForkRefusal::Finished { round: state.round });
    }
    match &state.pending {
        // The Channeler's set-aside offer (T3, A28) comes again when the setup's turn begins.
        Some(Pending::Play | Pending::SetAside { .. }) => {}
        other => {
            return Err(ForkRefusal::NotASetup {
                why: format!(
                    "turn {} waits for {other:?}, not for the plays",
                    state.round
                ),
            });
        }
    }
    if state.players.iter().any(|p| p.revive_pending) {
        return Err(ForkRefusal::NotASetup {
            why: "a revival is pending".into(),
        });
    }
    let players = state
        .players
        .iter()
        .map(|p| SetupPlayer {
            hp: Some(i64::from(p.hp)),
            charges: Some(i64::from(p.charges)),
            poison: Some(i64::from(p.poison)),
            off_balance: Some(p.off_balance),
            hand: Some(p.hand.iter().map(ToString::to_string).collect()),
            piercing_set_aside: Some(p.piercing_set_aside),
            free_turn: Some(p.free_turn),
        })
        .collect();
    Ok(Settings {
        seed: None,
        pool: None,
        setup: Some(Setup {
            round: Some(state.round),
            players: Some(players),
            pool: None,
            discard: Some(state.discard.iter().map(ToString::to_string).collect()),
        }),
        ..settings.clone()
    })
}
