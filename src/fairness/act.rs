//! The replay inputs: what changed a game's state, in the order it happened. The host records
//! one [`Act`] for everything it does to a running game's state (resolving a step, a kick, an
//! early end, a substitute's name), so that the archive carries enough to replay any history.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One order handed to the rules when a step resolved: the seat and the checked order (sent,
/// a fallback or the rules' default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatOrder {
    pub seat: usize,
    pub order: Value,
}

/// A vote sent with a main-step order (docs/table-talk.md, "End votes"): sealed with the
/// order, revealed with it, no part of it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Vote {
    /// End the game as a draw.
    Draw,
}

/// A change to a running game's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "act")]
pub enum Act {
    /// The open step resolved with these orders, in seat order; its random stream is the
    /// number of steps recorded before it, plus one.
    Resolve { orders: Vec<SeatOrder> },
    /// The player at `seat` was removed by the host's hand (or by the missed-turn policy).
    Kick { seat: usize },
    /// The host ended the game with this ending (the body of the end request).
    End { ending: Value },
    /// The round just over was one in which every living player voted for a draw: the rules
    /// ended the game (`Game::end_by_draw_vote`).
    DrawVote,
    /// A substitute took `seat` under `name` (its name before was `previous`).
    Rename {
        seat: usize,
        name: String,
        previous: String,
    },
}

impl Act {
    /// The act as stored (JSON text).
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// What a lobby keeps between steps (its `fairness` column): the digest at the head of its
/// chain, and the acts not yet filed with a step.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    /// The last step's digest; none before the first step (the chain then starts from the
    /// seed's commitment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// Acts since the last filed step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<Act>,
    /// The round whose main step every living player voted a draw in, kept while that round
    /// goes on through its decision steps (the game ends when it is over).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_vote: Option<u32>,
}

impl Ledger {
    /// Reads the stored ledger; an empty or unreadable column is a fresh ledger (lobbies from
    /// before the fairness migration).
    pub fn read(text: &str) -> Ledger {
        serde_json::from_str(text).unwrap_or_default()
    }
}
