//! The open step's deadline as the pages show it: an absolute UTC instant (the script adds the
//! viewer's own time and a countdown), or that the host has paused the clock.

use serde_json::Value;

use crate::host::views::LobbyView;

/// The deadline line of a page (`templates/deadline.html`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadlineLine {
    /// RFC 3339 UTC, for `<time datetime>` and the script.
    pub at: String,
    /// The same instant for people: `2026-12-01 00:01 UTC`.
    pub text: String,
    pub paused: bool,
}

impl DeadlineLine {
    /// The lobby's deadline line, if the open step has a deadline (running or paused).
    pub fn of(lobby: &LobbyView) -> Option<DeadlineLine> {
        if lobby.paused {
            return Some(DeadlineLine {
                at: String::new(),
                text: String::new(),
                paused: true,
            });
        }
        let at = lobby.deadline_at.clone()?;
        // `2026-12-01T00:01:30.000Z` → `2026-12-01 00:01:30 UTC`.
        let text = match (at.get(..10), at.get(11..19)) {
            (Some(day), Some(time)) => format!("{day} {time} UTC"),
            _ => at.clone(),
        };
        Some(DeadlineLine {
            at,
            text,
            paused: false,
        })
    }
}

/// An instant as the pages show it: RFC 3339 for `<time datetime>`, and to the minute in UTC
/// for people (`2026-12-01 09:30 UTC`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub at: String,
    pub text: String,
}

impl Stamp {
    pub fn of_millis(millis: i64) -> Stamp {
        let at = crate::host::timing::rfc3339(millis);
        let text = match (at.get(..10), at.get(11..16)) {
            (Some(day), Some(time)) => format!("{day} {time} UTC"),
            _ => at.clone(),
        };
        Stamp { at, text }
    }
}

/// A span of seconds in words: `1 hour 30 minutes`, `2 days`, `45 seconds`.
pub fn span_in_words(seconds: u64) -> String {
    let units = [
        (86_400, "day"),
        (3_600, "hour"),
        (60, "minute"),
        (1, "second"),
    ];
    let mut left = seconds;
    let mut parts = Vec::new();
    for (size, name) in units {
        let n = left / size;
        left %= size;
        if n > 0 {
            parts.push(format!("{n} {name}{}", if n == 1 { "" } else { "s" }));
        }
    }
    if parts.is_empty() {
        return "0 seconds".into();
    }
    parts.join(" ")
}

/// The lobby's deadline settings in words, from its view's effective `settings`
/// (docs/deadlines.md): the deadlines of the main and the decision steps, the reminders and
/// the missed-turn policy. `main` names the main step's answers ("orders", "plays").
pub fn settings_in_words(lobby: &LobbyView, main: &str) -> Vec<String> {
    let settings = &lobby.settings;
    let seconds = |key: &str| settings.get(key).and_then(Value::as_u64);
    let mut lines = Vec::new();
    match (
        seconds("deadline_seconds"),
        seconds("decision_deadline_seconds"),
    ) {
        (None, None) => lines.push("No deadline: the game waits for every answer".to_owned()),
        (main_s, decision) => {
            let mut parts = Vec::new();
            if let Some(s) = main_s {
                parts.push(format!("{} for {main}", span_in_words(s)));
            }
            if let Some(s) = decision {
                parts.push(format!("{} for decisions", span_in_words(s)));
            }
            lines.push(format!("Deadline: {}", parts.join(", ")));
            // A reminder as long as a step's deadline or longer never fires (host/timing.rs):
            // name only those that fit the longer of the two.
            let longest = main_s.max(decision).unwrap_or(0);
            let reminders: Vec<String> = settings
                .get("reminder_seconds")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_u64)
                .filter(|r| *r < longest)
                .map(span_in_words)
                .collect();
            if !reminders.is_empty() {
                lines.push(format!("reminders {} before", reminders.join(" and ")));
            }
        }
    }
    if let Some(n) = seconds("miss_limit") {
        let steps = if n == 1 { "step" } else { "steps" };
        lines.push(format!(
            "a player who misses {n} {steps} in a row is kicked"
        ));
    }
    lines
}

/// Said on the host panel when the game has a deadline and none of its reminders can fire
/// before it: each is as long as the whole time given or longer (docs/deadlines.md,
/// "Reminders"), as the default "a day and an hour before" is for a two-minute deadline.
pub fn reminder_warning(lobby: &LobbyView) -> Option<String> {
    let settings = &lobby.settings;
    let seconds = |key: &str| settings.get(key).and_then(Value::as_u64);
    let longest = seconds("deadline_seconds").max(seconds("decision_deadline_seconds"))?;
    let reminders: Vec<u64> = settings
        .get("reminder_seconds")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .collect();
    if reminders.is_empty() || reminders.iter().any(|r| *r < longest) {
        return None;
    }
    let said: Vec<String> = reminders.iter().map(|r| span_in_words(*r)).collect();
    Some(format!(
        "No reminder will reach the players: the deadline is {}, and a reminder {} before it can never fire.",
        span_in_words(longest),
        said.join(" or ")
    ))
}

#[cfg(test)]
mod tests {
    use super::span_in_words;

    #[test]
    fn spans_read_as_words() {
        assert_eq!(span_in_words(1), "1 second");
        assert_eq!(span_in_words(5_400), "1 hour 30 minutes");
        assert_eq!(span_in_words(172_800), "2 days");
        assert_eq!(span_in_words(86_461), "1 day 1 minute 1 second");
    }
}
