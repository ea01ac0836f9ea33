//! Mail addresses that sign a profile in, and the codes sent to them (docs/identity.md, "A
//! sign-in code by mail"). Addresses, codes and clients arrive here only as their hashes.

use uuid::Uuid;

use super::columns::Columns;
use super::{Store, StoreError};

/// What a code is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CodePurpose {
    /// Confirms an address a signed-in profile adds.
    Confirm,
    /// Signs a browser in.
    SignIn,
}

impl CodePurpose {
    fn as_str(self) -> &'static str {
        match self {
            CodePurpose::Confirm => "confirm",
            CodePurpose::SignIn => "sign-in",
        }
    }
}

/// A code asked for.
#[derive(Clone, Debug)]
pub struct MailCodeRow {
    pub id: Uuid,
    pub purpose: CodePurpose,
    pub address_hash: String,
    pub client_hash: String,
    /// Confirm: the profile adding the address; sign-in: the address's profile, or None for
    /// an address no profile has (its code was never sent and never matches).
    pub profile: Option<Uuid>,
    pub code_hash: String,
    pub created_at: i64,
    pub expires_at: i64,
}

/// A confirmed address, as its owner's page lists it (never the address).
#[derive(Clone, Debug)]
pub struct ProfileMailRow {
    pub id: Uuid,
    pub profile: Uuid,
    pub created_at: i64,
}

impl Store {
    /// How many codes were asked for `address_hash`, and by `client_hash`, since `since`.
    pub async fn mail_codes_since(
        &self,
        address_hash: &str,
        client_hash: &str,
        since: i64,
    ) -> Result<(i64, i64), StoreError> {
        let row = sqlx::query(
            "SELECT \
               (SELECT COUNT(*) FROM mail_codes WHERE address_hash = $1 AND created_at > $3) \
                 AS by_address, \
               (SELECT COUNT(*) FROM mail_codes WHERE client_hash = $2 AND created_at > $3) \
                 AS by_client",
        )
        .bind(address_hash)
        .bind(client_hash)
        .bind(since)
        .fetch_one(&self.pool)
        .await?;
        let row = Columns::of("mail_codes", &row);
        Ok((row.int("by_address")?, row.int("by_client")?))
    }

    /// Stores a code asked for, and forgets those asked for before `forget_before`.
    pub async fn add_mail_code(
        &self,
        code: &MailCodeRow,
        forget_before: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM mail_codes WHERE created_at < $1")
            .bind(forget_before)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO mail_codes (id, purpose, address_hash, client_hash, profile_id, \
             code_hash, tries, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8)",
        )
        .bind(code.id.to_string())
        .bind(code.purpose.as_str())
        .bind(&code.address_hash)
        .bind(&code.client_hash)
        .bind(code.profile.map(|p| p.to_string()))
        .bind(&code.code_hash)
        .bind(code.created_at)
        .bind(code.expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Counts one try of code `id` for `purpose`, if it is live and has tries left (fewer
    /// than `max_tries` so far): the code, to compare.
    pub async fn try_mail_code(
        &self,
        id: Uuid,
        purpose: CodePurpose,
        now: i64,
        max_tries: i64,
    ) -> Result<Option<MailCodeRow>, StoreError> {
        let row = sqlx::query(
            "UPDATE mail_codes SET tries = tries + 1 \
             WHERE id = $1 AND purpose = $2 AND expires_at > $3 AND tries < $4 \
             RETURNING id, address_hash, client_hash, profile_id, code_hash, created_at, expires_at",
        )
        .bind(id.to_string())
        .bind(purpose.as_str())
        .bind(now)
        .bind(max_tries)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            let row = Columns::of("mail_codes", &row);
            let profile = match row.text_or_null("profile_id")? {
                Some(text) => Some(
                    Uuid::parse_str(&text).map_err(|e| row.corrupt("profile_id", e.to_string()))?,
                ),
                None => None,
            };
            Ok(MailCodeRow {
                id: row.uuid("id")?,
                purpose,
                address_hash: row.text("address_hash")?,
                client_hash: row.text("client_hash")?,
                profile,
                code_hash: row.text("code_hash")?,
                created_at: row.int("created_at")?,
                expires_at: row.int("expires_at")?,
            })
        })
        .transpose()
    }

    /// Uses code `id` up; false if another request used it first. The row stays (ended), so
    /// that the limits still count it.
    pub async fn use_mail_code(&self, id: Uuid) -> Result<bool, StoreError> {
        let used =
            sqlx::query("UPDATE mail_codes SET expires_at = 0 WHERE id = $1 AND expires_at > 0")
                .bind(id.to_string())
                .execute(&self.pool)
                .await?
                .rows_affected();
        Ok(used > 0)
    }

    /// The confirmed address whose hash is `address_hash`.
    pub async fn mail_by_hash(
        &self,
        address_hash: &str,
    ) -> Result<Option<ProfileMailRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, profile_id, created_at FROM profile_mail WHERE address_hash = $1",
        )
        .bind(address_hash)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(mail_of).transpose()
    }

    /// Adds a confirmed address; false (nothing stored) if a profile has it already.
    pub async fn add_profile_mail(
        &self,
        mail: &ProfileMailRow,
        address_hash: &str,
    ) -> Result<bool, StoreError> {
        let inserted = sqlx::query(
            "INSERT INTO profile_mail (id, profile_id, address_hash, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (address_hash) DO NOTHING",
        )
        .bind(mail.id.to_string())
        .bind(mail.profile.to_string())
        .bind(address_hash)
        .bind(mail.created_at)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(inserted > 0)
    }

    /// The confirmed addresses of `profile`, oldest first.
    pub async fn mail_of(&self, profile: Uuid) -> Result<Vec<ProfileMailRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, profile_id, created_at FROM profile_mail WHERE profile_id = $1 \
             ORDER BY created_at, id",
        )
        .bind(profile.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(mail_of).collect()
    }

    /// Deletes address `id` of `profile` and the sessions it started; false if none such.
    pub async fn remove_profile_mail(&self, profile: Uuid, id: Uuid) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let deleted = sqlx::query("DELETE FROM profile_mail WHERE id = $1 AND profile_id = $2")
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
}

fn mail_of(row: &sqlx::any::AnyRow) -> Result<ProfileMailRow, StoreError> {
    let row = Columns::of("profile_mail", row);
    Ok(ProfileMailRow {
        id: row.uuid("id")?,
        profile: row.uuid("profile_id")?,
        created_at: row.int("created_at")?,
    })
}
