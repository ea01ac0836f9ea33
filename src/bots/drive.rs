//! How the load generator's bots learn what they owe, two ways: each bot on its own event
//! stream (as the reference bot plays), or each lobby polled (the default).

use std::sync::Mutex;
use std::time::Instant;

use futures_util::future::join_all;
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
    /// Plays one lobby to the end, the chosen way, and counts its game and rounds.
    pub async fn play(&self, table: &Table, i: usize) {
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
        };
        if !played {
            return;
        }
        match self.glance(&table.id).await {
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
    fn a_prompt_already_answered_is_not_answered_again() {
        assert!(answered(
            r#"{"prompt": {"round": 1}, "pending": {"move": "block"}}"#
        ));
        assert!(!answered(r#"{"prompt": {"round": 1}, "pending": null}"#));
    }
}
