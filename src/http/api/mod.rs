//! The JSON API for bots and scripts, version 1 (`/api/v1`, contract in `docs/api.md`).
//! Handlers only translate between HTTP and the host.

mod bots;
mod controls;
mod deadlines;
mod events;
mod ladder;
pub mod openapi;
mod profile_events;
mod profiles;
mod ratings;
mod talk;
mod tournament_webhooks;
mod tournaments;
pub(crate) use tournaments::tournament_id;
mod webhooks;

use axum::Json;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{Method, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, delete, get, post, put};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::AppState;
use super::extract::{
    ApiPath, CreationBody, FORK_BODY_LIMIT, JsonObject, Token, lobby_id, member_value, members,
    round_number,
};
use super::rate::{Admitted, CreatesLobby, Joins};
use crate::error::AppError;

/// Every API route: its method, its path and its handler. The router is built from this table,
/// and a test compares the table with the OpenAPI document, so neither can drift from the other.
fn table() -> Vec<(Method, &'static str, MethodRouter<AppState>)> {
    let mut table = vec![
        (Method::GET, "/api/v1/openapi.json", get(openapi)),
        (Method::GET, "/api/v1/lobbies", get(list_lobbies)),
        (
            Method::POST,
            "/api/v1/lobbies",
            // An archive to fork from can be far larger than any other body.
            post(create_lobby).layer(DefaultBodyLimit::max(FORK_BODY_LIMIT)),
        ),
        (Method::GET, "/api/v1/lobbies/{id}", get(show_lobby)),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/players",
            post(join_lobby),
        ),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/close-signups",
            post(close_signups),
        ),
        (Method::POST, "/api/v1/lobbies/{id}/start", post(start_game)),
        (Method::GET, "/api/v1/lobbies/{id}/me", get(show_me)),
        (
            Method::GET,
            "/api/v1/lobbies/{id}/me/events",
            get(events::stream_player_events),
        ),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/orders",
            post(submit_order),
        ),
        (
            Method::PUT,
            "/api/v1/lobbies/{id}/me/fallback",
            put(deadlines::set_fallback),
        ),
        (
            Method::DELETE,
            "/api/v1/lobbies/{id}/me/fallback",
            delete(deadlines::clear_fallback),
        ),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/deadline",
            post(deadlines::set_deadline),
        ),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/pause",
            post(deadlines::pause),
        ),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/resume",
            post(deadlines::resume),
        ),
        (
            Method::POST,
            "/api/v1/lobbies/{id}/resolve-now",
            post(deadlines::resolve_now),
        ),
        (Method::GET, "/api/v1/lobbies/{id}/rounds", get(list_rounds)),
        (
            Method::GET,
            "/api/v1/lobbies/{id}/rounds/{round}",
            get(show_round),
        ),
        (
            Method::GET,
            "/api/v1/lobbies/{id}/events",
            get(events::stream_events),
        ),
        (
            Method::GET,
            "/api/v1/lobbies/{id}/archive",
            get(show_archive),
        ),
    ];
    table.extend(controls::table());
    table.extend(webhooks::table());
    table.extend(talk::table());
    table.extend(profiles::table());
    table.extend(bots::table());
    table.extend(ratings::table());
    table.extend(ladder::table());
    table.extend(tournaments::table());
    table.extend(tournament_webhooks::table());
    table
}

/// The API's routes as (method, path), for checking the OpenAPI document.
pub fn route_list() -> Vec<(String, &'static str)> {
    table()
        .into_iter()
        .map(|(method, path, _)| (method.to_string(), path))
        .collect()
}

pub fn routes() -> Router<AppState> {
    table()
        .into_iter()
        .fold(Router::new(), |router, (_, path, handler)| {
            router.route(path, handler)
        })
}

async fn openapi() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        openapi::TEXT.as_str(),
    )
}

/// Takes a required string field out of a body: missing or not a string → 400.
fn take_string(body: &mut serde_json::Map<String, Value>, field: &str) -> Result<String, AppError> {
    match body.remove(field) {
        Some(Value::String(text)) => Ok(text),
        Some(_) => Err(AppError::malformed(
            "invalid-body",
            format!("\"{field}\" must be a string."),
        )),
        None => Err(AppError::malformed(
            "invalid-body",
            format!("The body needs a \"{field}\" field."),
        )),
    }
}

/// How long a name may be as sent, in code points (the document's `Name.maxLength`): room
/// for decomposed accents and white space that normalising takes away, since the stored name
/// is at most [`crate::host::MAX_NAME_CHARS`] characters once normalised (the host checks it).
pub const MAX_SENT_NAME_CHARS: usize = 4 * crate::host::MAX_NAME_CHARS;

/// Takes the name out of a body; one longer than the document allows as sent is refused before
/// the host normalises it.
fn take_name(body: &mut serde_json::Map<String, Value>, what: &str) -> Result<String, AppError> {
    let name = take_string(body, "name")?;
    if name.chars().count() > MAX_SENT_NAME_CHARS {
        return Err(AppError::rejected(
            "invalid-name",
            format!(
                "The {what} is too long: at most {} characters.",
                crate::host::MAX_NAME_CHARS
            ),
        ));
    }
    Ok(name)
}

async fn create_lobby(
    State(app): State<AppState>,
    _admitted: Admitted<CreatesLobby>,
    CreationBody {
        fields: mut body,
        fork,
    }: CreationBody,
) -> Result<impl IntoResponse, AppError> {
    let game = take_string(&mut body, "game")?;
    let name = take_name(&mut body, "lobby name")?;
    // An object, as the document says: serde would also read a struct from an array.
    let settings = match body.remove("settings") {
        None => Value::Object(Default::default()),
        Some(settings @ Value::Object(_)) => settings,
        Some(_) => {
            return Err(AppError::malformed(
                "invalid-body",
                "\"settings\" must be an object.",
            ));
        }
    };
    let fork = fork.as_deref().map(read_fork).transpose()?;
    if let Some(field) = body.keys().next() {
        return Err(AppError::malformed(
            "invalid-body",
            format!("Unknown field {field:?} in the lobby request."),
        ));
    }
    let created = match fork {
        None => app.host.create_lobby(&game, &name, settings).await?,
        Some((archive, round)) => {
            app.host
                .create_fork(&game, &name, settings, archive, round)
                .await?
        }
    };
    Ok((StatusCode::CREATED, Json(created)))
}

/// A fork's `{"archive": {...}, "round": n}`: its shape only; the archive itself is the
/// host's to judge, from its text.
fn read_fork(fork: &RawValue) -> Result<(Box<RawValue>, u32), AppError> {
    let malformed = || {
        AppError::malformed(
            "invalid-body",
            "\"fork\" must be {\"archive\": <an archive object>, \"round\": <a round number>}.",
        )
    };
    let (mut archive, mut round) = (None, None);
    let members = members(fork.get().as_bytes()).map_err(|e| match e.code() {
        "duplicate-key" => e,
        _ => malformed(),
    })?;
    for (key, raw) in members {
        match key.as_str() {
            "archive" if raw.get().starts_with('{') => archive = Some(raw.to_owned()),
            "round" => round = member_value(raw)?.as_u64(),
            _ => return Err(malformed()),
        }
    }
    let round = round
        .and_then(|r| u32::try_from(r).ok())
        .ok_or_else(malformed)?;
    Ok((archive.ok_or_else(malformed)?, round))
}

#[derive(Deserialize)]
struct ListQuery {
    limit: Option<i64>,
}

/// The most lobbies one list returns (and the document's `maximum` for `limit`).
const MOST_LISTED: i64 = 200;

async fn list_lobbies(
    State(app): State<AppState>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<impl IntoResponse, AppError> {
    let Query(query) = query.map_err(|e| AppError::malformed("invalid-query", e.body_text()))?;
    let limit = query.limit.unwrap_or(50);
    if !(1..=MOST_LISTED).contains(&limit) {
        return Err(AppError::malformed(
            "invalid-query",
            format!("limit must be between 1 and {MOST_LISTED}, not {limit}."),
        ));
    }
    Ok(Json(app.host.list_lobbies(limit).await?))
}

async fn show_lobby(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(app.host.lobby(lobby_id(&id)?).await?))
}

async fn join_lobby(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    _admitted: Admitted<Joins>,
    token: Token,
    JsonObject(mut body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    // With a profile key the name may be left out: the seat takes the handle.
    let key = token
        .as_deref()
        .filter(|t| crate::host::profiles::is_profile_key(t));
    let name = match (body.contains_key("name"), key) {
        (false, Some(_)) => None,
        _ => Some(take_name(&mut body, "player name")?),
    };
    let joined = app.host.join_as(id, name.as_deref(), body, key).await?;
    Ok((StatusCode::CREATED, Json(joined)))
}

async fn close_signups(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(
        app.host
            .close_signups(lobby_id(&id)?, token.as_deref())
            .await?,
    ))
}

async fn start_game(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(
        app.host.start(lobby_id(&id)?, token.as_deref()).await?,
    ))
}

async fn show_me(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(app.host.me(lobby_id(&id)?, token.as_deref()).await?))
}

async fn submit_order(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    token: Token,
    JsonObject(body): JsonObject,
) -> Result<impl IntoResponse, AppError> {
    let receipt = app
        .host
        .submit(lobby_id(&id)?, token.as_deref(), body)
        .await?;
    Ok((StatusCode::ACCEPTED, Json(receipt)))
}

async fn list_rounds(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(app.host.rounds(lobby_id(&id)?).await?))
}

async fn show_archive(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> Result<impl IntoResponse, AppError> {
    Ok(Json(app.host.archive(lobby_id(&id)?).await?))
}

async fn show_round(
    State(app): State<AppState>,
    ApiPath((id, round)): ApiPath<(String, String)>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    let id = lobby_id(&id)?;
    let round = round_number(&round)?;
    Ok(Json(app.host.round(id, round, token.as_deref()).await?))
}
