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
    AttemptRow, Claimed, Finished, OutboxDone, OutboxWork, Records, Scope, TargetRow, claimed_of,
};
use super::rows::EventRow;
use super::{Backend, Store};

/// One row of a scope's material statement: the outbox id, its destination, and its event if
/// it has one.
fn material_of(
    row: &(impl Stored + ?Sized),
    scope: Scope,
) -> Result<(String, (TargetRow, Option<EventRow>)), StoreError> {
    let id = Columns::of("notify_outbox", row).text("outbox_id")?;
    let target = TargetRow::from_row(row, scope)?;
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
            Backend::Postgres => {
                let mut claimed = Vec::new();
                for scope in Scope::ALL {
                    let left = limit - claimed.len() as i64;
                    if left <= 0 {
                        break;
                    }
                    let rows = sqlx::query(scope.sql().claim_postgres.as_str())
                        .bind(owner)
                        .bind(lease_until)
                        .bind(now)
                        .bind(left)
                        .fetch_all(&self.pool)
                        .await?;
                    for row in &rows {
                        claimed.push(claimed_of(row, scope)?);
                    }
                }
                claimed
            }
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
        let mut material = HashMap::with_capacity(claimed.len());
        for scope in Scope::ALL {
            let ids: Vec<&str> = claimed
                .iter()
                .filter(|d| d.owner.scope() == scope)
                .map(|d| d.id.as_str())
                .collect();
            if !ids.is_empty() {
                material.extend(self.material(scope, &ids).await?);
            }
        }
        for delivery in claimed.iter_mut() {
            if let Some((target, event)) = material.remove(&delivery.id) {
                delivery.target = Some(target);
                delivery.event = event;
            }
        }
        Ok(())
    }

    /// The destinations and events of the deliveries `ids` of `scope`'s outbox.
    async fn material(
        &self,
        scope: Scope,
        ids: &[&str],
    ) -> Result<HashMap<String, (TargetRow, Option<EventRow>)>, StoreError> {
        let statement = &scope.sql().material;
        Ok(match &self.readers {
            // SQLite: inline on the calling thread, without a round trip through sqlx's
            // connection thread (the worker's claims run on the server's runtime).
            super::Readers::Sqlite(readers) => {
                let ids = serde_json::to_string(ids).map_err(|e| StoreError::Corrupt {
                    table: "notify_outbox",
                    column: "id",
                    cause: e.to_string(),
                })?;
                readers.read(|conn| {
                    let mut statement = conn.prepare_cached(&format!(
                        "{statement} WHERE o.id IN (SELECT value FROM json_each($1))"
                    ))?;
                    let mut rows = statement.query(rusqlite::params![ids])?;
                    let mut material = HashMap::new();
                    while let Some(row) = rows.next()? {
                        let (id, found) = material_of(row, scope)?;
                        material.insert(id, found);
                    }
                    Ok(material)
                })?
            }
            super::Readers::Postgres(_) => {
                let places: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
                let sql = format!("{statement} WHERE o.id IN ({})", places.join(", "));
                let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
                for id in ids {
                    query = query.bind(id.to_string());
                }
                let rows = query.fetch_all(&self.pool).await?;
                let mut material = HashMap::with_capacity(rows.len());
                for row in &rows {
                    let (id, found) = material_of(row, scope)?;
                    material.insert(id, found);
                }
                material
            }
        })
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
        drop(records);
        let mut tx = self.pool.begin().await?;
        let mut lost = 0;
        for scope in Scope::ALL {
            let records = Records::of(finished.iter().filter(|f| f.claimed.owner.scope() == scope));
            if records.settle.is_empty() {
                continue;
            }
            let sql = scope.sql();
            let rows = sqlx::query(sql.settle_postgres.as_str())
                .bind(json_text(&records.settle)?)
                .bind(owner)
                .fetch_all(&mut *tx)
                .await?;
            let mut kept = HashSet::with_capacity(rows.len());
            for row in &rows {
                kept.insert(Columns::of("notify_outbox", row).text("id")?);
            }
            let (attempts, dead, lost_here) = records.kept(&kept);
            lost += lost_here;
            if !attempts.is_empty() {
                sqlx::query(sql.record_postgres.as_str())
                    .bind(json_text(&attempts)?)
                    .execute(&mut *tx)
                    .await?;
            }
            for failure in dead {
                sqlx::query(sql.disable.as_str())
                    .bind(failure.target_id.as_str())
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(lost)
    }

    /// The last `limit` attempts on one of a lobby's destinations ([`Store::attempts_of`]).
    pub async fn attempts(&self, target: Uuid, limit: i64) -> Result<Vec<AttemptRow>, StoreError> {
        self.attempts_of(Scope::Lobby, target, limit).await
    }

    /// The last `limit` attempts on a destination of `scope`, newest first: the failed ones
    /// from the attempts' table, the successful ones from their outbox rows.
    pub async fn attempts_of(
        &self,
        scope: Scope,
        target: Uuid,
        limit: i64,
    ) -> Result<Vec<AttemptRow>, StoreError> {
        let rows = sqlx::query(scope.sql().attempts.as_str())
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
        self.deliveries_of(Scope::Lobby, target).await
    }

    /// The deliveries of a destination of `scope`'s outbox, as [`Store::deliveries`] lists them.
    pub async fn deliveries_of(
        &self,
        scope: Scope,
        target: Uuid,
    ) -> Result<Vec<(String, String, i64)>, StoreError> {
        let sql = format!(
            "SELECT id, status, attempts FROM {} WHERE target_id = $1 ORDER BY created_at, id",
            scope.outbox()
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
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
            "SELECT MIN(next_at) AS next_at FROM ( \
             SELECT MIN(next_at) AS next_at FROM notify_outbox WHERE status = 'pending' \
             UNION ALL \
             SELECT MIN(next_at) AS next_at FROM tournament_outbox WHERE status = 'pending' \
             ) AS due",
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
