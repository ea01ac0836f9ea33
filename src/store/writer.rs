//! Group commit for SQLite. SQLite has one writer at a time and every durable commit costs an
//! fsync, so one transaction per order caps throughput at the disk's fsync rate. Instead, one
//! writer task takes every change queued while the previous commit was running and applies them
//! in ONE transaction, each inside its own savepoint (a failing change is rolled back alone),
//! then commits once and only then answers each caller. An acknowledged change is therefore as
//! durable as before; it simply shares its fsync with its neighbours.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::{AnyConnection, AnyPool, Connection, Executor};
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use super::rows::{self, Change, LOBBY_BY_ID, NewLobby, Snapshot};
use super::transact::{WriteError, apply, insert_lobby};

/// The most changes one transaction takes.
const MAX_BATCH: usize = 512;

/// What a caller's decision produced: the change to apply (None: refused, nothing to write) and
/// how to answer the caller once the batch's fate is known (the lobby's last event number).
pub(super) struct Decision {
    pub change: Option<Change>,
    pub deliver: Box<dyn FnOnce(Result<i64, WriteError>) + Send>,
}

/// A decision to take on a lobby's snapshot (None if the lobby does not exist).
pub(super) type Decide = Box<dyn FnOnce(Option<&Snapshot>) -> Decision + Send>;

pub(super) enum Job {
    Transact {
        lobby: Uuid,
        decide: Decide,
    },
    CreateLobby {
        lobby: NewLobby,
        reply: oneshot::Sender<Result<(), sqlx::Error>>,
    },
}

/// Counts of the writer's work: how many shared commits carried how many changes.
#[derive(Debug, Default)]
pub struct GroupCommits {
    commits: AtomicU64,
    changes: AtomicU64,
}

impl GroupCommits {
    /// (commits, changes) so far.
    pub fn read(&self) -> (u64, u64) {
        (
            self.commits.load(Ordering::Relaxed),
            self.changes.load(Ordering::Relaxed),
        )
    }
}

/// Starts the writer task; returns the queue that feeds it and its counters.
pub(super) fn spawn(pool: AnyPool) -> (mpsc::Sender<Job>, Arc<GroupCommits>) {
    let (sender, mut jobs) = mpsc::channel::<Job>(4 * MAX_BATCH);
    let stats = Arc::new(GroupCommits::default());
    let counters = stats.clone();
    tokio::spawn(async move {
        let mut batch = Vec::with_capacity(MAX_BATCH);
        while let Some(first) = jobs.recv().await {
            batch.push(first);
            while batch.len() < MAX_BATCH {
                match jobs.try_recv() {
                    Ok(job) => batch.push(job),
                    Err(_) => break,
                }
            }
            let changes = batch.len() as u64;
            if run_batch(&pool, &mut batch).await {
                counters.commits.fetch_add(1, Ordering::Relaxed);
                counters.changes.fetch_add(changes, Ordering::Relaxed);
            }
        }
    });
    (sender, stats)
}

/// How a job ended inside the transaction, to be told once the commit is known.
enum Ending {
    Decided {
        deliver: Box<dyn FnOnce(Result<i64, WriteError>) + Send>,
        result: Result<i64, WriteError>,
    },
    Created {
        reply: oneshot::Sender<Result<(), sqlx::Error>>,
        result: Result<(), sqlx::Error>,
    },
}

/// Runs one batch in one transaction; true if it committed.
async fn run_batch(pool: &AnyPool, batch: &mut Vec<Job>) -> bool {
    let mut endings = Vec::with_capacity(batch.len());
    let outcome = async {
        let mut conn = pool.acquire().await?;
        // IMMEDIATE takes the write lock up front (another process may hold the file too).
        let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
        for job in batch.drain(..) {
            endings.push(run_job(&mut tx, job).await?);
        }
        tx.commit().await
    }
    .await;
    // Jobs the batch never reached were dropped with it: their callers see the channel close
    // and answer with an error; nothing of theirs was written.
    batch.clear();
    let failed = outcome.as_ref().err().map(|e| e.to_string());
    if let Some(error) = &failed {
        tracing::error!(%error, "a group commit failed; its changes were rolled back");
    }
    for ending in endings {
        match (ending, &failed) {
            (Ending::Decided { deliver, result }, None) => deliver(result),
            (Ending::Decided { deliver, .. }, Some(error)) => deliver(Err(batch_failed(error))),
            (Ending::Created { reply, result }, None) => drop(reply.send(result)),
            (Ending::Created { reply, .. }, Some(error)) => {
                drop(reply.send(Err(sqlx::Error::Protocol(error.clone()))))
            }
        }
    }
    failed.is_none()
}

fn batch_failed(error: &str) -> WriteError {
    WriteError::Database(sqlx::Error::Protocol(format!(
        "the shared transaction failed: {error}"
    )))
}

/// Runs one job. Reads need no protection; a change is applied inside its own savepoint, so
/// that if it fails it is rolled back alone. Returns Err only if the transaction is broken.
async fn run_job(conn: &mut AnyConnection, job: Job) -> Result<Ending, sqlx::Error> {
    match job {
        Job::CreateLobby { lobby, reply } => {
            conn.execute("SAVEPOINT job").await?;
            let result = insert_lobby(&mut *conn, &lobby).await;
            close_savepoint(conn, result.is_err()).await?;
            Ok(Ending::Created { reply, result })
        }
        Job::Transact { lobby, decide } => {
            let snapshot = match rows::load_snapshot(&mut *conn, lobby, LOBBY_BY_ID).await {
                Ok(snapshot) => snapshot,
                Err(error) => {
                    let Decision { deliver, .. } = decide(None);
                    return Ok(Ending::Decided {
                        deliver,
                        result: Err(WriteError::Database(error)),
                    });
                }
            };
            let Decision { change, deliver } = decide(snapshot.as_ref());
            let result = match (change, &snapshot) {
                (Some(change), Some(snapshot)) => {
                    conn.execute("SAVEPOINT job").await?;
                    let result = apply(&mut *conn, snapshot, change).await;
                    close_savepoint(conn, result.is_err()).await?;
                    result
                }
                // Refused, or no such lobby: the caller already knows; nothing to write.
                (None, _) | (Some(_), None) => Ok(0),
            };
            Ok(Ending::Decided { deliver, result })
        }
    }
}

async fn close_savepoint(conn: &mut AnyConnection, failed: bool) -> Result<(), sqlx::Error> {
    if failed {
        conn.execute("ROLLBACK TO SAVEPOINT job").await?;
    }
    conn.execute("RELEASE SAVEPOINT job").await?;
    Ok(())
}
