//! BST answers, from the prompt alone (`docs/rules/bst.md` lists each step's answer). The random
//! policy picks uniformly among legal answers; the greedy one plays the tile that beats the most
//! opposing tiles in the matrix (a bot may know the rules: they are public) and takes every
//! benefit on offer.

use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use serde_json::{Map, Value, json};

use crate::rules::bst::Move;
use crate::rules::bst::matrix::{Cell, cell};

fn strings(prompt: &Map<String, Value>, field: &str) -> Vec<String> {
    prompt
        .get(field)
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn number(token: &str) -> u32 {
    token.get(1..).and_then(|n| n.parse().ok()).unwrap_or(0)
}

fn can_decline(prompt: &Map<String, Value>) -> bool {
    prompt
        .get("can_decline")
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

fn token_count(prompt: &Map<String, Value>, choices: usize) -> (usize, usize) {
    let min = prompt
        .get("min_tokens")
        .and_then(Value::as_u64)
        .unwrap_or(1) as usize;
    let max = prompt
        .get("max_tokens")
        .and_then(Value::as_u64)
        .map_or(choices, |m| m as usize);
    (min.min(choices), max.min(choices))
}

fn legal_moves(prompt: &Map<String, Value>) -> Vec<String> {
    prompt
        .get("moves")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|m| m["legal"] == true)
        .filter_map(|m| m["move"].as_str().map(str::to_string))
        .collect()
}

/// A uniformly random legal answer; an optional step is declined one time in four.
pub fn random(step: &str, prompt: &Map<String, Value>, rng: &mut impl rand::Rng) -> Option<Value> {
    if can_decline(prompt) && rng.random_range(0..4) == 0 {
        return Some(json!({"decline": true}));
    }
    let choices = strings(prompt, "choices");
    match step {
        "play" => {
            let mv = legal_moves(prompt).choose(rng)?.clone();
            let token = strings(prompt, "hand").choose(rng)?.clone();
            Some(json!({"move": mv, "token": token}))
        }
        "gather-power" => {
            let pairs = prompt.get("pairs")?.as_array()?;
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
        "follow-up"
            if prompt.get("random_pool") == Some(&Value::Bool(true))
                && rng.random_range(0..2) == 0 =>
        {
            Some(json!({"random_pool": true}))
        }
        "follow-up" | "parry-pick" | "evasion-pick" => Some(json!({"token": choices.choose(rng)?})),
        "set-aside" | "power-surge" | "channeler-steal" => Some(json!({"accept": true})),
        _ => None,
    }
}

/// How many of the ten opposing tiles `mv` beats outright (a win, or both win).
fn wins(mv: Move) -> usize {
    Move::ALL
        .into_iter()
        .filter(|&opp| match cell(mv, opp) {
            Cell::Win | Cell::BothWin | Cell::GuardSpecial => true,
            // Tie-breaks and colour checks turn on the tokens: not counted as sure wins.
            Cell::Lose
            | Cell::BothLose
            | Cell::LoseToGuardSpecial
            | Cell::TieBreak
            | Cell::TieBreakStandard
            | Cell::StandardVsGuard
            | Cell::GuardVsStandard => false,
        })
        .count()
}

/// The greedy answer: the legal tile that beats the most tiles, with the lowest token (it wins
/// tie-breaks); every benefit accepted; the highest tokens taken, the lowest given up.
pub fn greedy(step: &str, prompt: &Map<String, Value>) -> Option<Value> {
    let mut choices = strings(prompt, "choices");
    choices.sort_by_key(|t| number(t));
    match step {
        "play" => {
            let best = legal_moves(prompt)
                .into_iter()
                .filter_map(|m| m.parse::<Move>().ok().map(|mv| (wins(mv), m)))
                .max_by_key(|(score, _)| *score)?
                .1;
            let token = strings(prompt, "hand")
                .into_iter()
                .min_by_key(|t| number(t))?;
            Some(json!({"move": best, "token": token}))
        }
        "gather-power" => Some(json!({"tokens": prompt.get("pairs")?.as_array()?.first()?})),
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
