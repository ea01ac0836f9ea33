//! The tournaments, `/tournaments` (docs/tournaments.md, "The pages"): the newest first, each
//! with its game, format and where it stands, and the link to the form that creates one.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;

use super::tournament_lines::{format_name, progress};
use super::{Live, PageError};
use crate::http::AppState;

pub struct TournamentLine {
    pub id: String,
    pub name: String,
    pub detail: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "tournaments.html")]
pub struct TournamentsPage {
    pub title: String,
    pub live: Option<Live>,
    pub tournaments: Vec<TournamentLine>,
}

/// How many tournaments the page lists.
const LISTED: i64 = 100;

/// GET /tournaments.
pub async fn show_tournaments(State(app): State<AppState>) -> Result<TournamentsPage, PageError> {
    let tournaments = app
        .host
        .list_tournaments(LISTED)
        .await?
        .into_iter()
        .map(|t| {
            let stands = progress(&t.status, t.round, t.rounds_total);
            TournamentLine {
                id: t.id.to_string(),
                detail: format!("{} · {} · {stands}", t.game, format_name(t.format)),
                name: t.name,
            }
        })
        .collect();
    Ok(TournamentsPage {
        title: "Tournaments".into(),
        live: None,
        tournaments,
    })
}
