//! The games Herald hosts, and the one place that turns a game id into a [`Game`] type.

use std::fmt;
use std::str::FromStr;

use crate::error::AppError;

/// A game Herald can host.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameKind {
    CrossingSwords,
    Bst,
}

impl GameKind {
    pub const ALL: [GameKind; 2] = [GameKind::CrossingSwords, GameKind::Bst];

    /// The game's id on the wire, as its rules define it ([`crate::rules::Game::ID`]).
    pub fn id(self) -> &'static str {
        with_game!(self, G => <G as crate::rules::Game>::ID)
    }

    /// The name of the game's main step, which a fallback order answers
    /// ([`crate::rules::Game::MAIN_STEP`]).
    pub fn main_step(self) -> &'static str {
        with_game!(self, G => <G as crate::rules::Game>::MAIN_STEP)
    }

    /// The game's name for people.
    pub fn title(self) -> &'static str {
        match self {
            GameKind::CrossingSwords => "Crossing Swords",
            GameKind::Bst => "Blood Sweat and Tears",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for GameKind {
    type Err = AppError;

    fn from_str(text: &str) -> Result<GameKind, AppError> {
        GameKind::ALL
            .into_iter()
            .find(|kind| kind.id() == text)
            .ok_or_else(|| {
                AppError::rejected(
                    "unknown-game",
                    format!(
                        "There is no game {text:?}; Herald hosts \"crossing-swords\" and \"bst\"."
                    ),
                )
            })
    }
}

/// A stored lobby's game. Herald wrote the id when it created the lobby, so an id it does not
/// know is a fault of the stored row (a 500, the cause logged), not of the request that met it.
impl crate::store::LobbyRow {
    pub fn game_kind(&self) -> Result<GameKind, AppError> {
        GameKind::ALL
            .into_iter()
            .find(|kind| kind.id() == self.game)
            .ok_or_else(|| {
                AppError::Internal(format!(
                    "stored row of lobbies is corrupt in column game: unknown game {:?} (lobby {})",
                    self.game, self.id
                ))
            })
    }
}

/// Runs `$body` with `$G` bound to the [`crate::rules::Game`] type of `$kind`.
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::host::games::GameKind::CrossingSwords => {
                type $G = $crate::rules::crossing_swords::CrossingSwords;
                $body
            }
            $crate::host::games::GameKind::Bst => {
                type $G = $crate::rules::bst::Bst;
                $body
            }
        }
    };
}
pub(crate) use with_game;
