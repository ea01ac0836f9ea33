//! Plays a plan's games over the cores: std's scoped threads take the games' numbers from one
//! counter in small batches, each counts into its own tally, and the tallies are merged at the
//! end. A game depends on its number alone and a tally is integer counts, so the result is the
//! same for any number of threads. A progress line goes to standard error while the run lasts,
//! when standard error is a terminal.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::plan::Plan;
use super::play::{GameError, Table, play};
use super::tally::Tally;
use crate::games::GameUi;

/// Games a thread takes at once: few enough that the threads finish together.
const BATCH: u64 = 16;
/// How often the progress line is redrawn.
const TICK: Duration = Duration::from_millis(200);

/// A run's tally and the CPU time its threads took (None where the system does not say).
pub struct Ran {
    pub tally: Tally,
    pub cpu_seconds: Option<f64>,
}

/// Plays every game of `plan` and returns the merged tally, or the error of the
/// lowest-numbered game that failed.
pub fn run<G: GameUi>(plan: &Plan, table: &Table<G>) -> Result<Ran, GameError> {
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let threads = plan.threads.max(1);
    let progress = std::io::stderr().is_terminal();
    let results: Vec<Result<(Tally, Option<f64>), GameError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut tally = Tally::default();
                    loop {
                        let start = next.fetch_add(BATCH, Ordering::Relaxed);
                        if start >= plan.games || failed.load(Ordering::Relaxed) {
                            return Ok((tally, thread_cpu_seconds()));
                        }
                        for index in start..(start + BATCH).min(plan.games) {
                            if let Err(e) = play(plan, table, index, &mut tally) {
                                failed.store(true, Ordering::Relaxed);
                                return Err(e);
                            }
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                })
            })
            .collect();
        if progress {
            let began = Instant::now();
            let mut drawn = false;
            while workers.iter().any(|w| !w.is_finished()) {
                std::thread::sleep(TICK);
                if workers.iter().any(|w| !w.is_finished()) {
                    draw(done.load(Ordering::Relaxed), plan.games, began.elapsed());
                    drawn = true;
                }
            }
            if drawn {
                eprint!("\r\x1b[2K");
            }
        }
        workers
            .into_iter()
            .map(|w| w.join().expect("a simulation thread panicked"))
            .collect()
    });
    let mut tally = Tally::default();
    let mut cpu_seconds = Some(0.0);
    let mut first_error: Option<GameError> = None;
    for result in results {
        match result {
            Ok((part, cpu)) => {
                tally.merge(part);
                cpu_seconds = cpu_seconds.zip(cpu).map(|(a, b)| a + b);
            }
            Err(e) if first_error.as_ref().is_none_or(|f| e.index < f.index) => {
                first_error = Some(e)
            }
            Err(_) => {}
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(Ran { tally, cpu_seconds }),
    }
}

/// The CPU time the calling thread has used, in seconds (Linux: the first field of
/// /proc/thread-self/schedstat, its nanoseconds on a CPU). On a shared machine this, not the
/// wall-clock time, says what a game costs.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(nanos / 1e9)
}

/// The progress line: a bar, the games done, the rate and the time left.
fn draw(done: u64, total: u64, elapsed: Duration) {
    const WIDTH: u64 = 30;
    let filled = (done * WIDTH).checked_div(total).unwrap_or(WIDTH) as usize;
    let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
    let left = match rate > 0.0 {
        true => format!("{:.0}s left", (total - done) as f64 / rate),
        false => String::new(),
    };
    let mut err = std::io::stderr().lock();
    let _ = write!(
        err,
        "\r\x1b[2K[{}{}] {done}/{total} games, {rate:.0}/s, {left}",
        "#".repeat(filled),
        ".".repeat(WIDTH as usize - filled)
    );
    let _ = err.flush();
}
