//! A tournament's news (migration 0029, docs/notifications.md, "Tournament webhooks"): its
//! events, written by the same versioned transaction that pairs a round or finishes the
//! tournament, each with one outbox row per enabled webhook subscribed to its kind; and the
//! director's list of webhooks. The delivery worker serves this outbox as it serves the
//! lobbies' (`outbox_scope.rs`).

use uuid::Uuid;

use super::delivery_rows::{Scope, TargetRow};
use super::{Store, StoreError};

/// The deliveries owed for one tournament event: `$1` the tournament, `$2` the event's seq,
/// `$3` its kind, `$4` now, `$5` the seq as text for the delivery id (`<target>.<seq>`, as a
/// lobby's). Parameters appear in order, as SQLite numbers them.
const ENQUEUE: &str = "INSERT INTO tournament_outbox \
    (tournament_id, event_seq, kind, created_at, next_at, id, target_id, status, attempts) \
    SELECT $1, $2, $3, $4, $4, t.id || '.' || $5, t.id, 'pending', 0 \
    FROM tournament_subscriptions s JOIN tournament_webhooks t ON t.id = s.target_id \
    WHERE s.tournament_id = $1 AND s.kind = $3 AND t.enabled = 1";

const INSERT_EVENT: &str = "INSERT INTO tournament_events \
    (tournament_id, seq, kind, data, created_at) VALUES ($1, $2, $3, $4, $5)";

/// Writes event `kind` with `data` as tournament `id`'s event `seq` at `now`, and the
/// deliveries it owes, on the change's transaction; how many deliveries.
pub(super) async fn publish(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    seq: i64,
    kind: &str,
    data: &str,
    now: i64,
) -> Result<u64, StoreError> {
    sqlx::query(INSERT_EVENT)
        .bind(id)
        .bind(seq)
        .bind(kind)
        .bind(data)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(sqlx::query(ENQUEUE)
        .bind(id)
        .bind(seq)
        .bind(kind)
        .bind(now)
        .bind(seq.to_string())
        .execute(&mut **tx)
        .await?
        .rows_affected())
}

impl Store {
    /// A tournament's webhooks, oldest first, each with the events it wants.
    pub async fn tournament_targets(&self, id: Uuid) -> Result<Vec<TargetRow>, StoreError> {
        let scope = Scope::Tournament;
        let sql = format!(
            "SELECT {} FROM tournament_webhooks WHERE tournament_id = $1 ORDER BY created_at, id",
            scope.sql().target_columns
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id.to_string())
            .fetch_all(&self.pool)
            .await?;
        let mut targets = Vec::with_capacity(rows.len());
        for row in &rows {
            let mut target = TargetRow::from_row(row, scope)?;
            target.kinds = self.kinds_of(scope, target.id).await?;
            targets.push(target);
        }
        Ok(targets)
    }
}
