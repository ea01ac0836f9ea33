//! Profiles, their keys and bots, claiming a seat, and the host's excuse (docs/api.md,
//! "Profiles"). Handlers only translate between HTTP and the host.

use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, delete, get, post};
use serde_json::Value;

use super::take_string;
use crate::error::AppError;
use crate::http::AppState;
use crate::http::extract::{ApiPath, JsonObject, Token, lobby_id};
use crate::http::rate::{Admitted, CreatesLobby};

/// The routes of this file, for the API's table.
pub(super) fn table() -> Vec<(Method, &'static str, MethodRouter<AppState>)> {
    vec![
        (Method::POST, "/api/v1/profiles", post(create_profile)),
        (Method::GET, "/api/v1/profiles/{handle}", get(show_profile)),
        (Method::GET, "/api/v1/me", get(show_me)),
        (Method::POST, "/api/v1/me/keys", post(add_key)),
        (
            Method::DELETE,
            "/api/v1/me/keys/{key_id}",
            delete(revoke_key),
        ),
        (Method::POST, "/api/v1/me/bots", post(create_bot)),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/players/{player_id}/claim",
            post(claim_seat),
        ),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/players/{player_id}/excuse",
            post(excuse_miss),
        ),
        (
            Method::PUT,
            "/api/v1/me/vacation",
            axum::routing::put(put_vacation),
        ),
        (
            Method::DELETE,
            "/api/v1/me/vacation",
            delete(delete_vacation),
        ),
    ]
}

/// A body of exactly `{"<field>": "<string>"}`.
fn only_string(mut body: serde_json::Map<String, Value>, field: &str) -> Result<String, AppError> {
    let value = take_string(&mut body, field)?;
    if let Some(other) = body.keys().next() {
        return Err(AppError::malformed(
            "invalid-body",
            format!("Unknown field {other:?}: the body needs only \"{field}\"."),
        ));
    }
    Ok(value)
}

async fn create_profile(
    State(app): State<AppState>,
    // Storage anyone can ask for: counted with the lobbies a client creates.
    _admitted: Admitted<CreatesLobby>,
    JsonObject(body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let handle = only_string(body, "handle")?;
    let created = app.host.create_profile(&handle, None, None).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn show_profile(
    State(app): State<AppState>,
    ApiPath(handle): ApiPath<String>,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(app.host.profile(&handle).await?))
}

async fn show_me(State(app): State<AppState>, token: Token) -> Result<impl IntoResponse, AppError> {
    Ok(Json(app.host.me_profile(token.as_deref()).await?))
}

async fn add_key(State(app): State<AppState>, token: Token) -> Result<impl IntoResponse, AppError> {
    let created = app.host.add_profile_key(token.as_deref()).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn revoke_key(
    State(app): State<AppState>,
    ApiPath(key_id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    app.host
        .revoke_profile_key(token.as_deref(), &key_id)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn create_bot(
    State(app): State<AppState>,
    _admitted: Admitted<CreatesLobby>,
    token: Token,
    JsonObject(body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let handle = only_string(body, "handle")?;
    let created = app.host.create_bot(token.as_deref(), &handle).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn claim_seat(
    State(app): State<AppState>,
    ApiPath((id, player)): ApiPath<(String, String)>,
    token: Token,
    JsonObject(body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    let proof = only_string(body, "player_token")?;
    let claimed = app.host.claim(id, token.as_deref(), player, &proof).await?;
    Ok(Json(claimed))
}

async fn excuse_miss(
    State(app): State<AppState>,
    ApiPath((id, player)): ApiPath<(String, String)>,
    token: Token,
    JsonObject(mut body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    let round = match body.remove("round") {
        Some(Value::Number(n)) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
        _ => None,
    }
    .ok_or_else(|| AppError::malformed("invalid-body", "\"round\" must be a round number."))?;
    let reason = match body.remove("reason") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text),
        Some(_) => {
            return Err(AppError::malformed(
                "invalid-body",
                "\"reason\" must be a string.",
            ));
        }
    };
    let step = only_string(body, "step")?;
    let excused = app
        .host
        .excuse(
            id,
            token.as_deref(),
            player,
            (round, step),
            reason.as_deref(),
        )
        .await?;
    Ok(Json(excused))
}

async fn put_vacation(
    State(app): State<AppState>,
    token: Token,
    JsonObject(body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(app.host.put_vacation(token.as_deref(), body).await?))
}

async fn delete_vacation(
    State(app): State<AppState>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    app.host.delete_vacation(token.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}
