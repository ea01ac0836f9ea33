//! BST answers, from the prompt alone (`docs/rules/bst.md` lists each step's answer). The random
//! policy picks uniformly among legal answers; the greedy one plays the tile that beats the most
//! opposing tiles in the matrix (a bot may know the rules: they are public) and takes every
//! benefit on offer.

use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use serde_json::{Value, json};

use crate::rules::bst::matrix::{Cell, cell};
use crate::rules::bst::{Colour, Move, Prompt, Token};

/// How many tokens a `tokens` answer holds at least and at most, within what is offered.
fn token_count(prompt: &Prompt, choices: usize) -> (usize, usize) {
    let min = prompt.min_tokens.unwrap_or(1);
    let max = prompt.max_tokens.unwrap_or(choices);
    (min.min(choices), max.min(choices))
}

fn legal_moves(prompt: &Prompt) -> Vec<Move> {
    prompt
        .moves
        .iter()
        .flatten()
        .filter(|m| m.legal)
        .map(|m| m.tile)
        .collect()
}

/// A uniformly random legal answer; an optional step is declined one time in four.
pub fn random(step: &str, prompt: &Prompt, rng: &mut impl rand::Rng) -> Option<Value> {
    if prompt.can_decline && rng.random_range(0..4) == 0 {
        return Some(json!({"decline": true}));
    }
    let choices = prompt.choices.clone().unwrap_or_default();
    match step {
        "play" => {
            let mv = *legal_moves(prompt).choose(rng)?;
            let token = *prompt.hand.choose(rng)?;
            Some(json!({"move": mv, "token": token}))
        }
        "gather-power" => {
            let pairs = prompt.pairs.as_ref()?;
            Some(json!({"tokens": pairs.choose(rng)?}))
        }
        "overflow" | "finishing-extras" | "buy-tiebreak" => {
            let (min, max) = if step == "buy-tiebreak" {
                (2, 2)
            } else {
                token_count(prompt, choices.len())
            };
            let count = rng.random_range(min..=max);
            let mut tokens = choices;
            tokens.shuffle(rng);
            tokens.truncate(count);
            Some(json!({"tokens": tokens}))
        }
        "follow-up" if prompt.random_pool && rng.random_range(0..2) == 0 => {
            Some(json!({"random_pool": true}))
        }
        "follow-up" | "parry-pick" | "evasion-pick" => Some(json!({"token": choices.choose(rng)?})),
        "set-aside" | "power-surge" | "channeler-steal" => Some(json!({"accept": true})),
        _ => None,
    }
}

/// A token's number and whether its colour is Red or Wild (the Strikes' +2) or Blue or Wild
/// (the Defenses' heal).
fn colours(token: Token) -> (i32, bool, bool) {
    let n = i32::from(token.number());
    let colour = token.colour();
    (
        n,
        matches!(colour, Colour::Red | Colour::Wild),
        matches!(colour, Colour::Blue | Colour::Wild),
    )
}

/// What winning with `mv` and `token` is worth, in HP of damage or its equal (§3.3): the
/// damage dealt with its usual extras, or the value of a benefit (Charges, a token back).
/// `best_two` is the sum of the two highest other tokens (a Finishing Strike's extras).
fn win_value(mv: Move, token: Token, best_two: i32) -> f64 {
    let (n, red, blue) = colours(token);
    let red = if red { 2 } else { 0 };
    let heal = if blue { 1 } else { 0 };
    f64::from(match mv {
        // The draw and a Follow-up of about half a token.
        Move::StandardStrike => n + red + 3,
        // Off-Balance on the opponent and a likely Power Surge.
        Move::PiercingStrike => 5 + red + 3,
        Move::DashingStrike => n + red + 3,
        Move::LightningStrike => 7 + red + 1,
        Move::FinishingStrike => n + red + best_two,
        // The token comes back and one more is drawn.
        Move::Guard => 2 + heal,
        Move::CounterAttack => n / 2 + heal,
        // Off-Balance and a discard from the opponent's hand.
        Move::Parry => 6 + 2 + heal,
        Move::Evasion => 2 + heal,
        // Two Charges pay for the strongest Strikes and the Surges.
        Move::PowerUp => 3,
    })
}

/// What losing to a random opponent's `opp` costs on average: its win value with an average
/// token (6.5, a quarter of them Red or Wild).
fn loss_value(opp: Move) -> f64 {
    match opp {
        Move::StandardStrike => 10.0,
        Move::PiercingStrike => 8.5,
        Move::DashingStrike => 10.0,
        Move::LightningStrike => 8.5,
        Move::FinishingStrike => 13.0,
        Move::Guard => 2.0,
        Move::CounterAttack => 3.5,
        Move::Parry => 8.0,
        Move::Evasion => 2.0,
        Move::PowerUp => 3.0,
    }
}

/// The expected gain of playing `mv` with `token` against an opponent who picks any tile
/// uniformly (the random bot), from the matrix (§1.1): a win gains, a loss costs, a tie-break
/// or a colour check counts as even, both-win and both-lose count both sides or neither.
fn expected(mv: Move, token: Token, best_two: i32) -> f64 {
    let win = win_value(mv, token, best_two);
    let total: f64 = Move::ALL
        .into_iter()
        .map(|opp| match cell(mv, opp) {
            Cell::Win | Cell::GuardSpecial => win,
            Cell::Lose | Cell::LoseToGuardSpecial => -loss_value(opp),
            Cell::BothWin => win - loss_value(opp),
            Cell::BothLose => 0.0,
            Cell::TieBreak
            | Cell::TieBreakStandard
            | Cell::StandardVsGuard
            | Cell::GuardVsStandard => (win - loss_value(opp)) / 2.0,
        })
        .sum();
    let cost = match mv {
        Move::DashingStrike | Move::LightningStrike | Move::Parry | Move::Evasion => 1.5,
        Move::FinishingStrike => 4.5,
        _ => 0.0,
    };
    // A number that does not count is better spent low: keep the high ones.
    let (n, _, _) = colours(token);
    total / Move::ALL.len() as f64 - cost - f64::from(n) * 0.05
}

/// The greedy answer: the legal tile and token with the best expected gain against a random
/// opponent (see `expected`); every benefit accepted; the highest tokens taken, the lowest
/// given up.
pub fn greedy(step: &str, prompt: &Prompt) -> Option<Value> {
    let mut choices = prompt.choices.clone().unwrap_or_default();
    choices.sort_by_key(|t| t.number());
    match step {
        "play" => {
            let hand = &prompt.hand;
            let mut best: Option<(f64, Move, Token)> = None;
            for mv in legal_moves(prompt) {
                for (i, &token) in hand.iter().enumerate() {
                    let mut others: Vec<i32> = hand
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != i)
                        .map(|(_, &t)| colours(t).0)
                        .collect();
                    others.sort_unstable_by(|a, b| b.cmp(a));
                    let best_two = others.iter().take(2).sum();
                    let score = expected(mv, token, best_two);
                    if best.as_ref().is_none_or(|(top, _, _)| score > *top) {
                        best = Some((score, mv, token));
                    }
                }
            }
            let (_, mv, token) = best?;
            Some(json!({"move": mv, "token": token}))
        }
        "gather-power" => Some(json!({"tokens": prompt.pairs.as_ref()?.first()?})),
        "overflow" => {
            let (count, _) = token_count(prompt, choices.len());
            Some(json!({"tokens": &choices[..count]}))
        }
        "finishing-extras" => {
            let (_, count) = token_count(prompt, choices.len());
            Some(json!({"tokens": &choices[choices.len() - count..]}))
        }
        "buy-tiebreak" => Some(json!({"tokens": choices.get(..2)?})),
        "follow-up" | "parry-pick" | "evasion-pick" => Some(json!({"token": choices.last()?})),
        "set-aside" | "power-surge" | "channeler-steal" => Some(json!({"accept": true})),
        _ => None,
    }
}
