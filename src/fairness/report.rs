//! What the offline verifier (`verify.rs`) reports, and what the re-adjudication
//! (`readjudicate.rs`) adds to it: each mismatch by round, step and field.

use std::fmt;

/// The host's own lines in a step's log (how the step closed, who sent nothing, who the
/// missed-turn policy removed): covered by the digest, but not the rules' to replay.
pub const HOST_LINE_KINDS: [&str; 4] = [
    "deadline-passed",
    "resolved-by-host",
    "order-missing",
    "missed-turns",
];

/// Where a check failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The round (0 for the game's start: the seed).
    pub round: u32,
    /// The step (`start` for the seed).
    pub step: String,
    /// What does not match: `seed`, `previous_digest`, `digest`, `nonce`, `commitment`,
    /// `step`, `orders`, `log`, `pools`, `acts`, `replay`.
    pub field: &'static str,
    pub detail: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "MISMATCH round {}, step {}, field {}: {}",
            self.round, self.step, self.field, self.detail
        )
    }
}

/// Why an archive could not be read at all (exit 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable(pub String);

/// What the verifier found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// One line per round and per check, for people.
    pub lines: Vec<String>,
    pub mismatches: Vec<Mismatch>,
    /// Whether the game was re-adjudicated (only once its seed is published).
    pub replayed: bool,
}

impl Report {
    pub(super) fn mismatch(&mut self, at: (u32, &str), field: &'static str, detail: String) {
        self.mismatches.push(Mismatch {
            round: at.0,
            step: at.1.to_string(),
            field,
            detail,
        });
    }
}
