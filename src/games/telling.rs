//! A game's progress in words, the same everywhere it is told (the pages, the forum posts,
//! the notices): a round's name with the game's cap ("Round 4 of 8"), and a finished game's
//! result as the lobby page, its "Final standings" post and the "game over" notice (Discord,
//! Standard Webhooks' `summary`, mail) all say it. Every game's outcome has the same three members (`winners`, `reason`,
//! `standings`, each standing with `player`, `name` and `place`), read here into types; the
//! game's own numbers beside them are for the tables.

use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use super::words;

/// A round as people name it: "Round 4 of 8" when the game has a cap, else "Round 4".
pub fn round_name(round: u32, cap: Option<u64>) -> String {
    match cap {
        Some(cap) => format!("Round {round} of {cap}"),
        None => format!("Round {round}"),
    }
}

/// A round with the game's cap, as a game's own words name it: "round 4 of 8" inside a
/// sentence (its `Display`), "Round 4 of 8" at the head of one ([`RoundOf::title`]). The
/// pages hand it to a game's forms, so that every heading naming a round says how long the
/// game lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundOf {
    pub number: u32,
    pub cap: Option<u64>,
}

impl RoundOf {
    /// "Round 4 of 8".
    pub fn title(self) -> String {
        round_name(self.number, self.cap)
    }
}

impl std::fmt::Display for RoundOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.cap {
            Some(cap) => write!(f, "round {} of {cap}", self.number),
            None => write!(f, "round {}", self.number),
        }
    }
}

/// An RFC 3339 instant as people read it: `2026-12-01T18:00:00.000Z` → `2026-12-01 18:00 UTC`.
pub fn in_utc(at: &str) -> String {
    match (at.get(..10), at.get(11..16)) {
        (Some(day), Some(time)) => format!("{day} {time} UTC"),
        _ => at.to_owned(),
    }
}

/// The line every forum host adds to a round's news: "Orders for round 5 of 8 are due by
/// 2026-12-01 18:00 UTC." (`answers`: the game's word for a round's main answers).
pub fn answers_due(
    answers: &str,
    round: u32,
    cap: Option<u64>,
    deadline_at: Option<&str>,
) -> String {
    let name = round_name(round, cap).to_lowercase();
    match deadline_at {
        Some(at) => format!("{} for {name} are due by {}.", words(answers), in_utc(at)),
        None => format!("{} for {name} are open, with no deadline.", words(answers)),
    }
}

/// A round's log as the pages and the posts tell it: each of the game's events in words
/// ([`crate::rules::Event::words`]), two that tell one thing as one line
/// ([`super::GameUi::told_once`]), and the host's own lines (a substitution, a missed
/// deadline) as stored. The stored lines themselves are the record and stay as they are.
pub fn log_words<G: super::GameUi>(log: &[Value]) -> Vec<String> {
    use crate::rules::Event;
    let events: Vec<Option<G::Event>> = log
        .iter()
        .map(|entry| G::Event::deserialize(entry).ok())
        .collect();
    let mut lines = Vec::with_capacity(log.len());
    let mut at = 0;
    while at < log.len() {
        if let (Some(Some(first)), Some(Some(next))) = (events.get(at), events.get(at + 1))
            && let Some(once) = G::told_once(first, next)
        {
            lines.push(once);
            at += 2;
            continue;
        }
        match &events[at] {
            Some(event) => lines.push(event.words()),
            None => lines.extend(log[at]["text"].as_str().map(str::to_owned)),
        }
        at += 1;
    }
    lines
}

/// A sentence written for any count ("discard 2 token(s)", "1 guess(es)") with real plurals:
/// each `(s)` or `(es)` follows the nearest number in the three words before it ("discard
/// 2 tokens", "up to 1 more token", "1 guess"); without a number, the plural.
pub fn counted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('(') {
        let marker = ["(s)", "(es)"]
            .into_iter()
            .find(|m| rest[at..].starts_with(m));
        out.push_str(&rest[..at]);
        let Some(marker) = marker else {
            out.push('(');
            rest = &rest[at + 1..];
            continue;
        };
        let one = out
            .split_whitespace()
            .rev()
            .take(3)
            .find_map(|w| w.parse::<i64>().ok())
            .is_some_and(|n| n == 1);
        if !one {
            out.push_str(&marker[1..marker.len() - 1]);
        }
        rest = &rest[at + marker.len()..];
    }
    out.push_str(rest);
    out
}

/// The shared part of a game's outcome.
#[derive(Clone, Debug, Deserialize)]
pub struct FinalResult {
    /// Empty in a draw.
    #[serde(default)]
    pub winners: Vec<Uuid>,
    /// Why it ended, as the game's rules name it (`round-cap`).
    #[serde(default)]
    pub reason: Option<String>,
    /// Every player, best first.
    #[serde(default)]
    pub standings: Vec<Placed>,
}

/// One line of the standings.
#[derive(Clone, Debug, Deserialize)]
pub struct Placed {
    pub player: Uuid,
    pub name: String,
    pub place: u32,
}

/// `["Ann", "Bob", "Cy"]` as "Ann, Bob and Cy".
pub fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

impl FinalResult {
    /// The result a lobby view publishes, if it reads as one.
    pub fn read(result: &Value) -> Option<FinalResult> {
        FinalResult::deserialize(result).ok()
    }

    /// The result with each standing's name as `label` gives it from the player's id and name:
    /// a substitute as "Eve (for Bob)", as the tables name the seat.
    pub fn relabeled(mut self, label: impl Fn(Uuid, &str) -> String) -> FinalResult {
        for placed in &mut self.standings {
            placed.name = label(placed.player, &placed.name);
        }
        self
    }

    /// The winners' names, as the standings give them.
    pub fn winner_names(&self) -> Vec<&str> {
        self.winners
            .iter()
            .filter_map(|id| self.standings.iter().find(|p| p.player == *id))
            .map(|p| p.name.as_str())
            .collect()
    }

    /// Why the game ended, in words ("round cap"), if the game says.
    pub fn reason_words(&self) -> Option<String> {
        self.reason
            .as_deref()
            .filter(|r| !r.is_empty())
            .map(|r| words(r).to_lowercase())
    }

    /// Who won: "Winner: Ann", "Winners: Ann and Bob", "A draw".
    pub fn winners_line(&self) -> String {
        match self.winner_names().as_slice() {
            [] => "A draw".to_owned(),
            [one] => format!("Winner: {one}"),
            many => format!("Winners: {}", listed(many)),
        }
    }

    /// The headline of every telling: who won and why ("Winner: Ann (round cap).").
    pub fn headline(&self) -> String {
        match self.reason_words() {
            Some(reason) => format!("{} ({reason}).", self.winners_line()),
            None => format!("{}.", self.winners_line()),
        }
    }

    /// The headline, then one line per place ("1. Ann"), for a notice.
    pub fn in_words(&self) -> String {
        let mut lines = vec![self.headline()];
        lines.extend(
            self.standings
                .iter()
                .map(|p| format!("{}. {}", p.place, p.name)),
        );
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_next_rounds_answers_are_due_by_the_deadline_in_utc() {
        assert_eq!(
            answers_due("orders", 5, Some(8), Some("2026-12-01T18:00:00.000Z")),
            "Orders for round 5 of 8 are due by 2026-12-01 18:00 UTC."
        );
        assert_eq!(
            answers_due("plays", 2, None, None),
            "Plays for round 2 are open, with no deadline."
        );
    }

    #[test]
    fn a_count_says_its_plural_by_its_number() {
        assert_eq!(
            counted("Your hand holds more than 9: discard 2 token(s) (A16)."),
            "Your hand holds more than 9: discard 2 tokens (A16)."
        );
        assert_eq!(
            counted("discard up to 1 more token(s) for their full value"),
            "discard up to 1 more token for their full value"
        );
        assert_eq!(counted("1 guess(es) of each die"), "1 guess of each die");
        assert_eq!(counted("3 guess(es) (Ruling 18)"), "3 guesses (Ruling 18)");
        assert_eq!(counted("Ann (Red) holds card(s)"), "Ann (Red) holds cards");
    }

    #[test]
    fn the_winner_is_named_in_words_not_by_id() {
        let (ann, bob) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let result = FinalResult::read(&json!({
            "winners": [ann], "reason": "round-cap",
            "standings": [
                {"player": ann, "name": "Ann", "place": 1, "vp": 9},
                {"player": bob, "name": "Bob", "place": 2, "vp": 3}
            ]
        }))
        .unwrap();
        assert_eq!(
            result.in_words(),
            "Winner: Ann (round cap).\n1. Ann\n2. Bob"
        );
        let draw = FinalResult::read(&json!({"winners": [], "reason": "double-knock-out",
            "standings": [{"player": ann, "name": "Ann", "place": 1},
                          {"player": bob, "name": "Bob", "place": 1}]}))
        .unwrap();
        assert_eq!(draw.headline(), "A draw (double knock out).");
        let shared = FinalResult::read(&json!({"winners": [ann, bob],
            "standings": [{"player": ann, "name": "Ann", "place": 1},
                          {"player": bob, "name": "Bob", "place": 1}]}))
        .unwrap();
        assert_eq!(shared.headline(), "Winners: Ann and Bob.");
        let substituted = shared.relabeled(|id, name| match id == bob {
            true => format!("{name} (for Eve)"),
            false => name.to_owned(),
        });
        assert_eq!(substituted.headline(), "Winners: Ann and Bob (for Eve).");
        assert_eq!(
            substituted.in_words(),
            "Winners: Ann and Bob (for Eve).\n1. Ann\n1. Bob (for Eve)"
        );
    }
}
