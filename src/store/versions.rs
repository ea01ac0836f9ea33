//! Lobby versions read in bulk: what every read of a lobby on PostgreSQL asks first (is the
//! cached snapshot current?), and what each PostgreSQL batch locks before it writes.
//!
//! On PostgreSQL a statement costs the database far more CPU than the lookup itself, and the
//! database shares the machine. So the version checks of concurrent reads are coalesced: they
//! queue for a reader task, which asks for all the queued lobbies in one statement and answers
//! each. A check still starts after its request arrived, so it sees every commit acknowledged
//! before the request: read-your-writes holds, as it does for a single lookup.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use std::sync::Arc;

use sqlx::{AnyConnection, AnyPool};
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use super::StoreError;
use super::columns::Columns;
use super::jobs::next_batch;

/// The versions of `ids` (lobby ids as stored), read without locking (a batch locks its own
/// with [`lock_batch`]). Lobbies that do not exist are absent.
pub(super) async fn fetch(
    conn: &mut AnyConnection,
    ids: Vec<String>,
) -> Result<HashMap<Uuid, i64>, StoreError> {
    let Some(ids) = padded(ids) else {
        return Ok(HashMap::new());
    };
    let sql = format!(
        "SELECT id, version FROM lobbies WHERE id IN ({}) ORDER BY id",
        placeholders(ids.len())
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in ids {
        query = query.bind(id);
    }
    query
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|row| {
            let row = Columns::of("lobbies", row);
            Ok((row.uuid("id")?, row.int("version")?))
        })
        .collect()
}

/// What a PostgreSQL batch learns with its lobbies' row locks, in its first statement.
#[derive(Debug, Default)]
pub(super) struct Locked {
    /// Each lobby's version (lobbies that do not exist are absent).
    pub versions: HashMap<Uuid, i64>,
    /// Whether another process's listener was registered (`pg_listen.rs`): if not, the batch
    /// announces nothing. None when no lobby was found, so nobody looked.
    pub heard: Option<bool>,
}

/// Locks `ids` (lobby ids as stored) for the batch, in id order (see `writer.rs`), and reads
/// in the same statement each one's version and whether a process other than `process` has
/// its listener registered (`herald_listeners`). The look comes after the transaction began:
/// a listener registered too late for it waits for this transaction to end before it catches
/// up (`pg_listen.rs`). For no ids, nothing is locked and nobody looks (`heard` is None).
///
/// (Whether a lobby has subscriptions is not read here: the statement's snapshot is taken
/// before it waits for a row lock, and a destination's insert holds the lobby's row until it
/// commits, so this statement would not see a destination committed just before its lock.)
pub(super) async fn lock_batch(
    conn: &mut AnyConnection,
    ids: Vec<String>,
    process: &str,
) -> Result<Locked, StoreError> {
    let Some(ids) = padded(ids) else {
        return Ok(Locked::default());
    };
    let listener = ids.len() + 1;
    let sql = format!(
        "SELECT id, version, \
         (EXISTS (SELECT 1 FROM herald_listeners WHERE process <> ${listener}))::int::bigint \
         AS heard \
         FROM lobbies WHERE id IN ({}) ORDER BY id FOR UPDATE",
        placeholders(ids.len())
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in ids {
        query = query.bind(id);
    }
    let rows = query.bind(process).fetch_all(&mut *conn).await?;
    let mut locked = Locked::default();
    for row in &rows {
        let row = Columns::of("lobbies", row);
        locked.versions.insert(row.uuid("id")?, row.int("version")?);
        locked.heard = Some(row.int("heard")? != 0);
    }
    Ok(locked)
}

/// The ids sorted, without repeats, padded to a power of two by repeating the last: a few
/// statement shapes rather than one per count (each is prepared and kept). None for none.
fn padded(mut ids: Vec<String>) -> Option<Vec<String>> {
    ids.sort_unstable();
    ids.dedup();
    let last = ids.last().cloned()?;
    ids.resize(ids.len().next_power_of_two(), last);
    Some(ids)
}

/// `$1, $2, …, $count`.
fn placeholders(count: usize) -> String {
    (1..=count)
        .map(|n| format!("${n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Most checks answered by one statement.
const MAX_ASKS: usize = 256;

struct Ask {
    lobby: Uuid,
    reply: oneshot::Sender<Result<Option<i64>, Arc<StoreError>>>,
}

/// Reader tasks coalescing version checks (PostgreSQL).
#[derive(Debug)]
pub(super) struct Versions {
    queues: Vec<mpsc::Sender<Ask>>,
    next: AtomicUsize,
}

impl Versions {
    /// Starts `tasks` readers on `pool`.
    pub fn spawn(pool: AnyPool, tasks: usize) -> Versions {
        let queues = (0..tasks.max(1))
            .map(|_| {
                let (sender, asks) = mpsc::channel(4 * MAX_ASKS);
                tokio::spawn(serve(pool.clone(), asks));
                sender
            })
            .collect();
        Versions {
            queues,
            next: AtomicUsize::new(0),
        }
    }

    /// The lobby's version, or None if there is no such lobby.
    pub async fn version(&self, lobby: Uuid) -> Result<Option<i64>, StoreError> {
        let turn = self.next.fetch_add(1, Ordering::Relaxed) % self.queues.len();
        let (reply, answer) = oneshot::channel();
        let gone = || StoreError::Stopped("version reader");
        self.queues[turn]
            .send(Ask { lobby, reply })
            .await
            .map_err(|_| gone())?;
        answer
            .await
            .map_err(|_| gone())?
            .map_err(StoreError::VersionCheck)
    }
}

async fn serve(pool: AnyPool, mut asks: mpsc::Receiver<Ask>) {
    let mut batch = Vec::with_capacity(MAX_ASKS);
    while next_batch(&mut asks, &mut batch, MAX_ASKS).await {
        let ids = batch.iter().map(|ask| ask.lobby.to_string()).collect();
        let found = match pool.acquire().await {
            Ok(mut conn) => fetch(&mut conn, ids).await,
            Err(error) => Err(error.into()),
        }
        .map_err(Arc::new);
        for ask in batch.drain(..) {
            let answer = match &found {
                Ok(versions) => Ok(versions.get(&ask.lobby).copied()),
                Err(error) => Err(error.clone()),
            };
            // A caller that gave up is no concern of the others.
            let _ = ask.reply.send(answer);
        }
    }
}
