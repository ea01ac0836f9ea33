//! BST's order forms on the play page, from the prompt the `me` view sends to the order body a
//! posted form becomes: the game's presentation (`games::bst::present`) read through the
//! pages' generic form (`http::pages::prompt_form`).

use herald::games::GameKind;
use herald::games::bst::present::effect;
use herald::http::pages::prompt_form::{PromptForm, form_for, order_body};
use herald::http::pages::session::CheckedForm;
use herald::rules::bst::Move;
use serde_json::{Value, json};

/// The page's form for a BST prompt body at `step` of `round`, as the `me` view sends it.
fn form(round: u32, step: String, prompt: &Value, pending: Option<&Value>) -> PromptForm {
    let mut sent = json!({"game": "bst", "round": round, "step": step});
    sent.as_object_mut()
        .unwrap()
        .extend(prompt.as_object().unwrap().clone());
    form_for(GameKind::Bst, Some(10), &sent, pending).unwrap()
}

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
    assert!(!f.fields[0].multiple);
    assert_eq!(f.buttons[0].label, "Use a random pool token");
    assert_eq!(answer(&f, &[("token", "B6")]), json!({"token": "B6"}));
    assert_eq!(
        answer(&f, &[("random_pool", "true")]),
        json!({"random_pool": true})
    );

    let surge = json!({"text": "Power Surge?", "hand": [], "can_decline": true});
    let f = form(2, "power-surge".into(), &surge, None);
    assert!(f.fields.is_empty() && f.accept && f.decline);
    assert_eq!(f.heading, "Round 2 of 10: Power surge");
    assert_eq!(answer(&f, &[("accept", "true")]), json!({"accept": true}));
}

#[test]
fn every_tile_says_what_it_does_and_links_to_its_row_on_the_rules_page() {
    let page = include_str!("../../templates/rules_bst.html");
    for tile in Move::ALL {
        let effect = effect(tile);
        assert_eq!(effect.name, tile.name());
        let anchor = effect.href.strip_prefix("/rules/bst#").unwrap();
        assert!(page.contains(&format!("id=\"{anchor}\"")), "{anchor}");
    }
    let prompt = json!({"text": "t", "hand": ["R7"], "can_decline": false, "moves": [
        {"move": "guard", "cost": 0, "legal": true}
    ]});
    let f = form(1, "play".into(), &prompt, None);
    assert_eq!(f.fields[0].effects()[0].href, "/rules/bst#guard");
    assert!(
        f.fields[1].effects().is_empty(),
        "a token has no effect of its own"
    );
}
