//! A tournament director's webhooks (docs/api.md, "Webhooks"; docs/notifications.md,
//! "Tournament webhooks"): the lobby webhooks' routes under `/api/v1/tournaments/{id}`, with the
//! director's token. Handlers only translate.

use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, delete, get, post};
use serde_json::json;

use super::tournaments::tournament_id;
use crate::error::AppError;
use crate::http::AppState;
use crate::http::extract::{ApiPath, JsonObject, Token};

/// The routes of this file, for the API's table.
pub(super) fn table() -> Vec<(Method, &'static str, MethodRouter<AppState>)> {
    vec![
        (
            Method::POST,
            "/api/v1/tournaments/{id}/webhooks",
            post(add_webhook),
        ),
        (
            Method::GET,
            "/api/v1/tournaments/{id}/webhooks",
            get(list_webhooks),
        ),
        (
            Method::DELETE,
            "/api/v1/tournaments/{id}/webhooks/{webhook_id}",
            delete(delete_webhook),
        ),
        (
            Method::POST,
            "/api/v1/tournaments/{id}/webhooks/{webhook_id}/test",
            post(test_webhook),
        ),
        (
            Method::POST,
            "/api/v1/tournaments/{id}/webhooks/{webhook_id}/enable",
            post(enable_webhook),
        ),
    ]
}

async fn add_webhook(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
    JsonObject(body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let id = tournament_id(&id)?;
    let created = app
        .host
        .add_tournament_webhook(id, token.as_deref(), body)
        .await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn list_webhooks(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = tournament_id(&id)?;
    let webhooks = app.host.tournament_webhooks(id, token.as_deref()).await?;
    Ok(Json(json!({ "webhooks": webhooks })))
}

async fn delete_webhook(
    State(app): State<AppState>,
    ApiPath((id, webhook)): ApiPath<(String, String)>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = tournament_id(&id)?;
    app.host
        .delete_tournament_webhook(id, token.as_deref(), &webhook)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn test_webhook(
    State(app): State<AppState>,
    ApiPath((id, webhook)): ApiPath<(String, String)>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = tournament_id(&id)?;
    let delivery = app
        .host
        .test_tournament_webhook(id, token.as_deref(), &webhook)
        .await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({ "delivery_id": delivery })),
    ))
}

async fn enable_webhook(
    State(app): State<AppState>,
    ApiPath((id, webhook)): ApiPath<(String, String)>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = tournament_id(&id)?;
    Ok(Json(
        app.host
            .enable_tournament_webhook(id, token.as_deref(), &webhook)
            .await?,
    ))
}
