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
use super::writer::next_batch;

/// The versions of `ids` (lobby ids as stored), locking their rows for the transaction if
/// `lock`, in id order (see `writer.rs`). Lobbies that do not exist are absent.
pub(super) async fn fetch(
    conn: &mut AnyConnection,
    mut ids: Vec<String>,
    lock: bool,
) -> Result<HashMap<Uuid, i64>, StoreError> {
    ids.sort_unstable();
    ids.dedup();
    let Some(last) = ids.last().cloned() else {
        return Ok(HashMap::new());
    };
    // A few statement shapes rather than one per count (each is prepared and kept): the list
    // is padded to a power of two by repeating its last id.
    ids.resize(ids.len().next_power_of_two(), last);
    let placeholders: Vec<String> = (1..=ids.len()).map(|n| format!("${n}")).collect();
    let sql = format!(
        "SELECT id, version FROM lobbies WHERE id IN ({}) ORDER BY id{}",
        placeholders.join(", "),
        if lock { " FOR UPDATE" } else { "" }
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
            Ok(mut conn) => fetch(&mut conn, ids, false).await,
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
