//! The checked answers (§3.7): a window action, a `declare` as it takes effect, and the
//! order each step's answer becomes once the rules accept it. What the steps ask and how an
//! answer is judged are `legal.rs` and `orders.rs`; the state holds these as played.

use serde::{Deserialize, Serialize};

use super::ids::{Ability, Card, Phase, Spell, Wish};

/// A `declare` answer (P1), as it takes effect.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declaration {
    /// Magic: the spell, if any.
    pub spell: Option<Spell>,
    pub rapid_shot: bool,
    pub lucky_punk: bool,
    pub berserk: bool,
    pub fury: u32,
    pub art_of_killing: bool,
}

/// A checked window action (W0's table).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum Action {
    /// Charge (opening, W6).
    Charge,
    /// Caught with Pants Down (opening, W9).
    CaughtWithPantsDown,
    /// Backstab! (opening, W3 and W7).
    Backstab { discard: Card, phase: Phase },
    /// Your Shoelace is untied (any window, W7).
    Shoelace { phase: Phase },
    /// No Way! (any window, W3).
    NoWay,
    /// Run like Hell (any window, W4).
    RunLikeHell,
    /// Dis-arm (any window, W8).
    DisArm,
    /// Point Blank Shot (any window, W8).
    PointBlankShot,
    /// Now you see me, now you don't (after Melee, W7).
    NowYouSeeMe,
    /// Tricky Teleport to Magic (after Melee, W6).
    TeleportToMagic,
    /// Tricky Teleport's escape (after Melee, W4).
    TeleportAway,
}

impl Action {
    /// The card the action plays from the hand (W3), if it is a card.
    pub const fn card(&self) -> Option<Card> {
        match self {
            Action::Charge => Some(Card::Charge),
            Action::CaughtWithPantsDown => Some(Card::CaughtWithPantsDown),
            Action::Shoelace { .. } => Some(Card::YourShoelaceIsUntied),
            Action::NoWay => Some(Card::NoWay),
            Action::DisArm => Some(Card::DisArm),
            Action::NowYouSeeMe => Some(Card::NowYouSeeMe),
            Action::Backstab { .. }
            | Action::RunLikeHell
            | Action::PointBlankShot
            | Action::TeleportToMagic
            | Action::TeleportAway => None,
        }
    }

    /// The ability it uses, if it is one.
    pub const fn ability(&self) -> Option<Ability> {
        match self {
            Action::Backstab { .. } => Some(Ability::Backstab),
            Action::RunLikeHell => Some(Ability::RunLikeHell),
            Action::PointBlankShot => Some(Ability::PointBlankShot),
            Action::TeleportToMagic | Action::TeleportAway => Some(Ability::TrickyTeleport),
            _ => None,
        }
    }

    /// The action in words.
    pub fn words(&self) -> String {
        match self {
            Action::Backstab { discard, phase } => {
                format!("backstab (discarding {discard}, for {phase})")
            }
            Action::Shoelace { phase } => format!("your-shoelace-is-untied (for {phase})"),
            Action::TeleportToMagic => "tricky-teleport to magic".into(),
            Action::TeleportAway => "tricky-teleport away".into(),
            other => other
                .card()
                .map(Card::id)
                .or(other.ability().map(Ability::id))
                .unwrap_or("an action")
                .to_owned(),
        }
    }
}

/// A checked order. Each is revealed when its step resolves, except a `set` whose contest
/// goes on to a `face-up` step: its die and face-down card stay hidden until the reveal (K4,
/// §3.8), which the contest's reveal event then shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "kebab-case")]
pub enum Order {
    /// `opening` or `next` (W0).
    Window {
        wish: Option<Wish>,
        action: Option<Action>,
    },
    /// `declare` (P1).
    Declare(Declaration),
    /// `set` (K1).
    Set {
        contest: u32,
        die: u8,
        guesses: Vec<u8>,
        down: Option<Card>,
        face_up: bool,
    },
    /// A missing `set` or `tie`: the server chooses the die and the guesses at resolution
    /// (§3.9, Ruling 50); no card, no face-up step.
    Chosen { contest: u32, tie: Option<u32> },
    /// `face-up` (K3).
    FaceUp { contest: u32, cards: Vec<Card> },
    /// `tie` (K6).
    Tie {
        contest: u32,
        tie: u32,
        die: u8,
        guesses: Vec<u8>,
    },
    /// `discard` (A5).
    Discard { contest: u32, cards: Vec<Card> },
}
