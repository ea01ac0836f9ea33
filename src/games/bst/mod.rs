//! Blood Sweat and Tears as Herald shows it: its rules are `crate::rules::bst`; here are its
//! join and order forms ([`present`]) and its bot ([`bot`]).

pub mod bot;
mod create;
pub mod present;
pub mod rules_page;

use serde_json::{Value, json};

use super::{Field, GameUi, OrderForm};
use crate::games::Strategy;
use crate::rules::bst::{Bst, Prompt, Settings};

impl GameUi for Bst {
    const TITLE: &'static str = "Blood Sweat and Tears";
    const MAIN_ANSWERS: &'static str = "plays";
    const MAIN_ANSWER: &'static str = "play";
    const CREATE_SETTINGS: &'static [crate::games::create::Setting] = create::SETTINGS;
    const OPENAPI: &'static str = include_str!("openapi.json");
    const DUEL: bool = true;
    const POOLS: &'static [&'static str] = &[
        "character",
        "hp",
        "charges",
        "poison",
        "off_balance",
        "hand_size",
    ];
    const POOL_HEADINGS: &'static [(&'static str, &'static str)] = &[("hp", "HP")];
    const CHARTS: &'static [&'static str] = &["hp"];
    const CHIP_AFTER: &'static [&'static str] = &["token", "tokens"];

    /// The winner first, the loser second; both first in a draw.
    fn places(outcome: &Self::Outcome) -> Vec<(crate::rules::PlayerId, u32)> {
        outcome
            .standings
            .iter()
            .map(|s| {
                let lost = !outcome.winners.is_empty() && !outcome.winners.contains(&s.player);
                (s.player, if lost { 2 } else { 1 })
            })
            .collect()
    }

    fn told_once(first: &Self::Event, next: &Self::Event) -> Option<String> {
        crate::rules::bst::log_words::drew_with_count(first, next)
    }

    fn chip(word: &str) -> Option<super::Chip> {
        present::chip(word)
    }

    /// The rules write the Follow-up with its hyphen (L209).
    fn step_noun(step: &str) -> String {
        match step {
            "follow-up" => step.into(),
            other => other.replace('-', " "),
        }
    }

    fn rules_page() -> askama::Result<String> {
        askama::Template::render(&rules_page::RulesPage::from_the_rules())
    }

    fn join_fields() -> Vec<Field> {
        present::join_fields()
    }

    fn order_form(
        round: crate::games::telling::RoundOf,
        step: &str,
        prompt: &Prompt,
        pending: Option<&Value>,
    ) -> OrderForm {
        present::form(round, step, prompt, pending)
    }

    /// BST has no variant keys.
    fn variants(_settings: &Settings) -> Vec<String> {
        Vec::new()
    }

    fn bot<R: rand::Rng>(
        step: &str,
        prompt: &Prompt,
        strategy: Strategy,
        rng: &mut R,
    ) -> Option<Value> {
        match strategy {
            Strategy::Random => bot::random(step, prompt, rng),
            Strategy::Greedy => bot::greedy(step, prompt),
        }
    }

    /// A duel, whatever the number of players asked for.
    fn load_lobby(_players: usize, max_rounds: u32) -> (usize, Value) {
        (2, json!({"max_rounds": max_rounds}))
    }
}
