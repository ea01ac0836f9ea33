//! Checking a profile's reliability record against the stored steps (docs/identity.md,
//! "Reliability"): each step's reveal names every owed seat with where its order came from,
//! so the record of a lobby that still exists can be recomputed from its steps alone, but
//! for the excuses (the host's, and a vacation's, decided by the step's deadline, which the
//! steps do not hold), which are carried over. A lobby the
//! retention sweep deleted has only its record left; it is kept as it is.

use serde::Serialize;

use super::Host;
use super::names::name_key;
use super::reliability::{Reliability, owed_from_steps, reliability};
use crate::error::AppError;
use crate::store::{Holding, Outcome, OwedRow};

/// A profile's record as stored and as recomputed from the stored steps.
#[derive(Clone, Debug, Serialize)]
pub struct RecordCheck {
    pub stored: Reliability,
    pub recomputed: Reliability,
    /// The rows of each, for the lobbies that still exist, in one order.
    #[serde(skip)]
    pub stored_rows: Vec<OwedRow>,
    #[serde(skip)]
    pub recomputed_rows: Vec<OwedRow>,
}

impl Host {
    /// The record of `handle`'s profile, stored and recomputed.
    pub async fn check_record(&self, handle: &str) -> Result<RecordCheck, AppError> {
        let profile = self
            .store
            .profile_by_handle(&name_key(handle))
            .await?
            .ok_or_else(|| {
                AppError::not_found(
                    "unknown-profile",
                    format!("There is no profile {handle:?}."),
                )
            })?;
        let now = self.store.clock().now_millis();
        let stored_all = self.store.owed_steps(profile.id, i64::MIN).await?;
        let mut stored_rows = Vec::new();
        let mut recomputed_rows = Vec::new();
        // Deleted lobbies' rows are kept as they are, on both sides.
        let mut kept = Vec::new();
        for game in self.store.profile_games(profile.id).await? {
            if game.holding != Holding::Bound {
                continue;
            }
            let mine = stored_all
                .iter()
                .filter(|r| r.lobby == game.lobby && r.player == game.player);
            if game.status.is_none() {
                kept.extend(mine.cloned());
                continue;
            }
            stored_rows.extend(mine.clone().cloned());
            let steps = self.store.steps(game.lobby, None).await?;
            let steps: Vec<_> = steps
                .into_iter()
                .filter(|s| game.ended_seq.is_none_or(|end| s.seq < end))
                .collect();
            for (step_seq, round, step, outcome, due_at) in owed_from_steps(&steps, game.player) {
                // An excuse (the host's, or a vacation's) is not in the steps: carried over.
                let excuse = mine
                    .clone()
                    .find(|r| r.step_seq == step_seq && r.outcome == Outcome::Excused);
                let (outcome, excused_by, reason) = match (outcome, excuse) {
                    (Outcome::Missed, Some(r)) => {
                        (Outcome::Excused, r.excused_by, r.reason.clone())
                    }
                    (outcome, _) => (outcome, None, None),
                };
                recomputed_rows.push(OwedRow {
                    lobby: game.lobby,
                    player: game.player,
                    step_seq,
                    round,
                    step,
                    due_at,
                    outcome,
                    excused_by,
                    reason,
                });
            }
        }
        let order = |r: &OwedRow| (r.lobby, r.player, r.step_seq);
        stored_rows.sort_by_key(order);
        recomputed_rows.sort_by_key(order);
        let with_kept = |rows: &[OwedRow]| {
            let mut all = rows.to_vec();
            all.extend(kept.iter().cloned());
            all
        };
        Ok(RecordCheck {
            stored: reliability(&with_kept(&stored_rows), now),
            recomputed: reliability(&with_kept(&recomputed_rows), now),
            stored_rows,
            recomputed_rows,
        })
    }
}
