//! Committed lobby snapshots kept in memory, so that reading a lobby does not reread its
//! players, pending orders and state from the database on every request.
//!
//! The cache is never trusted blindly: every use first reads the lobby's `version` from the
//! database (one primary-key lookup, under the write lock when writing) and takes the cached
//! snapshot only if its version matches. Another process writing the same database therefore
//! never makes this one act on, or show, a stale lobby; it only costs a reload. Entries are
//! published by the writer after its commit, or offered by readers who loaded from the
//! database, and an older version never replaces a newer one.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use uuid::Uuid;

use super::rows::Snapshot;

/// Shards keep readers on different lobbies off one another's lock.
const SHARDS: usize = 16;

/// Lobbies held per shard; beyond that an arbitrary entry makes room (it is reloaded on its
/// next use). 16 × 1,024 snapshots of 16-player lobbies is well under 100 MB.
const PER_SHARD: usize = 1024;

#[derive(Debug)]
pub(super) struct Cache {
    shards: Vec<Mutex<HashMap<Uuid, Arc<Snapshot>>>>,
    /// How often a lookup found no current copy (the lobby was then read from the database).
    misses: AtomicU64,
}

impl Default for Cache {
    fn default() -> Cache {
        Cache {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            misses: AtomicU64::new(0),
        }
    }
}

impl Cache {
    fn shard(&self, id: Uuid) -> std::sync::MutexGuard<'_, HashMap<Uuid, Arc<Snapshot>>> {
        let index = (id.as_u128() % SHARDS as u128) as usize;
        // A panic while holding the lock cannot leave a map half-updated (each operation is
        // one insert or remove), so a poisoned lock is still usable.
        self.shards[index]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The cached snapshot of `id`, if it is at `version`.
    pub fn get(&self, id: Uuid, version: i64) -> Option<Arc<Snapshot>> {
        let found = self
            .shard(id)
            .get(&id)
            .filter(|snapshot| snapshot.lobby.version == version)
            .cloned();
        if found.is_none() {
            self.misses.fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    /// Lookups so far that found no current copy.
    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    /// Keeps `snapshot` unless a newer one of the same lobby is already held.
    pub fn offer(&self, snapshot: Arc<Snapshot>) {
        let id = snapshot.lobby.id;
        let mut shard = self.shard(id);
        if shard
            .get(&id)
            .is_some_and(|held| held.lobby.version >= snapshot.lobby.version)
        {
            return;
        }
        if shard.len() >= PER_SHARD && !shard.contains_key(&id) {
            let victim = shard.keys().next().copied();
            if let Some(victim) = victim {
                shard.remove(&victim);
            }
        }
        shard.insert(id, snapshot);
    }

    /// Forgets `id` (its write failed in a way that leaves the cached copy in doubt).
    pub fn forget(&self, id: Uuid) {
        self.shard(id).remove(&id);
    }
}
