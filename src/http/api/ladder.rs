//! The ladder's routes (docs/bots.md, "The ladder"): a bot enters or leaves a game's ladder
//! with its profile key; anyone reads a ladder. Handlers only translate between HTTP and the
//! host.

use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, delete, get, post};

use crate::error::AppError;
use crate::http::AppState;
use crate::http::extract::{ApiPath, Token};

/// The routes of this file, for the API's table.
pub(super) fn table() -> Vec<(Method, &'static str, MethodRouter<AppState>)> {
    vec![
        (Method::GET, "/api/v1/ladder/{game}", get(show_ladder)),
        (Method::POST, "/api/v1/ladder/{game}", post(enter_ladder)),
        (
            Method::DELETE,
            "/api/v1/ladder/{game}",
            delete(leave_ladder),
        ),
    ]
}

async fn show_ladder(
    State(app): State<AppState>,
    ApiPath(game): ApiPath<String>,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(app.host.ladder_view(&game).await?))
}

async fn enter_ladder(
    State(app): State<AppState>,
    token: Token,
    ApiPath(game): ApiPath<String>,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(app.host.enter_ladder(token.as_deref(), &game).await?))
}

async fn leave_ladder(
    State(app): State<AppState>,
    token: Token,
    ApiPath(game): ApiPath<String>,
) -> Result<impl IntoResponse, AppError> {
    app.host.leave_ladder(token.as_deref(), &game).await?;
    Ok(StatusCode::NO_CONTENT)
}
