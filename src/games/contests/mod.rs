//! Contests, the Magic, Archery and Melee duel, as Herald shows it: its rules are
//! `crate::rules::contests`; here are its create form ([`create`]), its join and order forms
//! ([`present`]), its rules page and its bot ([`bot`]).

pub mod bot;
mod create;
pub mod present;
pub mod rules_page;

use serde_json::{Value, json};

use super::{Field, GameUi, OrderForm};
use crate::games::Strategy;
use crate::rules::contests::rulebook::{CapResult, EscapeResult, Initiator, Rulebook};
use crate::rules::contests::{Contests, Prompt, Settings};

impl GameUi for Contests {
    const TITLE: &'static str = "Contests";
    const MAIN_ANSWERS: &'static str = "wishes";
    const MAIN_ANSWER: &'static str = "wish";
    const CREATE_SETTINGS: &'static [crate::games::create::Setting] = create::SETTINGS;
    const OPENAPI: &'static str = include_str!("openapi.json");
    const DUEL: bool = true;
    const POOLS: &'static [&'static str] = &[
        "hp",
        "max_hp",
        "energy",
        "ratings",
        "hand_size",
        "deck_size",
        "discard",
    ];
    const POOL_HEADINGS: &'static [(&'static str, &'static str)] =
        &[("hp", "HP"), ("max_hp", "Max HP")];
    const CHARTS: &'static [&'static str] = &["hp", "energy"];
    /// The rulings' series: L lines of the seed, S setup, and the turn sequence told in
    /// parts (W window, P phase, K contest, A attacks, E end; §3).
    const RULE_SERIES: &'static [char] = &['L', 'S', 'W', 'P', 'K', 'A', 'E'];

    fn step_noun(step: &str) -> String {
        match step {
            "set" | "tie" => "die".into(),
            "face-up" => "face-up cards".into(),
            other => other.replace('-', " "),
        }
    }

    /// The standings already place the winner 1 and the loser 2, both 1 in a draw (§3.6).
    fn places(outcome: &Self::Outcome) -> Vec<(crate::rules::PlayerId, u32)> {
        outcome
            .standings
            .iter()
            .map(|s| (s.player, s.place))
            .collect()
    }

    fn rules_page() -> askama::Result<String> {
        askama::Template::render(&rules_page::RulesPage)
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

    /// The non-default variant keys of §5.1 in words, each with its ruling.
    fn variants(settings: &Settings) -> Vec<String> {
        let r = settings.rules;
        let d = Rulebook::default();
        let mut out = Vec::new();
        let mut number = |differs: bool, text: String| {
            if differs {
                out.push(text);
            }
        };
        number(r.hp != d.hp, format!("{} base hit points (Ruling 6)", r.hp));
        number(
            r.energy != d.energy,
            format!("{} energy (Ruling 7)", r.energy),
        );
        number(
            r.points != d.points,
            format!("Builds of {} points (Ruling 4)", r.points),
        );
        number(
            r.max_abilities != d.max_abilities,
            format!("Up to {} abilities (Ruling 5)", r.max_abilities),
        );
        number(
            r.base_guesses != d.base_guesses,
            crate::games::telling::counted(&format!(
                "{} guess(es) of each die (Ruling 18)",
                r.base_guesses
            )),
        );
        number(
            r.max_ties != d.max_ties,
            format!("Up to {} tie-breaks (Ruling 26)", r.max_ties),
        );
        number(
            r.max_phases != d.max_phases,
            format!("Ends on points after {} phases (Ruling 52)", r.max_phases),
        );
        number(
            r.opening_hand != d.opening_hand,
            format!("An opening hand of {} (Ruling 49)", r.opening_hand),
        );
        number(
            r.hand_limit != d.hand_limit,
            format!("Draws below {} cards (Ruling 49)", r.hand_limit),
        );
        if r.escape_result == EscapeResult::Loss {
            out.push("An escape loses the duel (Ruling 30)".into());
        }
        if r.cap_result == CapResult::Draw {
            out.push("The phase cap is a draw (Ruling 52)".into());
        }
        if r.initiator == Initiator::P2 {
            out.push("The second to join initiates (Ruling 51)".into());
        }
        out
    }

    fn bot<R: rand::Rng>(
        step: &str,
        prompt: &Prompt,
        strategy: Strategy,
        rng: &mut R,
    ) -> Option<Value> {
        let _ = step;
        match strategy {
            Strategy::Random => bot::random(prompt, rng),
            Strategy::Greedy => bot::greedy(prompt, rng),
        }
    }

    /// A duel, whatever the number of players asked for; the round cap is the phase cap
    /// (a round is a window and its phase).
    fn load_lobby(_players: usize, max_rounds: u32) -> (usize, Value) {
        (2, json!({"max_phases": max_rounds.clamp(1, 200)}))
    }
}
