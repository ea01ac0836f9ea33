//! What the reference bot tells its operator, in sentences: where it sits, what it played,
//! what it waits for, how the game ended. Built from the views the API returns, so it works for
//! every game without knowing its rules.

use serde_json::Value;

/// A name from a view, or a placeholder.
fn name(value: &Value) -> &str {
    value.as_str().unwrap_or("?")
}

/// `standard-strike` as "Standard strike".
fn words(id: &str) -> String {
    let mut text = id.replace('-', " ");
    if let Some(first) = text.get(..1) {
        let upper = first.to_uppercase();
        text.replace_range(..1, &upper);
    }
    text
}

/// The player's name for `id`, from the prompt's player list when it has one.
fn player_name(prompt: &Value, id: &str) -> String {
    prompt["players"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["id"] == id)
        .map_or_else(|| id.to_string(), |p| name(&p["name"]).to_string())
}

/// One line on where the bot sits, from the `me` view.
pub fn seated(me: &Value) -> String {
    let who = name(&me["player"]["name"]);
    let lobby = name(&me["lobby"]);
    let now = match me["status"].as_str() {
        Some("signups") | Some("closed") => {
            "The game has not started: waiting for the host to start it.".to_string()
        }
        Some("finished") => "The game is already over.".to_string(),
        _ if me["prompt"].is_object() => format!(
            "Round {}, {}: an answer is owed now.",
            me["prompt"]["round"],
            name(&me["prompt"]["step"])
        ),
        _ => format!(
            "Round {}, {}: nothing is owed from this seat; waiting for the others.",
            me["round"],
            name(&me["step"])
        ),
    };
    format!("Playing as {who} in lobby {lobby}. {now}")
}

/// What an order says, e.g. "Strike on Bob", "Guard with R7", "declined".
pub fn order(prompt: &Value, order: &Value) -> String {
    let Some(fields) = order.as_object() else {
        return order.to_string();
    };
    // A game may tag each answer with its kind (`answer`): "decline" says it all, and a tag
    // beside other fields only repeats the step.
    if fields.get("decline") == Some(&Value::Bool(true))
        || fields.get("answer").and_then(Value::as_str) == Some("decline")
    {
        return "declined".into();
    }
    let mut parts = Vec::new();
    for (key, value) in fields {
        let part = match (key.as_str(), value) {
            ("round" | "step", _) => continue,
            ("answer", Value::String(kind)) if fields.len() == 1 => words(kind),
            ("answer", _) => continue,
            ("move" | "technique", Value::String(id)) => words(id),
            ("target", Value::String(id)) => format!("on {}", player_name(prompt, id)),
            ("token" | "card", Value::String(t)) => format!("with {t}"),
            (_, Value::Array(items)) => format!(
                "{} {}",
                key.replace('_', " "),
                items.iter().map(name).collect::<Vec<_>>().join(", ")
            ),
            (_, Value::Bool(true)) => key.replace('_', " "),
            (_, Value::Bool(false)) => format!("no {}", key.replace('_', " ")),
            (_, Value::String(s)) => format!("{} {s}", key.replace('_', " ")),
            (_, other) => format!("{} {other}", key.replace('_', " ")),
        };
        parts.push(part);
    }
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(" ")
    }
}

/// One line on what was played, from the prompt and the receipt.
pub fn played(prompt: &Value, receipt: &Value) -> String {
    format!(
        "Round {}, {}: played {}.",
        receipt["round"],
        name(&receipt["step"]),
        order(prompt, &receipt["order"])
    )
}

/// One line on what the bot waits for after an answer.
pub fn waiting(receipt: &Value) -> String {
    if receipt["resolved"] == true {
        "That answer completed the step; waiting for the next prompt.".into()
    } else {
        format!(
            "Waiting for the other players' answers to round {}'s {}.",
            receipt["round"],
            name(&receipt["step"])
        )
    }
}

/// One line on how the game ended, from its result.
pub fn finished(result: &Value) -> String {
    let standings: Vec<&Value> = result["standings"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    let winners: Vec<String> = result["winners"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|id| {
            standings
                .iter()
                .find(|s| s["player"] == *id)
                .map(|s| name(&s["name"]).to_string())
        })
        .collect();
    let verdict = match winners.as_slice() {
        [] => "a draw".to_string(),
        [one] => format!("{one} wins"),
        [rest @ .., last] => format!("{} and {last} share the win", rest.join(", ")),
    };
    let places: Vec<String> = standings
        .iter()
        .map(|s| format!("{} {}", s["place"], name(&s["name"])))
        .collect();
    if places.is_empty() {
        format!("Game over: {verdict}.")
    } else {
        format!("Game over: {verdict} (places: {}).", places.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_order_reads_as_a_sentence_with_names_not_ids() {
        let prompt = json!({"players": [{"id": "a1", "name": "Ann"}, {"id": "b2", "name": "Bob"}]});
        assert_eq!(
            order(&prompt, &json!({"move": "strike", "target": "b2"})),
            "Strike on Bob"
        );
        assert_eq!(
            order(
                &json!({}),
                &json!({"move": "standard-strike", "token": "R7"})
            ),
            "Standard strike with R7"
        );
        assert_eq!(order(&json!({}), &json!({"decline": true})), "declined");
        assert_eq!(
            order(&json!({}), &json!({"tokens": ["B3", "W4"]})),
            "tokens B3, W4"
        );
        // The answer's kind, as the games tag it, is not read out beside what it says.
        let play = json!({"answer": "play", "move": "lightning-strike", "token": "W5"});
        assert_eq!(order(&json!({}), &play), "Lightning strike with W5");
        let declined = json!({"answer": "decline"});
        assert_eq!(order(&json!({}), &declined), "declined");
        assert_eq!(order(&json!({}), &json!({"answer": "pass"})), "Pass");
    }

    #[test]
    fn the_end_names_the_winner_or_the_draw_and_the_places() {
        let result = json!({"winners": ["b"], "standings": [
            {"player": "b", "name": "Bob", "place": 1}, {"player": "a", "name": "Ann", "place": 2}]});
        assert_eq!(
            finished(&result),
            "Game over: Bob wins (places: 1 Bob, 2 Ann)."
        );
        let draw = json!({"winners": [], "standings": [
            {"player": "b", "name": "Bob", "place": 1}, {"player": "a", "name": "Ann", "place": 1}]});
        assert_eq!(finished(&draw), "Game over: a draw (places: 1 Bob, 1 Ann).");
        let shared = json!({"winners": ["a", "b"], "standings": [
            {"player": "a", "name": "Ann", "place": 1}, {"player": "b", "name": "Bob", "place": 1}]});
        assert!(finished(&shared).contains("Ann and Bob share the win"));
    }

    #[test]
    fn a_seated_bot_says_what_it_waits_for() {
        let me = json!({"lobby": "L", "player": {"name": "Ann"}, "status": "signups"});
        assert_eq!(
            seated(&me),
            "Playing as Ann in lobby L. The game has not started: waiting for the host to start it."
        );
        let me = json!({"lobby": "L", "player": {"name": "Ann"}, "status": "running",
                        "round": 2, "step": "orders", "prompt": null});
        assert!(seated(&me).contains("nothing is owed from this seat"));
    }
}
