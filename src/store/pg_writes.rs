//! How a PostgreSQL batch writes its changes. On PostgreSQL every statement costs the database
//! more CPU than the rows it writes, and the database shares the machine, so a batch writes as
//! few statements as it can: the rows a change must write at once (a joining player, which
//! a UNIQUE constraint may refuse, and a resolved step) go as it is applied; the rest wait for
//! the end of the batch and go several rows per statement:
//! - each changed lobby's row, once, at the state the batch leaves it in;
//! - the pending orders;
//! - the events.
//!
//! The batch holds every lobby's row lock from its first statement (`versions::lock_batch`), so
//! nothing can change a lobby between the decision and these writes; the final UPDATE still
//! checks each lobby's version as the batch found it, and fails the batch if one moved.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use sqlx::AnyConnection;
use uuid::Uuid;

use super::feed::Published;
use super::profile_rows::SeatBinding;
use super::rows::{Change, EventRow, Snapshot};
use super::{StoreError, sql};

/// What a batch writes at its end.
pub(super) struct Deferred {
    /// The batch's instant (from the store's clock): its events', orders' and steps' time.
    now: i64,
    /// Each changed lobby's version when the batch first read it.
    versions_before: HashMap<Uuid, i64>,
    /// Pending orders' bodies, keyed as the table is (lobby, step, player): a later order of
    /// the same player for the same step replaces the earlier, as the upsert would have.
    orders: HashMap<(String, i64, String), String>,
    /// The lobbies whose state a change of the batch set: only theirs is sent (see
    /// [`update_lobbies`]).
    states_set: HashSet<Uuid>,
    /// The lobbies whose clock a change set with a wake-up (for the batch's announcement,
    /// `pg_listen.rs`: other processes' schedulers may have to wake sooner).
    pub clocks: HashSet<Uuid>,
}

impl Deferred {
    /// Nothing deferred yet, in a batch that runs at `now`.
    pub fn at(now: i64) -> Deferred {
        Deferred {
            now,
            versions_before: HashMap::new(),
            orders: HashMap::new(),
            states_set: HashSet::new(),
            clocks: HashSet::new(),
        }
    }
}

/// Applies what of a decided change cannot wait, and defers the rest. Returns the lobby's last
/// event number.
pub(super) async fn apply(
    conn: &mut AnyConnection,
    snapshot: &Snapshot,
    change: &Change,
    deferred: &mut Deferred,
) -> Result<i64, StoreError> {
    let lobby = &snapshot.lobby;
    let id = lobby.id.to_string();
    let now_seq = lobby.step_seq;
    if let Some(player) = &change.player {
        let (profile, kind, holding) = SeatBinding::columns(player.binding.as_ref());
        sqlx::query(sql::INSERT_PLAYER)
            .bind(player.id.to_string())
            .bind(&id)
            .bind(player.seat as i64)
            .bind(&player.name)
            .bind(&player.name_key)
            .bind(&player.join_data)
            .bind(&player.token_hash)
            .bind(profile)
            .bind(kind)
            .bind(holding)
            .bind(player.alias.as_deref())
            .execute(&mut *conn)
            .await?;
    }
    if let Some(update) = &change.player_update {
        sqlx::query(sql::UPDATE_PLAYER)
            .bind(&update.name)
            .bind(&update.name_key)
            .bind(&update.token_hash)
            .bind(update.alias.as_deref())
            .bind(update.id.to_string())
            .bind(&id)
            .execute(&mut *conn)
            .await?;
    }
    for update in &change.players {
        let Some(held) = snapshot.players.iter().find(|p| p.id == update.id) else {
            continue;
        };
        let mut player = held.clone();
        update.apply_to(&mut player);
        let (profile, kind, holding) = SeatBinding::columns(player.binding.as_ref());
        sqlx::query(sql::PATCH_PLAYER)
            .bind(player.fallback.as_deref())
            .bind(player.misses)
            .bind(profile)
            .bind(kind)
            .bind(holding)
            .bind(&player.name)
            .bind(player.alias.as_deref())
            .bind(player.id.to_string())
            .bind(&id)
            .execute(&mut *conn)
            .await?;
    }
    if let Some(removed) = &change.player_removed {
        sqlx::query(sql::DELETE_PLAYER)
            .bind(removed.id.to_string())
            .bind(&id)
            .execute(&mut *conn)
            .await?;
        sqlx::query(sql::SEATS_ASIDE)
            .bind(&id)
            .bind(removed.seat as i64)
            .execute(&mut *conn)
            .await?;
        sqlx::query(sql::SEATS_BACK)
            .bind(&id)
            .execute(&mut *conn)
            .await?;
    }
    if let Some(dropped) = &change.order_dropped {
        // The order may be one this batch has not written yet, or one written before.
        deferred
            .orders
            .remove(&(id.clone(), now_seq, dropped.to_string()));
        sqlx::query(sql::DELETE_ORDER)
            .bind(&id)
            .bind(now_seq)
            .bind(dropped.to_string())
            .execute(&mut *conn)
            .await?;
    }
    if let Some(order) = &change.order {
        deferred.orders.insert(
            (id.clone(), now_seq, order.player_id.to_string()),
            order.body.clone(),
        );
    }
    for (offset, step) in change.resolved.iter().enumerate() {
        sqlx::query(sql::INSERT_STEP)
            .bind(&id)
            .bind(now_seq + offset as i64)
            .bind(i64::from(step.round))
            .bind(&step.step)
            .bind(&step.revealed)
            .bind(&step.log)
            .bind(&step.pools)
            .bind(deferred.now)
            .bind(&step.acts)
            .bind(&step.digest)
            .bind(&step.previous_digest)
            .execute(&mut *conn)
            .await?;
    }
    if !change.resolved.is_empty() {
        // The resolved step's orders live on, revealed, in its `steps` row: those this batch
        // has not written yet never will be, and those written before go.
        deferred
            .orders
            .retain(|(lobby, seq, _), _| !(lobby == &id && *seq == now_seq));
        sqlx::query(sql::DELETE_ORDERS)
            .bind(&id)
            .bind(now_seq)
            .execute(&mut *conn)
            .await?;
    }
    if let Some(message) = &change.message {
        sqlx::query(sql::INSERT_MESSAGE)
            .bind(&id)
            .bind(lobby.event_seq + 1)
            .bind(message.id.to_string())
            .bind(message.sender.to_string())
            .bind(message.recipients.as_deref())
            .bind(&message.text)
            .bind(message.sent_at)
            .execute(&mut *conn)
            .await?;
    }
    super::profile_rows::write_pg(conn, &id, &change.records, deferred.now).await?;
    if let Some(finish) = &change.rated {
        super::rating_rows::write_pg(conn, &id, finish).await?;
    }
    // Recorded only once the change's own statements succeeded (a refused join leaves no
    // trace of itself here).
    deferred
        .versions_before
        .entry(lobby.id)
        .or_insert(lobby.version);
    if change.lobby.state.is_some() {
        deferred.states_set.insert(lobby.id);
    }
    if change.lobby.clock.is_some_and(|c| c.wake_at.is_some()) {
        deferred.clocks.insert(lobby.id);
    }
    Ok(lobby.event_seq + change.events.len() as i64)
}

impl Deferred {
    /// Writes what the batch deferred: `changed` holds each lobby as the batch leaves it, and
    /// `published` every written change's events.
    pub async fn write(
        self,
        conn: &mut AnyConnection,
        changed: &HashMap<Uuid, Arc<Snapshot>>,
        published: &[(Uuid, Published)],
    ) -> Result<(), StoreError> {
        let lobbies: Vec<LobbyWrite> = changed
            .iter()
            .filter_map(|(id, after)| {
                Some(LobbyWrite {
                    after,
                    before: *self.versions_before.get(id)?,
                    state_set: self.states_set.contains(id),
                })
            })
            .collect();
        for chunk in chunks(&lobbies) {
            update_lobbies(conn, chunk).await?;
        }
        let orders: Vec<_> = self.orders.into_iter().collect();
        for chunk in chunks(&orders) {
            let tail = " ON CONFLICT (lobby_id, step_seq, player_id) \
                DO UPDATE SET body = excluded.body, submitted_at = excluded.submitted_at";
            let sql = values_of(
                "INSERT INTO orders (lobby_id, step_seq, player_id, body, submitted_at) VALUES",
                5,
                chunk.len(),
                tail,
            );
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
            for ((lobby, step_seq, player), body) in chunk {
                query = query
                    .bind(lobby.as_str())
                    .bind(*step_seq)
                    .bind(player.as_str())
                    .bind(body.as_str())
                    .bind(self.now);
            }
            query.execute(&mut *conn).await?;
        }
        let now = self.now;
        let events: Vec<(String, &EventRow)> = published
            .iter()
            .flat_map(|(lobby, events)| events.iter().map(move |e| (lobby.to_string(), e)))
            .collect();
        // Each chunk of events and the deliveries it owes, in one statement (the outbox's
        // part reads the subscriptions as they are after the batch took its locks); see
        // docs/notifications.md.
        for chunk in chunks(&events) {
            let sql = values_of(EVENTS_AND_OWED_HEAD, 5, chunk.len(), EVENTS_AND_OWED_TAIL);
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
            for (lobby, event) in chunk {
                query = query
                    .bind(lobby.as_str())
                    .bind(event.seq)
                    .bind(event.kind.as_str())
                    .bind(event.data.as_str())
                    .bind(now);
            }
            query.execute(&mut *conn).await?;
        }
        Ok(())
    }
}

/// A chunk of events (the `VALUES` list between head and tail) and, in the same statement, the
/// deliveries they owe: one per enabled destination subscribed to an event's kind (only
/// notifiable kinds can be subscribed to, `outbox::NOTIFIABLE`), as the SQLite writer's
/// `outbox::enqueue_sqlite` writes them.
const EVENTS_AND_OWED_HEAD: &str =
    "WITH e AS (INSERT INTO events (lobby_id, seq, kind, data, created_at) VALUES";
const EVENTS_AND_OWED_TAIL: &str = " RETURNING lobby_id, seq, kind, created_at) \
    INSERT INTO notify_outbox \
    (lobby_id, event_seq, kind, created_at, next_at, id, target_id, status, attempts) \
    SELECT e.lobby_id, e.seq, e.kind, e.created_at, e.created_at, t.id || '.' || e.seq, t.id, \
    'pending', 0 \
    FROM e JOIN notify_subscriptions s ON s.lobby_id = e.lobby_id AND s.kind = e.kind \
    JOIN notify_targets t ON t.id = s.target_id AND t.enabled = 1";

/// A changed lobby as the batch leaves it, with its version as the batch found it, and
/// whether a change of the batch set its state.
struct LobbyWrite<'a> {
    after: &'a Snapshot,
    before: i64,
    state_set: bool,
}

/// Sets each lobby's row to the snapshot the batch leaves, if its version is still the one
/// the batch found (it is: the batch holds the row lock; anything else fails the batch).
///
/// A lobby's state is sent only if a change of the batch set it; a null keeps the stored one
/// (a state, once set, is never unset). A game's state is kilobytes and most batches only take
/// orders: sent again, PostgreSQL received it, and compressed it again to store it, for every
/// changed lobby of every batch; kept, the stored value is copied as it is.
async fn update_lobbies(
    conn: &mut AnyConnection,
    lobbies: &[LobbyWrite<'_>],
) -> Result<(), StoreError> {
    let sql = values_of(
        "UPDATE lobbies AS l SET status = v.status, state = COALESCE(v.state, l.state), \
         round = v.round, step = v.step, step_seq = v.step_seq, event_seq = v.event_seq, \
         version = v.version, \
         deadline_at = v.deadline_at, paused_left = v.paused_left, \
         remind_below = v.remind_below, wake_at = v.wake_at, \
         deadline_moved_from = v.deadline_moved_from, fairness = v.fairness \
         FROM (VALUES",
        15,
        lobbies.len(),
        ") AS v (id, status, state, round, step, step_seq, event_seq, version, before, \
         deadline_at, paused_left, remind_below, wake_at, deadline_moved_from, fairness) \
         WHERE l.id = v.id AND l.version = v.before",
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for write in lobbies {
        let lobby = &write.after.lobby;
        query = query
            .bind(lobby.id.to_string())
            .bind(lobby.status.as_str())
            .bind(lobby.state.as_deref().filter(|_| write.state_set))
            .bind(i64::from(lobby.round))
            .bind(lobby.step.as_deref())
            .bind(lobby.step_seq)
            .bind(lobby.event_seq)
            .bind(lobby.version)
            .bind(write.before)
            .bind(lobby.clock.deadline_at)
            .bind(lobby.clock.paused_left)
            .bind(lobby.clock.remind_below)
            .bind(lobby.clock.wake_at)
            .bind(lobby.clock.moved_from)
            .bind(lobby.fairness.as_str());
    }
    let updated = query.execute(&mut *conn).await?.rows_affected();
    if updated != lobbies.len() as u64 {
        return Err(StoreError::MovedUnderLock {
            moved: lobbies.len() as u64 - updated,
            of: lobbies.len() as u64,
        });
    }
    Ok(())
}

/// Rows in chunks of a few fixed sizes, so that only a few statement shapes are prepared and
/// kept.
fn chunks<T>(rows: &[T]) -> impl Iterator<Item = &[T]> {
    let mut rest = rows;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let size = [64, 16, 4, 1]
            .into_iter()
            .find(|&size| size <= rest.len())
            .unwrap_or(1);
        let (chunk, after) = rest.split_at(size);
        rest = after;
        Some(chunk)
    })
}

/// `{head} ($1, $2, …), (…)…{tail}` for `rows` rows of `columns` parameters.
fn values_of(head: &str, columns: usize, rows: usize, tail: &str) -> String {
    let values: Vec<String> = (0..rows)
        .map(|row| {
            let first = row * columns + 1;
            let params: Vec<String> = (first..first + columns).map(|n| format!("${n}")).collect();
            format!("({})", params.join(", "))
        })
        .collect();
    format!("{head} {}{tail}", values.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_go_in_chunks_of_a_few_sizes_and_none_is_lost() {
        let rows: Vec<usize> = (0..87).collect();
        let sizes: Vec<usize> = chunks(&rows).map(<[usize]>::len).collect();
        assert_eq!(sizes, [64, 16, 4, 1, 1, 1]);
        assert_eq!(chunks(&rows).flatten().copied().collect::<Vec<_>>(), rows);
    }

    #[test]
    fn values_number_the_parameters_row_by_row() {
        assert_eq!(
            values_of("INSERT INTO t (a, b) VALUES", 2, 2, " RETURNING a"),
            "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4) RETURNING a"
        );
    }
}
