//! The open step's deadline as the pages show it: an absolute UTC instant (the script adds the
//! viewer's own time and a countdown), or that the host has paused the clock.

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
