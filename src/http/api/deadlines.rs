//! Deadline routes: a player's standing fallback order, and the host's clock controls.
//! The path is read by `ApiPath`, so that an id that does not decode is the 404 every route gives.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;

use crate::error::AppError;
use crate::http::AppState;
use crate::http::extract::{ApiPath, JsonObject, Token, lobby_id};

pub async fn set_fallback(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
    JsonObject(body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    Ok(Json(
        app.host.set_fallback(id, token.as_deref(), body).await?,
    ))
}

pub async fn clear_fallback(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    app.host.clear_fallback(id, token.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}

pub async fn set_deadline(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
    JsonObject(body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    Ok(Json(
        app.host.set_deadline(id, token.as_deref(), body).await?,
    ))
}

pub async fn pause(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(
        app.host.pause(lobby_id(&id)?, token.as_deref()).await?,
    ))
}

pub async fn resume(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(
        app.host.resume(lobby_id(&id)?, token.as_deref()).await?,
    ))
}

pub async fn resolve_now(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(
        app.host
            .resolve_now(lobby_id(&id)?, token.as_deref())
            .await?,
    ))
}
