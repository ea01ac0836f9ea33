//! The per-lobby Server-Sent Events stream. Events are read from the database (so a client that
//! reconnects with `Last-Event-ID` resumes where it left off); the in-process notifier only
//! says when to look again. Every event here is public: who joined, who submitted, which step
//! or round resolved, never what anyone ordered.

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
use crate::http::extract::lobby_id;
use crate::store::EventRow;

struct Feed {
    app: AppState,
    lobby: Uuid,
    last: i64,
    buffer: VecDeque<EventRow>,
    wake: watch::Receiver<i64>,
    shutdown: watch::Receiver<bool>,
}

pub async fn stream_events(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<impl IntoResponse, AppError> {
    let lobby = lobby_id(&id)?;
    // 404 for a lobby that does not exist, before the stream starts.
    app.host.lobby(lobby).await?;
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .unwrap_or(0);
    // Subscribe before the first read, so that nothing published in between is missed.
    let wake = app.host.notifier().subscribe(lobby);
    let shutdown = app.shutdown.clone();
    let feed = Feed {
        app,
        lobby,
        last,
        buffer: VecDeque::new(),
        wake,
        shutdown,
    };
    Ok(Sse::new(events(feed)).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

fn events(feed: Feed) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(feed, |mut feed| async move {
        loop {
            if let Some(row) = feed.buffer.pop_front() {
                feed.last = row.seq;
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
