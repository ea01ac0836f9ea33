//! `herald deadline-bench`: what the deadline scheduler costs and how late it fires.
//!
//! In one process, on the configured database: seats `--lobbies` two-player Crossing Swords
//! games whose deadlines are 30 days away, then measures the whole process's CPU time over
//! `--idle-seconds` (the scheduler waiting among them), then moves `--due` of the deadlines to
//! instants spread over `--spread-seconds` a little ahead and measures, for each, how long after
//! its instant its step's resolution was committed. The figures are printed; docs/performance.md
//! keeps this machine's.

use std::time::{Duration, Instant};

use futures_util::future::join_all;
use serde_json::{Map, Value, json};
use tokio::sync::mpsc;
use uuid::Uuid;

use crate::games::{GameKind, GameUi, with_game};
use crate::host::{Fired, Host, timing};
use crate::store::Store;

/// The benchmark's settings.
#[derive(Clone, Debug, clap::Args)]
pub struct DeadlineBenchArgs {
    /// The database to measure on (a fresh one: the benchmark seats its own lobbies).
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://herald-bench.db?mode=rwc"
    )]
    pub database_url: String,
    /// Lobbies with a running deadline.
    #[arg(long, default_value_t = 10_000)]
    pub lobbies: usize,
    /// How long to measure the idle CPU, in seconds.
    #[arg(long, default_value_t = 35)]
    pub idle_seconds: u64,
    /// How many of the deadlines then fall due.
    #[arg(long, default_value_t = 2_000)]
    pub due: usize,
    /// Over how many seconds those deadlines are spread.
    #[arg(long, default_value_t = 10)]
    pub spread_seconds: u64,
}

/// Changes run side by side (they share the writers' group commits).
const IN_FLIGHT: usize = 256;

type BenchError = Box<dyn std::error::Error + Send + Sync>;

/// Runs the benchmark on its database and prints its figures.
pub async fn run(args: DeadlineBenchArgs) -> Result<(), BenchError> {
    let store = Store::connect(&args.database_url).await?;
    let host = Host::new(store.clone());
    let (report, mut reports) = mpsc::unbounded_channel();
    let scheduler = host.spawn_scheduler_reporting(Some(report));

    let began = Instant::now();
    let mut seated = Vec::with_capacity(args.lobbies);
    for chunk in (0..args.lobbies).collect::<Vec<_>>().chunks(IN_FLIGHT) {
        let made = join_all(chunk.iter().map(|_| seat_one(&host))).await;
        for lobby in made {
            seated.push(lobby?);
        }
    }
    println!(
        "seated {} lobbies with 30-day deadlines in {:.1} s",
        seated.len(),
        began.elapsed().as_secs_f64()
    );

    let cpu_before = process_cpu_ms()?;
    tokio::time::sleep(Duration::from_secs(args.idle_seconds)).await;
    let idle_cpu = process_cpu_ms()? - cpu_before;
    println!(
        "idle: {idle_cpu} ms of CPU in {} s ({:.2} ms/s, {:.3}% of one core), the whole process",
        args.idle_seconds,
        idle_cpu as f64 / args.idle_seconds as f64,
        idle_cpu as f64 / (args.idle_seconds as f64 * 10.0)
    );

    // Move `due` deadlines to instants spread over the next seconds, after a margin in which
    // setting them all is done.
    let due = args.due.min(seated.len());
    let margin = 3_000 + due as i64 * 2;
    let start = store.clock().now_millis() + margin;
    let step = (args.spread_seconds as i64 * 1000) / due.max(1) as i64;
    let mut due_at = std::collections::HashMap::with_capacity(due);
    let targets: Vec<(Uuid, String, i64)> = seated[..due]
        .iter()
        .enumerate()
        .map(|(i, (id, token))| (*id, token.clone(), start + i as i64 * step))
        .collect();
    for chunk in targets.chunks(IN_FLIGHT) {
        let set = join_all(chunk.iter().map(|(id, token, at)| {
            let mut body = Map::new();
            body.insert("deadline_at".into(), Value::String(timing::rfc3339(*at)));
            host.set_deadline(*id, Some(token), body)
        }))
        .await;
        for result in set {
            result?;
        }
        due_at.extend(chunk.iter().map(|(id, _, at)| (*id, *at)));
    }
    let set_by = store.clock().now_millis();
    if set_by > start {
        println!(
            "warning: setting the deadlines ran {} ms past the first one",
            set_by - start
        );
    }
    let mut late = Vec::with_capacity(due);
    let until = Instant::now()
        + Duration::from_millis(margin as u64)
        + Duration::from_secs(args.spread_seconds + 60);
    while late.len() < due && Instant::now() < until {
        let Ok(Some((id, fired, at))) =
            tokio::time::timeout(Duration::from_secs(5), reports.recv()).await
        else {
            continue;
        };
        if let (Fired::Resolved, Some(due)) = (fired, due_at.get(&id)) {
            late.push(at - due);
        }
    }
    late.sort_unstable();
    let pick = |q: f64| late[((late.len() as f64 - 1.0) * q).round() as usize];
    if late.is_empty() {
        return Err("no deadline fired".into());
    }
    println!(
        "lateness of {} of {due} deadlines over {} s (ms after the due instant, to the commit): \
         p50 {} p99 {} max {}",
        late.len(),
        args.spread_seconds,
        pick(0.5),
        pick(0.99),
        late[late.len() - 1]
    );
    drop(scheduler);
    store.close().await;
    Ok(())
}

/// Creates a two-player lobby with a 30-day deadline and starts it: (id, host token).
async fn seat_one(host: &Host) -> Result<(Uuid, String), BenchError> {
    // The first registered game, seated by two, with its default round cap.
    let game = GameKind::ALL[0];
    let (_, mut settings) = with_game!(game, G => G::load_lobby(2, 30));
    settings["deadline_seconds"] = json!(timing::MAX_SECONDS);
    let created = host.create_lobby(game.id(), "bench", settings).await?;
    for name in ["Ann", "Bob"] {
        host.join(created.id, name, Map::new()).await?;
    }
    host.start(created.id, Some(&created.host_token)).await?;
    Ok((created.id, created.host_token))
}

/// This process's CPU time (user and system) in milliseconds, from /proc (Linux counts it
/// in ticks of 1/100 s).
fn process_cpu_ms() -> Result<i64, BenchError> {
    let stat = std::fs::read_to_string("/proc/self/stat")?;
    // Fields after the command name (which may hold spaces) end with ')'.
    let rest = stat
        .rsplit_once(')')
        .map(|(_, r)| r)
        .ok_or("unreadable /proc/self/stat")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after the name.
    let ticks: i64 = fields[11].parse::<i64>()? + fields[12].parse::<i64>()?;
    Ok(ticks * 10)
}
