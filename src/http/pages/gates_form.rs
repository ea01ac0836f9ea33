//! The create form's "Who may join" fieldset: the lobby's gates in words (docs/identity.md,
//! "Gates"), read into the settings the API takes.

use serde_json::{Map, Value, json};

/// The gates as the form holds them (sent back when it is refused).
#[derive(Default)]
pub struct GatesForm {
    pub profile_required: bool,
    /// `allowed`, `forbidden` or `only`.
    pub bots: String,
    /// Empty: no least score.
    pub min_reliability: String,
    pub rated: bool,
}

impl GatesForm {
    /// The fieldset's fields from the posted form (`get` reads one field).
    pub fn read<'a>(get: impl Fn(&str) -> &'a str) -> GatesForm {
        GatesForm {
            profile_required: get("profile_required") == "true",
            bots: get("bots").trim().to_owned(),
            min_reliability: get("min_reliability").trim().to_owned(),
            rated: get("rated") == "true",
        }
    }

    /// Adds the gates that differ from the defaults to `settings`, or says what is wrong.
    pub fn insert_into(&self, settings: &mut Map<String, Value>) -> Result<(), String> {
        if self.profile_required {
            settings.insert("profile_required".into(), json!(true));
        }
        match self.bots.as_str() {
            "" | "allowed" => {}
            "forbidden" | "only" => {
                settings.insert("bots".into(), json!(self.bots));
            }
            _ => return Err("“Bots”: choose one of the offered answers.".into()),
        }
        if !self.min_reliability.is_empty() {
            match self.min_reliability.parse::<u64>() {
                Ok(n) if n <= 100 => {
                    settings.insert("min_reliability".into(), json!(n));
                }
                _ => {
                    return Err(
                        "The least reliability score must be a whole number from 0 to 100 (or left empty: none)."
                            .into(),
                    );
                }
            }
        }
        if self.rated {
            settings.insert("rated".into(), json!(true));
        }
        Ok(())
    }

    /// Whether `value` is the chosen answer of "Bots" (the first is chosen by default).
    pub fn bots_is(&self, value: &str) -> bool {
        self.bots == value || (self.bots.is_empty() && value == "allowed")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gates_go_in_as_the_api_spells_them_and_defaults_stay_out() {
        let fields = [
            ("bots", "only"),
            ("min_reliability", " 80 "),
            ("rated", "true"),
        ];
        let form = GatesForm::read(|name| {
            fields
                .iter()
                .find(|(k, _)| *k == name)
                .map_or("", |(_, v)| v)
        });
        let mut settings = Map::new();
        form.insert_into(&mut settings).unwrap();
        assert_eq!(
            Value::Object(settings),
            json!({"bots": "only", "min_reliability": 80, "rated": true})
        );
        let mut none = Map::new();
        GatesForm::default().insert_into(&mut none).unwrap();
        assert!(none.is_empty());
        let bad = GatesForm {
            min_reliability: "101".into(),
            ..GatesForm::default()
        };
        assert!(
            bad.insert_into(&mut Map::new())
                .unwrap_err()
                .contains("0 to 100")
        );
    }
}
