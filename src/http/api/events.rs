//! Server-Sent Events. The lobby stream is public: who joined, who submitted, which step or
//! round resolved, never what anyone ordered. The player stream (for bots) carries the same
//! public events plus a `prompt` event, with the player's own private view, whenever a new step
//! begins and on (re)connection. Events are read from the database, so a client that reconnects
//! with `Last-Event-ID` resumes where it left off; the in-process notifier only says when to
//! look again.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use tokio::sync::watch;
use uuid::Uuid;

use crate::error::AppError;
use crate::http::AppState;
use crate::http::extract::{Token, lobby_id};
use crate::store::EventRow;

struct Feed {
    app: AppState,
    lobby: Uuid,
    last: i64,
    buffer: VecDeque<EventRow>,
    wake: watch::Receiver<i64>,
    shutdown: watch::Receiver<bool>,
    /// The player's token, for the player stream.
    player: Option<String>,
    /// The player's prompt is due: on connection and after a step begins.
    prompt_due: bool,
}

fn last_event_id(headers: &HeaderMap) -> i64 {
    headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .unwrap_or(0)
}

fn open(app: AppState, lobby: Uuid, last: i64, player: Option<String>) -> impl IntoResponse {
    // Subscribe before the first read, so that nothing published in between is missed.
    let wake = app.host.notifier().subscribe(lobby);
    let shutdown = app.shutdown.clone();
    let prompt_due = player.is_some();
    let feed = Feed {
        app,
        lobby,
        last,
        buffer: VecDeque::new(),
        wake,
        shutdown,
        player,
        prompt_due,
    };
    Sse::new(events(feed)).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}

pub async fn stream_events(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<impl IntoResponse, AppError> {
    let lobby = lobby_id(&id)?;
    // 404 for a lobby that does not exist, before the stream starts.
    app.host.lobby(lobby).await?;
    Ok(open(app, lobby, last_event_id(&headers), None))
}

/// The player's own stream: public events plus `prompt` events (the player's private view,
/// sent on connection and whenever a new step begins).
pub async fn stream_player_events(
    State(app): State<AppState>,
    Path(id): Path<String>,
    token: Token,
    headers: HeaderMap,
) -> Result<impl IntoResponse, AppError> {
    let lobby = lobby_id(&id)?;
    // Authenticate before the stream starts: 401/403/404 as for `me`.
    app.host.me(lobby, token.as_deref()).await?;
    Ok(open(app, lobby, last_event_id(&headers), token.0))
}

fn events(feed: Feed) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(feed, |mut feed| async move {
        loop {
            if let Some(row) = feed.buffer.pop_front() {
                feed.last = row.seq;
                feed.prompt_due |= matches!(row.kind.as_str(), "started" | "step-resolved");
                let event = Event::default()
                    .id(row.seq.to_string())
                    .event(row.kind)
                    .data(row.data);
                return Some((Ok(event), feed));
            }
            match feed
                .app
                .host
                .store()
                .events_after(feed.lobby, feed.last)
                .await
            {
                Ok(rows) if !rows.is_empty() => {
                    feed.buffer.extend(rows);
                    continue;
                }
                // Caught up: the prompt (if one is due) reflects the latest state.
                Ok(_) if feed.prompt_due => {
                    feed.prompt_due = false;
                    if let Some(event) = prompt_event(&feed).await {
                        return Some((Ok(event), feed));
                    }
                }
                Ok(_) => {}
                Err(error) => {
                    tracing::warn!(%error, lobby = %feed.lobby, "event stream ended by a database error");
                    return None;
                }
            }
            tokio::select! {
                changed = feed.wake.changed() => if changed.is_err() { return None },
                _ = feed.shutdown.changed() => return None,
            }
        }
    })
}

/// The player's private view as a `prompt` event, if they owe an answer now.
async fn prompt_event(feed: &Feed) -> Option<Event> {
    let me = feed
        .app
        .host
        .me(feed.lobby, feed.player.as_deref())
        .await
        .ok()?;
    me.prompt.as_ref()?;
    let data = serde_json::to_string(&me).ok()?;
    Some(
        Event::default()
            .id(feed.last.to_string())
            .event("prompt")
            .data(data),
    )
}
