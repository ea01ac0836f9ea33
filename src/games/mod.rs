//! Each game as one module: its pure rules live in `crate::rules::<game>`, and here, next to
//! them, everything else a game decides — its join fields, its order forms built from its
//! *typed* prompt, its pools columns, its help and rules-page words, and its bot policy —
//! behind one trait, [`GameUi`], reached through the one dispatch, [`with_game!`].
//!
//! A game is registered by one line of [`games!`] below; that line generates its
//! [`GameKind`] variant, its place in [`GameKind::ALL`] and its `with_game!` arm. Nothing
//! else in Herald recognises a game by its id string: the id is parsed into a `GameKind`
//! once (`GameKind::from_str`), and from then on the compiler checks every match.

pub mod bst;
pub mod cite;
pub mod contests;
pub mod crossing_swords;
pub mod form;
pub mod scale_of_styles;
mod seam;
pub mod strategy;
pub mod telling;

use serde::Deserialize;
use serde_json::Value;

use crate::rules::Game;
pub mod create;
pub use form::{Button, Chip, Choice, Effect, Field, Group, OrderForm, words};
pub use strategy::Strategy;

/// What a game shows people and how its bot plays, on top of its rules.
pub trait GameUi: Game {
    /// The game's name for people ("Blood Sweat and Tears").
    const TITLE: &'static str;
    /// What a round's main-step answers are called in the deadline settings' words
    /// ("orders", "plays").
    const MAIN_ANSWERS: &'static str;
    /// One player's main-step answer as the waiting line names it ("Waiting for Dan's
    /// orders", "Waiting for Bob's play").
    const MAIN_ANSWER: &'static str;
    /// What the create form offers for this game (`create.rs`).
    const CREATE_SETTINGS: &'static [create::Setting];
    /// The game's part of the served OpenAPI document (`openapi.json` beside its module): its
    /// schemas, its member of each union, its examples, steps and view properties; assembled
    /// with the common part by `http/api/openapi.rs`.
    const OPENAPI: &'static str;
    /// A two-player game the host ends by naming a winner or a draw (the host panel's end
    /// form), rather than by the standings.
    const DUEL: bool;
    /// The public pools in the order the pools table shows them; any pool not listed follows,
    /// alphabetically.
    const POOLS: &'static [&'static str];
    /// Pools whose heading is not the key in words (`hp` → "HP"), as `(key, heading)`.
    const POOL_HEADINGS: &'static [(&'static str, &'static str)] = &[];
    /// The numeric pools the lobby page charts over the rounds, in this order.
    const CHARTS: &'static [&'static str] = &[];
    /// The series of rule ids the game's texts cite, each a capital letter before a number
    /// ("(A16)": Ruling A16): the pages link these to the rules page (`http/pages/cite.rs`)
    /// and leave any other parenthesis as words. By default the series most rulings share:
    /// A ambiguities, T turn steps, L lines of the seed, S setup.
    const RULE_SERIES: &'static [char] = &['A', 'T', 'L', 'S'];
    /// The words after which a revealed order's codes are drawn as chips ("token").
    const CHIP_AFTER: &'static [&'static str] = &[];

    /// Two log events in a row that tell one thing, as one line (`telling::log_words`): BST
    /// tells a draw privately to its drawer and then as a count to everyone. None by default.
    fn told_once(first: &Self::Event, next: &Self::Event) -> Option<String> {
        let _ = (first, next);
        None
    }

    /// `word` as a chip, if it is one of the game's tokens or pieces (`R7`); none by default.
    fn chip(word: &str) -> Option<Chip> {
        let _ = word;
        None
    }
    /// How people call an answer to a decision step `step` (every step but the main one,
    /// whose answer is [`GameUi::MAIN_ANSWER`]): by default its wire name with spaces for
    /// hyphens, as the rules name decision steps ("power-surge" is the Power Surge step).
    fn step_noun(step: &str) -> String {
        step.replace('-', " ")
    }

    /// The game's rules page for players (`/rules/{game}`), as HTML for the site's layout
    /// (`templates/rules_page.html`). Its template is the game's own; every rule id a
    /// prompt or a log line cites has an anchor there (see `http/pages/cite.rs`).
    fn rules_page() -> askama::Result<String>;

    /// Each player's place in the final standings (1 first, equal places tie): what a rated
    /// game rates (`docs/ratings.md`).
    fn places(outcome: &Self::Outcome) -> Vec<(crate::rules::PlayerId, u32)>;
    /// Each player's final points on a melee board, the score a tournament's board round
    /// totals (`docs/tournaments.md`); empty for a game without one (a duel is won or drawn).
    fn board_points(outcome: &Self::Outcome) -> Vec<(crate::rules::PlayerId, u32)> {
        let _ = outcome;
        Vec::new()
    }
    /// What the join form asks besides the name (BST: the character).
    fn join_fields() -> Vec<Field>;
    /// The order form for `prompt` at `step` of `round` (named with the game's cap in its
    /// heading: "Your orders for round 4 of 8"), with `pending` (the order already sent, if
    /// any, as sent) preselected.
    fn order_form(
        round: telling::RoundOf,
        step: &str,
        prompt: &Self::Prompt,
        pending: Option<&Value>,
    ) -> OrderForm;
    /// The settings' non-default rule variants in words, each naming its ruling.
    fn variants(settings: &Self::Settings) -> Vec<String>;
    /// The bot's answer to `prompt` at `step` (the order body without `round` and `step`),
    /// or None if it has none to give.
    fn bot<R: rand::Rng>(
        step: &str,
        prompt: &Self::Prompt,
        strategy: Strategy,
        rng: &mut R,
    ) -> Option<Value>;
    /// The load generator's lobby: how many seats to fill when `players` are asked for, and
    /// the settings to create it with.
    fn load_lobby(players: usize, max_rounds: u32) -> (usize, Value);
}

/// The head every prompt starts with, as the host sends it (`{"game", "round", "step", ...}`):
/// which game's prompt type reads the rest.
#[derive(Clone, Debug, Deserialize)]
pub struct PromptHead<'a> {
    pub game: GameKind,
    pub round: u32,
    #[serde(borrow)]
    pub step: std::borrow::Cow<'a, str>,
}

/// Registers the games: one line each, `Variant => rules type`. Generates [`GameKind`] (whose
/// serde name is the kebab-case of the variant, which a test holds equal to the rules' `ID`),
/// [`GameKind::ALL`], and [`with_game!`].
macro_rules! games {
    ($($Variant:ident => $Game:ty),+ $(,)?) => {
        /// A game Herald can host.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum GameKind {
            $($Variant),+
        }

        const GAME_COUNT: usize = [$(GameKind::$Variant),+].len();

        impl GameKind {
            /// Every game, in registration order.
            pub const ALL: [GameKind; GAME_COUNT] = [$(GameKind::$Variant),+];
        }

        /// Runs `$body` with `$G` bound to the game type of `$kind` (it implements both
        /// [`crate::rules::Game`] and [`GameUi`]).
        macro_rules! with_game {
            ($kind:expr, $G:ident => $body:expr) => {
                match $kind {
                    $($crate::games::GameKind::$Variant => {
                        type $G = $Game;
                        $body
                    })+
                }
            };
        }
        pub(crate) use with_game;
    };
}

games! {
    CrossingSwords => crate::rules::crossing_swords::CrossingSwords,
    Bst => crate::rules::bst::Bst,
    ScaleOfStyles => crate::rules::scale_of_styles::ScaleOfStyles,
    Contests => crate::rules::contests::Contests,
}

/// Every game's id and title, in registration order: the links to the rules pages that every
/// page's footer shows (`templates/base.html`).
pub fn rules_pages() -> Vec<(&'static str, &'static str)> {
    GameKind::ALL
        .into_iter()
        .map(|kind| with_game!(kind, G => (<G as Game>::ID, <G as GameUi>::TITLE)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_game_is_named_on_the_wire_by_its_rules_id() {
        for kind in GameKind::ALL {
            let wire = serde_json::to_value(kind).unwrap();
            let id = with_game!(kind, G => <G as Game>::ID);
            assert_eq!(wire, Value::from(id));
            assert_eq!(
                serde_json::from_value::<GameKind>(Value::from(id)).unwrap(),
                kind
            );
        }
    }
}
