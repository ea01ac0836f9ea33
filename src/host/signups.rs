//! Sign-ups before the start, undone: the host removes a sign-up, a player leaves, the host
//! reopens closed sign-ups. Seats stay contiguous in sign-up order (the store moves the seats
//! after a removed one down), and the removed name is free again.

use std::borrow::Cow;

use uuid::Uuid;

use super::Host;
use super::auth::{Presented, require_host, require_player};
use super::controls::seated;
use super::engine::to_text;
use super::views::LobbyView;
use crate::error::AppError;
use crate::events::{EventKind, Membership, Named};
use crate::store::{Change, NewEvent, PlayerRow, RemovedPlayer, Snapshot, Status};

/// A sign-up can be withdrawn until the game starts.
fn before_start(snapshot: &Snapshot) -> Result<(), AppError> {
    match snapshot.lobby.status {
        Status::Signups | Status::Closed => Ok(()),
        Status::Running | Status::Finished => Err(AppError::conflict(
            "already-started",
            "The game has already started: seats are fixed. The host can replace or kick a player instead.",
        )),
    }
}

fn removal(snapshot: &Snapshot, player: &PlayerRow) -> Result<Change, AppError> {
    let event = Membership {
        player: Named {
            id: player.id,
            name: Cow::Borrowed(&player.name),
        },
        players: snapshot.players.len() - 1,
    };
    Ok(Change {
        player_removed: Some(RemovedPlayer {
            id: player.id,
            seat: player.seat,
        }),
        events: vec![NewEvent {
            kind: EventKind::PlayerLeft,
            data: to_text(&event)?,
        }],
        ..Change::default()
    })
}

impl Host {
    /// Removes a sign-up before the start (host only).
    pub async fn remove_player(
        &self,
        id: Uuid,
        token: Option<&str>,
        player_id: String,
    ) -> Result<(), AppError> {
        let presented = Presented::new(token);
        self.change(id, move |snapshot| {
            require_host(snapshot, &presented)?;
            let player = seated(snapshot, &player_id)?;
            before_start(snapshot)?;
            Ok((removal(snapshot, player)?, ()))
        })
        .await
    }

    /// The player behind `token` leaves before the start.
    pub async fn leave(&self, id: Uuid, token: Option<&str>) -> Result<(), AppError> {
        let presented = self.presented(token).await?;
        self.change(id, move |snapshot| {
            let player = require_player(snapshot, &presented)?;
            before_start(snapshot)?;
            Ok((removal(snapshot, player)?, ()))
        })
        .await
    }

    /// Opens closed sign-ups again (host only).
    pub async fn reopen_signups(
        &self,
        id: Uuid,
        token: Option<&str>,
    ) -> Result<LobbyView, AppError> {
        self.switch_signups(id, token, Status::Signups).await
    }
}
