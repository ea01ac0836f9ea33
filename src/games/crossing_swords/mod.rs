//! Crossing Swords as Herald shows it: its rules are `crate::rules::crossing_swords`; here
//! are its order form ([`present`]) and its bot ([`bot`]).

pub mod bot;
mod create;
pub mod present;
pub mod rules_page;

use serde_json::{Value, json};

use super::{Field, GameUi, OrderForm};
use crate::games::Strategy;
use crate::rules::crossing_swords::{CrossingSwords, Prompt, Settings};

impl GameUi for CrossingSwords {
    const TITLE: &'static str = "Crossing Swords";
    const MAIN_ANSWERS: &'static str = "orders";
    const MAIN_ANSWER: &'static str = "orders";
    const CREATE_SETTINGS: &'static [crate::games::create::Setting] = create::SETTINGS;
    const OPENAPI: &'static str = include_str!("openapi.json");
    const DUEL: bool = false;
    const POOLS: &'static [&'static str] = &["hp", "vp", "focus", "dodge"];
    const POOL_HEADINGS: &'static [(&'static str, &'static str)] = &[("hp", "HP"), ("vp", "VP")];
    const CHARTS: &'static [&'static str] = &["hp", "vp"];

    /// Nothing but the name.
    /// Equal VP share a place (Ruling 32).
    fn places(outcome: &Self::Outcome) -> Vec<(crate::rules::PlayerId, u32)> {
        outcome
            .standings
            .iter()
            .map(|s| (s.player, u32::try_from(s.place).unwrap_or(u32::MAX)))
            .collect()
    }

    /// A board round totals each player's final VP (G7).
    fn board_points(outcome: &Self::Outcome) -> Vec<(crate::rules::PlayerId, u32)> {
        outcome.standings.iter().map(|s| (s.player, s.vp)).collect()
    }

    fn rules_page() -> askama::Result<String> {
        askama::Template::render(&rules_page::RulesPage)
    }

    fn join_fields() -> Vec<Field> {
        Vec::new()
    }

    /// One step only, `orders`.
    fn order_form(
        round: crate::games::telling::RoundOf,
        _step: &str,
        prompt: &Prompt,
        pending: Option<&Value>,
    ) -> OrderForm {
        present::orders(round, prompt, pending)
    }

    fn variants(settings: &Settings) -> Vec<String> {
        settings.rules.in_words()
    }

    /// Crossing Swords has no greedy strategy of its own: both play randomly.
    fn bot<R: rand::Rng>(
        _step: &str,
        prompt: &Prompt,
        strategy: Strategy,
        rng: &mut R,
    ) -> Option<Value> {
        match strategy {
            Strategy::Random => bot::random(prompt, rng),
            Strategy::Greedy => bot::greedy(prompt, rng),
        }
    }

    fn load_lobby(players: usize, max_rounds: u32) -> (usize, Value) {
        (
            players,
            json!({"max_players": players, "max_rounds": max_rounds}),
        )
    }
}
