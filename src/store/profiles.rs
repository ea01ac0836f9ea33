//! Profiles, their keys, the seats they hold and their record (docs/identity.md). Keys arrive
//! here only as their hashes. Profile rows are written outside any lobby's transaction (they
//! belong to no lobby); what a lobby's change writes about a profile is in `profile_rows.rs`,
//! the record it reads in `owed.rs`, the vacations in `vacations.rs`.

use uuid::Uuid;

use super::columns::Columns;
use super::profile_rows::ProfileKind;
use super::{Store, StoreError};

/// A profile as stored, with its owner's handle (a bot's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileRow {
    pub id: Uuid,
    pub handle: String,
    /// `host::names::name_key` of the handle: unique server-wide.
    pub handle_key: String,
    pub kind: ProfileKind,
    pub owner: Option<Uuid>,
    pub owner_handle: Option<String>,
    pub created_at: i64,
}

/// A profile key: its id (public, to revoke it by) and its hash.
#[derive(Clone, Debug)]
pub struct KeyRow {
    pub id: Uuid,
    pub profile: Uuid,
    pub key_hash: String,
    pub created_at: i64,
}

/// A profile's columns with its owner's handle, as `profile_of` reads them.
macro_rules! profile_select {
    () => {
        "SELECT p.id, p.handle, p.handle_key, p.kind, p.owner_id, p.created_at, \
         o.handle AS owner_handle FROM profiles p LEFT JOIN profiles o ON o.id = p.owner_id"
    };
}

const PROFILE_BY_HANDLE: &str = concat!(profile_select!(), " WHERE p.handle_key = $1");

const PROFILE_BY_ID: &str = concat!(profile_select!(), " WHERE p.id = $1");

/// The profile a key names, with the key's id.
const PROFILE_BY_KEY: &str = "SELECT k.id AS key_id, p.id, p.handle, p.handle_key, p.kind, \
    p.owner_id, p.created_at, o.handle AS owner_handle FROM profile_keys k \
    JOIN profiles p ON p.id = k.profile_id LEFT JOIN profiles o ON o.id = p.owner_id \
    WHERE k.key_hash = $1";

const INSERT_PROFILE: &str = "INSERT INTO profiles \
    (id, handle, handle_key, kind, owner_id, created_at) VALUES ($1, $2, $3, $4, $5, $6) \
    ON CONFLICT (handle_key) DO NOTHING";

const INSERT_KEY: &str =
    "INSERT INTO profile_keys (id, profile_id, key_hash, created_at) VALUES ($1, $2, $3, $4)";

fn profile_of(row: &sqlx::any::AnyRow) -> Result<ProfileRow, StoreError> {
    let row = Columns::of("profiles", row);
    let owner = match row.text_or_null("owner_id")? {
        Some(text) => Some(Uuid::parse_str(&text).map_err(|e| row.corrupt("owner_id", e))?),
        None => None,
    };
    Ok(ProfileRow {
        id: row.uuid("id")?,
        handle: row.text("handle")?,
        handle_key: row.text("handle_key")?,
        kind: row.word("kind", ProfileKind::parse)?,
        owner,
        owner_handle: row.text_or_null("owner_handle")?,
        created_at: row.int("created_at")?,
    })
}

impl Store {
    /// Stores a new profile with its first key, both or neither; false (nothing stored) when
    /// its handle's key is taken.
    pub async fn create_profile(
        &self,
        profile: &ProfileRow,
        key: &KeyRow,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(INSERT_PROFILE)
            .bind(profile.id.to_string())
            .bind(&profile.handle)
            .bind(&profile.handle_key)
            .bind(profile.kind.as_str())
            .bind(profile.owner.map(|o| o.to_string()))
            .bind(profile.created_at)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if inserted == 0 {
            return Ok(false);
        }
        insert_key(&mut tx, key).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Adds a key to a profile.
    pub async fn add_profile_key(&self, key: &KeyRow) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        insert_key(&mut conn, key).await
    }

    /// Deletes key `key` of `profile`; false if the profile has no such key.
    /// Its sessions end with it.
    pub async fn revoke_profile_key(&self, profile: Uuid, key: Uuid) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let deleted = sqlx::query("DELETE FROM profile_keys WHERE id = $1 AND profile_id = $2")
            .bind(key.to_string())
            .bind(profile.to_string())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        sqlx::query("DELETE FROM sessions WHERE key_id = $1 AND profile_id = $2")
            .bind(key.to_string())
            .bind(profile.to_string())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(deleted > 0)
    }

    /// The profile whose handle has the key `handle_key`.
    pub async fn profile_by_handle(
        &self,
        handle_key: &str,
    ) -> Result<Option<ProfileRow>, StoreError> {
        let row = self
            .within(async {
                Ok(sqlx::query(PROFILE_BY_HANDLE)
                    .bind(handle_key)
                    .fetch_optional(&self.pool)
                    .await?)
            })
            .await?;
        row.as_ref().map(profile_of).transpose()
    }

    /// The profile with id `id`.
    pub async fn profile_by_id(&self, id: Uuid) -> Result<Option<ProfileRow>, StoreError> {
        let row = self
            .within(async {
                Ok(sqlx::query(PROFILE_BY_ID)
                    .bind(id.to_string())
                    .fetch_optional(&self.pool)
                    .await?)
            })
            .await?;
        row.as_ref().map(profile_of).transpose()
    }

    /// The profile a key hashed as `key_hash` names (None once it is revoked), with the key's id.
    pub async fn profile_by_key(
        &self,
        key_hash: &str,
    ) -> Result<Option<(ProfileRow, Uuid)>, StoreError> {
        let row = self
            .within(async {
                Ok(sqlx::query(PROFILE_BY_KEY)
                    .bind(key_hash)
                    .fetch_optional(&self.pool)
                    .await?)
            })
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let key = Columns::of("profile_keys", &row).uuid("key_id")?;
        Ok(Some((profile_of(&row)?, key)))
    }
}

async fn insert_key(conn: &mut sqlx::AnyConnection, key: &KeyRow) -> Result<(), StoreError> {
    sqlx::query(INSERT_KEY)
        .bind(key.id.to_string())
        .bind(key.profile.to_string())
        .bind(&key.key_hash)
        .bind(key.created_at)
        .execute(&mut *conn)
        .await?;
    Ok(())
}
