//! The rules of each game for players, in the project's own words (from the rulings in
//! `docs/rules/`), served at `/rules/{game}`. Every rule id a prompt or a log line cites has an
//! anchor here, so the pages can link a citation to its rule (see `cite.rs`).

use askama::Template;
use askama_web::WebTemplate;

use axum::response::{IntoResponse, Response};

use super::{PageError, PagePath};
use crate::error::AppError;
use crate::host::GameKind;
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

#[derive(Template, WebTemplate)]
#[template(path = "rules_bst.html")]
pub struct BstRulesPage {
    pub title: String,
    pub live: Option<super::Live>,
    /// The columns: each tile's short name (as the rulings write it) and full name.
    pub moves: Vec<(&'static str, &'static str)>,
    pub matrix: Vec<MatrixRow>,
}

#[derive(Template, WebTemplate)]
#[template(path = "rules_crossing_swords.html")]
pub struct CrossingSwordsRulesPage {
    pub title: String,
    pub live: Option<super::Live>,
}

#[derive(Template, WebTemplate)]
#[template(path = "rules_scale_of_styles.html")]
pub struct ScaleOfStylesRulesPage {
    pub title: String,
    pub live: Option<super::Live>,
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
pub fn bst_matrix() -> Vec<MatrixRow> {
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

pub async fn show_rules(PagePath(game): PagePath<String>) -> Result<Response, PageError> {
    let kind: GameKind = game.parse().map_err(|_| {
        AppError::not_found(
            "unknown-game",
            "There are rules here for Crossing Swords, Blood Sweat and Tears and the Scale of Styles only.",
        )
    })?;
    Ok(match kind {
        GameKind::CrossingSwords => CrossingSwordsRulesPage {
            title: "Crossing Swords: the rules".into(),
            live: None,
        }
        .into_response(),
        GameKind::Bst => BstRulesPage {
            title: "Blood Sweat and Tears: the rules".into(),
            live: None,
            moves: Move::ALL
                .into_iter()
                .map(|m| (short(m), m.name()))
                .collect(),
            matrix: bst_matrix(),
        }
        .into_response(),
        GameKind::ScaleOfStyles => ScaleOfStylesRulesPage {
            title: "The Scale of Styles: the rules".into(),
            live: None,
        }
        .into_response(),
    })
}
