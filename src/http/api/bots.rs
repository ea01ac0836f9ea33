//! The bots' routes (docs/bots.md): the profile's one stream over all its seats, and
//! challenges between profiles. Handlers only translate between HTTP and the host.

use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, get, post};
use serde_json::{Value, json};

use super::profile_events::stream_profile_events;
use super::take_string;
use crate::error::AppError;
use crate::http::AppState;
use crate::http::extract::{ApiPath, JsonObject, Token};
use crate::http::rate::{Admitted, CreatesLobby};

/// The routes of this file, for the API's table.
pub(super) fn table() -> Vec<(Method, &'static str, MethodRouter<AppState>)> {
    vec![
        (Method::GET, "/api/v1/me/events", get(stream_profile_events)),
        (Method::POST, "/api/v1/challenges", post(create_challenge)),
        (
            Method::POST,
            "/api/v1/challenges/{id}/accept",
            post(accept_challenge),
        ),
        (
            Method::POST,
            "/api/v1/challenges/{id}/decline",
            post(decline_challenge),
        ),
    ]
}

async fn create_challenge(
    State(app): State<AppState>,
    // A challenge accepted makes a lobby: counted with the lobbies a client creates.
    _admitted: Admitted<CreatesLobby>,
    token: Token,
    JsonObject(mut body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let game = take_string(&mut body, "game")?;
    let opponent = take_string(&mut body, "opponent")?;
    let settings = match body.remove("settings") {
        None => serde_json::Map::new(),
        Some(Value::Object(settings)) => settings,
        Some(_) => {
            return Err(AppError::malformed(
                "invalid-body",
                "\"settings\" must be an object.",
            ));
        }
    };
    if let Some(other) = body.keys().next() {
        return Err(AppError::malformed(
            "invalid-body",
            format!(
                "Unknown field {other:?}: a challenge has \"game\", \"opponent\" and \"settings\"."
            ),
        ));
    }
    let id = app
        .host
        .create_challenge(token.as_deref(), &game, &opponent, settings)
        .await?;
    Ok((StatusCode::CREATED, Json(json!({"id": id}))))
}

async fn accept_challenge(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let lobby = app.host.accept_challenge(token.as_deref(), &id).await?;
    Ok(Json(json!({"lobby": lobby})))
}

async fn decline_challenge(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    app.host.decline_challenge(token.as_deref(), &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
