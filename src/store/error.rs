//! The store's one error type. Each variant keeps its cause (as its `source()` and in its
//! message), so that whoever logs a store error logs why: a corrupt stored row names its table,
//! its column and what was wrong with the value, and reaches the client as a 500 (a fault of
//! ours), never as a refusal of the request.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Why the store could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed a statement, a connection or a transaction (through sqlx).
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// SQLite failed on the writer's own connection (through rusqlite).
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// Applying the schema's migrations failed.
    #[error("migrating the schema: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored row holds a value Herald never writes there (a fault of the data, not of the
    /// request that met it).
    #[error("stored row of {table} is corrupt in column {column}: {cause}")]
    Corrupt {
        table: &'static str,
        column: &'static str,
        cause: String,
    },
    /// Reading the lobby failed, and with it the shared transaction the change was part of.
    #[error("reading the lobby failed")]
    ReadFailed,
    /// The shared transaction this change was part of failed; every change in it hears why.
    #[error("the shared transaction failed: {0}")]
    BatchFailed(#[source] Arc<StoreError>),
    /// The shared version check this read was part of failed.
    #[error("checking lobby versions failed: {0}")]
    VersionCheck(#[source] Arc<StoreError>),
    /// PostgreSQL: lobbies changed under the batch's row locks (which cannot happen while the
    /// locks work; the batch fails rather than write over them).
    #[error("{moved} of {of} lobbies had moved under the batch's lock")]
    MovedUnderLock { moved: u64, of: u64 },
    /// The URL names no database Herald can use.
    #[error("unsupported database URL scheme in {0:?}: use sqlite:// or postgres://")]
    UnsupportedUrl(String),
    /// The SQLite writer's thread could not be started.
    #[error("starting the SQLite writer: {0}")]
    Spawn(#[source] std::io::Error),
    /// Outbox work was sent to a writer whose database runs it on transactions of its own
    /// (PostgreSQL): a fault of Herald's, never of a request.
    #[error("this database's outbox work does not ride the lobbies' writer")]
    OutboxElsewhere,
    /// SQLite: another process holds the database's lock file, so it is serving this database
    /// already; one process per SQLite file (docs/store.md, "One process per SQLite file").
    #[error(
        "another Herald process is using this SQLite database (it holds the lock file {lock:?}); \
         stop it first, or run several processes on PostgreSQL"
    )]
    SqliteInUse { lock: std::path::PathBuf },
    /// SQLite: the database's lock file could not be opened or locked.
    #[error("locking the SQLite database through {path:?}: {cause}")]
    SqliteLock {
        path: std::path::PathBuf,
        #[source]
        cause: std::io::Error,
    },
    /// PostgreSQL did not answer within the request's wait (`Store::within`).
    #[error("the database did not answer within {0:?}")]
    NoAnswer(Duration),
    /// A writer or reader of the store has stopped (the store is shutting down).
    #[error("the store's {0} has stopped")]
    Stopped(&'static str),
}

impl StoreError {
    /// Whether the database could not be reached or was going away (a restart, a failover, a
    /// network cut, every pooled connection busy past the pool's wait), rather than refusing
    /// the statement: the same request may well succeed in a moment, so the client is told to
    /// come back (503) instead of hearing of a fault (500).
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Database(error) => sqlx_unavailable(error),
            StoreError::NoAnswer(_) => true,
            StoreError::BatchFailed(cause) | StoreError::VersionCheck(cause) => {
                cause.is_unavailable()
            }
            _ => false,
        }
    }
}

impl StoreError {
    /// Whether the database refused to write because its storage is full: SQLite's
    /// `SQLITE_FULL` ("database or disk is full") or PostgreSQL's SQLSTATE 53100 (`disk_full`).
    /// Nothing of the refused transaction was written, and the same request succeeds once
    /// space is freed, so the client is told to come back later (503 `storage-full`), and the
    /// log says so once per [`STORAGE_FULL_REPORT_EVERY`] rather than once per request.
    pub fn is_storage_full(&self) -> bool {
        match self {
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(error, _)) => {
                error.code == rusqlite::ErrorCode::DiskFull
            }
            StoreError::Database(sqlx::Error::Database(database)) => database
                .code()
                .is_some_and(|code| code == POSTGRES_DISK_FULL || code == SQLITE_FULL),
            StoreError::BatchFailed(cause) | StoreError::VersionCheck(cause) => {
                cause.is_storage_full()
            }
            _ => false,
        }
    }
}

/// PostgreSQL's SQLSTATE for "no space left on device" (class 53, insufficient resources).
const POSTGRES_DISK_FULL: &str = "53100";

/// SQLite's primary result code `SQLITE_FULL`, as sqlx reports it.
const SQLITE_FULL: &str = "13";

/// How often a full storage is reported in the log while it lasts.
pub const STORAGE_FULL_REPORT_EVERY: Duration = Duration::from_secs(60);

/// Since when storage-full failures go unreported, and how many.
static STORAGE_FULL: Mutex<Option<(Instant, u64)>> = Mutex::new(None);

/// Notes a failure for a full storage: logged at once if none was reported in the last
/// [`STORAGE_FULL_REPORT_EVERY`], with how many were noted since the last report; otherwise
/// only counted. A full disk fails every write until space is freed, and a line per failure
/// (the writer's, the request's) buried the log: thousands of lines a minute saying one thing.
pub fn report_storage_full(error: &StoreError) {
    let now = Instant::now();
    let mut last = STORAGE_FULL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    match &mut *last {
        Some((since, unreported)) if now.duration_since(*since) < STORAGE_FULL_REPORT_EVERY => {
            *unreported += 1;
        }
        _ => {
            let unreported = last.map_or(0, |(_, unreported)| unreported);
            *last = Some((now, 0));
            drop(last);
            tracing::error!(
                %error,
                failures_since_last_report = unreported,
                every_s = STORAGE_FULL_REPORT_EVERY.as_secs(),
                "the database's storage is full: writes are refused (503 storage-full) until \
                 space is freed; reported once per interval"
            );
        }
    }
}

/// [`StoreError::is_unavailable`] for one sqlx error.
pub fn sqlx_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::PoolTimedOut => true,
        sqlx::Error::Database(database) => database.code().is_some_and(|code| {
            // PostgreSQL's SQLSTATEs for a lost or refused connection: class 08 (connection
            // exception), 57P01-57P03 (the server shutting down, crashed or starting up) and
            // 53300 (no connection slot left).
            code.starts_with("08") || matches!(&*code, "57P01" | "57P02" | "57P03" | "53300")
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SQLite's own "database or disk is full", from a database held to its size by
    /// `PRAGMA max_page_count`, is a full storage, alone and as a failed batch's cause.
    #[test]
    fn sqlites_full_database_is_a_full_storage() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (v TEXT); PRAGMA max_page_count = 3;")
            .unwrap();
        let filled = (0..100).try_for_each(|_| {
            conn.execute("INSERT INTO t VALUES (?1)", [&"x".repeat(2_000)])
                .map(drop)
        });
        let error = StoreError::from(filled.unwrap_err());
        assert!(error.is_storage_full(), "{error}");
        assert!(StoreError::BatchFailed(Arc::new(error)).is_storage_full());
        let other = StoreError::from(
            conn.execute("INSERT INTO nowhere VALUES (1)", [])
                .unwrap_err(),
        );
        assert!(!other.is_storage_full(), "{other}");
    }
}
