//! The whole duel, secrets included (rulings §3): both fighters with their decks (the battle
//! plans, secret) and face-up discards, the step that is open, the round in play while its
//! reactor decides, and the end once reached.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::cards::Card;
use super::events::{Award, EndReason, PlayerRef};
use super::rulebook::Rulebook;
use super::scale::Technique;
use crate::rules::Seat;

/// A card on a discard pile, face up (Ruling 17): played, or stripped by damage (T7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discarded {
    pub card: Card,
    /// True when damage stripped it unplayed; with `stripped_cards=hidden` only its owner
    /// sees which card it was.
    pub stripped: bool,
}

/// One fighter (S-1): his values, his plan and his discard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    pub who: PlayerRef,
    /// Experience Level 0-11, fixed during the match (T3, Ruling 21).
    pub level: u8,
    /// XP carried in (Ruling 21).
    pub xp: u32,
    /// The wounds that put him out with `end=stamina` (S13, Ruling 22).
    pub stamina: u32,
    /// Damage received with `end=stamina` (Ruling 22).
    pub wounds: u32,
    /// His two combat dice, by sides, in rolling order (Ruling 25; default d6, d8).
    pub combat_dice: [u8; 2],
    /// His battle plan: the undrawn cards, top first (T2). Secret: only he sees it.
    pub deck: Vec<Card>,
    /// His face-up pile, oldest first (S12, Ruling 17).
    pub discard: Vec<Discarded>,
}

/// One fighter's part of a round after the reveal and the roll (R3-R5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// The card played (R3).
    pub card: Card,
    /// The dice in R4 order: the two combat dice, the d10, the d12.
    pub dice: [u8; 4],
    /// The card's Reaction Speed; none for a Joker (Ruling 8).
    pub speed: Option<u8>,
    /// Initiative 0-2 (Ruling 9).
    pub initiative: u8,
    /// The technique the card starts him in (Ruling 7).
    pub start: Technique,
}

/// The round between the roll and the scores, when the Initiatives differ and the reactor
/// owes his shift (R6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clash {
    /// Both fighters, seat order.
    pub sides: [Side; 2],
    /// The fighter with the higher Initiative.
    pub reactor: Seat,
    /// The Initiative difference, 1 or 2.
    pub diff: u8,
}

impl Clash {
    /// The techniques the reactor may answer with (R6's table, Ruling 4).
    pub fn legal(&self) -> Vec<Technique> {
        self.sides[self.reactor.0].start.reach(self.diff)
    }
}

/// The open step (rulings §3.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum Step {
    /// Both order their decks before round 1 (S-3).
    Plan,
    /// Each fighter with two or more window cards picks one (R2).
    Play,
    /// The reactor picks his final technique (R6).
    Shift(Clash),
    /// The match is over.
    Over,
}

impl Step {
    /// The step's name on the wire.
    pub const fn name(&self) -> &'static str {
        match self {
            Step::Plan => "plan",
            Step::Play => "play",
            Step::Shift(_) => "shift",
            Step::Over => "finished",
        }
    }
}

/// How the match ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct End {
    pub reason: EndReason,
    /// The winner; none in a draw.
    pub winner: Option<Seat>,
    /// Each fighter's margin at the end (§3.2), seat order.
    pub margins: [i64; 2],
    /// The victor's award; none in a draw.
    pub award: Option<Award>,
}

/// The whole duel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The round under way, counted from 1 (after the end: the last round played).
    pub round: u32,
    /// The last round before the match ends on points (Ruling 23; absolute round numbers).
    pub max_rounds: Option<u32>,
    /// The variant keys, copied from the settings.
    pub rules: Rulebook,
    /// Both fighters, seat order.
    pub fighters: [Fighter; 2],
    /// The open step.
    pub step: Step,
    /// What is left of the `dice` test list (§3.5), consumed 8 per round before the RNG.
    /// Secret while the match runs.
    #[serde(default, skip_serializing_if = "VecDeque::is_empty")]
    pub scripted_dice: VecDeque<u8>,
    /// Set once the match is over.
    pub end: Option<End>,
}

impl State {
    /// The fighter at `seat` (0 or 1).
    pub fn fighter(&self, seat: Seat) -> Option<&Fighter> {
        self.fighters.get(seat.0)
    }

    /// The other seat of the duel.
    pub const fn other(seat: Seat) -> Seat {
        Seat(1 - seat.0)
    }

    /// The cards `seat` may play this round: the top `min(window, deck)` of his plan (R1).
    pub fn window(&self, seat: Seat) -> &[Card] {
        let deck = &self.fighters[seat.0].deck;
        &deck[..self.rules.window.size().min(deck.len())]
    }

    /// The seats that owe an answer now, in seat order (§3.3).
    pub fn owed(&self) -> Vec<Seat> {
        match &self.step {
            Step::Plan => vec![Seat(0), Seat(1)],
            Step::Play => [Seat(0), Seat(1)]
                .into_iter()
                .filter(|&s| self.window(s).len() >= 2)
                .collect(),
            Step::Shift(clash) => vec![clash.reactor],
            Step::Over => Vec::new(),
        }
    }

    /// Whether the open step is a `play` step nobody is asked about (R2: every window holds
    /// one card): the host resolves it with no orders and the server plays the top cards.
    pub fn unasked(&self) -> bool {
        self.end.is_none() && self.step == Step::Play && self.owed().is_empty()
    }

    /// Every card `seat` holds anywhere: deck, discard and the card in play (Rule §3.6's
    /// conservation), sorted in canonical order.
    pub fn all_cards(&self, seat: Seat) -> Vec<Card> {
        let f = &self.fighters[seat.0];
        let mut cards: Vec<Card> = f.deck.clone();
        cards.extend(f.discard.iter().map(|d| d.card));
        if let Step::Shift(clash) = &self.step {
            cards.push(clash.sides[seat.0].card);
        }
        cards.sort();
        cards
    }
}
