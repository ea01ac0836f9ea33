//! A position between turns as a `setup` (api.md "Starting from a position"; docs/fairness.md "Forking").

use super::setup::{Settings, Setup, SetupPlayer};
use super::state::State;
use crate::rules::ForkRefusal;

/// The settings of a game that starts where `state` stands: the moment turn `state.round`'s
/// orders fall due. Every pool and carry-over is public (rulings §2.1: Crossing Swords has
/// no secrets outside the pending orders), so the setup is the whole position: HP, VP, who
/// is alive (R12) and last turn's Focus and Dodge targets (R11, Rulings 12 and 21).
pub fn fork_settings(state: &State, settings: &Settings) -> Result<Settings, ForkRefusal> {
    if state.end.is_some() {
        return Err(ForkRefusal::Finished { round: state.round });
    }
    let players = state
        .players
        .iter()
        .map(|p| SetupPlayer {
            hp: Some(i64::from(p.hp)),
            vp: Some(i64::from(p.vp)),
            alive: Some(p.alive),
            focus: p.focus.map(|s| s.0),
            dodge: p.dodge.map(|s| s.0),
        })
        .collect();
    Ok(Settings {
        setup: Some(Setup {
            round: Some(state.round),
            players: Some(players),
        }),
        ..settings.clone()
    })
}
