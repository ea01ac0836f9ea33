//! A player's prompt as a form, and the posted form back as an order body.
//!
//! A prompt (`{"round", "step", ...the step's legal answers}`) becomes a [`PromptForm`]: a few
//! fields, each a choice among the legal answers (a select, or checkboxes when several may be
//! picked), plus a "decline" button for optional steps. The same form, rebuilt from the
//! current prompt when the POST arrives, turns the posted fields back into the JSON order the
//! host judges. A game adds a builder here; the template and the conversion are shared.

use serde_json::{Map, Value, json};

use super::cite::{Cited, cite};
use super::session::CheckedForm;
use super::table::title;
use crate::error::AppError;
use crate::host::GameKind;

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
    /// An extra button sending `{"random_pool": true}` (BST Assassin's follow-up).
    pub random_pool: bool,
}

/// One answer to give: a select (one value) or checkboxes (`multiple`, a list).
#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    pub label: String,
    pub multiple: bool,
    /// A single choice whose value is a space-separated list, sent as an array (a BST pair).
    pub list: bool,
    pub required: bool,
    /// How many to tick, for checkboxes ("" if not limited).
    pub hint: String,
    /// The field whose value limits this one's choices (JS hides the others; the server
    /// checks regardless).
    pub depends_on: String,
    pub groups: Vec<Group>,
}

/// Choices under an optional heading (an `<optgroup>`).
#[derive(Clone, Debug)]
pub struct Group {
    pub label: String,
    pub choices: Vec<Choice>,
}

#[derive(Clone, Debug)]
pub struct Choice {
    pub value: String,
    pub label: String,
    /// The values of `depends_on` this choice goes with, space-separated.
    pub allowed_with: String,
    pub selected: bool,
}

/// The form for `prompt`, with `pending` (the order already sent, if any) preselected.
pub fn form_for(
    game: GameKind,
    prompt: &Value,
    pending: Option<&Value>,
) -> Result<PromptForm, AppError> {
    let round = prompt["round"].as_u64().unwrap_or(0);
    let step = prompt["step"].as_str().unwrap_or_default().to_owned();
    match game {
        GameKind::CrossingSwords => Ok(crossing_swords(round, step, prompt, pending)),
        GameKind::Bst => Ok(super::prompt_bst::form(round, step, prompt, pending)),
    }
}

pub(super) fn pending_str<'a>(pending: Option<&'a Value>, field: &str) -> &'a str {
    pending.and_then(|p| p[field].as_str()).unwrap_or("")
}

/// Crossing Swords, step `orders`: a move (grouped by category) and a target; each target
/// lists the moves it is legal for (not oneself, except for Mend and the like).
fn crossing_swords(
    round: u64,
    step: String,
    prompt: &Value,
    pending: Option<&Value>,
) -> PromptForm {
    let moves = prompt["moves"].as_array().cloned().unwrap_or_default();
    let players = prompt["players"].as_array().cloned().unwrap_or_default();
    let mut groups: Vec<Group> = Vec::new();
    let mut targets: Vec<Choice> = Vec::new();
    let chosen_move = pending_str(pending, "move");
    let chosen_target = pending_str(pending, "target");
    for entry in &moves {
        let mv = entry["move"].as_str().unwrap_or_default();
        let category = title(entry["category"].as_str().unwrap_or_default());
        let choice = Choice {
            value: mv.to_owned(),
            label: title(mv),
            allowed_with: String::new(),
            selected: mv == chosen_move,
        };
        match groups.iter_mut().find(|g| g.label == category) {
            Some(group) => group.choices.push(choice),
            None => groups.push(Group {
                label: category,
                choices: vec![choice],
            }),
        }
        // Targets are seats, indexes into the prompt's `players`.
        let seats = entry["targets"].as_array().into_iter().flatten();
        let listed = seats.filter_map(|seat| players.get(usize::try_from(seat.as_u64()?).ok()?));
        for target in listed {
            let id = target["id"].as_str().unwrap_or_default();
            match targets.iter_mut().find(|t| t.value == id) {
                Some(t) => {
                    t.allowed_with.push(' ');
                    t.allowed_with.push_str(mv);
                }
                None => targets.push(Choice {
                    value: id.to_owned(),
                    label: target["name"].as_str().unwrap_or_default().to_owned(),
                    allowed_with: mv.to_owned(),
                    selected: id == chosen_target,
                }),
            }
        }
    }
    PromptForm {
        round,
        step,
        heading: format!("Your orders for round {round}"),
        help: cite(
            "Pick one move and its target. Strike, Lunge, Assail, Taunt and Halt must name another \
             player; Dodge, Block, Riposte, Focus and Mend may name you.",
            "crossing-swords",
        ),
        fields: vec![
            Field {
                name: "move".into(),
                label: "Move".into(),
                multiple: false,
                list: false,
                required: true,
                hint: String::new(),
                depends_on: String::new(),
                groups,
            },
            Field {
                name: "target".into(),
                label: "Target".into(),
                multiple: false,
                list: false,
                required: true,
                hint: String::new(),
                depends_on: "move".into(),
                groups: vec![Group {
                    label: String::new(),
                    choices: targets,
                }],
            },
        ],
        decline: false,
        accept: false,
        accept_label: String::new(),
        random_pool: false,
    }
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
    for (allowed, button) in [
        (form.decline, "decline"),
        (form.accept, "accept"),
        (form.random_pool, "random_pool"),
    ] {
        if allowed && posted.get(button) == "true" {
            body.insert(button.into(), json!(true));
            return Ok(body);
        }
    }
    for field in &form.fields {
        if field.multiple {
            body.insert(field.name.clone(), json!(posted.all(&field.name)));
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
        body.insert(field.name.clone(), json!(value));
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt() -> Value {
        json!({"round": 3, "step": "orders",
            "players": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}],
            "moves": [
            {"move": "strike", "category": "attack", "targets": [1]},
            {"move": "mend", "category": "action", "targets": [0, 1]}
        ]})
    }

    #[test]
    fn crossing_swords_offers_moves_by_category_and_targets_by_move() {
        let pending = json!({"move": "mend", "target": "a"});
        let form = form_for(GameKind::CrossingSwords, &prompt(), Some(&pending)).unwrap();
        assert_eq!((form.round, form.step.as_str()), (3, "orders"));
        let moves = &form.fields[0];
        let labels: Vec<&str> = moves.groups.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(labels, vec!["Attack", "Action"]);
        assert!(moves.groups[1].choices[0].selected);
        let targets = &form.fields[1].groups[0].choices;
        assert_eq!(
            (targets[0].value.as_str(), targets[0].label.as_str()),
            ("b", "Bob")
        );
        assert_eq!(targets[0].allowed_with, "strike mend");
        assert_eq!(targets[1].allowed_with, "mend");
        assert!(targets[1].selected);
    }

    #[test]
    fn a_posted_form_becomes_an_order_and_a_missing_answer_is_named() {
        let form = form_for(GameKind::CrossingSwords, &prompt(), None).unwrap();
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
                ("target", "b"),
            ]),
        )
        .unwrap();
        assert_eq!(
            Value::Object(body),
            json!({"round": 3, "step": "orders", "move": "strike", "target": "b"})
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
