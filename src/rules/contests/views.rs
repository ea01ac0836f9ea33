//! The public and private views of a duel (§3.8, api.md "The fourth game"): each combatant's
//! public entry, the table, what only the owner sees (his hand, in draw order; no deck order
//! for anyone), and the result.

use serde::Serialize;

use super::ids::{Attribute, Card, Phase};
use super::state::{Build, EndReason, Modifier, State, Step};
use crate::rules::{PlayerId, Seat};

/// The effective ratings (§2.5), without a contest's card bonuses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ratings {
    pub might: u32,
    pub skill: u32,
    pub mind: u32,
}

/// One combatant's public entry (§3.8): build, pools, ratings, modifiers, card counts and
/// the discard pile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pools {
    pub build: Build,
    pub max_hp: u32,
    pub hp: u32,
    pub energy: u32,
    /// Effective ratings (§2.5), without a contest's card bonuses.
    pub ratings: Ratings,
    /// The modifiers in force (§2.5).
    pub modifiers: Vec<Modifier>,
    /// Right where it hurts in force (−2 Skill, −2 Mind until the next Melee phase).
    pub right_where_it_hurts: bool,
    pub hand_size: usize,
    pub deck_size: usize,
    pub discard: Vec<Card>,
    /// The round a Make Funny Faces surcharge on him lasts to, if one holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub surcharged_until: Option<u32>,
    pub lucky_punk_used: bool,
}

/// The contest under way, as public as it is (§3.8): before K2 nothing of the dice; after K2
/// the guesses, the lost dice and whether a card lies face down.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ContestView {
    pub contest: u32,
    pub what: &'static str,
    pub challenger: PlayerId,
    pub guesses_allowed: [u32; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guesses: Option<[Vec<u8>; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost: Option<[Option<u8>; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face_down: Option<[bool; 2]>,
    /// The tie-break owed, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tie: Option<u32>,
}

/// The public table (§3.8): the phase count, the phase under way and its order of attacks,
/// the window's last phase, the contest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table {
    pub phase_count: u32,
    pub max_phases: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<Phase>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Phase>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attack_order: Option<Vec<PlayerId>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contest: Option<ContestView>,
}

/// What only the owner sees: his hand in draw order (§3.8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Private {
    pub hand: Vec<Card>,
}

/// One line of the final standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standing {
    pub player: PlayerId,
    pub name: String,
    /// 1 for the winner, 2 for the loser; both 1 in a draw.
    pub place: u32,
    pub hp: u32,
    pub max_hp: u32,
}

/// The result (§3.6): the winner (none: a draw) and the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub winners: Vec<PlayerId>,
    pub reason: EndReason,
    pub standings: Vec<Standing>,
}

/// `seat`'s public entry.
pub fn pools(state: &State, seat: Seat) -> Pools {
    let f = &state.fighters[seat.0.min(1)];
    Pools {
        build: f.build.clone(),
        max_hp: f.max_hp,
        hp: f.hp,
        energy: f.energy,
        ratings: Ratings {
            might: f.rating(Attribute::Might, 0),
            skill: f.rating(Attribute::Skill, 0),
            mind: f.rating(Attribute::Mind, 0),
        },
        modifiers: f.mods.clone(),
        right_where_it_hurts: f.rwih,
        hand_size: f.hand.len(),
        deck_size: f.deck.len(),
        discard: f.discard.clone(),
        surcharged_until: f.surcharged(state.round).then_some(f.surcharge_until),
        lucky_punk_used: f.lucky_used,
    }
}

/// The public table.
pub fn table(state: &State) -> Table {
    let contest = state.contest.as_ref().map(|c| {
        let after_k2 = c.stage != super::state::ContestStage::Set;
        let dice = || [c.dice[0].clone(), c.dice[1].clone()];
        ContestView {
            contest: c.number,
            what: c.purpose.id(),
            challenger: state.fighters[c.challenger.0].who.id,
            guesses_allowed: c.guesses,
            guesses: after_k2.then(|| dice().map(|d| d.map(|d| d.guesses).unwrap_or_default())),
            lost: after_k2.then(|| dice().map(|d| d.filter(|d| d.lost).map(|d| d.face))),
            face_down: after_k2.then_some([c.down[0].is_some(), c.down[1].is_some()]),
            tie: match c.stage {
                super::state::ContestStage::Tie(t) => Some(t),
                _ => None,
            },
        }
    });
    Table {
        phase_count: state.phases,
        max_phases: state.rules.max_phases,
        phase: state.phase.as_ref().map(|p| p.phase),
        after: state.window.as_ref().and_then(|w| w.after),
        attack_order: state
            .phase
            .as_ref()
            .filter(|p| !p.declaring)
            .map(|p| p.order.iter().map(|s| state.fighters[s.0].who.id).collect()),
        contest: contest.filter(|_| state.step != Step::Over),
    }
}

/// What `seat` alone sees.
pub fn private(state: &State, seat: Seat) -> Private {
    Private {
        hand: state.fighters[seat.0.min(1)].hand.clone(),
    }
}

/// The result, once the duel is over.
pub fn outcome(state: &State) -> Option<Outcome> {
    let end = state.end.as_ref()?;
    let mut standings: Vec<Standing> = state
        .fighters
        .iter()
        .enumerate()
        .map(|(i, f)| Standing {
            player: f.who.id,
            name: f.who.name.clone(),
            place: match end.winner {
                Some(w) if w.0 != i => 2,
                _ => 1,
            },
            hp: f.hp,
            max_hp: f.max_hp,
        })
        .collect();
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
