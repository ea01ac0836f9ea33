//! Group commit, once for both backends. Every durable commit costs an fsync (SQLite) or a WAL
//! flush (PostgreSQL), so one transaction per order caps throughput at the disk's flush rate.
//! Instead, a writer takes every change queued while its previous commit was running and
//! applies them in ONE transaction, then commits once and only then answers each caller. An
//! acknowledged change is therefore as durable as before; it simply shares its flush with its
//! neighbours. A change that fails leaves no trace: a join (the one change whose insert a
//! UNIQUE constraint can refuse) runs in its own savepoint and is rolled back alone; any other
//! database error fails the whole batch and every caller in it hears so.
//!
//! SQLite has one writer at a time, so it gets one writer, on a thread of its own. PostgreSQL
//! gets several tasks, each owning a fixed share of the lobbies (by id), so that one lobby's
//! changes are always applied in the order they were queued. Inside a batch the changes are
//! applied in lobby-id order; on PostgreSQL the batch locks all its lobbies' rows in one
//! statement, in id order, before it decides anything, so two transactions (or two processes)
//! always take their row locks in the same order and cannot deadlock.
//!
//! Everything here is the same on both backends; the statements are the [`Engine`]'s.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::mpsc;
use uuid::Uuid;

use super::StoreError;
use super::cache::Cache;
use super::engine::{Applied, Batch, Engine};
use super::feed::Feed;
use super::jobs::{Job, MAX_BATCH, WriteError, Written, next_batch};
use super::pg_engine::PgEngine;
use super::progress::{Ending, Progress};
use super::rows::{Change, Snapshot};
use crate::clock::Clock;

/// Counts of the writers' work: how many shared commits carried how many changes.
#[derive(Debug, Default)]
pub struct GroupCommits {
    commits: AtomicU64,
    changes: AtomicU64,
}

impl GroupCommits {
    fn count(&self, changes: u64) {
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

/// The writers' queues.
#[derive(Clone, Debug)]
pub(super) struct Writers {
    queues: Vec<mpsc::Sender<Job>>,
    pub stats: Arc<GroupCommits>,
}

impl Writers {
    /// The queue of the writer that owns `lobby`.
    pub fn queue(&self, lobby: Uuid) -> &mpsc::Sender<Job> {
        &self.queues[(lobby.as_u128() % self.queues.len() as u128) as usize]
    }
}

/// What every writer shares.
#[derive(Clone)]
pub(super) struct Shared {
    pub cache: Arc<Cache>,
    pub feed: Arc<Feed>,
    pub stats: Arc<GroupCommits>,
    pub clock: Clock,
}

impl Shared {
    pub fn new(cache: Arc<Cache>, feed: Arc<Feed>, clock: Clock) -> Shared {
        Shared {
            cache,
            feed,
            stats: Arc::default(),
            clock,
        }
    }
}

/// Starts one writer per engine, each a task on the tokio runtime (PostgreSQL: its engines'
/// futures wait on the network). Concrete, so that the tasks' futures are known to be `Send`.
pub(super) fn spawn_tasks(engines: Vec<PgEngine>, shared: Shared) -> Writers {
    let stats = shared.stats.clone();
    let queues = engines
        .into_iter()
        .map(|engine| {
            let (sender, jobs) = mpsc::channel::<Job>(4 * MAX_BATCH);
            tokio::spawn(write_loop(engine, shared.clone(), jobs));
            sender
        })
        .collect();
    Writers { queues, stats }
}

/// Starts one writer on a thread of its own (SQLite: its engine's futures are ready when first
/// polled, so the thread runs them without a runtime, and sleeps only waiting for jobs).
pub(super) fn spawn_thread<E>(name: &str, engine: E, shared: Shared) -> Result<Writers, StoreError>
where
    E: Engine + Send + 'static,
{
    let stats = shared.stats.clone();
    let (sender, jobs) = mpsc::channel::<Job>(4 * MAX_BATCH);
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || futures_executor::block_on(write_loop(engine, shared, jobs)))
        .map_err(StoreError::Spawn)?;
    Ok(Writers {
        queues: vec![sender],
        stats,
    })
}

async fn write_loop<E: Engine>(mut engine: E, shared: Shared, mut jobs: mpsc::Receiver<Job>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while next_batch(&mut jobs, &mut batch, MAX_BATCH).await {
        run_batch(&mut engine, &shared, &mut batch).await;
    }
}

/// Runs one batch in one transaction, then answers its callers.
async fn run_batch<E: Engine>(engine: &mut E, shared: &Shared, batch: &mut Vec<Job>) {
    // Stable: one lobby's jobs keep their queue order.
    batch.sort_by_key(Job::lobby);
    let changes = batch.iter().filter(|job| job.changes_a_lobby()).count() as u64;
    let mut progress = Progress::at(shared.clock.now_millis());
    let outcome = in_one_transaction(engine, &shared.cache, batch, &mut progress).await;
    engine.ended(&progress, outcome.is_ok());
    let failed = outcome.err().map(|error| {
        match error.is_storage_full() {
            true => super::error::report_storage_full(&error),
            false => tracing::error!(%error, "a group commit failed; its changes were rolled back"),
        }
        Arc::new(error)
    });
    // Jobs the batch never reached (it failed before them) hear why, as the others do: nothing
    // of theirs was written, and a database that went away is then a 503 to each caller
    // rather than a writer that seems to have stopped.
    if let Some(error) = &failed {
        for job in batch.drain(..) {
            job.fail(error);
        }
    }
    batch.clear();
    finish(progress, failed, shared, changes);
}

async fn in_one_transaction<E: Engine>(
    engine: &mut E,
    cache: &Cache,
    batch: &mut Vec<Job>,
    progress: &mut Progress,
) -> Result<(), StoreError> {
    let lobbies: Vec<Uuid> = batch
        .iter()
        .filter(|job| matches!(job, Job::Transact { .. }))
        .map(Job::lobby)
        .collect();
    let mut tx = engine.begin(&lobbies, progress.at).await?;
    // Taken from the back of the reversed batch, so that the jobs a failure leaves unreached
    // stay in it for `run_batch` to answer.
    batch.reverse();
    while let Some(job) = batch.pop() {
        run_job(&mut tx, cache, job, progress).await?;
    }
    tx.commit(&progress.changed, &progress.published, &progress.bound)
        .await
}

/// Once the batch's fate is known: publishes what it changed (if it committed) and answers
/// every caller.
fn finish(progress: Progress, failed: Option<Arc<StoreError>>, shared: &Shared, changes: u64) {
    let at = progress.at;
    if failed.is_none() {
        // Counted before anyone is answered, so that an answered caller sees its commit.
        shared.stats.count(changes);
        for snapshot in progress.changed.into_values() {
            shared.cache.offer(snapshot);
        }
        for (lobby, events) in progress.published {
            shared.feed.publish(lobby, events);
        }
        for profile in progress.bound {
            shared.feed.bells().ring(profile);
        }
    }
    for ending in progress.endings {
        match (ending, &failed) {
            (Ending::Decided { deliver, result }, None) => {
                deliver(result.map(|event_seq| Written { event_seq, at }))
            }
            (Ending::Decided { deliver, .. }, Some(error)) => deliver(Err(WriteError::Database(
                StoreError::BatchFailed(error.clone()),
            ))),
            (Ending::Created { reply, result }, None) => drop(reply.send(result)),
            (Ending::Created { reply, .. }, Some(error)) => {
                drop(reply.send(Err(StoreError::BatchFailed(error.clone()))))
            }
            (Ending::Outbox { reply, result }, None) => drop(reply.send(result)),
            (Ending::Outbox { reply, .. }, Some(error)) => {
                drop(reply.send(Err(StoreError::BatchFailed(error.clone()))))
            }
            (Ending::Rebuilt { reply, result }, None) => drop(reply.send(result)),
            (Ending::Rebuilt { reply, .. }, Some(error)) => {
                drop(reply.send(Err(StoreError::BatchFailed(error.clone()))))
            }
        }
    }
}

/// Runs one job, recording how it ended. Returns Err if the batch must fail.
async fn run_job(
    tx: &mut impl Batch,
    cache: &Cache,
    job: Job,
    progress: &mut Progress,
) -> Result<(), StoreError> {
    match job {
        Job::CreateLobby { lobby, reply } => {
            tx.savepoint().await?;
            let result = match breaks_batch(tx.insert_lobby(&lobby).await) {
                Ok(result) => result,
                Err(error) => {
                    // Its caller hears the batch's failure instead (`finish`).
                    progress.endings.push(Ending::Created {
                        reply,
                        result: Ok(()),
                    });
                    return Err(error);
                }
            };
            tx.close_savepoint(result.is_err()).await?;
            progress.endings.push(Ending::Created { reply, result });
        }
        Job::Outbox { work, reply } => {
            // In a savepoint of its own: outbox work that fails is undone alone and its
            // caller told, and the batch's lobbies' changes go on as they were.
            tx.savepoint().await?;
            let result = match breaks_batch(tx.outbox(&work).await) {
                Ok(result) => result,
                Err(error) => {
                    // Its caller hears the batch's failure instead (`finish`).
                    progress.endings.push(Ending::Outbox {
                        reply,
                        result: Err(StoreError::ReadFailed),
                    });
                    return Err(error);
                }
            };
            tx.close_savepoint(result.is_err()).await?;
            progress.endings.push(Ending::Outbox { reply, result });
        }
        Job::RebuildRatings { reply } => {
            // In a savepoint of its own, as outbox work: a rebuild that fails is undone
            // alone, its caller told, and the batch's lobbies' changes go on as they were.
            tx.savepoint().await?;
            let result = match breaks_batch(tx.rebuild_ratings().await) {
                Ok(result) => result,
                Err(error) => {
                    // Its caller hears the batch's failure instead (`finish`).
                    progress.endings.push(Ending::Rebuilt {
                        reply,
                        result: Err(StoreError::ReadFailed),
                    });
                    return Err(error);
                }
            };
            tx.close_savepoint(result.is_err()).await?;
            progress.endings.push(Ending::Rebuilt { reply, result });
        }
        Job::Transact { lobby, decide } => {
            let current = match progress.changed.get(&lobby) {
                Some(changed) => Ok(Some(changed.clone())),
                None => current(tx, cache, lobby).await,
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
            match write(tx, &snapshot, &change).await {
                Ok(result) => progress.written(cache, &snapshot, change, deliver, result),
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
    tx: &mut impl Batch,
    snapshot: &Snapshot,
    change: &Change,
) -> Result<Result<i64, WriteError>, StoreError> {
    let moved = |applied| match applied {
        Applied::Written(event_seq) => Ok(event_seq),
        Applied::Moved => Err(WriteError::Conflict),
    };
    if !change.touches_players() {
        return Ok(moved(tx.apply(snapshot, change).await?));
    }
    tx.savepoint().await?;
    let result = breaks_batch(tx.apply(snapshot, change).await)?;
    tx.close_savepoint(result.is_err()).await?;
    Ok(match result {
        Ok(applied) => moved(applied),
        Err(error) => Err(WriteError::Database(error)),
    })
}

/// A savepoint's failure that must fail the whole batch instead: a full storage. Every later
/// write of the batch would fail the same way, and SQLite may already have rolled the whole
/// transaction back on `SQLITE_FULL`, savepoint and all, so that closing the savepoint would
/// fail with a misleading error of its own.
fn breaks_batch<T>(result: Result<T, StoreError>) -> Result<Result<T, StoreError>, StoreError> {
    match result {
        Err(error) if error.is_storage_full() => Err(error),
        other => Ok(other),
    }
}

/// The lobby as committed, from the cache when its version says the cached copy is current
/// (the batch holds the lobby's write lock, so it stays current until the commit).
async fn current(
    tx: &mut impl Batch,
    cache: &Cache,
    lobby: Uuid,
) -> Result<Option<Arc<Snapshot>>, StoreError> {
    let Some(version) = tx.version(lobby).await? else {
        return Ok(None);
    };
    if let Some(cached) = cache.get(lobby, version) {
        return Ok(Some(cached));
    }
    let loaded = tx.load(lobby).await?.map(Arc::new);
    if let Some(loaded) = &loaded {
        // Not written in this batch (those come from `changed`), so this is committed state.
        cache.offer(loaded.clone());
    }
    Ok(loaded)
}
