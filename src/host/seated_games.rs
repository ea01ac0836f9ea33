//! Games made for profiles rather than joined by them: a tournament's round and a ladder's
//! (docs/tournaments.md, "How the server keeps them"; docs/bots.md, "The ladder"). The lobby
//! is created with the id its row drew beforehand, its seats are seated bound to their
//! profiles in order and the game is started. Every step looks at the lobby first, so running
//! it again after a failure finishes what was left and repeats nothing.

use std::borrow::Cow;

use serde_json::{Map, Value};
use uuid::Uuid;

use super::engine::{self, to_text};
use super::names::{SeatName, seat_name};
use super::{GameKind, Host, with_game};
use crate::error::AppError;
use crate::events::{EventKind, Membership, Named};
use crate::store::{Change, Holding, NewEvent, NewPlayer, ProfileKind, SeatBinding, Status};

/// One seat to fill: the profile bound to it.
#[derive(Clone, Debug)]
pub(super) struct Seated {
    pub profile: Uuid,
    pub kind: ProfileKind,
    pub handle: String,
}

impl Host {
    /// Makes lobby `id` of `kind` exist with `settings` (as a create request sends them) and
    /// the host token hash `host_hash`, with `seats` seated in order and the game started.
    pub(super) async fn ensure_seated_game(
        &self,
        kind: GameKind,
        id: Uuid,
        name: String,
        settings: Value,
        host_hash: String,
        seats: &[Seated],
    ) -> Result<(), AppError> {
        if self.store.snapshot(id).await?.is_none() {
            let (settings, timing, unlisted) = super::lobby::split_settings(kind, settings)?;
            self.store_lobby(kind, id, name, settings, timing, unlisted, host_hash)
                .await?;
        }
        for seat in seats {
            self.seat_entrant(id, seat.clone()).await?;
        }
        let snapshot = self.snapshot(id).await?;
        if matches!(snapshot.lobby.status, Status::Signups | Status::Closed) {
            let now = self.store.clock().now_millis();
            self.change(id, move |snapshot| {
                let kind: GameKind = snapshot.lobby.game_kind()?;
                let change = with_game!(kind, G => super::lobby::start_game::<G>(snapshot, now)?);
                Ok((change, ()))
            })
            .await?;
        }
        Ok(())
    }

    /// Seats `seat`'s profile, bound, unless it already holds a seat here. The seat's own
    /// token is drawn and never shown: the profile plays with its key.
    async fn seat_entrant(&self, id: Uuid, seat: Seated) -> Result<(), AppError> {
        let token_hash = super::auth::hash_token(&super::auth::new_token());
        let player_id = Uuid::new_v4();
        self.change(id, move |snapshot| {
            if snapshot
                .players
                .iter()
                .any(|p| p.binding.is_some_and(|b| b.profile == seat.profile))
            {
                return Ok((Change::default(), ()));
            }
            if snapshot.lobby.status != Status::Signups {
                return Err(AppError::conflict(
                    "signups-closed",
                    "The game has started without this seat's profile.",
                ));
            }
            let kind: GameKind = snapshot.lobby.game_kind()?;
            let join_data = with_game!(kind, G => {
                let settings = engine::settings::<G>(snapshot)?;
                engine::check_join::<G>(&settings, Map::new())?
            });
            let SeatName { name, key } = seat_name(&seat.handle, &snapshot.players, None)?;
            // An anonymous tournament seats its entrants under pseudonyms as any lobby does
            // (docs/table-talk.md, "Anonymous games").
            let timing = super::timing::Timing::parse(&snapshot.lobby.timing)?;
            let (name, alias) =
                super::anonymity::seated_as(timing.is_anonymous(), snapshot.players.len(), name);
            let records = vec![super::holdings::game_record(
                snapshot,
                seat.profile,
                player_id,
                Holding::Bound,
            )];
            let player = NewPlayer {
                id: player_id,
                seat: snapshot.players.len(),
                name: name.clone(),
                name_key: key,
                alias,
                join_data,
                token_hash,
                binding: Some(SeatBinding {
                    profile: seat.profile,
                    kind: seat.kind,
                    holding: Holding::Bound,
                }),
            };
            let event = Membership {
                player: Named {
                    id: player_id,
                    name: Cow::Borrowed(&name),
                },
                players: snapshot.players.len() + 1,
            };
            let change = Change {
                player: Some(player),
                events: vec![NewEvent {
                    kind: EventKind::PlayerJoined,
                    data: to_text(&event)?,
                }],
                records,
                ..Change::default()
            };
            Ok((change, ()))
        })
        .await
    }
}
