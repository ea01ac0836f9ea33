//! The store's one error type. Each variant keeps its cause (as its `source()` and in its
//! message), so that whoever logs a store error logs why: a corrupt stored row names its table,
//! its column and what was wrong with the value, and reaches the client as a 500 (a fault of
//! ours), never as a refusal of the request.

use std::sync::Arc;

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
            StoreError::BatchFailed(cause) | StoreError::VersionCheck(cause) => {
                cause.is_unavailable()
            }
            _ => false,
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
