//! My games (`docs/web.md`): the lobbies a personal key hosts or plays in. The key
//! arrives here only as its hash; no lobby token is stored with it.

use uuid::Uuid;

use super::columns::Columns;
use super::rows::LobbyRow;
use super::{Store, StoreError, sql};

/// A game remembered under a personal key: the lobby as stored and the role held in it.
#[derive(Clone, Debug)]
pub struct MyGameRow {
    pub lobby: LobbyRow,
    /// `host` or `player`, as written by [`Store::remember_game`].
    pub role: String,
}

const REMEMBER: &str = "INSERT INTO my_games (key_hash, lobby_id, role, added_at) \
    VALUES ($1, $2, $3, $4) ON CONFLICT (key_hash, lobby_id, role) DO NOTHING";

const FORGET: &str = "DELETE FROM my_games WHERE key_hash = $1 AND lobby_id = $2 AND role = $3";

const KEY_KNOWN: &str = "SELECT COUNT(*) AS games FROM my_games WHERE key_hash = $1";

const ROLES_OF: &str = "SELECT lobby_id, role FROM my_games WHERE key_hash = $1";

impl Store {
    /// Remembers that the key hashed as `key_hash` holds `role` in `lobby` (again: no change).
    pub async fn remember_game(
        &self,
        key_hash: &str,
        lobby: Uuid,
        role: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(REMEMBER)
            .bind(key_hash)
            .bind(lobby.to_string())
            .bind(role)
            .bind(self.clock().now_millis())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets `role` in `lobby` under `key_hash` (a player who left the lobby).
    pub async fn forget_game(
        &self,
        key_hash: &str,
        lobby: Uuid,
        role: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(FORGET)
            .bind(key_hash)
            .bind(lobby.to_string())
            .bind(role)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The games remembered under `key_hash`, newest lobby first.
    pub async fn my_games(&self, key_hash: &str) -> Result<Vec<MyGameRow>, StoreError> {
        let found = sqlx::query(sql::MY_GAMES)
            .bind(key_hash)
            .fetch_all(&self.pool)
            .await?;
        found
            .iter()
            .map(|row| {
                Ok(MyGameRow {
                    lobby: LobbyRow::read(row)?,
                    role: Columns::of("my_games", row).text("role")?,
                })
            })
            .collect()
    }

    /// Whether any game is remembered under `key_hash`.
    pub async fn key_known(&self, key_hash: &str) -> Result<bool, StoreError> {
        let row = sqlx::query(KEY_KNOWN)
            .bind(key_hash)
            .fetch_one(&self.pool)
            .await?;
        let count = Columns::of("my_games", &row).int("games")?;
        Ok(count > 0)
    }

    /// Copies every game of `from` to `to` (a device that already had games takes up a
    /// carried key and keeps its own games under it).
    pub async fn merge_games(&self, from: &str, to: &str) -> Result<(), StoreError> {
        let found = sqlx::query(ROLES_OF)
            .bind(from)
            .fetch_all(&self.pool)
            .await?;
        for row in &found {
            let row = Columns::of("my_games", row);
            let lobby = row.uuid("lobby_id")?;
            let role = row.text("role")?;
            self.remember_game(to, lobby, &role).await?;
        }
        Ok(())
    }
}
