//! The host's controls and leaving before the start (docs/api.md "The host's controls").
//! Handlers only translate between HTTP and the host.

use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, delete, post};

use super::take_string;
use crate::error::AppError;
use crate::http::AppState;
use crate::http::extract::{ApiPath, JsonObject, OptionalJsonObject, Token, lobby_id};

/// The routes of this file, for the API's table.
pub(super) fn table() -> Vec<(Method, &'static str, MethodRouter<AppState>)> {
    vec![
        (
            Method::POST,
            "/api/v1/lobbies/{id}/players/{player_id}/replace",
            post(replace_player),
        ),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/players/{player_id}/reissue",
            post(reissue_token),
        ),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/players/{player_id}/kick",
            post(kick_player),
        ),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/players/{player_id}/remind",
            post(remind_player),
        ),
        (
            Method::DELETE,
            "/api/v1/lobbies/{id}/players/{player_id}",
            delete(remove_player),
        ),
        (
            Method::DELETE,
            "/api/v1/lobbies/{id}/me",
            delete(leave_lobby),
        ),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/reopen-signups",
            post(reopen_signups),
        ),
        (Method::POST, "/api/v1/lobbies/{id}/end", post(end_game)),
    ]
}

async fn replace_player(
    State(app): State<AppState>,
    ApiPath((id, player)): ApiPath<(String, String)>,
    token: Token,
    JsonObject(mut body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    let name = take_string(&mut body, "name")?;
    if let Some(field) = body.keys().next() {
        return Err(AppError::malformed(
            "invalid-body",
            format!("Unknown field {field:?}: a substitute needs only a \"name\"."),
        ));
    }
    let issued = app
        .host
        .replace_player(id, token.as_deref(), player, name)
        .await?;
    Ok(Json(issued))
}

async fn reissue_token(
    State(app): State<AppState>,
    ApiPath((id, player)): ApiPath<(String, String)>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    Ok(Json(
        app.host.reissue_token(id, token.as_deref(), player).await?,
    ))
}

async fn kick_player(
    State(app): State<AppState>,
    ApiPath((id, player)): ApiPath<(String, String)>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    Ok(Json(app.host.kick(id, token.as_deref(), player).await?))
}

/// 202: the reminder is queued; the delivery worker sends it (docs/notifications.md,
/// "Reminders").
async fn remind_player(
    State(app): State<AppState>,
    ApiPath((id, player)): ApiPath<(String, String)>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    let receipt = app.host.remind(id, token.as_deref(), &player).await?;
    Ok((StatusCode::ACCEPTED, Json(receipt)))
}

async fn remove_player(
    State(app): State<AppState>,
    ApiPath((id, player)): ApiPath<(String, String)>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    app.host.remove_player(id, token.as_deref(), player).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn leave_lobby(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    app.host.leave(lobby_id(&id)?, token.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn reopen_signups(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(
        app.host
            .reopen_signups(lobby_id(&id)?, token.as_deref())
            .await?,
    ))
}

async fn end_game(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
    OptionalJsonObject(body): OptionalJsonObject,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    Ok(Json(app.host.end_game(id, token.as_deref(), body).await?))
}
