//! The deadline scheduler: one task per process that sleeps until the earliest clock in the
//! database falls due, starts acting on every due lobby (each in a task of its own), and sleeps
//! again. It never polls busily:
//! - it sleeps on the store's clock until the next `wake_at` (an indexed read of the first
//!   rows);
//! - a change made in this process that sets a clock wakes it at once (`Host::wake`), so a
//!   sooner deadline is never missed here;
//! - a clock set by another process on the same database wakes it too, when that process's
//!   announcement arrives (PostgreSQL, `store/pg_listen.rs`); should announcements be lost
//!   (the listener's connection dropped), it is seen at the latest after [`RECHECK_MS`], when
//!   the task reads the next `wake_at` again.
//!
//! Acting is a transaction per lobby (`Host::fire`): two processes that wake for the same
//! deadline both try, and the second finds the step already moved on and writes nothing.

use std::time::Duration;

use std::collections::{HashMap, HashSet};

use tokio::sync::mpsc::{self, UnboundedSender};
use tokio::task::JoinHandle;
use uuid::Uuid;

use super::{Fired, Host};

/// Where a scheduler tells what it did on each lobby and when that was committed (unix ms):
/// what the deadline benchmark measures lateness with.
pub type Report = UnboundedSender<(Uuid, Fired, i64)>;

/// How long a clock set by another process may wait to be noticed (store-clock ms).
pub const RECHECK_MS: i64 = 30_000;
/// Lobbies read per round trip beyond those being acted on; the due ones are acted on side by
/// side, so their transactions share the writers' group commits.
const BATCH: i64 = 256;

/// The running scheduler; dropping it stops the task.
#[derive(Debug)]
pub struct Scheduler {
    task: JoinHandle<()>,
}

impl Drop for Scheduler {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Host {
    /// Starts this process's deadline scheduler (needs a tokio runtime).
    pub fn spawn_scheduler(&self) -> Scheduler {
        self.spawn_scheduler_reporting(None)
    }

    /// [`Host::spawn_scheduler`], telling `report` of everything it does.
    pub fn spawn_scheduler_reporting(&self, report: Option<Report>) -> Scheduler {
        Scheduler {
            task: tokio::spawn(run(self.clone(), report)),
        }
    }
}

async fn run(host: Host, report: Option<Report>) {
    let clock = host.store.clock().clone();
    let wakes = host.store.wakes().clone();
    // Lobbies being acted on: a fire runs as a task of its own, so that a deadline falling
    // due is never held up by the commits of those before it; until its commit the lobby's
    // `wake_at` still reads as due, so it is skipped meanwhile.
    let mut in_flight: HashSet<Uuid> = HashSet::new();
    // Lobbies whose last attempt failed, and when to try again.
    let mut retry: HashMap<Uuid, i64> = HashMap::new();
    let (done, mut finished) = mpsc::unbounded_channel::<Done>();
    loop {
        while let Ok(one) = finished.try_recv() {
            settle(one, &mut in_flight, &mut retry, report.as_ref());
        }
        let now = clock.now_millis();
        let limit = in_flight.len() as i64 + BATCH;
        let upcoming = match host.store.upcoming(limit).await {
            Ok(upcoming) => upcoming,
            Err(error) => {
                tracing::warn!(%error, "the deadline scheduler could not read the next deadlines");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let mut next = None;
        let mut all_due = upcoming.len() as i64 == limit;
        for (id, wake_at) in upcoming {
            if in_flight.contains(&id) {
                continue;
            }
            let at = retry.get(&id).map_or(wake_at, |r| wake_at.max(*r));
            if at > now {
                next = Some(next.map_or(at, |n: i64| n.min(at)));
                all_due = false;
                if retry.contains_key(&id) {
                    continue;
                }
                break;
            }
            in_flight.insert(id);
            let (host, done, clock) = (host.clone(), done.clone(), clock.clone());
            tokio::spawn(async move {
                let outcome = host.fire(id).await;
                let _ = done.send((id, outcome, clock.now_millis()));
            });
        }
        if all_due {
            continue;
        }
        let recheck = clock.now_millis() + RECHECK_MS;
        let until = next.map_or(recheck, |at| at.min(recheck));
        tokio::select! {
            () = clock.sleep_until(until) => {}
            () = host.wake.notified() => {}
            () = wakes.deadlines.notified() => {}
            Some(one) = finished.recv() => settle(one, &mut in_flight, &mut retry, report.as_ref()),
        }
    }
}

/// A fire that has finished: the lobby, what happened, and when it was committed.
type Done = (Uuid, Result<Fired, crate::error::AppError>, i64);

/// Takes a finished fire off the books: reports it, or schedules a retry a second later.
fn settle(
    (id, outcome, at): Done,
    in_flight: &mut HashSet<Uuid>,
    retry: &mut HashMap<Uuid, i64>,
    report: Option<&Report>,
) {
    in_flight.remove(&id);
    match outcome {
        Ok(fired) => {
            retry.remove(&id);
            if let Some(report) = report {
                let _ = report.send((id, fired, at));
            }
        }
        Err(error) => {
            // A full storage was reported (once per interval) where the store refused.
            if !matches!(error, crate::error::AppError::StorageFull(_)) {
                tracing::warn!(lobby = %id, %error, "a due deadline could not be acted on");
            }
            retry.insert(id, at + 1_000);
        }
    }
}
