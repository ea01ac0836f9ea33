//! PostgreSQL's [`Engine`]: sqlx, on a pooled connection per batch. A batch locks all its
//! lobbies' rows in its first statement (in id order, see `writer.rs`), writes the rows that
//! cannot wait as each change is applied and defers the rest to its end, where they go several
//! per statement (`pg_writes.rs`); the compare-and-swap is that final UPDATE of the lobbies.
//! Its last statement announces the batch to the other processes on the database
//! (`pg_listen.rs`).

use std::collections::HashMap;
use std::sync::Arc;

use sqlx::{Any, AnyConnection, AnyPool, Executor, Transaction};
use uuid::Uuid;

use super::columns::Columns;
use super::engine::{Applied, Batch, Engine};
use super::feed::Published;
use super::load::load_snapshot;
use super::pg_listen::{announce, announce_profiles};
use super::pg_writes::{Deferred, apply};
use super::progress::Progress;
use super::rating_rebuild::Rebuilt;
use super::rows::{Change, NewLobby, Snapshot, Status};
use super::{StoreError, sql, versions};

/// A writer's access to the database.
pub(super) struct PgEngine {
    pool: AnyPool,
    /// This process's id in its announcements.
    process: Arc<str>,
}

impl PgEngine {
    pub fn new(pool: AnyPool, process: Arc<str>) -> PgEngine {
        PgEngine { pool, process }
    }
}

/// A batch's transaction (it rolls back when dropped uncommitted).
pub(super) struct PgBatch {
    tx: Transaction<'static, Any>,
    /// The versions of the lobbies locked when the batch began.
    locked: HashMap<Uuid, i64>,
    deferred: Deferred,
    process: Arc<str>,
    /// Whether another process listened when the batch began (None: the batch found no lobby
    /// to lock then, and its announcement looks for itself).
    heard: Option<bool>,
}

impl Engine for PgEngine {
    type Batch<'e> = PgBatch;

    async fn begin(&mut self, lobbies: &[Uuid], at: i64) -> Result<PgBatch, StoreError> {
        let mut tx = self.pool.begin().await?;
        // Every lobby the batch will change, locked in one statement, in id order (the order
        // the batch runs in), so that two batches or two processes never wait in a cycle.
        let ids = lobbies.iter().map(Uuid::to_string).collect();
        let locked = versions::lock_batch(&mut tx, ids, &self.process).await?;
        Ok(PgBatch {
            tx,
            locked: locked.versions,
            deferred: Deferred::at(at),
            process: self.process.clone(),
            heard: locked.heard,
        })
    }

    fn ended(&mut self, _progress: &Progress, _committed: bool) {}
}

impl Batch for PgBatch {
    /// From the batch's first statement, or else locked here (a lobby the batch did not find
    /// when it began, such as one another process has just created).
    async fn version(&mut self, lobby: Uuid) -> Result<Option<i64>, StoreError> {
        if let Some(version) = self.locked.get(&lobby) {
            return Ok(Some(*version));
        }
        let row = sqlx::query(sql::LOBBY_VERSION_FOR_UPDATE)
            .bind(lobby.to_string())
            .fetch_optional(&mut *self.tx)
            .await?;
        row.map(|row| Columns::of("lobbies", &row).int("version"))
            .transpose()
    }

    async fn load(&mut self, lobby: Uuid) -> Result<Option<Snapshot>, StoreError> {
        load_snapshot(&mut *self.tx, lobby).await
    }

    async fn insert_lobby(&mut self, lobby: &NewLobby) -> Result<(), StoreError> {
        sqlx::query(sql::INSERT_LOBBY)
            .bind(lobby.id.to_string())
            .bind(&lobby.game)
            .bind(&lobby.name)
            .bind(&lobby.settings)
            .bind(Status::Signups.as_str())
            .bind(&lobby.host_token_hash)
            .bind(lobby.seed as i64)
            .bind(lobby.created_at)
            .bind(&lobby.timing)
            .bind(&lobby.seed_salt)
            .bind(i64::from(lobby.unlisted))
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    async fn savepoint(&mut self) -> Result<(), StoreError> {
        let conn: &mut AnyConnection = &mut self.tx;
        conn.execute("SAVEPOINT job").await?;
        Ok(())
    }

    async fn close_savepoint(&mut self, undo: bool) -> Result<(), StoreError> {
        let conn: &mut AnyConnection = &mut self.tx;
        if undo {
            conn.execute("ROLLBACK TO SAVEPOINT job").await?;
        }
        conn.execute("RELEASE SAVEPOINT job").await?;
        Ok(())
    }

    async fn rebuild_ratings(&mut self) -> Result<Rebuilt, StoreError> {
        super::rating_rebuild::rebuild_pg(&mut self.tx).await
    }

    async fn apply(&mut self, snapshot: &Snapshot, change: &Change) -> Result<Applied, StoreError> {
        let conn: &mut AnyConnection = &mut self.tx;
        let event_seq = apply(conn, snapshot, change, &mut self.deferred).await?;
        Ok(Applied::Written(event_seq))
    }

    async fn commit(
        mut self,
        changed: &HashMap<Uuid, Arc<Snapshot>>,
        published: &[(Uuid, Published)],
        bound: &[Uuid],
    ) -> Result<(), StoreError> {
        let clocks = std::mem::take(&mut self.deferred.clocks);
        self.deferred
            .write(&mut self.tx, changed, published)
            .await?;
        // In the transaction: delivered only if it commits, once its rows are visible; not at
        // all if the batch's first statement found nobody else listening.
        if self.heard != Some(false) {
            announce(&mut self.tx, &self.process, changed, published, &clocks).await?;
            announce_profiles(&mut self.tx, &self.process, bound).await?;
        }
        self.tx.commit().await?;
        Ok(())
    }
}
