//! The delivery worker's outbox work as the SQLite writer runs it, inside a batch of the
//! lobbies' changes (`writer.rs`, `Job::Outbox`): the claim's lease and the settlement of
//! finished attempts, the statements `outbox_scope.rs` writes for both outboxes, on the
//! writer's rusqlite transaction. The writer opens a savepoint around each, so that outbox work that fails
//! leaves the lobbies' changes of the batch as they were.

use std::collections::HashSet;

use rusqlite::{Connection, params};

use super::StoreError;
use super::delivery_rows::{OutboxDone, OutboxWork, Records, Scope, claimed_of};

/// Runs `work` on `conn` (the batch's open transaction).
pub(super) fn run(conn: &Connection, work: &OutboxWork) -> Result<OutboxDone, StoreError> {
    match work {
        OutboxWork::Claim {
            owner,
            now,
            lease_until,
            limit,
        } => claim(conn, owner, *now, *lease_until, *limit),
        OutboxWork::Finish { owner, records } => finish(conn, owner, records),
    }
}

/// Leases up to `limit` deliveries due at `now` to `owner` until `lease_until`: the lobbies'
/// outbox first, then the tournaments' with what is left of `limit`.
fn claim(
    conn: &Connection,
    owner: &str,
    now: i64,
    lease_until: i64,
    limit: i64,
) -> Result<OutboxDone, StoreError> {
    let mut claimed = Vec::new();
    for scope in Scope::ALL {
        let left = limit - claimed.len() as i64;
        if left <= 0 {
            break;
        }
        let mut statement = conn.prepare_cached(&scope.sql().claim_sqlite)?;
        let mut rows = statement.query(params![owner, lease_until, now, left])?;
        while let Some(row) = rows.next()? {
            claimed.push(claimed_of(row, scope)?);
        }
    }
    Ok(OutboxDone::Claimed(claimed))
}

/// Settles the attempts whose lease `owner` still holds, records the failed ones and
/// disables the destinations whose delivery died: a cached statement per row, in the
/// writer's transaction (no round trip to save, and no JSON to build and take apart).
fn finish(conn: &Connection, owner: &str, records: &Records) -> Result<OutboxDone, StoreError> {
    let mut kept = HashSet::new();
    for row in &records.settle {
        let settled = conn
            .prepare_cached(&row.scope.sql().settle_sqlite)?
            .execute(params![
                row.state,
                row.next_at,
                row.delivered_at,
                row.delivered_status,
                row.id,
                owner
            ])?;
        if settled == 1 {
            kept.insert(row.id.clone());
        }
    }
    let (failures, dead, lost) = records.kept(&kept);
    for failure in failures {
        conn.prepare_cached(&failure.scope.sql().record_sqlite)?
            .execute(params![
                failure.outbox_id,
                failure.attempt,
                failure.target_id,
                failure.at,
                failure.status,
                failure.error
            ])?;
    }
    for failure in dead {
        conn.prepare_cached(&failure.scope.sql().disable)?
            .execute(params![failure.target_id])?;
    }
    Ok(OutboxDone::Finished { lost })
}
