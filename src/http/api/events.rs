//! Server-Sent Events. The lobby stream is public: who joined, who submitted, which step or
//! round resolved, never what anyone ordered. The player stream (for bots) carries the same
//! public events plus a `prompt` event, with the player's own private view, whenever a new step
//! begins and on (re)connection. Either takes `?events=kind,kind` to receive only those kinds.
//!
//! A stream reads the database to catch up (on connection, after `Last-Event-ID`, after a gap)
//! and otherwise takes each commit's events from the store's in-memory feed, in order, so that
//! a lobby's listeners do not each query the database whenever one of its players submits.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use serde::Deserialize;
use tokio::sync::{broadcast, watch};
use uuid::Uuid;

use crate::error::AppError;
use crate::events::{EventKind, Message};
use crate::http::AppState;
use crate::http::extract::{ApiPath, Token, lobby_id};
use crate::store::EventRow;
use crate::store::feed::{Subscription, is_turn};

/// The player stream's own kind.
const PROMPT: &str = "prompt";

/// Events an idle stream keeps room for: one commit's worth, usually.
const IDLE_BUFFER: usize = 4;

struct Listener {
    app: AppState,
    lobby: Uuid,
    last: i64,
    buffer: VecDeque<EventRow>,
    /// Whether the database may hold events after `last` that the feed will not bring: on
    /// connection, and after a gap or a lag.
    catch_up: bool,
    commits: Subscription,
    /// Whether `commits` brings only the commits that turn the game (see `feed.rs`): then
    /// consecutive publications skip event numbers by design.
    turns_only: bool,
    shutdown: watch::Receiver<bool>,
    /// The player's token, for the player stream.
    player: Option<String>,
    /// The player's id, for the player stream: which private messages it carries.
    reader: Option<Uuid>,
    /// The player's prompt is due: on connection and after a step begins.
    prompt_due: bool,
    /// The kinds to send; None for all.
    only: Option<Vec<String>>,
}

impl Listener {
    /// Whether this stream may carry `row`: a private message only to its sender's and
    /// recipients' player streams (docs/table-talk.md), everything else to every stream.
    fn may_see(&self, row: &EventRow) -> bool {
        if row.kind != EventKind::Message.as_str() {
            return true;
        }
        serde_json::from_str::<Message>(&row.data)
            .is_ok_and(|message| message.to.readable_by(message.from, self.reader))
    }

    fn wants(&self, kind: &str) -> bool {
        self.only
            .as_ref()
            .is_none_or(|only| only.iter().any(|k| k == kind))
    }

    /// Takes one commit's events from the in-memory feed, unless they do not follow on.
    fn take(&mut self, events: &[EventRow]) {
        let newest_held = self.buffer.back().map_or(self.last, |row| row.seq);
        match events.first() {
            Some(first) if first.seq > newest_held + 1 && !self.turns_only => self.catch_up = true,
            _ => self
                .buffer
                .extend(events.iter().filter(|e| e.seq > newest_held).cloned()),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamQuery {
    /// Comma-separated event kinds to receive; all if absent.
    events: Option<String>,
    /// Start after this event number when no `Last-Event-ID` says more: a page rendered at
    /// event n listens from n on instead of replaying the lobby's whole history.
    after: Option<u64>,
}

/// The most events a stream replays when it connects. A replay costs a read and a send per
/// event (a few milliseconds of CPU for a few hundred), and any client may ask for one, as often
/// as it likes; past the bound the stream starts from now, with the standing prompt, which is
/// what a reconnecting bot needs (the lobby's state is in `GET /lobbies/{id}` and `me`).
pub const MAX_REPLAY: i64 = 256;

/// Where a stream starts: after the later of `Last-Event-ID` and `?after=`, if the lobby knows
/// that event and at most [`MAX_REPLAY`] came after it; otherwise after `newest`, the lobby's
/// last event (from now). An id the lobby does not know (junk, or beyond its last event, as
/// after a restore from an older backup) would otherwise silence the stream until the lobby
/// caught up with it, or replay everything.
fn start(query: &StreamQuery, headers: &HeaderMap, newest: i64) -> i64 {
    let after = query
        .after
        .map_or(0, |after| i64::try_from(after).unwrap_or(i64::MAX));
    let Some(asked) = last_event_id(headers) else {
        return newest;
    };
    let from = asked.max(after);
    if from > newest || newest - from > MAX_REPLAY {
        newest
    } else {
        from
    }
}

/// The `Last-Event-ID` sent (0 if none); `None` if it is not an event id at all.
fn last_event_id(headers: &HeaderMap) -> Option<i64> {
    let Some(value) = headers.get("last-event-id") else {
        return Some(0);
    };
    value
        .to_str()
        .ok()
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|id| *id >= 0)
}

/// The kinds asked for, each one this stream can carry; None for all. The list is exactly
/// `kind,kind,...` (no spaces, no empty items), as the document's pattern says.
fn kinds(query: &StreamQuery, player: bool) -> Result<Option<Vec<String>>, AppError> {
    let Some(list) = &query.events else {
        return Ok(None);
    };
    let known = |kind: &str| EventKind::parse(kind).is_some() || (player && kind == PROMPT);
    match list.split(',').find(|kind| !known(kind)) {
        None => Ok(Some(list.split(',').map(str::to_string).collect())),
        Some(kind) => {
            let mut all: Vec<&str> = EventKind::ALL.iter().map(|k| k.as_str()).collect();
            if player {
                all.push(PROMPT);
            }
            Err(AppError::malformed(
                "invalid-query",
                format!(
                    "Unknown event kind {kind:?}: this stream carries {} (comma-separated, no spaces).",
                    all.join(", ")
                ),
            ))
        }
    }
}

fn open(
    app: AppState,
    lobby: Uuid,
    last: i64,
    player: Option<(String, Uuid)>,
    only: Option<Vec<String>>,
) -> impl IntoResponse {
    let (player, reader) = player.unzip();
    // A stream that wants nothing but turns and prompts need not wake for every submission.
    let turns_only = only
        .as_ref()
        .is_some_and(|only| only.iter().all(|kind| kind == PROMPT || is_turn(kind)));
    // Subscribe before the first read, so that nothing committed in between is missed.
    let commits = app.host.feed().subscribe(lobby, turns_only);
    let shutdown = app.shutdown.clone();
    let prompt_due = player.is_some();
    let feed = Listener {
        app,
        lobby,
        last,
        buffer: VecDeque::new(),
        catch_up: true,
        commits,
        turns_only,
        shutdown,
        player,
        reader,
        prompt_due,
        only,
    };
    Sse::new(events(feed)).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}

pub async fn stream_events(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    query: Result<Query<StreamQuery>, axum::extract::rejection::QueryRejection>,
    headers: HeaderMap,
) -> Result<impl IntoResponse, AppError> {
    let lobby = lobby_id(&id)?;
    let Query(query) = query.map_err(|e| AppError::malformed("invalid-query", e.body_text()))?;
    let only = kinds(&query, false)?;
    // 404 for a lobby that does not exist, before the stream starts.
    let newest = app.host.last_event_seq(lobby).await?;
    Ok(open(
        app,
        lobby,
        start(&query, &headers, newest),
        None,
        only,
    ))
}

/// The player's own stream: public events plus `prompt` events (the player's private view,
/// sent on connection and whenever a new step begins).
pub async fn stream_player_events(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    query: Result<Query<StreamQuery>, axum::extract::rejection::QueryRejection>,
    token: Token,
    headers: HeaderMap,
) -> Result<impl IntoResponse, AppError> {
    let lobby = lobby_id(&id)?;
    let Query(query) = query.map_err(|e| AppError::malformed("invalid-query", e.body_text()))?;
    let only = kinds(&query, true)?;
    // Authenticate before the stream starts: 401/403/404 as for `me`.
    let reader = app.host.player_id(lobby, token.as_deref()).await?;
    let newest = app.host.last_event_seq(lobby).await?;
    Ok(open(
        app,
        lobby,
        start(&query, &headers, newest),
        token.0.map(|token| (token, reader)),
        only,
    ))
}

fn events(feed: Listener) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(feed, |mut feed| async move {
        loop {
            if let Some(row) = feed.buffer.pop_front() {
                if row.seq <= feed.last {
                    continue;
                }
                feed.last = row.seq;
                // A new step may owe this player an answer; a seat's new token or a removed
                // sign-up may mean this stream's token is no longer the player's.
                feed.prompt_due |=
                    EventKind::parse(&row.kind).is_some_and(EventKind::may_change_prompt);
                if !feed.wants(&row.kind) || !feed.may_see(&row) {
                    continue;
                }
                let event = Event::default()
                    .id(row.seq.to_string())
                    .event(row.kind)
                    .data(row.data);
                return Some((Ok(event), feed));
            }
            if feed.catch_up {
                // Boxed, as is the prompt below: the stream's state is held for as long as it
                // is open, so what it needs only now and then is allocated only then.
                let host = &feed.app.host;
                match Box::pin(host.events_after(feed.lobby, feed.last)).await {
                    Ok(rows) if !rows.is_empty() => {
                        feed.buffer.extend(rows);
                        continue;
                    }
                    Ok(_) => feed.catch_up = false,
                    Err(error) => {
                        tracing::warn!(%error, lobby = %feed.lobby, "event stream ended by a database error");
                        return None;
                    }
                }
            }
            // Caught up: the prompt (if one is due) reflects the latest state. A player stream
            // whose token the lobby no longer knows (a substitute, a new link, a removed
            // sign-up) ends: its holder is no longer the player.
            if feed.prompt_due && feed.player.is_some() {
                feed.prompt_due = false;
                match Box::pin(prompt_event(&feed)).await {
                    Err(Revoked) => return None,
                    Ok(Some(event)) if feed.wants(PROMPT) => return Some((Ok(event), feed)),
                    Ok(_) => {}
                }
            }
            // Idle until the next commit, which is most of a bot's life: a stream that caught
            // up on a long history (up to a page of 500 rows) must not keep the room it took.
            feed.buffer.shrink_to(IDLE_BUFFER);
            tokio::select! {
                received = feed.commits.recv() => match received {
                    Ok(events) => feed.take(&events),
                    // Fell behind the feed: the database has every event.
                    Err(broadcast::error::RecvError::Lagged(_)) => feed.catch_up = true,
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
                _ = feed.shutdown.changed() => return None,
            }
        }
    })
}

/// The stream's token no longer belongs to a player of the lobby.
struct Revoked;

/// The player's private view as a `prompt` event, if they owe an answer now.
async fn prompt_event(feed: &Listener) -> Result<Option<Event>, Revoked> {
    let me = match feed.app.host.me(feed.lobby, feed.player.as_deref()).await {
        Ok(me) => me,
        Err(error) if error.status() == axum::http::StatusCode::UNAUTHORIZED => {
            return Err(Revoked);
        }
        Err(_) => return Ok(None),
    };
    if me.prompt.is_none() {
        return Ok(None);
    }
    let Ok(data) = serde_json::to_string(&me) else {
        return Ok(None);
    };
    Ok(Some(
        Event::default()
            .id(feed.last.to_string())
            .event("prompt")
            .data(data),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_starts_from_a_known_recent_event_or_else_from_now() {
        let headers = |id: Option<&'static str>| {
            let mut headers = HeaderMap::new();
            if let Some(id) = id {
                headers.insert("last-event-id", id.parse().unwrap());
            }
            headers
        };
        let query = |after: Option<u64>| StreamQuery {
            events: None,
            after,
        };
        let newest = 300;
        assert_eq!(start(&query(None), &headers(Some("290")), newest), 290);
        assert_eq!(start(&query(Some(295)), &headers(Some("290")), newest), 295);
        assert_eq!(start(&query(None), &headers(Some("300")), newest), 300);
        for unknown in ["301", "junk", "-1", "1.5"] {
            assert_eq!(start(&query(None), &headers(Some(unknown)), newest), 300);
        }
        assert_eq!(start(&query(Some(9999)), &headers(None), newest), 300);
        // The whole history, if it is short enough.
        assert_eq!(start(&query(None), &headers(None), MAX_REPLAY), 0);
        assert_eq!(
            start(&query(None), &headers(None), MAX_REPLAY + 1),
            MAX_REPLAY + 1
        );
        assert_eq!(start(&query(None), &headers(Some("43")), 300), 300);
        assert_eq!(start(&query(None), &headers(Some("44")), 300), 44);
    }

    #[test]
    fn a_stream_takes_only_the_kinds_it_carries() {
        let ask = |events: &str| StreamQuery {
            events: Some(events.into()),
            after: None,
        };
        assert_eq!(
            kinds(&ask("prompt,finished"), true).unwrap(),
            Some(vec!["prompt".to_string(), "finished".to_string()])
        );
        assert!(
            kinds(&ask("prompt"), false).is_err(),
            "no prompts in public"
        );
        assert!(kinds(&ask("orders"), true).is_err());
        assert!(kinds(&ask("prompt, finished"), true).is_err(), "no spaces");
        assert!(kinds(&ask("prompt,"), true).is_err(), "no empty item");
        assert!(kinds(&ask(""), true).is_err(), "no empty list");
        assert_eq!(
            kinds(
                &StreamQuery {
                    events: None,
                    after: None
                },
                true
            )
            .unwrap(),
            None
        );
    }
}
