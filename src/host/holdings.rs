//! A profile's holdings of seats, as a lobby's decisions check and record them: one seat
//! per profile and lobby, and the history row a new holding writes (docs/identity.md).

use uuid::Uuid;

use crate::error::AppError;
use crate::store::{Holding, ProfileRecord, Snapshot};

/// 409 if `profile` already holds a seat in the lobby: one seat per profile and game.
pub(super) fn not_seated(snapshot: &Snapshot, profile: Uuid) -> Result<(), AppError> {
    match snapshot
        .players
        .iter()
        .any(|p| p.binding.is_some_and(|b| b.profile == profile))
    {
        true => Err(AppError::conflict(
            "already-seated",
            "Your profile already holds a seat in this lobby.",
        )),
        false => Ok(()),
    }
}

/// The profile's history row for taking `player`'s seat in the lobby.
pub(super) fn game_record(
    snapshot: &Snapshot,
    profile: Uuid,
    player: Uuid,
    holding: Holding,
) -> ProfileRecord {
    ProfileRecord::Game {
        profile,
        player,
        game: snapshot.lobby.game.clone(),
        lobby_name: snapshot.lobby.name.clone(),
        holding,
    }
}
