//! The delivery worker: one task per process, off the request path, that claims due deliveries
//! from the outbox (`store/deliveries.rs`) and sends each in a task of its own. On SQLite it is
//! also handed what the writer queues, leased to it, as each batch commits
//! (`store/handoff.rs`): those need no claim.
//!
//! - It claims when this process commits an event someone may be owed and did not hand the
//!   deliveries over (`Host::commit` notifies it), when the earliest pending delivery falls
//!   due by the store's clock (so tests move the clock instead of sleeping through a
//!   backoff), when a recorded attempt scheduled a retry, when another process announces that it
//!   queued deliveries (PostgreSQL, `store/pg_listen.rs`), and every [`RECHECK`] of real time
//!   in case such an announcement was lost.
//! - A webhook's request (formatting, signing, the HTTP exchange) runs on a thread of its
//!   own, `herald-deliver`, whose CPU priority is lower than the orders' by the operator's
//!   nice increment (`Settings::nice`): under a load that fills the machine, orders get the
//!   CPU first and requests the rest. Everything that touches the store (claims, each
//!   notice's reads, mail's unsubscribe token, the record of attempts) stays on the server's
//!   runtime: a database connection opened on the delivery thread's runtime would belong to
//!   its reactor, so an order's query on it would wait for the slow thread, and the
//!   connection would break when that runtime stops.
//! - A slow or dead receiver holds at most [`PER_TARGET`] tasks, and all receivers together at
//!   most [`IN_FLIGHT`]; orders never wait for any of it, since the outbox rows were written by
//!   then and nothing here holds a lobby's lock.
//! - Every attempt is recorded; a failure or a 5xx, 408 or 429 is retried after an exponential
//!   backoff with jitter (or the receiver's `Retry-After`), until [`MAX_ATTEMPTS`] attempts or
//!   [`MAX_AGE_MS`] since the event, when the delivery is dead and its destination disabled.
//! - A delivery is sent once by the worker that holds it, from its claim (or hand-off) to its
//!   record, even when its lease runs out meanwhile and a claim takes the row again
//!   (`held.rs`): only another process takes over a lease that ran out.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::RngExt;
use tokio::sync::{Notify, Semaphore, mpsc};
use tokio::task::JoinHandle;
use uuid::Uuid;

use super::held::Held;
use super::send::{Outcome, Sender};
use crate::host::Host;
use crate::store::{Attempt, Claimed, Finished, Settled};

/// How often, in real time, the worker looks for deliveries another process queued whose
/// announcement it missed.
pub const RECHECK: Duration = Duration::from_secs(2);
/// Deliveries claimed per round trip.
const BATCH: i64 = 64;
/// How long the worker lets commits gather after one wakes it, and the recorder lets attempts
/// finish, before each writes: claims and records are transactions of their own (an fsync each
/// on SQLite, beside the lobbies' writer), so a busy server must not pay one per commit. A
/// notification leaves at most this much later.
const LINGER: Duration = Duration::from_millis(50);
/// How long a claim holds a delivery (store-clock ms): longer than any attempt takes.
pub const LEASE_MS: i64 = 120_000;
/// Deliveries in flight to one destination at once.
pub const PER_TARGET: usize = 4;
/// Destinations remembered before unused ones are forgotten.
const PRUNE_AT: usize = 4096;
/// Deliveries in flight at once in this process.
const IN_FLIGHT: usize = 128;
/// The first retry's delay; each later one doubles, up to [`MAX_DELAY_MS`].
pub const BASE_DELAY_MS: i64 = 5_000;
pub const MAX_DELAY_MS: i64 = 3_600_000;
/// Attempts before a delivery is given up.
pub const MAX_ATTEMPTS: i64 = 10;
/// Age after which a delivery is given up whatever its attempts (a day).
pub const MAX_AGE_MS: i64 = 86_400_000;

/// The running worker; dropping it stops the task (deliveries in flight end with it, and their
/// leases run out for another process or the next start to take them).
#[derive(Debug)]
pub struct Worker {
    task: JoinHandle<()>,
    /// Its registration for the SQLite writer's hand-off, dropped with it (after the task is
    /// aborted), so that the writer stops handing deliveries to it at once.
    _taking: Option<crate::store::Taking>,
}

/// The deliveries the SQLite writer hands this worker as its batches commit
/// (`store/handoff.rs`); None on PostgreSQL.
type Handed = Option<mpsc::UnboundedReceiver<Vec<Claimed>>>;

/// A worker's lease owner's name and its hand-off registration, made before its task starts
/// (so that a worker is handed every delivery queued once it exists).
fn register(host: &Host) -> (String, Option<crate::store::Taking>, Handed) {
    let owner = Uuid::new_v4().to_string();
    match host.take_deliveries(&owner, LEASE_MS) {
        Some((taking, handed)) => (owner, Some(taking), Some(handed)),
        None => (owner, None, None),
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Starts this process's delivery worker, building its sender inside the worker's task: the
/// HTTP client loads the system's root certificates, which takes a while, and a server must
/// not wait for that before it listens for its shutdown signal. A sender that cannot be built
/// (a bad `HERALD_SMTP_URL`) is logged, and nothing is delivered.
pub fn spawn_building(host: Host, settings: super::Settings) -> Worker {
    let (owner, taking, handed) = register(&host);
    Worker {
        task: tokio::spawn(async move {
            let clock = host.clock().clone();
            match Sender::new(settings, clock) {
                Ok(sender) => work(host, sender, owner, handed).await,
                Err(error) => tracing::error!(%error, "notifications are off"),
            }
        }),
        _taking: taking,
    }
}

/// Starts this process's delivery worker (needs a tokio runtime).
pub fn spawn(host: Host, sender: Sender) -> Worker {
    let (owner, taking, handed) = register(&host);
    Worker {
        task: tokio::spawn(work(host, sender, owner, handed)),
        _taking: taking,
    }
}

/// Attempts recorded per transaction, at most.
const RECORD_BATCH: usize = 256;

/// Aborts a task when dropped (the recorder, when the worker's task is aborted).
struct AbortOnDrop(JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The thread attempts run on (see the module's doc): a single-threaded runtime, stopped
/// when this is dropped, with the tasks it still runs.
struct Deliverers {
    handle: tokio::runtime::Handle,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Deliverers {
    fn start(nice: i32) -> std::io::Result<Deliverers> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .thread_name("herald-deliver")
            .build()?;
        let handle = runtime.handle().clone();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("herald-deliver".into())
            .spawn(move || {
                lower_priority(nice);
                let _ = runtime.block_on(stopped);
            })?;
        Ok(Deliverers {
            handle,
            _stop: stop,
        })
    }
}

/// Lowers the calling thread's CPU priority by `nice` (Linux: a thread's nice value is its
/// own, and threads it starts inherit it). Raising one's own nice value needs no privilege.
fn lower_priority(nice: i32) {
    if nice == 0 {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let me = Some(rustix::thread::gettid());
        let lowered = rustix::process::getpriority_process(me)
            .and_then(|now| rustix::process::setpriority_process(me, (now + nice).min(19)));
        if let Err(error) = lowered {
            tracing::warn!(
                %error,
                "notifications: the delivery thread keeps the orders' CPU priority"
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    tracing::info!("notifications: the delivery thread's priority is lowered on Linux only");
}

/// The worker: claims in this task, records in another, attempts on the delivery thread.
async fn work(host: Host, sender: Sender, owner: String, handed: Handed) {
    let deliverers = match Deliverers::start(sender.nice()) {
        Ok(deliverers) => deliverers,
        Err(error) => {
            tracing::error!(%error, "notifications are off: the delivery thread did not start");
            return;
        }
    };
    let (finished, results) = mpsc::unbounded_channel();
    let shared = Arc::new(Shared {
        host: host.clone(),
        sender,
        owner,
        per_target: Mutex::default(),
        in_flight: Arc::new(Semaphore::new(IN_FLIGHT)),
        finished,
        wake: host.outbox_wake(),
        attempts: deliverers.handle.clone(),
        held: Held::default(),
    });
    let _recorder = AbortOnDrop(tokio::spawn(record(shared.clone(), results)));
    run(shared, handed).await;
    drop(deliverers);
}

/// Records finished attempts, as many per transaction as have finished meanwhile.
async fn record(shared: Arc<Shared>, mut results: mpsc::UnboundedReceiver<Finished>) {
    let mut batch = Vec::with_capacity(RECORD_BATCH);
    while results.recv_many(&mut batch, RECORD_BATCH).await > 0 {
        if batch.len() < RECORD_BATCH {
            tokio::time::sleep(LINGER).await;
            while batch.len() < RECORD_BATCH {
                match results.try_recv() {
                    Ok(finished) => batch.push(finished),
                    Err(_) => break,
                }
            }
        }
        // A retry may now be due sooner than the worker waits for; nothing else recorded
        // here makes a delivery due.
        let retries = batch
            .iter()
            .any(|f| matches!(f.settled, Settled::Retry { .. }));
        let written = shared.host.finish_deliveries(&shared.owner, &batch).await;
        shared.held.recorded(&batch, written.is_ok());
        match written {
            Ok(0) => {}
            Ok(lost) => tracing::info!(
                lost,
                "notifications: leases ran out before their attempts ended; another worker took them"
            ),
            // A full storage is reported once per interval, whoever meets it.
            Err(error) if error.is_storage_full() => crate::store::report_storage_full(&error),
            Err(error) => tracing::warn!(
                %error,
                "notifications: recording attempts failed; their leases will run out and they are retried"
            ),
        }
        batch.clear();
        if retries {
            shared.wake.notify_one();
        }
    }
}

struct Shared {
    host: Host,
    sender: Sender,
    /// This worker's name on its leases.
    owner: String,
    per_target: Mutex<HashMap<Uuid, Arc<Semaphore>>>,
    in_flight: Arc<Semaphore>,
    /// Where finished attempts go to be recorded (`record`).
    finished: mpsc::UnboundedSender<Finished>,
    /// Wakes the claiming loop (commits in this process, recorded attempts).
    wake: Arc<Notify>,
    /// The delivery thread's runtime, where webhooks' requests are made.
    attempts: tokio::runtime::Handle,
    /// What this worker holds, so that a claim that takes a held row again does not send it
    /// twice.
    held: Held,
}

/// Claims what is due, then waits for what may make more due, sending what the SQLite writer
/// hands over meanwhile without a claim.
async fn run(shared: Arc<Shared>, mut handed: Handed) {
    let wake = shared.wake.clone();
    let elsewhere = shared.host.wakes().clone();
    let clock = shared.host.clock().clone();
    loop {
        let now = clock.now_millis();
        shared.held.claim_begins();
        let claimed = match shared
            .host
            .claim_deliveries(&shared.owner, now, now + LEASE_MS, BATCH)
            .await
        {
            Ok(claimed) => claimed,
            Err(error) => {
                // A full storage is reported once per interval, whoever meets it.
                match error.is_storage_full() {
                    true => crate::store::report_storage_full(&error),
                    false => tracing::warn!(%error, "notifications: claiming deliveries failed"),
                }
                Vec::new()
            }
        };
        let full = claimed.len() as i64 == BATCH;
        let claimed = shared.held.claimed(claimed);
        shared.deliver_all(claimed);
        if full {
            continue;
        }
        let next = match shared.host.next_delivery_at().await {
            Ok(Some(next)) if next > now => Some(next),
            _ => None,
        };
        let recheck = tokio::time::sleep(RECHECK);
        tokio::pin!(recheck);
        loop {
            let woke = tokio::select! {
                batch = async {
                    match &mut handed {
                        Some(handed) => handed.recv().await,
                        None => std::future::pending().await,
                    }
                } => Woke::Handed(batch),
                () = wake.notified() => Woke::Claim { linger: true },
                () = elsewhere.outbox.notified() => Woke::Claim { linger: true },
                () = &mut recheck => Woke::Claim { linger: false },
                () = async {
                    match next {
                        Some(next) => clock.sleep_until(next).await,
                        None => std::future::pending().await,
                    }
                } => Woke::Claim { linger: false },
                () = shared.host.closed() => return,
            };
            match woke {
                Woke::Handed(Some(mut batch)) => {
                    // Let a moment's commits gather, as a claim does: their deliveries then
                    // wake the delivery thread (and the receivers) once together, not each.
                    tokio::time::sleep(LINGER).await;
                    if let Some(handed) = &mut handed {
                        while let Ok(more) = handed.try_recv() {
                            batch.extend(more);
                        }
                    }
                    let batch = shared.held.handed(batch);
                    shared.deliver_all(batch);
                }
                // Another worker of this process registered for the hand-off.
                Woke::Handed(None) => handed = None,
                Woke::Claim { linger } => {
                    if linger {
                        tokio::time::sleep(LINGER).await;
                    }
                    break;
                }
            }
        }
    }
}

/// What woke the waiting worker.
enum Woke {
    /// The SQLite writer handed over a committed batch's deliveries (None: it never will again).
    Handed(Option<Vec<Claimed>>),
    /// Something may be due: claim (after letting commits gather, if `linger`).
    Claim { linger: bool },
}

impl Shared {
    /// Sends each of `deliveries` in a task of its own.
    fn deliver_all(self: &Arc<Self>, deliveries: Vec<Claimed>) {
        for delivery in deliveries {
            let shared = self.clone();
            tokio::spawn(async move { shared.deliver(delivery).await });
        }
    }

    fn target_slots(&self, target: Uuid) -> Arc<Semaphore> {
        let mut slots = self.per_target.lock().unwrap_or_else(|e| e.into_inner());
        // Destinations come and go: forget those no delivery is using, now and then, so that
        // the map does not grow with every destination ever served.
        if slots.len() >= PRUNE_AT {
            slots.retain(|_, slots| Arc::strong_count(slots) > 1);
        }
        slots
            .entry(target)
            .or_insert_with(|| Arc::new(Semaphore::new(PER_TARGET)))
            .clone()
    }

    async fn deliver(&self, delivery: Claimed) {
        let slots = self.target_slots(delivery.target_id);
        let (Ok(_slot), Ok(_flight)) = (slots.acquire().await, self.in_flight.acquire().await)
        else {
            self.held.dropped(&delivery);
            return;
        };
        let outcome = self
            .sender
            .send(&self.host, &delivery, &self.attempts)
            .await;
        let clock = self.host.clock();
        let now = clock.now_millis();
        let settled = settle(&delivery, &outcome, now);
        let attempt = Attempt {
            at: now,
            status: outcome.status(),
            error: outcome.error(),
        };
        let _ = self.finished.send(Finished {
            claimed: delivery,
            attempt,
            settled,
        });
    }
}

/// What follows from an attempt's outcome at `now`.
fn settle(delivery: &Claimed, outcome: &Outcome, now: i64) -> Settled {
    let attempts = delivery.attempts + 1;
    match outcome {
        Outcome::Delivered { .. } => Settled::Delivered,
        Outcome::Refused { .. } | Outcome::Permanent { .. } => Settled::Dead,
        Outcome::Transient { retry_after, .. } => {
            let delay = match retry_after {
                Some(after) => (*after).clamp(1_000, MAX_DELAY_MS),
                None => backoff(attempts, &mut rand::rng()),
            };
            let at = now.saturating_add(delay);
            if attempts >= MAX_ATTEMPTS || at - delivery.created_at > MAX_AGE_MS {
                Settled::Dead
            } else {
                Settled::Retry { at }
            }
        }
    }
}

/// The delay before attempt `attempts + 1`: `BASE * 2^(attempts-1)` capped, less a random part
/// of up to half of it (jitter, so that receivers back from an outage are not hit by every
/// sender at the same instant).
pub fn backoff(attempts: i64, rng: &mut impl rand::Rng) -> i64 {
    let exponent = u32::try_from((attempts - 1).clamp(0, 20)).unwrap_or(20);
    let full = BASE_DELAY_MS
        .saturating_mul(1_i64 << exponent)
        .min(MAX_DELAY_MS);
    full - rng.random_range(0..=full / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_its_cap_with_at_most_half_taken_off() {
        let mut rng = rand::rng();
        for attempts in 1..15 {
            let full = (BASE_DELAY_MS << (attempts - 1).min(20)).min(MAX_DELAY_MS);
            for _ in 0..50 {
                let delay = backoff(attempts, &mut rng);
                assert!(delay <= full && delay >= full / 2, "{attempts}: {delay}");
            }
        }
    }

    fn claimed(attempts: i64) -> Claimed {
        Claimed {
            id: "t.1".into(),
            target_id: Uuid::nil(),
            owner: crate::store::Owner::Lobby(Uuid::nil()),
            event_seq: Some(1),
            kind: "started".into(),
            attempts,
            created_at: 0,
            target: None,
            event: None,
        }
    }

    /// A thread's nice value, from `/proc` (field 19 of its `stat`; the name before it, in
    /// parentheses, may hold spaces).
    #[cfg(target_os = "linux")]
    fn nice_of(stat: &str) -> i32 {
        let text = std::fs::read_to_string(stat).unwrap();
        let after_name = &text[text.rfind(')').unwrap() + 2..];
        after_name.split(' ').nth(16).unwrap().parse().unwrap()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn attempts_run_on_the_delivery_thread_below_the_orders_priority() {
        let ours = nice_of("/proc/thread-self/stat");
        let deliverers = Deliverers::start(7).unwrap();
        let (tell, told) = tokio::sync::oneshot::channel();
        deliverers.handle.spawn(async move {
            let name = std::thread::current().name().map(str::to_string);
            let _ = tell.send((name, nice_of("/proc/thread-self/stat")));
        });
        let (name, nice) = told.blocking_recv().unwrap();
        assert_eq!(name.as_deref(), Some("herald-deliver"));
        assert_eq!(nice, (ours + 7).min(19));
        assert_eq!(
            nice_of("/proc/thread-self/stat"),
            ours,
            "the caller's is unchanged"
        );
    }

    #[test]
    fn retry_after_is_honoured_and_the_last_attempt_is_dead() {
        let transient = Outcome::Transient {
            status: Some(429),
            error: "429".into(),
            retry_after: Some(30_000),
        };
        assert!(matches!(
            settle(&claimed(0), &transient, 1_000),
            Settled::Retry { at: 31_000 }
        ));
        assert!(matches!(
            settle(&claimed(MAX_ATTEMPTS - 1), &transient, 1_000),
            Settled::Dead
        ));
        assert!(matches!(
            settle(&claimed(0), &transient, MAX_AGE_MS),
            Settled::Dead
        ));
    }
}
