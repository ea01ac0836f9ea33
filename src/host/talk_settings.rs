//! The lobby's table-talk settings (docs/table-talk.md): the press mode, whether the
//! messages are opened to everyone once the game is over, and whether the players are named by
//! pseudonyms until then (an anonymous game). They are the host's, not the game's,
//! and are stored with the deadline settings (`timing.rs`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::AppError;
use crate::events::Recipients;

/// Who may write to whom while the game runs.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Press {
    /// No messages at all.
    #[default]
    None,
    /// Messages to everyone only.
    Public,
    /// Messages to everyone or to chosen players.
    Full,
}

impl Press {
    /// Whether a message to `to` may be sent in this mode: 403 `press-forbidden` if not.
    pub fn allows(self, to: &Recipients) -> Result<(), AppError> {
        let why = match (self, to) {
            (Press::Full, _) | (Press::Public, Recipients::All(_)) => return Ok(()),
            (Press::None, _) => "This game is played without press: no messages can be sent.",
            (Press::Public, Recipients::Players(_)) => {
                "This game allows public press only: messages go to everyone (\"to\": \"all\")."
            }
        };
        Err(AppError::forbidden("press-forbidden", why))
    }
}

/// The lobby's table-talk settings, with their defaults filled in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TalkSettings {
    pub press: Press,
    /// Every message becomes readable by everyone once the game is over.
    pub press_reveal: bool,
}

/// The settings keys that are table talk's.
pub const KEYS: [&str; 2] = ["press", "press_reveal"];

/// Reads the table-talk keys taken out of a lobby's settings (absent or null: the default):
/// 422 `invalid-press-setting` naming the field for anything else.
pub fn read(taken: &Map<String, Value>) -> Result<(Option<Press>, Option<bool>), AppError> {
    let press = match taken.get("press") {
        None | Some(Value::Null) => None,
        Some(value) => Some(Press::deserialize(value).map_err(|_| {
            AppError::rejected(
                "invalid-press-setting",
                "settings.press must be \"none\", \"public\" or \"full\".",
            )
        })?),
    };
    let reveal = match taken.get("press_reveal") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(reveal)) => Some(*reveal),
        Some(_) => {
            return Err(AppError::rejected(
                "invalid-press-setting",
                "settings.press_reveal must be true or false.",
            ));
        }
    };
    Ok((press, reveal))
}

/// The setting that names players by pseudonyms until the end (`anonymity.rs`).
pub const ANONYMOUS: &str = "anonymous";

/// Reads `anonymous` taken out of a lobby's settings (absent or null: not anonymous): 422
/// `invalid-anonymous-setting` for anything but a boolean.
pub fn read_anonymous(taken: &Map<String, Value>) -> Result<Option<bool>, AppError> {
    match taken.get(ANONYMOUS) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(anonymous)) => Ok(Some(*anonymous)),
        Some(_) => Err(AppError::rejected(
            "invalid-anonymous-setting",
            "settings.anonymous must be true or false.",
        )),
    }
}
