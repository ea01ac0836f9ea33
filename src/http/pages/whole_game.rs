//! The whole game as one forum post: every resolved round (public lines only, whoever looks),
//! then the final standings once the game is over.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::HeaderMap;

use super::posts::{self, Exports, Links};
use super::round::history;
use super::table::{Standings, names};
use super::{Live, PageError, PagePath, base_url, lobby_id};
use crate::http::AppState;

#[derive(Template, WebTemplate)]
#[template(path = "whole_game.html")]
pub struct WholeGamePage {
    pub title: String,
    pub live: Option<Live>,
    pub lobby_id: String,
    pub lobby_name: String,
    pub rounds: usize,
    pub finished: bool,
    pub exports: Exports,
}

pub async fn show_whole_game(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
) -> Result<WholeGamePage, PageError> {
    let id = lobby_id(&id)?;
    let lobby = app.host.lobby(id).await?;
    // No player token: a post for the thread carries no one's private lines.
    let record = history(&app, &lobby, None).await?;
    let rounds = record.blocks;
    let names = names(&lobby.players);
    let result = lobby
        .result
        .as_ref()
        .map(|r| Standings::of(lobby.game, r, &names, &record.labels));
    let base = base_url(&headers);
    let links = Links {
        base: &base,
        lobby: &lobby,
    };
    let exports = Exports::of(&posts::whole_game(&links, &rounds, result.as_ref()));
    Ok(WholeGamePage {
        title: format!("{}: the whole game", lobby.name),
        live: None,
        lobby_id: id.to_string(),
        lobby_name: lobby.name.clone(),
        rounds: rounds.len(),
        finished: result.is_some(),
        exports,
    })
}
