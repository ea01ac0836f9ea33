//! Cross-process wake-up on PostgreSQL: several Herald processes on one database hear each
//! other's commits through LISTEN/NOTIFY.
//!
//! - Announcing: a writer's batch ends with `pg_notify` in its own transaction
//!   ([`announce`]), so PostgreSQL delivers the announcement only if the batch commits, after
//!   its rows are visible, and in commit order. One announcement carries every lobby the batch
//!   changed (a few, chunked, for a batch of very many lobbies): the writing process's id, and
//!   per lobby its last event number and what kind of change it was (a turn of the game, a
//!   clock with a wake-up, an event owed to notification destinations).
//! - Only when someone else listens: the announcement is made only if another process has its
//!   listener registered in `herald_listeners` when the batch locks its lobbies (its first
//!   statement, `versions::lock_batch`). PostgreSQL commits transactions that NOTIFY one at a
//!   time, which cost a lone process about 7% of its orders per CPU-second
//!   (docs/performance.md) for announcements nobody hears. A listener that registers after a
//!   batch looked does not miss that batch: before it catches up, it waits for every
//!   transaction that began before it was registered to end
//!   ([`wait_for_earlier_transactions`]), so the catch-up reads them. A listener removes its
//!   row when it stops; a killed process's row is removed by the next listener to start
//!   ([`register`]), and meanwhile only costs announcements nobody hears.
//! - Listening: one task per process ([`spawn`]) holds a connection of its own (named
//!   `herald-listen-<process id>` in `pg_stat_activity`) that LISTENs. For another process's
//!   announcement it wakes the lobby's event streams in the feed (`feed.rs`: they read the new
//!   events from the database from their last one, so none is skipped or doubled), the
//!   deadline scheduler if a clock was set, and the notification worker if deliveries were
//!   queued. Its own announcements it skips: its writers published those already.
//! - Surviving a lost connection: the task reconnects with a growing delay, and once it
//!   LISTENs again it wakes every stream, the scheduler and the worker, since announcements
//!   made meanwhile are lost but their rows are in the database.
//!
//! SQLite has a single process (its writer holds the file), so there is nothing to announce.

use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgListener, PgPool, PgPoolOptions};
use sqlx::{AnyConnection, AnyPool};
use tokio::sync::Notify;
use uuid::Uuid;

use super::StoreError;
use super::feed::{Feed, Published, is_turn};
use super::outbox::notifiable;
use super::rows::Snapshot;

/// The channel every Herald process on a database announces its commits on.
pub const CHANNEL: &str = "herald_commits";
/// Lobbies per announcement: PostgreSQL refuses a payload of 8,000 bytes or more, and an entry
/// takes at most about 60.
const PER_ANNOUNCEMENT: usize = 100;
/// The first delay before reconnecting a lost listener; it doubles up to [`MAX_RETRY`].
const FIRST_RETRY: Duration = Duration::from_millis(50);
const MAX_RETRY: Duration = Duration::from_secs(5);

/// What other processes' commits wake besides the event streams.
#[derive(Debug, Default)]
pub struct Wakes {
    /// A lobby's clock was set (maybe sooner than this process's scheduler waits for).
    pub deadlines: Notify,
    /// Deliveries were queued in the outbox.
    pub outbox: Notify,
    /// How many times the listener has started to LISTEN (the first time, and after each
    /// reconnection).
    sessions: AtomicU64,
}

impl Wakes {
    /// How many times this process's listener has started to LISTEN: 1 once it first has,
    /// one more after each reconnection. Always 0 on SQLite.
    pub fn sessions(&self) -> u64 {
        self.sessions.load(Ordering::Relaxed)
    }
}

/// This process's id in announcements: random, so that two processes never share one.
pub fn new_process_id() -> Arc<str> {
    Uuid::new_v4().simple().to_string().into()
}

/// The `application_name` of the listener's connection.
pub fn listener_name(process: &str) -> String {
    format!("herald-listen-{process}")
}

/// One lobby as a batch left it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    lobby: Uuid,
    /// Its last event number.
    event_seq: i64,
    /// The batch wrote an event of a turn ([`is_turn`]).
    turns: bool,
    /// The batch set a clock with a wake-up.
    clock: bool,
    /// The batch wrote an event destinations may be owed ([`notifiable`]).
    owes: bool,
}

/// Announces, in the batch's transaction, every lobby it changed (`changed`, with the events of
/// `published`; `clocks`: the lobbies whose clock it set).
pub(super) async fn announce(
    conn: &mut AnyConnection,
    process: &str,
    changed: &HashMap<Uuid, Arc<Snapshot>>,
    published: &[(Uuid, Published)],
    clocks: &HashSet<Uuid>,
) -> Result<(), StoreError> {
    let mut entries: Vec<Entry> = changed
        .iter()
        .map(|(lobby, after)| Entry {
            lobby: *lobby,
            event_seq: after.lobby.event_seq,
            turns: false,
            clock: clocks.contains(lobby),
            owes: false,
        })
        .collect();
    entries.sort_by_key(|e| e.lobby);
    for (lobby, events) in published {
        if let Ok(at) = entries.binary_search_by_key(lobby, |e| e.lobby) {
            let entry = &mut entries[at];
            entry.turns |= events.iter().any(|e| is_turn(&e.kind));
            entry.owes |= events.iter().any(|e| notifiable(&e.kind));
        }
    }
    for chunk in entries.chunks(PER_ANNOUNCEMENT) {
        // pg_notify in FROM: its void result is no column the Any driver must read. (Only a
        // batch that locked no lobby when it began gets here without knowing whether anyone
        // else listens; it asks with each chunk.)
        sqlx::query(
            "SELECT 1 FROM pg_notify($1, $2) \
             WHERE EXISTS (SELECT 1 FROM herald_listeners WHERE process <> $3)",
        )
        .bind(CHANNEL)
        .bind(encode(process, chunk))
        .bind(process)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Announces, in the caller's transaction, that `profiles` took a seat or were challenged: the
/// other processes ring their bells (`bells.rs`). `|@profile` entries, as many as fit.
pub(crate) async fn announce_profiles(
    conn: &mut AnyConnection,
    process: &str,
    profiles: &[Uuid],
) -> Result<(), StoreError> {
    for chunk in profiles.chunks(PER_ANNOUNCEMENT) {
        let mut payload = process.to_string();
        for profile in chunk {
            payload.push_str(&format!("|@{profile}"));
        }
        sqlx::query(
            "SELECT 1 FROM pg_notify($1, $2) \
             WHERE EXISTS (SELECT 1 FROM herald_listeners WHERE process <> $3)",
        )
        .bind(CHANNEL)
        .bind(payload)
        .bind(process)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// How long a stopping listener tries to remove its registration.
const UNREGISTER_LIMIT: Duration = Duration::from_secs(2);
/// How long a new listener waits for earlier transactions at most: a writer's batch takes
/// milliseconds, so only a session left idle in a transaction (not Herald's) would hold it up.
const EARLIER_TRANSACTIONS_LIMIT: Duration = Duration::from_secs(10);
/// How often it looks again meanwhile.
const EARLIER_TRANSACTIONS_POLL: Duration = Duration::from_millis(2);

/// Registers this process's listener in `herald_listeners` (its connection already LISTENs),
/// and removes the rows of processes whose listener is no longer connected (killed ones).
async fn register(conn: &mut PgListener, process: &str) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO herald_listeners (process) VALUES ($1) ON CONFLICT DO NOTHING")
        .bind(process)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "DELETE FROM herald_listeners WHERE process <> $1 AND NOT EXISTS \
         (SELECT 1 FROM pg_stat_activity WHERE datname = current_database() \
         AND application_name = 'herald-listen-' || herald_listeners.process)",
    )
    .bind(process)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Removes this process's row: it no longer listens.
async fn unregister(pool: &PgPool, process: &str) {
    let removed = sqlx::query("DELETE FROM herald_listeners WHERE process = $1")
        .bind(process)
        .execute(pool)
        .await;
    if let Err(error) = removed {
        tracing::warn!(%error, "the listener's registration was left behind");
    }
}

/// Waits, on a connection that already LISTENs and is registered, until every client
/// transaction on the database that began before now has ended. A batch that looked for
/// listeners before this one registered did not announce itself; its transaction began before
/// now, so once this returns it is committed (or gone) and a catch-up from the database reads
/// it. Batches that look later see this listener and announce.
async fn wait_for_earlier_transactions(conn: &mut PgListener) -> Result<(), sqlx::Error> {
    let since: String = sqlx::query_scalar("SELECT clock_timestamp()::text")
        .fetch_one(&mut *conn)
        .await?;
    let started = tokio::time::Instant::now();
    loop {
        let earlier: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database() \
             AND backend_type = 'client backend' AND pid <> pg_backend_pid() \
             AND xact_start <= $1::timestamptz)",
        )
        .bind(&since)
        .fetch_one(&mut *conn)
        .await?;
        if !earlier {
            return Ok(());
        }
        if started.elapsed() > EARLIER_TRANSACTIONS_LIMIT {
            tracing::warn!(
                "a transaction older than this listener has run for over {EARLIER_TRANSACTIONS_LIMIT:?}; catching up without waiting for it"
            );
            return Ok(());
        }
        tokio::time::sleep(EARLIER_TRANSACTIONS_POLL).await;
    }
}

/// `process|lobby seq flags|lobby seq flags…`, flags being `t` (turn), `w` (clock), `o` (owed
/// deliveries), or `-` for none; a profile's ring is `@profile` ([`announce_profiles`]).
fn encode(process: &str, entries: &[Entry]) -> String {
    let mut payload = String::with_capacity(process.len() + entries.len() * 60);
    payload.push_str(process);
    for entry in entries {
        let mut flags = String::new();
        for (set, flag) in [(entry.turns, 't'), (entry.clock, 'w'), (entry.owes, 'o')] {
            if set {
                flags.push(flag);
            }
        }
        if flags.is_empty() {
            flags.push('-');
        }
        payload.push_str(&format!("|{} {} {flags}", entry.lobby, entry.event_seq));
    }
    payload
}

/// The announcing process, its lobby entries and the profiles it rang; None for a payload that
/// is not an announcement.
fn decode(payload: &str) -> Option<(&str, Vec<Entry>, Vec<Uuid>)> {
    let mut parts = payload.split('|');
    let process = parts.next()?;
    let (rings, lobbies): (Vec<&str>, Vec<&str>) = parts.partition(|part| part.starts_with('@'));
    let profiles = rings
        .iter()
        .map(|ring| ring[1..].parse().ok())
        .collect::<Option<Vec<Uuid>>>()?;
    let entries = lobbies
        .into_iter()
        .map(|entry| {
            let mut fields = entry.split(' ');
            let lobby = fields.next()?.parse().ok()?;
            let event_seq = fields.next()?.parse().ok()?;
            let flags = fields.next()?;
            Some(Entry {
                lobby,
                event_seq,
                turns: flags.contains('t'),
                clock: flags.contains('w'),
                owes: flags.contains('o'),
            })
        })
        .collect::<Option<Vec<Entry>>>()?;
    Some((process, entries, profiles))
}

/// What the listener task wakes.
pub(super) struct Listening {
    pub process: Arc<str>,
    pub feed: Arc<Feed>,
    pub wakes: Arc<Wakes>,
}

/// Starts this process's listener on the database at `url`; it stops when `store` (the
/// store's pool) is closed.
pub(super) fn spawn(url: &str, listening: Listening, store: AnyPool) -> Result<(), StoreError> {
    let options =
        PgConnectOptions::from_str(url)?.application_name(&listener_name(&listening.process));
    // One connection, kept for as long as it lives: it only waits for announcements.
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .max_lifetime(None)
        .idle_timeout(None)
        .connect_lazy_with(options);
    tokio::spawn(async move {
        tokio::select! {
            () = listen(&pool, &listening) => {}
            () = store.close_event() => {}
        }
        // Bounded: a server stopping while the database is down must not wait for it.
        let _ = tokio::time::timeout(UNREGISTER_LIMIT, unregister(&pool, &listening.process)).await;
        pool.close().await;
    });
    Ok(())
}

/// Listens for ever, reconnecting after a growing delay whenever the connection is lost.
async fn listen(pool: &PgPool, listening: &Listening) {
    let mut delay = FIRST_RETRY;
    loop {
        let error = match session(pool, listening, &mut delay).await {
            Ok(()) => "the connection was lost".to_string(),
            Err(error) => error.to_string(),
        };
        tracing::warn!(%error, retry_in = ?delay, "the cross-process listener stopped; reconnecting");
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(MAX_RETRY);
    }
}

/// One connection's life: LISTEN, catch everyone up, then hand on announcements until the
/// connection is lost (Ok) or fails (Err).
async fn session(
    pool: &PgPool,
    listening: &Listening,
    delay: &mut Duration,
) -> Result<(), sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    // A lost connection ends the session (we reconnect and catch up ourselves) rather than
    // being replaced silently, which would lose announcements unnoticed.
    listener.eager_reconnect(false);
    listener.listen(CHANNEL).await?;
    register(&mut listener, &listening.process).await?;
    wait_for_earlier_transactions(&mut listener).await?;
    *delay = FIRST_RETRY;
    listening.wakes.sessions.fetch_add(1, Ordering::Relaxed);
    // Every commit from now on will be announced; those made while nobody listened are in
    // the database, where everything woken reads.
    listening.feed.wake_all();
    listening.wakes.deadlines.notify_one();
    listening.wakes.outbox.notify_one();
    while let Some(notification) = listener.try_recv().await? {
        heard(listening, notification.payload());
    }
    Ok(())
}

/// Wakes what another process's announcement concerns.
fn heard(listening: &Listening, payload: &str) {
    let Some((process, entries, profiles)) = decode(payload) else {
        tracing::warn!(payload, "an announcement that is not Herald's was ignored");
        return;
    };
    if process == &*listening.process {
        return;
    }
    let (mut clock, mut owes) = (false, false);
    for entry in entries {
        listening
            .feed
            .wake(entry.lobby, entry.event_seq, entry.turns);
        clock |= entry.clock;
        owes |= entry.owes;
    }
    for profile in profiles {
        listening.feed.bells().ring(profile);
    }
    if clock {
        listening.wakes.deadlines.notify_one();
    }
    if owes {
        listening.wakes.outbox.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(event_seq: i64, turns: bool, clock: bool, owes: bool) -> Entry {
        Entry {
            lobby: Uuid::new_v4(),
            event_seq,
            turns,
            clock,
            owes,
        }
    }

    #[test]
    fn an_announcement_reads_back_as_it_was_written() {
        let entries = vec![
            entry(1, false, false, false),
            entry(42, true, false, true),
            entry(i64::MAX, true, true, true),
        ];
        let process = new_process_id();
        let payload = encode(&process, &entries);
        assert_eq!(decode(&payload), Some((&*process, entries, Vec::new())));
    }

    #[test]
    fn a_profiles_ring_reads_back() {
        let profile = Uuid::new_v4();
        let payload = format!("p|@{profile}");
        assert_eq!(decode(&payload), Some(("p", Vec::new(), vec![profile])));
        assert!(decode("p|@not-a-profile").is_none());
    }

    #[test]
    fn a_full_announcement_fits_in_a_payload() {
        let entries: Vec<Entry> = (0..PER_ANNOUNCEMENT)
            .map(|_| entry(i64::MAX, true, true, true))
            .collect();
        assert!(encode(&new_process_id(), &entries).len() < 8000);
    }

    #[test]
    fn a_payload_that_is_not_an_announcement_is_refused() {
        assert!(decode("someone|not-a-lobby 1 t").is_none());
        assert!(decode(&format!("p|{} x t", Uuid::new_v4())).is_none());
        assert!(decode(&format!("p|{} 7", Uuid::new_v4())).is_none());
    }
}
