//! Signing a browser in with a profile key (docs/identity.md, "Signing in"): a key's sign-in
//! link starts a server-side session whose secret lives in an HttpOnly cookie (stored as its
//! SHA-256); use slides its end 90 days on (at most once an hour); it ends at sign-out, when revoked, or when its
//! key is. "Make this a profile" turns a browser's my-games key into a profile's first key.

use uuid::Uuid;

use super::Host;
use super::auth::{hash_token, new_token};
use super::profiles::{KEY_PREFIX, ProfileCreated, Signed};
use crate::error::AppError;
use crate::store::{KeyRow, ProfileRow, SessionRow};

/// How long a session lasts unused.
pub const SESSION_MILLIS: i64 = 90 * 24 * 60 * 60 * 1000;
/// A session is slid on only when this much of it has passed, so a busy browser does not
/// write on every page.
const SLIDE_AFTER_MILLIS: i64 = 60 * 60 * 1000;

/// A session just started: its secret (for the cookie only) and its profile.
pub struct Started {
    pub secret: String,
    pub profile: ProfileRow,
}

/// A browser's session: its public id and its profile.
#[derive(Clone, Debug)]
pub struct Session {
    pub id: Uuid,
    pub profile: ProfileRow,
}

/// What a signed-in browser lists to revoke: its profile's keys and live sessions.
pub struct Credentials {
    pub keys: Vec<KeyRow>,
    pub sessions: Vec<SessionRow>,
}

impl Host {
    /// Starts a session for the profile `key` names (401 for an unknown or revoked key).
    pub async fn sign_in(&self, key: &str) -> Result<Started, AppError> {
        let Signed { profile, key_id } = self.signed(Some(key)).await?;
        self.start_session(profile, key_id).await
    }

    /// Starts a session for `profile` that lives as long as `from` does: a key, a passkey or
    /// a mail address (`store/sessions.rs`).
    pub(super) async fn start_session(
        &self,
        profile: ProfileRow,
        from: Uuid,
    ) -> Result<Started, AppError> {
        let secret = new_token();
        let now = self.store.clock().now_millis();
        let row = SessionRow {
            id: Uuid::new_v4(),
            profile: profile.id,
            key: from,
            created_at: now,
            expires_at: now + SESSION_MILLIS,
        };
        self.store
            .create_session(&row, &hash_token(&secret))
            .await?;
        Ok(Started { secret, profile })
    }

    /// The session whose secret a cookie holds, if it is live. Reading it does not slide it:
    /// the pages slide a session once per request ([`Host::slide_session`]), where they can
    /// send the cookie again.
    pub async fn session(&self, secret: &str) -> Result<Option<Session>, AppError> {
        let now = self.store.clock().now_millis();
        let Some((row, profile)) = self.store.session(&hash_token(secret), now).await? else {
            return Ok(None);
        };
        Ok(Some(Session {
            id: row.id,
            profile,
        }))
    }

    /// Slides the end of the live session whose secret a cookie holds 90 days on, if an hour
    /// of it has passed since it last slid. True when it slid: the browser's cookie must then
    /// be sent again with its full age, or the browser would drop it 90 days after sign-in
    /// while the server still kept the session.
    pub async fn slide_session(&self, secret: &str) -> Result<bool, AppError> {
        let now = self.store.clock().now_millis();
        let Some(row) = self.store.live_session(&hash_token(secret), now).await? else {
            return Ok(false);
        };
        if row.expires_at - now >= SESSION_MILLIS - SLIDE_AFTER_MILLIS {
            return Ok(false);
        }
        self.store
            .touch_session(row.id, now + SESSION_MILLIS)
            .await?;
        Ok(true)
    }

    /// Ends session `id` of `profile` (sign-out, or revoked from another browser).
    pub async fn end_session(&self, profile: Uuid, id: &str) -> Result<(), AppError> {
        let not_found =
            || AppError::not_found("unknown-session", "This profile has no such session.");
        let id = Uuid::parse_str(id).map_err(|_| not_found())?;
        match self.store.end_session(profile, id).await? {
            true => Ok(()),
            false => Err(not_found()),
        }
    }

    /// The keys and live sessions of `profile`.
    pub async fn credentials(&self, profile: Uuid) -> Result<Credentials, AppError> {
        let now = self.store.clock().now_millis();
        Ok(Credentials {
            keys: self.store.keys_of(profile).await?,
            sessions: self.store.sessions_of(profile, now).await?,
        })
    }

    /// Revokes key `key_id` of a signed-in `profile` (its sessions end with it).
    pub async fn revoke_key_of(&self, profile: Uuid, key_id: &str) -> Result<(), AppError> {
        let not_found = || AppError::not_found("unknown-key", "This profile has no such key.");
        let key_id = Uuid::parse_str(key_id).map_err(|_| not_found())?;
        match self.store.revoke_profile_key(profile, key_id).await? {
            true => Ok(()),
            false => Err(not_found()),
        }
    }

    /// A new key for a signed-in `profile`, shown once (a sign-in link for another device).
    pub async fn new_key_for(&self, profile: Uuid) -> Result<String, AppError> {
        let key = format!("{KEY_PREFIX}{}", new_token());
        let row = KeyRow {
            id: Uuid::new_v4(),
            profile,
            key_hash: hash_token(&key),
            created_at: self.store.clock().now_millis(),
        };
        self.store.add_profile_key(&row).await?;
        Ok(key)
    }

    /// "Make this a profile": a profile named `handle` whose first key is the browser's
    /// my-games key (prefixed), or a fresh one if it has none.
    pub async fn profile_from_my_key(
        &self,
        handle: &str,
        my_key: Option<&str>,
    ) -> Result<ProfileCreated, AppError> {
        self.create_profile(handle, None, my_key).await
    }
}
