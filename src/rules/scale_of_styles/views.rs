//! The public and private views of a duel (rulings §3.4, api.md "The third game"): each
//! fighter's public pools, the table, what only the owner sees, and the result.

use serde::Serialize;

use super::cards::Card;
use super::events::EndReason;
use super::rulebook::{EndRule, StrippedCards};
use super::state::{State, Step};
use crate::rules::{PlayerId, Seat};

/// One fighter's public pools (§3.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pools {
    pub level: u8,
    pub xp: u32,
    pub combat_dice: [u8; 2],
    pub deck_size: usize,
    /// The face-up discard, oldest first. With `stripped_cards=hidden` the stripped cards are
    /// left out and only counted in `hidden_stripped` (Ruling 17).
    pub discard: Vec<Card>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden_stripped: Option<usize>,
    /// With `end=stamina` only (Ruling 22).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stamina: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wounds: Option<u32>,
}

/// A revealed card in play while the reactor decides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InPlay {
    pub player: PlayerId,
    pub card: Card,
    pub dice: [u8; 4],
    pub initiative: u8,
}

/// The public table: the round in play between the reveal and the shift (all of it public
/// since the reveal, R3-R6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table {
    pub round_cards: Vec<InPlay>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reactor: Option<PlayerId>,
}

/// What only the owner sees: his remaining deck in order, top first (his plan, §3.4), and
/// his whole discard (with the hidden strips).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Private {
    pub deck: Vec<Card>,
    pub discard: Vec<Card>,
}

/// One line of the final standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standing {
    pub player: PlayerId,
    pub name: String,
    /// 1 for the winner, 2 for the loser; both 1 in a draw.
    pub place: u32,
    pub deck_size: usize,
    /// The margin of §3.2.
    pub margin: i64,
    /// XP earned (the victor's face cards, Ruling 20; 0 for the others).
    pub xp_earned: u32,
    /// The fighter's Level and XP after the match (Ruling 21).
    pub level: u8,
    pub xp: u32,
}

/// The result (§3.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The winner's id; empty in a draw.
    pub winners: Vec<PlayerId>,
    pub reason: EndReason,
    /// The winner first; seat order in a draw.
    pub standings: Vec<Standing>,
}

pub fn pools(state: &State, seat: Seat) -> Pools {
    let f = &state.fighters[seat.0.min(1)];
    let hidden = state.rules.stripped_cards == StrippedCards::Hidden;
    let stamina = state.rules.end == EndRule::Stamina;
    Pools {
        level: f.level,
        xp: f.xp,
        combat_dice: f.combat_dice,
        deck_size: f.deck.len(),
        discard: f
            .discard
            .iter()
            .filter(|d| !(hidden && d.stripped))
            .map(|d| d.card)
            .collect(),
        hidden_stripped: hidden.then(|| f.discard.iter().filter(|d| d.stripped).count()),
        stamina: stamina.then_some(f.stamina),
        wounds: stamina.then_some(f.wounds),
    }
}

pub fn table(state: &State) -> Table {
    match &state.step {
        Step::Shift(clash) => Table {
            round_cards: clash
                .sides
                .iter()
                .zip(&state.fighters)
                .map(|(side, f)| InPlay {
                    player: f.who.id,
                    card: side.card,
                    dice: side.dice,
                    initiative: side.initiative,
                })
                .collect(),
            reactor: Some(state.fighters[clash.reactor.0].who.id),
        },
        Step::Plan | Step::Play | Step::Over => Table {
            round_cards: Vec::new(),
            reactor: None,
        },
    }
}

pub fn private(state: &State, seat: Seat) -> Private {
    let f = &state.fighters[seat.0.min(1)];
    Private {
        deck: f.deck.clone(),
        discard: f.discard.iter().map(|d| d.card).collect(),
    }
}

pub fn outcome(state: &State) -> Option<Outcome> {
    let end = state.end.as_ref()?;
    let mut standings: Vec<Standing> = state
        .fighters
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let won = end.winner == Some(Seat(i));
            let award = end.award.filter(|_| won);
            Standing {
                player: f.who.id,
                name: f.who.name.clone(),
                place: if won || end.winner.is_none() { 1 } else { 2 },
                deck_size: f.deck.len(),
                margin: end.margins[i],
                xp_earned: award.map_or(0, |a| a.earned),
                level: award.map_or(f.level, |a| a.level),
                xp: award.map_or(f.xp, |a| a.xp),
            }
        })
        .collect();
    // The winner first; a stable sort keeps seat order in a draw.
    standings.sort_by_key(|s| s.place);
    Some(Outcome {
        winners: end
            .winner
            .map(|w| state.fighters[w.0].who.id)
            .into_iter()
            .collect(),
        reason: end.reason,
        standings,
    })
}
