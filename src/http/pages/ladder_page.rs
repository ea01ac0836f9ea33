//! A game's ladder, `/ladder/{game}` (docs/bots.md, "The ladder"): the bots entered with their
//! ratings (the pool `{game}/bots`, whose leaderboard it links), the games in progress with
//! links, and the latest results. Plain lists and tables: it reads the same with JavaScript
//! off and at a phone's width.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;

use super::{Live, PageError, PagePath};
use crate::host::ladder::{LadderEntry, LadderGame, LadderOutcome};
use crate::http::AppState;

/// One game as the page lists it.
pub struct GameLine {
    pub href: String,
    pub players: String,
    /// Where it stands, in words.
    pub stands: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "ladder.html")]
pub struct LadderPage {
    pub title: String,
    pub live: Option<Live>,
    pub game_title: &'static str,
    pub every: String,
    pub games_per_bot: u32,
    pub entries: Vec<LadderEntry>,
    pub running: Vec<GameLine>,
    pub results: Vec<GameLine>,
    pub board: String,
    pub api: String,
}

/// A result in words: the winner, or a draw.
fn result_words(players: &[String], winners: &[String]) -> String {
    match winners {
        [winner] => format!("{winner} won"),
        _ if players.len() == 2 => "drawn".into(),
        [] => "nobody won".into(),
        shared => format!("shared by {}", shared.join(", ")),
    }
}

fn line(game: &LadderGame, stands: String) -> GameLine {
    GameLine {
        href: format!("/lobbies/{}", game.lobby),
        players: game.players.join(" v "),
        stands,
    }
}

/// GET /ladder/{game}: 404 while the ladder is off, 422 for an unknown game, as the API.
pub async fn show_ladder(
    State(app): State<AppState>,
    PagePath(game): PagePath<String>,
) -> Result<LadderPage, PageError> {
    let view = app.host.ladder_view(&game).await?;
    let mut running = Vec::new();
    let mut results = Vec::new();
    for game in &view.games {
        match &game.outcome {
            LadderOutcome::Starting => running.push(line(game, "starting".into())),
            LadderOutcome::Running => running.push(line(game, "in progress".into())),
            LadderOutcome::Finished { winners } => {
                results.push(line(game, result_words(&game.players, winners)));
            }
            LadderOutcome::Deleted => {}
        }
    }
    let game_title = view.game.title();
    let every = humantime::format_duration(std::time::Duration::from_secs(view.interval_seconds));
    Ok(LadderPage {
        title: format!("{game_title}: the bots' ladder"),
        live: None,
        game_title,
        every: every.to_string(),
        games_per_bot: view.games_per_bot,
        entries: view.entries,
        running,
        results,
        board: format!("/ratings/{}", view.pool),
        api: format!("/api/v1/ladder/{}", view.game.id()),
    })
}
