//! The public log of each recently resolved round, kept in memory from its resolution for the
//! round's notices: the notice of a resolved round quotes its first lines, and parsing the
//! stored log back (kilobytes for a melee's round) cost a delivery more than the rest of its
//! notice. Only public lines are kept, as the notice would have read them.
//!
//! A round's log is kept only while this process saw every one of its steps committed: a round
//! is begun from the snapshot the change was decided on (which says what the round held
//! before), each change that adds a step extends it, and the change that publishes
//! `round-resolved` closes it. Anything else (a restart, a step written by another process, a
//! round pushed out of memory) leaves the notice to read the stored log, as it did before.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use serde::Deserialize;
use uuid::Uuid;

use crate::events::EventKind;
use crate::store::{Change, PublicLog, Snapshot};

/// Lines of a round's log kept for its summary (a notice quotes at most this many).
pub const KEPT_LINES: usize = 12;

/// A line of a round's log as a notice quotes it: in words, as the pages show it, without
/// the rule ids a notice cannot link (`games/cite.rs`).
pub fn notice_line(text: &str) -> String {
    crate::games::cite::uncited(text)
}

/// Rounds kept; older ones are read from the store when a notice asks.
const KEPT_ROUNDS: usize = 1024;

/// A round's public log as far as this process saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Kept {
    round: u32,
    /// How many of the round's steps it covers.
    steps: usize,
    /// Whether its `round-resolved` is committed (no step follows).
    closed: bool,
    log: PublicLog,
}

/// What a change adds to the kept logs, worked out against the snapshot it was decided on;
/// kept once it has committed ([`RoundLogs::keep`]).
#[derive(Debug, Default)]
pub struct Noted(Vec<Kept>);

#[derive(Debug, Default)]
struct Held {
    rounds: HashMap<(Uuid, u32), Kept>,
    /// Keys in the order they were first kept, for the eviction.
    order: VecDeque<(Uuid, u32)>,
}

/// The kept logs of this process.
#[derive(Debug, Default)]
pub struct RoundLogs(Mutex<Held>);

impl RoundLogs {
    /// Takes the public lines out of `change`'s steps and works out the logs of their rounds
    /// after it. A round is begun only from what the snapshot says it held: nothing (a round
    /// the lobby has not reached, or one whose steps the snapshot knows to be none) or the
    /// steps this process kept for it.
    pub fn note(&self, snapshot: &Snapshot, change: &mut Change) -> Noted {
        let mut noted: Vec<Kept> = Vec::new();
        let mut unknown: Vec<u32> = Vec::new();
        for step in &mut change.resolved {
            let public = step.public.take();
            let round = step.round;
            if unknown.contains(&round) {
                continue;
            }
            let Some(public) = public else {
                noted.retain(|kept| kept.round != round);
                unknown.push(round);
                continue;
            };
            let at = match noted.iter().position(|kept| kept.round == round) {
                Some(at) => at,
                None => match self.begun(snapshot, round) {
                    Some(kept) => {
                        noted.push(kept);
                        noted.len() - 1
                    }
                    None => {
                        unknown.push(round);
                        continue;
                    }
                },
            };
            let kept = &mut noted[at];
            kept.log.extend(&public, KEPT_LINES);
            kept.steps += 1;
        }
        if noted.is_empty() {
            return Noted(noted);
        }
        let closed = closed_rounds(change);
        for kept in &mut noted {
            kept.closed = closed.contains(&kept.round);
        }
        Noted(noted)
    }

    /// What round `round` of the snapshot's lobby held before the change, if known.
    fn begun(&self, snapshot: &Snapshot, round: u32) -> Option<Kept> {
        let empty = Kept {
            round,
            steps: 0,
            closed: false,
            log: PublicLog::default(),
        };
        if round > snapshot.lobby.round {
            return Some(empty);
        }
        if round < snapshot.lobby.round {
            return None;
        }
        match snapshot.round_steps.known()? {
            [] => Some(empty),
            steps => {
                let held = self.0.lock().unwrap_or_else(|e| e.into_inner());
                held.rounds
                    .get(&(snapshot.lobby.id, round))
                    .filter(|kept| kept.steps == steps.len() && !kept.closed)
                    .cloned()
            }
        }
    }

    /// Keeps what a committed change noted for lobby `id`. A round already kept with more
    /// steps stays (two commits of one lobby may finish in either order).
    pub fn keep(&self, id: Uuid, noted: Noted) {
        if noted.0.is_empty() {
            return;
        }
        let mut held = self.0.lock().unwrap_or_else(|e| e.into_inner());
        for kept in noted.0 {
            let key = (id, kept.round);
            match held.rounds.get_mut(&key) {
                Some(old) if old.steps > kept.steps || (old.closed && !kept.closed) => {}
                Some(old) => *old = kept,
                None => {
                    held.rounds.insert(key, kept);
                    held.order.push_back(key);
                }
            }
        }
        while held.order.len() > KEPT_ROUNDS {
            if let Some(key) = held.order.pop_front() {
                held.rounds.remove(&key);
            }
        }
    }

    /// The public log of lobby `id`'s resolved round `round`, its first `quoted` lines, if
    /// this process kept all of it.
    pub fn resolved(&self, id: Uuid, round: u32, quoted: usize) -> Option<PublicLog> {
        if quoted > KEPT_LINES {
            return None;
        }
        let held = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let kept = held.rounds.get(&(id, round)).filter(|kept| kept.closed)?;
        Some(PublicLog {
            first: kept.log.first.iter().take(quoted).cloned().collect(),
            lines: kept.log.lines,
        })
    }
}

/// The rounds whose `round-resolved` the change publishes.
fn closed_rounds(change: &Change) -> Vec<u32> {
    #[derive(Deserialize)]
    struct Round {
        round: u32,
    }
    change
        .events
        .iter()
        .filter(|event| event.kind == EventKind::RoundResolved)
        .filter_map(|event| serde_json::from_str::<Round>(&event.data).ok())
        .map(|event| event.round)
        .collect()
}
