//! Profiles (docs/identity.md): people and their bots that persist across games, reached by
//! keys rather than passwords. A key is a token like a seat's (256 random bits, shown once,
//! stored as its SHA-256) with the prefix [`KEY_PREFIX`], so that a request's token is looked
//! up as a profile's only when it is one: a seat's token costs no query of its own.

use serde::Serialize;
use uuid::Uuid;

use super::Host;
use super::auth::{Presented, hash_token, new_token};
use super::my_games::well_formed_key;
use super::names::{clean_name, name_key};
use super::reliability::{Reliability, WINDOW_MILLIS, reliability};
use super::timing::{Timing, rfc3339};
use crate::error::AppError;
use crate::store::{Holding, KeyRow, OwedRow, ProfileGameRow, ProfileKind, ProfileRow, Status};

/// What every profile key starts with.
pub const KEY_PREFIX: &str = "hpk_";
/// Handles are 3 to 24 characters once normalised as seat names are.
const HANDLE_CHARS: std::ops::RangeInclusive<usize> = 3..=24;

/// Whether `token` has the shape of a profile key: the prefix and 64 hex digits.
pub fn is_profile_key(token: &str) -> bool {
    token.strip_prefix(KEY_PREFIX).is_some_and(well_formed_key)
}

/// A profile's public view.
#[derive(Clone, Debug, Serialize)]
pub struct ProfileView {
    pub handle: String,
    pub kind: ProfileKind,
    /// A bot's owner's handle; None for a human.
    pub owner: Option<String>,
    pub created_at: String,
    pub games: Vec<GameEntry>,
    pub reliability: Reliability,
    /// The profile's ratings, one per pool it played rated games in, each with its history
    /// of changes (docs/ratings.md).
    pub ratings: Vec<super::rated::ProfileRating>,
}

/// A game the profile held a seat in.
#[derive(Clone, Debug, Serialize)]
pub struct GameEntry {
    pub lobby: Uuid,
    pub player_id: Uuid,
    pub game: String,
    pub name: String,
    /// The lobby's status now; `deleted` once the retention sweep removed it.
    pub status: &'static str,
    /// `bound` (held from before the start) or `retro` (claimed later: history only).
    pub holding: Holding,
    pub since: String,
}

/// A profile just made, and its first key (shown this once).
#[derive(Debug, Serialize)]
pub struct ProfileCreated {
    pub profile: ProfileView,
    pub key: String,
}

/// The profile a request's key names, with the key's own id.
#[derive(Clone, Debug)]
pub struct Signed {
    pub profile: ProfileRow,
    pub key_id: Uuid,
}

/// The prefix of a signed-in browser's seat credential ([`seat_credential`]).
const SEAT_CREDENTIAL: &str = "hss_";

/// What the pages present for a signed-in browser on a lobby's player routes, so that a
/// seat bound to its profile (a tournament's or a challenge's game, a seat joined with the
/// profile) is played there without its private link (docs/identity.md, "Seats that belong to
/// someone"): the session's secret, marked as one. The pages make it from the session cookie
/// for each request; it is never sent to the browser, and a profile key acts for the same
/// seats.
pub fn seat_credential(session_secret: &str) -> String {
    format!("{SEAT_CREDENTIAL}{session_secret}")
}

fn unknown_key() -> AppError {
    AppError::unauthenticated(
        "unknown-token",
        "That profile key is not known (or was revoked).",
    )
}

fn unknown_profile(handle: &str) -> AppError {
    AppError::not_found(
        "unknown-profile",
        format!("There is no profile {handle:?}."),
    )
}

/// A handle as stored, with its key, or 422 `invalid-handle`.
fn handle(raw: &str) -> Result<(String, String), AppError> {
    let handle = clean_name(raw, "handle")?;
    if !HANDLE_CHARS.contains(&handle.chars().count()) {
        return Err(AppError::rejected(
            "invalid-handle",
            "A handle is 3 to 24 characters long.",
        ));
    }
    let key = name_key(&handle);
    Ok((handle, key))
}

impl Host {
    /// Makes a profile with the handle `raw` and its first key: a fresh one, or `key` (a
    /// personal key already held, such as my games' one: the profile key is it, prefixed).
    pub async fn create_profile(
        &self,
        raw: &str,
        owner: Option<&ProfileRow>,
        key: Option<&str>,
    ) -> Result<ProfileCreated, AppError> {
        let (handle, handle_key) = handle(raw)?;
        let now = self.store.clock().now_millis();
        let row = ProfileRow {
            id: Uuid::new_v4(),
            handle,
            handle_key,
            kind: match owner {
                Some(_) => ProfileKind::Bot,
                None => ProfileKind::Human,
            },
            owner: owner.map(|o| o.id),
            owner_handle: owner.map(|o| o.handle.clone()),
            created_at: now,
        };
        let mut key = format!("{KEY_PREFIX}{}", key.map_or_else(new_token, str::to_string));
        // A personal key another profile already took up is not taken twice.
        if self
            .store
            .profile_by_key(&hash_token(&key))
            .await?
            .is_some()
        {
            key = format!("{KEY_PREFIX}{}", new_token());
        }
        let key_row = KeyRow {
            id: Uuid::new_v4(),
            profile: row.id,
            key_hash: hash_token(&key),
            created_at: now,
        };
        if !self.store.create_profile(&row, &key_row).await? {
            return Err(AppError::conflict(
                "handle-taken",
                "That handle (or one that looks the same) is taken.",
            ));
        }
        Ok(ProfileCreated {
            profile: self.profile_view(&row).await?,
            key,
        })
    }

    /// The profile `key` names, or 401.
    pub async fn signed(&self, key: Option<&str>) -> Result<Signed, AppError> {
        let key = key.ok_or_else(|| {
            AppError::unauthenticated(
                "missing-token",
                "This request needs a profile key: send it as \"Authorization: Bearer <key>\".",
            )
        })?;
        if !is_profile_key(key) {
            return Err(unknown_key());
        }
        let (profile, key_id) = self
            .store
            .profile_by_key(&hash_token(key))
            .await?
            .ok_or_else(unknown_key)?;
        Ok(Signed { profile, key_id })
    }

    /// What a request's token presents to a lobby: a seat's or the host's token as it is, a
    /// profile key as its profile (401 if unknown), a signed-in browser's seat credential
    /// ([`seat_credential`]) as its session's profile (401 once the session ended). Only a
    /// token with one of those prefixes is looked up.
    pub(super) async fn presented(&self, token: Option<&str>) -> Result<Presented, AppError> {
        match token {
            Some(key) if is_profile_key(key) => {
                Ok(Presented::profile(self.signed(Some(key)).await?.profile.id))
            }
            Some(credential) if let Some(secret) = credential.strip_prefix(SEAT_CREDENTIAL) => {
                let session = self.session(secret).await?.ok_or_else(|| {
                    AppError::unauthenticated(
                        "signed-out",
                        "This browser's sign-in has ended: sign in again to play your seat.",
                    )
                })?;
                Ok(Presented::profile(session.profile.id))
            }
            _ => Ok(Presented::new(token)),
        }
    }

    /// The public profile of `handle` (matched as handles are compared), or 404.
    pub async fn profile(&self, handle: &str) -> Result<ProfileView, AppError> {
        let row = self
            .store
            .profile_by_handle(&name_key(handle))
            .await?
            .ok_or_else(|| unknown_profile(handle))?;
        self.profile_view(&row).await
    }

    /// The public profile of `handle` with the steps its record counts (every miss with its
    /// game, for the profile page).
    pub async fn profile_record(
        &self,
        handle: &str,
    ) -> Result<(ProfileView, Vec<OwedRow>), AppError> {
        let row = self
            .store
            .profile_by_handle(&name_key(handle))
            .await?
            .ok_or_else(|| unknown_profile(handle))?;
        let (_, mut owed) = self.reliability_of(row.id).await?;
        let games = self.store.profile_games(row.id).await?;
        let hidden: Vec<Uuid> = games
            .iter()
            .filter(|g| hidden(g))
            .map(|g| g.lobby)
            .collect();
        owed.retain(|o| !hidden.contains(&o.lobby));
        Ok((self.profile_view(&row).await?, owed))
    }

    /// A profile's reliability record now.
    pub async fn reliability_of(
        &self,
        profile: Uuid,
    ) -> Result<(Reliability, Vec<OwedRow>), AppError> {
        let now = self.store.clock().now_millis();
        let owed = self.store.owed_steps(profile, now - WINDOW_MILLIS).await?;
        Ok((reliability(&owed, now), owed))
    }

    pub(super) async fn profile_view(&self, row: &ProfileRow) -> Result<ProfileView, AppError> {
        let games = self.store.profile_games(row.id).await?;
        let (reliability, _) = self.reliability_of(row.id).await?;
        Ok(ProfileView {
            handle: row.handle.clone(),
            kind: row.kind,
            owner: row.owner_handle.clone(),
            created_at: rfc3339(row.created_at),
            games: games
                .iter()
                .filter(|g| !hidden(g))
                .map(game_entry)
                .collect(),
            reliability,
            ratings: self.profile_ratings(row.id).await?,
        })
    }
}

/// An anonymous game in progress: a profile does not list it, nor its steps (docs/table-talk.md,
/// "Anonymous games"), so that nobody learns who plays in it before the end.
fn hidden(row: &ProfileGameRow) -> bool {
    let running = matches!(
        row.status,
        Some(Status::Signups | Status::Closed | Status::Running)
    );
    let anonymous = || {
        row.timing
            .as_deref()
            .and_then(|t| Timing::parse(t).ok())
            .is_some_and(|t| t.is_anonymous())
    };
    running && anonymous()
}

fn game_entry(row: &ProfileGameRow) -> GameEntry {
    GameEntry {
        lobby: row.lobby,
        player_id: row.player,
        game: row.game.clone(),
        name: row.lobby_name.clone(),
        status: row.status.map_or("deleted", Status::as_str),
        holding: row.holding,
        since: rfc3339(row.bound_at),
    }
}
