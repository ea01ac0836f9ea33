//! A tournament's games in their lobbies (docs/tournaments.md, "How the server keeps them"):
//! each lobby is created with the id its game row names, the tournament's settings and the
//! director's token as its host's, then its entrants are seated bound to their profiles and the
//! game is started (`seated_games.rs`, which the ladder shares). Every step looks at the lobby
//! first, so running it again after a failure finishes what was left and repeats nothing.

use serde_json::Value;
use uuid::Uuid;

use super::super::engine;
pub(super) use super::super::seated_games::Seated;
use super::super::{GameKind, Host, with_game};
use crate::error::AppError;
use crate::store::{Change, Status, TournamentRow};

impl Host {
    /// Makes lobby `id` exist, with `seats` seated in order and the game started, its host's
    /// token the director's.
    pub(super) async fn ensure_game(
        &self,
        tournament: &TournamentRow,
        id: Uuid,
        name: String,
        seats: &[Seated],
    ) -> Result<(), AppError> {
        let kind: GameKind = tournament.game.parse()?;
        let raw: Value = engine::from_stored(&tournament.settings)?;
        let host_hash = super::super::auth::delegated_host_hash(&tournament.director_hash, id);
        self.ensure_seated_game(kind, id, name, raw, host_hash, seats)
            .await
    }

    /// Kicks the seat bound to `profile` out of running lobby `id` with the host's authority
    /// (a withdrawal: the tournament's director acts). Nothing if the game is over or the
    /// profile holds no seat there.
    pub(super) async fn withdraw_from_game(&self, id: Uuid, profile: Uuid) -> Result<(), AppError> {
        let now = self.store.clock().now_millis();
        self.change(id, move |snapshot| {
            if snapshot.lobby.status != Status::Running {
                return Ok((Change::default(), ()));
            }
            let Some(player) = snapshot
                .players
                .iter()
                .find(|p| p.binding.is_some_and(|b| b.profile == profile))
            else {
                return Ok((Change::default(), ()));
            };
            let kind: GameKind = snapshot.lobby.game_kind()?;
            let change =
                with_game!(kind, G => super::super::controls::kick_player::<G>(snapshot, player, now)?);
            Ok((change, ()))
        })
        .await
    }
}
