//! SQLite: one Herald process per database file (docs/store.md, "One process per SQLite
//! file").
//!
//! Two processes on one file would each run a writer and a feed of their own: SQLite keeps the
//! data consistent, but neither process hears of the other's commits, so an event stream or a
//! bot on one never learns that a round resolved on the other and waits for good. Rather than
//! start and let that happen quietly, a process holds an exclusive advisory lock (`flock`, with
//! std's `File::try_lock`) on a file beside the database, `<database>.lock`, for as long as its
//! store is open, and a second process is refused at start with a sentence saying why. The
//! kernel drops the lock when the process ends however it ends (`kill -9` included), so a lock
//! file left on disk never blocks the next start.
//!
//! Inside one process, several stores on one file (as the tests' second server, which stands
//! for another writer such as an operator's `sqlite3`) share the one lock: a lock taken through
//! a second descriptor of the same file would refuse its own process.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

use super::StoreError;

/// The lock of one database file, held while any store of this process on it is open.
#[derive(Debug)]
pub(super) struct FileLock {
    /// The locked file; the lock goes with the descriptor, when the last holder drops it.
    _file: File,
}

/// The locks this process holds, by the lock file's canonical path.
static HELD: Mutex<Vec<(PathBuf, Weak<FileLock>)>> = Mutex::new(Vec::new());

/// The lock file of the database at `database`: `<database>.lock`.
pub(super) fn lock_path(database: &Path) -> PathBuf {
    let mut path = database.as_os_str().to_owned();
    path.push(".lock");
    PathBuf::from(path)
}

/// Takes (or, in this process, shares) the lock of the database at `database`; refused with
/// [`StoreError::SqliteInUse`] while another process holds it.
pub(super) fn lock(database: &Path) -> Result<Arc<FileLock>, StoreError> {
    let path = lock_path(database);
    let io = |cause: std::io::Error| StoreError::SqliteLock {
        path: path.clone(),
        cause,
    };
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(io)?;
    let key = path.canonicalize().map_err(io)?;
    let mut held = HELD.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    held.retain(|(_, lock)| lock.strong_count() > 0);
    if let Some(lock) = held
        .iter()
        .find(|(at, _)| *at == key)
        .and_then(|(_, lock)| lock.upgrade())
    {
        return Ok(lock);
    }
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => return Err(StoreError::SqliteInUse { lock: path }),
        Err(TryLockError::Error(cause)) => return Err(io(cause)),
    }
    let lock = Arc::new(FileLock { _file: file });
    held.push((key, Arc::downgrade(&lock)));
    Ok(lock)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_file_sits_beside_the_database() {
        assert_eq!(
            lock_path(Path::new("/var/lib/herald/herald.db")),
            Path::new("/var/lib/herald/herald.db.lock")
        );
    }

    #[test]
    fn one_process_shares_its_lock_and_frees_it_with_the_last_holder() {
        let dir = tempfile::tempdir().unwrap();
        let database = dir.path().join("h.db");
        let first = lock(&database).unwrap();
        let second = lock(&database).unwrap();
        assert!(
            Arc::ptr_eq(&first, &second),
            "one lock per file and process"
        );
        // Another descriptor (as another process would hold) cannot take it meanwhile.
        let other = File::open(lock_path(&database)).unwrap();
        assert!(matches!(other.try_lock(), Err(TryLockError::WouldBlock)));
        drop((first, second));
        other
            .try_lock()
            .expect("free once the last store let it go");
    }
}
