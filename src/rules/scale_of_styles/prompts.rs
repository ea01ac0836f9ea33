//! What each step asks of the fighter who owes it (rulings §3.3), typed: the plan's pack, the
//! play's window, the shift's reach with what each answer would deal and take.

use serde::{Deserialize, Serialize};

use super::cards::{Card, reaction_speed};
use super::round::combat_values;
use super::scale::Technique;
use super::state::{Clash, State, Step};
use crate::rules::Seat;

/// A card as a prompt offers it: its starting technique and Reaction Speed (R5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardChoice {
    pub card: Card,
    pub technique: Technique,
    /// None for a Joker (Initiative 2 whatever the dice, T8).
    pub speed: Option<u8>,
}

/// One legal shift answer and what it would do this round (R7-R8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShiftChoice {
    pub technique: Technique,
    pub attack: u32,
    pub defense: u32,
    /// The damage it would deal the opponent.
    pub deals: u32,
    /// The damage it would take.
    pub takes: u32,
}

/// One side of the revealed round, as the reactor sees it (Ruling 6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideView {
    pub card: Card,
    pub dice: [u8; 4],
    pub initiative: u8,
    pub technique: Technique,
}

/// What a fighter owes now (the host adds `round` and `step`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Prompt {
    /// `plan` (S-3): order up to the whole pack; `{"decline": true}` is an empty plan.
    Plan {
        /// His pack in canonical order (not secret: every pack is the same).
        pack: Vec<Card>,
        max_cards: usize,
        can_decline: bool,
    },
    /// `play` (R2): one card of the window; the default is the top card.
    Play {
        window: Vec<CardChoice>,
        default: Card,
        can_decline: bool,
    },
    /// `shift` (R6): the final technique; `{"decline": true}` keeps `from`.
    Shift {
        from: Technique,
        diff: u8,
        choices: Vec<ShiftChoice>,
        you: SideView,
        opponent: SideView,
        can_decline: bool,
    },
}

fn side_view(clash: &Clash, seat: Seat) -> SideView {
    let side = &clash.sides[seat.0];
    SideView {
        card: side.card,
        dice: side.dice,
        initiative: side.initiative,
        technique: side.start,
    }
}

/// The prompt for `seat`, if it owes an answer now.
pub fn prompt(state: &State, seat: Seat) -> Option<Prompt> {
    if !state.owed().contains(&seat) {
        return None;
    }
    match &state.step {
        Step::Plan => {
            let pack = Card::pack(state.rules.jokers.count());
            Some(Prompt::Plan {
                max_cards: pack.len(),
                pack,
                can_decline: true,
            })
        }
        Step::Play => {
            let level = state.fighters[seat.0].level;
            let window: Vec<CardChoice> = state
                .window(seat)
                .iter()
                .map(|&card| CardChoice {
                    card,
                    technique: card.starting_technique(),
                    speed: reaction_speed(card, level, state.rules.ace_speed),
                })
                .collect();
            Some(Prompt::Play {
                default: window.first()?.card,
                window,
                can_decline: false,
            })
        }
        Step::Shift(clash) => {
            let other = State::other(seat);
            let (mine, theirs) = (&clash.sides[seat.0], &clash.sides[other.0]);
            let (hi, lo) = combat_values(mine.card, mine.dice);
            let (ohi, olo) = combat_values(theirs.card, theirs.dice);
            let opponent = theirs.start.scores(ohi, olo);
            let choices = clash
                .legal()
                .into_iter()
                .map(|technique| {
                    let s = technique.scores(hi, lo);
                    ShiftChoice {
                        technique,
                        attack: s.attack,
                        defense: s.defense,
                        deals: s.attack.saturating_sub(opponent.defense),
                        takes: opponent.attack.saturating_sub(s.defense),
                    }
                })
                .collect();
            Some(Prompt::Shift {
                from: mine.start,
                diff: clash.diff,
                choices,
                you: side_view(clash, seat),
                opponent: side_view(clash, other),
                can_decline: true,
            })
        }
        Step::Over => None,
    }
}
