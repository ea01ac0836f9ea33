//! SQLite's group-commit writer, on a thread of its own with its own connection (rusqlite).
//!
//! SQLite runs in-process: a statement costs microseconds, and handing each one to sqlx's
//! connection thread and back cost more than running it (two thread wake-ups per statement,
//! four statements per order). Here the whole batch runs on one thread in one go, with the
//! statements prepared once and kept, and the only hand-offs are the job coming in and the
//! answer going out. Its semantics are those of `writer.rs`: one IMMEDIATE transaction per
//! batch, a savepoint per join, the snapshot taken from the cache when the lobby's version
//! says it is current, the callers answered after the commit.
//!
//! The same thread-free idea serves the hot read: [`Readers`] checks a lobby's version on a
//! small set of read connections, inline, without leaving the calling thread.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use tokio::sync::mpsc;
use uuid::Uuid;

use super::cache::Cache;
use super::feed::Feed;
use super::rows::{
    Change, LOBBY_BY_ID, LOBBY_VERSION, LobbyRow, NewLobby, OrderRow, ParsedState, PlayerRow,
    RoundSteps, Snapshot, Status, StepClock, uuid,
};
use super::sql;
use super::transact::WriteError;
use super::writer::{Ending, GroupCommits, Job, MAX_BATCH, Progress, finish};
use crate::clock::Clock;

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

/// Starts the writer thread; returns its queue.
pub(super) fn spawn(
    path: &Path,
    cache: Arc<Cache>,
    feed: Arc<Feed>,
    stats: Arc<GroupCommits>,
    clock: Clock,
) -> std::io::Result<mpsc::Sender<Job>> {
    let mut conn = open(path).map_err(std::io::Error::other)?;
    let (sender, mut jobs) = mpsc::channel::<Job>(4 * MAX_BATCH);
    std::thread::Builder::new()
        .name("herald-sqlite-writer".into())
        .spawn(move || {
            let mut batch = Vec::with_capacity(MAX_BATCH);
            let mut own = OwnWrites::default();
            while let Some(first) = jobs.blocking_recv() {
                batch.push(first);
                while batch.len() < MAX_BATCH {
                    match jobs.try_recv() {
                        Ok(job) => batch.push(job),
                        Err(_) => break,
                    }
                }
                let now = clock.now_millis();
                run_batch(&mut conn, &cache, &feed, &stats, &mut own, &mut batch, now);
            }
        })?;
    Ok(sender)
}

/// The lobby versions this writer committed itself, valid while no other connection has
/// committed since (SQLite's `PRAGMA data_version` changes exactly when one has). While valid,
/// a cached snapshot at such a version is what the database holds, so a job on that lobby
/// needs no version lookup: one fewer statement for nearly every order when this server is
/// the database's only writer. Any other writer (a second process) empties it, and every job
/// checks the version again until this writer has written the lobby once more.
#[derive(Default)]
struct OwnWrites {
    data_version: Option<i64>,
    versions: HashMap<Uuid, i64>,
}

/// Lobbies remembered at most; past it the map starts again (which only costs lookups).
const OWN_WRITES_KEPT: usize = 1 << 16;

impl OwnWrites {
    /// Called holding the write lock, before the batch reads anything.
    fn check(&mut self, conn: &Connection) -> rusqlite::Result<()> {
        let now: i64 = conn.query_row("PRAGMA data_version", [], |row| row.get(0))?;
        if self.data_version != Some(now) {
            self.versions.clear();
            self.data_version = Some(now);
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

/// Runs one batch in one transaction.
fn run_batch(
    conn: &mut Connection,
    cache: &Cache,
    feed: &Feed,
    stats: &GroupCommits,
    own: &mut OwnWrites,
    batch: &mut Vec<Job>,
    now: i64,
) {
    // Stable: one lobby's jobs keep their queue order.
    batch.sort_by_key(Job::lobby);
    let changes = batch.len() as u64;
    let mut progress = Progress::at(now);
    let outcome = (|| {
        // IMMEDIATE takes the write lock up front (another process may hold the file too).
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        own.check(&tx)?;
        for job in batch.drain(..) {
            run_job(&tx, cache, own, job, &mut progress, now)?;
        }
        tx.commit()
    })();
    // Jobs the batch never reached were dropped with it: their callers see the channel close
    // and answer with an error; nothing of theirs was written.
    batch.clear();
    match &outcome {
        Ok(()) => own.committed(&progress),
        Err(_) => own.versions.clear(),
    }
    let failed = outcome.err().map(|e| e.to_string());
    finish(progress, failed, cache, feed, stats, changes);
}

fn database(error: rusqlite::Error) -> sqlx::Error {
    sqlx::Error::Protocol(format!("sqlite: {error}"))
}

/// Runs one job, recording how it ended. Returns Err if the batch must fail.
fn run_job(
    conn: &Connection,
    cache: &Cache,
    own: &OwnWrites,
    job: Job,
    progress: &mut Progress,
    now: i64,
) -> rusqlite::Result<()> {
    match job {
        Job::CreateLobby { lobby, reply } => {
            conn.execute_batch("SAVEPOINT job")?;
            let result = insert_lobby(conn, &lobby);
            close_savepoint(conn, result.is_err())?;
            progress.endings.push(Ending::Created {
                reply,
                result: result.map_err(database),
            });
        }
        Job::Transact { lobby, decide } => {
            let current = match progress.changed(lobby) {
                Some(changed) => Ok(Some(changed)),
                None => current(conn, cache, own, lobby),
            };
            let snapshot = match current {
                Ok(snapshot) => snapshot,
                Err(error) => {
                    progress.read_failed(decide);
                    return Err(error);
                }
            };
            let Some((snapshot, change, deliver)) = progress.decide(decide, snapshot) else {
                return Ok(());
            };
            match write(conn, &snapshot, &change, now) {
                Ok(result) => progress.written(cache, &snapshot, change, deliver, result),
                Err(error) => {
                    progress.broke(deliver);
                    return Err(error);
                }
            }
        }
    }
    Ok(())
}

/// Writes one decided change. A join runs in a savepoint, so that a UNIQUE refusal rolls back
/// that change alone (the inner error); any other error breaks the batch (the outer error).
fn write(
    conn: &Connection,
    snapshot: &Snapshot,
    change: &Change,
    now: i64,
) -> rusqlite::Result<Result<i64, WriteError>> {
    if !change.touches_players() {
        return match apply(conn, snapshot, change, now) {
            Ok(None) => Ok(Err(WriteError::Conflict)),
            Ok(Some(event_seq)) => Ok(Ok(event_seq)),
            Err(error) => Err(error),
        };
    }
    conn.execute_batch("SAVEPOINT job")?;
    let result = apply(conn, snapshot, change, now);
    close_savepoint(conn, result.is_err())?;
    Ok(match result {
        Ok(None) => Err(WriteError::Conflict),
        Ok(Some(event_seq)) => Ok(event_seq),
        Err(error) => Err(WriteError::Database(database(error))),
    })
}

fn close_savepoint(conn: &Connection, failed: bool) -> rusqlite::Result<()> {
    if failed {
        conn.execute_batch("ROLLBACK TO SAVEPOINT job")?;
    }
    conn.execute_batch("RELEASE SAVEPOINT job")
}

fn insert_lobby(conn: &Connection, lobby: &NewLobby) -> rusqlite::Result<()> {
    conn.prepare_cached(sql::INSERT_LOBBY)?.execute(params![
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

/// What `transact::apply` does, on this connection, at `now` (the batch's instant, from the
/// store's clock). Ok(None): the version moved (nothing written).
fn apply(
    conn: &Connection,
    snapshot: &Snapshot,
    change: &Change,
    now: i64,
) -> rusqlite::Result<Option<i64>> {
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
        next_seq,
        event_seq,
        change.lobby.fairness,
        id,
        lobby.version,
    ])?;
    if updated != 1 {
        return Ok(None);
    }
    if let Some(player) = &change.player {
        conn.prepare_cached(sql::INSERT_PLAYER)?.execute(params![
            player.id.to_string(),
            id,
            player.seat as i64,
            player.name,
            player.name_key,
            player.join_data,
            player.token_hash,
        ])?;
    }
    if let Some(update) = &change.player_update {
        conn.prepare_cached(sql::UPDATE_PLAYER)?.execute(params![
            update.name,
            update.name_key,
            update.token_hash,
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
        conn.prepare_cached(sql::PATCH_PLAYER)?.execute(params![
            player.fallback,
            player.misses,
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
    for (offset, event) in change.events.iter().enumerate() {
        conn.prepare_cached(sql::INSERT_EVENT)?.execute(params![
            id,
            lobby.event_seq + 1 + offset as i64,
            event.kind,
            event.data,
            now,
        ])?;
    }
    // The deliveries these events owe, in the same transaction (docs/notifications.md).
    super::outbox::enqueue_sqlite(conn, &id, lobby.event_seq + 1, &change.events, now)?;
    Ok(Some(event_seq))
}

/// The lobby as committed, from the cache when its version says the cached copy is current
/// (the batch's transaction holds the write lock, so it stays current until the commit).
fn current(
    conn: &Connection,
    cache: &Cache,
    own: &OwnWrites,
    lobby: Uuid,
) -> rusqlite::Result<Option<Arc<Snapshot>>> {
    if let Some(cached) = own.version(lobby).and_then(|v| cache.get(lobby, v)) {
        return Ok(Some(cached));
    }
    let Some(version) = version(conn, lobby)? else {
        return Ok(None);
    };
    if let Some(cached) = cache.get(lobby, version) {
        return Ok(Some(cached));
    }
    let loaded = load_snapshot(conn, lobby)?.map(Arc::new);
    if let Some(loaded) = &loaded {
        // Not written in this batch (those come from `changed`), so this is committed state.
        cache.offer(loaded.clone());
    }
    Ok(loaded)
}

fn version(conn: &Connection, lobby: Uuid) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached(LOBBY_VERSION)?
        .query_row(params![lobby.to_string()], |row| row.get(0))
        .optional()
}

fn decode(error: sqlx::Error) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(Box::new(error))
}

fn load_snapshot(conn: &Connection, id: Uuid) -> rusqlite::Result<Option<Snapshot>> {
    let key = id.to_string();
    let Some(lobby) = conn
        .prepare_cached(LOBBY_BY_ID)?
        .query_row(params![key], |row| {
            Ok(LobbyRow {
                id: uuid(row.get(0)?).map_err(decode)?,
                game: row.get(1)?,
                name: row.get(2)?,
                settings: row.get(3)?,
                status: Status::parse(&row.get::<_, String>(4)?).map_err(decode)?,
                host_token_hash: row.get(5)?,
                seed: row.get::<_, i64>(6)? as u64,
                state: row.get(7)?,
                round: u32::try_from(row.get::<_, i64>(8)?).unwrap_or(u32::MAX),
                step: row.get(9)?,
                step_seq: row.get(10)?,
                event_seq: row.get(11)?,
                version: row.get(12)?,
                created_at: row.get(13)?,
                timing: row.get(14)?,
                clock: StepClock {
                    deadline_at: row.get(15)?,
                    paused_left: row.get(16)?,
                    remind_below: row.get(17)?,
                    wake_at: row.get(18)?,
                },
                seed_salt: row.get(19)?,
                fairness: row.get(20)?,
            })
        })
        .optional()?
    else {
        return Ok(None);
    };
    let players = conn
        .prepare_cached(sql::PLAYERS_OF_LOBBY)?
        .query_map(params![key], |row| {
            Ok(PlayerRow {
                id: uuid(row.get(0)?).map_err(decode)?,
                seat: usize::try_from(row.get::<_, i64>(1)?).unwrap_or(usize::MAX),
                name: row.get(2)?,
                join_data: row.get(3)?,
                token_hash: row.get(4)?,
                fallback: row.get(5)?,
                misses: row.get(6)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let orders = conn
        .prepare_cached(sql::PENDING_ORDERS)?
        .query_map(params![key, lobby.step_seq], |row| {
            Ok(OrderRow {
                player_id: uuid(row.get(0)?).map_err(decode)?,
                body: row.get(1)?,
                submitted_at: row.get(2)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(Some(Snapshot {
        lobby,
        players,
        orders,
        parsed: ParsedState::default(),
        round_steps: RoundSteps::default(),
    }))
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

    /// The lobby's version, or None if there is no such lobby.
    pub fn version(&self, lobby: Uuid) -> Result<Option<i64>, sqlx::Error> {
        let held = self
            .idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .pop();
        let conn = match held {
            Some(conn) => conn,
            None => open(&self.path).map_err(database)?,
        };
        let answer = version(&conn, lobby).map_err(database);
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
