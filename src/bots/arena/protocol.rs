//! The arena's lines (docs/bots.md, "The arena's protocol"): one JSON object a line each way.
//! Herald writes a `prompt` carrying the player's `me` view as `GET /api/v1/lobbies/{id}/me`
//! answers it, and the bot writes the order as it would POST it (`{"round", "step", ...}`),
//! so that a bot written for the HTTP API needs only a loop over standard input. Herald also
//! writes `refused` when the rules refuse an order, and `finished` with the result at the end.

use serde::Serialize;
use serde_json::{Map, Value};
use uuid::Uuid;

/// A line from Herald to a bot.
#[derive(Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum ToBot<'a> {
    /// An answer is owed: the `me` view.
    Prompt(MeLine<'a>),
    /// The rules refused the order sent for this prompt (the API's 422): the seat plays its
    /// default instead, as if its deadline had passed.
    Refused {
        lobby: Uuid,
        round: u32,
        step: &'a str,
        code: &'a str,
        message: String,
    },
    /// The game is over: the lobby's `result`. Standard input closes after it.
    Finished { lobby: Uuid, result: &'a Value },
}

/// The player's `me` view, as the API serves it while the game runs.
#[derive(Serialize)]
pub struct MeLine<'a> {
    pub lobby: Uuid,
    pub game: &'a str,
    pub player: PlayerLine<'a>,
    pub status: &'static str,
    pub round: u32,
    pub step: &'a str,
    /// `{"game", "round", "step", ...}`: what the seat owes.
    pub prompt: Value,
    pub pending: Option<Value>,
    pub deadline_at: Option<String>,
    pub paused: bool,
    pub fallback: Option<Value>,
    /// The game's private view (BST: the hand).
    #[serde(flatten)]
    pub private: Map<String, Value>,
}

#[derive(Serialize)]
pub struct PlayerLine<'a> {
    pub id: Uuid,
    pub name: &'a str,
    pub seat: usize,
}

impl ToBot<'_> {
    pub fn line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The prompt as the API sends it: the game, the round and the step, then the game's fields.
pub fn prompt_value(game: &str, round: u32, step: &str, body: Value) -> Value {
    let mut prompt = Map::new();
    prompt.insert("game".into(), game.into());
    prompt.insert("round".into(), round.into());
    prompt.insert("step".into(), step.into());
    if let Value::Object(fields) = body {
        prompt.extend(fields);
    }
    Value::Object(prompt)
}

/// What a bot's line was, for the prompt at `round` and `step`.
#[derive(Debug, PartialEq)]
pub enum Answer {
    /// An order for this prompt: its body without `round` and `step`.
    Order(Value),
    /// An order for another round or step (sent late, after a timeout): not this one's.
    Stale,
    /// Not a JSON object.
    Garbage(String),
}

/// Reads a bot's line as an answer to the prompt at (`round`, `step`).
pub fn read_answer(line: &str, round: u32, step: &str) -> Answer {
    let mut body = match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(fields)) => fields,
        Ok(other) => return Answer::Garbage(format!("not a JSON object: {other}")),
        Err(e) => return Answer::Garbage(format!("not JSON: {e}")),
    };
    let said_round = body.remove("round");
    let said_step = body.remove("step");
    match (
        said_round.as_ref().and_then(Value::as_u64),
        said_step.as_ref().and_then(Value::as_str),
    ) {
        (Some(r), Some(s)) if r == u64::from(round) && s == step => {
            Answer::Order(Value::Object(body))
        }
        (Some(_), Some(_)) => Answer::Stale,
        _ => Answer::Garbage("an order names its round and step".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_answer_is_read_for_its_own_prompt_only() {
        assert_eq!(
            read_answer(r#"{"round": 2, "step": "x", "move": "m"}"#, 2, "x"),
            Answer::Order(json!({"move": "m"}))
        );
        assert_eq!(
            read_answer(r#"{"round": 1, "step": "x"}"#, 2, "x"),
            Answer::Stale
        );
        assert!(matches!(read_answer("hello", 2, "x"), Answer::Garbage(_)));
        assert!(matches!(read_answer("[1]", 2, "x"), Answer::Garbage(_)));
        assert!(matches!(
            read_answer(r#"{"move": "m"}"#, 2, "x"),
            Answer::Garbage(_)
        ));
    }

    #[test]
    fn a_prompt_line_carries_the_me_view_with_its_event() {
        let me = MeLine {
            lobby: Uuid::nil(),
            game: "g",
            player: PlayerLine {
                id: Uuid::nil(),
                name: "Ann",
                seat: 0,
            },
            status: "running",
            round: 1,
            step: "s",
            prompt: prompt_value("g", 1, "s", json!({"a": 1})),
            pending: None,
            deadline_at: None,
            paused: false,
            fallback: None,
            private: Map::from_iter([("hand".to_owned(), json!(["R1"]))]),
        };
        let line: Value = serde_json::from_str(&ToBot::Prompt(me).line()).unwrap();
        assert_eq!(line["event"], "prompt");
        assert_eq!(
            line["prompt"],
            json!({"game": "g", "round": 1, "step": "s", "a": 1})
        );
        assert_eq!(line["hand"], json!(["R1"]));
        assert_eq!(line["player"]["name"], "Ann");
    }
}
