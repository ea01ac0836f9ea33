//! The variant keys of §5.1, one typed field each, with their ranges. The settings carry it
//! flattened (the keys sit at the top of the lobby's `settings`), the state a copy.

use serde::{Deserialize, Serialize};

/// What an escape does to the result (Ruling 30, E3).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EscapeResult {
    /// The default: a draw.
    #[default]
    Draw,
    /// The one who escaped loses.
    Loss,
}

/// How the phase cap decides (Ruling 52, E4).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CapResult {
    /// The default: more HP wins, equal HP is a draw.
    #[default]
    Hp,
    /// Always a draw.
    Draw,
}

/// Who initiated the combat (Ruling 51, S1).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Initiator {
    /// The default: the first to join.
    #[default]
    P1,
    /// The second.
    P2,
}

/// Every variant key of §5.1. `Default` is the rulings' default game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Rulebook {
    /// Starting hit points before the +1 HP abilities (Ruling 6), 1-20.
    pub hp: u32,
    /// Starting energy (Ruling 7), 0-20.
    pub energy: u32,
    /// Attribute cards of a build (Ruling 4), 3-18.
    pub points: u32,
    /// Abilities a build may hold (Ruling 5), 0-5.
    pub max_abilities: u32,
    /// Guesses each contestant names (Ruling 18), 0-3.
    pub base_guesses: u32,
    /// Tie-breaks before the challenger has not won (Ruling 26), 1-10.
    pub max_ties: u32,
    /// The phase cap (Ruling 52), 1-200.
    pub max_phases: u32,
    /// Cards in the opening hand (Ruling 49), 0-17.
    pub opening_hand: u32,
    /// The most cards a hand draws up to (Ruling 49), 1-17, not below `opening_hand`.
    pub hand_limit: u32,
    /// What an escape gives (Ruling 30).
    pub escape_result: EscapeResult,
    /// How the phase cap decides (Ruling 52).
    pub cap_result: CapResult,
    /// Who initiated the combat (Ruling 51).
    pub initiator: Initiator,
}

impl Default for Rulebook {
    fn default() -> Rulebook {
        Rulebook {
            hp: 6,
            energy: 5,
            points: 12,
            max_abilities: 3,
            base_guesses: 1,
            max_ties: 3,
            max_phases: 30,
            opening_hand: 5,
            hand_limit: 6,
            escape_result: EscapeResult::Draw,
            cap_result: CapResult::Hp,
            initiator: Initiator::P1,
        }
    }
}

impl Rulebook {
    /// The numeric keys with their inclusive ranges (§5.1).
    pub const RANGES: [(&'static str, u32, u32); 9] = [
        ("hp", 1, 20),
        ("energy", 0, 20),
        ("points", 3, 18),
        ("max_abilities", 0, 5),
        ("base_guesses", 0, 3),
        ("max_ties", 1, 10),
        ("max_phases", 1, 200),
        ("opening_hand", 0, 17),
        ("hand_limit", 1, 17),
    ];

    /// The keys with a word for a value, and the words (§5.1).
    pub const CHOICES: [(&'static str, &'static [&'static str]); 3] = [
        ("escape_result", &["draw", "loss"]),
        ("cap_result", &["hp", "draw"]),
        ("initiator", &["p1", "p2"]),
    ];

    /// Whether `key` is a variant key.
    pub fn is_key(key: &str) -> bool {
        Self::RANGES.iter().any(|(k, _, _)| *k == key)
            || Self::CHOICES.iter().any(|(k, _)| *k == key)
    }

    /// The problem with `value` for the variant key `key`, if any (§5.1's ranges).
    pub fn problem(key: &str, value: &serde_json::Value) -> Option<String> {
        if let Some((_, lo, hi)) = Self::RANGES.iter().find(|(k, _, _)| *k == key) {
            return match value.as_i64() {
                Some(n) if (i64::from(*lo)..=i64::from(*hi)).contains(&n) => None,
                _ => Some(format!(
                    "{key} is a whole number from {lo} to {hi}, not {value}"
                )),
            };
        }
        if let Some((_, words)) = Self::CHOICES.iter().find(|(k, _)| *k == key) {
            return match value.as_str() {
                Some(w) if words.contains(&w) => None,
                _ => Some(format!("{key} is one of {}, not {value}", words.join(", "))),
            };
        }
        None
    }

    /// The seat of the initiator (S1, Ruling 51).
    pub const fn initiator_seat(&self) -> usize {
        match self.initiator {
            Initiator::P1 => 0,
            Initiator::P2 => 1,
        }
    }
}
