//! A resolved round's page: every revealed order, the full log, the pools after it, and the
//! forum exports of all three.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::HeaderMap;

use super::cite::{Cited, cite};
use super::deadline::Stamp;
use super::posts::{self, Exports, Links};
use super::session::Tokens;
use super::table::{PoolsTable, names, order_line};
use super::{Live, PageError, PagePath, base_url, lobby_id};
use crate::error::AppError;
use crate::host::GameKind;
use crate::host::views::LobbyView;
use crate::http::AppState;
use crate::http::extract::round_number;

/// One resolved round as shown: orders and log as lines, the pools after it.
pub struct RoundBlock {
    /// The game played, whose codes the orders show as chips.
    pub game: GameKind,
    pub round: u32,
    pub orders: Vec<String>,
    /// The log's lines, their rule citations linked to `game`'s rules page.
    pub log: Vec<Cited>,
    pub table: PoolsTable,
    /// When the round resolved (none while it runs).
    pub resolved: Option<Stamp>,
}

/// The `text` lines of a log's entries, with their citations.
fn log_lines(log: &[serde_json::Value], game: GameKind) -> Vec<Cited> {
    log.iter()
        .filter_map(|e| e["text"].as_str().map(|text| cite(text, game.id())))
        .collect()
}

impl RoundBlock {
    /// The revealed orders with the game's codes as chips (`chips.rs`).
    pub fn shown_orders(&self) -> Vec<Vec<super::chips::Piece>> {
        self.orders
            .iter()
            .map(|line| super::chips::order_pieces(self.game, line))
            .collect()
    }

    pub fn of(view: &crate::host::RoundView, game: GameKind) -> RoundBlock {
        let players = view.pools["players"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let names = names(&players);
        RoundBlock {
            game,
            round: view.round,
            orders: view.orders.iter().map(|o| order_line(o, &names)).collect(),
            log: log_lines(&view.log, game),
            table: PoolsTable::of(game, &players, false),
            resolved: Some(Stamp::of_millis(view.resolved_at)),
        }
    }
}

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

/// The lobby's resolved rounds, oldest first, with the viewer's private log lines if a player.
pub async fn history(
    app: &AppState,
    lobby: &LobbyView,
    player_token: Option<&str>,
) -> Result<Vec<RoundBlock>, AppError> {
    let views = app.host.history(lobby.id, player_token).await?;
    Ok(views
        .iter()
        .map(|view| RoundBlock::of(view, lobby.game))
        .collect())
}

pub async fn show_round(
    State(app): State<AppState>,
    PagePath((id, round)): PagePath<(String, String)>,
    headers: HeaderMap,
) -> Result<RoundPage, PageError> {
    let id = lobby_id(&id)?;
    let round = round_number(&round)?;
    let lobby = app.host.lobby(id).await?;
    let tokens = Tokens::of(&headers, id);
    let viewer = app.host.viewer(id, None, tokens.player.as_deref()).await?;
    let token = viewer.player.as_ref().and(tokens.player.as_deref());
    let view = app.host.round(id, round, token).await?;
    let block = RoundBlock::of(&view, lobby.game);
    let rounds: Vec<u32> = app.host.rounds(id).await?.iter().map(|r| r.round).collect();
    let base = base_url(&headers);
    let links = Links {
        base: &base,
        lobby: &lobby,
    };
    // The post is for the thread: built from the public round, never the viewer's private
    // lines (a BST player's draws), even on that player's own view of the page.
    let public = match token {
        Some(_) => RoundBlock::of(&app.host.round(id, round, None).await?, lobby.game),
        None => RoundBlock::of(&view, lobby.game),
    };
    let exports = Exports::of(&posts::round(&links, &public));
    Ok(RoundPage {
        title: format!("{}: round {round}", lobby.name),
        live: None,
        lobby_id: id.to_string(),
        lobby_name: lobby.name.clone(),
        previous: rounds.iter().copied().filter(|r| *r < round).max(),
        next: rounds.iter().copied().filter(|r| *r > round).min(),
        export_title: format!("Round {round}"),
        block,
        exports,
    })
}

/// What the running round has revealed so far (BST: the play step while its decision steps
/// run), if anything.
pub fn so_far(lobby: &LobbyView) -> Option<RoundBlock> {
    let current = lobby.current_round.as_ref()?;
    let names = names(&lobby.players);
    Some(RoundBlock {
        game: lobby.game,
        round: current["round"]
            .as_u64()
            .and_then(|r| u32::try_from(r).ok())?,
        orders: current["orders"]
            .as_array()?
            .iter()
            .map(|o| order_line(o, &names))
            .collect(),
        log: log_lines(current["log"].as_array()?, lobby.game),
        table: PoolsTable::default(),
        resolved: None,
    })
}

/// Whether a lobby is collecting orders now.
pub fn collecting(lobby: &LobbyView) -> bool {
    lobby.step.is_some()
}
