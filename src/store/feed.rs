//! The events each commit adds, handed to this process's event streams as the writers commit
//! them. The events live in the database too (a stream that connects, reconnects with
//! `Last-Event-ID` or falls behind reads them there); this is only the fast path, so that a
//! lobby's listeners do not each query the database every time one of them is woken.
//!
//! The writers publish after the commit and in commit order (one writer owns each lobby), so
//! a lobby's publications carry consecutive event numbers. A listener that sees a gap, or
//! that fell more than [`BACKLOG`] publications behind, reads the database from its last
//! event; it never skips one. Another process's commits are not published here (its
//! listeners are its own).
//!
//! A listener that cares only about the turns of a game (a step beginning or resolving, the
//! game ending: what a bot waiting for its prompt needs) listens to the lobby's `turns`
//! channel, which carries only the commits holding such an event, so it is not woken by every
//! player's `submitted`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;
use uuid::Uuid;

use super::rows::EventRow;

/// Publications a listener may fall behind by before it must read the database instead.
pub const BACKLOG: usize = 64;

/// One commit's events for one lobby, in order, numbered consecutively.
pub type Published = Arc<[EventRow]>;

/// The event kinds that mark a turn of the game.
pub const TURNS: [&str; 10] = [
    "signups-closed",
    "started",
    "step-resolved",
    "round-resolved",
    "finished",
    // The host's hand: a kick takes a seat out of the step, an early end finishes the game,
    // reopened sign-ups undo `signups-closed`.
    "player-kicked",
    "ended-by-host",
    "signups-reopened",
    // A seat's token changed hands or a sign-up went: a player stream holding the old token
    // must hear it to end.
    "player-replaced",
    "player-left",
];

/// Per-lobby channels of committed events. A lobby has channels only while someone listens.
#[derive(Default)]
pub struct Feed {
    lobbies: Mutex<HashMap<Uuid, Channels>>,
}

struct Channels {
    /// Every commit's events.
    all: broadcast::Sender<Published>,
    /// The commits holding an event of [`TURNS`].
    turns: broadcast::Sender<Published>,
}

impl Channels {
    fn new() -> Channels {
        Channels {
            all: broadcast::channel(BACKLOG).0,
            turns: broadcast::channel(BACKLOG).0,
        }
    }
}

impl std::fmt::Debug for Feed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Feed")
    }
}

impl Feed {
    /// Listens to `lobby`'s commits from now on: all of them, or (`turns_only`) those that
    /// hold an event of [`TURNS`].
    pub fn subscribe(&self, lobby: Uuid, turns_only: bool) -> broadcast::Receiver<Published> {
        let mut lobbies = self.lobbies.lock().unwrap_or_else(|e| e.into_inner());
        let channels = lobbies.entry(lobby).or_insert_with(Channels::new);
        match turns_only {
            true => channels.turns.subscribe(),
            false => channels.all.subscribe(),
        }
    }

    /// Hands a committed change's events to `lobby`'s listeners, if it has any.
    pub(super) fn publish(&self, lobby: Uuid, events: Published) {
        if events.is_empty() {
            return;
        }
        let mut lobbies = self.lobbies.lock().unwrap_or_else(|e| e.into_inner());
        let Some(channels) = lobbies.get(&lobby) else {
            return;
        };
        if events.iter().any(|e| TURNS.contains(&e.kind.as_str())) {
            // No listener on one channel is no error: there may be some on the other.
            let _ = channels.turns.send(events.clone());
        }
        let _ = channels.all.send(events);
        if channels.all.receiver_count() + channels.turns.receiver_count() == 0 {
            // Nobody listens any more: drop the channels until someone subscribes again.
            lobbies.remove(&lobby);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(seqs: std::ops::RangeInclusive<i64>) -> Published {
        seqs.map(|seq| EventRow {
            seq,
            kind: "submitted".into(),
            data: "{}".into(),
        })
        .collect()
    }

    #[test]
    fn a_listener_hears_each_commit_of_its_lobby_only_and_in_order() {
        let feed = Feed::default();
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        let mut listener = feed.subscribe(a, false);
        feed.publish(a, events(1..=2));
        feed.publish(b, events(1..=1));
        feed.publish(a, events(3..=3));
        let first = listener.try_recv().unwrap();
        assert_eq!(first.iter().map(|e| e.seq).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(listener.try_recv().unwrap()[0].seq, 3);
        assert!(listener.try_recv().is_err());
    }

    #[test]
    fn a_lobby_nobody_listens_to_keeps_no_channel() {
        let feed = Feed::default();
        let lobby = Uuid::new_v4();
        drop(feed.subscribe(lobby, false));
        drop(feed.subscribe(lobby, true));
        feed.publish(lobby, events(1..=1));
        assert!(feed.lobbies.lock().unwrap().is_empty());
    }

    #[test]
    fn a_listener_that_falls_too_far_behind_is_told_so() {
        let feed = Feed::default();
        let lobby = Uuid::new_v4();
        let mut listener = feed.subscribe(lobby, false);
        for seq in 1..=(BACKLOG as i64 + 1) {
            feed.publish(lobby, events(seq..=seq));
        }
        assert!(matches!(
            listener.try_recv(),
            Err(broadcast::error::TryRecvError::Lagged(_))
        ));
    }

    #[test]
    fn a_turns_listener_hears_only_the_commits_that_turn_the_game() {
        let feed = Feed::default();
        let lobby = Uuid::new_v4();
        let mut turns = feed.subscribe(lobby, true);
        feed.publish(lobby, events(1..=1));
        let resolving: Published = [("submitted", 2), ("step-resolved", 3)]
            .map(|(kind, seq)| EventRow {
                seq,
                kind: kind.into(),
                data: "{}".into(),
            })
            .into_iter()
            .collect();
        feed.publish(lobby, resolving);
        let heard = turns.try_recv().unwrap();
        assert_eq!(heard.iter().map(|e| e.seq).collect::<Vec<_>>(), [2, 3]);
        assert!(turns.try_recv().is_err(), "the lone submitted woke no one");
    }
}
