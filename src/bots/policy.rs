//! How a bot answers a prompt. A policy reads only what the player may see (the `me` view) and
//! returns the order to send, `{"round", "step", ...}`. This is the part a bot author replaces.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

pub use crate::games::Strategy;
use crate::games::{GameUi, PromptHead, with_game};

/// The order for the player's current prompt, or None if the view holds no prompt (or one
/// this bot cannot read). The prompt names its game; that game's policy answers, from the
/// prompt read into the game's own prompt type.
pub fn answer(me: &Value, strategy: Strategy, rng: &mut impl rand::Rng) -> Option<Value> {
    let prompt = me.get("prompt")?;
    let head = PromptHead::deserialize(prompt).ok()?;
    let body = with_game!(head.game, G => {
        let typed = <G as crate::rules::Game>::Prompt::deserialize(prompt).ok()?;
        G::bot(&head.step, &typed, strategy, rng)?
    });
    Some(with_round_and_step(&head, body))
}

/// The same as `answer`, from the `me` view's JSON text: the prompt is read straight from its
/// text into the game's prompt type, without building a `Value` tree of the whole view.
pub fn answer_json(me: &str, strategy: Strategy, rng: &mut impl rand::Rng) -> Option<Value> {
    #[derive(Deserialize)]
    struct Me<'a> {
        #[serde(borrow)]
        prompt: Option<&'a RawValue>,
    }
    let prompt = serde_json::from_str::<Me>(me).ok()?.prompt?.get();
    let head: PromptHead = serde_json::from_str(prompt).ok()?;
    let body = with_game!(head.game, G => {
        let typed: <G as crate::rules::Game>::Prompt = serde_json::from_str(prompt).ok()?;
        G::bot(&head.step, &typed, strategy, rng)?
    });
    Some(with_round_and_step(&head, body))
}

fn with_round_and_step(head: &PromptHead, body: Value) -> Value {
    let mut order = Map::new();
    order.insert("round".into(), head.round.into());
    order.insert("step".into(), head.step.as_ref().into());
    if let Value::Object(fields) = body {
        order.extend(fields);
    }
    Value::Object(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use serde_json::json;

    const ANN: &str = "00000000-0000-0000-0000-00000000000a";
    const BOB: &str = "00000000-0000-0000-0000-00000000000b";

    #[test]
    fn a_crossing_swords_answer_is_a_listed_move_with_one_of_its_listed_targets() {
        let me = json!({"prompt": {"game": "crossing-swords", "round": 3, "step": "orders",
        "players": [{"id": ANN, "name": "Ann"}, {"id": BOB, "name": "Bob"}],
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
                "strike" => assert_eq!(order["target"], BOB),
                "mend" => assert!(order["target"] == ANN || order["target"] == BOB),
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
        let me = json!({"prompt": {"game": "bst", "round": 2, "step": "play",
            "text": "Choose a tile", "can_decline": false,
            "moves": [{"move": "guard", "cost": 0, "legal": true},
                      {"move": "parry", "cost": 1, "legal": false}],
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
                (Some(2), Some("guard"))
            );
        }
    }
}
