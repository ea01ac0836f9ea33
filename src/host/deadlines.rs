//! A step's deadline at work: closing a step with the orders that are in plus fallbacks and
//! defaults (the scheduler at the deadline, or the host's resolve-now), reminders, and the
//! host's clock controls (extend, pause, resume). Each is one transaction on the lobby, so a
//! step resolves once whoever gets there first (docs/deadlines.md).

use std::borrow::Cow;

use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::auth::{Presented, require_host};
use super::engine::{self, rng_for};
use super::play::running_state;
use super::resolve::{Closing, Filled, Source, resolve_step};
use super::timing::{self, Due, MAX_SECONDS, Timing};
use super::vacation_clock::{excuse_vacations, moved_clock};
use super::views::LobbyView;
use super::{GameKind, Host, with_game};
use crate::error::AppError;
use crate::events::{Deadline, EventKind};
use crate::rules::{Game, Seat};
use crate::store::{Change, NewEvent, Snapshot, StepClock, VacationRow};

/// The RNG streams of the defaults drawn for missing answers: one per step, apart from the
/// deal's (0) and the steps' own (1, 2, ...), so that a replay draws the same.
const DEFAULTS_STREAM: u64 = 1 << 62;

/// What the scheduler did on a lobby.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fired {
    /// Nothing was due (another process got there first, or the clock moved).
    Nothing,
    /// A `deadline-approaching` reminder.
    Reminded,
    /// The deadline passed: the step resolved.
    Resolved,
    /// The deadline passed while a player was away: it waits for the vacation's end.
    Moved,
}

/// The sentinel a transaction refuses with when there is nothing to write.
fn nothing_due() -> AppError {
    AppError::conflict("nothing-due", "Nothing is due on this lobby.")
}

impl Host {
    /// Acts on whatever is due on the lobby's clock now: a reminder, or the deadline.
    pub async fn fire(&self, id: Uuid) -> Result<Fired, AppError> {
        let now = self.store.clock().now_millis();
        // The vacations of its bound players (none read for a lobby with no bound seat).
        let away = self.step_vacations(id, now).await?;
        let fired = self
            .change(id, move |snapshot| {
                let kind: GameKind = snapshot.lobby.game_kind()?;
                with_game!(kind, G => fire_clock::<G>(snapshot, now, &away))
            })
            .await;
        match fired {
            Err(AppError::Conflict {
                code: "nothing-due",
                ..
            }) => Ok(Fired::Nothing),
            other => other,
        }
    }

    /// The host moves the open step's deadline: `{"extend_seconds": n}` or
    /// `{"deadline_at": "<RFC 3339>"}`.
    pub async fn set_deadline(
        &self,
        id: Uuid,
        token: Option<&str>,
        body: Map<String, Value>,
    ) -> Result<LobbyView, AppError> {
        let now = self.store.clock().now_millis();
        let presented = Presented::new(token);
        self.clock_control(id, presented, move |snapshot, clock, reminders| {
            let clock = match DeadlineRequest::parse(body, now)? {
                DeadlineRequest::Extend(ms) => {
                    let deadline_at = clock.deadline_at.ok_or_else(no_running_clock(clock))?;
                    if deadline_at + ms - now > MAX_SECONDS as i64 * 1000 {
                        return Err(AppError::rejected(
                            "invalid-extend-seconds",
                            "The deadline would be more than 30 days away.",
                        ));
                    }
                    timing::set(now, deadline_at + ms - now, reminders)
                }
                DeadlineRequest::At(at) => {
                    if clock.paused_left.is_some() {
                        return Err(no_running_clock(clock)());
                    }
                    timing::set(now, at - now, reminders)
                }
            };
            let event = deadline_event(snapshot, EventKind::DeadlineSet, clock.deadline_at)?;
            Ok((clock, event))
        })
        .await
    }

    /// The host stops the open step's clock, keeping the time left.
    pub async fn pause(&self, id: Uuid, token: Option<&str>) -> Result<LobbyView, AppError> {
        let now = self.store.clock().now_millis();
        self.clock_control(id, Presented::new(token), move |_, clock, _| {
            let stopped = timing::paused(clock, now).ok_or_else(no_running_clock(clock))?;
            let event = NewEvent {
                kind: EventKind::Paused,
                data: "{}".into(),
            };
            Ok((stopped, event))
        })
        .await
    }

    /// The host restarts a paused clock with the time that was left.
    pub async fn resume(&self, id: Uuid, token: Option<&str>) -> Result<LobbyView, AppError> {
        let now = self.store.clock().now_millis();
        self.clock_control(id, Presented::new(token), move |_, clock, reminders| {
            let running = timing::resumed(clock, now, reminders)
                .ok_or_else(|| AppError::conflict("not-paused", "The clock is not paused."))?;
            let at = running.deadline_at.map(timing::rfc3339);
            let event = NewEvent {
                kind: EventKind::Resumed,
                data: json!({"deadline_at": at}).to_string(),
            };
            Ok((running, event))
        })
        .await
    }

    /// The host resolves the open step now, with fallbacks and defaults for what is missing.
    pub async fn resolve_now(&self, id: Uuid, token: Option<&str>) -> Result<LobbyView, AppError> {
        let now = self.store.clock().now_millis();
        let presented = Presented::new(token);
        let away = self.step_vacations(id, now).await?;
        self.change(id, move |snapshot| {
            require_host(snapshot, &presented)?;
            let kind: GameKind = snapshot.lobby.game_kind()?;
            let mut change = with_game!(kind, G => close_step::<G>(snapshot, Closing::Host, now)?);
            // The step falls due now, when the host resolves it.
            excuse_vacations(&mut change.records, &away, now);
            Ok((change, ()))
        })
        .await?;
        self.lobby(id).await
    }

    /// One of the host's clock controls: checks the caller, that a step is open and (in
    /// `control`) the request's values, in that order; lets
    /// `control` decide the new clock and its event, and writes both.
    async fn clock_control(
        &self,
        id: Uuid,
        presented: Presented,
        control: impl FnOnce(&Snapshot, StepClock, &[i64]) -> Result<(StepClock, NewEvent), AppError>
        + Send
        + 'static,
    ) -> Result<LobbyView, AppError> {
        self.change(id, move |snapshot| {
            require_host(snapshot, &presented)?;
            let kind: GameKind = snapshot.lobby.game_kind()?;
            with_game!(kind, G => { running_state::<G>(snapshot)?; });
            let reminders = Timing::parse(&snapshot.lobby.timing)?.reminders_ms();
            let (mut clock, event) = control(snapshot, snapshot.lobby.clock, &reminders)?;
            // A deadline a vacation moved stays moved for this step whatever the host does
            // (it moves once per step).
            clock.moved_from = snapshot.lobby.clock.moved_from;
            let mut change = Change::default();
            change.lobby.clock = Some(clock);
            change.events.push(event);
            Ok((change, ()))
        })
        .await?;
        self.lobby(id).await
    }
}

/// The 409 for a control that needs a running clock, saying why there is none.
fn no_running_clock(clock: StepClock) -> impl FnOnce() -> AppError {
    move || match clock.paused_left {
        Some(_) => AppError::conflict("paused", "The clock is paused: resume it first."),
        None => AppError::conflict(
            "no-deadline",
            "This step has no deadline; set one with {\"deadline_at\": ...}.",
        ),
    }
}

/// A `deadline-set` or `deadline-approaching` event for the open step.
fn deadline_event(
    snapshot: &Snapshot,
    kind: EventKind,
    at: Option<i64>,
) -> Result<NewEvent, AppError> {
    let lobby = &snapshot.lobby;
    // A clock runs only while a step is open, so a lobby with a deadline names its step.
    let data = Deadline {
        round: lobby.round,
        step: Cow::Borrowed(lobby.step.as_deref().unwrap_or_default()),
        deadline_at: at.map(|at| Cow::Owned(timing::rfc3339(at))),
    };
    Ok(NewEvent {
        kind,
        data: engine::to_text(&data)?,
    })
}

/// A host's request to move the deadline, checked.
#[derive(Copy, Clone, Debug)]
enum DeadlineRequest {
    /// Milliseconds to add.
    Extend(i64),
    /// The new deadline (unix ms), in the future and at most 30 days away.
    At(i64),
}

impl DeadlineRequest {
    fn parse(mut body: Map<String, Value>, now: i64) -> Result<DeadlineRequest, AppError> {
        let extend = body.remove("extend_seconds");
        let at = body.remove("deadline_at");
        if let Some(field) = body.keys().next() {
            return Err(AppError::malformed(
                "invalid-body",
                format!("Unknown field {field:?}: send \"extend_seconds\" or \"deadline_at\"."),
            ));
        }
        match (extend, at) {
            (Some(seconds), None) => {
                let seconds = seconds
                    .as_u64()
                    .filter(|s| (1..=MAX_SECONDS).contains(s))
                    .ok_or_else(|| {
                        AppError::rejected(
                            "invalid-extend-seconds",
                            "extend_seconds must be a whole number of seconds from 1 to 2592000.",
                        )
                    })?;
                Ok(DeadlineRequest::Extend(seconds as i64 * 1000))
            }
            (None, Some(at)) => {
                let bad = || {
                    AppError::rejected(
                        "invalid-deadline-at",
                        "deadline_at must be an RFC 3339 instant in the future, at most 30 days away.",
                    )
                };
                let at = at
                    .as_str()
                    .and_then(timing::parse_rfc3339)
                    .ok_or_else(bad)?;
                if at <= now || at - now > MAX_SECONDS as i64 * 1000 {
                    return Err(bad());
                }
                Ok(DeadlineRequest::At(at))
            }
            _ => Err(AppError::malformed(
                "invalid-body",
                "Send exactly one of \"extend_seconds\" and \"deadline_at\".",
            )),
        }
    }
}

/// What the scheduler writes for the lobby's clock at `now`.
fn fire_clock<G: Game>(
    snapshot: &Snapshot,
    now: i64,
    away: &[VacationRow],
) -> Result<(Change, Fired), AppError> {
    let clock = snapshot.lobby.clock;
    if clock.wake_at.is_none_or(|at| at > now) {
        return Err(nothing_due());
    }
    let running = engine::state::<G>(snapshot)?.is_some_and(|s| !G::owes(&s).is_empty());
    if snapshot.lobby.status != crate::store::Status::Running || !running {
        // A clock left on a lobby whose game is over: stop the scheduler waking for it.
        let mut change = Change::default();
        change.lobby.clock = Some(StepClock::default());
        return Ok((change, Fired::Nothing));
    }
    let reminders = Timing::parse(&snapshot.lobby.timing)?.reminders_ms();
    match timing::due(clock, now, &reminders) {
        Due::Nothing => {
            // A clock with a wake-up but no deadline cannot be set by Herald; repair it.
            let mut change = Change::default();
            change.lobby.clock = Some(StepClock::default());
            Ok((change, Fired::Nothing))
        }
        Due::Reminder(next) => {
            let mut change = Change::default();
            change.lobby.clock = Some(next);
            change.events.push(deadline_event(
                snapshot,
                EventKind::DeadlineApproaching,
                clock.deadline_at,
            )?);
            Ok((change, Fired::Reminded))
        }
        Due::Deadline => {
            let state = running_state::<G>(snapshot)?;
            if let Some(moved) = moved_clock::<G>(snapshot, &state, away, now)? {
                // A player is away: the deadline waits for the vacation's end, once.
                let mut change = Change::default();
                change.lobby.clock = Some(moved);
                change.events.push(deadline_event(
                    snapshot,
                    EventKind::DeadlineSet,
                    moved.deadline_at,
                )?);
                return Ok((change, Fired::Moved));
            }
            let mut change = close_step::<G>(snapshot, Closing::Deadline, now)?;
            // The step fell due at its deadline, however late the scheduler came.
            let due = clock.deadline_at.unwrap_or(now);
            excuse_vacations(&mut change.records, away, due);
            Ok((change, Fired::Resolved))
        }
    }
}

/// Resolves the open step with the orders that are in; every owed seat that sent nothing
/// plays its fallback order if it set one and it is legal now, else the game's default.
fn close_step<G: Game>(
    snapshot: &Snapshot,
    closing: Closing,
    now: i64,
) -> Result<Change, AppError> {
    let state = running_state::<G>(snapshot)?;
    let lobby = &snapshot.lobby;
    let stream = DEFAULTS_STREAM + u64::try_from(lobby.step_seq).unwrap_or(0);
    let mut rng = rng_for(lobby.seed, stream);
    let main_step = G::step(&state) == G::MAIN_STEP;
    let mut orders = Vec::new();
    let mut filled = Vec::new();
    for seat in G::owes(&state) {
        let player = &snapshot.players[seat.0];
        if let Some(sent) = snapshot.orders.iter().find(|o| o.player_id == player.id) {
            orders.push((seat, super::receipts::order_of::<G>(sent)?));
            continue;
        }
        let fallback = match (main_step, &player.fallback) {
            (true, Some(text)) => usable_fallback::<G>(&state, seat, text),
            (true, None) | (false, _) => None,
        };
        let (source, order) = match fallback {
            Some(order) => (Source::Fallback, Some(order)),
            None => (Source::Default, G::default_order(&state, seat, &mut rng)),
        };
        filled.push(Filled {
            seat,
            source,
            text: G::describe_order(&state, order.as_ref()),
        });
        if let Some(order) = order {
            orders.push((seat, order));
        }
    }
    let mut change = Change::default();
    resolve_step::<G>(
        snapshot,
        &state,
        &orders,
        (closing, &filled),
        &super::receipts::seals(&snapshot.orders)?,
        now,
        &mut change,
    )?;
    Ok(change)
}

/// The stored fallback order as a checked order, if the rules allow it now.
fn usable_fallback<G: Game>(state: &G::State, seat: Seat, text: &str) -> Option<G::Order> {
    let body: G::OrderBody = serde_json::from_str(text).ok()?;
    G::check_order(state, seat, body).ok()
}
