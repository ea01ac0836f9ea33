//! Challenges between profiles (docs/bots.md, "Challenges"), as a Lichess account challenges
//! another: `{"game", "opponent", "settings"?}`; the opponent accepts (a started lobby with
//! both seated and bound, the challenger first) or declines; an unanswered challenge lapses
//! after [`LAPSE_MILLIS`]. The settings are checked when the challenge is made, so an accept
//! fails only if the store does.

use serde::Serialize;
use serde_json::{Map, Value};
use uuid::Uuid;

use super::gates::Gates;
use super::lobby::take_unlisted;
use super::names::name_key;
use super::timing::Timing;
use super::{GameKind, Host, engine, with_game};
use crate::error::AppError;
use crate::rules::Game;
use crate::store::{ChallengeRow, ChallengeState, ProfileRow};

/// An unanswered challenge lapses after 24 hours (api.md, Bots).
pub const LAPSE_MILLIS: i64 = 24 * 3600 * 1000;

/// A challenge as the profile stream's `challenge` event and the pages show it.
#[derive(Clone, Debug, Serialize)]
pub struct ChallengeView {
    pub id: Uuid,
    /// The challenger's handle.
    pub from: String,
    pub game: String,
    pub settings: Value,
}

/// How many of a profile's own challenges its page lists, newest first.
pub const SENT_SHOWN: i64 = 20;

/// A challenge a profile made, as its page lists it.
#[derive(Clone, Debug)]
pub struct SentChallenge {
    pub id: Uuid,
    /// The opponent's handle.
    pub to: String,
    pub game: String,
    pub state: SentState,
}

/// Where a challenge a profile made stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SentState {
    /// Not answered yet.
    Waiting,
    /// Accepted: the game's lobby.
    Accepted(Uuid),
    Declined,
    /// Not answered within [`LAPSE_MILLIS`].
    Lapsed,
}

/// The accepted challenge's lobby name: "A v B", the challenger first as he is seated; an
/// anonymous game's names neither, since the name is shown while it runs and would tie each
/// handle to its seat (docs/table-talk.md, "Anonymous games").
fn lobby_name(settings: &Value, challenger: &str, opponent: &str) -> Result<String, AppError> {
    let mut settings = settings.clone();
    Ok(match Timing::split_from(&mut settings)?.is_anonymous() {
        true => "Anonymous challenge".to_owned(),
        false => format!("{challenger} v {opponent}"),
    })
}

fn unknown_challenge() -> AppError {
    AppError::not_found("unknown-challenge", "There is no such challenge.")
}

fn closed() -> AppError {
    AppError::conflict(
        "challenge-closed",
        "This challenge was already answered, or it lapsed after 24 hours.",
    )
}

/// A challenge's settings as the opponent may see them before the game: the game's settings as
/// the lobby view shows them (`Game::public_settings`: without what stays secret while it runs,
/// such as a BST `seed` or `pool`, Contests' `decks`), the host's keys as sent.
fn shown_settings(game: &str, text: &str) -> Result<Value, AppError> {
    let kind: GameKind = game.parse()?;
    let sent: Value = serde_json::from_str(text).unwrap_or_default();
    // The game's own keys: what is left once the host's are taken out.
    let mut game_part = sent.clone();
    Timing::split_from(&mut game_part)?;
    Gates::split_from(&mut game_part)?;
    take_unlisted(&mut game_part)?;
    let public = with_game!(kind, G => {
        let (parsed, _) = engine::check_settings::<G>(game_part.clone())?;
        engine::to_json(&G::public_settings(&parsed, false))?
    });
    let (Value::Object(mut shown), Value::Object(game_part), Value::Object(public)) =
        (sent, game_part, public)
    else {
        return Ok(Value::Object(Map::new()));
    };
    shown.retain(|key, _| !game_part.contains_key(key));
    shown.extend(public);
    Ok(Value::Object(shown))
}

impl Host {
    /// The profile `key` names challenges `opponent` (a handle) to a game of `game`; returns
    /// the challenge's id.
    pub async fn create_challenge(
        &self,
        key: Option<&str>,
        game: &str,
        opponent: &str,
        settings: Map<String, Value>,
    ) -> Result<Uuid, AppError> {
        let from = self.signed(key).await?.profile;
        self.create_challenge_as(&from, game, opponent, settings)
            .await
    }

    /// Profile `from` (a signed-in browser's, or a key's) challenges `opponent`, as
    /// [`Host::create_challenge`] does.
    pub async fn create_challenge_as(
        &self,
        from: &ProfileRow,
        game: &str,
        opponent: &str,
        settings: Map<String, Value>,
    ) -> Result<Uuid, AppError> {
        let settings = Value::Object(settings);
        Host::check_lobby_settings(game, &settings)?;
        let to = self
            .store
            .profile_by_handle(&name_key(opponent))
            .await?
            .ok_or_else(|| {
                AppError::not_found(
                    "unknown-profile",
                    format!("There is no profile {opponent:?}."),
                )
            })?;
        if to.id == from.id {
            return Err(AppError::rejected(
                "self-challenge",
                "A profile cannot challenge itself.",
            ));
        }
        let row = ChallengeRow {
            id: Uuid::new_v4(),
            from: from.id,
            to: to.id,
            game: game.to_string(),
            settings: settings.to_string(),
            created_at: self.store.clock().now_millis(),
            state: ChallengeState::Open,
            lobby: None,
        };
        self.store.create_challenge(&row).await?;
        Ok(row.id)
    }

    /// The open challenges to `profile`, oldest first.
    pub async fn challenges_to(&self, profile: Uuid) -> Result<Vec<ChallengeView>, AppError> {
        let since = self.store.clock().now_millis() - LAPSE_MILLIS;
        let mut views = Vec::new();
        for row in self.store.challenges_to(profile, since).await? {
            let from = self.store.profile_by_id(row.from).await?;
            views.push(ChallengeView {
                id: row.id,
                from: from.map_or_else(String::new, |from| from.handle),
                settings: shown_settings(&row.game, &row.settings)?,
                game: row.game,
            });
        }
        Ok(views)
    }

    /// The challenges `profile` made, newest first (at most [`SENT_SHOWN`]), each with where it
    /// stands.
    pub async fn challenges_from(&self, profile: Uuid) -> Result<Vec<SentChallenge>, AppError> {
        let since = self.store.clock().now_millis() - LAPSE_MILLIS;
        let mut sent = Vec::new();
        for row in self.store.challenges_from(profile, SENT_SHOWN).await? {
            let to = self.store.profile_by_id(row.to).await?;
            let state = match (row.state, row.lobby) {
                (ChallengeState::Accepted, Some(lobby)) => SentState::Accepted(lobby),
                // Accepted, its lobby being made this instant.
                (ChallengeState::Accepted, None) => SentState::Waiting,
                (ChallengeState::Declined, _) => SentState::Declined,
                (ChallengeState::Open, _) if row.created_at <= since => SentState::Lapsed,
                (ChallengeState::Open, _) => SentState::Waiting,
            };
            sent.push(SentChallenge {
                id: row.id,
                to: to.map_or_else(String::new, |to| to.handle),
                game: row.game,
                state,
            });
        }
        Ok(sent)
    }

    /// The challenge `id` to the profile `key` names, still open (404, 403, 409 otherwise).
    async fn open_challenge(
        &self,
        key: Option<&str>,
        id: &str,
    ) -> Result<(ChallengeRow, ProfileRow), AppError> {
        let me = self.signed(key).await?.profile;
        self.open_challenge_to(me, id).await
    }

    /// The challenge `id` to profile `me`, still open (404, 403, 409 otherwise).
    async fn open_challenge_to(
        &self,
        me: ProfileRow,
        id: &str,
    ) -> Result<(ChallengeRow, ProfileRow), AppError> {
        let id = Uuid::parse_str(id).map_err(|_| unknown_challenge())?;
        let row = self
            .store
            .challenge(id)
            .await?
            .ok_or_else(unknown_challenge)?;
        if row.to != me.id {
            return Err(AppError::forbidden(
                "not-your-challenge",
                "Only the challenged profile can answer a challenge.",
            ));
        }
        let lapsed = row.created_at <= self.store.clock().now_millis() - LAPSE_MILLIS;
        if row.state != ChallengeState::Open || lapsed {
            return Err(closed());
        }
        Ok((row, me))
    }

    /// The opponent accepts: a lobby is made and started with the challenger in the first seat
    /// and the opponent in the second, both bound. Returns the lobby's id.
    pub async fn accept_challenge(&self, key: Option<&str>, id: &str) -> Result<Uuid, AppError> {
        let (row, me) = self.open_challenge(key, id).await?;
        self.accept(row, me).await
    }

    /// Profile `me` (a signed-in browser's) accepts challenge `id`, as
    /// [`Host::accept_challenge`] does.
    pub async fn accept_challenge_as(&self, me: ProfileRow, id: &str) -> Result<Uuid, AppError> {
        let (row, me) = self.open_challenge_to(me, id).await?;
        self.accept(row, me).await
    }

    async fn accept(&self, row: ChallengeRow, me: ProfileRow) -> Result<Uuid, AppError> {
        let since = self.store.clock().now_millis() - LAPSE_MILLIS;
        // Claimed first, so that it is accepted once however often the request comes.
        if !self
            .store
            .settle_challenge(row.id, since, ChallengeState::Accepted, None)
            .await?
        {
            return Err(closed());
        }
        match self.challenge_lobby(&row, me).await {
            Ok(lobby) => {
                self.store.challenge_lobby(row.id, lobby).await?;
                Ok(lobby)
            }
            Err(error) => {
                self.store.reopen_challenge(row.id).await?;
                Err(error)
            }
        }
    }

    async fn challenge_lobby(&self, row: &ChallengeRow, me: ProfileRow) -> Result<Uuid, AppError> {
        let challenger = self
            .store
            .profile_by_id(row.from)
            .await?
            .ok_or_else(unknown_challenge)?;
        let settings: Value = serde_json::from_str(&row.settings).unwrap_or_default();
        let name = lobby_name(&settings, &challenger.handle, &me.handle)?;
        let created = self.create_lobby(&row.game, &name, settings).await?;
        for profile in [challenger, me] {
            self.join_with(created.id, None, Map::new(), Some(profile))
                .await?;
        }
        self.start(created.id, Some(&created.host_token)).await?;
        Ok(created.id)
    }

    /// The opponent declines.
    pub async fn decline_challenge(&self, key: Option<&str>, id: &str) -> Result<(), AppError> {
        let (row, _) = self.open_challenge(key, id).await?;
        self.decline(row).await
    }

    /// Profile `me` (a signed-in browser's) declines challenge `id`.
    pub async fn decline_challenge_as(&self, me: ProfileRow, id: &str) -> Result<(), AppError> {
        let (row, _) = self.open_challenge_to(me, id).await?;
        self.decline(row).await
    }

    async fn decline(&self, row: ChallengeRow) -> Result<(), AppError> {
        let since = self.store.clock().now_millis() - LAPSE_MILLIS;
        match self
            .store
            .settle_challenge(row.id, since, ChallengeState::Declined, None)
            .await?
        {
            true => Ok(()),
            false => Err(closed()),
        }
    }
}
