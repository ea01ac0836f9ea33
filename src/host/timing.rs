//! Deadline settings and the arithmetic of a step's clock: when a step falls due, when its
//! reminders fire, what pausing and resuming keep. Pure functions of instants (unix ms); the
//! host passes the store's clock in. See docs/deadlines.md.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::error::AppError;
use crate::store::StepClock;

/// The longest deadline or extension: 30 days.
pub const MAX_SECONDS: u64 = 2_592_000;
/// Reminders when the host names none: a day and an hour before the deadline.
pub const DEFAULT_REMINDERS: [u64; 2] = [86_400, 3_600];

/// The lobby's deadline settings, as validated at creation and stored (lobbies.timing).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    /// The main step's deadline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_seconds: Option<u64>,
    /// Every other step's deadline; defaults to `deadline_seconds`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision_deadline_seconds: Option<u64>,
    /// Seconds before the deadline at which `deadline-approaching` fires.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reminder_seconds: Option<Vec<u64>>,
    /// Consecutive missed steps before the player is kicked (None: off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub miss_limit: Option<u64>,
    /// The archived game this lobby was forked from (docs/fairness.md, "Forking"). Kept here, with the
    /// other settings that are the host's rather than the game's, so that a fork needs no
    /// column of its own; never read from a client's settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<crate::fairness::fork::ForkOrigin>,
    /// The press mode (docs/table-talk.md); None: no press.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub press: Option<super::talk_settings::Press>,
    /// Whether the messages open to everyone once the game is over; None: they do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub press_reveal: Option<bool>,
    /// Players are named by pseudonyms until the game is over (`anonymity.rs`); None: not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anonymous: Option<bool>,
    /// Whether a vacation moves a deadline (docs/identity.md, "Vacations"); None: it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vacation: Option<bool>,
    /// Who may join (`gates.rs`): the host's too, so kept here with no column of its own.
    #[serde(default, skip_serializing_if = "super::gates::Gates::is_open")]
    pub gates: super::gates::Gates,
}

/// The settings keys that are the host's, not the game's.
const KEYS: [&str; 5] = [
    "deadline_seconds",
    "decision_deadline_seconds",
    "reminder_seconds",
    "miss_limit",
    "vacation",
];

fn invalid(field: &str, rule: &str) -> AppError {
    AppError::rejected(
        "invalid-deadline-setting",
        format!("settings.{field} must be {rule}."),
    )
}

/// A whole number of seconds in 1..=30 days, or a 422 naming `field`.
pub fn seconds(value: &Value, field: &str) -> Result<u64, AppError> {
    value
        .as_u64()
        .filter(|s| (1..=MAX_SECONDS).contains(s))
        .ok_or_else(|| {
            invalid(
                field,
                "a whole number of seconds from 1 to 2592000 (30 days)",
            )
        })
}

impl Timing {
    /// Takes the deadline keys out of a lobby's `settings` object (the rest is the game's) and
    /// checks them: a 422 naming the field for a value out of range.
    pub fn split_from(settings: &mut Value) -> Result<Timing, AppError> {
        let Value::Object(map) = settings else {
            return Ok(Timing::default());
        };
        let mut taken = Map::new();
        let keys = KEYS.into_iter().chain(super::talk_settings::KEYS);
        for key in keys.chain([super::talk_settings::ANONYMOUS]) {
            if let Some(value) = map.remove(key)
                && !value.is_null()
            {
                taken.insert(key.to_owned(), value);
            }
        }
        let mut timing = Timing::default();
        if let Some(v) = taken.get("deadline_seconds") {
            timing.deadline_seconds = Some(seconds(v, "deadline_seconds")?);
        }
        if let Some(v) = taken.get("decision_deadline_seconds") {
            timing.decision_deadline_seconds = Some(seconds(v, "decision_deadline_seconds")?);
        }
        if let Some(v) = taken.get("reminder_seconds") {
            let rule = "a list of at most 10 whole numbers of seconds from 1 to 2592000";
            let list = v
                .as_array()
                .ok_or_else(|| invalid("reminder_seconds", rule))?;
            if list.len() > 10 {
                return Err(invalid("reminder_seconds", rule));
            }
            let parsed = list
                .iter()
                .map(|s| {
                    seconds(s, "reminder_seconds").map_err(|_| invalid("reminder_seconds", rule))
                })
                .collect::<Result<Vec<_>, _>>()?;
            timing.reminder_seconds = Some(parsed);
        }
        if let Some(v) = taken.get("miss_limit") {
            let limit = v
                .as_u64()
                .filter(|n| (1..=1000).contains(n))
                .ok_or_else(|| {
                    invalid("miss_limit", "null (off) or a whole number from 1 to 1000")
                })?;
            timing.miss_limit = Some(limit);
        }
        if let Some(v) = taken.get("vacation") {
            timing.vacation = Some(v.as_bool().ok_or_else(|| {
                AppError::rejected(
                    "invalid-setting",
                    "settings.vacation must be true or false.",
                )
            })?);
        }
        (timing.press, timing.press_reveal) = super::talk_settings::read(&taken)?;
        timing.anonymous = super::talk_settings::read_anonymous(&taken)?;
        Ok(timing)
    }

    /// Whether a player's vacation moves this lobby's deadlines (the default).
    pub fn vacation_moves(&self) -> bool {
        self.vacation.unwrap_or(true)
    }

    /// The table-talk settings, with their defaults filled in.
    pub fn talk(&self) -> super::talk_settings::TalkSettings {
        super::talk_settings::TalkSettings {
            press: self.press.unwrap_or_default(),
            press_reveal: self.press_reveal.unwrap_or(true),
        }
    }

    /// Whether the players are named by pseudonyms until the end.
    pub fn is_anonymous(&self) -> bool {
        self.anonymous.unwrap_or(false)
    }

    /// The stored settings; an empty object when the lobby has none.
    pub fn parse(text: &str) -> Result<Timing, AppError> {
        serde_json::from_str(text).map_err(|e| AppError::Internal(format!("stored timing: {e}")))
    }

    /// The deadline of a step named `step` (the main step's or a decision step's), in seconds.
    pub fn seconds_for(&self, step: &str, main_step: &str) -> Option<u64> {
        match step == main_step {
            true => self.deadline_seconds,
            false => self.decision_deadline_seconds.or(self.deadline_seconds),
        }
    }

    /// The reminder offsets in milliseconds.
    pub fn reminders_ms(&self) -> Vec<i64> {
        let list = self
            .reminder_seconds
            .as_deref()
            .unwrap_or(&DEFAULT_REMINDERS);
        list.iter().map(|s| (*s as i64) * 1000).collect()
    }

    /// The settings as the public view shows them, with their defaults filled in.
    pub fn effective(&self) -> Value {
        let mut effective = serde_json::json!({
            "deadline_seconds": self.deadline_seconds,
            "decision_deadline_seconds": self.decision_deadline_seconds.or(self.deadline_seconds),
            "reminder_seconds": self.reminder_seconds.clone().unwrap_or(DEFAULT_REMINDERS.to_vec()),
            "miss_limit": self.miss_limit,
            "vacation": self.vacation_moves(),
            "press": self.talk().press,
            "press_reveal": self.talk().press_reveal,
            "anonymous": self.is_anonymous(),
        });
        if let Value::Object(map) = &mut effective {
            map.extend(self.gates.effective());
        }
        if let (Some(origin), Value::Object(map)) = (&self.forked_from, &mut effective) {
            map.insert(
                "forked_from".into(),
                serde_json::json!({"lobby": origin.lobby, "name": origin.name, "round": origin.round}),
            );
        }
        effective
    }
}

/// A clock running towards `deadline_at`: reminders of r ms fire while r < `remind_below`.
pub fn running(deadline_at: i64, remind_below: i64, reminders: &[i64]) -> StepClock {
    // The next reminder to fire is the pending one furthest from the deadline.
    let next = reminders
        .iter()
        .copied()
        .filter(|r| *r > 0 && *r < remind_below)
        .max();
    StepClock {
        deadline_at: Some(deadline_at),
        paused_left: None,
        remind_below: Some(remind_below),
        wake_at: Some(next.map_or(deadline_at, |r| deadline_at - r)),
        moved_from: None,
    }
}

/// A clock set at `now` to fall due `span` ms later: the reminders that do not fit the span
/// (r >= span) never fire.
pub fn set(now: i64, span: i64, reminders: &[i64]) -> StepClock {
    running(now + span, span, reminders)
}

/// The clock of a step that has just opened at `now`, from the lobby's settings (none when
/// that kind of step has no deadline).
pub fn opened(timing: &Timing, step: &str, main_step: &str, now: i64) -> StepClock {
    match timing.seconds_for(step, main_step) {
        Some(seconds) => set(now, seconds as i64 * 1000, &timing.reminders_ms()),
        None => StepClock::default(),
    }
}

/// The clock stopped at `now`, keeping the time left and the reminders still to fire.
pub fn paused(clock: StepClock, now: i64) -> Option<StepClock> {
    let deadline_at = clock.deadline_at?;
    Some(StepClock {
        deadline_at: None,
        paused_left: Some((deadline_at - now).max(1)),
        remind_below: clock.remind_below,
        wake_at: None,
        moved_from: clock.moved_from,
    })
}

/// A paused clock started again at `now` with the time that was left.
pub fn resumed(clock: StepClock, now: i64, reminders: &[i64]) -> Option<StepClock> {
    let left = clock.paused_left?;
    Some(running(
        now + left,
        clock.remind_below.unwrap_or(left),
        reminders,
    ))
}

/// What the scheduler finds due on a clock at `now`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Due {
    /// Nothing yet (another process acted first, or the clock moved).
    Nothing,
    /// One or more reminders passed: fire one `deadline-approaching`, then wait on this clock.
    Reminder(StepClock),
    /// The deadline has passed: resolve the step.
    Deadline,
}

/// What is due on `clock` at `now`.
pub fn due(clock: StepClock, now: i64, reminders: &[i64]) -> Due {
    let (Some(deadline_at), Some(wake_at)) = (clock.deadline_at, clock.wake_at) else {
        return Due::Nothing;
    };
    if now >= deadline_at {
        return Due::Deadline;
    }
    if now < wake_at {
        return Due::Nothing;
    }
    // Every pending reminder whose instant has come fires now (as one event: they say the
    // same thing); those still ahead stay pending.
    let left = deadline_at - now;
    Due::Reminder(StepClock {
        moved_from: clock.moved_from,
        ..running(deadline_at, left, reminders)
    })
}

/// An instant as RFC 3339 UTC, always with milliseconds (`2026-12-01T09:30:00.000Z`), so
/// that every instant Herald writes has one length and sorts as text.
pub fn rfc3339(millis: i64) -> String {
    let nanos = i128::from(millis) * 1_000_000;
    let at = OffsetDateTime::from_unix_timestamp_nanos(nanos).unwrap_or(OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second(),
        at.millisecond()
    )
}

/// An RFC 3339 instant (any offset) as unix milliseconds.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    let at = OffsetDateTime::parse(text, &Rfc3339).ok()?;
    i64::try_from(at.unix_timestamp_nanos() / 1_000_000).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 3_600_000;
    const DAY: i64 = 24 * HOUR;

    #[test]
    fn a_reminder_that_does_not_fit_the_deadline_never_fires() {
        let reminders = [DAY, HOUR];
        let clock = set(0, 2 * HOUR, &reminders);
        assert_eq!(clock.wake_at, Some(HOUR), "only the hour's reminder fits");
        assert_eq!(due(clock, HOUR - 1, &reminders), Due::Nothing);
        let Due::Reminder(after) = due(clock, HOUR, &reminders) else {
            panic!("the hour's reminder is due");
        };
        assert_eq!(after.wake_at, Some(2 * HOUR), "then only the deadline");
        assert_eq!(
            due(after, HOUR + 5, &reminders),
            Due::Nothing,
            "it fired once"
        );
        assert_eq!(due(after, 2 * HOUR, &reminders), Due::Deadline);
    }

    #[test]
    fn reminders_passed_together_fire_once() {
        let reminders = [DAY, HOUR];
        let clock = set(0, 2 * DAY, &reminders);
        assert_eq!(clock.wake_at, Some(DAY));
        let Due::Reminder(after) = due(clock, 2 * DAY - 10, &reminders) else {
            panic!("due");
        };
        assert_eq!(after.wake_at, Some(2 * DAY));
    }

    #[test]
    fn a_pause_keeps_the_time_left_and_the_reminders_still_to_fire() {
        let reminders = [HOUR];
        let clock = set(0, 3 * HOUR, &reminders);
        let stopped = paused(clock, HOUR).unwrap();
        assert_eq!((stopped.deadline_at, stopped.wake_at), (None, None));
        assert_eq!(stopped.paused_left, Some(2 * HOUR));
        let again = resumed(stopped, 10 * HOUR, &reminders).unwrap();
        assert_eq!(again.deadline_at, Some(12 * HOUR));
        assert_eq!(again.wake_at, Some(11 * HOUR));
    }

    #[test]
    fn settings_out_of_range_are_refused_naming_the_field() {
        for (settings, field) in [
            (
                serde_json::json!({"deadline_seconds": 0}),
                "deadline_seconds",
            ),
            (
                serde_json::json!({"deadline_seconds": 2_592_001}),
                "deadline_seconds",
            ),
            (
                serde_json::json!({"decision_deadline_seconds": "1h"}),
                "decision_deadline_seconds",
            ),
            (
                serde_json::json!({"reminder_seconds": [60, -1]}),
                "reminder_seconds",
            ),
            (serde_json::json!({"miss_limit": 0}), "miss_limit"),
        ] {
            let mut settings = settings;
            let error = Timing::split_from(&mut settings).unwrap_err().to_string();
            assert!(error.contains(field), "{error}");
        }
        let mut settings = serde_json::json!({"deadline_seconds": 1, "max_players": 4});
        let timing = Timing::split_from(&mut settings).unwrap();
        assert_eq!(timing.deadline_seconds, Some(1));
        assert_eq!(
            settings,
            serde_json::json!({"max_players": 4}),
            "the game's keys stay"
        );
    }

    #[test]
    fn instants_read_and_write_as_rfc_3339_utc() {
        assert_eq!(rfc3339(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
        assert_eq!(rfc3339(1_700_000_000_000), "2023-11-14T22:13:20.000Z");
        assert_eq!(
            parse_rfc3339("2023-11-14T22:13:20.123Z"),
            Some(1_700_000_000_123)
        );
        assert_eq!(
            parse_rfc3339("2023-11-14T23:13:20.123+01:00"),
            Some(1_700_000_000_123)
        );
        assert_eq!(parse_rfc3339("tomorrow"), None);
    }
}
