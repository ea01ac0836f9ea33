//! What a notification needs to say of its lobby, read for the delivery worker without building
//! the public lobby or round view: the worker builds a notice per delivery, and building those
//! views (every player's pools, the round's reveal) cost more than sending the message. Only
//! public material is read here, as in the views.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use uuid::Uuid;

use super::engine;
use super::round_logs::notice_line;
use super::{Host, with_game};
use crate::error::AppError;
use crate::games::GameUi;
use crate::rules::{Event as _, Game, Seat};
use crate::store::{PublicLog, Status};

/// A lobby as a notice speaks of it now.
#[derive(Clone, Debug)]
pub struct LobbyFacts {
    pub name: String,
    pub seats_taken: usize,
    pub capacity: usize,
    /// Whether an answer is due now from the player the notice is for (false for a lobby's
    /// channel).
    pub player_owes: bool,
    /// The round under way, while the game runs.
    pub round: Option<u32>,
    /// The game's round cap, if it has one (the notices say "round 4 of 8").
    pub max_rounds: Option<u64>,
    /// The open step's deadline (RFC 3339 UTC), if it has one and the clock runs.
    pub deadline_at: Option<String>,
    /// How the game calls a round's main answers ("orders", "plays").
    pub main_answers: &'static str,
}

impl Host {
    /// The lobby's name and seats from its snapshot, and whether `player` owes an answer. The
    /// game's state (a whole melee's) is read only for a player's own notice: a channel's
    /// notices, most of them, never ask who owes.
    pub async fn lobby_facts(
        &self,
        id: Uuid,
        player: Option<Uuid>,
    ) -> Result<LobbyFacts, AppError> {
        let snapshot = self.snapshot(id).await?;
        let kind = snapshot.lobby.game_kind()?;
        let seat = player.and_then(|player| {
            snapshot
                .players
                .iter()
                .find(|p| p.id == player)
                .map(|p| Seat(p.seat))
        });
        let (capacity, player_owes, max_rounds, main_answers) = with_game!(kind, G => {
            let settings = engine::settings::<G>(&snapshot)?;
            let max_rounds = engine::to_json(&settings)?
                .get("max_rounds")
                .and_then(serde_json::Value::as_u64);
            let owes = match seat {
                Some(seat) => engine::state::<G>(&snapshot)?
                    .as_deref()
                    .is_some_and(|state| G::owes(state).contains(&seat)),
                None => false,
            };
            (G::capacity(&settings), owes, max_rounds, <G as GameUi>::MAIN_ANSWERS)
        });
        let lobby = &snapshot.lobby;
        Ok(LobbyFacts {
            name: snapshot.lobby.name.clone(),
            seats_taken: snapshot.players.len(),
            capacity,
            player_owes,
            round: (lobby.status == Status::Running).then_some(lobby.round),
            max_rounds,
            deadline_at: super::views::deadline_at(lobby),
            main_answers,
        })
    }

    /// A resolved round's public log (as `round_view` shows it to someone who is not a
    /// player): its first `quoted` lines and how many there are. Kept from the round's
    /// resolution when this process saw all of it (`round_logs.rs`); else read from the store.
    pub async fn public_log(
        &self,
        id: Uuid,
        round: u32,
        quoted: usize,
    ) -> Result<PublicLog, AppError> {
        if let Some(kept) = self.kept_public_log(id, round, quoted) {
            return Ok(kept);
        }
        self.stored_public_log(id, round, quoted).await
    }

    /// [`Host::public_log`] as this process kept it from the round's resolution, if it did.
    pub fn kept_public_log(&self, id: Uuid, round: u32, quoted: usize) -> Option<PublicLog> {
        self.round_logs.resolved(id, round, quoted)
    }

    /// [`Host::public_log`] read from the store. The rest of each entry is skipped, and lines
    /// past the quoted ones are only counted: a melee's round log is kilobytes, and a notice
    /// quotes a dozen lines of it. A quoted line of the game's is read back into its event, to
    /// be quoted in words as the pages show it (`Event::words`), its rule ids left out.
    pub async fn stored_public_log(
        &self,
        id: Uuid,
        round: u32,
        quoted: usize,
    ) -> Result<PublicLog, AppError> {
        /// A log entry as far as a notice reads it (its text borrowed from the stored JSON
        /// unless it holds escapes).
        #[derive(Deserialize)]
        struct Line<'a> {
            #[serde(borrow)]
            text: Option<Cow<'a, str>>,
            private_to_seat: Option<IgnoredAny>,
        }
        let kind = self.snapshot(id).await?.lobby.game_kind()?;
        let mut log = PublicLog::default();
        for stored in self.store.round_logs(id, round).await? {
            let entries: Vec<&RawValue> = engine::from_stored(&stored)?;
            for entry in entries {
                let line: Line<'_> = engine::from_stored(entry.get())?;
                let Some(text) = line.text.filter(|_| line.private_to_seat.is_none()) else {
                    continue;
                };
                log.push_with(quoted, || {
                    let words = with_game!(kind, G => serde_json::from_str::<<G as Game>::Event>(entry.get())
                        .map(|event| event.words()))
                    .unwrap_or_else(|_| text.into_owned());
                    notice_line(&words)
                });
            }
        }
        Ok(log)
    }
}
