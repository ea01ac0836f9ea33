//! A leaderboard per pool, `/ratings/{game}/{kind}` (docs/ratings.md, "Leaderboards"): the
//! settled ratings highest first, then the provisional ones (`1500?`), people and bots on
//! pages of their own. Plain HTML tables: it reads the same with JavaScript off and at a
//! phone's width. The links to every pool (`PoolLink`) are the home page's too.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Query, State};
use serde::Deserialize;
use serde_json::Value;

use super::{PageError, PagePath};
use crate::error::AppError;
use crate::host::{BoardEntry, GameKind};
use crate::http::AppState;
use crate::ratings::{Kind, Limit, LimitError, Pool, PoolError, System};

/// A link to one pool's leaderboard.
pub struct PoolLink {
    pub href: String,
    pub words: &'static str,
}

/// A game's two leaderboards, and its bots' ladder when the ladder is on.
pub struct GameBoards {
    pub title: &'static str,
    pub pools: Vec<PoolLink>,
    pub ladder: Option<String>,
}

/// Who a pool's kind is, in words.
fn kind_words(kind: Kind) -> &'static str {
    match kind {
        Kind::Humans => "people",
        Kind::Bots => "bots",
    }
}

fn href(pool: Pool) -> String {
    format!("/ratings/{pool}")
}

/// Every game's leaderboards (and ladders, when `ladder` is on), for the home page and the
/// leaderboard pages.
pub fn every_board(ladder: bool) -> Vec<GameBoards> {
    GameKind::ALL
        .into_iter()
        .map(|game| GameBoards {
            title: game.title(),
            ladder: ladder.then(|| format!("/ladder/{}", game.id())),
            pools: Kind::ALL
                .into_iter()
                .map(|kind| PoolLink {
                    href: href(Pool::new(game, kind)),
                    words: kind_words(kind),
                })
                .collect(),
        })
        .collect()
}

/// The leaderboards a lobby's pages link to: the pool its result was rated in; before that,
/// the one its bot gate allows (bots only, or people only), else both. None when unrated.
pub fn lobby_boards(game: GameKind, settings: &Value, result: Option<&Value>) -> Vec<PoolLink> {
    if settings["rated"] != Value::Bool(true) {
        return Vec::new();
    }
    let rated_in = result
        .and_then(|r| r["rating_changes"][0]["after"]["pool"].as_str())
        .and_then(|pool| pool.parse::<Pool>().ok());
    let kinds = match (rated_in, settings["bots"].as_str()) {
        (Some(pool), _) => vec![pool.kind],
        (None, Some("only")) => vec![Kind::Bots],
        (None, Some("forbidden")) => vec![Kind::Humans],
        (None, _) => Kind::ALL.to_vec(),
    };
    kinds
        .into_iter()
        .map(|kind| PoolLink {
            href: href(Pool::new(game, kind)),
            words: kind_words(kind),
        })
        .collect()
}

/// One line of the board.
pub struct Line {
    pub rank: usize,
    pub handle: String,
    pub shown: String,
    /// Glicko-2: "±deviation"; Weng-Lin: "μ … σ …".
    pub detail: String,
    pub games: u32,
}

#[derive(Template, WebTemplate)]
#[template(path = "leaderboard.html")]
pub struct LeaderboardPage {
    pub title: String,
    pub live: Option<super::Live>,
    pub game_title: &'static str,
    pub kind: &'static str,
    pub glicko2: bool,
    pub settled: Vec<Line>,
    pub provisional: Vec<Line>,
    pub limit: usize,
    /// The same board from the API.
    pub api: String,
    pub boards: Vec<GameBoards>,
}

#[derive(Deserialize)]
pub struct BoardQuery {
    limit: Option<String>,
}

fn line(entry: &BoardEntry) -> Line {
    let e = &entry.entry;
    Line {
        rank: entry.rank,
        handle: entry.handle.clone(),
        shown: entry.shown.clone(),
        detail: match e.volatility {
            Some(_) => format!("±{:.0}", e.deviation),
            None => format!("μ {:.1}, σ {:.1}", e.rating, e.deviation),
        },
        games: e.games,
    }
}

/// GET /ratings/{game}/{kind}: an unknown pool is a 404 page, a bad `?limit=` a 422 page, as the API.
pub async fn show_leaderboard(
    State(app): State<AppState>,
    PagePath((game, kind)): PagePath<(String, String)>,
    query: Result<Query<BoardQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<LeaderboardPage, PageError> {
    let Query(query) = query.map_err(|e| AppError::malformed("invalid-query", e.body_text()))?;
    let pool: Pool = format!("{game}/{kind}")
        .parse()
        .map_err(|e: PoolError| AppError::not_found(e.code(), e.to_string()))?;
    let limit = match query.limit.as_deref() {
        None => Limit::DEFAULT,
        Some(text) => text.parse().map_err(|e: LimitError| {
            AppError::rejected(LimitError::CODE, format!("{e} (in the address's ?limit=)"))
        })?,
    };
    let board = app.host.leaderboard(pool, limit).await?;
    let (provisional, settled): (Vec<&BoardEntry>, Vec<&BoardEntry>) =
        board.entries.iter().partition(|e| e.entry.provisional);
    let game_title = pool.game.title();
    let kind = kind_words(pool.kind);
    Ok(LeaderboardPage {
        title: format!("{game_title} leaderboard: {kind}"),
        live: None,
        game_title,
        kind,
        glicko2: pool.system() == System::Glicko2,
        settled: settled.into_iter().map(line).collect(),
        provisional: provisional.into_iter().map(line).collect(),
        limit: limit.get(),
        api: format!("/api/v1{}", href(pool)),
        boards: every_board(app.host.ladder_settings().is_ok()),
    })
}
