//! The rules of each game for players, served at `/rules/{game}`: the page is the game's own
//! (`GameUi::rules_page`, next to its rules in `src/games/<game>/`), set in the site's layout
//! here, so a new game needs nothing in this file.

use askama::Template;
use askama_web::WebTemplate;

use axum::response::{IntoResponse, Response};

use super::{PageError, PagePath};
use crate::error::AppError;
use crate::games::{GameKind, GameUi, with_game};

#[derive(Template, WebTemplate)]
#[template(path = "rules_page.html")]
pub struct RulesPage {
    pub title: String,
    pub live: Option<super::Live>,
    /// The game's rules as its own template rendered them.
    pub body: String,
}

/// "A, B and C": the games that have a rules page, by their titles.
fn every_title() -> String {
    let titles: Vec<&str> = crate::games::rules_pages()
        .into_iter()
        .map(|(_, title)| title)
        .collect();
    match titles.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

pub async fn show_rules(PagePath(game): PagePath<String>) -> Result<Response, PageError> {
    let kind: GameKind = game.parse().map_err(|_| {
        AppError::not_found(
            "unknown-game",
            format!("There are rules here for {} only.", every_title()),
        )
    })?;
    let (title, body) = with_game!(kind, G => (<G as GameUi>::TITLE, G::rules_page()));
    let body = body.map_err(|e| AppError::Internal(format!("the {title} rules page: {e}")))?;
    Ok(RulesPage {
        title: format!("{title}: the rules"),
        live: None,
        body,
    }
    .into_response())
}
