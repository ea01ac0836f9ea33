//! A player's standing fallback order: a main-step answer set ahead, secret like an order,
//! played for them when a step's time runs out without their order (if it is legal then).

use serde::Serialize;
use serde_json::{Map, Value};
use uuid::Uuid;

use super::auth::require_player;
use super::engine::{self, to_text};
use super::{GameKind, Host, with_game};
use crate::error::AppError;
use crate::rules::Game;
use crate::store::{Change, PlayerPatch, Snapshot, Status};

/// The answer to setting a fallback order: the order as stored.
#[derive(Debug, Serialize)]
pub struct FallbackView {
    pub fallback: Value,
}

impl Host {
    /// Stores `body` (a main-step answer without `round` and `step`) as the player's fallback
    /// order, replacing any earlier one. Its form is checked now, its legality when it is used.
    pub async fn set_fallback(
        &self,
        id: Uuid,
        token: Option<&str>,
        body: Map<String, Value>,
    ) -> Result<FallbackView, AppError> {
        let presented = self.presented(token).await?;
        self.change(id, move |snapshot| {
            let player = require_player(snapshot, &presented)?.id;
            still_playing(snapshot)?;
            if body.contains_key("round") || body.contains_key("step") {
                return Err(AppError::malformed(
                    "invalid-body",
                    "A fallback order answers whichever round it is used in: leave out \"round\" and \"step\".",
                ));
            }
            let kind: GameKind = snapshot.lobby.game_kind()?;
            let body = Value::Object(body);
            with_game!(kind, G => check_form::<G>(body.clone()))
                .map_err(|malformed| another_games_form(kind, &body).unwrap_or(malformed))?;
            let change = Change {
                players: vec![PlayerPatch {
                    id: player,
                    fallback: Some(Some(to_text(&body)?)),
                    misses: None,
                    binding: None,
                    names: None,
                }],
                ..Change::default()
            };
            Ok((change, FallbackView { fallback: body }))
        })
        .await
    }

    /// Removes the player's fallback order (the game's default applies again).
    pub async fn clear_fallback(&self, id: Uuid, token: Option<&str>) -> Result<(), AppError> {
        let presented = self.presented(token).await?;
        self.change(id, move |snapshot| {
            let player = require_player(snapshot, &presented)?.id;
            still_playing(snapshot)?;
            let change = Change {
                players: vec![PlayerPatch {
                    id: player,
                    fallback: Some(None),
                    misses: None,
                    binding: None,
                    names: None,
                }],
                ..Change::default()
            };
            Ok((change, ()))
        })
        .await
    }
}

/// A fallback may be set or cleared until the game is over.
fn still_playing(snapshot: &Snapshot) -> Result<(), AppError> {
    match snapshot.lobby.status {
        Status::Signups | Status::Closed | Status::Running => Ok(()),
        Status::Finished => Err(AppError::conflict("game-over", "The game is over.")),
    }
}

/// The body has the main step's shape (400) and the game's form (422).
fn check_form<G: Game>(body: Value) -> Result<(), AppError> {
    let body: G::OrderBody = engine::from_client(body, "fallback order")?;
    G::check_fallback(&body).map_err(engine::refused)
}

/// A body this game cannot read that is another game's well-formed fallback: the route takes
/// every game's form (its document schema cannot tell the lobbies apart), so that is a 422
/// `wrong-game` naming the games, as a `character` in a Crossing Swords join is the game's
/// refusal and not a malformed body.
fn another_games_form(kind: GameKind, body: &Value) -> Option<AppError> {
    let other = GameKind::ALL
        .into_iter()
        .filter(|other| *other != kind)
        .find(|other| with_game!(*other, G => check_form::<G>(body.clone()).is_ok()))?;
    Some(AppError::rejected(
        "wrong-game",
        format!(
            "That is a {} fallback order; this lobby plays {}.",
            other.title(),
            kind.title()
        ),
    ))
}
