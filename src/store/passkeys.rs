//! A profile's passkeys and the WebAuthn ceremonies under way (docs/identity.md, "Passkeys").
//! The store keeps webauthn-rs's records as the JSON text it is given and reads nothing in
//! them: what a passkey is, is the host's business (`host/passkeys.rs`).

use uuid::Uuid;

use super::columns::Columns;
use super::{Store, StoreError};

/// A registered passkey.
#[derive(Clone, Debug)]
pub struct PasskeyRow {
    pub id: Uuid,
    pub profile: Uuid,
    /// The credential's id, base64url: how a sign-in finds it.
    pub credential_id: String,
    /// webauthn-rs's `Passkey`, as JSON.
    pub passkey: String,
    pub created_at: i64,
    pub used_at: Option<i64>,
}

/// What a ceremony is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CeremonyKind {
    Register,
    SignIn,
}

impl CeremonyKind {
    fn as_str(self) -> &'static str {
        match self {
            CeremonyKind::Register => "register",
            CeremonyKind::SignIn => "sign-in",
        }
    }
}

const COLUMNS: &str = "id, profile_id, credential_id, passkey, created_at, used_at";

fn passkey_of(row: &sqlx::any::AnyRow) -> Result<PasskeyRow, StoreError> {
    let row = Columns::of("passkeys", row);
    Ok(PasskeyRow {
        id: row.uuid("id")?,
        profile: row.uuid("profile_id")?,
        credential_id: row.text("credential_id")?,
        passkey: row.text("passkey")?,
        created_at: row.int("created_at")?,
        used_at: row.int_or_null("used_at")?,
    })
}

impl Store {
    /// Stores a new passkey; false (nothing stored) if its credential is registered already.
    pub async fn add_passkey(&self, passkey: &PasskeyRow) -> Result<bool, StoreError> {
        let inserted = sqlx::query(
            "INSERT INTO passkeys (id, profile_id, credential_id, passkey, created_at, used_at) \
             VALUES ($1, $2, $3, $4, $5, NULL) ON CONFLICT (credential_id) DO NOTHING",
        )
        .bind(passkey.id.to_string())
        .bind(passkey.profile.to_string())
        .bind(&passkey.credential_id)
        .bind(&passkey.passkey)
        .bind(passkey.created_at)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(inserted > 0)
    }

    /// The passkeys of `profile`, oldest first.
    pub async fn passkeys_of(&self, profile: Uuid) -> Result<Vec<PasskeyRow>, StoreError> {
        let sql =
            format!("SELECT {COLUMNS} FROM passkeys WHERE profile_id = $1 ORDER BY created_at, id");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(profile.to_string())
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(passkey_of).collect()
    }

    /// The passkey whose credential id is `credential_id`.
    pub async fn passkey_by_credential(
        &self,
        credential_id: &str,
    ) -> Result<Option<PasskeyRow>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM passkeys WHERE credential_id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(credential_id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(passkey_of).transpose()
    }

    /// Records a sign-in with passkey `id`: its updated record (the counter) and when.
    pub async fn passkey_used(&self, id: Uuid, passkey: &str, at: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE passkeys SET passkey = $1, used_at = $2 WHERE id = $3")
            .bind(passkey)
            .bind(at)
            .bind(id.to_string())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Deletes passkey `id` of `profile` and the sessions it started; false if it has none such.
    pub async fn remove_passkey(&self, profile: Uuid, id: Uuid) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let deleted = sqlx::query("DELETE FROM passkeys WHERE id = $1 AND profile_id = $2")
            .bind(id.to_string())
            .bind(profile.to_string())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        sqlx::query("DELETE FROM sessions WHERE key_id = $1 AND profile_id = $2")
            .bind(id.to_string())
            .bind(profile.to_string())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(deleted > 0)
    }

    /// Stores a ceremony under way, and forgets those that ended before `now`.
    pub async fn start_ceremony(
        &self,
        id: Uuid,
        profile: Uuid,
        kind: CeremonyKind,
        state: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM passkey_ceremonies WHERE expires_at <= $1")
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO passkey_ceremonies (id, profile_id, kind, state, expires_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id.to_string())
        .bind(profile.to_string())
        .bind(kind.as_str())
        .bind(state)
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Takes ceremony `id` of `kind` if it is still live: its profile and state. Taking
    /// deletes it, so a ceremony finishes at most once.
    pub async fn take_ceremony(
        &self,
        id: Uuid,
        kind: CeremonyKind,
        now: i64,
    ) -> Result<Option<(Uuid, String)>, StoreError> {
        let row = sqlx::query(
            "DELETE FROM passkey_ceremonies WHERE id = $1 AND kind = $2 AND expires_at > $3 \
             RETURNING profile_id, state",
        )
        .bind(id.to_string())
        .bind(kind.as_str())
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            let row = Columns::of("passkey_ceremonies", &row);
            Ok((row.uuid("profile_id")?, row.text("state")?))
        })
        .transpose()
    }
}
