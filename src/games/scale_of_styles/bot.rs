//! The Scale of Styles bot, read from the typed prompt. Random: a random plan (or none), a
//! random window card, a random legal technique. Greedy: no plan, the fastest card of the
//! window (the best chance of Initiative, R5), and the shift that deals the most net damage
//! (dealt − taken, the trade-off of S14), the bolder answer on a tie.

use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use serde_json::{Value, json};

use crate::rules::scale_of_styles::Prompt;

/// A uniformly random legal answer.
pub fn random(prompt: &Prompt, rng: &mut impl rand::Rng) -> Option<Value> {
    match prompt {
        Prompt::Plan { pack, .. } => {
            let mut cards = pack.clone();
            cards.shuffle(rng);
            let n = rng.random_range(0..=cards.len());
            Some(json!({"cards": &cards[..n]}))
        }
        Prompt::Play { window, .. } => Some(json!({"card": window.choose(rng)?.card})),
        Prompt::Shift { choices, .. } => Some(json!({"technique": choices.choose(rng)?.technique})),
    }
}

/// The greedy answer (see the module comment).
pub fn greedy(prompt: &Prompt) -> Option<Value> {
    match prompt {
        Prompt::Plan { .. } => Some(json!({"decline": true})),
        Prompt::Play { window, .. } => {
            // A Joker (no speed) is Initiative 2: the fastest of all.
            let best = window
                .iter()
                .max_by_key(|c| c.speed.map_or(u16::MAX, u16::from))?;
            Some(json!({"card": best.card}))
        }
        Prompt::Shift { choices, .. } => {
            let best = choices
                .iter()
                .rev()
                .max_by_key(|c| i64::from(c.deals) - i64::from(c.takes))?;
            Some(json!({"technique": best.technique}))
        }
    }
}
