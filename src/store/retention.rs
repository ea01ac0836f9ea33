//! Retention: lobbies that never start, and (if the operator asks) finished games, are deleted
//! once they have been left alone long enough, so that a public server's database does not
//! grow without end.
//!
//! A lobby's age is counted from its last event (every change publishes one), or from its
//! creation if it has none. The sweep runs as a background task on the store's clock, so tests
//! move time instead of waiting. Deleting is safe with several processes sweeping one
//! database: each lobby goes in a transaction of its own that first bumps the lobby's version
//! *if it is still the one the sweep found* (the same compare-and-swap every change makes; it
//! takes the lobby's write lock), so a lobby that changed meanwhile is kept, and one another
//! process has already deleted is simply not found.

use std::time::Duration;

use tokio::sync::watch;
use uuid::Uuid;

use super::columns::Columns;
use super::{Store, StoreError};

const DAY_MILLIS: i64 = 24 * 60 * 60 * 1000;

/// Lobbies looked at per statement while sweeping.
const SWEEP_BATCH: i64 = 500;

/// How long lobbies are kept. Read from the configuration (`config.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retention {
    /// A lobby that never started is deleted this many days after its last change; None: kept.
    pub unstarted_days: Option<u32>,
    /// A finished game is deleted this many days after it finished; None: kept (the default).
    pub finished_days: Option<u32>,
    /// How often the sweep runs.
    pub every: Duration,
}

/// What one sweep deleted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Swept {
    pub unstarted: usize,
    pub finished: usize,
}

/// Lobbies still signing up (or closed but never started) whose last change is older than $1.
const EXPIRED_UNSTARTED: &str = "SELECT id, version FROM lobbies l \
    WHERE status IN ('signups', 'closed') \
    AND COALESCE((SELECT MAX(created_at) FROM events e WHERE e.lobby_id = l.id), l.created_at) < $1 \
    LIMIT $2";

/// Finished games whose last event (the `finished` one) is older than $1.
const EXPIRED_FINISHED: &str = "SELECT id, version FROM lobbies l \
    WHERE status = 'finished' \
    AND COALESCE((SELECT MAX(created_at) FROM events e WHERE e.lobby_id = l.id), l.created_at) < $1 \
    LIMIT $2";

/// A lobby's rows, children first (their foreign keys name the lobby).
const DELETE_LOBBY: [&str; 8] = [
    "DELETE FROM my_games WHERE lobby_id = $1",
    "DELETE FROM messages WHERE lobby_id = $1",
    "DELETE FROM message_reads WHERE lobby_id = $1",
    "DELETE FROM orders WHERE lobby_id = $1",
    "DELETE FROM events WHERE lobby_id = $1",
    "DELETE FROM steps WHERE lobby_id = $1",
    "DELETE FROM players WHERE lobby_id = $1",
    "DELETE FROM lobbies WHERE id = $1",
];

impl Store {
    /// Deletes what `retention` no longer keeps as of `now` (Unix milliseconds).
    pub async fn sweep(&self, retention: &Retention, now: i64) -> Result<Swept, StoreError> {
        let before = |days: u32| now.saturating_sub(i64::from(days).saturating_mul(DAY_MILLIS));
        let mut swept = Swept::default();
        if let Some(days) = retention.unstarted_days {
            swept.unstarted = self.delete_all(EXPIRED_UNSTARTED, before(days)).await?;
        }
        if let Some(days) = retention.finished_days {
            swept.finished = self.delete_all(EXPIRED_FINISHED, before(days)).await?;
        }
        Ok(swept)
    }

    /// Deletes every lobby `query` finds older than `before`, a batch at a time.
    async fn delete_all(&self, query: &'static str, before: i64) -> Result<usize, StoreError> {
        let mut deleted = 0;
        loop {
            let found = sqlx::query(query)
                .bind(before)
                .bind(SWEEP_BATCH)
                .fetch_all(&self.pool)
                .await?;
            let mut this_batch = 0;
            for row in &found {
                let row = Columns::of("lobbies", row);
                if self
                    .delete_lobby(row.uuid("id")?, row.int("version")?)
                    .await?
                {
                    this_batch += 1;
                }
            }
            deleted += this_batch;
            // Done when the query found less than a batch, or none of it could go (each
            // changed meanwhile: the next sweep looks again).
            if found.len() < SWEEP_BATCH as usize || this_batch == 0 {
                return Ok(deleted);
            }
        }
    }

    /// Deletes the lobby and everything of it if it is still at `version`; false if it moved
    /// or is gone already.
    async fn delete_lobby(&self, id: Uuid, version: i64) -> Result<bool, StoreError> {
        let key = id.to_string();
        let mut tx = self.pool.begin().await?;
        let claimed =
            sqlx::query("UPDATE lobbies SET version = version + 1 WHERE id = $1 AND version = $2")
                .bind(&key)
                .bind(version)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        if claimed != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        for statement in DELETE_LOBBY {
            sqlx::query(statement).bind(&key).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        self.cache.forget(id);
        Ok(true)
    }
}

/// Runs the sweep every `retention.every` by the store's clock, from now until the store's
/// pool closes. The receiver counts the sweeps finished so far (tests wait on it).
pub fn spawn(store: Store, retention: Retention) -> watch::Receiver<u64> {
    let (done, sweeps) = watch::channel(0u64);
    let every = i64::try_from(retention.every.as_millis())
        .unwrap_or(i64::MAX)
        .max(1);
    // The first sweep is due an interval from the call (not from whenever the task first
    // runs), so that a clock moved right after this returns is seen.
    let clock = store.clock().clone();
    let mut next = clock.now_millis().saturating_add(every);
    tokio::spawn(async move {
        loop {
            tokio::select! {
                () = clock.sleep_until(next) => {}
                () = store.pool.close_event() => return,
            }
            let now = clock.now_millis();
            match store.sweep(&retention, now).await {
                Ok(swept) if swept != Swept::default() => tracing::info!(
                    unstarted = swept.unstarted,
                    finished = swept.finished,
                    "retention: expired lobbies deleted"
                ),
                Ok(_) => {}
                Err(error) if error.is_storage_full() => super::report_storage_full(&error),
                Err(error) => {
                    tracing::warn!(%error, "retention: the sweep failed; it runs again later")
                }
            }
            done.send_modify(|n| *n += 1);
            next = now.saturating_add(every);
        }
    });
    sweeps
}
