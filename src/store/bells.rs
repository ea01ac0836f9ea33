//! Profile bells: a wake-up for a profile's stream (`GET /api/v1/me/events`, docs/bots.md,
//! "One stream for all of a profile's seats") when something about the profile changed outside
//! the lobbies it already listens to: it took a new seat (a join or a claim with its key, a
//! challenge accepted, a ladder game), or a challenge to it was made. The bell carries no
//! news: a woken stream asks the host what changed, so a ring that comes twice or late costs a
//! read and nothing else.
//!
//! A lobby's change that binds a seat rings its profile after the commit (`writer.rs`);
//! another process's ring arrives in its announcement (`pg_listen.rs`). As with the feed, a
//! profile has a bell only while one of its streams listens.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;
use uuid::Uuid;

/// The bells of the profiles whose streams are open.
#[derive(Default)]
pub struct Bells {
    profiles: Mutex<HashMap<Uuid, watch::Sender<u64>>>,
}

impl Bells {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, watch::Sender<u64>>> {
        // One insert, lookup or remove under the lock: a panic cannot leave it half-changed.
        self.profiles.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Listens to `profile`'s bell from now on.
    pub fn listen(self: &Arc<Bells>, profile: Uuid) -> Bell {
        let receiver = self
            .lock()
            .entry(profile)
            .or_insert_with(|| watch::channel(0).0)
            .subscribe();
        Bell {
            receiver: Some(receiver),
            bells: Arc::clone(self),
            profile,
        }
    }

    /// Rings `profile`'s bell, if a stream of it listens here.
    pub fn ring(&self, profile: Uuid) {
        if let Some(bell) = self.lock().get(&profile) {
            bell.send_modify(|rings| *rings += 1);
        }
    }

    /// Rings every bell (another process's rings may have been lost).
    pub fn ring_all(&self) {
        for bell in self.lock().values() {
            bell.send_modify(|rings| *rings += 1);
        }
    }

    /// How many profiles have a bell now.
    pub fn held(&self) -> usize {
        self.lock().len()
    }

    fn release(&self, profile: Uuid) {
        let mut profiles = self.lock();
        if profiles
            .get(&profile)
            .is_some_and(|bell| bell.receiver_count() == 0)
        {
            profiles.remove(&profile);
        }
    }
}

/// One stream's ear on its profile's bell; dropping it frees the bell if it was the last.
pub struct Bell {
    /// Always Some until dropped.
    receiver: Option<watch::Receiver<u64>>,
    bells: Arc<Bells>,
    profile: Uuid,
}

impl Bell {
    /// Waits for the next ring (one since the last wait, if any came meanwhile).
    pub async fn rung(&mut self) {
        match &mut self.receiver {
            Some(receiver) => {
                if receiver.changed().await.is_err() {
                    // The sender lives as long as a receiver does: never here.
                    std::future::pending::<()>().await;
                }
            }
            None => std::future::pending::<()>().await,
        }
    }

    /// Whether the bell rang since the last wait or check (and marks it heard).
    pub fn take(&mut self) -> bool {
        self.receiver.as_mut().is_some_and(|receiver| {
            receiver.has_changed().unwrap_or(false) && {
                receiver.mark_unchanged();
                true
            }
        })
    }
}

impl Drop for Bell {
    fn drop(&mut self) {
        drop(self.receiver.take());
        self.bells.release(self.profile);
    }
}

impl std::fmt::Debug for Bell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bell")
            .field("profile", &self.profile)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_ring_wakes_the_profiles_streams_and_no_other() {
        let bells = Arc::new(Bells::default());
        let (ann, bob) = (Uuid::new_v4(), Uuid::new_v4());
        let (mut a1, mut a2, mut b) = (bells.listen(ann), bells.listen(ann), bells.listen(bob));
        bells.ring(ann);
        bells.ring(ann);
        assert!(a1.take() && a2.take(), "both streams of the profile hear");
        assert!(!a1.take(), "two rings before a look are one");
        assert!(!b.take());
        bells.ring(bob);
        tokio::time::timeout(std::time::Duration::from_secs(5), b.rung())
            .await
            .expect("the waiting stream wakes");
    }

    #[test]
    fn a_bell_is_kept_only_while_someone_listens() {
        let bells = Arc::new(Bells::default());
        let ann = Uuid::new_v4();
        let (one, two) = (bells.listen(ann), bells.listen(ann));
        drop(one);
        assert_eq!(bells.held(), 1);
        drop(two);
        assert_eq!(bells.held(), 0);
        bells.ring(ann);
        assert_eq!(bells.held(), 0, "a ring for nobody keeps nothing");
    }
}
