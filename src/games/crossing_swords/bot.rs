//! The Crossing Swords bot: a random move among those with a legal target, and a random legal
//! target for it, read from the typed prompt.

use rand::RngExt;
use rand::seq::IndexedRandom;
use serde_json::{Value, json};

use crate::rules::crossing_swords::{MoveChoice, Prompt};

/// A uniformly random move with a legal target, and a uniformly random legal target.
pub fn random(prompt: &Prompt, rng: &mut impl rand::Rng) -> Option<Value> {
    let moves: Vec<&MoveChoice> = prompt
        .moves
        .iter()
        .filter(|m| !m.targets.is_empty())
        .collect();
    let chosen = moves.choose(rng)?;
    let seat = chosen.targets[rng.random_range(0..chosen.targets.len())];
    let target = prompt.players.get(seat.0)?.id;
    Some(json!({"move": chosen.mv, "target": target}))
}
