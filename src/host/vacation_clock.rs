//! What a vacation does to a lobby's open step (docs/identity.md, "Vacations"): a deadline that
//! falls while a prompted, bound player who has not answered is away waits for the vacation's
//! end, once per step and at most 14 days, in lobbies that allow it; a miss that falls due
//! during the player's vacation is excused. Pure: the host passes the vacations in, read
//! before the lobby's transaction (`deadlines.rs`).

use uuid::Uuid;

use super::timing;
use crate::error::AppError;
use crate::rules::Game;
use crate::store::{Holding, Outcome, ProfileRecord, Snapshot, StepClock, VacationRow};

const DAY_MILLIS: i64 = 24 * 60 * 60 * 1000;
/// The most a vacation moves a deadline.
pub(super) const MOVE_MILLIS: i64 = 14 * DAY_MILLIS;

/// Whether `profile` is on vacation at `at` (a vacation holds from its start to its end,
/// both included: a deadline moved to a vacation's end still falls in it).
fn away_at(vacations: &[VacationRow], profile: Uuid, at: i64) -> Option<&VacationRow> {
    vacations
        .iter()
        .find(|v| v.profile == profile && v.from <= at && at <= v.until)
}

/// The clock of the open step moved for a vacation, if its deadline falls while a prompted,
/// bound player who has not answered is away, the lobby allows it, and no vacation moved
/// it yet: to the latest such vacation's end, at most 14 days after the deadline, with
/// `moved_from` the deadline it had. None: the step resolves as it is.
pub(super) fn moved_clock<G: Game>(
    snapshot: &Snapshot,
    state: &G::State,
    vacations: &[VacationRow],
    now: i64,
) -> Result<Option<StepClock>, AppError> {
    let clock = snapshot.lobby.clock;
    let settings = timing::Timing::parse(&snapshot.lobby.timing)?;
    let Some(deadline) = clock.deadline_at else {
        return Ok(None);
    };
    if clock.moved_from.is_some() || !settings.vacation_moves() || vacations.is_empty() {
        return Ok(None);
    }
    let main_step = G::step(state) == G::MAIN_STEP;
    let end = G::owes(state)
        .into_iter()
        .filter_map(|seat| {
            let player = snapshot.players.get(seat.0)?;
            let binding = player.binding.filter(|b| b.holding == Holding::Bound)?;
            let answered = snapshot.orders.iter().any(|o| o.player_id == player.id)
                || (main_step && player.fallback.is_some());
            match answered {
                true => None,
                false => away_at(vacations, binding.profile, deadline).map(|v| v.until),
            }
        })
        .max();
    let Some(end) = end else {
        return Ok(None);
    };
    let moved = end.min(deadline + MOVE_MILLIS);
    if moved <= now {
        return Ok(None);
    }
    Ok(Some(StepClock {
        moved_from: Some(deadline),
        ..timing::set(now, moved - now, &settings.reminders_ms())
    }))
}

/// Turns the misses among `records` that fell due (at `due`) during their player's vacation
/// into excuses.
pub(super) fn excuse_vacations(records: &mut [ProfileRecord], vacations: &[VacationRow], due: i64) {
    for record in records {
        if let ProfileRecord::Owed {
            profile, outcome, ..
        } = record
            && *outcome == Outcome::Missed
            && away_at(vacations, *profile, due).is_some()
        {
            *outcome = Outcome::Excused;
        }
    }
}
