//! Wall-clock time for the imperative shell (the rules core never reads a clock).
//!
//! Everything that stamps or waits for an instant (events, receipts, deadlines, expiry) asks
//! a [`Clock`], so that tests can move time instead of sleeping: a [`Clock::manual`] clock
//! stands still until the test sets or advances it, and wakes whoever waits on it then.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::watch;

/// Milliseconds since the Unix epoch, by the system's clock.
pub fn system_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// A source of the current instant, shared by cloning.
#[derive(Clone, Debug)]
pub struct Clock {
    source: Arc<Source>,
}

#[derive(Debug)]
enum Source {
    System,
    /// A clock that moves only when told; `moved` wakes those waiting on it.
    Manual {
        millis: AtomicI64,
        moved: watch::Sender<()>,
    },
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::system()
    }
}

impl Clock {
    /// The system's clock: what the server runs on.
    pub fn system() -> Clock {
        Clock {
            source: Arc::new(Source::System),
        }
    }

    /// A clock standing at `millis` (since the Unix epoch) until [`Clock::set`] or
    /// [`Clock::advance`] moves it: what tests run on.
    pub fn manual(millis: i64) -> Clock {
        Clock {
            source: Arc::new(Source::Manual {
                millis: AtomicI64::new(millis),
                moved: watch::channel(()).0,
            }),
        }
    }

    /// Milliseconds since the Unix epoch.
    pub fn now_millis(&self) -> i64 {
        match &*self.source {
            Source::System => system_millis(),
            Source::Manual { millis, .. } => millis.load(Ordering::SeqCst),
        }
    }

    /// Moves a manual clock to `millis` and wakes its waiters. A system clock cannot be moved:
    /// calling this on one is a programming error.
    pub fn set(&self, to: i64) {
        match &*self.source {
            Source::System => panic!("the system clock cannot be set"),
            Source::Manual { millis, moved } => {
                millis.store(to, Ordering::SeqCst);
                moved.send_replace(());
            }
        }
    }

    /// Moves a manual clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        let by = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.set(self.now_millis().saturating_add(by));
    }

    /// Completes once the clock reads `at` (milliseconds since the Unix epoch) or later.
    pub async fn sleep_until(&self, at: i64) {
        match &*self.source {
            Source::System => loop {
                let left = at.saturating_sub(system_millis());
                if left <= 0 {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(left.unsigned_abs())).await;
            },
            Source::Manual { millis, moved } => {
                let mut moved = moved.subscribe();
                while millis.load(Ordering::SeqCst) < at {
                    if moved.changed().await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_clock_wakes_its_sleepers_only_when_moved_past_their_instant() {
        let clock = Clock::manual(1_000);
        let sleeper = tokio::spawn({
            let clock = clock.clone();
            async move { clock.sleep_until(5_000).await }
        });
        tokio::task::yield_now().await;
        clock.advance(Duration::from_millis(3_000));
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished(), "4,000 is not 5,000 yet");
        clock.set(5_000);
        tokio::time::timeout(Duration::from_secs(5), sleeper)
            .await
            .expect("woken at 5,000")
            .unwrap();
        assert_eq!(clock.now_millis(), 5_000);
    }

    #[tokio::test]
    async fn the_system_clock_sleeps_until_an_instant_already_past_at_once() {
        let clock = Clock::system();
        let before = clock.now_millis();
        clock.sleep_until(before - 10).await;
        assert!(clock.now_millis() >= before);
    }
}
