//! The notification outbox (migration 0005, docs/notifications.md): destinations, their
//! subscriptions, the deliveries owed and the attempts made.
//!
//! A delivery is owed the moment the event it announces is committed: the SQLite writer calls
//! [`enqueue_sqlite`] right after inserting a change's events, and the PostgreSQL writer
//! inserts a batch's events and their deliveries in the same statements (`pg_writes.rs`), so
//! an event is never committed without its deliveries, nor a delivery without its event.
//! Everything else here (the host's and the player's settings, the delivery worker's claims
//! and results) runs outside the lobbies' writers.

use std::collections::HashSet;

use sqlx::AnyConnection;
use uuid::Uuid;

use super::Store;
use super::StoreError;
use super::columns::Columns;
use super::delivery_rows::{Claimed, Owner, Scope, TargetRow};
use super::handoff::Taker;
use super::rows::EventRow;
use crate::events::EventKind;

/// The event kinds a destination may subscribe to: the streams' names, less `submitted` (one
/// per order: noise for a channel, and the most frequent event, which the writers then skip).
/// In the order the host's page and the documents list them.
pub const NOTIFIABLE: [EventKind; 15] = [
    EventKind::PlayerJoined,
    EventKind::PlayerLeft,
    EventKind::SignupsClosed,
    EventKind::SignupsReopened,
    EventKind::Started,
    EventKind::StepResolved,
    EventKind::RoundResolved,
    EventKind::DeadlineSet,
    EventKind::DeadlineApproaching,
    EventKind::Paused,
    EventKind::Resumed,
    EventKind::PlayerReplaced,
    EventKind::PlayerKicked,
    EventKind::EndedByHost,
    EventKind::Finished,
];

/// Whether an event stored as `kind` can be owed to anyone ([`EventKind::notifiable`]).
pub fn notifiable(kind: &str) -> bool {
    EventKind::parse(kind).is_some_and(EventKind::notifiable)
}

/// The deliveries owed for one event: one per enabled destination subscribed to its kind.
/// Parameters appear in order ($1 first) so that rusqlite numbers them as sqlx does.
const ENQUEUE: &str = "INSERT INTO notify_outbox \
    (lobby_id, event_seq, kind, created_at, next_at, id, target_id, status, attempts) \
    SELECT $1, $2, $3, $4, $4, t.id || '.' || $2, t.id, 'pending', 0 \
    FROM notify_subscriptions s JOIN notify_targets t ON t.id = s.target_id \
    WHERE s.lobby_id = $1 AND s.kind = $3 AND t.enabled = 1";

/// Whether any destination of the lobby subscribes to anything.
const SUBSCRIBED: &str = "SELECT EXISTS (SELECT 1 FROM notify_subscriptions WHERE lobby_id = $1)";

/// A change's events, as the outbox sees them.
pub(super) struct Owed<'a> {
    pub lobby: Uuid,
    /// The sequence number of the first of `events`.
    pub first_seq: i64,
    pub events: &'a [super::NewEvent],
    pub now: i64,
}

/// The subscribed, enabled destinations of a lobby for one event kind, read by the SQLite
/// writer when it hands the deliveries it queues to this process's worker (`handoff.rs`).
const SUBSCRIBED_TARGETS: &str = "SELECT t.id, t.lobby_id AS owner_id, t.player_id, t.channel, t.address, \
    t.secret, t.enabled, t.created_at \
    FROM notify_subscriptions s JOIN notify_targets t ON t.id = s.target_id \
    WHERE s.lobby_id = $1 AND s.kind = $2 AND t.enabled = 1";

/// A delivery queued already leased to the worker it is handed to, not due again before the
/// lease runs out (`handoff.rs`).
const ENQUEUE_HANDED: &str = "INSERT INTO notify_outbox \
    (lobby_id, event_seq, kind, created_at, next_at, id, target_id, status, attempts, \
    lease_owner, lease_until) VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', 0, $8, $5)";

/// The SQLite writer's hook: the deliveries owed for a change's events. `quiet` holds the
/// lobbies the writer knows to have no subscription (it empties it whenever another
/// connection commits, since only other connections write destinations): most lobbies have
/// none, and a resolved step's events then cost one look at the subscriptions per lobby
/// rather than one per event and step. With a worker to hand them to (`handing`), each
/// delivery is queued leased to it and added to `handed`, with its destination and event, for
/// the writer to send once the batch has committed.
pub(super) fn enqueue_sqlite(
    conn: &rusqlite::Connection,
    lobby_text: &str,
    owed: Owed<'_>,
    quiet: &mut HashSet<Uuid>,
    handing: Option<(&Taker, &mut Vec<Claimed>)>,
) -> Result<(), StoreError> {
    if !owed.events.iter().any(|e| e.kind.notifiable()) || quiet.contains(&owed.lobby) {
        return Ok(());
    }
    let subscribed: bool = conn
        .prepare_cached(SUBSCRIBED)?
        .query_row(rusqlite::params![lobby_text], |row| row.get(0))?;
    if !subscribed {
        quiet.insert(owed.lobby);
        return Ok(());
    }
    let notifiable = owed
        .events
        .iter()
        .enumerate()
        .filter(|(_, event)| event.kind.notifiable())
        .map(|(offset, event)| (owed.first_seq + offset as i64, event));
    let Some((taker, handed)) = handing else {
        for (seq, event) in notifiable {
            conn.prepare_cached(ENQUEUE)?.execute(rusqlite::params![
                lobby_text,
                seq,
                event.kind.as_str(),
                owed.now
            ])?;
        }
        return Ok(());
    };
    let lease_until = owed.now.saturating_add(taker.lease_ms);
    for (seq, event) in notifiable {
        let targets = {
            let mut statement = conn.prepare_cached(SUBSCRIBED_TARGETS)?;
            let mut rows = statement.query(rusqlite::params![lobby_text, event.kind.as_str()])?;
            let mut targets = Vec::new();
            while let Some(row) = rows.next()? {
                targets.push(TargetRow::from_row(row, Scope::Lobby)?);
            }
            targets
        };
        for target in targets {
            let id = format!("{}.{seq}", target.id);
            conn.prepare_cached(ENQUEUE_HANDED)?
                .execute(rusqlite::params![
                    lobby_text,
                    seq,
                    event.kind.as_str(),
                    owed.now,
                    lease_until,
                    id,
                    target.id.to_string(),
                    &*taker.owner,
                ])?;
            handed.push(Claimed {
                id,
                target_id: target.id,
                owner: Owner::Lobby(owed.lobby),
                event_seq: Some(seq),
                kind: event.kind.as_str().to_string(),
                attempts: 0,
                created_at: owed.now,
                target: Some(target),
                event: Some(EventRow {
                    seq,
                    kind: event.kind.as_str().to_string(),
                    data: event.data.clone(),
                }),
            });
        }
    }
    Ok(())
}

/// A destination to store.
#[derive(Clone, Debug)]
pub struct NewTarget {
    pub id: Uuid,
    /// The lobby or the tournament whose news it gets.
    pub owner: Owner,
    /// A player's own destination's seat (a lobby's only).
    pub player_id: Option<Uuid>,
    pub channel: &'static str,
    pub address: String,
    pub secret: Option<String>,
    pub kinds: Vec<String>,
}

impl Store {
    /// Stores a destination and its subscriptions.
    pub async fn insert_target(&self, target: &NewTarget, now: i64) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        insert_target(&mut tx, target, now).await?;
        Ok(tx.commit().await?)
    }

    /// Replaces a player's own destinations with `targets` (none: the player has none).
    pub async fn replace_player_targets(
        &self,
        lobby: Uuid,
        player: Uuid,
        targets: &[NewTarget],
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM notify_targets WHERE lobby_id = $1 AND player_id = $2")
            .bind(lobby.to_string())
            .bind(player.to_string())
            .execute(&mut *tx)
            .await?;
        for target in targets {
            insert_target(&mut tx, target, now).await?;
        }
        Ok(tx.commit().await?)
    }

    /// Replaces a player's mail destination with `mail` (none: no mail), leaving a webhook they
    /// set through the API as it is: the pages' mail form knows nothing of webhooks.
    pub async fn replace_player_mail(
        &self,
        lobby: Uuid,
        player: Uuid,
        mail: Option<&NewTarget>,
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "DELETE FROM notify_targets WHERE lobby_id = $1 AND player_id = $2 AND channel = 'mail'",
        )
        .bind(lobby.to_string())
        .bind(player.to_string())
        .execute(&mut *tx)
        .await?;
        if let Some(target) = mail {
            insert_target(&mut tx, target, now).await?;
        }
        Ok(tx.commit().await?)
    }

    /// The lobby's destinations: the host's webhooks (`player` None) or one player's own.
    pub async fn targets(
        &self,
        lobby: Uuid,
        player: Option<Uuid>,
    ) -> Result<Vec<TargetRow>, StoreError> {
        let columns = &Scope::Lobby.sql().target_columns;
        let rows = match player {
            None => {
                let sql = format!(
                    "SELECT {columns} FROM notify_targets \
                     WHERE lobby_id = $1 AND player_id IS NULL ORDER BY created_at, id"
                );
                sqlx::query(sqlx::AssertSqlSafe(sql))
                    .bind(lobby.to_string())
                    .fetch_all(&self.pool)
                    .await?
            }
            Some(player) => {
                let sql = format!(
                    "SELECT {columns} FROM notify_targets \
                     WHERE lobby_id = $1 AND player_id = $2 ORDER BY created_at, id"
                );
                sqlx::query(sqlx::AssertSqlSafe(sql))
                    .bind(lobby.to_string())
                    .bind(player.to_string())
                    .fetch_all(&self.pool)
                    .await?
            }
        };
        let mut targets = Vec::with_capacity(rows.len());
        for row in &rows {
            let mut target = TargetRow::from_row(row, Scope::Lobby)?;
            target.kinds = self.kinds_of(Scope::Lobby, target.id).await?;
            targets.push(target);
        }
        Ok(targets)
    }

    /// One destination of `scope` by id.
    pub async fn target(&self, scope: Scope, id: Uuid) -> Result<Option<TargetRow>, StoreError> {
        let sql = format!(
            "SELECT {} FROM {} WHERE id = $1",
            scope.sql().target_columns,
            scope.targets()
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id.to_string())
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let mut target = TargetRow::from_row(&row, scope)?;
        target.kinds = self.kinds_of(scope, target.id).await?;
        Ok(Some(target))
    }

    /// The event kinds a destination of `scope` subscribes to, sorted.
    pub(super) async fn kinds_of(
        &self,
        scope: Scope,
        target: Uuid,
    ) -> Result<Vec<String>, StoreError> {
        let sql = format!(
            "SELECT kind FROM {} WHERE target_id = $1 ORDER BY kind",
            scope.subscriptions()
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(target.to_string())
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Columns::of("notify_subscriptions", r).text("kind"))
            .collect()
    }

    /// Deletes one of the host's (or the director's) webhooks; false if `owner` has no such
    /// webhook.
    pub async fn delete_target(&self, owner: Owner, id: Uuid) -> Result<bool, StoreError> {
        let sql = format!(
            "DELETE FROM {} WHERE id = $1 AND {}",
            owner.scope().targets(),
            webhook_of(owner.scope())
        );
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id.to_string())
            .bind(owner.id().to_string())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Enables one of the host's (or the director's) webhooks again; false if `owner` has no
    /// such webhook.
    pub async fn enable_target(&self, owner: Owner, id: Uuid) -> Result<bool, StoreError> {
        let sql = format!(
            "UPDATE {} SET enabled = 1 WHERE id = $1 AND {}",
            owner.scope().targets(),
            webhook_of(owner.scope())
        );
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id.to_string())
            .bind(owner.id().to_string())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Stores the hash of a mail's unsubscribe token for its destination.
    pub async fn add_unsubscribe(
        &self,
        target: Uuid,
        hash: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO notify_unsubscribe (token_hash, target_id, created_at) VALUES ($1, $2, $3)",
        )
        .bind(hash)
        .bind(target.to_string())
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Deletes the destination a mail's unsubscribe token (as its hash) names; false if the
    /// token is unknown (or was used already).
    pub async fn unsubscribe(&self, hash: &str) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "DELETE FROM notify_targets WHERE id IN \
             (SELECT target_id FROM notify_unsubscribe WHERE token_hash = $1)",
        )
        .bind(hash)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Completes when the store's pool closes (background tasks stop then).
    pub async fn closed(&self) {
        self.pool.close_event().await;
    }

    /// Queues a test delivery to a destination now, in its owner's outbox; its delivery id.
    pub async fn queue_test(&self, target: &TargetRow, now: i64) -> Result<String, StoreError> {
        let id = format!("{}.test-{}", target.id, Uuid::new_v4().simple());
        sqlx::query(target.owner.scope().sql().queue_test.as_str())
            .bind(&id)
            .bind(target.id.to_string())
            .bind(target.owner.id().to_string())
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(id)
    }
}

/// The condition (on `$2`, the owner's id) that a destination is the host's or the
/// director's webhook, not a player's own.
fn webhook_of(scope: Scope) -> &'static str {
    match scope {
        Scope::Lobby => "lobby_id = $2 AND player_id IS NULL",
        Scope::Tournament => "tournament_id = $2",
    }
}

async fn insert_target(
    conn: &mut AnyConnection,
    target: &NewTarget,
    now: i64,
) -> Result<(), StoreError> {
    let id = target.id.to_string();
    let owner = target.owner.id().to_string();
    let scope = target.owner.scope();
    let insert = match scope {
        Scope::Lobby => sqlx::query(
            "INSERT INTO notify_targets (id, lobby_id, channel, address, secret, enabled, \
             created_at, player_id) VALUES ($1, $2, $3, $4, $5, 1, $6, $7)",
        ),
        // A tournament's destinations are its director's webhooks: no player column.
        Scope::Tournament => sqlx::query(
            "INSERT INTO tournament_webhooks (id, tournament_id, channel, address, secret, \
             enabled, created_at) VALUES ($1, $2, $3, $4, $5, 1, $6)",
        ),
    };
    let insert = insert
        .bind(&id)
        .bind(&owner)
        .bind(target.channel)
        .bind(&target.address)
        .bind(target.secret.as_deref())
        .bind(now);
    match scope {
        Scope::Lobby => insert.bind(target.player_id.map(|p| p.to_string())),
        Scope::Tournament => insert,
    }
    .execute(&mut *conn)
    .await?;
    let subscribe = format!(
        "INSERT INTO {} ({}, kind, target_id) VALUES ($1, $2, $3)",
        scope.subscriptions(),
        scope.owner_column()
    );
    for kind in &target.kinds {
        sqlx::query(sqlx::AssertSqlSafe(subscribe.clone()))
            .bind(&owner)
            .bind(kind.as_str())
            .bind(&id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notifiable_kinds_are_the_ones_a_destination_may_subscribe_to() {
        let mut found: Vec<&str> = EventKind::ALL
            .into_iter()
            .filter(|kind| kind.notifiable())
            .map(EventKind::as_str)
            .collect();
        let mut listed = NOTIFIABLE.map(EventKind::as_str).to_vec();
        listed.sort_unstable();
        found.sort_unstable();
        assert_eq!(found, listed);
        assert!(!notifiable("submitted"));
        assert!(notifiable("round-resolved"));
        assert!(!notifiable("no-such-kind"));
    }
}
