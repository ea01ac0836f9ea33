//! The profile's stream, `GET /api/v1/me/events` (docs/bots.md, "One stream for all of a
//! profile's seats"): one Server-Sent Events stream over every seat a profile holds, as a
//! Lichess bot account has. It opens with `seats` (the list `GET /api/v1/me` gives), then
//! sends `prompt` (the seat's `me` view, which names its lobby) whenever a seat owes an answer
//! it has not been sent, `finished` `{"lobby", "result"}` when a seat's game ends, and
//! `challenge` for each open challenge to the profile. A new connection sends every standing
//! prompt and open challenge again: a bot that reconnects needs nothing else.
//!
//! The stream keeps no game state: it listens to the turns of each seat's lobby in the store's
//! feed (`feed.rs`; another process's commits arrive there as wake-ups on PostgreSQL) and to
//! the profile's bell (`bells.rs`: a new seat, a challenge), and asks the host again whenever
//! one of them speaks.

use std::collections::{HashMap, HashSet, VecDeque};
use std::convert::Infallible;
use std::pin::Pin;
use std::time::Duration;

use axum::extract::State;
use axum::response::IntoResponse;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{AbortHandle, Abortable, SelectAll};
use futures_util::{Stream, StreamExt};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;
use uuid::Uuid;

use crate::error::AppError;
use crate::host::profile_seats::SeatView;
use crate::host::profile_stream::SeatNow;
use crate::http::AppState;
use crate::http::extract::Token;
use crate::store::Status;
use crate::store::bells::Bell;
use crate::store::feed::Subscription;

/// One lobby's turns, as the lobby's id each time it turns.
type Turns = Pin<Box<dyn Stream<Item = Uuid> + Send>>;

/// A seat the stream follows.
struct Followed {
    /// Ends the seat's listening when the seat is done with.
    abort: AbortHandle,
    /// The prompt last sent for it (its JSON text), so that a turn that leaves it standing
    /// does not send it twice.
    sent: Option<String>,
}

struct ProfileStream {
    app: AppState,
    profile: Uuid,
    bell: Bell,
    turns: SelectAll<Turns>,
    seats: HashMap<Uuid, Followed>,
    /// Seats to ask the host about, oldest first, each once.
    due: VecDeque<Uuid>,
    queued: HashSet<Uuid>,
    /// Whether the bell rang and the seats (and challenges) must be read again.
    recount: bool,
    /// The challenges already sent.
    challenges: HashSet<Uuid>,
    out: VecDeque<Event>,
    shutdown: watch::Receiver<bool>,
}

/// A lobby's turns as a stream of its id: each commit that turns the game, and each wake-up
/// (another process's commit, a lag) that may hide one.
fn turns_of(
    lobby: Uuid,
    subscription: Subscription,
    registration: futures_util::stream::AbortRegistration,
) -> Turns {
    let turns = futures_util::stream::unfold(subscription, move |mut subscription| async move {
        match subscription.recv().await {
            Ok(_) | Err(RecvError::Lagged(_)) => Some((lobby, subscription)),
            Err(RecvError::Closed) => None,
        }
    });
    Box::pin(Abortable::new(turns, registration))
}

impl ProfileStream {
    /// Follows the seat in `lobby` (from now on), and asks about it.
    fn follow(&mut self, lobby: Uuid) {
        if self.seats.contains_key(&lobby) {
            return;
        }
        let (abort, registration) = AbortHandle::new_pair();
        self.turns.push(turns_of(
            lobby,
            self.app.host.lobby_turns(lobby),
            registration,
        ));
        self.seats.insert(lobby, Followed { abort, sent: None });
        self.ask(lobby);
    }

    fn ask(&mut self, lobby: Uuid) {
        if self.queued.insert(lobby) {
            self.due.push_back(lobby);
        }
    }

    fn unfollow(&mut self, lobby: Uuid) {
        if let Some(followed) = self.seats.remove(&lobby) {
            followed.abort.abort();
        }
    }

    /// Follows every seat of `seats` whose game is not over.
    fn follow_all(&mut self, seats: &[SeatView]) {
        for seat in seats {
            match seat.status {
                Status::Finished => {}
                Status::Signups | Status::Closed | Status::Running => self.follow(seat.lobby),
            }
        }
    }

    /// Asks the host where the seat in `lobby` stands, and queues what it says.
    async fn look(&mut self, lobby: Uuid) -> Result<(), AppError> {
        if !self.seats.contains_key(&lobby) {
            return Ok(());
        }
        match self.app.host.seat_now(lobby, self.profile).await? {
            SeatNow::Owes { me, prompt } => {
                let Some(followed) = self.seats.get_mut(&lobby) else {
                    return Ok(());
                };
                if followed.sent.as_deref() != Some(prompt.as_str()) {
                    followed.sent = Some(prompt);
                    self.out
                        .push_back(Event::default().event("prompt").data(me));
                }
            }
            SeatNow::Finished(result) => {
                self.unfollow(lobby);
                let data = serde_json::json!({"lobby": lobby, "result": result});
                self.out
                    .push_back(Event::default().event("finished").data(data.to_string()));
            }
            SeatNow::Waiting => {
                if let Some(followed) = self.seats.get_mut(&lobby) {
                    followed.sent = None;
                }
            }
            SeatNow::Gone => self.unfollow(lobby),
        }
        Ok(())
    }

    /// Reads the profile's seats and open challenges again (its bell rang).
    async fn recount(&mut self) -> Result<(), AppError> {
        let seats = self.app.host.seat_views(self.profile).await?;
        self.follow_all(&seats);
        self.challenges().await
    }

    /// Queues every open challenge to the profile not sent yet.
    async fn challenges(&mut self) -> Result<(), AppError> {
        for challenge in self.app.host.challenges_to(self.profile).await? {
            if self.challenges.insert(challenge.id) {
                let data = serde_json::to_string(&challenge).unwrap_or_default();
                self.out
                    .push_back(Event::default().event("challenge").data(data));
            }
        }
        Ok(())
    }
}

pub async fn stream_profile_events(
    State(app): State<AppState>,
    token: Token,
) -> Result<impl IntoResponse, AppError> {
    // The bell first: a seat taken after the seats are read still rings it.
    let (profile, bell) = app.host.profile_bell(token.as_deref()).await?;
    let seats = app.host.seat_views(profile).await?;
    let opening = Event::default()
        .event("seats")
        .data(crate::host::engine::to_text(&seats)?);
    let shutdown = app.shutdown.clone();
    let mut stream = ProfileStream {
        app,
        profile,
        bell,
        turns: SelectAll::new(),
        seats: HashMap::new(),
        due: VecDeque::new(),
        queued: HashSet::new(),
        recount: false,
        challenges: HashSet::new(),
        out: VecDeque::from([opening]),
        shutdown,
    };
    stream.follow_all(&seats);
    stream.challenges().await?;
    Ok(Sse::new(events(stream)).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

fn events(stream: ProfileStream) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(stream, |mut stream| async move {
        loop {
            if let Some(event) = stream.out.pop_front() {
                return Some((Ok(event), stream));
            }
            let asked = if stream.recount {
                stream.recount = false;
                Box::pin(stream.recount()).await
            } else if let Some(lobby) = stream.due.pop_front() {
                stream.queued.remove(&lobby);
                Box::pin(stream.look(lobby)).await
            } else {
                // Idle until a seat's lobby turns or the bell rings.
                tokio::select! {
                    Some(lobby) = stream.turns.next() => stream.ask(lobby),
                    () = stream.bell.rung() => stream.recount = true,
                    _ = stream.shutdown.changed() => return None,
                }
                Ok(())
            };
            if let Err(error) = asked {
                tracing::warn!(%error, profile = %stream.profile, "a profile's stream ended by an error");
                return None;
            }
        }
    })
}
