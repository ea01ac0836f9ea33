//! The create form's settings: what every game shares (deadlines, missed turns, unlisted), and
//! each game's own (Crossing Swords: most players and the variant keys of rulings §3.1; BST,
//! under "advanced": seed, pool and setup). Every value is checked here first, so that a host
//! reads what is wrong in words about the form, not about the API's field names.

use serde_json::{Map, Value, json};

pub use crate::games::create::{Input, Setting};
use crate::host::GameKind;

/// The settings a game's fieldset offers ([`crate::games::GameUi::CREATE_SETTINGS`]).
pub fn settings_of(game: GameKind) -> &'static [Setting] {
    game.create_settings()
}

/// The form field of `key` for `game`: keys of different games may share a name
/// (`max_rounds`), so each game's fields are prefixed with its id.
pub fn field_name(game: GameKind, key: &str) -> String {
    format!("{}.{key}", game.id())
}

/// Reads one setting from the posted text, or says what is wrong with it in words.
fn read(setting: &Setting, text: &str) -> Result<Option<Value>, String> {
    let text = text.trim();
    match &setting.input {
        Input::Flag => Ok((text == "true").then_some(Value::Bool(true))),
        _ if text.is_empty() => Ok(None),
        Input::Choice(options) => match options.iter().find(|(v, _)| *v == text) {
            // The default is left out, so the lobby shows only what differs.
            Some((value, _)) if *value == options[0].0 => Ok(None),
            Some((value, _)) => Ok(Some(
                value
                    .parse::<u64>()
                    .map(Value::from)
                    .unwrap_or_else(|_| json!(value)),
            )),
            None => Err(format!(
                "“{}”: choose one of the offered answers.",
                setting.label
            )),
        },
        Input::Whole { min, max } => match text.parse::<u64>() {
            Ok(n) if (*min..=*max).contains(&n) => Ok(Some(json!(n))),
            _ => Err(format!(
                "“{}” must be a whole number from {min} to {max} (or left empty).",
                setting.label
            )),
        },
        Input::Words => Ok(Some(json!(
            text.split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
        ))),
        Input::Json => match serde_json::from_str::<Value>(text) {
            Ok(value @ Value::Object(_)) => Ok(Some(value)),
            _ => Err(format!(
                "“{}” must be a JSON object, like {{\"round\": 1, …}} (or left empty).",
                setting.label
            )),
        },
    }
}

/// The chosen game's settings from the posted fields (`get` reads one field).
pub fn game_settings(
    game: GameKind,
    get: impl Fn(&str) -> String,
) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    for setting in settings_of(game) {
        if let Some(value) = read(setting, &get(&field_name(game, setting.key)))? {
            out.insert(setting.key.into(), value);
        }
    }
    Ok(out)
}

/// An error the API gave, in the form's words: each `settings.key` or bare key the message
/// names becomes its label.
pub fn in_form_words(game: GameKind, message: &str) -> String {
    let mut out = message.to_owned();
    for setting in settings_of(game) {
        let label = format!("“{}”", setting.label);
        out = out
            .replace(&format!("settings.{}", setting.key), &label)
            .replace(&format!("`{}`", setting.key), &label);
        // A message that begins with the key ("max_players must be …").
        if out.starts_with(&format!("{} ", setting.key)) {
            out = format!("{label}{}", &out[setting.key.len()..]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn posted<'a>(fields: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> String + 'a {
        move |name| {
            fields
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
                .unwrap_or_default()
        }
    }

    #[test]
    fn defaults_are_left_out_and_variants_go_in_as_the_api_spells_them() {
        let cs = GameKind::CrossingSwords;
        let got = game_settings(
            cs,
            posted(&[
                ("crossing-swords.max_rounds", "30"),
                ("crossing-swords.halt_cycle", "all_fire"),
                ("crossing-swords.missing_move", "pass"),
                ("crossing-swords.heal_cap", "20"),
                ("crossing-swords.self_attacks", "true"),
            ]),
        )
        .unwrap();
        assert_eq!(
            Value::Object(got),
            json!({"max_rounds": 30, "halt_cycle": "all_fire", "heal_cap": 20, "self_attacks": true})
        );
    }

    #[test]
    fn mistakes_are_named_by_their_label_not_their_key() {
        let bst = GameKind::Bst;
        let err = game_settings(bst, posted(&[("bst.seed", "-1")])).unwrap_err();
        assert!(err.starts_with("“Seed"), "{err}");
        let err = game_settings(bst, posted(&[("bst.setup", "[1]")])).unwrap_err();
        assert!(err.contains("JSON object"), "{err}");
        let pool = game_settings(bst, posted(&[("bst.pool", "R3, Y3 B5")])).unwrap();
        assert_eq!(pool["pool"], json!(["R3", "Y3", "B5"]));
        assert!(settings_of(bst).iter().all(|s| s.key != "max_players"));
        assert_eq!(
            in_form_words(bst, "settings.pool must hold the 80 tokens"),
            "“Pool: the tokens in drawing order, e.g. R3 Y3 B5 … (all 80)” must hold the 80 tokens"
        );
    }
}
