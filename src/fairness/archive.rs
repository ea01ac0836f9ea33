//! The archive (`herald-archive/2`; version 1 is the same without `messages`): one self-contained JSON document of a game, as
//! `GET /api/v1/lobbies/{id}/archive` serves it and `herald verify` reads it. `docs/fairness.md`
//! describes every field.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use super::act::Act;

/// A game's archive.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Archive {
    /// Always [`super::FORMAT`].
    pub format: String,
    /// The game id (`crossing-swords`, `bst`).
    pub game: String,
    pub lobby: ArchivedLobby,
    /// `running` or `finished`.
    pub status: String,
    /// The settings as everyone may see them (all of them once the game is over).
    pub settings: Value,
    /// The players as seated when the game started (their names then), in seat order.
    pub entrants: Vec<ArchivedEntrant>,
    /// The commitment to the seed, published from the lobby's creation.
    pub seed_commitment: Option<String>,
    /// The seed (decimal) and its salt, once the game is over.
    pub seed: Option<String>,
    pub seed_salt: Option<String>,
    /// Every resolved step, in order.
    pub steps: Vec<ArchivedStep>,
    /// The table-talk messages everyone may read, oldest first: the public ones, and once the
    /// game is over with `press_reveal`, all of them (docs/table-talk.md). Absent from a
    /// version 1 archive, which reads as none.
    #[serde(default)]
    pub messages: Vec<ArchivedMessage>,
}

/// A table-talk message, as the archive and the API show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchivedMessage {
    pub id: Uuid,
    pub from: Uuid,
    /// `"all"`, or the recipients' ids.
    pub to: crate::events::Recipients,
    /// RFC 3339 UTC.
    pub at: String,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArchivedLobby {
    pub id: Uuid,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArchivedEntrant {
    pub id: Uuid,
    /// The name the game was played under: an anonymous game's pseudonym (`Player 1`).
    pub name: String,
    /// An anonymous game's entrant: the name he joined under, once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub real_name: Option<String>,
    /// The game's join choice (BST: the character).
    pub join: Value,
}

/// One resolved step as published, with the acts that led to it (once the game is over).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArchivedStep {
    pub round: u32,
    pub step: String,
    /// The acts recorded since the step before, this step's own resolution last; only once
    /// the game is over (`null` while it runs).
    pub acts: Option<Vec<Act>>,
    /// The revealed orders (each with `nonce` and `commitment` where a player sent it).
    pub revealed: Value,
    /// The public log.
    pub log: Value,
    /// The public pools after the step.
    pub pools: Value,
    pub previous_digest: String,
    pub digest: String,
}
