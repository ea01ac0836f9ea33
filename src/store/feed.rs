//! The events each commit adds, handed to this process's event streams as the writers commit
//! them. The events live in the database too (a stream that connects, reconnects with
//! `Last-Event-ID` or falls behind reads them there); this is only the fast path, so that a
//! lobby's listeners do not each query the database every time one of them is woken.
//!
//! The writers publish after the commit and in commit order (one writer owns each lobby), so
//! a lobby's publications carry consecutive event numbers. A listener that sees a gap, or
//! that fell more than [`BACKLOG`] publications behind, reads the database from its last
//! event; it never skips one.
//!
//! Another process's commits (PostgreSQL: `pg_listen.rs`) arrive here as wake-ups only: the
//! events are in the database, and a woken listener reads them there from its last event, as
//! after a lag. The feed remembers each listened lobby's last event number it knows of, so
//! that a commit of this process that does not follow on from it (another process committed
//! in between, and its announcement is still on its way) is preceded by a wake-up: a listener
//! of turns only, which cannot tell such a gap from the events it does not want, still reads
//! the events in between. An announcement for events the feed already knows of wakes no one.
//!
//! A lobby's channels exist only while someone listens: the [`Subscription`] a listener holds
//! removes them when the last one is dropped, so a lobby whose streams have all closed costs
//! the feed nothing (an open-ended number of lobbies must not keep memory for good).
//!
//! A listener that cares only about the turns of a game (a step beginning or resolving, the
//! game ending: what a bot waiting for its prompt needs) listens to the lobby's `turns`
//! channel, which carries only the commits holding such an event, so it is not woken by every
//! player's `submitted`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;
use uuid::Uuid;

use super::bells::Bells;
use super::rows::EventRow;
use crate::events::EventKind;

/// Publications a listener may fall behind by before it must read the database instead.
pub const BACKLOG: usize = 64;

/// One commit's events for one lobby, in order, numbered consecutively.
pub type Published = Arc<[EventRow]>;

/// Whether an event of kind `kind` (as stored) marks a turn of the game
/// ([`EventKind::is_turn`]).
pub fn is_turn(kind: &str) -> bool {
    EventKind::parse(kind).is_some_and(EventKind::is_turn)
}

/// Per-lobby channels of committed events. A lobby has channels only while someone listens.
#[derive(Default)]
pub struct Feed {
    lobbies: Mutex<HashMap<Uuid, Channels>>,
    /// Whether other processes may commit to the same database (PostgreSQL): then a commit of
    /// this process may not follow on from the last one the feed saw.
    shared: bool,
    /// The profiles' bells, rung with the commits that bind their seats (`bells.rs`).
    bells: Arc<Bells>,
}

/// What a lobby's listeners hear.
#[derive(Clone)]
enum Heard {
    /// One of this process's commits.
    Events(Published),
    /// Events committed elsewhere: they are in the database only.
    Elsewhere,
}

struct Channels {
    /// Every commit's events.
    all: broadcast::Sender<Heard>,
    /// The commits holding an event of a turn ([`is_turn`]).
    turns: broadcast::Sender<Heard>,
    /// The lobby's last event number the feed knows of (None: none since the channels opened).
    last: Option<i64>,
}

impl Channels {
    fn new() -> Channels {
        Channels {
            all: broadcast::channel(BACKLOG).0,
            turns: broadcast::channel(BACKLOG).0,
            last: None,
        }
    }

    /// Wakes the listeners (those of turns too, if `turns`) to read the database.
    fn wake(&self, turns: bool) {
        // No listener on one channel is no error: there may be some on the other.
        if turns {
            let _ = self.turns.send(Heard::Elsewhere);
        }
        let _ = self.all.send(Heard::Elsewhere);
    }
}

impl std::fmt::Debug for Feed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Feed")
    }
}

impl Feed {
    /// A feed for a database that other processes may write to as well (see the module's
    /// documentation).
    pub(super) fn shared() -> Feed {
        Feed {
            shared: true,
            ..Feed::default()
        }
    }

    /// Listens to `lobby`'s commits from now on: all of them, or (`turns_only`) those that
    /// hold an event of a turn ([`is_turn`]). The lobby's channels live as long as a
    /// subscription does.
    pub fn subscribe(self: &Arc<Feed>, lobby: Uuid, turns_only: bool) -> Subscription {
        let mut lobbies = self.lock();
        let channels = lobbies.entry(lobby).or_insert_with(Channels::new);
        let receiver = match turns_only {
            true => channels.turns.subscribe(),
            false => channels.all.subscribe(),
        };
        Subscription {
            receiver: Some(receiver),
            feed: Arc::clone(self),
            lobby,
        }
    }

    /// The profiles' bells (`bells.rs`).
    pub fn bells(&self) -> &Arc<Bells> {
        &self.bells
    }

    /// How many lobbies have channels now (those with at least one listener).
    pub fn lobbies_held(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, Channels>> {
        // Each operation under the lock is one insert, lookup or remove, so a panic cannot
        // leave the map half-changed: a poisoned lock is still usable.
        self.lobbies.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Hands a committed change's events to `lobby`'s listeners, if it has any.
    pub(super) fn publish(&self, lobby: Uuid, events: Published) {
        let (Some(first), Some(last)) = (events.first(), events.last()) else {
            return;
        };
        let (first, last) = (first.seq, last.seq);
        let mut lobbies = self.lock();
        let Some(channels) = lobbies.get_mut(&lobby) else {
            return;
        };
        if self.shared && channels.last.is_none_or(|known| first != known + 1) {
            // Another process may have committed the events in between.
            channels.wake(true);
        }
        channels.last = Some(channels.last.map_or(last, |known| known.max(last)));
        if events.iter().any(|e| is_turn(&e.kind)) {
            // No listener on one channel is no error: there may be some on the other.
            let _ = channels.turns.send(Heard::Events(events.clone()));
        }
        let _ = channels.all.send(Heard::Events(events));
    }

    /// Another process committed `lobby`'s events up to `last` (holding an event of a turn, if
    /// `turns`): wakes its listeners to read them from the database, unless the feed already
    /// knows of them.
    pub(super) fn wake(&self, lobby: Uuid, last: i64, turns: bool) {
        let mut lobbies = self.lock();
        let Some(channels) = lobbies.get_mut(&lobby) else {
            return;
        };
        if channels.last.is_some_and(|known| known >= last) {
            return;
        }
        channels.last = Some(last);
        channels.wake(turns);
    }

    /// Wakes every listener to read the database (announcements may have been lost).
    pub(super) fn wake_all(&self) {
        for channels in self.lock().values() {
            channels.wake(true);
        }
        self.bells.ring_all();
    }

    /// Drops `lobby`'s channels if nobody listens to them any more. Runs under the lock that
    /// `subscribe` takes, so a listener arriving meanwhile keeps them.
    fn release(&self, lobby: Uuid) {
        let mut lobbies = self.lock();
        let unheard = lobbies
            .get(&lobby)
            .is_some_and(|c| c.all.receiver_count() + c.turns.receiver_count() == 0);
        if unheard {
            lobbies.remove(&lobby);
            // A map keeps its capacity when emptied: after a crowd of streams has gone, give
            // the memory back rather than hold the largest size it ever had.
            if lobbies.capacity() > 64 && lobbies.len() * 4 < lobbies.capacity() {
                let keep = lobbies.len() * 2;
                lobbies.shrink_to(keep);
            }
        }
    }
}

/// One listener's place in a lobby's feed. Dropping it (the stream closed) frees the lobby's
/// channels if it was the last.
pub struct Subscription {
    /// Always Some until dropped (taken out so that it is gone before the count is read).
    receiver: Option<broadcast::Receiver<Heard>>,
    feed: Arc<Feed>,
    lobby: Uuid,
}

impl Subscription {
    /// The next publication; see [`broadcast::Receiver::recv`]. Events committed by another
    /// process come as `Lagged(0)`: as for a listener that fell behind, the database holds
    /// events the feed does not bring, to be read from the listener's last event on.
    pub async fn recv(&mut self) -> Result<Published, RecvError> {
        match &mut self.receiver {
            Some(receiver) => receiver.recv().await.and_then(Heard::events),
            None => Err(RecvError::Closed),
        }
    }

    /// The next publication if one is waiting; see [`broadcast::Receiver::try_recv`] and
    /// [`Subscription::recv`].
    pub fn try_recv(&mut self) -> Result<Published, broadcast::error::TryRecvError> {
        use broadcast::error::TryRecvError;
        match &mut self.receiver {
            Some(receiver) => receiver
                .try_recv()
                .and_then(|heard| heard.events().map_err(|_| TryRecvError::Lagged(0))),
            None => Err(TryRecvError::Closed),
        }
    }
}

impl Heard {
    fn events(self) -> Result<Published, RecvError> {
        match self {
            Heard::Events(events) => Ok(events),
            Heard::Elsewhere => Err(RecvError::Lagged(0)),
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        drop(self.receiver.take());
        self.feed.release(self.lobby);
    }
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription")
            .field("lobby", &self.lobby)
            .finish()
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
        let feed = Arc::new(Feed::default());
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
    fn a_lobby_keeps_its_channels_until_its_last_listener_leaves() {
        let feed = Arc::new(Feed::default());
        let lobby = Uuid::new_v4();
        let all = feed.subscribe(lobby, false);
        let turns = feed.subscribe(lobby, true);
        drop(all);
        assert_eq!(feed.lobbies_held(), 1, "one listener is left");
        drop(turns);
        assert_eq!(feed.lobbies_held(), 0, "freed with no event published");
        let mut again = feed.subscribe(lobby, false);
        feed.publish(lobby, events(1..=1));
        assert_eq!(
            again.try_recv().unwrap()[0].seq,
            1,
            "a later listener still hears"
        );
    }

    #[test]
    fn a_crowd_of_lobbies_that_came_and_went_leaves_the_map_small() {
        let feed = Arc::new(Feed::default());
        let listeners: Vec<_> = (0..10_000)
            .map(|_| feed.subscribe(Uuid::new_v4(), false))
            .collect();
        assert_eq!(feed.lobbies_held(), 10_000);
        drop(listeners);
        assert_eq!(feed.lobbies_held(), 0);
        assert!(feed.lock().capacity() <= 64, "the map gave its memory back");
    }

    #[test]
    fn a_listener_that_falls_too_far_behind_is_told_so() {
        let feed = Arc::new(Feed::default());
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
        let feed = Arc::new(Feed::default());
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

    fn lagged(listener: &mut Subscription) -> bool {
        matches!(
            listener.try_recv(),
            Err(broadcast::error::TryRecvError::Lagged(_))
        )
    }

    #[test]
    fn another_process_commit_wakes_the_listeners_to_read_the_database_once() {
        let feed = Arc::new(Feed::shared());
        let lobby = Uuid::new_v4();
        let (mut all, mut turns) = (feed.subscribe(lobby, false), feed.subscribe(lobby, true));
        feed.wake(lobby, 3, false);
        assert!(lagged(&mut all), "woken to read events 1 to 3");
        assert!(
            turns.try_recv().is_err() && !lagged(&mut turns),
            "no turn among them"
        );
        feed.wake(lobby, 3, true);
        assert!(all.try_recv().is_err(), "already known: no one woken again");
        feed.wake(lobby, 5, true);
        assert!(lagged(&mut all) && lagged(&mut turns));
        feed.publish(lobby, events(6..=6));
        assert_eq!(
            all.try_recv().unwrap()[0].seq,
            6,
            "this process's commit follows on"
        );
    }

    #[test]
    fn a_commit_that_does_not_follow_on_is_preceded_by_a_wake_up_on_a_shared_database() {
        let feed = Arc::new(Feed::shared());
        let lobby = Uuid::new_v4();
        let mut turns = feed.subscribe(lobby, true);
        let turn = |seq| -> Published {
            [EventRow {
                seq,
                kind: "step-resolved".into(),
                data: "{}".into(),
            }]
            .into()
        };
        feed.publish(lobby, turn(4));
        assert!(lagged(&mut turns), "events before 4 are unknown: read them");
        assert_eq!(turns.try_recv().unwrap()[0].seq, 4);
        feed.publish(lobby, turn(5));
        assert_eq!(
            turns.try_recv().unwrap()[0].seq,
            5,
            "follows on: no wake-up"
        );
        // Another process committed 6 and 7; its announcement has not arrived yet.
        feed.publish(lobby, turn(8));
        assert!(lagged(&mut turns), "6 and 7 are in the database only");
        assert_eq!(turns.try_recv().unwrap()[0].seq, 8);
        feed.wake(lobby, 7, true);
        assert!(
            turns.try_recv().is_err(),
            "the late announcement wakes no one"
        );
    }

    #[test]
    fn a_single_process_feed_never_wakes_for_the_database() {
        let feed = Arc::new(Feed::default());
        let lobby = Uuid::new_v4();
        let mut all = feed.subscribe(lobby, false);
        feed.publish(lobby, events(4..=4));
        assert_eq!(all.try_recv().unwrap()[0].seq, 4);
    }

    #[test]
    fn after_a_lost_connection_every_listener_reads_the_database() {
        let feed = Arc::new(Feed::shared());
        let mut listeners: Vec<_> = (0..3)
            .map(|i| feed.subscribe(Uuid::new_v4(), i % 2 == 0))
            .collect();
        feed.wake_all();
        assert!(listeners.iter_mut().all(lagged));
    }
}
