//! A player's prompt as a form, and the posted form back as an order body.
//!
//! The prompt (`{"game", "round", "step", ...the step's legal answers}`) is read into its
//! game's own prompt type, and the game builds the form ([`crate::games::GameUi::order_form`]):
//! a few fields, each a choice among the legal answers (a select, or checkboxes when several
//! may be picked), plus a "decline" button for optional steps. The same form, rebuilt from the
//! current prompt when the POST arrives, turns the posted fields back into the JSON order the
//! host judges. The template and the conversion are shared by every game.

use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::session::CheckedForm;
use crate::error::AppError;
use crate::games::cite::{Cited, cite};
use crate::games::telling::RoundOf;
pub use crate::games::{Button, Choice, Field, Group};
use crate::games::{GameUi, PromptHead, with_game};
use crate::host::GameKind;
use crate::rules::Game;

/// The form for one prompt.
#[derive(Clone, Debug)]
pub struct PromptForm {
    pub round: u64,
    pub step: String,
    pub heading: String,
    /// What to do, its rule citations linked to the rules page.
    pub help: Cited,
    pub fields: Vec<Field>,
    /// The step is optional: a "decline" button sends `{"decline": true}`.
    pub decline: bool,
    /// A yes/no step: an "accept" button sends `{"accept": true}` (label in `accept_label`).
    pub accept: bool,
    pub accept_label: String,
    /// The step's own extra answers, each a button sending `{name: true}`.
    pub buttons: Vec<Button>,
    /// The step is the round's main step, so the order may carry a vote for a draw
    /// (docs/table-talk.md, "End votes"): the form offers it as a checkbox.
    pub vote: bool,
    /// The checkbox starts ticked (the pending order carries the vote).
    pub voted: bool,
}

/// The form for `prompt` (as the `me` view holds it), read into `game`'s prompt type, with
/// `pending` (the order already sent, if any) preselected; its heading names the round with
/// the game's `cap` ("round 4 of 8"). A prompt its game cannot read is the server's fault: a
/// 500 with the cause.
pub fn form_for(
    game: GameKind,
    cap: Option<u64>,
    prompt: &Value,
    pending: Option<&Value>,
) -> Result<PromptForm, AppError> {
    let unreadable = |e: serde_json::Error| AppError::Internal(format!("{game} prompt: {e}"));
    let head = PromptHead::deserialize(prompt).map_err(unreadable)?;
    with_game!(game, G => {
        let typed = <G as Game>::Prompt::deserialize(prompt).map_err(unreadable)?;
        let round = RoundOf {
            number: head.round,
            cap,
        };
        let form = G::order_form(round, &head.step, &typed, pending);
        let main = head.step == <G as Game>::MAIN_STEP;
        Ok(PromptForm {
            round: u64::from(head.round),
            step: head.step.into_owned(),
            heading: form.heading,
            help: cite(&form.help, game),
            fields: form.fields,
            decline: form.decline,
            accept: form.accept,
            accept_label: form.accept_label,
            buttons: form.buttons,
            vote: main,
            voted: pending.is_some_and(|p| p["vote"] == "draw"),
        })
    })
}

/// The posted form as an order body: `round` and `step` as the form stated them (so a form
/// left open across a round is refused as stale, not replayed), and each field's value(s).
/// A missing required answer is a 422 naming it.
pub fn order_body(form: &PromptForm, posted: &CheckedForm) -> Result<Map<String, Value>, AppError> {
    let round: u64 = posted.get("round").parse().map_err(|_| {
        AppError::malformed(
            "invalid-form",
            "The form does not say which round it is for.",
        )
    })?;
    let mut body = Map::new();
    body.insert("round".into(), json!(round));
    body.insert("step".into(), json!(posted.get("step")));
    if form.vote && posted.get("vote") == "draw" {
        body.insert("vote".into(), json!("draw"));
    }
    let buttons = [(form.decline, "decline"), (form.accept, "accept")]
        .into_iter()
        .chain(form.buttons.iter().map(|b| (true, b.name.as_str())));
    for (allowed, button) in buttons {
        if allowed && posted.get(button) == "true" {
            body.insert(button.into(), json!(true));
            return Ok(body);
        }
    }
    let refused = |problem: String| AppError::rejected("invalid-answer", problem);
    for field in &form.fields {
        if field.multiple {
            let values = posted
                .all(&field.name)
                .iter()
                .map(|v| field.read(v))
                .collect::<Result<Vec<Value>, String>>()
                .map_err(refused)?;
            body.insert(field.name.clone(), Value::Array(values));
            continue;
        }
        if field.list && !posted.get(&field.name).is_empty() {
            let items: Vec<&str> = posted.get(&field.name).split_whitespace().collect();
            body.insert(field.name.clone(), json!(items));
            continue;
        }
        let value = posted.get(&field.name);
        if value.is_empty() {
            if field.required {
                return Err(AppError::rejected(
                    "missing-answer",
                    format!("Choose a {} before sending.", field.label.to_lowercase()),
                ));
            }
            continue;
        }
        body.insert(field.name.clone(), field.read(value).map_err(refused)?);
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANN: &str = "00000000-0000-0000-0000-00000000000a";
    const BOB: &str = "00000000-0000-0000-0000-00000000000b";

    fn prompt() -> Value {
        json!({"game": "crossing-swords", "round": 3, "step": "orders",
            "players": [{"id": ANN, "name": "Ann"}, {"id": BOB, "name": "Bob"}],
            "moves": [
            {"move": "strike", "category": "attack", "targets": [1]},
            {"move": "mend", "category": "action", "targets": [0, 1]}
        ]})
    }

    #[test]
    fn crossing_swords_offers_moves_by_category_and_targets_by_move() {
        let pending = json!({"move": "mend", "target": ANN});
        let form = form_for(GameKind::CrossingSwords, Some(8), &prompt(), Some(&pending)).unwrap();
        assert_eq!((form.round, form.step.as_str()), (3, "orders"));
        assert_eq!(form.heading, "Your orders for round 3 of 8");
        let moves = &form.fields[0];
        let labels: Vec<&str> = moves.groups.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(labels, vec!["Attack", "Action"]);
        assert!(moves.groups[1].choices[0].selected);
        let targets = &form.fields[1].groups[0].choices;
        assert_eq!(
            (targets[0].value.as_str(), targets[0].label.as_str()),
            (BOB, "Bob")
        );
        assert_eq!(targets[0].allowed_with, "strike mend");
        assert_eq!(targets[1].allowed_with, "mend");
        assert!(targets[1].selected);
    }

    #[test]
    fn a_posted_form_becomes_an_order_and_a_missing_answer_is_named() {
        let form = form_for(GameKind::CrossingSwords, Some(8), &prompt(), None).unwrap();
        let posted = |fields: &[(&str, &str)]| CheckedForm {
            fields: fields
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        };
        let body = order_body(
            &form,
            &posted(&[
                ("round", "3"),
                ("step", "orders"),
                ("move", "strike"),
                ("target", BOB),
            ]),
        )
        .unwrap();
        assert_eq!(
            Value::Object(body),
            json!({"round": 3, "step": "orders", "move": "strike", "target": BOB})
        );
        let missing = order_body(
            &form,
            &posted(&[("round", "3"), ("step", "orders"), ("move", "strike")]),
        );
        assert_eq!(
            missing.unwrap_err().to_string(),
            "Choose a target before sending."
        );
        assert!(order_body(&form, &posted(&[("step", "orders")])).is_err());
    }
}
