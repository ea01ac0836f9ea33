//! How a bot answers a prompt. A policy reads only what the player may see (the `me` view) and
//! returns the order to send, `{"round", "step", ...}`. This is the part a bot author replaces.

use rand::RngExt;
use rand::seq::IndexedRandom;
use serde_json::{Map, Value, json};

/// A bot's way of choosing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Strategy {
    /// A uniformly random legal answer.
    Random,
    /// BST: the strongest-looking legal play (see `greedy_bst`); Crossing Swords plays randomly.
    Greedy,
}

/// The order for the player's current prompt, or None if the view holds no prompt.
pub fn answer(me: &Value, strategy: Strategy, rng: &mut impl rand::Rng) -> Option<Value> {
    let prompt = me.get("prompt")?.as_object()?;
    let step = prompt.get("step")?.as_str()?;
    let body = match step {
        "orders" => crossing_swords(prompt, rng)?,
        _ => match strategy {
            Strategy::Random => super::bst_policy::random(step, prompt, rng)?,
            Strategy::Greedy => super::bst_policy::greedy(step, prompt)?,
        },
    };
    Some(with_round_and_step(prompt, body))
}

fn with_round_and_step(prompt: &Map<String, Value>, body: Value) -> Value {
    let mut order = Map::new();
    order.insert("round".into(), prompt["round"].clone());
    order.insert("step".into(), prompt["step"].clone());
    if let Value::Object(fields) = body {
        order.extend(fields);
    }
    Value::Object(order)
}

/// Crossing Swords: a random move among those with a legal target, and a random legal target.
fn crossing_swords(prompt: &Map<String, Value>, rng: &mut impl rand::Rng) -> Option<Value> {
    let moves: Vec<&Value> = prompt
        .get("moves")?
        .as_array()?
        .iter()
        .filter(|m| m["targets"].as_array().is_some_and(|t| !t.is_empty()))
        .collect();
    let chosen = moves.choose(rng)?;
    let targets = chosen["targets"].as_array()?;
    let target = &targets[rng.random_range(0..targets.len())];
    Some(json!({"move": chosen["move"], "target": target["id"]}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_crossing_swords_answer_is_a_listed_move_with_one_of_its_listed_targets() {
        let me = json!({"prompt": {"round": 3, "step": "orders", "moves": [
            {"move": "strike", "category": "attack", "targets": [{"id": "b", "name": "Bob"}]},
            {"move": "halt", "category": "action", "targets": []},
            {"move": "mend", "category": "action", "targets": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}]}
        ]}});
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..50 {
            let order = answer(&me, Strategy::Random, &mut rng).unwrap();
            assert_eq!(
                (order["round"].as_u64(), order["step"].as_str()),
                (Some(3), Some("orders"))
            );
            match order["move"].as_str().unwrap() {
                "strike" => assert_eq!(order["target"], "b"),
                "mend" => assert!(order["target"] == "a" || order["target"] == "b"),
                other => panic!("{other} has no legal target and must not be chosen"),
            }
        }
    }

    #[test]
    fn no_prompt_means_no_answer() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        assert_eq!(
            answer(&json!({"prompt": null}), Strategy::Random, &mut rng),
            None
        );
    }
}
