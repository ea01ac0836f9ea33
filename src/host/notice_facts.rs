//! What a notification needs to say of its lobby, read for the delivery worker without building
//! the public lobby or round view: the worker builds a notice per delivery, and building those
//! views (every player's pools, the round's reveal) cost more than sending the message. Only
//! public material is read here, as in the views.

use serde::Deserialize;
use serde::de::IgnoredAny;
use uuid::Uuid;

use super::engine;
use super::{Host, with_game};
use crate::error::AppError;
use crate::rules::{Game, Seat};

/// A lobby as a notice speaks of it now.
#[derive(Clone, Debug)]
pub struct LobbyFacts {
    pub name: String,
    pub seats_taken: usize,
    pub capacity: usize,
    /// The players an answer is due from now.
    pub owing: Vec<Uuid>,
}

impl Host {
    /// The lobby's name, seats and who owes an answer, from its snapshot.
    pub async fn lobby_facts(&self, id: Uuid) -> Result<LobbyFacts, AppError> {
        let snapshot = self.snapshot(id).await?;
        let kind = snapshot.lobby.game_kind()?;
        let (capacity, owes) = with_game!(kind, G => {
            let settings = engine::settings::<G>(&snapshot)?;
            let state = engine::state::<G>(&snapshot)?;
            let owes: Vec<Seat> = state.as_deref().map(G::owes).unwrap_or_default();
            (G::capacity(&settings), owes)
        });
        Ok(LobbyFacts {
            name: snapshot.lobby.name.clone(),
            seats_taken: snapshot.players.len(),
            capacity,
            owing: snapshot
                .players
                .iter()
                .filter(|p| owes.contains(&Seat(p.seat)))
                .map(|p| p.id)
                .collect(),
        })
    }

    /// The lines of a resolved round's public log, in order (as `round_view` shows them to
    /// someone who is not a player).
    pub async fn public_log_lines(&self, id: Uuid, round: u32) -> Result<Vec<String>, AppError> {
        /// A log entry as far as a notice reads it.
        #[derive(Deserialize)]
        struct Line {
            text: Option<String>,
            private_to_seat: Option<IgnoredAny>,
        }
        let mut lines = Vec::new();
        for log in self.store.round_logs(id, round).await? {
            let entries: Vec<Line> = engine::from_stored(&log)?;
            lines.extend(
                entries
                    .into_iter()
                    .filter(|line| line.private_to_seat.is_none())
                    .filter_map(|line| line.text),
            );
        }
        Ok(lines)
    }
}
