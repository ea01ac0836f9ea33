//! The delivery worker's side of the outbox (see `outbox.rs`): claiming due deliveries under a
//! lease, recording each attempt and what follows from it, and the reads the host's view of
//! deliveries needs.
//!
//! Two processes on one database never deliver the same row at once: a claim sets a lease
//! (owner and expiry) in one statement that only takes rows without a live lease, and on
//! PostgreSQL skips rows another claim has locked (`FOR UPDATE SKIP LOCKED`), re-checking the
//! lease on the row it updates. A process that dies mid-delivery leaves a lease that runs out,
//! after which another takes the row: at least once, and once in the normal case.

use std::collections::{HashMap, HashSet};

use uuid::Uuid;

use super::StoreError;
use super::columns::{Columns, Stored};
use super::delivery_rows::{
    AttemptRow, Claimed, Finished, OutboxDone, OutboxWork, Records, TargetRow, claimed_of,
};
use super::rows::EventRow;
use super::{Backend, Store};

pub(super) const CLAIM_SQLITE: &str = "UPDATE notify_outbox SET lease_owner = $1, lease_until = $2 \
    WHERE id IN (SELECT id FROM notify_outbox WHERE status = 'pending' AND next_at <= $3 \
    AND (lease_until IS NULL OR lease_until <= $3) ORDER BY next_at LIMIT $4) \
    AND (lease_until IS NULL OR lease_until <= $3) \
    RETURNING id, target_id, lobby_id, event_seq, kind, attempts, created_at";

const CLAIM_POSTGRES: &str = "UPDATE notify_outbox SET lease_owner = $1, lease_until = $2 \
    WHERE id IN (SELECT id FROM notify_outbox WHERE status = 'pending' AND next_at <= $3 \
    AND (lease_until IS NULL OR lease_until <= $3) ORDER BY next_at LIMIT $4 \
    FOR UPDATE SKIP LOCKED) \
    AND (lease_until IS NULL OR lease_until <= $3) \
    RETURNING id, target_id, lobby_id, event_seq, kind, attempts, created_at";

/// Settles one attempt's row (`delivered_at` and `delivered_status` null unless delivered: a
/// success is recorded on its row) if the lease `$6` still holds it.
pub(super) const SETTLE_SQLITE: &str = "UPDATE notify_outbox SET status = $1, attempts = attempts + 1, \
    next_at = $2, lease_owner = NULL, lease_until = NULL, delivered_at = $3, delivered_status = $4 \
    WHERE id = $5 AND lease_owner = $6";

/// Settles a batch of attempts given as a JSON array of [`Settlement`]s on the rows whose lease
/// `$2` still holds; answers the ids it settled.
const SETTLE_POSTGRES: &str = "UPDATE notify_outbox SET status = f.state, attempts = attempts + 1, \
    next_at = f.next_at, lease_owner = NULL, lease_until = NULL, \
    delivered_at = f.delivered_at, delivered_status = f.delivered_status \
    FROM jsonb_to_recordset($1::jsonb) AS f(id text, state text, next_at bigint, \
    delivered_at bigint, delivered_status bigint) \
    WHERE notify_outbox.id = f.id AND notify_outbox.lease_owner = $2 \
    RETURNING notify_outbox.id";

/// Records one failed attempt.
pub(super) const RECORD_SQLITE: &str = "INSERT INTO notify_attempts \
    (outbox_id, attempt, target_id, at, status, error) VALUES ($1, $2, $3, $4, $5, $6)";

/// Records a batch of failed attempts given as a JSON array of [`Failure`]s.
const RECORD_POSTGRES: &str = "INSERT INTO notify_attempts \
    (outbox_id, attempt, target_id, at, status, error) \
    SELECT outbox_id, attempt, target_id, at, status, error \
    FROM jsonb_to_recordset($1::jsonb) AS f(outbox_id text, attempt bigint, target_id text, \
    at bigint, status bigint, error text)";

/// Disables a destination whose delivery died.
pub(super) const DISABLE_TARGET: &str = "UPDATE notify_targets SET enabled = 0 WHERE id = $1";

/// A claimed delivery's destination and event (`attach_material`), for a list of outbox ids.
const MATERIAL: &str = "SELECT o.id AS outbox_id, t.id, t.lobby_id, t.player_id, t.channel, \
    t.address, t.secret, t.enabled, t.created_at, e.seq, e.kind, e.data \
    FROM notify_outbox o JOIN notify_targets t ON t.id = o.target_id \
    LEFT JOIN events e ON e.lobby_id = o.lobby_id AND e.seq = o.event_seq";

/// One row of [`MATERIAL`]: the outbox id, its destination, and its event if it has one.
fn material_of(
    row: &(impl Stored + ?Sized),
) -> Result<(String, (TargetRow, Option<EventRow>)), StoreError> {
    let id = Columns::of("notify_outbox", row).text("outbox_id")?;
    let target = TargetRow::from_row(row)?;
    let event = match Columns::of("events", row).int_or_null("seq")? {
        Some(_) => Some(EventRow::read(row)?),
        None => None,
    };
    Ok((id, (target, event)))
}

impl Store {
    /// Registers `owner`, this process's delivery worker, to be handed every delivery the
    /// SQLite writer queues from now on, leased to it for `lease_ms` (`handoff.rs`); it holds
    /// until the [`Taking`](super::Taking) is dropped. None on PostgreSQL, whose deliveries are
    /// claimed.
    pub fn take_deliveries(
        &self,
        owner: &str,
        lease_ms: i64,
    ) -> Option<(
        super::Taking,
        tokio::sync::mpsc::UnboundedReceiver<Vec<Claimed>>,
    )> {
        (self.backend == Backend::Sqlite).then(|| self.handoff.register(owner, lease_ms))
    }

    /// Whether the deliveries this process queues are handed to its worker (so that nothing
    /// needs to wake the worker's claims for them).
    pub fn hands_deliveries_off(&self) -> bool {
        self.handoff.taken()
    }

    /// Claims up to `limit` deliveries due at `now` for `owner` until `lease_until`. On
    /// SQLite the claim rides the lobbies' writer's next commit ([`OutboxWork`]); on
    /// PostgreSQL it is a statement of its own, which skips rows another process's claim has
    /// locked.
    pub async fn claim_deliveries(
        &self,
        owner: &str,
        now: i64,
        lease_until: i64,
        limit: i64,
    ) -> Result<Vec<Claimed>, StoreError> {
        let mut claimed = match self.backend {
            Backend::Sqlite => {
                let work = OutboxWork::Claim {
                    owner: owner.to_string(),
                    now,
                    lease_until,
                    limit,
                };
                match self.outbox_in_writer(work).await? {
                    OutboxDone::Claimed(claimed) => claimed,
                    OutboxDone::Finished { .. } => unreachable!("a claim answers its claims"),
                }
            }
            Backend::Postgres => sqlx::query(CLAIM_POSTGRES)
                .bind(owner)
                .bind(lease_until)
                .bind(now)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(claimed_of)
                .collect::<Result<Vec<_>, StoreError>>()?,
        };
        self.attach_material(&mut claimed).await?;
        Ok(claimed)
    }

    /// Hands outbox work to the (SQLite) writer and waits for its commit.
    async fn outbox_in_writer(&self, work: OutboxWork) -> Result<OutboxDone, StoreError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.writers
            .queue(Uuid::nil())
            .send(super::jobs::Job::Outbox { work, reply })
            .await
            .map_err(|_| StoreError::Stopped("writer"))?;
        answer.await.map_err(|_| StoreError::Stopped("writer"))?
    }

    /// Reads the destinations and events of `claimed` in one query: reading them per delivery,
    /// two or three statements each, cost more than building and sending the message.
    async fn attach_material(&self, claimed: &mut [Claimed]) -> Result<(), StoreError> {
        if claimed.is_empty() {
            return Ok(());
        }
        let mut material: HashMap<String, (TargetRow, Option<EventRow>)> = match &self.readers {
            // SQLite: inline on the calling thread, without a round trip through sqlx's
            // connection thread (the worker's claims run on the server's runtime).
            super::Readers::Sqlite(readers) => {
                let ids: Vec<serde_json::Value> =
                    claimed.iter().map(|d| d.id.as_str().into()).collect();
                let ids = serde_json::Value::Array(ids).to_string();
                readers.read(|conn| {
                    let mut statement = conn.prepare_cached(&format!(
                        "{MATERIAL} WHERE o.id IN (SELECT value FROM json_each($1))"
                    ))?;
                    let mut rows = statement.query(rusqlite::params![ids])?;
                    let mut material = HashMap::with_capacity(claimed.len());
                    while let Some(row) = rows.next()? {
                        let (id, found) = material_of(row)?;
                        material.insert(id, found);
                    }
                    Ok(material)
                })?
            }
            super::Readers::Postgres(_) => {
                let places: Vec<String> = (1..=claimed.len()).map(|i| format!("${i}")).collect();
                let sql = format!("{MATERIAL} WHERE o.id IN ({})", places.join(", "));
                let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
                for delivery in claimed.iter() {
                    query = query.bind(delivery.id.clone());
                }
                let rows = query.fetch_all(&self.pool).await?;
                let mut material = HashMap::with_capacity(rows.len());
                for row in &rows {
                    let (id, found) = material_of(row)?;
                    material.insert(id, found);
                }
                material
            }
        };
        for delivery in claimed.iter_mut() {
            if let Some((target, event)) = material.remove(&delivery.id) {
                delivery.target = Some(target);
                delivery.event = event;
            }
        }
        Ok(())
    }

    /// Records attempts on claimed deliveries and settles what follows from each (delivered,
    /// due again later, or dead, which disables its destination), all in one transaction: on
    /// SQLite each transaction is an fsync, and a busy server's deliveries must not cost one
    /// each. The batch travels as one JSON parameter, so that the transaction is three
    /// statements whatever its size (a statement per delivery cost more than sending it). An
    /// attempt whose lease `owner` no longer holds (another process took the row over) writes
    /// nothing; the answer counts those.
    pub async fn finish_deliveries(
        &self,
        owner: &str,
        finished: &[Finished],
    ) -> Result<usize, StoreError> {
        if finished.is_empty() {
            return Ok(0);
        }
        let records = Records::of(finished);
        if self.backend == Backend::Sqlite {
            let work = OutboxWork::Finish {
                owner: owner.to_string(),
                records,
            };
            return match self.outbox_in_writer(work).await? {
                OutboxDone::Finished { lost } => Ok(lost),
                OutboxDone::Claimed(_) => unreachable!("a settlement answers what it lost"),
            };
        }
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(SETTLE_POSTGRES)
            .bind(json_text(&records.settle)?)
            .bind(owner)
            .fetch_all(&mut *tx)
            .await?;
        let mut kept = HashSet::with_capacity(rows.len());
        for row in &rows {
            kept.insert(Columns::of("notify_outbox", row).text("id")?);
        }
        let (attempts, dead, lost) = records.kept(&kept);
        if !attempts.is_empty() {
            sqlx::query(RECORD_POSTGRES)
                .bind(json_text(&attempts)?)
                .execute(&mut *tx)
                .await?;
        }
        for target in dead {
            sqlx::query(DISABLE_TARGET)
                .bind(target)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(lost)
    }

    /// The last `limit` attempts on a destination, newest first: the failed ones from
    /// notify_attempts, the successful ones from their outbox rows.
    pub async fn attempts(&self, target: Uuid, limit: i64) -> Result<Vec<AttemptRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT outbox_id, kind, attempt, at, status, error FROM ( \
             SELECT a.outbox_id, o.kind, a.attempt, a.at, a.status, a.error \
             FROM notify_attempts a JOIN notify_outbox o ON o.id = a.outbox_id \
             WHERE a.target_id = $1 \
             UNION ALL \
             SELECT o.id AS outbox_id, o.kind, o.attempts AS attempt, o.delivered_at AS at, \
             o.delivered_status AS status, CAST(NULL AS TEXT) AS error \
             FROM notify_outbox o WHERE o.target_id = $1 AND o.delivered_at IS NOT NULL \
             ) AS attempts ORDER BY at DESC, attempt DESC LIMIT $2",
        )
        .bind(target.to_string())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let row = Columns::of("notify_attempts", row);
                Ok(AttemptRow {
                    delivery_id: row.text("outbox_id")?,
                    kind: row.text("kind")?,
                    attempt: row.int("attempt")?,
                    at: row.int("at")?,
                    status: row.int_or_null("status")?,
                    error: row.text_or_null("error")?,
                })
            })
            .collect()
    }

    /// The deliveries of a destination by status, as (delivery id, status, attempts), oldest
    /// first: what tests and the host's panel count.
    pub async fn deliveries(&self, target: Uuid) -> Result<Vec<(String, String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, status, attempts FROM notify_outbox WHERE target_id = $1 \
             ORDER BY created_at, id",
        )
        .bind(target.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let r = Columns::of("notify_outbox", r);
                Ok((r.text("id")?, r.text("status")?, r.int("attempts")?))
            })
            .collect()
    }

    /// When the earliest pending delivery falls due (unix ms), if any.
    pub async fn next_delivery_at(&self) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "SELECT MIN(next_at) AS next_at FROM notify_outbox WHERE status = 'pending'",
        )
        .fetch_one(&self.pool)
        .await?;
        Columns::of("notify_outbox", &row).int_or_null("next_at")
    }
}

/// A list as one JSON parameter (PostgreSQL's batch statements).
fn json_text(list: &impl serde::Serialize) -> Result<String, StoreError> {
    serde_json::to_string(list).map_err(|e| StoreError::Corrupt {
        table: "notify_outbox",
        column: "settlement",
        cause: e.to_string(),
    })
}
