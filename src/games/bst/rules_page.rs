//! BST's rules page (`/rules/bst`): the rules in the project's words, with the matrix of
//! which tile beats which built from the rules' own table, so the page cannot disagree with
//! the game.

use askama::Template;

use crate::rules::bst::Move;
use crate::rules::bst::matrix::{Cell, cell};

/// One cell of the BST matrix as shown: a short mark, a class for its colour and a sentence
/// for screen readers and tooltips.
pub struct MatrixCell {
    pub mark: &'static str,
    pub class: &'static str,
    pub says: String,
}

/// One row of the BST matrix: my tile against each of the ten.
pub struct MatrixRow {
    pub name: &'static str,
    pub cells: Vec<MatrixCell>,
}

#[derive(Template)]
#[template(path = "rules_bst.html")]
pub struct RulesPage {
    /// The columns: each tile's short name (as the rulings write it) and full name.
    pub moves: Vec<(&'static str, &'static str)>,
    pub matrix: Vec<MatrixRow>,
}

impl RulesPage {
    /// The page with the tile names and the matrix read from the rules.
    pub fn from_the_rules() -> RulesPage {
        RulesPage {
            moves: Move::ALL
                .into_iter()
                .map(|m| (short(m), m.name()))
                .collect(),
            matrix: matrix(),
        }
    }
}

fn matrix_cell(me: Move, opp: Move) -> MatrixCell {
    let (mark, class, outcome) = match cell(me, opp) {
        Cell::Win => ("W", "win", "wins"),
        Cell::Lose => ("L", "lose", "loses"),
        Cell::BothWin => ("W=", "both-win", "both win"),
        Cell::BothLose => ("L=", "both-lose", "both lose"),
        Cell::GuardSpecial => ("W*", "win", "wins, with a Follow-up"),
        Cell::LoseToGuardSpecial => ("L*", "lose", "loses, and Guard may Follow-up"),
        Cell::TieBreak => (
            "TB",
            "even",
            "the lower number wins; equal numbers both win",
        ),
        Cell::TieBreakStandard => (
            "TB",
            "even",
            "the lower number wins; equal numbers both win; Off-Balance always loses",
        ),
        Cell::StandardVsGuard => ("C≠", "even", "wins if the colours differ"),
        Cell::GuardVsStandard => ("C=", "even", "wins if the colours match"),
    };
    MatrixCell {
        mark,
        class,
        says: format!("{} against {}: {outcome}", me.name(), opp.name()),
    }
}

/// A tile's three-letter name, as the rulings' matrix heads its columns (§1.1).
fn short(m: Move) -> &'static str {
    match m {
        Move::StandardStrike => "STD",
        Move::PiercingStrike => "PRC",
        Move::DashingStrike => "DSH",
        Move::LightningStrike => "LTN",
        Move::FinishingStrike => "FIN",
        Move::Guard => "GRD",
        Move::Parry => "PRY",
        Move::CounterAttack => "CTR",
        Move::Evasion => "EVA",
        Move::PowerUp => "PWR",
    }
}

/// The BST matrix, rows and columns in the rulings' order (§1.1), from the rules' own table.
pub fn matrix() -> Vec<MatrixRow> {
    Move::ALL
        .into_iter()
        .map(|me| MatrixRow {
            name: me.name(),
            cells: Move::ALL
                .into_iter()
                .map(|opp| matrix_cell(me, opp))
                .collect(),
        })
        .collect()
}
