//! SQLite: the lobby versions this process's writer committed, shared with the reads, and the
//! proof that nobody else has committed since: the header of SQLite's WAL index.
//!
//! Before a read trusts a cached lobby it asks the database for the lobby's version, so that
//! another process writing the same file is never missed. On SQLite that question is a read
//! transaction: shared locks taken and released on the WAL index (`fcntl` calls), and the pages
//! read again, since every commit empties a reading connection's page cache. It was the largest
//! single cost of a read, and while this process's writer is the file's only writer the answer
//! is one the process already knows.
//!
//! The WAL index (the `-shm` file beside the database) begins with two copies of a 48-byte
//! header that every commit rewrites, whoever makes it; its `iChange` field counts commits
//! (SQLite's "WAL-mode File Format", section "The WAL-Index Header"; SQLite writes the second
//! copy, then the first, so that a reader who finds them equal has not read one half-written).
//! The writer reads the header just before its commit, holding SQLite's write lock, so that
//! nobody else can commit, and again just after. If the count moved by exactly one, the header
//! after is this commit's own, and if the header before was the one this writer's previous
//! commit left, nobody committed between the two. A read then needs one `pread` of 96 bytes
//! instead of a transaction: while the header is still the one recorded, the database holds
//! exactly what this writer committed, at the versions recorded here. Anything else (another
//! process's commit, this process's other connections' writes, a checkpoint that restarts the
//! WAL, a header that cannot be read) sends the reads back to the database; the writer's next
//! commit starts the record again, with only the lobbies it writes from then on
//! (`tests/it/store_cache.rs`).

use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use uuid::Uuid;

use super::rows::Snapshot;
use super::sqlite_engine::OWN_WRITES_KEPT;

/// One copy of the WAL index header, as the file holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Header([u8; HEADER]);

/// The bytes of one copy of the header.
const HEADER: usize = 48;

impl Header {
    /// `iChange`: the commit counter (bytes 8-11, in the machine's byte order).
    fn change(&self) -> u32 {
        u32::from_ne_bytes([self.0[8], self.0[9], self.0[10], self.0[11]])
    }

    /// `isInit` (byte 12): the index has been built.
    fn initialised(&self) -> bool {
        self.0[12] == 1
    }

    /// Whether `after` is the header of exactly one commit after this one.
    fn one_commit_to(&self, after: &Header) -> bool {
        after.change() == self.change().wrapping_add(1)
    }
}

#[derive(Debug, Default)]
struct Seen {
    /// The header this writer's last commit left, if nobody had committed since the one
    /// before it (and so on back to when `versions` began).
    header: Option<Header>,
    /// Each lobby this writer committed since then, at its version.
    versions: HashMap<Uuid, i64>,
}

impl Seen {
    /// Trust nothing until a commit shows its chain again.
    fn forget(&mut self) {
        self.header = None;
        self.versions.clear();
    }
}

/// Shared by the writer (who records) and the reads (who ask).
#[derive(Debug)]
pub(super) struct Witness {
    shm: PathBuf,
    /// The `-shm` file, opened once it exists (SQLite creates it with the first transaction).
    file: OnceLock<File>,
    seen: Mutex<Seen>,
}

impl Witness {
    pub fn new(database: &Path) -> Arc<Witness> {
        let mut shm = database.as_os_str().to_owned();
        shm.push("-shm");
        Arc::new(Witness {
            shm: PathBuf::from(shm),
            file: OnceLock::new(),
            seen: Mutex::default(),
        })
    }

    /// The WAL index header now, if it can be read whole: None when there is no `-shm` file,
    /// when the two copies differ (a commit is writing them), or when the index is not built.
    pub fn header(&self) -> Option<Header> {
        let file = match self.file.get() {
            Some(file) => file,
            None => {
                let opened = File::open(&self.shm).ok()?;
                self.file.get_or_init(|| opened)
            }
        };
        let mut both = [0u8; 2 * HEADER];
        file.read_exact_at(&mut both, 0).ok()?;
        let (first, second) = both.split_at(HEADER);
        let header = Header(first.try_into().ok()?);
        (first == second && header.initialised()).then_some(header)
    }

    /// After a commit: `before` was read holding the write lock, `after` once it committed;
    /// `changed` is every lobby the commit wrote, as it left them.
    pub fn committed(
        &self,
        before: Option<Header>,
        after: Option<Header>,
        changed: &HashMap<Uuid, Arc<Snapshot>>,
    ) {
        let mut seen = self.lock();
        match (before, after) {
            (Some(before), Some(after)) if before.one_commit_to(&after) => {
                // Someone else committed since this writer last did (or this is its first
                // commit): what it recorded before may no longer be what the file holds.
                if seen.header != Some(before)
                    || seen.versions.len() + changed.len() > OWN_WRITES_KEPT
                {
                    seen.versions.clear();
                }
                seen.header = Some(after);
                for (lobby, snapshot) in changed {
                    seen.versions.insert(*lobby, snapshot.lobby.version);
                }
            }
            _ => seen.forget(),
        }
    }

    /// After a batch that did not commit: trust nothing until the next commit shows its chain.
    pub fn failed(&self) {
        self.lock().forget();
    }

    /// The lobby's version as this writer committed it, if the file is still exactly as its
    /// last commit left it; None: ask the database.
    pub fn version(&self, lobby: Uuid) -> Option<i64> {
        let (header, version) = {
            let seen = self.lock();
            (seen.header?, *seen.versions.get(&lobby)?)
        };
        (self.header()? == header).then_some(version)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        // Each update leaves `Seen` whole (a header and the versions under it), so a poisoned
        // lock is still usable.
        self.seen
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(change: u32, salt: u8) -> Header {
        let mut bytes = [0u8; HEADER];
        bytes[8..12].copy_from_slice(&change.to_ne_bytes());
        bytes[12] = 1;
        bytes[40] = salt;
        Header(bytes)
    }

    #[test]
    fn one_commit_is_the_counter_moved_by_exactly_one() {
        assert!(header(7, 0).one_commit_to(&header(8, 1)));
        assert!(!header(7, 0).one_commit_to(&header(9, 1)), "two commits");
        assert!(!header(7, 0).one_commit_to(&header(7, 1)), "none");
        assert!(header(u32::MAX, 0).one_commit_to(&header(0, 1)));
    }

    #[test]
    fn without_a_wal_index_every_read_asks_the_database() {
        let witness = Witness::new(Path::new("/nonexistent/herald.db"));
        assert_eq!(witness.header(), None);
        witness.committed(None, None, &HashMap::new());
        assert_eq!(witness.version(Uuid::nil()), None);
    }
}
