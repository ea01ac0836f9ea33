//! The batch so far, as the writer runs it: how each job ended (to be told once the commit is
//! known), each changed lobby as the commit will leave it, and each written change's events for
//! the feed. The engines read it when a batch ends (`engine.rs`).

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::oneshot;
use uuid::Uuid;

use super::StoreError;
use super::cache::Cache;
use super::delivery_rows::OutboxDone;
use super::feed::Published;
use super::jobs::{Decide, Decision, Deliver, Read, WriteError};
use super::profile_rows::ProfileRecord;
use super::rating_rebuild::Rebuilt;
use super::rows::{Change, EventRow, Snapshot};

/// How a job ended inside the transaction, to be told once the commit is known.
pub(super) enum Ending {
    Decided {
        deliver: Deliver,
        result: Result<i64, WriteError>,
    },
    Created {
        reply: oneshot::Sender<Result<(), StoreError>>,
        result: Result<(), StoreError>,
    },
    Outbox {
        reply: oneshot::Sender<Result<OutboxDone, StoreError>>,
        result: Result<OutboxDone, StoreError>,
    },
    Rebuilt {
        reply: oneshot::Sender<Result<Rebuilt, StoreError>>,
        result: Result<Rebuilt, StoreError>,
    },
}

/// The batch so far: how each job ended, and each changed lobby as it will be once committed.
pub(super) struct Progress {
    /// The batch's instant, from the store's clock: what every row it writes is stamped with.
    pub at: i64,
    pub endings: Vec<Ending>,
    pub changed: HashMap<Uuid, Arc<Snapshot>>,
    /// Each written change's events, numbered, in the order written (for the `Feed`).
    pub published: Vec<(Uuid, Published)>,
    /// The profiles that took a seat in this batch: their bells ring once it commits
    /// (`bells.rs`).
    pub bound: Vec<Uuid>,
}

impl Progress {
    /// A batch that runs at `at`, with nothing done yet.
    pub(super) fn at(at: i64) -> Progress {
        Progress {
            at,
            endings: Vec::new(),
            changed: HashMap::new(),
            published: Vec::new(),
            bound: Vec::new(),
        }
    }

    /// Reading the lobby failed, so the batch fails: its caller hears the batch's failure.
    pub(super) fn read_failed(&mut self, decide: Decide) {
        let Decision { deliver, .. } = decide(Read::Failed);
        self.broke(deliver);
    }

    /// The batch broke while this job ran: its caller hears the batch's failure.
    pub(super) fn broke(&mut self, deliver: Deliver) {
        self.endings.push(Ending::Decided {
            deliver,
            result: Ok(0),
        });
    }

    /// Lets the caller decide on what was read. Returns what to write, or None if there is
    /// nothing to write (refused, or no such lobby: the caller's answer is already recorded).
    pub(super) fn decide(
        &mut self,
        decide: Decide,
        snapshot: Option<Arc<Snapshot>>,
    ) -> Option<(Arc<Snapshot>, Change, Deliver)> {
        let read = match &snapshot {
            Some(snapshot) => Read::Found(snapshot),
            None => Read::Missing,
        };
        let Decision { change, deliver } = decide(read);
        match (change, snapshot) {
            (Some(change), Some(snapshot)) => Some((snapshot, change, deliver)),
            _ => {
                self.endings.push(Ending::Decided {
                    deliver,
                    result: Ok(0),
                });
                None
            }
        }
    }

    /// Records a written change: its lobby as the commit will leave it or, if the version had
    /// moved, nothing held of it at all.
    pub(super) fn written(
        &mut self,
        cache: &Cache,
        snapshot: &Snapshot,
        change: Change,
        deliver: Deliver,
        result: Result<i64, WriteError>,
    ) {
        let lobby = snapshot.lobby.id;
        match &result {
            Ok(_) => {
                let first = snapshot.lobby.event_seq + 1;
                let events: Published = (first..)
                    .zip(&change.events)
                    .map(|(seq, event)| EventRow {
                        seq,
                        kind: event.kind.as_str().to_string(),
                        data: event.data.clone(),
                    })
                    .collect();
                self.published.push((lobby, events));
                self.bound
                    .extend(change.records.iter().filter_map(|record| match record {
                        ProfileRecord::Game { profile, .. } => Some(*profile),
                        ProfileRecord::Owed { .. } | ProfileRecord::Ended { .. } => None,
                    }));
                let after = snapshot.after(change, self.at);
                self.changed.insert(lobby, Arc::new(after));
            }
            Err(WriteError::Conflict) => {
                // Nothing was written (the version check comes first), but what we hold of
                // this lobby is not current: reload it next time.
                self.changed.remove(&lobby);
                cache.forget(lobby);
            }
            Err(WriteError::Database(_)) => {}
        }
        self.endings.push(Ending::Decided { deliver, result });
    }
}
