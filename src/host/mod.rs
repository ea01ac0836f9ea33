//! The game-agnostic host: lobbies, sign-ups, starting, secret orders and resolving steps.
//! It is the only layer that calls both the rules and the store; handlers call it.

pub mod anonymity;
mod archive;
pub mod auth;
pub mod chain;
pub mod challenges;
mod controls;
mod deadlines;
mod deliveries;
pub mod delivery;
pub mod engine;
mod fallback;
pub mod games;
pub mod gates;
pub mod guard;
mod holdings;
pub mod ladder;
mod lobby;
pub mod mail_sign_in;
mod missed_turns;
pub mod my_games;
pub mod names;
mod notice_facts;
mod notifications;
pub mod pages;
pub mod passkeys;
mod play;
pub mod profile_keys;
pub mod profile_seats;
pub mod profile_stream;
pub mod profiles;
mod rated;
mod receipts;
pub mod record;
pub mod reliability;
pub mod reminders;
mod resolve;
mod round_logs;
mod rounds;
mod scheduler;
mod seated_games;
pub mod seats;
pub mod sign;
pub mod sign_in;
mod signups;
pub mod substitutes;
pub mod talk;
mod talk_limits;
pub mod talk_reads;
pub mod talk_settings;
pub mod timing;
pub mod tournaments;
mod vacation_clock;
pub mod vacations;
pub mod views;
mod votes;

use uuid::Uuid;

use crate::error::AppError;
pub(crate) use crate::games::with_game;
pub use crate::store::PublicLog;
use crate::store::{Committed, Snapshot, Store, TransactError};
pub use deadlines::Fired;
pub use fallback::FallbackView;
pub use games::GameKind;
pub use lobby::Joined;
pub use notice_facts::LobbyFacts;
pub use rated::{BoardEntry, HistoryEntry, Leaderboard, ProfileRating, SeatChange};
pub use resolve::{HOST_STEP, ROUND_OPENING};
pub use rounds::{RoundSummary, RoundView};
pub use scheduler::{RECHECK_MS, Report, Scheduler};

pub use names::{MAX_NAME_CHARS, clean_name, name_key};
pub use notifications::{AttemptView, MyNotifications, WebhookCreated, WebhookView};

/// The host: the rules of each game over a store. (Listeners hear of commits from the
/// store's feed, which the writers fill in commit order.)
#[derive(Clone, Debug)]
pub struct Host {
    store: Store,
    /// Wakes this process's deadline scheduler when a change sets a clock (`scheduler.rs`).
    wake: std::sync::Arc<tokio::sync::Notify>,
    /// Wakes this process's notification worker when a change owes a delivery
    /// (`notify/worker.rs`).
    outbox: std::sync::Arc<tokio::sync::Notify>,
    /// What notifications may do here (private targets, mail, links).
    notify: std::sync::Arc<delivery::Settings>,
    /// The public logs of the rounds this process resolved lately, for their notices.
    round_logs: std::sync::Arc<round_logs::RoundLogs>,
    /// Each player's messages of the last minute, for the message allowance (`talk_limits.rs`).
    talk: std::sync::Arc<talk_limits::Limits>,
    /// The ladder's settings, when the operator turned it on (`ladder/`).
    ladder: Option<ladder::LadderSettings>,
}

impl Host {
    pub fn new(store: Store) -> Host {
        Host {
            store,
            wake: Default::default(),
            outbox: Default::default(),
            notify: Default::default(),
            round_logs: Default::default(),
            talk: Default::default(),
            ladder: None,
        }
    }

    /// This host with the operator's notification settings.
    pub fn with_notifications(mut self, settings: delivery::Settings) -> Host {
        self.notify = std::sync::Arc::new(settings);
        self
    }

    /// The notification settings.
    pub fn notify_settings(&self) -> &delivery::Settings {
        &self.notify
    }

    /// What wakes the notification worker.
    pub fn outbox_wake(&self) -> std::sync::Arc<tokio::sync::Notify> {
        self.outbox.clone()
    }

    /// The lobby's snapshot, or 404.
    async fn snapshot(&self, id: Uuid) -> Result<std::sync::Arc<Snapshot>, AppError> {
        self.store
            .snapshot(id)
            .await?
            .ok_or_else(|| lobby_not_found(id))
    }

    /// Runs a state change and wakes the lobby's listeners once it is committed.
    async fn change<T: Send + 'static>(
        &self,
        id: Uuid,
        decide: impl FnOnce(&Snapshot) -> Result<(crate::store::Change, T), AppError> + Send + 'static,
    ) -> Result<T, AppError> {
        Ok(self.commit(id, decide).await?.value)
    }

    /// [`Host::change`], answering with what the commit published (its instant included).
    async fn commit<T: Send + 'static>(
        &self,
        id: Uuid,
        decide: impl FnOnce(&Snapshot) -> Result<(crate::store::Change, T), AppError> + Send + 'static,
    ) -> Result<Committed<T>, AppError> {
        // A change that sets a clock may set one sooner than the scheduler waits for.
        let round_logs = self.round_logs.clone();
        let clock = self.store.clock().clone();
        let decide = move |snapshot: &Snapshot| {
            let (mut change, value) = decide(snapshot)?;
            rated::attach(snapshot, &mut change, clock.now_millis())?;
            let noted = round_logs.note(snapshot, &mut change);
            anonymity::keep_masks(snapshot, &mut change)?;
            chain::seal(snapshot, &mut change)?;
            let wakes = change.lobby.clock.is_some_and(|c| c.wake_at.is_some());
            let owes = change.events.iter().any(|e| e.kind.notifiable());
            let finishes = change.lobby.status == Some(crate::store::Status::Finished)
                && snapshot.lobby.status != crate::store::Status::Finished;
            Ok((change, (value, wakes, owes, noted, finishes)))
        };
        match self.store.transact(id, decide).await {
            Ok(Committed {
                value: (value, wakes, owes, noted, finishes),
                event_seq,
                at,
            }) => {
                // Kept only now: a change that failed must not be quoted.
                self.round_logs.keep(id, noted);
                if wakes {
                    self.wake.notify_one();
                }
                // Handed deliveries reach the worker with the commit (`store/handoff.rs`).
                if owes && !self.store.hands_deliveries_off() {
                    self.outbox.notify_one();
                }
                // A tournament's game: its round may be over (docs/tournaments.md).
                if finishes {
                    self.after_game_finished(id).await;
                }
                Ok(Committed {
                    value,
                    event_seq,
                    at,
                })
            }
            Err(TransactError::NotFound) => Err(lobby_not_found(id)),
            Err(TransactError::Refused(error)) => Err(error),
            Err(TransactError::Conflict) => Err(AppError::conflict(
                "concurrent-change",
                "The lobby changed while your request was being handled; nothing was stored. Please retry.",
            )),
            Err(TransactError::Database(error)) => Err(error.into()),
        }
    }
}

pub fn lobby_not_found(id: Uuid) -> AppError {
    AppError::not_found("unknown-lobby", format!("There is no lobby {id}."))
}
