//! A resolved round's page: every revealed order, the full log, the pools after it, and the
//! forum exports of all three.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::HeaderMap;

use super::posts::{self, Exports, Links};
use super::round_block::RoundBlock;
use super::seat_labels::SeatLabels;
use super::{Live, PageError, PagePath, base_url, lobby_id};
use crate::error::AppError;
use crate::host::views::LobbyView;
use crate::http::AppState;
use crate::http::extract::round_number;

#[derive(Template, WebTemplate)]
#[template(path = "round.html")]
pub struct RoundPage {
    pub title: String,
    pub live: Option<Live>,
    pub lobby_id: String,
    pub lobby_name: String,
    pub block: RoundBlock,
    pub previous: Option<u32>,
    pub next: Option<u32>,
    pub exports: Exports,
    /// The export's name ("Round 3").
    pub export_title: String,
}

/// The lobby's resolved rounds as shown, and how each seat's substitutes are named.
pub struct Record {
    /// Oldest first, with the viewer's private log lines if a player.
    pub blocks: Vec<RoundBlock>,
    pub labels: SeatLabels,
}

/// The lobby's resolved rounds, oldest first, with the viewer's private log lines if a player.
pub async fn history(
    app: &AppState,
    lobby: &LobbyView,
    player_token: Option<&str>,
) -> Result<Record, AppError> {
    latest(app, lobby, player_token, usize::MAX).await
}

/// The lobby's `last` resolved rounds, oldest first, as [`history`] gives them.
pub async fn latest(
    app: &AppState,
    lobby: &LobbyView,
    player_token: Option<&str>,
    last: usize,
) -> Result<Record, AppError> {
    let history = app.host.latest_rounds(lobby.id, player_token, last).await?;
    let labels = SeatLabels::of(&history.substitutes);
    Ok(Record {
        blocks: history
            .rounds
            .iter()
            .map(|view| RoundBlock::of(view, lobby, &labels))
            .collect(),
        labels,
    })
}

pub async fn show_round(
    State(app): State<AppState>,
    PagePath((id, round)): PagePath<(String, String)>,
    headers: HeaderMap,
) -> Result<RoundPage, PageError> {
    let id = lobby_id(&id)?;
    let round = round_number(&round)?;
    let lobby = app.host.lobby(id).await?;
    let (_, hold) = super::seat_hold::viewer_of(&app, id, &headers).await?;
    let token = hold.as_ref().map(super::seat_hold::SeatHold::credential);
    let view = app.host.round(id, round, token).await?;
    let labels = SeatLabels::of(&app.host.substitutes(id).await?);
    let block = RoundBlock::of(&view, &lobby, &labels);
    let rounds: Vec<u32> = app.host.rounds(id).await?.iter().map(|r| r.round).collect();
    let base = base_url(&headers);
    let links = Links {
        base: &base,
        lobby: &lobby,
    };
    // The post is for the thread: built from the public round, never the viewer's private
    // lines (a BST player's draws), even on that player's own view of the page.
    let public = match token {
        Some(_) => RoundBlock::of(&app.host.round(id, round, None).await?, &lobby, &labels),
        None => RoundBlock::of(&view, &lobby, &labels),
    };
    let exports = Exports::of(&posts::round(&links, &public));
    Ok(RoundPage {
        title: format!("{}: {}", lobby.name, block.name().to_lowercase()),
        live: None,
        lobby_id: id.to_string(),
        lobby_name: lobby.name.clone(),
        previous: rounds.iter().copied().filter(|r| *r < round).max(),
        next: rounds.iter().copied().filter(|r| *r > round).min(),
        export_title: block.name(),
        block,
        exports,
    })
}

/// Whether a lobby is collecting orders now.
pub fn collecting(lobby: &LobbyView) -> bool {
    lobby.step.is_some()
}
