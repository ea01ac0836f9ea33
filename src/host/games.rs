//! The games Herald hosts, as the host names them: the one place that turns a game id into a
//! [`GameKind`]. The games themselves are registered in [`crate::games`].

use std::fmt;
use std::str::FromStr;

use crate::error::AppError;
pub use crate::games::GameKind;
use crate::games::GameUi;
pub(crate) use crate::games::with_game;

impl GameKind {
    /// The game's id on the wire, as its rules define it ([`crate::rules::Game::ID`]).
    pub fn id(self) -> &'static str {
        with_game!(self, G => <G as crate::rules::Game>::ID)
    }

    /// The name of the game's main step, which a fallback order answers
    /// ([`crate::rules::Game::MAIN_STEP`]).
    pub fn main_step(self) -> &'static str {
        with_game!(self, G => <G as crate::rules::Game>::MAIN_STEP)
    }

    /// The game's name for people ([`GameUi::TITLE`]).
    pub fn title(self) -> &'static str {
        with_game!(self, G => <G as GameUi>::TITLE)
    }

    /// Whether the game is a duel ([`GameUi::DUEL`]); any other is played on boards of many.
    pub fn is_duel(self) -> bool {
        with_game!(self, G => <G as GameUi>::DUEL)
    }

    /// What the game's create form offers ([`GameUi::CREATE_SETTINGS`]).
    pub fn create_settings(self) -> &'static [crate::games::create::Setting] {
        with_game!(self, G => <G as GameUi>::CREATE_SETTINGS)
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
                let hosted: Vec<String> = GameKind::ALL
                    .iter()
                    .map(|kind| format!("{:?}", kind.id()))
                    .collect();
                AppError::rejected(
                    "unknown-game",
                    format!(
                        "There is no game {text:?}; Herald hosts {}.",
                        hosted.join(" and ")
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
