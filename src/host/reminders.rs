//! The host's "Remind" (docs/notifications.md, "Reminders"): one notice, "Your answer is due",
//! sent to one player who owes an answer to the open step, through that player's own
//! notifications, at most once per player and step. The host decides who may be reminded; the
//! store writes the reminder with its deliveries in one transaction, or nothing; the delivery
//! worker sends it as any other delivery.

use std::collections::HashSet;

use serde::Serialize;
use uuid::Uuid;

use super::auth::{Presented, require_host};
use super::controls::seated;
use super::play::running_state;
use super::timing::rfc3339;
use super::{GameKind, Host, with_game};
use crate::error::AppError;
use crate::rules::{Game, Seat};
use crate::store::{NewReminder, PlayerRow, Reminded, Snapshot};

/// What the API answers to a reminder on its way.
#[derive(Clone, Debug, Serialize)]
pub struct ReminderReceipt {
    pub player_id: Uuid,
    pub round: u32,
    pub step: String,
    /// When it was queued (RFC 3339 UTC).
    pub reminded_at: String,
}

/// Where the panel's seats stand for a reminder in the open step: whom the host reminded
/// already, and who has a working destination of their own.
#[derive(Clone, Debug, Default)]
pub struct ReminderMarks {
    pub reminded: HashSet<Uuid>,
    pub reachable: HashSet<Uuid>,
}

/// The reminder `player` may be sent now: an answer to the open step is due from them and
/// not in; a 409 otherwise (the game not running, or nothing owed).
fn due_reminder<G: Game>(snapshot: &Snapshot, player: &PlayerRow) -> Result<NewReminder, AppError> {
    let state = running_state::<G>(snapshot)?;
    let lobby = &snapshot.lobby;
    let owes = G::owes(&state).contains(&Seat(player.seat));
    let answered = snapshot.orders.iter().any(|o| o.player_id == player.id);
    let step = match (owes, answered, &lobby.step) {
        (true, false, Some(step)) => step.clone(),
        (_, true, _) => {
            return Err(AppError::conflict(
                "nothing-owed",
                format!(
                    "{}'s answer to this step is in: there is nothing to remind them of.",
                    player.name
                ),
            ));
        }
        _ => {
            return Err(AppError::conflict(
                "nothing-owed",
                format!(
                    "{} owes no answer in this step: there is nothing to remind them of.",
                    player.name
                ),
            ));
        }
    };
    Ok(NewReminder {
        lobby: lobby.id,
        player: player.id,
        step_seq: lobby.step_seq,
        round: lobby.round,
        step,
    })
}

impl Host {
    /// Reminds `player_id` that their answer to the open step is due (host only).
    pub async fn remind(
        &self,
        id: Uuid,
        token: Option<&str>,
        player_id: &str,
    ) -> Result<ReminderReceipt, AppError> {
        let snapshot = self.snapshot(id).await?;
        require_host(&snapshot, &Presented::new(token))?;
        let player = seated(&snapshot, player_id)?;
        let kind: GameKind = snapshot.lobby.game_kind()?;
        let reminder = with_game!(kind, G => due_reminder::<G>(&snapshot, player)?);
        let now = self.store.clock().now_millis();
        match self.store.record_reminder(&reminder, now).await? {
            Reminded::Queued { .. } => {}
            Reminded::Already => {
                return Err(AppError::conflict(
                    "already-reminded",
                    format!("{} was reminded of this step already.", player.name),
                ));
            }
            Reminded::Nowhere => {
                return Err(AppError::rejected(
                    "no-notifications",
                    format!(
                        "{} has no notifications set up: remind them in the thread.",
                        player.name
                    ),
                ));
            }
        }
        self.outbox.notify_one();
        Ok(ReminderReceipt {
            player_id: player.id,
            round: reminder.round,
            step: reminder.step,
            reminded_at: rfc3339(now),
        })
    }

    /// Whom the host reminded of the open step, and who can be reminded at all.
    pub async fn reminder_marks(&self, id: Uuid) -> Result<ReminderMarks, AppError> {
        let snapshot = self.snapshot(id).await?;
        Ok(ReminderMarks {
            reminded: self.store.reminded(id, snapshot.lobby.step_seq).await?,
            reachable: self.store.reachable_players(id).await?,
        })
    }

    /// The round and step in words of the reminder of `player` for step `step_seq`, and
    /// whether that step is still the open one; for the reminder's notice.
    pub async fn reminder_of(
        &self,
        id: Uuid,
        player: Uuid,
        step_seq: i64,
    ) -> Result<Option<(u32, String, bool)>, AppError> {
        let snapshot = self.snapshot(id).await?;
        let open = snapshot.lobby.step_seq == step_seq;
        Ok(self
            .store
            .reminder(id, player, step_seq)
            .await?
            .map(|(round, step)| (round, step, open)))
    }
}
