//! A tournament's page, `/tournaments/{id}` (docs/tournaments.md, "The pages"): its entrants,
//! each round's games with links to their lobbies and their results, the byes, the standings,
//! the standings post for the forum in BBCode and Markdown, and for a signed-in profile the
//! button that enters or withdraws it (`tournament_entry.rs`). Server-rendered: it works
//! without JavaScript; with it, the page follows the tournament's stamp and swaps itself in
//! when a game finishes or a round starts.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use uuid::Uuid;

use super::posts::Exports;
use super::session::Csrf;
use super::signed_in::session_of;
use super::tournament_director::director_token;
use super::tournament_lines::{
    GameLine, RoundLines, StandingLine, format_name, progress, round_lines, standing_lines,
};
use super::{Live, PageError, PagePath, base_url};
use crate::http::AppState;
use crate::http::api::tournament_id;

/// The signed-in visitor's place in the tournament.
#[derive(Default)]
pub struct YourEntry {
    /// The profile this browser is signed in as (None: signed out).
    pub handle: Option<String>,
    pub entered: bool,
    pub withdrawn: bool,
    /// The game of the round in play that seats this profile: (round, its line).
    pub game: Option<(i64, GameLine)>,
}

#[derive(Template, WebTemplate)]
#[template(path = "tournament.html")]
pub struct TournamentPage {
    pub title: String,
    pub live: Option<Live>,
    pub csrf: String,
    pub id: String,
    pub game: String,
    pub format: String,
    pub status: String,
    pub progress: String,
    pub entrants: Vec<(String, bool)>,
    pub rounds: Vec<RoundLines>,
    pub standings: Vec<StandingLine>,
    pub exports: Exports,
    /// While the tournament is not over: the stamp the script polls.
    pub stamp: Option<String>,
    /// With JavaScript off, reload every 30 s: only a page got by GET (see [`Live::refresh`]).
    pub refresh: bool,
    pub entries_open: bool,
    pub you: YourEntry,
    /// Why an entry or a withdrawal was refused.
    pub error: Option<String>,
    /// This browser holds the director's cookie: the page links to the panel.
    pub director: bool,
}

impl TournamentPage {
    /// A withdrawal while games are played forfeits the one in progress: it asks "I am sure".
    pub fn withdraw_needs_confirm(&self) -> bool {
        self.status == "running"
    }
}

/// The page as `headers`' browser sees it.
pub(super) async fn tournament_page(
    app: &AppState,
    headers: &HeaderMap,
    csrf: String,
    id: Uuid,
) -> Result<TournamentPage, PageError> {
    let view = app.host.tournament(id).await?;
    let url = format!("{}/tournaments/{id}", base_url(headers));
    let (bbcode, markdown) = app.host.tournament_post(id, &url).await?;
    let stamp = match view.status.as_str() {
        "finished" => None,
        _ => Some(app.host.tournament_stamp(id).await?),
    };
    let mut you = YourEntry::default();
    if let Some(session) = session_of(app, headers).await? {
        if let Some(entry) = app.host.tournament_entry(id, session.profile.id).await? {
            you.entered = true;
            you.withdrawn = entry.withdrawn;
            // Found by his entry, not by the names shown: an anonymous tournament shows the
            // seats' pseudonyms while a game runs.
            let lobby = app.host.tournament_game_of(id, session.profile.id).await?;
            let lobby = lobby.map(|l| l.to_string());
            you.game = round_lines(&view).into_iter().next().and_then(|r| {
                let round = r.round;
                r.games
                    .into_iter()
                    .find(|g| Some(&g.lobby) == lobby.as_ref())
                    .map(|g| (round, g))
            });
        }
        you.handle = Some(session.profile.handle);
    }
    Ok(TournamentPage {
        title: view.name.clone(),
        live: None,
        csrf,
        id: id.to_string(),
        game: view.game.clone(),
        format: format_name(view.format),
        status: view.status.clone(),
        progress: progress(&view.status, view.round, view.rounds_total),
        entrants: view
            .entrants
            .iter()
            .map(|e| (e.handle.clone(), e.withdrawn))
            .collect(),
        rounds: round_lines(&view),
        standings: standing_lines(&view),
        exports: Exports { bbcode, markdown },
        refresh: stamp.is_some(),
        stamp,
        entries_open: view.entries_open,
        you,
        error: None,
        director: director_token(app, id, headers).await.is_ok(),
    })
}

/// GET /tournaments/{id}.
pub async fn show_tournament(
    State(app): State<AppState>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    PagePath(id): PagePath<String>,
) -> Result<TournamentPage, PageError> {
    let id = tournament_id(&id)?;
    tournament_page(&app, &headers, csrf, id).await
}

/// GET /tournaments/{id}/stamp: the tournament's stamp as plain text, which the pages' script
/// polls to learn that a game finished or a round started (docs/tournaments.md, "The pages").
pub async fn show_stamp(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
) -> Result<Response, PageError> {
    let id = tournament_id(&id)?;
    let stamp = app.host.tournament_stamp(id).await?;
    Ok((
        [(
            CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        )],
        stamp,
    )
        .into_response())
}
