//! The store's row types, the [`Change`] a transaction applies, and the reads every
//! transaction starts with.

use std::any::Any;
use std::sync::{Arc, OnceLock};

use sqlx::AnyConnection;
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

/// A lobby's lifecycle.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Players may join.
    Signups,
    /// No latecomers; the host has not started yet.
    Closed,
    /// The game is being played.
    Running,
    /// The game is over.
    Finished,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Signups => "signups",
            Status::Closed => "closed",
            Status::Running => "running",
            Status::Finished => "finished",
        }
    }

    pub(super) fn parse(text: &str) -> Result<Status, sqlx::Error> {
        match text {
            "signups" => Ok(Status::Signups),
            "closed" => Ok(Status::Closed),
            "running" => Ok(Status::Running),
            "finished" => Ok(Status::Finished),
            other => Err(sqlx::Error::Decode(
                format!("unknown lobby status {other:?}").into(),
            )),
        }
    }
}

pub(super) fn uuid(text: String) -> Result<Uuid, sqlx::Error> {
    Uuid::parse_str(&text).map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

/// The lobby columns, in the order `LobbyRow::from_row` reads them.
macro_rules! lobby_columns {
    () => {
        "id, game, name, settings, status, host_token_hash, seed, state, round, step, step_seq, \
         event_seq, version, created_at, timing, deadline_at, paused_left, remind_below, wake_at"
    };
}
pub(super) const LOBBY_BY_ID: &str =
    concat!("SELECT ", lobby_columns!(), " FROM lobbies WHERE id = $1");
/// The lobby's version: what decides whether a cached snapshot is current.
pub(super) const LOBBY_VERSION: &str = "SELECT version FROM lobbies WHERE id = $1";
/// The same, taking the row's write lock (PostgreSQL) for the rest of the transaction.
pub(super) const LOBBY_VERSION_FOR_UPDATE: &str =
    "SELECT version FROM lobbies WHERE id = $1 FOR UPDATE";
pub(super) const LOBBY_LIST: &str = concat!(
    "SELECT ",
    lobby_columns!(),
    " FROM lobbies WHERE unlisted = 0 ORDER BY created_at DESC, id DESC LIMIT $1"
);
/// The lobbies a personal key remembers (`my_games.rs`), each with the role held in it.
pub(super) const MY_GAMES: &str = concat!(
    "SELECT ",
    lobby_columns!(),
    ", m.role FROM my_games m JOIN lobbies l ON l.id = m.lobby_id \
     WHERE m.key_hash = $1 ORDER BY l.created_at DESC, l.id, m.role"
);

/// A lobby as stored. `settings`, `state` and `seed` may hold secrets: never render them as is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyRow {
    pub id: Uuid,
    pub game: String,
    pub name: String,
    pub settings: String,
    pub status: Status,
    pub host_token_hash: String,
    pub seed: u64,
    pub state: Option<String>,
    pub round: u32,
    pub step: Option<String>,
    pub step_seq: i64,
    pub event_seq: i64,
    pub version: i64,
    pub created_at: i64,
    /// The deadline settings as validated at creation (JSON; see `host::timing`).
    pub timing: String,
    /// The open step's clock.
    pub clock: StepClock,
}

/// The open step's clock, as stored (migration 0003 explains each column). All `None` when
/// the step has no deadline.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct StepClock {
    /// When the step resolves without the missing orders (unix ms); None while paused.
    pub deadline_at: Option<i64>,
    /// The milliseconds that were left when the host paused the clock.
    pub paused_left: Option<i64>,
    /// A reminder of r seconds is still to fire while r * 1000 < this.
    pub remind_below: Option<i64>,
    /// The earliest instant the scheduler must act on this lobby.
    pub wake_at: Option<i64>,
}

impl LobbyRow {
    pub(super) fn from_row(row: &AnyRow) -> Result<LobbyRow, sqlx::Error> {
        Ok(LobbyRow {
            id: uuid(row.try_get(0)?)?,
            game: row.try_get(1)?,
            name: row.try_get(2)?,
            settings: row.try_get(3)?,
            status: Status::parse(&row.try_get::<String, _>(4)?)?,
            host_token_hash: row.try_get(5)?,
            seed: row.try_get::<i64, _>(6)? as u64,
            state: row.try_get(7)?,
            round: u32::try_from(row.try_get::<i64, _>(8)?).unwrap_or(u32::MAX),
            step: row.try_get(9)?,
            step_seq: row.try_get(10)?,
            event_seq: row.try_get(11)?,
            version: row.try_get(12)?,
            created_at: row.try_get(13)?,
            timing: row.try_get(14)?,
            clock: StepClock {
                deadline_at: row.try_get(15)?,
                paused_left: row.try_get(16)?,
                remind_below: row.try_get(17)?,
                wake_at: row.try_get(18)?,
            },
        })
    }
}

/// A seated player. `token_hash` is for authentication only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub id: Uuid,
    pub seat: usize,
    pub name: String,
    pub join_data: String,
    pub token_hash: String,
    /// The player's standing fallback order (a checked main-step order, JSON), secret.
    pub fallback: Option<String>,
    /// Steps in a row the player let time out.
    pub misses: i64,
}

/// A pending (secret) order for the lobby's current step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderRow {
    pub player_id: Uuid,
    pub body: String,
    pub submitted_at: i64,
}

/// A resolved step, as published.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRow {
    pub seq: i64,
    pub round: u32,
    pub step: String,
    pub revealed: String,
    pub log: String,
    pub pools: String,
    pub resolved_at: i64,
}

impl StepRow {
    pub(super) fn from_row(row: &AnyRow) -> Result<StepRow, sqlx::Error> {
        Ok(StepRow {
            seq: row.try_get(0)?,
            round: u32::try_from(row.try_get::<i64, _>(1)?).unwrap_or(u32::MAX),
            step: row.try_get(2)?,
            revealed: row.try_get(3)?,
            log: row.try_get(4)?,
            pools: row.try_get(5)?,
            resolved_at: row.try_get(6)?,
        })
    }
}

/// A published event.
#[derive(Clone, Debug)]
pub struct EventRow {
    pub seq: i64,
    pub kind: String,
    pub data: String,
}

impl EventRow {
    pub(super) fn from_row(row: &AnyRow) -> Result<EventRow, sqlx::Error> {
        Ok(EventRow {
            seq: row.try_get(0)?,
            kind: row.try_get(1)?,
            data: row.try_get(2)?,
        })
    }
}

/// Everything a decision about a lobby needs, read in one go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub lobby: LobbyRow,
    pub players: Vec<PlayerRow>,
    /// Orders pending for `lobby.step_seq`.
    pub orders: Vec<OrderRow>,
    /// `lobby.state` as parsed by whoever read it first.
    pub parsed: ParsedState,
    /// The steps resolved so far in `lobby.round`, when known without a query.
    pub round_steps: RoundSteps,
}

/// The current round's resolved steps, as this process's own writes left them: what a lobby
/// view shows as the round so far. A snapshot read from the database does not know them (the
/// view then queries the steps); one written here does, since a round's steps are all written
/// by the changes that resolve its steps (`Snapshot::after`). Steps are never changed once
/// written, so these stay true for as long as the snapshot is current.
#[derive(Clone, Default)]
pub struct RoundSteps(Option<Arc<Vec<StepRow>>>);

impl RoundSteps {
    /// The steps, in order, if known.
    pub fn known(&self) -> Option<&[StepRow]> {
        self.0.as_deref().map(Vec::as_slice)
    }
}

/// Whether the steps are known is not part of what a snapshot says (a fresh read and a cached
/// copy of the same commit are equal).
impl PartialEq for RoundSteps {
    fn eq(&self, _: &RoundSteps) -> bool {
        true
    }
}

impl Eq for RoundSteps {}

impl std::fmt::Debug for RoundSteps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.known() {
            Some(steps) => write!(f, "RoundSteps({} known)", steps.len()),
            None => f.write_str("RoundSteps(unknown)"),
        }
    }
}

/// The lobby's state, parsed once per snapshot: a cached snapshot serves many requests, and
/// parsing a 16-player state on each was a good part of their cost. It holds whatever type
/// the reader parsed the text into (the host's typed game state).
#[derive(Clone, Default)]
pub struct ParsedState(Arc<OnceLock<Arc<dyn Any + Send + Sync>>>);

impl ParsedState {
    /// The parsed state, parsing it with `parse` the first time.
    pub fn get_or_parse<T: Any + Send + Sync, E>(
        &self,
        parse: impl FnOnce() -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        if let Some(held) = self.0.get()
            && let Ok(typed) = held.clone().downcast::<T>()
        {
            return Ok(typed);
        }
        let parsed = Arc::new(parse()?);
        // Two first readers may race; either result is the same state.
        let _ = self.0.set(parsed.clone());
        Ok(parsed)
    }
}

/// Derived from `lobby.state`, so it never makes two snapshots differ.
impl PartialEq for ParsedState {
    fn eq(&self, _: &ParsedState) -> bool {
        true
    }
}

impl Eq for ParsedState {}

impl std::fmt::Debug for ParsedState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ParsedState")
    }
}

impl Snapshot {
    /// The snapshot as it is once `change` is committed: what `transact::apply` writes, done to
    /// the copy in memory (the version and counters move exactly as the UPDATE moves them),
    /// by a batch stamped `at`.
    pub(super) fn after(&self, change: Change, at: i64) -> Snapshot {
        let mut next = self.clone();
        let lobby = &mut next.lobby;
        let patch = change.lobby;
        if let Some(status) = patch.status {
            lobby.status = status;
        }
        if patch.state.is_some() {
            lobby.state = patch.state;
            next.parsed = ParsedState::default();
        }
        if let Some(round) = patch.round {
            lobby.round = round;
        }
        if patch.step.is_some() {
            lobby.step = patch.step;
        }
        if let Some(clock) = patch.clock {
            lobby.clock = clock;
        }
        for update in change.players {
            if let Some(player) = next.players.iter_mut().find(|p| p.id == update.id) {
                update.apply_to(player);
            }
        }
        lobby.step_seq += change.resolved.len() as i64;
        lobby.event_seq += change.events.len() as i64;
        lobby.version += 1;
        if let Some(player) = change.player {
            next.players.push(PlayerRow {
                id: player.id,
                seat: player.seat,
                name: player.name,
                join_data: player.join_data,
                token_hash: player.token_hash,
                fallback: None,
                misses: 0,
            });
            next.players.sort_by_key(|p| p.seat);
        }
        if let Some(update) = change.player_update
            && let Some(held) = next.players.iter_mut().find(|p| p.id == update.id)
        {
            held.name = update.name;
            held.token_hash = update.token_hash;
        }
        if let Some(removed) = change.player_removed {
            next.players.retain(|p| p.id != removed.id);
            for p in &mut next.players {
                if p.seat > removed.seat {
                    p.seat -= 1;
                }
            }
        }
        if let Some(dropped) = change.order_dropped {
            next.orders.retain(|o| o.player_id != dropped);
        }
        if let Some(order) = change.order {
            let row = OrderRow {
                player_id: order.player_id,
                body: order.body,
                submitted_at: at,
            };
            match next
                .orders
                .iter_mut()
                .find(|o| o.player_id == row.player_id)
            {
                Some(held) => *held = row,
                None => next.orders.push(row),
            }
        }
        if !change.resolved.is_empty() {
            // Resolving deletes the step's pending orders.
            next.orders.clear();
        }
        // A new round has no steps but those this change files under it; in the same round,
        // the steps known so far (if any) plus this change's.
        let mut round_steps = match next.lobby.round == self.lobby.round {
            true => self.round_steps.0.as_deref().cloned(),
            false => Some(Vec::new()),
        };
        if let Some(steps) = &mut round_steps {
            for (offset, step) in change.resolved.iter().enumerate() {
                if step.round == next.lobby.round {
                    steps.push(StepRow {
                        seq: self.lobby.step_seq + offset as i64,
                        round: step.round,
                        step: step.step.clone(),
                        revealed: step.revealed.clone(),
                        log: step.log.clone(),
                        pools: step.pools.clone(),
                        resolved_at: at,
                    });
                }
            }
        }
        if next.lobby.round != self.lobby.round || !change.resolved.is_empty() {
            next.round_steps = RoundSteps(round_steps.map(Arc::new));
        }
        next
    }
}

pub(super) async fn load_snapshot(
    conn: &mut AnyConnection,
    id: Uuid,
    lobby_sql: &'static str,
) -> Result<Option<Snapshot>, sqlx::Error> {
    let Some(row) = sqlx::query(lobby_sql)
        .bind(id.to_string())
        .fetch_optional(&mut *conn)
        .await?
    else {
        return Ok(None);
    };
    let lobby = LobbyRow::from_row(&row)?;
    let players = sqlx::query(super::sql::PLAYERS_OF_LOBBY)
        .bind(id.to_string())
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|row| {
            Ok(PlayerRow {
                id: uuid(row.try_get(0)?)?,
                seat: usize::try_from(row.try_get::<i64, _>(1)?).unwrap_or(usize::MAX),
                name: row.try_get(2)?,
                join_data: row.try_get(3)?,
                token_hash: row.try_get(4)?,
                fallback: row.try_get(5)?,
                misses: row.try_get(6)?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    let orders = sqlx::query(super::sql::PENDING_ORDERS)
        .bind(id.to_string())
        .bind(lobby.step_seq)
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|row| {
            Ok(OrderRow {
                player_id: uuid(row.try_get(0)?)?,
                body: row.try_get(1)?,
                submitted_at: row.try_get(2)?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok(Some(Snapshot {
        lobby,
        players,
        orders,
        parsed: ParsedState::default(),
        round_steps: RoundSteps::default(),
    }))
}

/// A new lobby.
#[derive(Clone, Debug)]
pub struct NewLobby {
    pub id: Uuid,
    pub game: String,
    pub name: String,
    pub settings: String,
    pub host_token_hash: String,
    pub seed: u64,
    pub created_at: i64,
    /// The deadline settings (JSON).
    pub timing: String,
    /// Kept off the public lists (the host's choice at creation).
    pub unlisted: bool,
}

/// A new player.
#[derive(Clone, Debug)]
pub struct NewPlayer {
    pub id: Uuid,
    pub seat: usize,
    pub name: String,
    pub name_key: String,
    pub join_data: String,
    pub token_hash: String,
}

/// A pending order (inserted, or replacing the player's earlier one for the same step). Its
/// time is the commit's: the writer stamps it.
#[derive(Clone, Debug)]
pub struct NewOrder {
    pub player_id: Uuid,
    pub body: String,
}

/// A resolved step to record. Recording steps also clears the pending orders. Its time is
/// the commit's: the writer stamps it.
#[derive(Clone, Debug)]
pub struct NewStep {
    pub round: u32,
    pub step: String,
    pub revealed: String,
    pub log: String,
    pub pools: String,
}

/// An event to publish.
#[derive(Clone, Debug)]
pub struct NewEvent {
    pub kind: &'static str,
    pub data: String,
}

/// New values for the lobby's columns; `None` leaves a column as it is.
#[derive(Clone, Debug, Default)]
pub struct LobbyPatch {
    pub status: Option<Status>,
    pub state: Option<String>,
    pub round: Option<u32>,
    pub step: Option<String>,
    /// The open step's clock, replaced whole.
    pub clock: Option<StepClock>,
}

/// New values for a seated player's columns; `None` leaves a column as it is.
#[derive(Clone, Debug)]
pub struct PlayerPatch {
    pub id: Uuid,
    /// `Some(None)` clears the fallback order.
    pub fallback: Option<Option<String>>,
    pub misses: Option<i64>,
}

impl PlayerPatch {
    /// The player as this patch leaves them.
    pub fn apply_to(&self, player: &mut PlayerRow) {
        if let Some(fallback) = &self.fallback {
            player.fallback = fallback.clone();
        }
        if let Some(misses) = self.misses {
            player.misses = misses;
        }
    }
}

/// A seated player's new name and token: a substitute takes the seat, or the host reissues
/// the private link. The old token's hash is gone with the write, so the old token is unknown
/// from the commit on.
#[derive(Clone, Debug)]
pub struct PlayerUpdate {
    pub id: Uuid,
    pub name: String,
    pub name_key: String,
    pub token_hash: String,
}

/// A sign-up withdrawn before the start. The players seated after it move down one seat, so
/// that seats stay 0..n in sign-up order (the start deals them by seat).
#[derive(Clone, Debug)]
pub struct RemovedPlayer {
    pub id: Uuid,
    pub seat: usize,
}

/// What one transaction writes. Applied atomically, or not at all.
#[derive(Clone, Debug, Default)]
pub struct Change {
    pub lobby: LobbyPatch,
    pub player: Option<NewPlayer>,
    pub player_update: Option<PlayerUpdate>,
    pub player_removed: Option<RemovedPlayer>,
    /// Changes to seated players (fallback orders, missed-turn counts).
    pub players: Vec<PlayerPatch>,
    pub order: Option<NewOrder>,
    /// A pending order of the current step withdrawn (a kicked player's).
    pub order_dropped: Option<Uuid>,
    /// Records the step being collected as resolved (and, where its events open the next round,
    /// that round's opening as a step of its own), moving the lobby past them.
    pub resolved: Vec<NewStep>,
    pub events: Vec<NewEvent>,
}

impl Change {
    /// Whether writing this change may meet a UNIQUE constraint (a player's name or token),
    /// so that it runs in a savepoint of its own and a refusal rolls back this change alone.
    pub(super) fn touches_players(&self) -> bool {
        self.player.is_some() || self.player_update.is_some()
    }
}
