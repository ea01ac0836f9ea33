//! A tournament's page, `/tournaments/{id}` (docs/tournaments.md): its entrants, each round's
//! games with links to their lobbies and their results, the byes, the standings, and the
//! standings post for the forum in BBCode and Markdown. Server-rendered: it works without
//! JavaScript.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::HeaderMap;

use super::posts::Exports;
use super::{Live, PageError, PagePath, base_url};
use crate::host::tournaments::{ResultView, TournamentView};
use crate::http::AppState;
use crate::http::api::tournament_id;

/// One game's line: its lobby, who plays it, and how it ended (empty while it runs).
pub struct GameLine {
    pub lobby: String,
    pub players: String,
    pub result: String,
}

pub struct RoundLines {
    pub round: i64,
    pub games: Vec<GameLine>,
    pub byes: String,
    pub finished: bool,
}

pub struct StandingLine {
    pub rank: u32,
    pub handle: String,
    pub points: String,
    pub tiebreaks: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "tournament.html")]
pub struct TournamentPage {
    pub title: String,
    pub live: Option<Live>,
    pub id: String,
    pub game: String,
    pub format: String,
    pub status: String,
    pub progress: String,
    pub entrants: Vec<(String, bool)>,
    pub rounds: Vec<RoundLines>,
    pub standings: Vec<StandingLine>,
    pub exports: Exports,
}

fn result_line(result: &ResultView) -> String {
    match result {
        ResultView::Won { winner } => format!("{winner} won"),
        ResultView::Forfeited { winner } => format!("{winner} won by forfeit"),
        ResultView::Drawn => "drawn".into(),
        ResultView::Board { winners, .. } => format!("won by {}", winners.join(", ")),
    }
}

fn lines(view: &TournamentView) -> Vec<RoundLines> {
    view.rounds
        .iter()
        .rev()
        .map(|r| RoundLines {
            round: r.round,
            finished: r.finished,
            byes: r.byes.join(", "),
            games: r
                .games
                .iter()
                .map(|g| GameLine {
                    lobby: g.lobby.to_string(),
                    players: g.players.join(" v "),
                    result: g.result.as_ref().map(result_line).unwrap_or_default(),
                })
                .collect(),
        })
        .collect()
}

/// GET /tournaments/{id}.
pub async fn show_tournament(
    State(app): State<AppState>,
    headers: HeaderMap,
    PagePath(id): PagePath<String>,
) -> Result<TournamentPage, PageError> {
    let id = tournament_id(&id)?;
    let view = app.host.tournament(id).await?;
    let url = format!("{}/tournaments/{id}", base_url(&headers));
    let (bbcode, markdown) = app.host.tournament_post(id, &url).await?;
    let progress = match view.status.as_str() {
        "entries" => "Entries are open".to_string(),
        "finished" => "Finished".to_string(),
        _ => format!("Round {} of {}", view.round, view.rounds_total),
    };
    let standings = view
        .standings
        .iter()
        .map(|s| StandingLine {
            rank: s.rank,
            handle: s.handle.clone(),
            points: s.points.to_string(),
            tiebreaks: serde_json::to_value(&s.tiebreaks)
                .ok()
                .and_then(|v| v.as_object().cloned())
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| format!("{} {v}", k.replace('_', " ")))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default(),
        })
        .collect();
    Ok(TournamentPage {
        title: view.name.clone(),
        live: None,
        id: id.to_string(),
        game: view.game.clone(),
        format: serde_json::to_value(view.format)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        status: view.status.clone(),
        progress,
        entrants: view
            .entrants
            .iter()
            .map(|e| (e.handle.clone(), e.withdrawn))
            .collect(),
        rounds: lines(&view),
        standings,
        exports: Exports { bbcode, markdown },
    })
}
