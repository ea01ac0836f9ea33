//! "Claim this seat" on the player's page (docs/identity.md, "Seats that belong to someone"):
//! a signed-in browser that holds a seat's private link binds the seat to its profile (before
//! the start; after it, as history only). The seat's link in the cookie is the proof.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;

use super::play::after_action;
use super::seat_hold::player_token;
use super::session::{CheckedForm, Csrf};
use super::signed_in::session_of;
use super::{PageError, PagePath, lobby_id};
use crate::error::AppError;
use crate::http::AppState;

/// POST /lobbies/{id}/play/claim.
pub async fn claim_seat(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = player_token(&app, id, &headers).await?;
    let session = session_of(&app, &headers).await?.ok_or_else(|| {
        PageError(AppError::unauthenticated(
            "signed-out",
            "This browser is not signed in: open your profile's sign-in link first.",
        ))
    })?;
    let me = app.host.me(id, Some(&token)).await?;
    let player = me.player["id"].as_str().unwrap_or_default().to_owned();
    let claimed = app
        .host
        .claim_with(id, session.profile, player, &token)
        .await
        .map(|_| ());
    let to = format!("/lobbies/{id}/play");
    after_action(&app, id, &headers, csrf, claimed, &to).await
}
