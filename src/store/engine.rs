//! The seam between the group-commit writer and a database. The writer (`writer.rs`) owns
//! every decision, once for both backends: which jobs form a batch and in which order, where
//! a lobby's snapshot comes from (the batch's own changes, the cache when the version says it
//! is current, or a fresh read), the caller's decision, a savepoint around a change that a
//! UNIQUE constraint may refuse, what a moved version means, and answering the callers after
//! the commit. An [`Engine`] only runs statements, and chooses when its rows go:
//! - SQLite (`sqlite_engine.rs`): rusqlite on a thread of its own, every row as its change is
//!   applied, the compare-and-swap an UPDATE per change;
//! - PostgreSQL (`pg_engine.rs`): sqlx, the batch's lobbies locked in one statement when it
//!   begins, most rows written at its end, several per statement (`pg_writes.rs`).
//!
//! A new kind of row (a column of a change) is written in the two `apply`s, and read in
//! `load.rs` and `rows.rs`.

use std::collections::HashMap;
use std::sync::Arc;

use uuid::Uuid;

use super::StoreError;
use super::delivery_rows::{OutboxDone, OutboxWork};
use super::feed::Published;
use super::progress::Progress;
use super::rating_rebuild::Rebuilt;
use super::rows::{Change, NewLobby, Snapshot};

/// A database the writer runs its batches on.
pub(super) trait Engine {
    /// One batch's open transaction.
    type Batch<'e>: Batch
    where
        Self: 'e;

    /// Opens the batch's transaction, stamped `at`, taking the write lock for `lobbies` (the
    /// lobbies the batch's transactions name, in id order).
    async fn begin(&mut self, lobbies: &[Uuid], at: i64) -> Result<Self::Batch<'_>, StoreError>;

    /// After the batch's end: whether it committed, and what it changed.
    fn ended(&mut self, progress: &Progress, committed: bool);
}

/// What happened to a decided change's compare-and-swap.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Applied {
    /// Written (or deferred to the commit, which checks the version); the lobby's last event
    /// number.
    Written(i64),
    /// The lobby's version had moved: nothing of the change was written.
    Moved,
}

/// A batch's transaction. Dropped without [`Batch::commit`], it rolls back.
pub(super) trait Batch {
    /// The lobby's committed version, under the batch's lock; None: no such lobby.
    async fn version(&mut self, lobby: Uuid) -> Result<Option<i64>, StoreError>;

    /// The lobby read afresh (the cache holds no current copy); None: no such lobby.
    async fn load(&mut self, lobby: Uuid) -> Result<Option<Snapshot>, StoreError>;

    async fn insert_lobby(&mut self, lobby: &NewLobby) -> Result<(), StoreError>;

    /// Opens a savepoint, so that the next write can be undone alone.
    async fn savepoint(&mut self) -> Result<(), StoreError>;

    /// Closes the savepoint, undoing what was written since it opened if `undo`.
    async fn close_savepoint(&mut self, undo: bool) -> Result<(), StoreError>;

    /// Writes a decided change, made on `snapshot`, guarded by its version.
    async fn apply(&mut self, snapshot: &Snapshot, change: &Change) -> Result<Applied, StoreError>;

    /// Runs the delivery worker's outbox work in this transaction (SQLite: so that it shares
    /// the lobbies' commit instead of taking SQLite's one write lock beside them). PostgreSQL
    /// claims and settles on transactions of its own (several processes claim at once, each
    /// skipping the rows another has locked), so its store never sends it any.
    async fn outbox(&mut self, _work: &OutboxWork) -> Result<OutboxDone, StoreError> {
        Err(StoreError::OutboxElsewhere)
    }

    /// Recomputes every rating from the stored results and writes them (`rating_rebuild.rs`).
    async fn rebuild_ratings(&mut self) -> Result<Rebuilt, StoreError>;

    /// Writes what the batch deferred and commits: `changed` holds each lobby as the batch
    /// leaves it, `published` every written change's events, `bound` the profiles that took
    /// a seat (the batch's [`Progress`]).
    async fn commit(
        self,
        changed: &HashMap<Uuid, Arc<Snapshot>>,
        published: &[(Uuid, Published)],
        bound: &[Uuid],
    ) -> Result<(), StoreError>;
}
