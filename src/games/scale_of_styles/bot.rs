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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_greedy_bot_takes_the_best_net_damage_and_the_bolder_answer_on_a_tie() {
        let side = json!({"card": "9D", "dice": [5, 8, 2, 6], "initiative": 2, "technique": "mixed-offense"});
        let shift = |choices: Value| -> Prompt {
            serde_json::from_value(
                json!({"from": "mixed-offense", "diff": 2, "can_decline": true,
                "you": side, "opponent": side, "choices": choices}),
            )
            .unwrap()
        };
        let tied = shift(json!([
            {"technique": "all-out-attack", "attack": 13, "defense": 0, "deals": 10, "takes": 1},
            {"technique": "mixed-offense", "attack": 8, "defense": 5, "deals": 9, "takes": 0},
        ]));
        assert_eq!(greedy(&tied).unwrap()["technique"], "all-out-attack");
        let clear = shift(json!([
            {"technique": "all-out-attack", "attack": 13, "defense": 0, "deals": 2, "takes": 9},
            {"technique": "iron-defense", "attack": 0, "defense": 13, "deals": 0, "takes": 0},
        ]));
        assert_eq!(greedy(&clear).unwrap()["technique"], "iron-defense");
        let play: Prompt = serde_json::from_value(json!({"can_decline": false, "default": "2C",
            "window": [{"card": "2C", "technique": "mixed-defense", "speed": 2},
                       {"card": "JK1", "technique": "mixed-offense", "speed": null},
                       {"card": "9H", "technique": "mixed-offense", "speed": 9}]}))
        .unwrap();
        assert_eq!(
            greedy(&play).unwrap()["card"],
            "JK1",
            "a Joker is Initiative 2"
        );
    }
}
