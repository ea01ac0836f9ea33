//! SQLite's [`Engine`]: rusqlite, on the writer's own thread and connection.
//!
//! SQLite runs in-process: a statement costs microseconds, and handing each one to sqlx's
//! connection thread and back cost more than running it (two thread wake-ups per statement,
//! four statements per order). Here the whole batch runs on one thread in one go, with the
//! statements prepared once and kept, and the only hand-offs are the job coming in and the
//! answer going out. One IMMEDIATE transaction per batch; every row is written as its change
//! is applied, and the compare-and-swap is each change's UPDATE of its lobby.
//!
//! The same thread-free idea serves the hot read: [`Readers`] checks a lobby's version on a
//! small set of read connections, inline, without leaving the calling thread.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};
use uuid::Uuid;

use super::delivery_rows::{Claimed, OutboxDone, OutboxWork};
use super::engine::{Applied, Batch, Engine};
use super::feed::Published;
use super::handoff::{Handoff, Taker};
use super::load::load_snapshot;
use super::profile_rows::SeatBinding;
use super::progress::Progress;
use super::rating_rebuild::Rebuilt;
use super::rows::{Change, NewLobby, Snapshot, Status};
use super::{StoreError, sql};

/// Opens a connection on the database file with Herald's settings: WAL lets readers run beside
/// the writer; synchronous=FULL makes every commit durable (an acknowledged order survives a
/// crash or a power cut); foreign keys are off by default in SQLite.
pub(super) fn open(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
         PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON;",
    )?;
    conn.set_prepared_statement_cache_capacity(32);
    Ok(conn)
}

/// The writer's connection, and what it remembers of its own commits.
pub(super) struct SqliteEngine {
    conn: Connection,
    own: OwnWrites,
    /// Where the deliveries a batch queues go once it commits (`handoff.rs`).
    handoff: Arc<Handoff>,
}

impl SqliteEngine {
    pub fn open(path: &Path, handoff: Arc<Handoff>) -> Result<SqliteEngine, StoreError> {
        Ok(SqliteEngine {
            conn: open(path)?,
            own: OwnWrites::default(),
            handoff,
        })
    }
}

/// A batch's IMMEDIATE transaction (it rolls back when dropped uncommitted).
pub(super) struct SqliteBatch<'e> {
    tx: Transaction<'e>,
    own: &'e mut OwnWrites,
    at: i64,
    /// The worker this batch's deliveries are handed to, as registered when it began.
    taker: Option<Taker>,
    /// The deliveries its written changes queued leased to that worker, sent once it commits.
    handed: Vec<Claimed>,
}

impl Engine for SqliteEngine {
    type Batch<'e> = SqliteBatch<'e>;

    async fn begin(&mut self, _lobbies: &[Uuid], at: i64) -> Result<SqliteBatch<'_>, StoreError> {
        // IMMEDIATE takes the write lock up front (another process may hold the file too).
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        self.own.check(&tx)?;
        Ok(SqliteBatch {
            tx,
            own: &mut self.own,
            at,
            taker: self.handoff.taker(),
            handed: Vec::new(),
        })
    }

    fn ended(&mut self, progress: &Progress, committed: bool) {
        match committed {
            true => self.own.committed(progress),
            false => self.own.versions.clear(),
        }
    }
}

impl Batch for SqliteBatch<'_> {
    async fn version(&mut self, lobby: Uuid) -> Result<Option<i64>, StoreError> {
        match self.own.version(lobby) {
            Some(version) => Ok(Some(version)),
            None => Ok(version(&self.tx, lobby)?),
        }
    }

    async fn load(&mut self, lobby: Uuid) -> Result<Option<Snapshot>, StoreError> {
        load_snapshot(&mut &*self.tx, lobby).await
    }

    async fn insert_lobby(&mut self, lobby: &NewLobby) -> Result<(), StoreError> {
        self.tx.prepare_cached(sql::INSERT_LOBBY)?.execute(params![
            lobby.id.to_string(),
            lobby.game,
            lobby.name,
            lobby.settings,
            Status::Signups.as_str(),
            lobby.host_token_hash,
            lobby.seed as i64,
            lobby.created_at,
            lobby.timing,
            lobby.seed_salt,
            i64::from(lobby.unlisted),
        ])?;
        Ok(())
    }

    async fn savepoint(&mut self) -> Result<(), StoreError> {
        Ok(self.tx.execute_batch("SAVEPOINT job")?)
    }

    async fn close_savepoint(&mut self, undo: bool) -> Result<(), StoreError> {
        if undo {
            self.tx.execute_batch("ROLLBACK TO SAVEPOINT job")?;
        }
        Ok(self.tx.execute_batch("RELEASE SAVEPOINT job")?)
    }

    async fn outbox(&mut self, work: &OutboxWork) -> Result<OutboxDone, StoreError> {
        super::sqlite_outbox::run(&self.tx, work)
    }

    async fn rebuild_ratings(&mut self) -> Result<Rebuilt, StoreError> {
        super::rating_rebuild::rebuild_sqlite(&self.tx)
    }

    async fn apply(&mut self, snapshot: &Snapshot, change: &Change) -> Result<Applied, StoreError> {
        // Kept only if the change is written: one that fails is undone (its savepoint, or the
        // whole batch), and its deliveries with it.
        let mut handed = Vec::new();
        let handing = self.taker.as_ref().map(|taker| (taker, &mut handed));
        let applied = apply(
            &self.tx,
            snapshot,
            change,
            self.at,
            &mut self.own.quiet,
            handing,
        )?;
        self.handed.append(&mut handed);
        Ok(applied)
    }

    async fn commit(
        self,
        _changed: &HashMap<Uuid, Arc<Snapshot>>,
        _published: &[(Uuid, Published)],
        _bound: &[Uuid],
    ) -> Result<(), StoreError> {
        self.tx.commit()?;
        if let Some(taker) = &self.taker {
            taker.hand(self.handed);
        }
        Ok(())
    }
}

/// Writes a decided change, every row at once, at `now` (the batch's instant).
fn apply(
    conn: &Connection,
    snapshot: &Snapshot,
    change: &Change,
    now: i64,
    quiet: &mut HashSet<Uuid>,
    handing: Option<(&Taker, &mut Vec<Claimed>)>,
) -> Result<Applied, StoreError> {
    let lobby = &snapshot.lobby;
    let id = lobby.id.to_string();
    let now_seq = lobby.step_seq;
    let next_seq = now_seq + change.resolved.len() as i64;
    let event_seq = lobby.event_seq + change.events.len() as i64;
    let clock = change.lobby.clock.unwrap_or(lobby.clock);
    let updated = conn.prepare_cached(sql::UPDATE_LOBBY)?.execute(params![
        change.lobby.status.map(Status::as_str),
        change.lobby.state,
        change.lobby.round.map(i64::from),
        change.lobby.step,
        clock.deadline_at,
        clock.paused_left,
        clock.remind_below,
        clock.wake_at,
        clock.moved_from,
        next_seq,
        event_seq,
        change.lobby.fairness,
        id,
        lobby.version,
    ])?;
    if updated != 1 {
        return Ok(Applied::Moved);
    }
    if let Some(player) = &change.player {
        let (profile, kind, holding) = SeatBinding::columns(player.binding.as_ref());
        conn.prepare_cached(sql::INSERT_PLAYER)?.execute(params![
            player.id.to_string(),
            id,
            player.seat as i64,
            player.name,
            player.name_key,
            player.join_data,
            player.token_hash,
            profile,
            kind,
            holding,
            player.alias,
        ])?;
    }
    if let Some(update) = &change.player_update {
        conn.prepare_cached(sql::UPDATE_PLAYER)?.execute(params![
            update.name,
            update.name_key,
            update.token_hash,
            update.alias,
            update.id.to_string(),
            id,
        ])?;
    }
    if let Some(removed) = &change.player_removed {
        conn.prepare_cached(sql::DELETE_PLAYER)?
            .execute(params![removed.id.to_string(), id])?;
        conn.prepare_cached(sql::SEATS_ASIDE)?
            .execute(params![id, removed.seat as i64])?;
        conn.prepare_cached(sql::SEATS_BACK)?.execute(params![id])?;
    }
    if let Some(dropped) = &change.order_dropped {
        conn.prepare_cached(sql::DELETE_ORDER)?.execute(params![
            id,
            now_seq,
            dropped.to_string()
        ])?;
    }
    for update in &change.players {
        let Some(held) = snapshot.players.iter().find(|p| p.id == update.id) else {
            continue;
        };
        let mut player = held.clone();
        update.apply_to(&mut player);
        let (profile, kind, holding) = SeatBinding::columns(player.binding.as_ref());
        conn.prepare_cached(sql::PATCH_PLAYER)?.execute(params![
            player.fallback,
            player.misses,
            profile,
            kind,
            holding,
            player.name,
            player.alias,
            player.id.to_string(),
            id,
        ])?;
    }
    if let Some(order) = &change.order {
        conn.prepare_cached(sql::UPSERT_ORDER)?.execute(params![
            id,
            now_seq,
            order.player_id.to_string(),
            order.body,
            now,
        ])?;
    }
    for (offset, step) in change.resolved.iter().enumerate() {
        conn.prepare_cached(sql::INSERT_STEP)?.execute(params![
            id,
            now_seq + offset as i64,
            i64::from(step.round),
            step.step,
            step.revealed,
            step.log,
            step.pools,
            now,
            step.acts,
            step.digest,
            step.previous_digest,
        ])?;
    }
    if !change.resolved.is_empty() {
        conn.prepare_cached(sql::DELETE_ORDERS)?
            .execute(params![id, now_seq])?;
    }
    if let Some(message) = &change.message {
        conn.prepare_cached(sql::INSERT_MESSAGE)?.execute(params![
            id,
            lobby.event_seq + 1,
            message.id.to_string(),
            message.sender.to_string(),
            message.recipients,
            message.text,
            message.sent_at,
        ])?;
    }
    for (offset, event) in change.events.iter().enumerate() {
        conn.prepare_cached(sql::INSERT_EVENT)?.execute(params![
            id,
            lobby.event_seq + 1 + offset as i64,
            event.kind.as_str(),
            event.data,
            now,
        ])?;
    }
    super::profile_rows::write_sqlite(conn, &id, &change.records, now)?;
    if let Some(finish) = &change.rated {
        super::rating_rows::write_sqlite(conn, &id, finish)?;
    }
    // The deliveries these events owe, in the same transaction (docs/notifications.md).
    let owed = super::outbox::Owed {
        lobby: lobby.id,
        first_seq: lobby.event_seq + 1,
        events: &change.events,
        now,
    };
    super::outbox::enqueue_sqlite(conn, &id, owed, quiet, handing)?;
    Ok(Applied::Written(event_seq))
}

/// The lobby versions this writer committed itself, valid while no other connection has
/// committed since (SQLite's `PRAGMA data_version` changes exactly when one has). While valid,
/// a cached snapshot at such a version is what the database holds, so a job on that lobby
/// needs no version lookup: one fewer statement for nearly every order when this server is
/// the database's only writer. Any other writer (a second process) empties it, and every job
/// checks the version again until this writer has written the lobby once more.
///
/// It also remembers the lobbies found to have no destination subscribed (`quiet`), under
/// the same condition: destinations are only ever written by other connections (the host's
/// and the player's settings), so while nobody else has committed, a lobby found quiet stays
/// so, and its events need no look at the outbox's subscriptions.
#[derive(Default)]
struct OwnWrites {
    data_version: Option<i64>,
    versions: HashMap<Uuid, i64>,
    quiet: HashSet<Uuid>,
}

/// Lobbies remembered at most; past it the map starts again (which only costs lookups).
const OWN_WRITES_KEPT: usize = 1 << 16;

impl OwnWrites {
    /// Called holding the write lock, before the batch reads anything.
    fn check(&mut self, conn: &Connection) -> rusqlite::Result<()> {
        let now: i64 = conn.query_row("PRAGMA data_version", [], |row| row.get(0))?;
        if self.data_version != Some(now) {
            self.versions.clear();
            self.quiet.clear();
            self.data_version = Some(now);
        }
        if self.quiet.len() > OWN_WRITES_KEPT {
            self.quiet.clear();
        }
        Ok(())
    }

    /// The version this writer last committed for `lobby`, if nobody has written since.
    fn version(&self, lobby: Uuid) -> Option<i64> {
        self.versions.get(&lobby).copied()
    }

    fn committed(&mut self, progress: &Progress) {
        if self.versions.len() + progress.changed.len() > OWN_WRITES_KEPT {
            self.versions.clear();
        }
        for (lobby, snapshot) in &progress.changed {
            self.versions.insert(*lobby, snapshot.lobby.version);
        }
    }
}

fn version(conn: &Connection, lobby: Uuid) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached(sql::LOBBY_VERSION)?
        .query_row(params![lobby.to_string()], |row| row.get(0))
        .optional()
}

/// Read connections for the one read every request makes: a lobby's version. Such a lookup
/// takes microseconds, so it runs inline on the calling thread; WAL readers never wait for
/// the writer.
#[derive(Debug)]
pub(super) struct Readers {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

/// Idle read connections kept; more are opened under load and closed when not needed.
const IDLE_READERS: usize = 4;

impl Readers {
    pub fn new(path: &Path) -> Readers {
        Readers {
            path: path.to_owned(),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// The lobby's version in the database, or None if there is no such lobby: asked every
    /// time, so that a commit by any other writer of the file is never missed.
    pub fn version(&self, lobby: Uuid) -> Result<Option<i64>, StoreError> {
        self.read(|conn| version(conn, lobby).map_err(StoreError::from))
    }

    /// Runs `read` on an idle read connection, inline on the calling thread: for reads of a
    /// few rows, where handing the statement to sqlx's connection thread and back costs more
    /// than the statement (and the work stays on the caller's thread, whose priority it has).
    pub fn read<T>(
        &self,
        read: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let held = self
            .idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .pop();
        let conn = match held {
            Some(conn) => conn,
            None => open(&self.path)?,
        };
        let answer = read(&conn);
        let mut idle = self
            .idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if idle.len() < IDLE_READERS {
            idle.push(conn);
        }
        answer
    }
}
