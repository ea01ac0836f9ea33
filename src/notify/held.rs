//! The deliveries a worker holds (docs/notifications.md, "Nothing lost, nothing doubled"):
//! from the moment it takes one (a claim's answer or the SQLite writer's hand-off) until its
//! attempt is recorded.
//!
//! A lease is counted on the store's clock from the claim, and a delivery may outlive it in
//! the worker that took it: it waits for its destination's slot behind a slow receiver's
//! queue, its request runs on the delivery thread, which yields the CPU to the orders under
//! load, and its record waits for the next batch. The worker's next claim then takes the row
//! again, leased to the same owner; sending it once more would make one healthy process
//! deliver a message twice, which the lease exists to allow only when a process stopped. So
//! the claim's renewed lease is kept and the second send is dropped: the attempt in flight
//! settles the row under the same owner.
//!
//! A record can also land while a claim is under way, after the claim's statement took the
//! row but before its answer is read here: the claim then answers a delivery that is already
//! delivered (or dead). Records that land while a claim is under way are remembered until its
//! answer has been read, and a delivery they settled for good is not sent again. A retry's
//! record is not remembered: its row is due again, and a claim that answers it may send it.

use std::collections::HashSet;
use std::sync::Mutex;

use crate::store::{Claimed, Finished, Scope, Settled};

/// A delivery's identity: its outbox and its id there.
type Key = (Scope, String);

fn key_of(delivery: &Claimed) -> Key {
    (delivery.owner.scope(), delivery.id.clone())
}

/// What one worker holds; shared by its claiming loop, its deliveries and its recorder.
#[derive(Debug, Default)]
pub(super) struct Held {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Taken and not yet recorded.
    holding: HashSet<Key>,
    /// Whether a claim is under way (between [`Held::claim_begins`] and [`Held::claimed`]).
    claiming: bool,
    /// Delivered or dead by a record that landed while the claim under way ran.
    settled: HashSet<Key>,
}

impl Held {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A claim is about to be sent: what was recorded before it is visible to its statement.
    pub(super) fn claim_begins(&self) {
        let mut state = self.state();
        state.claiming = true;
        state.settled.clear();
    }

    /// The claim's answer: the deliveries to send, those neither held already nor settled for
    /// good while the claim ran, each now held.
    pub(super) fn claimed(&self, claimed: Vec<Claimed>) -> Vec<Claimed> {
        let mut state = self.state();
        state.claiming = false;
        let settled = std::mem::take(&mut state.settled);
        claimed
            .into_iter()
            .filter(|delivery| {
                let key = key_of(delivery);
                if settled.contains(&key) {
                    tracing::debug!(delivery = %delivery.id, "notifications: claimed after its record; not sent again");
                    return false;
                }
                let fresh = state.holding.insert(key);
                if !fresh {
                    tracing::debug!(delivery = %delivery.id, "notifications: claimed again while still held; not sent again");
                }
                fresh
            })
            .collect()
    }

    /// Deliveries handed over by the SQLite writer: new rows, held from now on.
    pub(super) fn handed(&self, handed: Vec<Claimed>) -> Vec<Claimed> {
        let mut state = self.state();
        handed
            .into_iter()
            .filter(|delivery| state.holding.insert(key_of(delivery)))
            .collect()
    }

    /// A delivery taken but never attempted (the worker is stopping).
    pub(super) fn dropped(&self, delivery: &Claimed) {
        self.state().holding.remove(&key_of(delivery));
    }

    /// Attempts whose record was written (`recorded`) or failed to be: held no longer. A
    /// failed record leaves the rows leased, to be claimed and sent again once the leases run
    /// out, so only a written one can settle anything.
    pub(super) fn recorded(&self, finished: &[Finished], recorded: bool) {
        let mut state = self.state();
        for done in finished {
            let key = key_of(&done.claimed);
            state.holding.remove(&key);
            let settled = matches!(done.settled, Settled::Delivered | Settled::Dead);
            if recorded && settled && state.claiming {
                state.settled.insert(key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Attempt, Owner};
    use uuid::Uuid;

    fn delivery(id: &str) -> Claimed {
        Claimed {
            id: id.into(),
            target_id: Uuid::nil(),
            owner: Owner::Tournament(Uuid::nil()),
            event_seq: Some(1),
            kind: "round-started".into(),
            attempts: 0,
            created_at: 0,
            target: None,
            event: None,
        }
    }

    fn finished(id: &str, settled: Settled) -> Finished {
        Finished {
            claimed: delivery(id),
            attempt: Attempt {
                at: 1,
                status: Some(204),
                error: None,
            },
            settled,
        }
    }

    fn ids(claimed: &[Claimed]) -> Vec<&str> {
        claimed.iter().map(|d| d.id.as_str()).collect()
    }

    #[test]
    fn a_delivery_claimed_again_while_held_is_sent_once() {
        let held = Held::default();
        held.claim_begins();
        assert_eq!(ids(&held.claimed(vec![delivery("a.1")])), ["a.1"]);
        // Its lease ran out before its attempt was recorded: the next claim takes it again.
        held.claim_begins();
        let again = held.claimed(vec![delivery("a.1"), delivery("a.2")]);
        assert_eq!(ids(&again), ["a.2"]);
        // Once recorded as a retry, a claim that answers it sends it.
        held.recorded(&[finished("a.1", Settled::Retry { at: 5 })], true);
        held.claim_begins();
        assert_eq!(ids(&held.claimed(vec![delivery("a.1")])), ["a.1"]);
    }

    #[test]
    fn a_record_landing_during_a_claim_keeps_its_delivery_from_being_sent_again() {
        let held = Held::default();
        held.claim_begins();
        held.claimed(vec![delivery("a.1"), delivery("a.2"), delivery("a.3")]);
        held.claim_begins();
        // The claim's statement took the rows, then their records landed.
        held.recorded(
            &[
                finished("a.1", Settled::Delivered),
                finished("a.2", Settled::Dead),
                finished("a.3", Settled::Retry { at: 5 }),
            ],
            true,
        );
        let answer = held.claimed(vec![delivery("a.1"), delivery("a.2"), delivery("a.3")]);
        assert_eq!(ids(&answer), ["a.3"]);
        // What was recorded before a claim began is not remembered by it.
        held.recorded(&[finished("a.3", Settled::Delivered)], true);
        held.claim_begins();
        assert_eq!(ids(&held.claimed(vec![delivery("a.3")])), ["a.3"]);
    }

    #[test]
    fn a_record_that_failed_lets_the_delivery_be_sent_again() {
        let held = Held::default();
        assert_eq!(ids(&held.handed(vec![delivery("a.1")])), ["a.1"]);
        held.claim_begins();
        held.recorded(&[finished("a.1", Settled::Delivered)], false);
        assert_eq!(ids(&held.claimed(vec![delivery("a.1")])), ["a.1"]);
    }
}
