//! How many messages a player may send (docs/table-talk.md, "Limits"): at most
//! [`MESSAGES_PER_MINUTE`] in any minute by the host's clock, counted by this process. A
//! message costs storage and every recipient's attention; a player past the allowance hears
//! 429 with the seconds until the oldest of their last messages leaves the minute.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use uuid::Uuid;

use crate::error::AppError;

/// Messages one player may send in any minute.
pub const MESSAGES_PER_MINUTE: usize = 10;

const MINUTE_MS: i64 = 60_000;

/// Senders remembered at most before those with no message in the last minute are dropped.
const SENDERS_KEPT: usize = 4_096;

/// The instants of each sender's messages of the last minute, by (lobby, player).
#[derive(Debug, Default)]
pub struct Limits(Mutex<HashMap<(Uuid, Uuid), VecDeque<i64>>>);

impl Limits {
    /// Whether the player may send a message at `now`: 429 when they have sent
    /// [`MESSAGES_PER_MINUTE`] in the minute before it.
    pub fn check(&self, lobby: Uuid, player: Uuid, now: i64) -> Result<(), AppError> {
        let mut senders = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let Some(sent) = senders.get_mut(&(lobby, player)) else {
            return Ok(());
        };
        forget_before(sent, now);
        match (sent.len() >= MESSAGES_PER_MINUTE, sent.front()) {
            (true, Some(oldest)) => {
                let wait_ms = oldest + MINUTE_MS - now;
                Err(AppError::TooManyRequests {
                    retry_after: u64::try_from((wait_ms + 999) / 1000).unwrap_or(1).max(1),
                })
            }
            _ => Ok(()),
        }
    }

    /// Counts a message the player sent at `now`.
    pub fn count(&self, lobby: Uuid, player: Uuid, now: i64) {
        let mut senders = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if senders.len() >= SENDERS_KEPT {
            senders.retain(|_, sent| {
                forget_before(sent, now);
                !sent.is_empty()
            });
        }
        let sent = senders.entry((lobby, player)).or_default();
        forget_before(sent, now);
        sent.push_back(now);
    }
}

/// Drops the instants more than a minute before `now`.
fn forget_before(sent: &mut VecDeque<i64>, now: i64) {
    while sent.front().is_some_and(|at| *at <= now - MINUTE_MS) {
        sent.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_may_send_the_allowance_in_a_minute_and_again_once_it_has_passed() {
        let limits = Limits::default();
        let (lobby, ann, bob) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        for n in 0..MESSAGES_PER_MINUTE as i64 {
            limits.check(lobby, ann, 1_000 + n).unwrap();
            limits.count(lobby, ann, 1_000 + n);
        }
        let refused = limits.check(lobby, ann, 30_000).unwrap_err();
        assert_eq!(refused.retry_after(), Some(31));
        // Another player, or the same one in another lobby, has an allowance of their own.
        limits.check(lobby, bob, 30_000).unwrap();
        limits.check(Uuid::new_v4(), ann, 30_000).unwrap();
        // A minute after the first message, one more may go.
        limits.check(lobby, ann, 61_000).unwrap();
    }
}
