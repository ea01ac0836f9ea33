//! The load generator: many lobbies filled with bots, played to the end against a running
//! server, with throughput, latency and the server's memory reported.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use super::client::{Api, ClientError};
use super::drive::Bots;
pub use super::load_plan::LoadArgs;
use super::load_plan::{Drive, Table, Tally};
use super::wire::Wire;
use crate::error::AppError;
use crate::games::{GameKind, GameUi, with_game};

/// What a load run measured.
#[derive(Clone, Debug)]
pub struct Report {
    pub games: u64,
    pub orders: u64,
    /// Table-talk messages stored (`--messages`).
    pub messages: u64,
    /// With `--rated`: the games whose result carried every player's rating change.
    pub rated: u64,
    pub steps: u64,
    pub rounds: u64,
    pub seconds: f64,
    pub errors: BTreeMap<String, u64>,
    /// Sorted order latencies, microseconds.
    pub latencies_us: Vec<u32>,
    /// With `--webhooks`: the deliveries that arrived before play began (the seating's) and
    /// those that arrived after it, once they stopped coming.
    pub deliveries: Option<Deliveries>,
}

/// Webhook deliveries counted by the load generator's receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deliveries {
    pub seating: u64,
    pub play: u64,
}

/// Runs the load, prints the report and returns it.
pub async fn run(args: LoadArgs) -> Result<Report, ClientError> {
    let api = Api::new(&args.url);
    let wire = Wire::new(&args.url)?;
    let gate = Arc::new(Semaphore::new(args.connections.max(1)));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let idle = memory_of(&args.server_pid, "VmRSS");

    let receiver = match args.webhooks {
        true => Some(
            super::receiver::Receiver::start()
                .await
                .map_err(|e| ClientError::transport(format!("the webhook receiver: {e}")))?,
        ),
        false => None,
    };
    let hook = receiver.as_ref().map(|r| r.url.as_str());
    let setup_started = Instant::now();
    let kind: GameKind = args.game.parse().map_err(|e: AppError| ClientError {
        status: 0,
        code: e.code().to_owned(),
        message: e.to_string(),
    })?;
    let holders = match args.drive {
        Drive::Profiles => seat_holders(&api, &args, kind).await?,
        Drive::Streams | Drive::Poll => Vec::new(),
    };
    let tables =
        join_all((0..args.lobbies).map(|i| seat(&api, &args, kind, &gate, i, hook, &holders)))
            .await;
    let tables: Vec<Table> = tables.into_iter().collect::<Result<_, _>>()?;
    let seated: usize = tables.iter().map(|t| t.players.len()).sum();
    let after_setup = memory_of(&args.server_pid, "VmRSS");
    println!(
        "seated {seated} players in {} lobbies in {:.1?}",
        tables.len(),
        setup_started.elapsed()
    );
    if let Some(receiver) = &receiver {
        let owed = seating_deliveries(&args.webhook_events, seated, tables.len());
        let waited = Instant::now();
        let arrived = receiver.reached(owed, Duration::from_secs(300)).await;
        println!(
            "webhook deliveries of the seating: {arrived} of {owed} arrived {:.1?} after it",
            waited.elapsed()
        );
    }

    let delivered_before_play = receiver.as_ref().map_or(0, |r| r.count());
    let cpu_before = cpu_of(&args.server_pid);
    let stored_before = stored_of(&args.server_pid);
    let helpers = &args.database_processes;
    let helpers_before: Vec<f64> = helpers.iter().map(|n| cpu_seconds_of_named(n)).collect();
    let started = Instant::now();
    let bots = Bots {
        api: &api,
        wire: &wire,
        args: &args,
        gate: &gate,
        tally: &tally,
    };
    bots.play_all(&tables, &holders).await;
    let elapsed = started.elapsed();
    // Deliveries go on after the last order; what arrived by then, and in all once they stop.
    let deliveries = match &receiver {
        Some(receiver) => Some((
            receiver.count() - delivered_before_play,
            receiver
                .settled(Duration::from_secs(2), Duration::from_secs(120))
                .await
                - delivered_before_play,
        )),
        None => None,
    };

    // After the play's deliveries have settled, so that their records are counted too.
    let stored = stored_before.zip(stored_of(&args.server_pid));
    let cpu_after = cpu_of(&args.server_pid);
    let helpers_after: Vec<f64> = helpers.iter().map(|n| cpu_seconds_of_named(n)).collect();
    // Counted once the play's CPU is read: these reads are the report's, not the play's.
    let rated = match args.rated {
        true => Some(rated_games(&api, &tables, seated / tables.len().max(1)).await?),
        false => None,
    };
    let mut tally = tally.lock().unwrap_or_else(|e| e.into_inner());
    tally.latencies_us.sort_unstable();
    let secs = elapsed.as_secs_f64();
    println!(
        "game {} · {} lobbies × {} players · {} in flight · bots driven by {:?}",
        args.game,
        args.lobbies,
        seated / args.lobbies.max(1),
        args.connections,
        args.drive,
    );
    println!("played {} games in {secs:.1} s", tally.games);
    println!(
        "orders accepted: {} ({:.0}/s)",
        tally.orders,
        tally.orders as f64 / secs
    );
    if args.messages {
        println!(
            "messages stored: {} ({:.0}/s)",
            tally.messages,
            tally.messages as f64 / secs
        );
    }
    if let Some(rated) = rated {
        println!("rated games: {rated} of {}", tally.games);
    }
    println!(
        "steps resolved: {} ({:.0}/s); rounds resolved: {} ({:.0}/s)",
        tally.steps,
        tally.steps as f64 / secs,
        tally.rounds,
        tally.rounds as f64 / secs
    );
    println!(
        "order latency: p50 {} · p95 {} · p99 {} · max {}",
        ms(percentile(&tally.latencies_us, 0.50)),
        ms(percentile(&tally.latencies_us, 0.95)),
        ms(percentile(&tally.latencies_us, 0.99)),
        ms(tally.latencies_us.last().copied().unwrap_or(0)),
    );
    if let Some((during, total)) = &deliveries {
        println!("webhook deliveries of the play: {during} while playing, {total} in all");
    }
    if let Some((before, after)) = stored {
        let bytes = after.saturating_sub(before);
        println!(
            "server wrote to storage while playing: {:.1} MB ({:.1} KB per order)",
            bytes as f64 / 1e6,
            bytes as f64 / 1e3 / tally.orders.max(1) as f64
        );
    }
    let errors: u64 = tally.errors.values().sum();
    println!("errors: {errors} {:?}", tally.errors);
    if let Some(before) = cpu_before
        && let Some(after) = cpu_after
    {
        let cpu = after - before;
        let processes = match args.server_pid.len() {
            1 => String::new(),
            n => format!(" ({n} processes)"),
        };
        println!(
            "server CPU while playing{processes}: {cpu:.1} s ({:.0} orders per CPU-second)",
            tally.orders as f64 / cpu.max(1e-9)
        );
        let mut total = cpu;
        for ((name, before), after) in helpers.iter().zip(&helpers_before).zip(&helpers_after) {
            let used = after - before;
            total += used;
            println!("{name} CPU while playing: {used:.1} s");
        }
        if !helpers.is_empty() {
            println!(
                "server and {} together: {total:.1} s ({:.0} orders per CPU-second, {:.1} µs of CPU per order)",
                helpers.join(" and "),
                tally.orders as f64 / total.max(1e-9),
                total * 1e6 / (tally.orders as f64).max(1.0)
            );
        }
    }
    if !args.server_pid.is_empty() {
        let peak = memory_of(&args.server_pid, "VmHWM");
        // Above idle, per seat: once seated (the rows and the cache), and at the peak of the
        // play (which also holds the bots' open streams and requests).
        let per_seat = |kb: Option<u64>| match (idle, kb) {
            (Some(a), Some(b)) if seated > 0 => {
                ((b.saturating_sub(a) * 1024) / seated as u64).to_string()
            }
            _ => "?".into(),
        };
        println!(
            "server memory: idle {} MB · seated {} MB ({} bytes per seated player) · peak {} MB ({} bytes per seated player)",
            mb(idle),
            mb(after_setup),
            per_seat(after_setup),
            mb(peak),
            per_seat(peak),
        );
    }
    Ok(Report {
        games: tally.games,
        orders: tally.orders,
        messages: tally.messages,
        rated: rated.unwrap_or(0),
        steps: tally.steps,
        rounds: tally.rounds,
        seconds: secs,
        errors: tally.errors.clone(),
        latencies_us: std::mem::take(&mut tally.latencies_us),
        deliveries: deliveries.map(|(_, play)| Deliveries {
            seating: delivered_before_play,
            play,
        }),
    })
}

/// The lobby the load generator plays of `kind` when `players` and `max_rounds` are asked for:
/// how many seats it fills and the settings it creates it with ([`GameUi::load_lobby`]).
pub fn lobby(kind: GameKind, players: usize, max_rounds: u32) -> (usize, Value) {
    with_game!(kind, G => G::load_lobby(players, max_rounds))
}

/// With `--drive profiles`: the key of each seat's profile, `Load {seed} {seat}`, one per seat
/// of a lobby (the game decides how many: BST is a duel), each to hold that seat in every
/// lobby.
async fn seat_holders(
    api: &Api,
    args: &LoadArgs,
    kind: GameKind,
) -> Result<Vec<String>, ClientError> {
    let (players, _) = lobby(kind, args.players, args.max_rounds);
    let mut keys = Vec::with_capacity(players);
    for seat in 0..players {
        keys.push(
            api.create_profile(&format!("Load {} {seat}", args.seed))
                .await?,
        );
    }
    Ok(keys)
}

/// Creates lobby `i`, fills it and starts it. Its seats are joined by `holders` (seat `n` by
/// the profile whose key is `holders[n]`, which then also sends its orders) when there are
/// any, else each by a profile of its own (`--profiles`) or by a name alone.
async fn seat(
    api: &Api,
    args: &LoadArgs,
    kind: GameKind,
    gate: &Semaphore,
    i: usize,
    hook: Option<&str>,
    holders: &[String],
) -> Result<Table, ClientError> {
    // The game decides its lobby's shape (BST is a duel).
    let (players, mut settings) = lobby(kind, args.players, args.max_rounds);
    if let Some(map) = settings.as_object_mut() {
        if args.messages {
            map.insert("press".into(), json!("public"));
        }
        if args.rated {
            map.insert("rated".into(), json!(true));
        }
    }
    let (id, host) = {
        let _permit = gate.acquire().await.expect("the gate is never closed");
        api.create_lobby(&args.game, &format!("Load {i}"), settings)
            .await?
    };
    if let Some(url) = hook {
        let _permit = gate.acquire().await.expect("the gate is never closed");
        api.add_webhook(
            &id,
            &host,
            json!({"url": url, "format": "standard", "events": args.webhook_events}),
        )
        .await?;
    }
    let mut seated = Vec::with_capacity(players);
    for seat in 0..players {
        let _permit = gate.acquire().await.expect("the gate is never closed");
        let body = json!({"name": format!("Bot {seat}")});
        let joined = match holders.get(seat) {
            Some(key) => {
                let (player, _) = api.join_with_key(&id, key, body).await?;
                (player, key.clone())
            }
            None if args.bound() => {
                // Unique for a run's seed (`LoadArgs::profiles`).
                let key = api
                    .create_profile(&format!("Bot {} {i} {seat}", args.seed))
                    .await?;
                api.join_with_key(&id, &key, body).await?
            }
            None => api.join(&id, body).await?,
        };
        seated.push(joined);
    }
    let _permit = gate.acquire().await.expect("the gate is never closed");
    api.start(&id, &host).await?;
    Ok(Table {
        id,
        players: seated,
    })
}

/// How many of the played lobbies finished rated: their result names a rating change for
/// each of their `players` seats (read after the play, so not counted in its figures).
async fn rated_games(api: &Api, tables: &[Table], players: usize) -> Result<u64, ClientError> {
    let mut rated = 0;
    for table in tables {
        let lobby = api.lobby(&table.id).await?;
        let changes = lobby["result"]["rating_changes"]
            .as_array()
            .map_or(0, Vec::len);
        if players > 0 && changes == players {
            rated += 1;
        }
    }
    Ok(rated)
}

/// The deliveries the seating owes a webhook asking for `events`: one per join and one per
/// start (the webhook is added before the first join).
fn seating_deliveries(events: &[String], seated: usize, lobbies: usize) -> u64 {
    let asks = |kind: &str| events.iter().any(|e| e == kind);
    let joins = if asks("player-joined") { seated } else { 0 };
    let starts = if asks("started") { lobbies } else { 0 };
    (joins + starts) as u64
}

fn percentile(sorted: &[u32], q: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let index = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn ms(micros: u32) -> String {
    format!("{:.2} ms", f64::from(micros) / 1000.0)
}

fn mb(kb: Option<u64>) -> String {
    kb.map_or("?".into(), |kb| format!("{:.1}", kb as f64 / 1024.0))
}

/// The CPU time a process's live threads have used, in seconds (each thread's
/// /proc/PID/task/TID/schedstat starts with its nanoseconds on a CPU).
fn cpu_seconds(pid: u32) -> Option<f64> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    // A thread may end while we read; it is skipped.
    let nanos: f64 = tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok())
        .filter_map(|stat| stat.split_whitespace().next()?.parse::<f64>().ok())
        .sum();
    Some(nanos / 1e9)
}

/// The CPU time of the server's processes together (`None` when there are none, or one has
/// gone).
fn cpu_of(pids: &[u32]) -> Option<f64> {
    if pids.is_empty() {
        return None;
    }
    pids.iter().map(|&pid| cpu_seconds(pid)).sum()
}

/// A memory figure (kB) of the server's processes added up (`None` as for [`cpu_of`]).
fn memory_of(pids: &[u32], field: &str) -> Option<u64> {
    if pids.is_empty() {
        return None;
    }
    pids.iter().map(|&pid| memory_kb(pid, field)).sum()
}

/// The CPU time used so far by the live processes called `name`, in seconds (every thread of
/// each, as in [`cpu_seconds`]: a proxy such as HAProxy runs several; a process that ends
/// while we read is skipped, and one that ended before is not counted: PostgreSQL's backends
/// live as long as the server's connections).
fn cpu_seconds_of_named(name: &str) -> f64 {
    let Ok(processes) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    processes
        .filter_map(Result::ok)
        .filter(|p| {
            p.file_name()
                .to_str()
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        })
        .filter(|p| std::fs::read_to_string(p.path().join("comm")).is_ok_and(|c| c.trim() == name))
        .filter_map(|p| p.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(cpu_seconds)
        .sum::<f64>()
}

/// Bytes the server's processes have caused to be written to storage so far (Linux
/// `/proc/PID/io`, `write_bytes`: counted when a page is dirtied, so the same work gives the
/// same figure however busy the machine is, where its CPU-seconds spread; `None` as for
/// [`cpu_of`]). On SQLite it is the WAL and the checkpoints into the database file.
fn stored_of(pids: &[u32]) -> Option<u64> {
    if pids.is_empty() {
        return None;
    }
    pids.iter()
        .map(|&pid| {
            let io = std::fs::read_to_string(format!("/proc/{pid}/io")).ok()?;
            let line = io.lines().find(|l| l.starts_with("write_bytes:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .sum()
}

/// A memory figure (kB) from /proc/PID/status: VmRSS now, VmHWM the peak.
fn memory_kb(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn storage_writes_are_read_for_a_live_process_and_none_for_no_process() {
        // In the checkout, not the system's temporary directory, which may be a tmpfs (whose
        // pages are never written to storage).
        let file = tempfile::NamedTempFile::new_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        let before = stored_of(&[std::process::id()]).expect("our own /proc/PID/io");
        std::fs::write(file.path(), vec![7u8; 1 << 20]).unwrap();
        file.as_file().sync_all().unwrap();
        let after = stored_of(&[std::process::id()]).unwrap();
        assert!(after >= before + (1 << 20), "{before} then {after}");
        assert_eq!(stored_of(&[]), None);
    }

    #[test]
    fn percentiles_pick_the_nearest_rank() {
        let sorted: Vec<u32> = (1..=100).collect();
        assert_eq!(percentile(&sorted, 0.50), 51);
        assert_eq!(percentile(&sorted, 0.99), 99);
        assert_eq!(percentile(&[], 0.99), 0);
    }

    #[test]
    fn memory_and_cpu_of_this_process_are_readable() {
        assert!(memory_kb(std::process::id(), "VmRSS").is_some_and(|kb| kb > 0));
        assert!(cpu_seconds(std::process::id()).is_some_and(|s| s > 0.0));
        let me = std::fs::read_to_string("/proc/self/comm").unwrap();
        assert!(cpu_seconds_of_named(me.trim()) > 0.0);
        assert_eq!(cpu_seconds_of_named("no-such-process-name"), 0.0);
    }
}
