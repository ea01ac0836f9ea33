//! Group commit, for both backends. Every durable commit costs an fsync (SQLite) or a WAL flush
//! (PostgreSQL), so one transaction per order caps throughput at the disk's flush rate. Instead,
//! a writer task takes every change queued while its previous commit was running and applies
//! them in ONE transaction, then commits once and only then answers each caller. An
//! acknowledged change is therefore as durable as before; it simply shares its flush with its
//! neighbours. A change that fails leaves no trace: a join (the one change whose insert a
//! UNIQUE constraint can refuse) runs in its own savepoint and is rolled back alone; any other
//! database error fails the whole batch and every caller in it hears so.
//!
//! SQLite has one writer at a time, so it gets one writer task. PostgreSQL gets several, each
//! owning a fixed share of the lobbies (by id), so that one lobby's changes are always applied
//! in the order they were queued. Inside a batch the changes are applied in lobby-id order; on
//! PostgreSQL the batch locks all its lobbies' rows in one statement, in id order, before it
//! decides anything, so two transactions (or two processes) always take their row locks in the
//! same order and cannot deadlock.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::{AnyConnection, AnyPool, Connection, Executor, Row};
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use super::cache::Cache;
use super::feed::{Feed, Published};
use super::pg_writes::{Deferred, apply};
use super::rows::{self, Change, EventRow, LOBBY_BY_ID, NewLobby, Snapshot};
use super::transact::{WriteError, insert_lobby};
use super::versions;
use crate::clock::Clock;

/// The most changes one transaction takes.
pub(super) const MAX_BATCH: usize = 512;

/// What a writer found for a decision to be taken on.
pub(super) enum Read<'a> {
    Found(&'a Snapshot),
    /// No such lobby.
    Missing,
    /// The read failed; the batch fails with it.
    Failed,
}

/// What a caller's decision produced: the change to apply (None: refused, nothing to write) and
/// how to answer the caller once the batch's fate is known (the lobby's last event number).
pub(super) struct Decision {
    pub change: Option<Change>,
    pub deliver: Deliver,
}

/// Answers one caller, once the batch's fate is known.
pub(super) type Deliver = Box<dyn FnOnce(Result<Written, WriteError>) + Send>;

/// What a committed change left: the lobby's last event number, and the batch's instant
/// (the time every row it wrote carries).
#[derive(Clone, Copy, Debug)]
pub(super) struct Written {
    pub event_seq: i64,
    pub at: i64,
}

/// A decision to take on what the writer read.
pub(super) type Decide = Box<dyn FnOnce(Read<'_>) -> Decision + Send>;

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

impl Job {
    pub fn lobby(&self) -> Uuid {
        match self {
            Job::Transact { lobby, .. } => *lobby,
            Job::CreateLobby { lobby, .. } => lobby.id,
        }
    }
}

/// Counts of the writers' work: how many shared commits carried how many changes.
#[derive(Debug, Default)]
pub struct GroupCommits {
    commits: AtomicU64,
    changes: AtomicU64,
}

impl GroupCommits {
    pub(super) fn count(&self, changes: u64) {
        self.commits.fetch_add(1, Ordering::Relaxed);
        self.changes.fetch_add(changes, Ordering::Relaxed);
    }

    /// (commits, changes) so far.
    pub fn read(&self) -> (u64, u64) {
        (
            self.commits.load(Ordering::Relaxed),
            self.changes.load(Ordering::Relaxed),
        )
    }
}

/// The writer tasks' queues.
#[derive(Clone, Debug)]
pub(super) struct Writers {
    queues: Vec<mpsc::Sender<Job>>,
    pub stats: Arc<GroupCommits>,
}

impl Writers {
    pub fn new(queues: Vec<mpsc::Sender<Job>>, stats: Arc<GroupCommits>) -> Writers {
        Writers { queues, stats }
    }

    /// The queue of the writer that owns `lobby`.
    pub fn queue(&self, lobby: Uuid) -> &mpsc::Sender<Job> {
        &self.queues[(lobby.as_u128() % self.queues.len() as u128) as usize]
    }
}

/// What every writer task shares.
#[derive(Clone)]
struct Shared {
    pool: AnyPool,
    cache: Arc<Cache>,
    feed: Arc<Feed>,
    stats: Arc<GroupCommits>,
    clock: Clock,
}

/// Starts `count` writer tasks on the (PostgreSQL) pool.
pub(super) fn spawn(
    pool: AnyPool,
    cache: Arc<Cache>,
    feed: Arc<Feed>,
    clock: Clock,
    count: usize,
) -> Writers {
    let stats = Arc::new(GroupCommits::default());
    let shared = Shared {
        pool,
        cache,
        feed,
        stats: stats.clone(),
        clock,
    };
    let queues = (0..count)
        .map(|_| {
            let (sender, jobs) = mpsc::channel::<Job>(4 * MAX_BATCH);
            tokio::spawn(write_loop(shared.clone(), jobs));
            sender
        })
        .collect();
    Writers { queues, stats }
}

/// Waits for the next item, then takes every item already queued behind it, up to `max`:
/// what a task that shares one statement or commit among queued requests runs on. False once
/// the queue is closed and empty.
pub(super) async fn next_batch<T>(
    queue: &mut mpsc::Receiver<T>,
    batch: &mut Vec<T>,
    max: usize,
) -> bool {
    let Some(first) = queue.recv().await else {
        return false;
    };
    batch.push(first);
    while batch.len() < max {
        match queue.try_recv() {
            Ok(item) => batch.push(item),
            Err(_) => break,
        }
    }
    true
}

async fn write_loop(shared: Shared, mut jobs: mpsc::Receiver<Job>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while next_batch(&mut jobs, &mut batch, MAX_BATCH).await {
        run_batch(&shared, &mut batch).await;
    }
}

/// How a job ended inside the transaction, to be told once the commit is known.
pub(super) enum Ending {
    Decided {
        deliver: Deliver,
        result: Result<i64, WriteError>,
    },
    Created {
        reply: oneshot::Sender<Result<(), sqlx::Error>>,
        result: Result<(), sqlx::Error>,
    },
}

/// The batch so far: how each job ended, and each changed lobby as it will be once committed.
pub(super) struct Progress {
    /// The batch's instant, from the store's clock: what every row it writes is stamped with.
    pub at: i64,
    pub endings: Vec<Ending>,
    pub changed: HashMap<Uuid, Arc<Snapshot>>,
    /// Each written change's events, numbered, in the order written (for the `Feed`).
    pub published: Vec<(Uuid, Published)>,
}

impl Progress {
    /// A batch that runs at `at`, with nothing done yet.
    pub fn at(at: i64) -> Progress {
        Progress {
            at,
            endings: Vec::new(),
            changed: HashMap::new(),
            published: Vec::new(),
        }
    }
}

/// The steps of a `Job::Transact` that both writers (this one and `sqlite_writer.rs`) share;
/// only reading and writing differ between them.
impl Progress {
    /// The lobby as this batch leaves it, if the batch has changed it already.
    pub fn changed(&self, lobby: Uuid) -> Option<Arc<Snapshot>> {
        self.changed.get(&lobby).cloned()
    }

    /// Reading the lobby failed, so the batch fails: its caller hears the batch's failure.
    pub fn read_failed(&mut self, decide: Decide) {
        let Decision { deliver, .. } = decide(Read::Failed);
        self.broke(deliver);
    }

    /// The batch broke while this job ran: its caller hears the batch's failure.
    pub fn broke(&mut self, deliver: Deliver) {
        self.endings.push(Ending::Decided {
            deliver,
            result: Ok(0),
        });
    }

    /// Lets the caller decide on what was read. Returns what to write, or None if there is
    /// nothing to write (refused, or no such lobby: the caller's answer is already recorded).
    pub fn decide(
        &mut self,
        decide: Decide,
        snapshot: Option<Arc<Snapshot>>,
    ) -> Option<(Arc<Snapshot>, Change, Deliver)> {
        let read = match &snapshot {
            Some(snapshot) => Read::Found(snapshot),
            None => Read::Missing,
        };
        let Decision { change, deliver } = decide(read);
        match (change, snapshot) {
            (Some(change), Some(snapshot)) => Some((snapshot, change, deliver)),
            _ => {
                self.endings.push(Ending::Decided {
                    deliver,
                    result: Ok(0),
                });
                None
            }
        }
    }

    /// Records a written change: its lobby as the commit will leave it or, if the version had
    /// moved, nothing held of it at all.
    pub fn written(
        &mut self,
        cache: &Cache,
        snapshot: &Snapshot,
        change: Change,
        deliver: Deliver,
        result: Result<i64, WriteError>,
    ) {
        let lobby = snapshot.lobby.id;
        match &result {
            Ok(_) => {
                let first = snapshot.lobby.event_seq + 1;
                let events: Published = (first..)
                    .zip(&change.events)
                    .map(|(seq, event)| EventRow {
                        seq,
                        kind: event.kind.to_string(),
                        data: event.data.clone(),
                    })
                    .collect();
                self.published.push((lobby, events));
                let after = snapshot.after(change, self.at);
                self.changed.insert(lobby, Arc::new(after));
            }
            Err(WriteError::Conflict) => {
                // Nothing was written (the version check comes first), but what we hold of
                // this lobby is not current: reload it next time.
                self.changed.remove(&lobby);
                cache.forget(lobby);
            }
            Err(WriteError::Database(_)) => {}
        }
        self.endings.push(Ending::Decided { deliver, result });
    }
}

/// Runs one batch in one transaction.
async fn run_batch(shared: &Shared, batch: &mut Vec<Job>) {
    // Stable: one lobby's jobs keep their queue order.
    batch.sort_by_key(Job::lobby);
    let changes = batch.len() as u64;
    let mut progress = Progress::at(shared.clock.now_millis());
    let changed: Vec<String> = batch
        .iter()
        .filter(|job| matches!(job, Job::Transact { .. }))
        .map(|job| job.lobby().to_string())
        .collect();
    let outcome = async {
        let mut conn = shared.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        // Every lobby the batch will change, locked in one statement, in id order (the order
        // the batch runs in), so that two batches or two processes never wait in a cycle.
        let locked = versions::fetch(&mut tx, changed, true).await?;
        let mut deferred = Deferred::at(progress.at);
        for job in batch.drain(..) {
            run_job(shared, &mut tx, &locked, &mut deferred, job, &mut progress).await?;
        }
        deferred
            .write(&mut tx, &progress.changed, &progress.published)
            .await?;
        tx.commit().await
    }
    .await;
    // Jobs the batch never reached were dropped with it: their callers see the channel close
    // and answer with an error; nothing of theirs was written.
    batch.clear();
    let failed = outcome.err().map(|e| e.to_string());
    finish(
        progress,
        failed,
        &shared.cache,
        &shared.feed,
        &shared.stats,
        changes,
    );
}

/// Once the batch's fate is known: publishes what it changed (if it committed) and answers
/// every caller.
pub(super) fn finish(
    progress: Progress,
    failed: Option<String>,
    cache: &Cache,
    feed: &Feed,
    stats: &GroupCommits,
    changes: u64,
) {
    let at = progress.at;
    match &failed {
        None => {
            // Counted before anyone is answered, so that an answered caller sees its commit.
            stats.count(changes);
            for snapshot in progress.changed.into_values() {
                cache.offer(snapshot);
            }
            for (lobby, events) in progress.published {
                feed.publish(lobby, events);
            }
        }
        Some(error) => {
            tracing::error!(%error, "a group commit failed; its changes were rolled back")
        }
    }
    for ending in progress.endings {
        match (ending, &failed) {
            (Ending::Decided { deliver, result }, None) => {
                deliver(result.map(|event_seq| Written { event_seq, at }))
            }
            (Ending::Decided { deliver, .. }, Some(error)) => deliver(Err(batch_failed(error))),
            (Ending::Created { reply, result }, None) => drop(reply.send(result)),
            (Ending::Created { reply, .. }, Some(error)) => {
                drop(reply.send(Err(sqlx::Error::Protocol(error.clone()))))
            }
        }
    }
}

fn batch_failed(error: &str) -> WriteError {
    WriteError::Database(sqlx::Error::Protocol(format!(
        "the shared transaction failed: {error}"
    )))
}

/// Runs one job, recording how it ended. Returns Err if the batch must fail.
async fn run_job(
    shared: &Shared,
    conn: &mut AnyConnection,
    locked: &HashMap<Uuid, i64>,
    deferred: &mut Deferred,
    job: Job,
    progress: &mut Progress,
) -> Result<(), sqlx::Error> {
    match job {
        Job::CreateLobby { lobby, reply } => {
            conn.execute("SAVEPOINT job").await?;
            let result = insert_lobby(&mut *conn, &lobby).await;
            close_savepoint(conn, result.is_err()).await?;
            progress.endings.push(Ending::Created { reply, result });
        }
        Job::Transact { lobby, decide } => {
            let current = match progress.changed(lobby) {
                Some(changed) => Ok(Some(changed)),
                None => current(shared, conn, locked, lobby).await,
            };
            let snapshot = match current {
                Ok(snapshot) => snapshot,
                Err(error) => {
                    progress.read_failed(decide);
                    return Err(error);
                }
            };
            let Some((snapshot, change, deliver)) = progress.decide(decide, snapshot) else {
                return Ok(());
            };
            match write(conn, &snapshot, &change, deferred).await {
                Ok(result) => progress.written(&shared.cache, &snapshot, change, deliver, result),
                Err(error) => {
                    progress.broke(deliver);
                    return Err(error);
                }
            }
        }
    }
    Ok(())
}

/// Writes one decided change. A join runs in a savepoint, so that a UNIQUE refusal rolls back
/// that change alone (the inner error); any other database error breaks the batch (the outer
/// error), since the change may be half-written.
async fn write(
    conn: &mut AnyConnection,
    snapshot: &Snapshot,
    change: &Change,
    deferred: &mut Deferred,
) -> Result<Result<i64, WriteError>, sqlx::Error> {
    if !change.touches_players() {
        return match apply(&mut *conn, snapshot, change, deferred).await {
            Err(WriteError::Database(error)) => Err(error),
            other => Ok(other),
        };
    }
    conn.execute("SAVEPOINT job").await?;
    let result = apply(&mut *conn, snapshot, change, deferred).await;
    close_savepoint(conn, result.is_err()).await?;
    Ok(result)
}

/// The lobby as committed, from the cache when the database says the cached copy is current.
/// Its row is locked until the batch commits: by the batch's first statement, or else here (a lobby the
/// batch did not find when it began, such as one another process has just created).
async fn current(
    shared: &Shared,
    conn: &mut AnyConnection,
    locked: &HashMap<Uuid, i64>,
    lobby: Uuid,
) -> Result<Option<Arc<Snapshot>>, sqlx::Error> {
    let version: i64 = match locked.get(&lobby) {
        Some(version) => *version,
        None => {
            let Some(row) = sqlx::query(rows::LOBBY_VERSION_FOR_UPDATE)
                .bind(lobby.to_string())
                .fetch_optional(&mut *conn)
                .await?
            else {
                return Ok(None);
            };
            row.try_get(0)?
        }
    };
    if let Some(cached) = shared.cache.get(lobby, version) {
        return Ok(Some(cached));
    }
    let loaded = rows::load_snapshot(&mut *conn, lobby, LOBBY_BY_ID)
        .await?
        .map(Arc::new);
    if let Some(loaded) = &loaded {
        // Not written in this batch (those come from `changed`), so this is committed state.
        shared.cache.offer(loaded.clone());
    }
    Ok(loaded)
}

async fn close_savepoint(conn: &mut AnyConnection, failed: bool) -> Result<(), sqlx::Error> {
    if failed {
        conn.execute("ROLLBACK TO SAVEPOINT job").await?;
    }
    conn.execute("RELEASE SAVEPOINT job").await?;
    Ok(())
}
