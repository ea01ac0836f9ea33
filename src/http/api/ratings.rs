//! The leaderboards (docs/api.md, "Ratings"). Handlers only translate between HTTP and the
//! host.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::Method;
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, get};
use serde::Deserialize;

use crate::error::AppError;
use crate::http::AppState;
use crate::http::extract::ApiPath;
use crate::ratings::{Limit, LimitError, Pool};

/// The routes of this file, for the API's table.
pub(super) fn table() -> Vec<(Method, &'static str, MethodRouter<AppState>)> {
    vec![(
        Method::GET,
        "/api/v1/ratings/{game}/{kind}",
        get(show_leaderboard),
    )]
}

#[derive(Deserialize)]
struct BoardQuery {
    limit: Option<String>,
}

async fn show_leaderboard(
    State(app): State<AppState>,
    ApiPath((game, kind)): ApiPath<(String, String)>,
    query: Result<Query<BoardQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<impl IntoResponse, AppError> {
    let Query(query) = query.map_err(|e| AppError::malformed("invalid-query", e.body_text()))?;
    let pool: Pool = format!("{game}/{kind}")
        .parse()
        .map_err(|e: crate::ratings::PoolError| AppError::not_found(e.code(), e.to_string()))?;
    let limit = match query.limit.as_deref() {
        None => Limit::DEFAULT,
        Some(text) => text
            .parse()
            .map_err(|e: LimitError| AppError::rejected(LimitError::CODE, e.to_string()))?,
    };
    Ok(Json(app.host.leaderboard(pool, limit).await?))
}
