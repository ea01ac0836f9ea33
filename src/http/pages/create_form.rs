//! The create form's settings: what every game shares (deadlines, missed turns, unlisted), and
//! each game's own (Crossing Swords: most players and the variant keys of rulings §3.1; BST,
//! under "advanced": seed, pool and setup). Every value is checked here first, so that a host
//! reads what is wrong in words about the form, not about the API's field names.

use serde_json::{Map, Value, json};

use crate::host::GameKind;

/// How a setting is entered.
pub enum Input {
    /// A select: (value on the wire, words). The first is the game's default.
    Choice(&'static [(&'static str, &'static str)]),
    /// A checkbox: checked sends `true`.
    Flag,
    /// A whole number in a range.
    Whole { min: u64, max: u64 },
    /// Tokens separated by spaces or commas (BST pool).
    Words,
    /// A JSON object, pasted (BST setup).
    Json,
}

/// One setting of one game: the form field's name is the API key.
pub struct Setting {
    pub key: &'static str,
    pub label: &'static str,
    pub input: Input,
    /// Shown under "advanced", folded away.
    pub advanced: bool,
}

const fn choice(
    key: &'static str,
    label: &'static str,
    options: &'static [(&'static str, &'static str)],
) -> Setting {
    Setting {
        key,
        label,
        input: Input::Choice(options),
        advanced: false,
    }
}

const fn flag(key: &'static str, label: &'static str) -> Setting {
    Setting {
        key,
        label,
        input: Input::Flag,
        advanced: false,
    }
}

const MAX_ROUNDS: Setting = Setting {
    key: "max_rounds",
    label: "End the game after this many rounds (empty: play until one is left)",
    input: Input::Whole { min: 1, max: 1000 },
    advanced: false,
};

/// Crossing Swords: seats, the round cap and every variant key (rulings §3.1), in its words.
const CROSSING_SWORDS: &[Setting] = &[
    Setting {
        key: "max_players",
        label: "Most players (empty: 16)",
        input: Input::Whole { min: 2, max: 16 },
        advanced: false,
    },
    MAX_ROUNDS,
    choice(
        "missing_move",
        "A player who sends no order plays (Ruling 2)",
        &[
            ("pass", "Pass"),
            ("dodge", "Dodge on himself"),
            ("block", "Block on himself"),
            ("riposte", "Riposte on himself"),
            ("focus", "Focus on himself"),
            ("mend", "Mend on himself"),
        ],
    ),
    flag(
        "self_attacks",
        "Strike, Lunge and Assail may name oneself (Ruling 3)",
    ),
    choice(
        "halt_cycle",
        "A cycle of 3 or more Halts (Ruling 7)",
        &[
            ("void", "is void"),
            ("all_fire", "all fire: each deals its 3 and is negated"),
        ],
    ),
    flag(
        "halt_keeps_taunt_penalty",
        "A Halted Taunt keeps its +1 (Ruling 8)",
    ),
    choice(
        "focus_assail",
        "Focus doubles an Assail's share (Ruling 10)",
        &[
            ("declared", "only when declared at the Focus target"),
            ("any", "whenever it hits him"),
        ],
    ),
    flag(
        "taunt_before_focus",
        "Taunt's +1 comes before Focus's ×2+1 (Ruling 11)",
    ),
    flag(
        "assail_self",
        "The Assailer takes 1 from his own Assail (Ruling 17)",
    ),
    flag(
        "assail_targets_all",
        "Every Assail victim counts as targeted (Ruling 19)",
    ),
    choice(
        "assail_cap",
        "Assail counters beyond 8 (Ruling 20)",
        &[
            ("discard", "leave the game"),
            ("return", "go back to their victims' HP"),
        ],
    ),
    choice(
        "taunt_snapshot",
        "Taunt steals from the VP (Ruling 25)",
        &[
            ("start", "at the start of the turn"),
            ("post_damage", "after damage"),
        ],
    ),
    choice(
        "heal_cap",
        "Mend's HP ceiling (Ruling 28)",
        &[("none", "none"), ("20", "20 HP")],
    ),
    choice(
        "overkill",
        "Damage beyond the victim's HP (Ruling 29)",
        &[
            ("proportional", "counters split in proportion"),
            ("full_credit", "every damager credited in full"),
        ],
    ),
    flag(
        "convert_at_cap",
        "At the round cap every survivor converts HP to VP (Ruling 31)",
    ),
    choice(
        "tiebreak",
        "A tie for most VP (Ruling 32)",
        &[
            ("share", "is shared"),
            ("survivor_first", "goes to the living among the tied"),
        ],
    ),
];

/// BST: a duel, so no seats to choose; the round cap, and the test hooks under "advanced".
const BST: &[Setting] = &[
    MAX_ROUNDS,
    Setting {
        key: "seed",
        label: "Seed (a whole number: the same seed deals the same game)",
        input: Input::Whole {
            min: 0,
            max: u64::MAX,
        },
        advanced: true,
    },
    Setting {
        key: "pool",
        label: "Pool: the tokens in drawing order, e.g. R3 Y3 B5 … (all 80)",
        input: Input::Words,
        advanced: true,
    },
    Setting {
        key: "setup",
        label: "Setup: a starting position as JSON (see the rules document)",
        input: Input::Json,
        advanced: true,
    },
];

/// The settings a game's fieldset offers.
pub fn settings_of(game: GameKind) -> &'static [Setting] {
    match game {
        GameKind::CrossingSwords => CROSSING_SWORDS,
        GameKind::Bst => BST,
    }
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
