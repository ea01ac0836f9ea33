//! The SQLite writer's hand-off of the deliveries it queues to this process's delivery worker
//! (docs/notifications.md, "The hand-off").
//!
//! Without it, a delivery's row was inserted with its event, then found by the worker's claim
//! (an `UPDATE … RETURNING` that scans the due rows, a writer job of its own on SQLite) and read
//! back with its destination and event (a join per claim): more statements than the rest of the
//! delivery together. With a worker registered here, the writer inserts each delivery already
//! leased to that worker, with the destination it read to insert it and the event it just
//! wrote, and sends them to the worker once the batch has committed (never before: a batch that
//! fails rolls its deliveries back with its events, and none is sent).
//!
//! A handed row is stored as a claimed one: its lease names the worker and runs
//! [`Taker::lease_ms`] from the batch's instant, and its `next_at` is the lease's end, so the
//! claims' scan of due rows passes it by while the worker holds it. Should the process stop
//! before settling it, the lease runs out and the next claim (another process's, or this one's
//! after a restart) takes the row: nothing handed is lost, as nothing claimed is.
//!
//! PostgreSQL keeps its claims: several processes share its outbox, and its writers queue
//! deliveries in the events' own statements (`pg_writes.rs`).

use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use super::delivery_rows::Claimed;

/// Where the SQLite writer hands its deliveries: this process's worker, once it has registered.
#[derive(Debug, Default)]
pub struct Handoff {
    taker: Mutex<Option<Taker>>,
}

/// The registered worker: its lease owner's name, how long a handed lease lasts (store-clock
/// ms), and where the deliveries of each committed batch go.
#[derive(Clone, Debug)]
pub(super) struct Taker {
    pub owner: Arc<str>,
    pub lease_ms: i64,
    send: mpsc::UnboundedSender<Vec<Claimed>>,
}

impl Taker {
    /// Sends a committed batch's deliveries (its worker may have stopped meanwhile: the rows
    /// then wait out their leases, as a stopped worker's claims do).
    pub fn hand(&self, handed: Vec<Claimed>) {
        if !handed.is_empty() {
            let _ = self.send.send(handed);
        }
    }
}

/// A worker's registration; dropping it ends the hand-off (the writer then queues deliveries
/// unclaimed again, for whichever worker claims them).
#[derive(Debug)]
pub struct Taking {
    handoff: Arc<Handoff>,
    owner: Arc<str>,
}

impl Drop for Taking {
    fn drop(&mut self) {
        let mut taker = self.handoff.lock();
        // A worker registered since keeps its registration.
        if taker.as_ref().is_some_and(|t| t.owner == self.owner) {
            *taker = None;
        }
    }
}

impl Handoff {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Taker>> {
        self.taker.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers `owner` (a worker) to be handed every delivery queued from now on, leased
    /// for `lease_ms`; replaces any worker registered before.
    pub fn register(
        self: &Arc<Self>,
        owner: &str,
        lease_ms: i64,
    ) -> (Taking, mpsc::UnboundedReceiver<Vec<Claimed>>) {
        let (send, receive) = mpsc::unbounded_channel();
        let owner: Arc<str> = owner.into();
        *self.lock() = Some(Taker {
            owner: owner.clone(),
            lease_ms,
            send,
        });
        let taking = Taking {
            handoff: self.clone(),
            owner,
        };
        (taking, receive)
    }

    /// The registered worker, if any (the writer reads it once per batch).
    pub(super) fn taker(&self) -> Option<Taker> {
        self.lock().clone()
    }

    /// Whether a worker is registered.
    pub fn taken(&self) -> bool {
        self.lock().is_some()
    }
}
