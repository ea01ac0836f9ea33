//! The writer's job queue: what a job asks of the writer (a lobby's change, a new lobby, the
//! delivery worker's outbox work), how its caller is answered once the batch's fate is known,
//! and how a batch is taken off the queue. The writer (`writer.rs`) runs the jobs; the store's
//! callers (`transact.rs`, `deliveries.rs`) queue them.

use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use super::StoreError;
use super::delivery_rows::{OutboxDone, OutboxWork};
use super::rating_rebuild::Rebuilt;
use super::rows::{Change, NewLobby, Snapshot};

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
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
    /// The delivery worker's claims and settlements (SQLite only: `deliveries.rs`).
    Outbox {
        work: OutboxWork,
        reply: oneshot::Sender<Result<OutboxDone, StoreError>>,
    },
    /// `herald ratings rebuild` (`rating_rebuild.rs`): in a writer's transaction, as every
    /// other rating write is.
    RebuildRatings {
        reply: oneshot::Sender<Result<Rebuilt, StoreError>>,
    },
}

impl Job {
    /// Answers the job's caller that the shared transaction failed before reaching it.
    pub(super) fn fail(self, error: &Arc<StoreError>) {
        match self {
            Job::Transact { decide, .. } => {
                let Decision { deliver, .. } = decide(Read::Failed);
                deliver(Err(WriteError::Database(StoreError::BatchFailed(
                    error.clone(),
                ))));
            }
            Job::CreateLobby { reply, .. } => {
                let _ = reply.send(Err(StoreError::BatchFailed(error.clone())));
            }
            Job::Outbox { reply, .. } => {
                let _ = reply.send(Err(StoreError::BatchFailed(error.clone())));
            }
            Job::RebuildRatings { reply } => {
                let _ = reply.send(Err(StoreError::BatchFailed(error.clone())));
            }
        }
    }

    /// The lobby the job is about (outbox work and a rebuild are about none, and sort first:
    /// a rated finish in the same batch then starts from the rebuilt ratings).
    pub fn lobby(&self) -> Uuid {
        match self {
            Job::Transact { lobby, .. } => *lobby,
            Job::CreateLobby { lobby, .. } => lobby.id,
            Job::Outbox { .. } | Job::RebuildRatings { .. } => Uuid::nil(),
        }
    }

    /// Whether the job changes a lobby (what the group-commit counts count).
    pub(super) fn changes_a_lobby(&self) -> bool {
        match self {
            Job::Transact { .. } | Job::CreateLobby { .. } => true,
            Job::Outbox { .. } | Job::RebuildRatings { .. } => false,
        }
    }
}

/// Why writing a decided change failed (writing never refuses: deciding did that).
#[derive(Debug)]
pub(super) enum WriteError {
    /// The lobby's version moved between the read and the write.
    Conflict,
    Database(StoreError),
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
