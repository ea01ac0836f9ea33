//! Table-talk routes (docs/api.md "Table talk", docs/table-talk.md): sending a message and
//! reading those one may read. Handlers only translate.

use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, get, post};
use serde_json::Value;

use crate::error::AppError;
use crate::events::{AllPlayers, Recipients};
use crate::http::AppState;
use crate::http::extract::{ApiPath, JsonObject, Token, lobby_id};

/// The routes of this file, for the API's table.
pub(super) fn table() -> Vec<(Method, &'static str, MethodRouter<AppState>)> {
    vec![
        (
            Method::POST,
            "/api/v1/lobbies/{id}/messages",
            post(send_message),
        ),
        (
            Method::GET,
            "/api/v1/lobbies/{id}/messages",
            get(list_messages),
        ),
    ]
}

/// The body `{"to": "all" | [player_id, ...], "text"}` read: 400 for another shape.
pub fn message_body(
    mut body: serde_json::Map<String, Value>,
) -> Result<(Recipients, String), AppError> {
    let malformed = |why: &str| AppError::malformed("invalid-body", why.to_owned());
    let to = match body.remove("to") {
        Some(Value::String(word)) if word == "all" => Recipients::All(AllPlayers::All),
        Some(Value::Array(items)) => Recipients::Players(
            items
                .iter()
                .map(|item| item.as_str().and_then(|s| s.parse().ok()))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| malformed("\"to\" must be \"all\" or a list of player ids."))?,
        ),
        _ => return Err(malformed("\"to\" must be \"all\" or a list of player ids.")),
    };
    let text = match body.remove("text") {
        Some(Value::String(text)) => text,
        _ => return Err(malformed("The body needs a \"text\" string.")),
    };
    if let Some(field) = body.keys().next() {
        return Err(AppError::malformed(
            "invalid-body",
            format!("Unknown field {field:?} in the message."),
        ));
    }
    Ok((to, text))
}

async fn send_message(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
    JsonObject(body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    let (to, text) = message_body(body)?;
    let sent = app
        .host
        .send_message(id, token.as_deref(), to, &text)
        .await?;
    Ok((StatusCode::CREATED, Json(sent)))
}

async fn list_messages(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(
        app.host.messages(lobby_id(&id)?, token.as_deref()).await?,
    ))
}
