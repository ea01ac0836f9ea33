//! The Scale of Styles duel as Herald shows it: its rules are `crate::rules::scale_of_styles`;
//! here are its join and order forms ([`present`]) and its bot ([`bot`]).

pub mod bot;
mod create;
pub mod present;
pub mod rules_page;

use serde_json::{Value, json};

use super::{Field, GameUi, OrderForm};
use crate::games::Strategy;
use crate::rules::scale_of_styles::rulebook::{
    AceSpeed, DeckOrder, EndRule, InitiativeRule, StrippedCards, Tiebreak,
};
use crate::rules::scale_of_styles::{Prompt, ScaleOfStyles, Settings};

impl GameUi for ScaleOfStyles {
    const TITLE: &'static str = "The Scale of Styles";
    const MAIN_ANSWERS: &'static str = "plays";
    const MAIN_ANSWER: &'static str = "play";
    const CREATE_SETTINGS: &'static [crate::games::create::Setting] = create::SETTINGS;
    const OPENAPI: &'static str = include_str!("openapi.json");
    const DUEL: bool = true;
    const POOLS: &'static [&'static str] = &[
        "level",
        "xp",
        "combat_dice",
        "deck_size",
        "wounds",
        "stamina",
        "discard",
    ];

    /// The pages and posts call each step as its form does: the `shift` step is the reactor's
    /// *reaction* (the rules' word, S8), the `plan` step the *battle plan* (T2).
    fn step_noun(step: &str) -> String {
        match step {
            "shift" => "reaction".into(),
            "plan" => "battle plan".into(),
            other => other.replace('-', " "),
        }
    }

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
        let mut out = Vec::new();
        if r.window.size() != 3 {
            out.push(crate::games::telling::counted(&format!(
                "Play window: {} card(s) (Ruling 14)",
                r.window.size()
            )));
        }
        if r.deck_order == DeckOrder::Shuffled {
            out.push("Shuffled decks, no battle plans (Ruling 13)".into());
        }
        if r.jokers.count() != 2 {
            out.push(crate::games::telling::counted(&format!(
                "{} Joker(s) per pack (Ruling 12)",
                r.jokers.count()
            )));
        }
        if r.ace_speed == AceSpeed::Eleven {
            out.push("An Ace has speed 11 (Ruling 8)".into());
        }
        if r.initiative == InitiativeRule::Even {
            out.push("Initiative counts even combat dice (Ruling 28)".into());
        }
        if r.end == EndRule::Stamina {
            out.push("Damage wounds against stamina; no cards are stripped (Ruling 22)".into());
        }
        if r.tiebreak == Tiebreak::Draw {
            out.push("Both out in one round is a draw (Ruling 19)".into());
        }
        if r.stripped_cards == StrippedCards::Hidden {
            out.push("Stripped cards are hidden from the opponent (Ruling 17)".into());
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
            Strategy::Greedy => bot::greedy(prompt),
        }
    }

    /// A duel, whatever the number of players asked for.
    fn load_lobby(_players: usize, max_rounds: u32) -> (usize, Value) {
        (2, json!({"max_rounds": max_rounds}))
    }
}
