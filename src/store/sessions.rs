//! Signed-in browsers and the list of a profile's keys (docs/identity.md, "Signing in").
//! A session's secret arrives here only as its hash; a session whose key (or passkey, or mail
//! address) was removed is not found, and removing one deletes its sessions too.

use uuid::Uuid;

use super::columns::Columns;
use super::profiles::{KeyRow, ProfileRow};
use super::{Store, StoreError};

/// A session as listed for its profile (never its secret).
#[derive(Clone, Debug)]
pub struct SessionRow {
    pub id: Uuid,
    pub profile: Uuid,
    pub key: Uuid,
    pub created_at: i64,
    pub expires_at: i64,
}

const INSERT: &str = "INSERT INTO sessions (id, secret_hash, profile_id, key_id, created_at, expires_at) \
    VALUES ($1, $2, $3, $4, $5, $6)";

/// A session lives while what it came from does: a key, a passkey or a mail address.
const BY_SECRET: &str = "SELECT s.id, s.profile_id, s.key_id, s.created_at, s.expires_at \
    FROM sessions s WHERE s.secret_hash = $1 AND s.expires_at > $2 AND (\
    EXISTS (SELECT 1 FROM profile_keys k WHERE k.id = s.key_id) \
    OR EXISTS (SELECT 1 FROM passkeys p WHERE p.id = s.key_id) \
    OR EXISTS (SELECT 1 FROM profile_mail m WHERE m.id = s.key_id))";

const OF_PROFILE: &str = "SELECT s.id, s.profile_id, s.key_id, s.created_at, s.expires_at \
    FROM sessions s WHERE s.profile_id = $1 AND s.expires_at > $2 AND (\
    EXISTS (SELECT 1 FROM profile_keys k WHERE k.id = s.key_id) \
    OR EXISTS (SELECT 1 FROM passkeys p WHERE p.id = s.key_id) \
    OR EXISTS (SELECT 1 FROM profile_mail m WHERE m.id = s.key_id)) \
    ORDER BY s.created_at, s.id";

const KEYS_OF: &str = "SELECT id, profile_id, key_hash, created_at FROM profile_keys \
    WHERE profile_id = $1 ORDER BY created_at, id";

fn session_of(row: &sqlx::any::AnyRow) -> Result<SessionRow, StoreError> {
    let row = Columns::of("sessions", row);
    Ok(SessionRow {
        id: row.uuid("id")?,
        profile: row.uuid("profile_id")?,
        key: row.uuid("key_id")?,
        created_at: row.int("created_at")?,
        expires_at: row.int("expires_at")?,
    })
}

impl Store {
    /// Starts a session for `session`'s profile under the secret hashed as `secret_hash`.
    pub async fn create_session(
        &self,
        session: &SessionRow,
        secret_hash: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(INSERT)
            .bind(session.id.to_string())
            .bind(secret_hash)
            .bind(session.profile.to_string())
            .bind(session.key.to_string())
            .bind(session.created_at)
            .bind(session.expires_at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The live session whose secret hashes to `secret_hash`, with its profile.
    pub async fn session(
        &self,
        secret_hash: &str,
        now: i64,
    ) -> Result<Option<(SessionRow, ProfileRow)>, StoreError> {
        let Some(session) = self.live_session(secret_hash, now).await? else {
            return Ok(None);
        };
        let profile = self.profile_by_id(session.profile).await?;
        Ok(profile.map(|profile| (session, profile)))
    }

    /// The live session whose secret hashes to `secret_hash` (its profile not read).
    pub async fn live_session(
        &self,
        secret_hash: &str,
        now: i64,
    ) -> Result<Option<SessionRow>, StoreError> {
        let row = sqlx::query(BY_SECRET)
            .bind(secret_hash)
            .bind(now)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(session_of).transpose()
    }

    /// Moves a session's end to `expires_at` (each use slides it).
    pub async fn touch_session(&self, id: Uuid, expires_at: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE sessions SET expires_at = $1 WHERE id = $2")
            .bind(expires_at)
            .bind(id.to_string())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends session `id` of `profile`; false if it has none such.
    pub async fn end_session(&self, profile: Uuid, id: Uuid) -> Result<bool, StoreError> {
        let deleted = sqlx::query("DELETE FROM sessions WHERE id = $1 AND profile_id = $2")
            .bind(id.to_string())
            .bind(profile.to_string())
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(deleted > 0)
    }

    /// The live sessions of `profile`, oldest first.
    pub async fn sessions_of(
        &self,
        profile: Uuid,
        now: i64,
    ) -> Result<Vec<SessionRow>, StoreError> {
        let rows = sqlx::query(OF_PROFILE)
            .bind(profile.to_string())
            .bind(now)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(session_of).collect()
    }

    /// The keys of `profile`, oldest first (their hashes only).
    pub async fn keys_of(&self, profile: Uuid) -> Result<Vec<KeyRow>, StoreError> {
        let rows = sqlx::query(KEYS_OF)
            .bind(profile.to_string())
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| {
                let row = Columns::of("profile_keys", row);
                Ok(KeyRow {
                    id: row.uuid("id")?,
                    profile: row.uuid("profile_id")?,
                    key_hash: row.text("key_hash")?,
                    created_at: row.int("created_at")?,
                })
            })
            .collect()
    }
}
