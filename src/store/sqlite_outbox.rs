//! The delivery worker's outbox work as the SQLite writer runs it, inside a batch of the
//! lobbies' changes (`writer.rs`, `Job::Outbox`): the claim's lease and the settlement of
//! finished attempts, the same statements as `deliveries.rs` names, on the writer's rusqlite
//! transaction. The writer opens a savepoint around each, so that outbox work that fails
//! leaves the lobbies' changes of the batch as they were.

use std::collections::HashSet;

use rusqlite::{Connection, params};

use super::StoreError;
use super::deliveries::{CLAIM_SQLITE, DISABLE_TARGET, RECORD_SQLITE, SETTLE_SQLITE};
use super::delivery_rows::{OutboxDone, OutboxWork, Records, claimed_of};

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

/// Leases up to `limit` deliveries due at `now` to `owner` until `lease_until`.
fn claim(
    conn: &Connection,
    owner: &str,
    now: i64,
    lease_until: i64,
    limit: i64,
) -> Result<OutboxDone, StoreError> {
    let mut statement = conn.prepare_cached(CLAIM_SQLITE)?;
    let mut rows = statement.query(params![owner, lease_until, now, limit])?;
    let mut claimed = Vec::new();
    while let Some(row) = rows.next()? {
        claimed.push(claimed_of(row)?);
    }
    Ok(OutboxDone::Claimed(claimed))
}

/// Settles the attempts whose lease `owner` still holds, records the failed ones and
/// disables the destinations whose delivery died: a cached statement per row, in the
/// writer's transaction (no round trip to save, and no JSON to build and take apart).
fn finish(conn: &Connection, owner: &str, records: &Records) -> Result<OutboxDone, StoreError> {
    let mut kept = HashSet::new();
    {
        let mut settle = conn.prepare_cached(SETTLE_SQLITE)?;
        for row in &records.settle {
            let settled = settle.execute(params![
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
    }
    let (failures, dead, lost) = records.kept(&kept);
    if !failures.is_empty() {
        let mut record = conn.prepare_cached(RECORD_SQLITE)?;
        for failure in failures {
            record.execute(params![
                failure.outbox_id,
                failure.attempt,
                failure.target_id,
                failure.at,
                failure.status,
                failure.error
            ])?;
        }
    }
    for target in dead {
        conn.prepare_cached(DISABLE_TARGET)?
            .execute(params![target])?;
    }
    Ok(OutboxDone::Finished { lost })
}
