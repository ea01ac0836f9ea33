//! The outbox's rows as the delivery worker and the host see them: a destination, a claimed
//! delivery, an attempt and what follows from it, and the work the SQLite writer runs for the
//! worker inside its batches (`jobs.rs`, `Job::Outbox`). Statements live beside their callers
//! (`outbox.rs`, `deliveries.rs`, `sqlite_outbox.rs`).

use std::collections::HashSet;

use uuid::Uuid;

use super::StoreError;
use super::columns::{Columns, Stored};
pub use super::outbox_scope::{Owner, Scope};
use super::rows::EventRow;

/// A destination as stored.
#[derive(Clone, Debug)]
pub struct TargetRow {
    pub id: Uuid,
    /// The lobby or the tournament whose news it gets.
    pub owner: Owner,
    /// A player's own destination's seat (a lobby's only).
    pub player_id: Option<Uuid>,
    pub channel: String,
    /// The URL or email address: for the delivery worker only, never shown.
    pub address: String,
    pub secret: Option<String>,
    pub enabled: bool,
    pub created_at: i64,
    /// The event kinds it wants, sorted.
    pub kinds: Vec<String>,
}

impl TargetRow {
    /// A row of `scope.sql().target_columns` (or of the material, which names them alike).
    pub(super) fn from_row(
        row: &(impl Stored + ?Sized),
        scope: Scope,
    ) -> Result<TargetRow, StoreError> {
        let row = Columns::of("notify_targets", row);
        let player_id = match row.text_or_null("player_id")? {
            Some(text) => {
                Some(uuid::Uuid::parse_str(&text).map_err(|e| row.corrupt("player_id", e))?)
            }
            None => None,
        };
        Ok(TargetRow {
            id: row.uuid("id")?,
            owner: Owner::of(scope, row.uuid("owner_id")?),
            player_id,
            channel: row.text("channel")?,
            address: row.text("address")?,
            secret: row.text_or_null("secret")?,
            enabled: row.int("enabled")? != 0,
            created_at: row.int("created_at")?,
            kinds: Vec::new(),
        })
    }
}

/// One attempt to deliver, as the host sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttemptRow {
    pub delivery_id: String,
    pub kind: String,
    pub attempt: i64,
    pub at: i64,
    pub status: Option<i64>,
    pub error: Option<String>,
}

/// A delivery a worker has claimed.
#[derive(Clone, Debug)]
pub struct Claimed {
    pub id: String,
    pub target_id: Uuid,
    /// The lobby or the tournament whose event (or test) it carries, and so its outbox.
    pub owner: Owner,
    pub event_seq: Option<i64>,
    pub kind: String,
    pub attempts: i64,
    pub created_at: i64,
    /// Its destination as it stood at the claim; None if it was deleted since (its
    /// subscriptions, which only choose what is queued, are not read).
    pub target: Option<TargetRow>,
    /// The event it announces, as stored; None for a host's test message (no `event_seq`)
    /// or an event deleted since.
    pub event: Option<EventRow>,
}

/// What one attempt gave.
#[derive(Clone, Debug)]
pub struct Attempt {
    /// When it ended (unix ms).
    pub at: i64,
    /// The receiver's HTTP status, if one came back.
    pub status: Option<i64>,
    /// What went wrong, in words (None when delivered).
    pub error: Option<String>,
}

/// An attempt to record, with what follows from it.
#[derive(Clone, Debug)]
pub struct Finished {
    pub claimed: Claimed,
    pub attempt: Attempt,
    pub settled: Settled,
}

/// What follows from an attempt, for [`Store::finish_deliveries`].
#[derive(Clone, Debug)]
pub enum Settled {
    Delivered,
    /// Try again at this instant (unix ms).
    Retry {
        at: i64,
    },
    /// Given up; the destination is disabled until the host re-enables it.
    Dead,
}

/// Outbox work the SQLite writer runs inside a batch of the lobbies' changes (`writer.rs`,
/// `Job::Outbox`; `sqlite_outbox.rs` runs the statements): SQLite has one write lock, and
/// claims and settlements on a connection of their own took it, and an fsync each, beside the
/// lobbies' writer, whose orders then waited on SQLite's busy handler and whose memory of its
/// own versions every such commit cleared.
#[derive(Debug)]
pub(super) enum OutboxWork {
    /// Lease up to `limit` deliveries due at `now` to `owner` until `lease_until`.
    Claim {
        owner: String,
        now: i64,
        lease_until: i64,
        limit: i64,
    },
    /// Record finished attempts whose lease `owner` still holds.
    Finish { owner: String, records: Records },
}

/// What outbox work answers: the claimed rows (their material not yet attached), or how many
/// finished attempts had lost their lease.
#[derive(Debug)]
pub(super) enum OutboxDone {
    Claimed(Vec<Claimed>),
    Finished { lost: usize },
}

/// A batch of finished attempts as the statements take them: each row's settlement (which
/// records a success on the outbox row itself), and each failed attempt's record and whether
/// its destination dies, to be written only for the rows whose lease held. SQLite runs a
/// cached statement per row inside the writer's transaction; PostgreSQL takes each list as one
/// JSON parameter (`SETTLE_POSTGRES`, `RECORD_POSTGRES`), one round trip whatever its size.
#[derive(Debug)]
pub(super) struct Records {
    pub settle: Vec<Settlement>,
    failures: Vec<Failure>,
}

/// One row's settlement: its new state, when it is next due, and its success if it was one.
#[derive(Debug, serde::Serialize)]
pub(super) struct Settlement {
    #[serde(skip)]
    pub scope: Scope,
    pub id: String,
    pub state: &'static str,
    pub next_at: i64,
    pub delivered_at: Option<i64>,
    pub delivered_status: Option<i64>,
}

/// A failed attempt's record.
#[derive(Debug, serde::Serialize)]
pub(super) struct Failure {
    #[serde(skip)]
    pub scope: Scope,
    pub outbox_id: String,
    pub attempt: i64,
    pub target_id: String,
    pub at: i64,
    pub status: Option<i64>,
    pub error: Option<String>,
    /// Whether the delivery died of it (its destination is then disabled).
    #[serde(skip)]
    pub dies: bool,
}

impl Records {
    pub(super) fn of<'a>(finished: impl IntoIterator<Item = &'a Finished>) -> Records {
        let mut settle = Vec::new();
        let mut failures = Vec::new();
        for Finished {
            claimed,
            attempt,
            settled,
        } in finished
        {
            let scope = claimed.owner.scope();
            let (state, next_at) = match settled {
                Settled::Delivered => ("delivered", attempt.at),
                Settled::Retry { at } => ("pending", *at),
                Settled::Dead => ("dead", attempt.at),
            };
            let delivered = matches!(settled, Settled::Delivered);
            settle.push(Settlement {
                scope,
                id: claimed.id.clone(),
                state,
                next_at,
                delivered_at: delivered.then_some(attempt.at),
                delivered_status: if delivered { attempt.status } else { None },
            });
            if delivered {
                continue;
            }
            failures.push(Failure {
                scope,
                outbox_id: claimed.id.clone(),
                attempt: claimed.attempts + 1,
                target_id: claimed.target_id.to_string(),
                at: attempt.at,
                status: attempt.status,
                error: attempt.error.clone(),
                dies: matches!(settled, Settled::Dead),
            });
        }
        Records { settle, failures }
    }

    /// For the rows the settlement `kept` (their lease held): the failed attempts to record,
    /// the destinations to disable, and how many attempts lost their lease.
    pub fn kept(&self, kept: &HashSet<String>) -> (Vec<&Failure>, Vec<&Failure>, usize) {
        let failures: Vec<&Failure> = self
            .failures
            .iter()
            .filter(|failure| kept.contains(&failure.outbox_id))
            .collect();
        let dead = failures
            .iter()
            .filter(|failure| failure.dies)
            .copied()
            .collect();
        let lost = self.settle.len() - kept.len();
        (failures, dead, lost)
    }
}

/// A claimed row of `scope`'s outbox, its material not yet attached.
pub(super) fn claimed_of(
    row: &(impl Stored + ?Sized),
    scope: Scope,
) -> Result<Claimed, StoreError> {
    let row = Columns::of("notify_outbox", row);
    Ok(Claimed {
        id: row.text("id")?,
        target_id: row.uuid("target_id")?,
        owner: Owner::of(scope, row.uuid("owner_id")?),
        event_seq: row.int_or_null("event_seq")?,
        kind: row.text("kind")?,
        attempts: row.int("attempts")?,
        created_at: row.int("created_at")?,
        target: None,
        event: None,
    })
}
