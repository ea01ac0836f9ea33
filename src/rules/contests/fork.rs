//! A position between rounds as a `setup` (rulings §3.9; api.md "Starting from a position";
//! docs/fairness.md "Forking").

use super::setup::{Settings, Setup, SetupPlayer};
use super::state::{Lasts, State, Step, WindowStage};
use crate::rules::ForkRefusal;

/// The settings of a duel that starts where `state` stands: the opening of round
/// `state.round`'s window (the `next` step), which is what a §3.9 `setup` describes. Every
/// public value of each combatant is kept exactly (§3.8): HP, energy, the combat-long
/// modifiers, the marks the rulings keep, the face-up discard in its order, and so the size
/// and composition of what he holds.
///
/// The hands and the order of the decks are not kept: they were the position's secrets, and
/// the finished duel's archive published them with its seed. Each combatant's cards not in
/// his discard are shuffled again by the new duel with its own secret seed, and he is dealt
/// a hand of the size he held (the setup's `hand_size`), as the start deals one (S4). The
/// `seed`, `decks` and `default_dice` hooks go for the same reason: all three are published.
pub fn fork_settings(state: &State, settings: &Settings) -> Result<Settings, ForkRefusal> {
    if state.end.is_some() {
        return Err(ForkRefusal::Finished { round: state.round });
    }
    let at_window = state.step == Step::Next
        && state.contest.is_none()
        && state.phase.is_none()
        && state.queue.is_empty()
        && state
            .window
            .as_ref()
            .is_some_and(|w| w.stage == WindowStage::Asking && w.after.is_some());
    if !at_window {
        return Err(ForkRefusal::NotASetup {
            why: format!(
                "round {} waits for the {} step, not for the window after a phase",
                state.round,
                state.step.name()
            ),
        });
    }
    let after = state.window.as_ref().and_then(|w| w.after);
    let players = state
        .fighters
        .iter()
        .map(|f| SetupPlayer {
            hp: Some(i64::from(f.hp)),
            energy: Some(i64::from(f.energy)),
            hand: None,
            deck: None,
            discard: Some(f.discard.iter().map(|c| c.to_string()).collect()),
            mods: f
                .mods
                .iter()
                .filter(|m| m.lasts == Lasts::Combat)
                .map(|m| {
                    (
                        m.attribute.to_string(),
                        i64::from(m.amount),
                        "combat".to_owned(),
                    )
                })
                .collect(),
            rwih: f.rwih,
            lucky_used: f.lucky_used,
            backstab: f.backstab,
            surcharge_until: f.surcharge_until,
            spent_round: f.spent_round,
            hand_size: Some(f.hand.len() as i64),
        })
        .collect();
    Ok(Settings {
        seed: None,
        decks: None,
        default_dice: None,
        setup: Some(Setup {
            round: state.round,
            after,
            archery_phases: state.archery_phases,
            players,
        }),
        ..settings.clone()
    })
}
