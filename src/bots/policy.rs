//! How a bot answers a prompt. A policy reads only what the player may see (the `me` view) and
//! returns the order to send, `{"round", "step", ...}`. This is the part a bot author replaces.

use std::borrow::Cow;

use rand::RngExt;
use rand::seq::IndexedRandom;
use serde::Deserialize;
use serde_json::value::RawValue;
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
    let prompt = me.get("prompt")?;
    let head = Head::deserialize(prompt).ok()?;
    let body = match head.step.as_ref() {
        "orders" => crossing_swords(CsPrompt::deserialize(prompt).ok()?, rng)?,
        step => bst(step, prompt.as_object()?, strategy, rng)?,
    };
    Some(with_round_and_step(&head, body))
}

/// The same as `answer`, from the `me` view's JSON text. Only the parts a policy reads are
/// parsed: a 16-player Crossing Swords prompt is about 10 KB, mostly names the bot never needs.
pub fn answer_json(me: &str, strategy: Strategy, rng: &mut impl rand::Rng) -> Option<Value> {
    #[derive(Deserialize)]
    struct Me<'a> {
        #[serde(borrow)]
        prompt: Option<&'a RawValue>,
    }
    let prompt = serde_json::from_str::<Me>(me).ok()?.prompt?.get();
    let head: Head = serde_json::from_str(prompt).ok()?;
    let body = match head.step.as_ref() {
        "orders" => crossing_swords(serde_json::from_str(prompt).ok()?, rng)?,
        step => {
            let prompt: Map<String, Value> = serde_json::from_str(prompt).ok()?;
            bst(step, &prompt, strategy, rng)?
        }
    };
    Some(with_round_and_step(&head, body))
}

/// What every prompt starts with: the round and step it is for.
#[derive(Deserialize)]
struct Head<'a> {
    round: u64,
    #[serde(borrow)]
    step: Cow<'a, str>,
}

fn bst(
    step: &str,
    prompt: &Map<String, Value>,
    strategy: Strategy,
    rng: &mut impl rand::Rng,
) -> Option<Value> {
    match strategy {
        Strategy::Random => super::bst_policy::random(step, prompt, rng),
        Strategy::Greedy => super::bst_policy::greedy(step, prompt),
    }
}

fn with_round_and_step(head: &Head, body: Value) -> Value {
    let mut order = Map::new();
    order.insert("round".into(), head.round.into());
    order.insert("step".into(), head.step.as_ref().into());
    if let Value::Object(fields) = body {
        order.extend(fields);
    }
    Value::Object(order)
}

/// The parts of a Crossing Swords prompt a bot reads: the players' ids, and each move with
/// the seats it may target.
#[derive(Deserialize)]
struct CsPrompt<'a> {
    #[serde(borrow)]
    players: Vec<CsPlayer<'a>>,
    #[serde(borrow)]
    moves: Vec<CsMove<'a>>,
}

#[derive(Deserialize)]
struct CsPlayer<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
}

#[derive(Deserialize)]
struct CsMove<'a> {
    #[serde(rename = "move", borrow)]
    mv: Cow<'a, str>,
    targets: Vec<usize>,
}

/// Crossing Swords: a random move among those with a legal target, and a random legal target.
fn crossing_swords(prompt: CsPrompt, rng: &mut impl rand::Rng) -> Option<Value> {
    let moves: Vec<&CsMove> = prompt
        .moves
        .iter()
        .filter(|m| !m.targets.is_empty())
        .collect();
    let chosen = moves.choose(rng)?;
    let seat = chosen.targets[rng.random_range(0..chosen.targets.len())];
    let target = &prompt.players.get(seat)?.id;
    Some(json!({"move": chosen.mv, "target": target}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_crossing_swords_answer_is_a_listed_move_with_one_of_its_listed_targets() {
        let me = json!({"prompt": {"round": 3, "step": "orders",
        "players": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}],
        "moves": [
            {"move": "strike", "category": "attack", "targets": [1]},
            {"move": "halt", "category": "action", "targets": []},
            {"move": "mend", "category": "action", "targets": [0, 1]}
        ]}});
        let text = me.to_string();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for i in 0..100 {
            // Both entry points, the parsed view and its JSON text, must choose alike.
            let order = if i % 2 == 0 {
                answer(&me, Strategy::Random, &mut rng).unwrap()
            } else {
                answer_json(&text, Strategy::Random, &mut rng).unwrap()
            };
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
        assert_eq!(
            answer_json(r#"{"prompt": null}"#, Strategy::Random, &mut rng),
            None
        );
    }

    #[test]
    fn a_bst_answer_is_the_same_from_the_view_and_from_its_text() {
        let me = json!({"prompt": {"round": 2, "step": "play",
            "moves": [{"move": "attack", "legal": true}, {"move": "block", "legal": false}],
            "hand": ["R3", "B5"]}});
        let text = me.to_string();
        for seed in 0..20 {
            let mut a = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut b = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let order = answer(&me, Strategy::Random, &mut a).unwrap();
            assert_eq!(
                answer_json(&text, Strategy::Random, &mut b),
                Some(order.clone())
            );
            assert_eq!(
                (order["round"].as_u64(), order["move"].as_str()),
                (Some(2), Some("attack"))
            );
        }
    }
}
