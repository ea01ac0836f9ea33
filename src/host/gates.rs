//! The gates a host sets on who may join (docs/identity.md, "Gates"): a profile required,
//! bots allowed, forbidden or required, a least reliability score, and a rated game (whose
//! seats must all be of one kind). Taken out of a lobby's settings at creation and kept with
//! the host's other settings (`lobbies.timing`, see `timing.rs`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::AppError;
use crate::store::{ProfileKind, Snapshot};

/// Which profiles may take a seat, by kind.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bots {
    #[default]
    Allowed,
    Forbidden,
    Only,
}

/// A lobby's gates; the default lets anyone in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gates {
    #[serde(default)]
    pub profile_required: bool,
    #[serde(default)]
    pub bots: Bots,
    #[serde(default)]
    pub min_reliability: Option<u32>,
    #[serde(default)]
    pub rated: bool,
}

/// The settings keys that are the gates.
const KEYS: [&str; 4] = ["profile_required", "bots", "min_reliability", "rated"];

fn invalid(field: &str, rule: &str) -> AppError {
    AppError::rejected(
        "invalid-setting",
        format!("settings.{field} must be {rule}."),
    )
}

/// Who is asking to join, as the gates see them.
#[derive(Copy, Clone, Debug)]
pub struct Joiner {
    pub kind: ProfileKind,
    /// The profile's reliability score now.
    pub score: u32,
}

impl Gates {
    /// Takes the gate keys out of a lobby's `settings` (the rest is the game's) and checks
    /// them (422 `invalid-setting` naming the field).
    pub fn split_from(settings: &mut Value) -> Result<Gates, AppError> {
        let Value::Object(map) = settings else {
            return Ok(Gates::default());
        };
        let mut taken = Map::new();
        for key in KEYS {
            if let Some(value) = map.remove(key)
                && !value.is_null()
            {
                taken.insert(key.to_owned(), value);
            }
        }
        let flag = |field: &str| match taken.get(field) {
            None => Ok(false),
            Some(Value::Bool(on)) => Ok(*on),
            Some(_) => Err(invalid(field, "true or false")),
        };
        let mut gates = Gates {
            profile_required: flag("profile_required")?,
            rated: flag("rated")?,
            ..Gates::default()
        };
        if let Some(bots) = taken.get("bots") {
            gates.bots = serde_json::from_value(bots.clone())
                .map_err(|_| invalid("bots", "\"allowed\", \"forbidden\" or \"only\""))?;
        }
        if let Some(min) = taken.get("min_reliability") {
            let min = min.as_u64().filter(|m| *m <= 100).ok_or_else(|| {
                invalid("min_reliability", "null or a whole number from 0 to 100")
            })?;
            gates.min_reliability = Some(min as u32);
        }
        Ok(gates)
    }

    /// Whether these gates let anyone in (then they are not stored).
    pub fn is_open(&self) -> bool {
        *self == Gates::default()
    }

    /// Whether a join must come with a profile: asked for, or implied by a least score or a
    /// rated game (both need someone to judge).
    pub fn needs_profile(&self) -> bool {
        self.profile_required || self.min_reliability.is_some() || self.rated
    }

    /// Lets `joiner` (None: no profile) in, or says which gate refuses: 403 with its code.
    pub fn admit(&self, joiner: Option<Joiner>) -> Result<(), AppError> {
        let Some(joiner) = joiner else {
            if self.needs_profile() || self.bots == Bots::Only {
                return Err(AppError::forbidden(
                    "profile-required",
                    "This lobby takes only players with a profile: join with a profile key.",
                ));
            }
            return Ok(());
        };
        match (self.bots, joiner.kind) {
            (Bots::Forbidden, ProfileKind::Bot) => {
                return Err(AppError::forbidden(
                    "bots-forbidden",
                    "This lobby is for people: bots may not join.",
                ));
            }
            (Bots::Only, ProfileKind::Human) => {
                return Err(AppError::forbidden(
                    "bots-only",
                    "This lobby is for bots only.",
                ));
            }
            _ => {}
        }
        if let Some(min) = self.min_reliability
            && joiner.score < min
        {
            return Err(AppError::forbidden(
                "reliability-too-low",
                format!(
                    "This lobby asks for a reliability score of at least {min}; yours is {}.",
                    joiner.score
                ),
            ));
        }
        Ok(())
    }

    /// A rated game's seats must all be bound to profiles of one kind (422 `mixed-kinds`).
    pub fn check_start(&self, snapshot: &Snapshot) -> Result<(), AppError> {
        if !self.rated {
            return Ok(());
        }
        let mut kinds = snapshot.players.iter().map(|p| p.binding.map(|b| b.kind));
        let first = kinds.next().flatten();
        if first.is_none() || kinds.any(|k| k != first) {
            return Err(AppError::rejected(
                "mixed-kinds",
                "A rated game is played by people only or by bots only, every seat bound to a profile.",
            ));
        }
        Ok(())
    }

    /// The gates as the lobby view shows them, under `settings`.
    pub fn effective(&self) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("profile_required".into(), self.needs_profile().into());
        map.insert(
            "bots".into(),
            serde_json::to_value(self.bots).unwrap_or(Value::Null),
        );
        map.insert("min_reliability".into(), self.min_reliability.into());
        map.insert("rated".into(), self.rated.into());
        map
    }
}
