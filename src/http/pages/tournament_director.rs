//! The director's panel, `/tournaments/{id}/director` (docs/tournaments.md, "The pages"): the
//! round in play with a link to each game's host panel (the director's token hosts every
//! lobby of the tournament), the button that starts the next round, or why it cannot start
//! yet, the standings and their post, and the tournament's webhooks (`director_webhooks.rs`).
//! Only the browser holding the tournament's director
//! cookie sees it; the cookie is set by the create form and by the private director link.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::Response;
use serde::Deserialize;
use uuid::Uuid;

use super::posts::Exports;
use super::session::{CheckedForm, Csrf, Transport, cookie};
use super::tournament_lines::{GameLine, StandingLine, progress, round_lines, standing_lines};
use super::webhooks_section::WebhooksSection;
use super::{Live, PageError, PagePath, again, base_url, see_other};
use crate::error::AppError;
use crate::http::AppState;
use crate::http::api::tournament_id;

/// How long the director's cookie lives: a tournament of forum games runs for months.
const DIRECTOR_MAX_AGE: u64 = 180 * 24 * 3600;

fn cookie_name(id: Uuid) -> String {
    format!("herald_director_{}", id.simple())
}

/// The `Set-Cookie` header that remembers the director's token for tournament `id`, sent
/// only to that tournament's pages. Tokens are hex, so the value needs no quoting.
pub(super) fn director_cookie(id: Uuid, token: &str, transport: Transport) -> HeaderValue {
    let text = format!(
        "{}={token}; Path=/tournaments/{id}; Max-Age={DIRECTOR_MAX_AGE}; {}",
        cookie_name(id),
        transport.cookie_attributes()
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The director's token from the cookie, if it is tournament `id`'s; 401 otherwise.
pub(super) async fn director_token(
    app: &AppState,
    id: Uuid,
    headers: &HeaderMap,
) -> Result<String, PageError> {
    let token = cookie(headers, &cookie_name(id)).map(str::to_owned);
    match app.host.check_director(id, token.as_deref()).await {
        Ok(()) => Ok(token.unwrap_or_default()),
        // No such tournament, or a store that failed, is not a question of who asks.
        Err(error @ (AppError::NotFound { .. } | AppError::Internal(_))) => Err(PageError(error)),
        Err(_) => Err(PageError(AppError::unauthenticated(
            "director-only",
            "This page is for the tournament's director. Open the private link you were given when you created the tournament.",
        ))),
    }
}

/// One game of the round in play, with the link that opens its host panel.
pub struct DirectorGame {
    pub line: GameLine,
    pub host_link: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "tournament_director.html")]
pub struct DirectorPage {
    pub title: String,
    pub live: Option<Live>,
    pub csrf: String,
    pub id: String,
    pub progress: String,
    pub created: bool,
    pub error: Option<String>,
    /// The next round's number, when it can start now.
    pub next_round: Option<i64>,
    /// Closing entries comes with the first round.
    pub entries: bool,
    /// Why the next round cannot start yet (the refusal the button would get).
    pub refusal: Option<String>,
    /// The round in play and its games.
    pub round: Option<i64>,
    pub games: Vec<DirectorGame>,
    pub byes: String,
    pub entrants: usize,
    pub standings: Vec<StandingLine>,
    pub exports: Exports,
    pub share_link: String,
    pub private_link: String,
    /// While the tournament is not over: the stamp the script polls.
    pub stamp: Option<String>,
    /// The notifications section (`webhooks_section.rs`), as a lobby's host panel has it.
    pub notifications: WebhooksSection,
    /// A `standard` webhook's signing secret, on the page that answers its adding only.
    pub new_secret: Option<String>,
}

pub(super) async fn director_page(
    app: &AppState,
    id: Uuid,
    headers: &HeaderMap,
    csrf: String,
) -> Result<DirectorPage, PageError> {
    let token = director_token(app, id, headers).await?;
    let view = app.host.tournament(id).await?;
    let refusal = app.host.next_round_refusal(id).await?;
    let base = base_url(headers);
    let share_link = format!("{base}/tournaments/{id}");
    let (bbcode, markdown) = app.host.tournament_post(id, &share_link).await?;
    let current = round_lines(&view).into_iter().next();
    let stamp = match view.status.as_str() {
        "finished" => None,
        _ => Some(app.host.tournament_stamp(id).await?),
    };
    Ok(DirectorPage {
        title: format!("Director: {}", view.name),
        // Never reloaded by itself: it answers forms (see `Live::refresh`).
        live: None,
        csrf,
        id: id.to_string(),
        progress: progress(&view.status, view.round, view.rounds_total),
        created: false,
        error: None,
        next_round: refusal.is_none().then_some(view.round + 1),
        entries: view.status == "entries",
        refusal: refusal.map(|e| e.public_message()),
        round: current.as_ref().map(|r| r.round),
        byes: current.as_ref().map(|r| r.byes.clone()).unwrap_or_default(),
        games: current
            .map(|r| r.games)
            .unwrap_or_default()
            .into_iter()
            .map(|line| DirectorGame {
                host_link: format!("/lobbies/{}/as/{token}", line.lobby),
                line,
            })
            .collect(),
        entrants: view.entrants.iter().filter(|e| !e.withdrawn).count(),
        standings: standing_lines(&view),
        exports: Exports { bbcode, markdown },
        private_link: format!("{share_link}/as/{token}"),
        share_link,
        stamp,
        notifications: WebhooksSection::of_tournament(app, id, &token).await?,
        new_secret: None,
    })
}

#[derive(Deserialize)]
pub struct Flags {
    created: Option<String>,
    /// The webhook a test was just sent to.
    tested: Option<String>,
}

/// GET /tournaments/{id}/director.
pub async fn show_director(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    flags: Result<Query<Flags>, QueryRejection>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
) -> Result<DirectorPage, PageError> {
    let Query(flags) = flags.map_err(|e| AppError::malformed("invalid-query", e.body_text()))?;
    let id = tournament_id(&id)?;
    let mut page = director_page(&app, id, &headers, csrf).await?;
    page.created = flags.created.is_some();
    page.notifications.tested = flags.tested;
    Ok(page)
}

/// GET /tournaments/{id}/as/{token}: the private director link remembers the token in this
/// browser, then goes to the panel. A token that is not the director's is a 404.
pub async fn continue_as_director(
    State(app): State<AppState>,
    PagePath((id, token)): PagePath<(String, String)>,
    transport: Transport,
) -> Result<Response, PageError> {
    let id = tournament_id(&id)?;
    match app.host.check_director(id, Some(&token)).await {
        Ok(()) => {}
        Err(error @ AppError::Internal(_)) => return Err(PageError(error)),
        Err(_) => {
            return Err(PageError(AppError::not_found(
                "unknown-token",
                "This private link does not belong to this tournament. Ask whoever sent it for a new one.",
            )));
        }
    }
    Ok(super::see_other_from_private_link(
        &format!("/tournaments/{id}/director"),
        &[director_cookie(id, &token, transport)],
    ))
}

/// POST /tournaments/{id}/director/next-round: closes entries if open, pairs the next round
/// and starts its games; 303 back to the panel, or the panel again with the reason (409).
pub async fn start_next_round(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let id = tournament_id(&id)?;
    let token = director_token(&app, id, &headers).await?;
    match app.host.start_next_round(id, Some(&token)).await {
        Ok(_) => Ok(see_other(&format!("/tournaments/{id}/director"), &[])),
        Err(error) => {
            let page = director_page(&app, id, &headers, csrf).await?;
            Ok(again(error, |message| DirectorPage {
                error: Some(message),
                ..page
            }))
        }
    }
}
