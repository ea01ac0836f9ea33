//! Storage: SQLite (the default, an embedded file) and PostgreSQL behind one small API.
//!
//! The schema has TEXT and BIGINT columns only, and the statements are written once
//! (`sql.rs`); rows are read by column name through one mapping (`rows.rs`, `columns.rs`), and a
//! snapshot through one loader (`load.rs`). Migrations and the rarer reads go through sqlx's
//! `Any` driver on both backends. Writes go through one group-commit writer (`writer.rs`) on
//! one seam (`engine.rs`), with an engine per backend: rusqlite on its own thread for SQLite
//! (`sqlite_engine.rs`), sqlx tasks for PostgreSQL (`pg_engine.rs`). Every state change goes through
//! [`Store::transact`]: the writer takes the lobby's [`Snapshot`] under its write lock (from the
//! cache when the row's version says it is current, `cache.rs`), lets the caller decide a
//! [`Change`], and applies that change in the same transaction, guarded by the lobby's version
//! (compare-and-swap). That is what makes a step resolve exactly once. On PostgreSQL, where each
//! statement costs the database more than its rows, a batch locks its lobbies in one statement
//! and writes its rows once at its end (`pg_writes.rs`), and concurrent reads' version checks
//! share statements (`versions.rs`). Each commit's events go to this process's event streams
//! through the feed (`feed.rs`); on PostgreSQL each batch also announces itself to the other
//! processes on the database, whose listener wakes their streams, scheduler and notification
//! worker (`pg_listen.rs`). Every failure is a [`StoreError`] that keeps its cause
//! (`error.rs`).

pub mod bells;
mod cache;
mod challenges;
mod columns;
mod deliveries;
mod delivery_rows;
mod due;
mod engine;
mod error;
pub mod feed;
mod handoff;
mod jobs;
mod ladder;
mod load;
mod mail_codes;
mod messages;
mod my_games;
pub mod outbox;
mod outbox_scope;
mod owed;
mod passkeys;
mod pg_engine;
mod pg_listen;
mod pg_writes;
mod profile_games;
mod profile_rows;
mod profiles;
mod progress;
mod rating_rebuild;
mod rating_rows;
mod rating_writes;
mod ratings;
mod reminders;
pub mod retention;
mod rows;
mod sessions;
mod sql;
mod sqlite_engine;
mod sqlite_lock;
mod sqlite_outbox;
mod tournament_news;
mod tournaments;
mod transact;
#[cfg(test)]
mod upgrades;
mod vacations;
mod versions;
mod writer;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use crate::clock::Clock;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};
use uuid::Uuid;

pub use challenges::{ChallengeRow, ChallengeState};
pub use delivery_rows::{Attempt, AttemptRow, Claimed, Finished, Owner, Scope, Settled, TargetRow};
pub use error::{STORAGE_FULL_REPORT_EVERY, StoreError, report_storage_full, sqlx_unavailable};
pub use handoff::Taking;
pub use ladder::{LadderEntryRow, LadderGameRow};
pub use mail_codes::{CodePurpose, MailCodeRow, ProfileMailRow};
pub use my_games::MyGameRow;
pub use outbox::NewTarget;
pub use owed::{MissRow, OwedRow};
pub use passkeys::{CeremonyKind, PasskeyRow};
pub use pg_listen::Wakes;
pub use profile_games::{ProfileGameRow, SeatRow};
pub use profile_rows::Excuse;
pub use profile_rows::{Holding, Outcome, ProfileKind, ProfileRecord, SeatBinding};
pub use profiles::{KeyRow, ProfileRow};
pub use rating_rebuild::Rebuilt;
pub use rating_rows::RatedFinish;
pub use ratings::{BoardRow, ChangeHistoryRow};
pub use reminders::{NewReminder, REMINDER_KIND, Reminded, reminder_delivery};
pub use rows::{
    Change, EventRow, LobbyPatch, LobbyRow, MessageRow, NewEvent, NewLobby, NewMessage, NewOrder,
    NewPlayer, NewStep, OrderRow, ParsedState, PlayerPatch, PlayerRow, PlayerUpdate, PublicLog,
    RemovedPlayer, RoundSteps, Snapshot, Status, StepClock, StepRow,
};
pub use sessions::SessionRow;
pub use tournaments::{
    EntrantRow, TournamentGameRow, TournamentRecord, TournamentRoundRow, TournamentRow,
    TournamentWrite,
};
pub use transact::{Committed, TransactError};
pub use vacations::{VacationRow, VacationSet};

/// Which database engine a [`Store`] talks to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The store: a connection pool, its dialect, its group-commit writers and the cache of
/// committed lobby snapshots.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    writers: writer::Writers,
    cache: Arc<cache::Cache>,
    /// Committed events, for this process's event streams.
    feed: Arc<feed::Feed>,
    /// What other processes' commits wake here (PostgreSQL; nothing on SQLite).
    wakes: Arc<Wakes>,
    /// This process's id in its announcements (PostgreSQL, `pg_listen.rs`).
    process: Arc<str>,
    /// How a read checks a lobby's version: inline on SQLite (see `sqlite_engine.rs`),
    /// coalesced on PostgreSQL (see `versions.rs`).
    readers: Readers,
    /// The time every write is stamped with, and what timed work waits on.
    clock: Clock,
    /// Where the SQLite writer hands the deliveries it queues (`handoff.rs`).
    handoff: Arc<handoff::Handoff>,
    /// PostgreSQL: the longest a request waits for the database, all its waits together
    /// ([`DATABASE_WAIT`] unless connected with another).
    wait: Duration,
    /// SQLite: this process's lock on the database file, held while the store is open
    /// (`sqlite_lock.rs`); None on PostgreSQL, which several processes share.
    _lock: Option<Arc<sqlite_lock::FileLock>>,
}

/// How a read checks a lobby's version.
#[derive(Clone)]
enum Readers {
    Sqlite(Arc<sqlite_engine::Readers>),
    Postgres(Arc<versions::Versions>),
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("backend", &self.backend)
            .finish()
    }
}

/// A round's step logs, in order (`Store::round_logs`).
const ROUND_LOGS: &str = "SELECT log FROM steps WHERE lobby_id = $1 AND round = $2 ORDER BY seq";

/// How long a request waits for PostgreSQL at most, all its waits together, before it is
/// answered `503 database-unavailable` (docs/scale-out.md, "PostgreSQL restarts or fails over").
pub const DATABASE_WAIT: Duration = Duration::from_secs(10);

static SQLITE_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("migrations/postgres");

impl Store {
    /// Connects to `url` (`sqlite://…` or `postgres://…`) and applies the backend's migrations;
    /// time comes from the system's clock.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with_clock(url, Clock::system()).await
    }

    /// [`Store::connect`], with time from `clock` (tests pass a manual one).
    pub async fn connect_with_clock(url: &str, clock: Clock) -> Result<Store, StoreError> {
        Store::connect_with(url, clock, DATABASE_WAIT).await
    }

    /// [`Store::connect_with_clock`], where a request waits for PostgreSQL at most `wait`
    /// (rather than [`DATABASE_WAIT`]).
    pub async fn connect_with(
        url: &str,
        clock: Clock,
        wait: Duration,
    ) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            return Err(StoreError::UnsupportedUrl(url.to_owned()));
        };
        // Taken before anything opens the file, so that a second process is refused before
        // it migrates or writes anything.
        let lock = match backend {
            Backend::Sqlite => {
                let options = sqlx::sqlite::SqliteConnectOptions::from_str(url)?;
                Some(sqlite_lock::lock(options.get_filename())?)
            }
            Backend::Postgres => None,
        };
        let options = AnyConnectOptions::from_str(url)?;
        let pool = match backend {
            Backend::Sqlite => {
                AnyPoolOptions::new()
                    .max_connections(8)
                    .after_connect(|conn, _meta| {
                        Box::pin(async move {
                            // WAL lets readers run beside the writer; synchronous=FULL makes
                            // every commit durable (an acknowledged order survives a crash or
                            // a power cut); foreign keys are off by default in SQLite.
                            conn.execute(
                                "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                                 PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON;",
                            )
                            .await?;
                            Ok(())
                        })
                    })
                    .connect_with(options)
                    .await?
            }
            Backend::Postgres => {
                AnyPoolOptions::new()
                    .max_connections(16)
                    // A little longer than a request's whole wait, which `within` bounds, so
                    // that a request hears that bound, not a shorter one of the pool's that
                    // counts only the last of its waits.
                    .acquire_timeout(wait + Duration::from_secs(1))
                    .connect_with(options)
                    .await?
            }
        };
        match backend {
            Backend::Sqlite => SQLITE_MIGRATOR.run(&pool).await?,
            Backend::Postgres => POSTGRES_MIGRATOR.run(&pool).await?,
        }
        let cache = Arc::new(cache::Cache::default());
        let feed = Arc::new(match backend {
            Backend::Sqlite => feed::Feed::default(),
            Backend::Postgres => feed::Feed::shared(),
        });
        let wakes = Arc::new(Wakes::default());
        let handoff = Arc::new(handoff::Handoff::default());
        let process = pg_listen::new_process_id();
        let shared = writer::Shared::new(cache.clone(), feed.clone(), clock.clone());
        let (writers, readers) = match backend {
            Backend::Sqlite => {
                let options = sqlx::sqlite::SqliteConnectOptions::from_str(url)?;
                let path = options.get_filename();
                let engine = sqlite_engine::SqliteEngine::open(path, handoff.clone())?;
                let writers = writer::spawn_thread("herald-sqlite-writer", engine, shared)?;
                let readers = Readers::Sqlite(Arc::new(sqlite_engine::Readers::new(path)));
                (writers, readers)
            }
            // Several writers, each with its own connection: PostgreSQL runs their
            // transactions side by side.
            // Two version readers: one can gather the next checks while the other's runs.
            Backend::Postgres => {
                let listening = pg_listen::Listening {
                    process: process.clone(),
                    feed: feed.clone(),
                    wakes: wakes.clone(),
                };
                pg_listen::spawn(url, listening, pool.clone())?;
                let engines =
                    (0..4).map(|_| pg_engine::PgEngine::new(pool.clone(), process.clone()));
                (
                    writer::spawn_tasks(engines.collect(), shared),
                    Readers::Postgres(Arc::new(versions::Versions::spawn(pool.clone(), 2))),
                )
            }
        };
        Ok(Store {
            pool,
            backend,
            writers,
            cache,
            feed,
            wakes,
            process,
            readers,
            clock,
            handoff,
            wait,
            _lock: lock,
        })
    }

    /// The clock this store stamps its writes with.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Committed events as this process's writers commit them (see `feed.rs`).
    pub fn feed(&self) -> &Arc<feed::Feed> {
        &self.feed
    }

    /// What other processes' commits wake in this one (see `pg_listen.rs`).
    pub fn wakes(&self) -> &Arc<Wakes> {
        &self.wakes
    }

    /// The `application_name` of this process's cross-process listener connection
    /// (PostgreSQL; None on SQLite).
    pub fn listener_name(&self) -> Option<String> {
        (self.backend == Backend::Postgres).then(|| pg_listen::listener_name(&self.process))
    }

    /// The group commits so far, as (commits, changes).
    pub fn group_commits(&self) -> (u64, u64) {
        self.writers.stats.read()
    }

    /// How often a lobby had to be read from the database because the cache held no current
    /// copy of it (see `cache.rs`).
    pub fn cache_misses(&self) -> u64 {
        self.cache.misses()
    }

    /// Runs `work` within the request's wait for PostgreSQL ([`DATABASE_WAIT`]): the pool's
    /// acquire timeout bounds one wait for a connection, but a request can wait several times
    /// (a version check, then a load; a job queued behind a batch that is itself waiting) and
    /// on a connection whose database went silent, which no timeout of the pool's bounds.
    /// SQLite's work is in-process and runs as it is asked for.
    pub(crate) async fn within<T>(
        &self,
        work: impl std::future::Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        match self.backend {
            Backend::Sqlite => work.await,
            Backend::Postgres => tokio::time::timeout(self.wait, work)
                .await
                .unwrap_or(Err(StoreError::NoAnswer(self.wait))),
        }
    }

    /// Closes the pool (waits for connections in use to be returned).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// The newest lobbies first.
    pub async fn list_lobbies(&self, limit: i64) -> Result<Vec<LobbyRow>, StoreError> {
        let rows = self
            .within(async {
                Ok(sqlx::query(sql::LOBBY_LIST)
                    .bind(limit)
                    .fetch_all(&self.pool)
                    .await?)
            })
            .await?;
        rows.iter().map(LobbyRow::read).collect()
    }

    /// The lobby, its players and the orders pending for its current step, as last committed:
    /// from the cache when the lobby's version in the database says the cached copy is
    /// current, else read afresh (without a lock) and cached.
    pub async fn snapshot(&self, id: Uuid) -> Result<Option<Arc<Snapshot>>, StoreError> {
        self.within(self.snapshot_now(id)).await
    }

    async fn snapshot_now(&self, id: Uuid) -> Result<Option<Arc<Snapshot>>, StoreError> {
        let version = match &self.readers {
            Readers::Sqlite(readers) => readers.version(id)?,
            Readers::Postgres(versions) => versions.version(id).await?,
        };
        let Some(version) = version else {
            return Ok(None);
        };
        if let Some(cached) = self.cache.get(id, version) {
            return Ok(Some(cached));
        }
        let mut conn = self.pool.acquire().await?;
        let loaded = load::load_snapshot(&mut *conn, id).await?.map(Arc::new);
        if let Some(loaded) = &loaded {
            self.cache.offer(loaded.clone());
        }
        Ok(loaded)
    }

    /// Resolved steps of a lobby, in order (optionally only those of one round).
    pub async fn steps(&self, id: Uuid, round: Option<u32>) -> Result<Vec<StepRow>, StoreError> {
        self.within(self.steps_now(id, round)).await
    }

    async fn steps_now(&self, id: Uuid, round: Option<u32>) -> Result<Vec<StepRow>, StoreError> {
        let rows = match round {
            Some(round) => {
                sqlx::query(
                    "SELECT seq, round, step, revealed, log, pools, resolved_at, acts, digest, \
                     previous_digest FROM steps WHERE lobby_id = $1 AND round = $2 ORDER BY seq",
                )
                .bind(id.to_string())
                .bind(i64::from(round))
                .fetch_all(&self.pool)
                .await?
            }
            None => {
                sqlx::query(
                    "SELECT seq, round, step, revealed, log, pools, resolved_at, acts, digest, \
                     previous_digest FROM steps WHERE lobby_id = $1 ORDER BY seq",
                )
                .bind(id.to_string())
                .fetch_all(&self.pool)
                .await?
            }
        };
        rows.iter().map(StepRow::read).collect()
    }

    /// The stored logs of a round's steps, in order (for a notice's summary, which reads
    /// nothing else of them).
    pub async fn round_logs(&self, id: Uuid, round: u32) -> Result<Vec<String>, StoreError> {
        if let Readers::Sqlite(readers) = &self.readers {
            return readers.read(|conn| {
                let mut statement = conn.prepare_cached(ROUND_LOGS)?;
                let rows = statement
                    .query_map(rusqlite::params![id.to_string(), i64::from(round)], |row| {
                        row.get::<_, String>(0)
                    })?;
                Ok(rows.collect::<Result<Vec<_>, _>>()?)
            });
        }
        let rows = self
            .within(async {
                Ok(sqlx::query(ROUND_LOGS)
                    .bind(id.to_string())
                    .bind(i64::from(round))
                    .fetch_all(&self.pool)
                    .await?)
            })
            .await?;
        rows.iter()
            .map(|row| columns::Columns::of("steps", row).text("log"))
            .collect()
    }

    /// Public events of a lobby numbered after `after`, oldest first.
    pub async fn events_after(&self, id: Uuid, after: i64) -> Result<Vec<EventRow>, StoreError> {
        let rows = self
            .within(async {
                Ok(sqlx::query(
                    "SELECT seq, kind, data FROM events WHERE lobby_id = $1 AND seq > $2 ORDER BY seq LIMIT 500",
                )
                .bind(id.to_string())
                .bind(after)
                .fetch_all(&self.pool)
                .await?)
            })
            .await?;
        rows.iter().map(EventRow::read).collect()
    }
}
