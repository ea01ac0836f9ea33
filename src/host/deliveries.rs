//! The delivery worker's way to the outbox (`crate::notify`), and the event streams' way to
//! the feed (`http::api::events`): through the host, which alone holds the store. Each is the
//! store's own operation, named here so that nothing above the host reaches the store itself.

use std::sync::Arc;

use tokio::sync::mpsc::UnboundedReceiver;
use uuid::Uuid;

use super::Host;
use crate::clock::Clock;
use crate::store::feed::Feed;
use crate::store::{Claimed, EventRow, Finished, StoreError, Taking, Wakes};

impl Host {
    /// The clock every row is stamped by.
    pub fn clock(&self) -> &Clock {
        self.store.clock()
    }

    /// The feed of committed events, which the event streams follow.
    pub fn feed(&self) -> &Arc<Feed> {
        self.store.feed()
    }

    /// The lobby's stored events after `after` (at most a page), for a stream catching up.
    pub async fn events_after(&self, lobby: Uuid, after: i64) -> Result<Vec<EventRow>, StoreError> {
        self.store.events_after(lobby, after).await
    }

    /// What wakes a worker when another process queues a delivery.
    pub fn wakes(&self) -> &Arc<Wakes> {
        self.store.wakes()
    }

    /// Registers `owner` for the deliveries the SQLite writer hands over as its batches commit
    /// (`store/handoff.rs`); None on PostgreSQL.
    pub fn take_deliveries(
        &self,
        owner: &str,
        lease_ms: i64,
    ) -> Option<(Taking, UnboundedReceiver<Vec<Claimed>>)> {
        self.store.take_deliveries(owner, lease_ms)
    }

    /// Leases up to `limit` deliveries due at `now` to `owner` until `lease_until`.
    pub async fn claim_deliveries(
        &self,
        owner: &str,
        now: i64,
        lease_until: i64,
        limit: i64,
    ) -> Result<Vec<Claimed>, StoreError> {
        self.store
            .claim_deliveries(owner, now, lease_until, limit)
            .await
    }

    /// Records finished attempts whose lease `owner` still holds; how many had lost it.
    pub async fn finish_deliveries(
        &self,
        owner: &str,
        finished: &[Finished],
    ) -> Result<usize, StoreError> {
        self.store.finish_deliveries(owner, finished).await
    }

    /// When the next pending delivery falls due, if any is pending.
    pub async fn next_delivery_at(&self) -> Result<Option<i64>, StoreError> {
        self.store.next_delivery_at().await
    }

    /// Stores the hash of a mail's unsubscribe token for `target`.
    pub async fn add_unsubscribe(
        &self,
        target: Uuid,
        hash: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.store.add_unsubscribe(target, hash, now).await
    }

    /// Completes once the store is closed (the process is shutting down).
    pub async fn closed(&self) {
        self.store.closed().await
    }
}
