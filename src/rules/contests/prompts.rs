//! What each step asks of the combatant who owes it (§3.7's prompt column), typed.

use serde::{Deserialize, Serialize};

use super::ids::{Card, Phase, Spell, Wish};
use super::legal;
use super::orders::Action;
use super::state::{ContestStage, State, Step};
use crate::rules::Seat;

/// The options of a `declare` (P1's table), each only when open to him.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeclareOptions {
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub spells: Vec<Spell>,
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub rapid_shot: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub lucky_punk: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub berserk: bool,
    /// The most Gift of Fury energy he could spend.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub fury_max: Option<u32>,
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub art_of_killing: bool,
}

/// What a combatant owes now (the host adds `round` and `step`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Prompt {
    /// `opening` and `next` (W0): the wishes (none at the opening) and the legal actions.
    Window {
        after: Option<Phase>,
        wishes: Vec<Wish>,
        actions: Vec<Action>,
        hand: Vec<Card>,
        default_wish: Option<Wish>,
        can_decline: bool,
    },
    /// `declare` (P1).
    Declare {
        phase: Phase,
        options: DeclareOptions,
        energy: u32,
        can_decline: bool,
    },
    /// `set` and `tie` (K1, K6): the die, up to `guesses` guesses, and at `set` the cards.
    Dice {
        contest: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        tie: Option<u32>,
        what: String,
        challenger: bool,
        guesses: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        hand: Option<Vec<Card>>,
    },
    /// `face-up` (K3) and `discard` (A5): cards of the hand.
    Cards {
        contest: u32,
        hand: Vec<Card>,
        /// Exactly this many (`discard`), or any number (`face-up`: none).
        #[serde(skip_serializing_if = "Option::is_none")]
        exactly: Option<usize>,
        can_decline: bool,
    },
}

/// The prompt for `seat`, if it owes an answer now.
pub fn prompt(state: &State, seat: Seat) -> Option<Prompt> {
    if !legal::owed(state).contains(&seat) {
        return None;
    }
    let f = &state.fighters[seat.0];
    let contest = state.contest.as_ref();
    Some(match state.step {
        Step::Opening | Step::Next => {
            let after = legal::after(state);
            Prompt::Window {
                after,
                wishes: legal::wishes(state, seat),
                actions: legal::legal_actions(state, seat),
                hand: f.hand.clone(),
                default_wish: after.map(|p| match p {
                    Phase::Melee => Wish::Stay,
                    _ => Wish::Advance,
                }),
                can_decline: state.step == Step::Opening,
            }
        }
        Step::Declare => {
            let phase = state.phase.as_ref()?.phase;
            let options = match phase {
                Phase::Magic => DeclareOptions {
                    spells: Spell::ALL.to_vec(),
                    ..DeclareOptions::default()
                },
                Phase::Archery => DeclareOptions {
                    rapid_shot: legal::rapid_shot_open(state, seat),
                    lucky_punk: legal::lucky_punk_open(state, seat),
                    ..DeclareOptions::default()
                },
                Phase::Melee => DeclareOptions {
                    berserk: legal::berserk_open(state, seat),
                    fury_max: Some(legal::fury_max(state, seat)).filter(|k| *k > 0),
                    art_of_killing: legal::art_of_killing_open(state, seat),
                    ..DeclareOptions::default()
                },
            };
            Prompt::Declare {
                phase,
                options,
                energy: f.energy,
                can_decline: true,
            }
        }
        Step::Set | Step::Tie => {
            let c = contest?;
            Prompt::Dice {
                contest: c.number,
                tie: match c.stage {
                    ContestStage::Tie(t) => Some(t),
                    _ => None,
                },
                what: c.purpose.id().into(),
                challenger: c.challenger == seat,
                guesses: c.guesses[seat.0],
                hand: (state.step == Step::Set).then(|| f.hand.clone()),
            }
        }
        Step::FaceUp => Prompt::Cards {
            contest: contest?.number,
            hand: f.hand.clone(),
            exactly: None,
            can_decline: true,
        },
        Step::Discard => Prompt::Cards {
            contest: state.discard.as_ref()?.contest,
            hand: f.hand.clone(),
            exactly: Some(2),
            can_decline: false,
        },
        Step::Over => return None,
    })
}
