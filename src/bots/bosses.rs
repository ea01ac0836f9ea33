//! The ladder's boss bots played in the process (docs/bots.md, "The boss bots"): one task per
//! boss that does what a bot on the profile stream does, without the HTTP. It listens to the
//! boss's bell (a new seat) and to the turns of each seat's lobby in the store's feed (another
//! process's commits arrive there on PostgreSQL), asks the host where the seat stands, and
//! answers an owed prompt with the boss's strategy through `Host::submit_once`. Every process
//! with the ladder on plays the bosses; when two answer the same prompt, one order is stored
//! and the other is refused, so each step is answered once.

use std::collections::{HashMap, VecDeque};
use std::pin::Pin;

use futures_util::stream::{AbortHandle, Abortable, SelectAll};
use futures_util::{Stream, StreamExt};
use rand::SeedableRng;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;
use tokio::task::JoinHandle;
use uuid::Uuid;

use super::policy;
use crate::error::AppError;
use crate::host::Host;
use crate::host::ladder::bosses::Boss;
use crate::host::profile_stream::SeatNow;
use crate::store::Status;

/// How often (store-clock ms) a boss looks at every seat again, should a wake-up be lost
/// (another process's announcement missed while its listener reconnected).
const RECHECK_MS: i64 = 30_000;

/// One lobby's turns, as the lobby's id each time it turns.
type Turns = Pin<Box<dyn Stream<Item = Uuid> + Send>>;

/// The bosses being played; dropping it stops them.
#[derive(Debug, Default)]
pub struct BossPlayers {
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for BossPlayers {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// Starts playing `bosses` in this process.
pub fn spawn(host: &Host, bosses: Vec<Boss>) -> BossPlayers {
    BossPlayers {
        tasks: bosses
            .into_iter()
            .map(|boss| tokio::spawn(play(host.clone(), boss)))
            .collect(),
    }
}

/// A boss's seats and what is left to look at.
struct Seats {
    host: Host,
    boss: Boss,
    rng: rand_chacha::ChaCha8Rng,
    turns: SelectAll<Turns>,
    followed: HashMap<Uuid, AbortHandle>,
    due: VecDeque<Uuid>,
}

async fn play(host: Host, boss: Boss) {
    let mut bell = host.bell_of(boss.profile);
    let clock = host.clock().clone();
    let mut seats = Seats {
        rng: rand_chacha::ChaCha8Rng::seed_from_u64(rand::random()),
        host,
        boss,
        turns: SelectAll::new(),
        followed: HashMap::new(),
        due: VecDeque::new(),
    };
    let mut recount = true;
    loop {
        if recount {
            recount = false;
            if let Err(error) = seats.recount().await {
                tracing::warn!(%error, boss = %seats.boss.handle, "a boss could not read its seats");
            }
        }
        while let Some(lobby) = seats.due.pop_front() {
            if let Err(error) = seats.look(lobby).await {
                tracing::warn!(%error, %lobby, boss = %seats.boss.handle, "a boss could not answer");
            }
        }
        let recheck = clock.now_millis() + RECHECK_MS;
        tokio::select! {
            Some(lobby) = seats.turns.next() => seats.due.push_back(lobby),
            () = bell.rung() => recount = true,
            () = clock.sleep_until(recheck) => recount = true,
        }
    }
}

impl Seats {
    /// Follows every seat whose game is not over, and looks at each.
    async fn recount(&mut self) -> Result<(), AppError> {
        for seat in self.host.seat_views(self.boss.profile).await? {
            match seat.status {
                Status::Finished => {}
                Status::Signups | Status::Closed | Status::Running => {
                    self.follow(seat.lobby);
                    self.due.push_back(seat.lobby);
                }
            }
        }
        Ok(())
    }

    fn follow(&mut self, lobby: Uuid) {
        if self.followed.contains_key(&lobby) {
            return;
        }
        let (abort, registration) = AbortHandle::new_pair();
        let subscription = self.host.lobby_turns(lobby);
        let turns =
            futures_util::stream::unfold(subscription, move |mut subscription| async move {
                match subscription.recv().await {
                    Ok(_) | Err(RecvError::Lagged(_)) => Some((lobby, subscription)),
                    Err(RecvError::Closed) => None,
                }
            });
        self.turns
            .push(Box::pin(Abortable::new(turns, registration)));
        self.followed.insert(lobby, abort);
    }

    fn unfollow(&mut self, lobby: Uuid) {
        if let Some(abort) = self.followed.remove(&lobby) {
            abort.abort();
        }
    }

    /// Answers the seat in `lobby` if it owes an answer; lets it go once its game is over.
    async fn look(&mut self, lobby: Uuid) -> Result<(), AppError> {
        if !self.followed.contains_key(&lobby) {
            return Ok(());
        }
        let me = match self.host.seat_now(lobby, self.boss.profile).await? {
            SeatNow::Owes { me, .. } => me,
            SeatNow::Waiting => return Ok(()),
            SeatNow::Finished(_) | SeatNow::Gone => {
                self.unfollow(lobby);
                return Ok(());
            }
        };
        let Some(Value::Object(order)) =
            policy::answer_json(&me, self.boss.strategy, &mut self.rng)
        else {
            return Err(AppError::Internal("the strategy had no answer".into()));
        };
        match self.host.submit_once(lobby, self.boss.profile, order).await {
            Ok(_) => Ok(()),
            // Answered by another process, or the step moved on meanwhile: nothing owed.
            Err(AppError::Conflict { .. }) => Ok(()),
            Err(error) => Err(error),
        }
    }
}
