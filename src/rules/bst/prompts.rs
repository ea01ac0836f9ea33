//! What each owed seat is asked, with its legal answers (§2.3). A prompt goes to its seat only
//! and may show that seat's own hand (and, at `parry-pick`, the revealed loser's hand, A33).

use serde::{Deserialize, Serialize};

use super::characters::Character;
use super::engine::HAND_LIMIT;
use super::legality::illegal_reason;
use super::moves::Move;
use super::orders::{choices, optional};
use super::state::{Pending, State};
use super::tokens::Token;
use crate::rules::Seat;

/// One tile as the play prompt shows it: its cost and whether T6 would replace it now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveOption {
    /// The tile.
    #[serde(rename = "move")]
    pub tile: Move,
    /// Its cost for this player (0 on a free turn, A21).
    pub cost: u8,
    /// True if it would be played as itself.
    pub legal: bool,
    /// What it would become at T6 if illegal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub becomes: Option<Move>,
    /// Why it would be replaced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A prompt (the host adds `round` and `step`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    /// What to answer, in a sentence.
    pub text: String,
    /// The seat's own hand.
    pub hand: Vec<Token>,
    /// `play`: every tile with its legality.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveOption>>,
    /// The tokens an answer may name (hand, matching tokens, the loser's hand, the discard).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<Vec<Token>>,
    /// `gather-power`: the same-number pairs available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<Vec<[Token; 2]>>,
    /// The fewest tokens `tokens` may hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_tokens: Option<usize>,
    /// The most tokens `tokens` may hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<usize>,
    /// `follow-up`: whether `{"random_pool": true}` is allowed (Assassin, A25).
    /// Left out when false, so read back as false when absent.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub random_pool: bool,
    /// Whether `{"decline": true}` is allowed.
    pub can_decline: bool,
}

fn pairs(hand: &[Token]) -> Vec<[Token; 2]> {
    let mut out: Vec<[Token; 2]> = Vec::new();
    for (i, a) in hand.iter().enumerate() {
        for b in &hand[i + 1..] {
            let pair = if a <= b { [*a, *b] } else { [*b, *a] };
            if a.number() == b.number() && !out.contains(&pair) {
                out.push(pair);
            }
        }
    }
    out
}

/// The prompt for `seat` at the current step, if it owes one.
pub fn prompt(s: &State, seat: Seat) -> Option<Prompt> {
    let pending = s.pending.as_ref()?;
    if !pending.seats().contains(&seat) {
        return None;
    }
    let me = &s.players[seat.0];
    let mut p = Prompt {
        text: String::new(),
        hand: me.hand.clone(),
        moves: None,
        choices: None,
        pairs: None,
        min_tokens: None,
        max_tokens: None,
        random_pool: false,
        can_decline: optional(pending),
    };
    let list = choices(s, seat, pending);
    match pending {
        Pending::Play => {
            p.text = "Choose a tile and a token from your hand: {\"move\", \"token\"}. Illegal tiles are replaced at the reveal (T6).".to_owned();
            p.moves = Some(
                Move::ALL
                    .iter()
                    .map(|&m| {
                        let reason = illegal_reason(s, seat, m);
                        MoveOption {
                            tile: m,
                            cost: if me.free_turn {
                                0
                            } else {
                                me.character.cost(m)
                            },
                            legal: reason.is_none(),
                            becomes: reason.as_ref().map(|_| m.replacement()),
                            reason: reason.map(|r| r.to_string()),
                        }
                    })
                    .collect(),
            );
        }
        Pending::Overflow { .. } => {
            let n = me.hand.len().saturating_sub(HAND_LIMIT);
            p.text = format!(
                "Your hand holds more than 9: discard {n} token(s), {{\"tokens\": [..]}} (A16)."
            );
            p.choices = Some(list);
            p.min_tokens = Some(n);
            p.max_tokens = Some(n);
        }
        Pending::SetAside { .. } => {
            p.text = "Your opponent holds no Charge: set their Piercing Strike aside? {\"accept\": true} or {\"decline\": true} (L307, A28).".to_owned();
        }
        Pending::BuyTiebreak { .. } => {
            p.text = "You lost the tie-break on numbers: discard two tokens matching your played token's colour to win instead, {\"tokens\": [a, b]}, or decline (A2).".to_owned();
            p.choices = Some(list);
            p.min_tokens = Some(2);
            p.max_tokens = Some(2);
        }
        Pending::FollowUp { .. } => {
            p.random_pool = me.character == Character::Assassin && !s.pool.is_empty();
            p.text = if p.random_pool {
                "Follow-up: discard a hand token for half its value, {\"token\"}, or use a random pool token, {\"random_pool\": true}, or decline (L209, L298).".to_owned()
            } else {
                "Follow-up: discard a hand token for half its value, {\"token\"}, or decline (L209).".to_owned()
            };
            p.choices = Some(list);
        }
        Pending::PowerSurge { .. } => {
            p.text = "Power Surge: spend 1 Charge for extra damage? {\"accept\": true} or decline (A10).".to_owned();
        }
        Pending::FinishingExtras { .. } => {
            let max = me.character.finishing_extras();
            p.text = format!(
                "Finishing Strike: discard up to {max} more token(s) for their full value, {{\"tokens\": [..]}}, or decline (A40)."
            );
            p.choices = Some(list);
            p.min_tokens = Some(1);
            p.max_tokens = Some(max);
        }
        Pending::ParryPick { .. } => {
            p.text = "Parry: pick the token your opponent discards from their revealed hand, {\"token\"} (A33).".to_owned();
            p.choices = Some(list);
        }
        Pending::EvasionPick { .. } => {
            p.text = "Evasion: take a token from the discard pile, {\"token\"} (A34).".to_owned();
            p.choices = Some(list);
        }
        Pending::ChannelerSteal { .. } => {
            p.text = "Take one of your gained Charges from your opponent? {\"accept\": true} or decline (A27).".to_owned();
        }
        Pending::GatherPower { .. } => {
            p.text = "Gather Power: discard two tokens of the same number for 1 Charge, {\"tokens\": [a, b]}, or decline (L187).".to_owned();
            p.pairs = Some(pairs(&me.hand));
            p.min_tokens = Some(2);
            p.max_tokens = Some(2);
        }
    }
    Some(p)
}
