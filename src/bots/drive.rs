//! How the load generator's bots learn what they owe, three ways: each bot on its own event
//! stream (as the reference bot plays), each lobby polled (the default), or each profile on
//! one stream for all its seats (as a bot account plays).

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::Instant;

use futures_util::StreamExt;
use futures_util::future::join_all;
use futures_util::stream::FuturesUnordered;
use rand::SeedableRng;
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::sync::Semaphore;

use super::client::Api;
pub use super::load_plan::Drive;
use super::load_plan::{LoadArgs, Table, Tally};
use super::policy;
use super::wire::Wire;

/// What every bot of a run shares.
pub(super) struct Bots<'a> {
    /// For the event streams.
    pub api: &'a Api,
    /// For every other call of a game.
    pub wire: &'a Wire,
    pub args: &'a LoadArgs,
    /// Requests in flight (not open streams).
    pub gate: &'a Semaphore,
    pub tally: &'a Mutex<Tally>,
}

impl Bots<'_> {
    /// Plays every lobby to the end, the chosen way: lobby by lobby, or (`Drive::Profiles`)
    /// each of the `holders`' profiles on its one stream over all its seats.
    pub async fn play_all(&self, tables: &[Table], holders: &[String]) {
        match self.args.drive {
            Drive::Profiles => {
                join_all(
                    holders
                        .iter()
                        .enumerate()
                        .map(|(k, key)| self.serve_profile(key, k)),
                )
                .await;
            }
            Drive::Streams | Drive::Poll => {
                join_all(
                    tables
                        .iter()
                        .enumerate()
                        .map(|(i, table)| self.play(table, i)),
                )
                .await;
            }
        }
    }

    /// Plays one lobby to the end, the chosen way, and counts its game and rounds.
    async fn play(&self, table: &Table, i: usize) {
        let rng = Mutex::new(rand_chacha::ChaCha8Rng::seed_from_u64(
            self.args.seed ^ (i as u64) << 20,
        ));
        let played = match self.args.drive {
            Drive::Streams => {
                join_all(
                    table
                        .players
                        .iter()
                        .map(|(_, token)| self.listen(table, token, &rng)),
                )
                .await;
                true
            }
            Drive::Poll => self.poll(table, &rng).await,
            // The profiles' streams play all the lobbies at once (`play_all`).
            Drive::Profiles => false,
        };
        if played {
            self.count_game(&table.id).await;
        }
    }

    /// Counts a finished game and its rounds.
    async fn count_game(&self, lobby: &str) {
        match self.glance(lobby).await {
            Some(view) if view.status == "finished" => {
                // The round number stays at the last round played once a game is over.
                let mut t = self.tally.lock().unwrap_or_else(|e| e.into_inner());
                t.games += 1;
                t.rounds += view.round.unwrap_or(0);
            }
            Some(_) => self.error("unfinished"),
            None => self.error("lobby-view"),
        }
    }

    /// Profile `k` on its one stream (`/api/v1/me/events`): answers each seat's prompt, many
    /// at once, until none of its seats is left to play; the first profile also counts each
    /// game as it ends. A stream that ends early is opened again (the server sends the standing prompts
    /// again), a few times.
    async fn serve_profile(&self, key: &str, k: usize) {
        let rng = Mutex::new(rand_chacha::ChaCha8Rng::seed_from_u64(
            self.args.seed ^ ((k as u64 + 1) << 40),
        ));
        // The lobbies still in play, known once the stream's opening `seats` has come.
        let mut playing: Option<HashSet<String>> = None;
        for _ in 0..=STREAM_RETRIES {
            let opened = {
                let _permit = self.gate.acquire().await.expect("the gate is never closed");
                self.api.profile_events(key).await
            };
            let Ok(mut events) = opened else {
                return self.error("profile-stream");
            };
            let mut answering: FuturesUnordered<Answering<'_>> = FuturesUnordered::new();
            loop {
                tokio::select! {
                    event = events.next() => {
                        let Some(event) = event else { break };
                        match SeatEvent::read(&event.kind, &event.text) {
                            Some(SeatEvent::Seats(open)) => playing = Some(open),
                            Some(SeatEvent::Prompt(lobby)) => {
                                let rng = &rng;
                                answering.push(Box::pin(async move {
                                    self.answer(&lobby, key, &event.text, rng).await
                                }));
                            }
                            Some(SeatEvent::Finished(lobby)) => {
                                if let Some(playing) = playing.as_mut() {
                                    playing.remove(&lobby);
                                }
                                // Every lobby's first seat is the first profile's: it alone
                                // counts the games, each once.
                                if k == 0 {
                                    answering.push(Box::pin(async move {
                                        self.count_game(&lobby).await
                                    }));
                                }
                            }
                            None => {}
                        }
                    }
                    Some(()) = answering.next(), if !answering.is_empty() => {}
                }
                if playing.as_ref().is_some_and(HashSet::is_empty) {
                    break;
                }
            }
            while answering.next().await.is_some() {}
            if playing.as_ref().is_some_and(HashSet::is_empty) {
                return;
            }
            self.error("profile-stream-ended");
        }
    }

    /// One bot on its own stream: answers each prompt until the game is over.
    async fn listen(&self, table: &Table, token: &str, rng: &Mutex<rand_chacha::ChaCha8Rng>) {
        let opened = {
            // Connecting is a request; the open stream that follows is not one in flight.
            let _permit = self.gate.acquire().await.expect("the gate is never closed");
            self.api
                .player_events(&table.id, token, None, Some("prompt,finished"))
                .await
        };
        let Ok(mut events) = opened else {
            return self.error("stream");
        };
        while let Some(event) = events.next().await {
            match event.kind.as_str() {
                "prompt" if !answered(&event.text) => {
                    self.answer(&table.id, token, &event.text, rng).await
                }
                "finished" => return,
                _ => {}
            }
        }
        self.error("stream-ended");
    }

    /// Polls one lobby: returns false if it could not be read.
    async fn poll(&self, table: &Table, rng: &Mutex<rand_chacha::ChaCha8Rng>) -> bool {
        loop {
            let Some(view) = self.glance(&table.id).await else {
                self.error("lobby-view");
                return false;
            };
            if view.status == "finished" {
                return true;
            }
            let owed = table.players.iter().filter(|(id, _)| view.owes(id));
            join_all(owed.map(|(_, token)| async move {
                let me = {
                    let _permit = self.gate.acquire().await.expect("the gate is never closed");
                    let path = format!("/api/v1/lobbies/{}/me", table.id);
                    self.wire.get(&path, Some(token)).await
                };
                match me.ok().map(|bytes| String::from_utf8(bytes.into())) {
                    Some(Ok(me)) => self.answer(&table.id, token, &me, rng).await,
                    _ => self.error("me"),
                }
            }))
            .await;
        }
    }

    /// Chooses an answer to the prompt in `me` (the view's JSON text) and sends it.
    async fn answer(
        &self,
        lobby: &str,
        token: &str,
        me: &str,
        rng: &Mutex<rand_chacha::ChaCha8Rng>,
    ) {
        let order = {
            let mut rng = rng.lock().unwrap_or_else(|e| e.into_inner());
            policy::answer_json(me, self.args.strategy, &mut *rng)
        };
        let Some(order) = order else { return };
        if self.args.messages {
            self.talk(lobby, token, &order).await;
        }
        let path = format!("/api/v1/lobbies/{lobby}/orders");
        let body = serde_json::to_vec(&order).expect("a JSON value always serializes");
        let _permit = self.gate.acquire().await.expect("the gate is never closed");
        let sent = Instant::now();
        let result = self.wire.post(&path, token, body).await;
        let took = u32::try_from(sent.elapsed().as_micros()).unwrap_or(u32::MAX);
        let mut t = self.tally.lock().unwrap_or_else(|e| e.into_inner());
        match result {
            Ok(receipt) => {
                t.latencies_us.push(took);
                t.orders += 1;
                t.steps += u64::from(resolved(&receipt));
            }
            Err(error) => {
                *t.errors
                    .entry(format!("{} {}", error.status, error.code))
                    .or_default() += 1
            }
        }
    }

    /// A word to everyone before the answer (`--messages`): its time is not an order's.
    async fn talk(&self, lobby: &str, token: &str, order: &serde_json::Value) {
        let text = format!("Round {}: my answer is in.", order["round"]);
        let body = serde_json::json!({"to": "all", "text": text});
        let body = serde_json::to_vec(&body).expect("a JSON value always serializes");
        let path = format!("/api/v1/lobbies/{lobby}/messages");
        let _permit = self.gate.acquire().await.expect("the gate is never closed");
        let result = self.wire.post(&path, token, body).await;
        let mut t = self.tally.lock().unwrap_or_else(|e| e.into_inner());
        match result {
            Ok(_) => t.messages += 1,
            Err(error) => {
                *t.errors
                    .entry(format!("message {} {}", error.status, error.code))
                    .or_default() += 1
            }
        }
    }

    async fn glance(&self, lobby: &str) -> Option<LobbyGlance> {
        let path = format!("/api/v1/lobbies/{lobby}");
        let bytes = {
            let _permit = self.gate.acquire().await.expect("the gate is never closed");
            self.wire.get(&path, None).await.ok()?
        };
        serde_json::from_slice(&bytes).ok()
    }

    fn error(&self, what: &str) {
        *self
            .tally
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .errors
            .entry(what.to_string())
            .or_default() += 1;
    }
}

/// A profile's answer or count in flight while its stream goes on.
type Answering<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// How many times a profile's stream that ends before its games do is opened again.
const STREAM_RETRIES: usize = 3;

/// What a profile's stream says that its player acts on.
#[derive(Debug, PartialEq, Eq)]
enum SeatEvent {
    /// The opening list of seats: the lobbies whose game is not over.
    Seats(HashSet<String>),
    /// An answer owed in this lobby, not yet given.
    Prompt(String),
    /// This lobby's game is over.
    Finished(String),
}

impl SeatEvent {
    /// The event of kind `kind` with data `text` (JSON), when it is one to act on.
    fn read(kind: &str, text: &str) -> Option<SeatEvent> {
        /// A prompt's or an end's lobby.
        #[derive(Deserialize)]
        struct Of {
            lobby: String,
        }
        let lobby = || serde_json::from_str::<Of>(text).ok().map(|of| of.lobby);
        match kind {
            "seats" => Some(SeatEvent::Seats(super::profile_bot::open_seats(
                &serde_json::from_str(text).ok()?,
            ))),
            "prompt" if !answered(text) => lobby().map(SeatEvent::Prompt),
            "finished" => lobby().map(SeatEvent::Finished),
            _ => None,
        }
    }
}

/// Whether the `me` view (JSON text) already holds an answer to its prompt (a prompt sent
/// again, as after a reconnection).
fn answered(me: &str) -> bool {
    #[derive(Deserialize)]
    struct Pending<'a> {
        #[serde(borrow)]
        pending: Option<&'a RawValue>,
    }
    serde_json::from_str::<Pending>(me).is_ok_and(|me| me.pending.is_some())
}

/// Whether an order receipt (JSON text) says the order completed its step.
fn resolved(receipt: &[u8]) -> bool {
    #[derive(Deserialize)]
    struct Receipt {
        resolved: bool,
    }
    serde_json::from_slice::<Receipt>(receipt).is_ok_and(|r| r.resolved)
}

/// The parts of the public lobby view the load generator reads (the rest is skipped unparsed).
#[derive(Deserialize)]
struct LobbyGlance {
    status: String,
    round: Option<u64>,
    players: Vec<PlayerGlance>,
}

#[derive(Deserialize)]
struct PlayerGlance {
    id: String,
    #[serde(default)]
    owes: bool,
    #[serde(default)]
    submitted: bool,
}

impl LobbyGlance {
    /// Whether `player` owes an answer they have not sent yet.
    fn owes(&self, player: &str) -> bool {
        self.players
            .iter()
            .any(|p| p.id == player && p.owes && !p.submitted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_player_owes_only_while_unanswered() {
        let text = json!({"status": "running", "round": 1, "players": [
            {"id": "a", "name": "Ann", "owes": true, "submitted": false},
            {"id": "b", "name": "Bob", "owes": true, "submitted": true}]})
        .to_string();
        let view: LobbyGlance = serde_json::from_str(&text).unwrap();
        assert!(view.owes("a"));
        assert!(!view.owes("b"));
        assert!(!view.owes("c"));
    }

    #[test]
    fn a_receipt_counts_a_step_only_when_it_resolved_it() {
        assert!(resolved(
            br#"{"round": 1, "order": {"move": "block"}, "resolved": true}"#
        ));
        assert!(!resolved(br#"{"round": 1, "resolved": false}"#));
        assert!(!resolved(b"not json"));
    }

    #[test]
    fn a_profiles_stream_is_read_for_its_open_seats_prompts_and_ends() {
        let seats = json!([
            {"lobby": "a", "status": "running", "owes": true},
            {"lobby": "b", "status": "finished"},
            {"lobby": "c", "status": "signups"}])
        .to_string();
        assert_eq!(
            SeatEvent::read("seats", &seats),
            Some(SeatEvent::Seats(HashSet::from(["a".into(), "c".into()])))
        );
        let prompt = json!({"lobby": "a", "prompt": {"round": 2}, "pending": null}).to_string();
        assert_eq!(
            SeatEvent::read("prompt", &prompt),
            Some(SeatEvent::Prompt("a".into()))
        );
        let sent_again =
            json!({"lobby": "a", "prompt": {"round": 2}, "pending": {"move": "block"}});
        assert_eq!(SeatEvent::read("prompt", &sent_again.to_string()), None);
        let over = json!({"lobby": "c", "result": {"winners": []}}).to_string();
        assert_eq!(
            SeatEvent::read("finished", &over),
            Some(SeatEvent::Finished("c".into()))
        );
        assert_eq!(SeatEvent::read("challenge", &over), None);
        assert_eq!(SeatEvent::read("seats", "not json"), None);
    }

    #[test]
    fn a_prompt_already_answered_is_not_answered_again() {
        assert!(answered(
            r#"{"prompt": {"round": 1}, "pending": {"move": "block"}}"#
        ));
        assert!(!answered(r#"{"prompt": {"round": 1}, "pending": null}"#));
    }
}
