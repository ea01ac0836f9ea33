//! A profile's keys and bots, from its own key (docs/identity.md, "Keys"): another key shown
//! once, revoking one (its sessions end with it), and a bot profile a human owns.

use serde::Serialize;
use uuid::Uuid;

use super::Host;
use super::auth::{hash_token, new_token};
use super::profiles::{KEY_PREFIX, ProfileCreated};
use crate::error::AppError;
use crate::store::{KeyRow, ProfileKind};

/// A key just added (shown this once).
#[derive(Debug, Serialize)]
pub struct KeyCreated {
    pub key_id: Uuid,
    pub key: String,
}

impl Host {
    /// Adds a key to the profile `key` names.
    pub async fn add_profile_key(&self, key: Option<&str>) -> Result<KeyCreated, AppError> {
        let signed = self.signed(key).await?;
        let fresh = format!("{KEY_PREFIX}{}", new_token());
        let row = KeyRow {
            id: Uuid::new_v4(),
            profile: signed.profile.id,
            key_hash: hash_token(&fresh),
            created_at: self.store.clock().now_millis(),
        };
        self.store.add_profile_key(&row).await?;
        Ok(KeyCreated {
            key_id: row.id,
            key: fresh,
        })
    }

    /// Revokes key `key_id` of the profile `key` names (that key itself included).
    pub async fn revoke_profile_key(
        &self,
        key: Option<&str>,
        key_id: &str,
    ) -> Result<(), AppError> {
        let signed = self.signed(key).await?;
        let not_found = || AppError::not_found("unknown-key", "This profile has no such key.");
        let key_id = Uuid::parse_str(key_id).map_err(|_| not_found())?;
        match self
            .store
            .revoke_profile_key(signed.profile.id, key_id)
            .await?
        {
            true => Ok(()),
            false => Err(not_found()),
        }
    }

    /// Makes a bot profile owned by the human `key` names (403 for a bot's key).
    pub async fn create_bot(
        &self,
        key: Option<&str>,
        raw: &str,
    ) -> Result<ProfileCreated, AppError> {
        let signed = self.signed(key).await?;
        if signed.profile.kind != ProfileKind::Human {
            return Err(AppError::forbidden(
                "humans-only",
                "Only a human's profile can own bots; that is a bot's key.",
            ));
        }
        self.create_profile(raw, Some(&signed.profile), None).await
    }
}
