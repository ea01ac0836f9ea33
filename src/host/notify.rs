//! Wakes event-stream listeners when a lobby publishes events. The events themselves live in
//! the database (so a reconnecting client resumes from its last event id); this only says
//! "there is something new", per lobby.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;
use uuid::Uuid;

/// Per-lobby wake-up channels carrying the lobby's latest event number.
#[derive(Clone, Default)]
pub struct Notifier {
    lobbies: Arc<Mutex<HashMap<Uuid, watch::Sender<i64>>>>,
}

impl Notifier {
    /// Announces that `lobby`'s events now run up to `event_seq`.
    pub fn publish(&self, lobby: Uuid, event_seq: i64) {
        let mut lobbies = self.lobbies.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(sender) = lobbies.get(&lobby) {
            sender.send_if_modified(|seen| {
                let newer = event_seq > *seen;
                if newer {
                    *seen = event_seq;
                }
                newer
            });
            if sender.receiver_count() == 0 {
                lobbies.remove(&lobby);
            }
        }
    }

    /// A receiver that changes whenever `lobby` publishes.
    pub fn subscribe(&self, lobby: Uuid) -> watch::Receiver<i64> {
        let mut lobbies = self.lobbies.lock().unwrap_or_else(|e| e.into_inner());
        lobbies
            .entry(lobby)
            .or_insert_with(|| watch::channel(0).0)
            .subscribe()
    }
}
