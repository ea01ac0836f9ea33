//! Tournaments (docs/api.md, "Tournaments"). Handlers only translate between HTTP and the host.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::{Method, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, delete, get, post};
use serde::Deserialize;
use uuid::Uuid;

use crate::error::AppError;
use crate::host::tournaments::NewTournament;
use crate::http::AppState;
use crate::http::extract::{ApiPath, JsonObject, Token};
use crate::http::rate::{Admitted, CreatesLobby};

/// The routes of this file, for the API's table.
pub(super) fn table() -> Vec<(Method, &'static str, MethodRouter<AppState>)> {
    vec![
        (Method::GET, "/api/v1/tournaments", get(list_tournaments)),
        (Method::POST, "/api/v1/tournaments", post(create_tournament)),
        (
            Method::GET,
            "/api/v1/tournaments/{id}",
            get(show_tournament),
        ),
        (
            Method::POST,
            "/api/v1/tournaments/{id}/entrants",
            post(enter),
        ),
        (
            Method::DELETE,
            "/api/v1/tournaments/{id}/entrants/me",
            delete(withdraw),
        ),
        (
            Method::POST,
            "/api/v1/tournaments/{id}/rounds",
            post(next_round),
        ),
    ]
}

/// A tournament's id from the path: anything that is not one names no tournament (404).
pub(crate) fn tournament_id(raw: &str) -> Result<Uuid, AppError> {
    Uuid::parse_str(raw).map_err(|_| {
        AppError::not_found(
            "unknown-tournament",
            format!("There is no tournament {raw:?}."),
        )
    })
}

#[derive(Deserialize)]
struct ListQuery {
    limit: Option<i64>,
}

async fn list_tournaments(
    State(app): State<AppState>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<impl IntoResponse, AppError> {
    let Query(query) = query.map_err(|e| AppError::malformed("invalid-query", e.body_text()))?;
    let limit = query.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(AppError::malformed(
            "invalid-query",
            format!("limit must be between 1 and 200, not {limit}."),
        ));
    }
    Ok(Json(app.host.list_tournaments(limit).await?))
}

async fn create_tournament(
    State(app): State<AppState>,
    // Storage anyone can ask for: counted with the lobbies a client creates.
    _admitted: Admitted<CreatesLobby>,
    JsonObject(body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let new: NewTournament = serde_json::from_value(serde_json::Value::Object(body))
        .map_err(|e| AppError::malformed("invalid-body", format!("{e}.")))?;
    if new.name.chars().count() > super::MAX_SENT_NAME_CHARS {
        return Err(AppError::rejected(
            "invalid-name",
            format!(
                "The tournament name is too long: at most {} characters.",
                crate::host::MAX_NAME_CHARS
            ),
        ));
    }
    let created = app.host.create_tournament(new).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn show_tournament(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(app.host.tournament(tournament_id(&id)?).await?))
}

async fn enter(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = tournament_id(&id)?;
    app.host.enter_tournament(id, token.as_deref()).await?;
    Ok((StatusCode::CREATED, Json(app.host.tournament(id).await?)))
}

async fn withdraw(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = tournament_id(&id)?;
    app.host
        .withdraw_from_tournament(id, token.as_deref())
        .await?;
    Ok(Json(app.host.tournament(id).await?))
}

async fn next_round(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = tournament_id(&id)?;
    let view = app.host.start_next_round(id, token.as_deref()).await?;
    Ok((StatusCode::CREATED, Json(view)))
}
