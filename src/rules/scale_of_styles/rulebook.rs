//! The host's variant keys of rulings §5.1: one typed field per key, each defaulting to the
//! rulings' default game. The settings carry it flattened (so the keys sit at the top of the
//! lobby's `settings` object as §5.1 spells them) and the state carries a copy, so every
//! round reads the variant it plays by.

use serde::{Deserialize, Serialize};

pub use super::cards::AceSpeed;

/// Every variant of §5.1 but `max_rounds` (kept beside it in `Settings` and `State`).
/// `Default` is the default game of the rulings.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Rulebook {
    /// How many of his top cards a fighter may play from (Ruling 14, `window`).
    pub window: Window,
    /// Planned or shuffled decks (Ruling 13, `deck_order`).
    pub deck_order: DeckOrder,
    /// Jokers per pack (Ruling 12, `jokers`).
    pub jokers: Jokers,
    /// An Ace's Reaction Speed (Ruling 8, `ace_speed`).
    pub ace_speed: AceSpeed,
    /// How Initiative is counted (Rulings 9 and 28, `initiative`).
    pub initiative: InitiativeRule,
    /// What damage does and when a fighter is out (Rulings 15, 18 and 22, `end`).
    pub end: EndRule,
    /// Who wins when both are out in the same round (Ruling 19, `tiebreak`).
    pub tiebreak: Tiebreak,
    /// Whether stripped cards are shown to everyone (Ruling 17, `stripped_cards`).
    pub stripped_cards: StrippedCards,
}

impl Rulebook {
    /// The variant keys, as the settings spell them.
    pub const KEYS: [&'static str; 8] = [
        "window",
        "deck_order",
        "jokers",
        "ace_speed",
        "initiative",
        "end",
        "tiebreak",
        "stripped_cards",
    ];
}

/// `window` (Ruling 14): 1 to 5 cards, default 3. 1 is the seed's "Draw a card" exactly.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Window(u8);

impl Window {
    /// The window's size.
    pub const fn size(self) -> usize {
        self.0 as usize
    }
}

impl Default for Window {
    fn default() -> Window {
        Window(3)
    }
}

impl TryFrom<u8> for Window {
    type Error = String;

    fn try_from(n: u8) -> Result<Window, String> {
        match n {
            1..=5 => Ok(Window(n)),
            _ => Err(format!("the window is 1 to 5 cards, not {n}")),
        }
    }
}

impl From<Window> for u8 {
    fn from(w: Window) -> u8 {
        w.0
    }
}

/// `jokers` (Ruling 12): 0, 1 or 2 Jokers per pack, default 2.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Jokers(u8);

impl Jokers {
    /// How many.
    pub const fn count(self) -> u8 {
        self.0
    }
}

impl Default for Jokers {
    fn default() -> Jokers {
        Jokers(2)
    }
}

impl TryFrom<u8> for Jokers {
    type Error = String;

    fn try_from(n: u8) -> Result<Jokers, String> {
        match n {
            0..=2 => Ok(Jokers(n)),
            _ => Err(format!("a pack holds 0, 1 or 2 Jokers, not {n}")),
        }
    }
}

impl From<Jokers> for u8 {
    fn from(j: Jokers) -> u8 {
        j.0
    }
}

impl TryFrom<u8> for AceSpeed {
    type Error = String;

    fn try_from(n: u8) -> Result<AceSpeed, String> {
        match n {
            1 => Ok(AceSpeed::One),
            11 => Ok(AceSpeed::Eleven),
            _ => Err(format!("an Ace's speed is 1 or 11, not {n}")),
        }
    }
}

impl From<AceSpeed> for u8 {
    fn from(a: AceSpeed) -> u8 {
        match a {
            AceSpeed::One => 1,
            AceSpeed::Eleven => 11,
        }
    }
}

/// `deck_order` (Ruling 13).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeckOrder {
    /// Each player orders his deck at the `plan` step (T2).
    #[default]
    Planned,
    /// Both decks are shuffled at the start, P1 then P2; no `plan` step (T12).
    Shuffled,
}

/// `initiative` (Rulings 9 and 28).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InitiativeRule {
    /// `[d10 ≤ RS] + [d12 ≤ RS]` (T5).
    #[default]
    Speed,
    /// The number of even combat dice (S6).
    Even,
}

/// `end` (Rulings 15, 18 and 22).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndRule {
    /// Damage strips cards; an empty deck is out (T7, T9).
    #[default]
    Deck,
    /// Damage adds wounds; wounds reaching stamina are out (S13).
    Stamina,
}

/// `tiebreak` (Ruling 19).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreak {
    /// Both out: the higher margin wins; equal margins draw.
    #[default]
    Margin,
    /// Both out is always a draw.
    Draw,
}

/// `stripped_cards` (Ruling 17).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StrippedCards {
    /// Stripped cards go face up on the discard for everyone to see.
    #[default]
    Public,
    /// The public sees how many; only the owner sees which.
    Hidden,
}
