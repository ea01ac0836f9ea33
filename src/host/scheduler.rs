//! The deadline scheduler: one task per process that sleeps until the earliest clock in the
//! database falls due, acts on every due lobby, and sleeps again. It never polls busily:
//! - it sleeps on the store's clock until the next `wake_at` (an indexed read of one row);
//! - a change made in this process that sets a clock wakes it at once (`Host::wake`), so a
//!   sooner deadline is never missed here;
//! - a clock set by another process on the same database is seen at the latest after
//!   [`RECHECK_MS`], when the task reads the next `wake_at` again.
//!
//! Acting is a transaction per lobby (`Host::fire`): two processes that wake for the same
//! deadline both try, and the second finds the step already moved on and writes nothing.

use std::time::Duration;

use futures_util::future::join_all;
use tokio::task::JoinHandle;

use super::Host;

/// How long a clock set by another process may wait to be noticed (store-clock ms).
pub const RECHECK_MS: i64 = 30_000;
/// Due lobbies taken per round trip; their transactions share the writers' group commits.
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
        Scheduler {
            task: tokio::spawn(run(self.clone())),
        }
    }
}

async fn run(host: Host) {
    let clock = host.store.clock().clone();
    loop {
        let now = clock.now_millis();
        let due = match host.store.due_lobbies(now, BATCH).await {
            Ok(due) => due,
            Err(error) => {
                tracing::warn!(%error, "the deadline scheduler could not read the due lobbies");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let fired = join_all(due.iter().map(|id| host.fire(*id))).await;
        let mut failed = false;
        for (id, outcome) in due.iter().zip(fired) {
            if let Err(error) = outcome {
                failed = true;
                tracing::warn!(lobby = %id, %error, "a due deadline could not be acted on");
            }
        }
        if failed {
            // Whatever failed is still due: try again soon, not at once.
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        if due.len() as i64 == BATCH {
            continue;
        }
        let next = host.store.next_wake().await.unwrap_or_else(|error| {
            tracing::warn!(%error, "the deadline scheduler could not read the next deadline");
            None
        });
        let recheck = clock.now_millis() + RECHECK_MS;
        let until = next.map_or(recheck, |at| at.min(recheck));
        tokio::select! {
            () = clock.sleep_until(until) => {}
            () = host.wake.notified() => {}
        }
    }
}
