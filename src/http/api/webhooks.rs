//! Notification routes (docs/api.md "Webhooks", docs/notifications.md): the host's lobby
//! webhooks and a player's own notifications. Handlers only translate.

use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, delete, get, post, put};
use serde_json::json;

use crate::error::AppError;
use crate::http::AppState;
use crate::http::extract::{ApiPath, JsonObject, Token, lobby_id};

/// The routes of this file, for the API's table.
pub(super) fn table() -> Vec<(Method, &'static str, MethodRouter<AppState>)> {
    vec![
        (
            Method::POST,
            "/api/v1/lobbies/{id}/webhooks",
            post(add_webhook),
        ),
        (
            Method::GET,
            "/api/v1/lobbies/{id}/webhooks",
            get(list_webhooks),
        ),
        (
            Method::DELETE,
            "/api/v1/lobbies/{id}/webhooks/{webhook_id}",
            delete(delete_webhook),
        ),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/webhooks/{webhook_id}/test",
            post(test_webhook),
        ),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/webhooks/{webhook_id}/enable",
            post(enable_webhook),
        ),
        (
            Method::PUT,
            "/api/v1/lobbies/{id}/me/notifications",
            put(set_my_notifications),
        ),
        (
            Method::DELETE,
            "/api/v1/lobbies/{id}/me/notifications",
            delete(clear_my_notifications),
        ),
    ]
}

async fn add_webhook(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
    JsonObject(body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    let created = app.host.add_webhook(id, token.as_deref(), body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn list_webhooks(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    let webhooks = app.host.webhooks(id, token.as_deref()).await?;
    Ok(Json(json!({ "webhooks": webhooks })))
}

async fn delete_webhook(
    State(app): State<AppState>,
    ApiPath((id, webhook)): ApiPath<(String, String)>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    app.host
        .delete_webhook(id, token.as_deref(), &webhook)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn test_webhook(
    State(app): State<AppState>,
    ApiPath((id, webhook)): ApiPath<(String, String)>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    let delivery = app
        .host
        .test_webhook(id, token.as_deref(), &webhook)
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
    let id = lobby_id(&id)?;
    Ok(Json(
        app.host
            .enable_webhook(id, token.as_deref(), &webhook)
            .await?,
    ))
}

async fn set_my_notifications(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
    JsonObject(body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    Ok(Json(
        app.host
            .set_my_notifications(id, token.as_deref(), body)
            .await?,
    ))
}

async fn clear_my_notifications(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    app.host
        .clear_my_notifications(id, token.as_deref())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
