//! BST's prompts as forms (shapes: `docs/rules/bst.md` "Prompts" on the BST branch):
//! `{"text", "hand", "moves"?, "choices"?, "pairs"?, "min_tokens"?, "max_tokens"?,
//! "random_pool"?, "can_decline"}`. The form follows the prompt's shape rather than a list of
//! step names, so every decision step gets its form: `moves` → tile and token (`play`);
//! `choices` with a token count → checkboxes (`tokens`); `choices` alone → one `token`;
//! `pairs` → one pair (`tokens`); nothing to pick → accept / decline buttons.
//!
//! Also the join form's character choice.

use serde_json::Value;

use super::cite::cite;
use super::prompt_form::{Choice, Field, Group, PromptForm, pending_str};
use super::table::title;

/// BST's characters, the default first (api.md).
pub const CHARACTERS: [&str; 6] = [
    "sellsword",
    "sentinel",
    "warpriest",
    "assassin",
    "channeler",
    "razorbeast",
];

/// The join form's character select.
pub fn join_fields() -> Vec<Field> {
    let choices = CHARACTERS
        .iter()
        .map(|c| choice(c, title(c), *c == "sellsword"))
        .collect();
    vec![select("character", "Character", choices, true)]
}

fn choice(value: &str, label: String, selected: bool) -> Choice {
    Choice {
        value: value.to_owned(),
        label,
        allowed_with: String::new(),
        selected,
    }
}

fn select(name: &str, label: &str, choices: Vec<Choice>, required: bool) -> Field {
    Field {
        name: name.into(),
        label: label.into(),
        multiple: false,
        list: false,
        required,
        hint: String::new(),
        depends_on: String::new(),
        groups: vec![Group {
            label: String::new(),
            choices,
        }],
    }
}

fn codes(value: &Value) -> Vec<String> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_str().map(str::to_owned))
        .collect()
}

/// A prompt's sentence without the JSON it shows bots (`{"tokens": [..]}`): the form's
/// fields and buttons say that. Rule citations stay.
pub fn for_people(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '{' => {
                if depth == 0 {
                    let kept = out.trim_end_matches([' ', ',', ':']).len();
                    out.truncate(kept);
                }
                depth += 1;
            }
            '}' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    out.replace("? or (", "? (")
        .replace("? or decline", "? Or decline")
        .replace(" or (", " (")
}

/// The form for a BST prompt, with the pending answer (if any) preselected.
pub fn form(round: u64, step: String, prompt: &Value, pending: Option<&Value>) -> PromptForm {
    let mut fields = Vec::new();
    let pending_tokens = pending.map(|p| codes(&p["tokens"])).unwrap_or_default();
    if let Some(moves) = prompt["moves"].as_array() {
        let chosen = pending_str(pending, "move");
        let tiles = moves
            .iter()
            .map(|m| {
                let id = m["move"].as_str().unwrap_or_default();
                let mut label = format!("{} (cost {})", title(id), m["cost"]);
                if m["legal"] == Value::Bool(false) {
                    let becomes = m["becomes"].as_str().map(title).unwrap_or_default();
                    label.push_str(&format!(" — would become {becomes}"));
                    if let Some(reason) = m["reason"].as_str() {
                        label.push_str(&format!(": {reason}"));
                    }
                }
                choice(id, label, id == chosen)
            })
            .collect();
        fields.push(select("move", "Tile", tiles, true));
        let token = pending_str(pending, "token");
        let hand = codes(&prompt["hand"])
            .into_iter()
            .map(|t| choice(&t, t.clone(), t == token))
            .collect();
        fields.push(select("token", "Token from your hand", hand, true));
    } else if let Some(pairs) = prompt["pairs"].as_array() {
        let options = pairs
            .iter()
            .map(|pair| {
                let pair = codes(pair);
                let selected = !pair.is_empty() && pair == pending_tokens;
                choice(&pair.join(" "), pair.join(" + "), selected)
            })
            .collect();
        let mut field = select("tokens", "Pair to discard", options, true);
        field.list = true;
        fields.push(field);
    } else if let Some(choices) = prompt["choices"].as_array() {
        let list = codes(&Value::Array(choices.clone()));
        if prompt["max_tokens"].is_u64() {
            let (min, max) = (
                prompt["min_tokens"].as_u64().unwrap_or(0),
                prompt["max_tokens"].as_u64().unwrap_or(0),
            );
            let mut field = select(
                "tokens",
                "Tokens",
                list.iter()
                    .map(|t| choice(t, t.clone(), pending_tokens.contains(t)))
                    .collect(),
                false,
            );
            field.multiple = true;
            field.hint = if min == max {
                format!("Tick exactly {min}.")
            } else {
                format!("Tick {min} to {max}.")
            };
            fields.push(field);
        } else {
            let token = pending_str(pending, "token");
            let options = list
                .iter()
                .map(|t| choice(t, t.clone(), t == token))
                .collect();
            fields.push(select("token", "Token", options, true));
        }
    }
    let nothing_to_pick = fields.is_empty();
    PromptForm {
        round,
        heading: format!("Round {round}: {}", title(&step)),
        step,
        help: cite(
            &for_people(prompt["text"].as_str().unwrap_or_default()),
            "bst",
        ),
        fields,
        decline: prompt["can_decline"].as_bool().unwrap_or(false),
        accept: nothing_to_pick,
        accept_label: "Yes".into(),
        random_pool: prompt["random_pool"].as_bool().unwrap_or(false),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::http::pages::prompt_form::order_body;
    use crate::http::pages::session::CheckedForm;

    fn posted(fields: &[(&str, &str)]) -> CheckedForm {
        CheckedForm {
            fields: fields
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    fn answer(form: &PromptForm, fields: &[(&str, &str)]) -> Value {
        let mut all = vec![("round", "2"), ("step", form.step.as_str())];
        all.extend_from_slice(fields);
        let mut body = order_body(form, &posted(&all)).unwrap();
        body.remove("round");
        body.remove("step");
        Value::Object(body)
    }

    #[test]
    fn the_play_step_asks_for_a_tile_and_a_token_from_the_hand() {
        let prompt = json!({"text": "Choose a tile", "hand": ["R7", "B3"], "can_decline": false, "moves": [
            {"move": "guard", "cost": 1, "legal": true},
            {"move": "finishing-strike", "cost": 3, "legal": false, "becomes": "standard-strike", "reason": "no Charges"}
        ]});
        let form = form(
            2,
            "play".into(),
            &prompt,
            Some(&json!({"move": "guard", "token": "B3"})),
        );
        let tiles = &form.fields[0].groups[0].choices;
        assert_eq!(tiles[0].label, "Guard (cost 1)");
        assert!(tiles[0].selected);
        assert_eq!(
            tiles[1].label,
            "Finishing strike (cost 3) — would become Standard strike: no Charges"
        );
        let tokens: Vec<&str> = form.fields[1].groups[0]
            .choices
            .iter()
            .map(|c| c.value.as_str())
            .collect();
        assert_eq!(tokens, vec!["R7", "B3"]);
        assert!(form.fields[1].groups[0].choices[1].selected);
        assert!(!form.decline && !form.accept);
        assert_eq!(
            answer(&form, &[("move", "guard"), ("token", "R7")]),
            json!({"move": "guard", "token": "R7"})
        );
    }

    #[test]
    fn decision_steps_get_checkboxes_a_pair_a_token_or_yes_and_no() {
        let extras = json!({"text": "t", "hand": ["R7", "B3", "Y5"], "choices": ["R7", "B3", "Y5"], "min_tokens": 1, "max_tokens": 2, "can_decline": true});
        let f = form(2, "finishing-extras".into(), &extras, None);
        assert!(f.fields[0].multiple && f.decline && !f.accept);
        assert_eq!(f.fields[0].hint, "Tick 1 to 2.");
        assert_eq!(
            answer(&f, &[("tokens", "R7"), ("tokens", "Y5")]),
            json!({"tokens": ["R7", "Y5"]})
        );
        assert_eq!(answer(&f, &[("decline", "true")]), json!({"decline": true}));

        let gather = json!({"text": "t", "hand": ["R3", "Y3"], "pairs": [["R3", "Y3"]], "min_tokens": 2, "max_tokens": 2, "can_decline": true});
        let f = form(2, "gather-power".into(), &gather, None);
        assert_eq!(f.fields[0].groups[0].choices[0].label, "R3 + Y3");
        assert_eq!(
            answer(&f, &[("tokens", "R3 Y3")]),
            json!({"tokens": ["R3", "Y3"]})
        );

        let follow = json!({"text": "t", "hand": ["B6"], "choices": ["B6"], "random_pool": true, "can_decline": true});
        let f = form(2, "follow-up".into(), &follow, None);
        assert!(!f.fields[0].multiple && f.random_pool);
        assert_eq!(answer(&f, &[("token", "B6")]), json!({"token": "B6"}));
        assert_eq!(
            answer(&f, &[("random_pool", "true")]),
            json!({"random_pool": true})
        );

        let surge = json!({"text": "Power Surge?", "hand": [], "can_decline": true});
        let f = form(2, "power-surge".into(), &surge, None);
        assert!(f.fields.is_empty() && f.accept && f.decline);
        assert_eq!(f.heading, "Round 2: Power surge");
        assert_eq!(answer(&f, &[("accept", "true")]), json!({"accept": true}));
    }

    #[test]
    fn prompt_sentences_lose_their_json() {
        assert_eq!(
            for_people(
                "Choose a tile and a token from your hand: {\"move\", \"token\"}. Illegal tiles are replaced at the reveal (T6)."
            ),
            "Choose a tile and a token from your hand. Illegal tiles are replaced at the reveal (T6)."
        );
        assert_eq!(
            for_people(
                "Follow-up: discard a hand token for half its value, {\"token\"}, or use a random pool token, {\"random_pool\": true}, or decline (L209, L298)."
            ),
            "Follow-up: discard a hand token for half its value, or use a random pool token, or decline (L209, L298)."
        );
        assert_eq!(
            for_people(
                "Set their Piercing Strike aside? {\"accept\": true} or {\"decline\": true} (L307, A28)."
            ),
            "Set their Piercing Strike aside? (L307, A28)."
        );
        assert_eq!(
            for_people(
                "Power Surge: spend 1 Charge for extra damage? {\"accept\": true} or decline (A10)."
            ),
            "Power Surge: spend 1 Charge for extra damage? Or decline (A10)."
        );
        assert_eq!(
            for_people(
                "Your hand holds more than 9: discard 2 token(s), {\"tokens\": [..]} (A16)."
            ),
            "Your hand holds more than 9: discard 2 token(s) (A16)."
        );
    }

    #[test]
    fn the_character_select_defaults_to_the_sellsword() {
        let fields = join_fields();
        let choices = &fields[0].groups[0].choices;
        assert_eq!(choices.len(), 6);
        assert!(choices[0].selected && choices[0].value == "sellsword");
    }
}
