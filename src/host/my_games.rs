//! My games (`docs/web.md`): a personal key, kept in a browser's cookie, remembers
//! which lobbies that browser hosts or plays in, so the home page can list them across lobbies
//! and the list can be carried to another device. The key is a token like the others
//! (256 random bits, stored only as its SHA-256); the lobbies' own tokens are never stored
//! with it: each stays in its lobby's cookie on the device that used it.

use uuid::Uuid;

use super::Host;
use super::auth::hash_token;
use super::views::LobbySummary;
use crate::error::AppError;

/// What a personal key holds in a lobby.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MyRole {
    Host,
    Player,
}

impl MyRole {
    fn as_str(self) -> &'static str {
        match self {
            MyRole::Host => "host",
            MyRole::Player => "player",
        }
    }

    fn parse(text: &str) -> Result<MyRole, AppError> {
        match text {
            "host" => Ok(MyRole::Host),
            "player" => Ok(MyRole::Player),
            other => Err(AppError::Internal(format!(
                "unknown role {other:?} in my_games"
            ))),
        }
    }
}

/// One of my games: the lobby's public summary and the role held in it.
#[derive(Clone, Debug)]
pub struct MyGame {
    pub lobby: LobbySummary,
    pub role: MyRole,
}

/// Whether `key` has the shape of a personal key (64 hex digits), so that nothing else is
/// hashed or looked up.
pub fn well_formed_key(key: &str) -> bool {
    key.len() == 64 && key.bytes().all(|b| b.is_ascii_hexdigit())
}

impl Host {
    /// Remembers `role` in `lobby` under the personal `key`.
    pub async fn remember_game(
        &self,
        key: &str,
        lobby: Uuid,
        role: MyRole,
    ) -> Result<(), AppError> {
        Ok(self
            .store
            .remember_game(&hash_token(key), lobby, role.as_str())
            .await?)
    }

    /// Forgets `role` in `lobby` under the personal `key`.
    pub async fn forget_game(&self, key: &str, lobby: Uuid, role: MyRole) -> Result<(), AppError> {
        Ok(self
            .store
            .forget_game(&hash_token(key), lobby, role.as_str())
            .await?)
    }

    /// The games remembered under `key`, newest lobby first (unlisted ones included: they are
    /// this person's own).
    pub async fn my_games(&self, key: &str) -> Result<Vec<MyGame>, AppError> {
        let rows = self.store.my_games(&hash_token(key)).await?;
        rows.iter()
            .map(|row| {
                Ok(MyGame {
                    lobby: LobbySummary::of(&row.lobby)?,
                    role: MyRole::parse(&row.role)?,
                })
            })
            .collect()
    }

    /// Whether `key` remembers any game (a carry link for an unknown key is refused).
    pub async fn key_known(&self, key: &str) -> Result<bool, AppError> {
        Ok(self.store.key_known(&hash_token(key)).await?)
    }

    /// Puts the games of key `from` under key `to` as well.
    pub async fn merge_games(&self, from: &str, to: &str) -> Result<(), AppError> {
        Ok(self
            .store
            .merge_games(&hash_token(from), &hash_token(to))
            .await?)
    }
}
