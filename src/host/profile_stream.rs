//! What a profile's stream (`GET /api/v1/me/events`, docs/bots.md, "One stream for all of a
//! profile's seats") asks the host: the profile's seats now, and where one seat stands (an
//! answer owed, a game over, nothing to do). The stream holds no game state of its own; it
//! asks again whenever a seat's lobby turns or the profile's bell rings.

use uuid::Uuid;

use super::auth::{Presented, require_player};
use super::profile_seats::SeatView;
use super::{GameKind, Host, with_game};
use crate::error::AppError;
use crate::store::bells::Bell;
use crate::store::feed::Subscription;
use crate::store::{Holding, Status};

/// Where one of a profile's seats stands.
#[derive(Debug)]
pub enum SeatNow {
    /// An answer is owed: the seat's `me` view as JSON text, and its `prompt`'s.
    Owes { me: String, prompt: String },
    /// The game is over: its `result`.
    Finished(serde_json::Value),
    /// Nothing is owed now (sign-ups, waiting for others, paused).
    Waiting,
    /// The profile no longer holds the seat (a substitute, a new link), or the lobby is gone.
    Gone,
}

impl Host {
    /// The profile a stream's key names (401 if none), with a bell rung whenever it takes a
    /// new seat or is challenged; listened to before anything is read, so nothing that
    /// happens meanwhile goes unheard.
    pub async fn profile_bell(&self, key: Option<&str>) -> Result<(Uuid, Bell), AppError> {
        let signed = self.signed(key).await?;
        let profile = signed.profile.id;
        Ok((profile, self.store.feed().bells().listen(profile)))
    }

    /// A bell rung whenever `profile` takes a new seat or is challenged, for a profile the
    /// process itself plays (the ladder's boss bots, which have no key).
    pub fn bell_of(&self, profile: Uuid) -> Bell {
        self.store.feed().bells().listen(profile)
    }

    /// Listens to the turns of lobby `lobby` (`feed.rs`): a step beginning or resolving, the
    /// game ending, the host's hand.
    pub fn lobby_turns(&self, lobby: Uuid) -> Subscription {
        self.store.feed().subscribe(lobby, true)
    }

    /// The seats `profile` holds now, as `GET /api/v1/me` lists them.
    pub async fn seat_views(&self, profile: Uuid) -> Result<Vec<SeatView>, AppError> {
        let mut seats = Vec::new();
        for seat in self.store.profile_seats(profile).await? {
            let owes = match seat.status {
                Status::Running => {
                    self.lobby_facts(seat.lobby, Some(seat.player))
                        .await?
                        .player_owes
                }
                Status::Signups | Status::Closed | Status::Finished => false,
            };
            seats.push(SeatView {
                lobby: seat.lobby,
                player_id: seat.player,
                game: seat.game,
                status: seat.status,
                owes,
                bound: seat.holding == Holding::Bound,
            });
        }
        Ok(seats)
    }

    /// Where `profile`'s seat in lobby `lobby` stands now.
    pub async fn seat_now(&self, lobby: Uuid, profile: Uuid) -> Result<SeatNow, AppError> {
        let snapshot = match self.snapshot(lobby).await {
            Ok(snapshot) => snapshot,
            Err(error) if error.status() == axum::http::StatusCode::NOT_FOUND => {
                return Ok(SeatNow::Gone);
            }
            Err(error) => return Err(error),
        };
        let Ok(player) = require_player(&snapshot, &Presented::profile(profile)) else {
            return Ok(SeatNow::Gone);
        };
        if snapshot.lobby.status == Status::Finished {
            let result = self.lobby(lobby).await?.result;
            return Ok(SeatNow::Finished(result.unwrap_or_default()));
        }
        let kind: GameKind = snapshot.lobby.game_kind()?;
        let me = with_game!(kind, G => super::play::me_view::<G>(kind, &snapshot, player))?;
        let Some(prompt) = me.prompt.as_ref().map(|prompt| prompt.get().to_string()) else {
            return Ok(SeatNow::Waiting);
        };
        Ok(SeatNow::Owes {
            me: super::engine::to_text(&me)?,
            prompt,
        })
    }
}
