//! Every resolved round of a lobby, newest first, each a link to its own page: the lobby page
//! shows only the latest rounds inline (`lobby::RECENT_ROUNDS`), so a long game's older rounds
//! are reached from here, with the charts over the whole game.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;

use super::deadline::Stamp;
use super::{PageError, PagePath, lobby_id};
use crate::http::AppState;

#[derive(Template, WebTemplate)]
#[template(path = "rounds.html")]
pub struct RoundsPage {
    pub title: String,
    pub live: Option<super::Live>,
    pub lobby_id: String,
    pub lobby_name: String,
    /// Each round's number, its name with the game's cap ("Round 4 of 8") and when it
    /// resolved, newest first.
    pub rounds: Vec<(u32, String, Stamp)>,
    /// The game's charts over every round.
    pub charts: Vec<super::chart::Chart>,
}

pub async fn show_rounds(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
) -> Result<RoundsPage, PageError> {
    let id = lobby_id(&id)?;
    let lobby = app.host.lobby(id).await?;
    let mut rounds: Vec<(u32, String, Stamp)> = app
        .host
        .rounds(id)
        .await?
        .iter()
        .map(|r| {
            let name = crate::games::telling::round_name(r.round, lobby.max_rounds);
            (r.round, name, Stamp::of_millis(r.resolved_at))
        })
        .collect();
    rounds.reverse();
    let whole = super::round::history(&app, &lobby, None).await?;
    let start = app
        .host
        .start_pools(id)
        .await?
        .map(|pools| super::round_block::RoundBlock::start(&pools, &lobby, &whole.labels));
    let charts = super::chart::charts(lobby.game, start.as_ref(), &whole.blocks);
    Ok(RoundsPage {
        title: format!("{}: every round", lobby.name),
        live: None,
        lobby_id: id.to_string(),
        lobby_name: lobby.name.clone(),
        rounds,
        charts,
    })
}
