//! Tournaments with the host as director (docs/tournaments.md, "How the server keeps them"):
//! creating one, its public view, entering and withdrawing (`entries.rs`), pairing and starting
//! each round in lobbies whose host is the director (`rounds.rs`, `lobbies.rs`), and reading
//! the games' results into the pure core's records (`record.rs`), which counts the standings.

mod create;
mod entries;
mod lobbies;
mod masks;
pub mod news;
mod record;
mod rounds;
mod webhooks;

use serde::Serialize;
use uuid::Uuid;

use super::Host;
use super::auth::hash_token;
use crate::error::AppError;
use crate::store::TournamentRecord;
use crate::tournament::{EntrantId, Format, StandingRow, StandingsPost, named};
use record::{StoredResult, result_of};

pub use create::{NewTournament, TournamentCreated};

/// `GET /api/v1/tournaments/{id}`.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentView {
    pub id: Uuid,
    pub game: String,
    pub name: String,
    pub format: Format,
    pub status: String,
    pub round: i64,
    pub rounds_total: i64,
    /// Melee: the most players at a board.
    pub board_size: Option<i64>,
    /// Whether the server starts each next round when the last game of a round finishes.
    pub auto_rounds: bool,
    /// Whether a profile may still enter (late, into a Swiss or a melee, while fewer than half
    /// its rounds have started).
    pub entries_open: bool,
    pub entrants: Vec<EntrantView>,
    pub rounds: Vec<RoundView>,
    pub standings: Vec<StandingRow>,
}

#[derive(Clone, Debug, Serialize)]
pub struct EntrantView {
    pub handle: String,
    pub withdrawn: bool,
    /// The first round he may be paired in (later than 1 for a late entrant).
    pub first_round: i64,
}

#[derive(Clone, Debug, Serialize)]
pub struct RoundView {
    pub round: i64,
    pub games: Vec<GameView>,
    pub byes: Vec<String>,
    /// Whether every game of the round has finished.
    pub finished: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    pub lobby: Uuid,
    /// In seat order: the entrants' handles, or in an anonymous tournament, until the game's
    /// result is known, the seats' pseudonyms (`masks.rs`).
    pub players: Vec<String>,
    /// Null while the game runs.
    pub result: Option<ResultView>,
}

/// A finished tournament game's result, by its `kind`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ResultView {
    Won {
        winner: String,
    },
    Forfeited {
        winner: String,
    },
    Drawn,
    /// A melee board: its winners and every entrant's final points, by handle.
    Board {
        winners: Vec<String>,
        vp: std::collections::BTreeMap<String, u32>,
    },
}

/// One line of `GET /api/v1/tournaments`.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentSummary {
    pub id: Uuid,
    pub game: String,
    pub name: String,
    pub format: Format,
    pub status: String,
    pub round: i64,
    pub rounds_total: i64,
}

pub fn tournament_not_found(id: Uuid) -> AppError {
    AppError::not_found(
        "unknown-tournament",
        format!("There is no tournament {id}."),
    )
}

impl Host {
    async fn tournament_record(&self, id: Uuid) -> Result<TournamentRecord, AppError> {
        self.store
            .tournament(id)
            .await?
            .ok_or_else(|| tournament_not_found(id))
    }

    /// The newest tournaments first.
    pub async fn list_tournaments(&self, limit: i64) -> Result<Vec<TournamentSummary>, AppError> {
        let rows = self.store.list_tournaments(limit.clamp(1, 200)).await?;
        rows.into_iter()
            .map(|t| {
                Ok(TournamentSummary {
                    id: t.id,
                    format: record::format_of(&t.format)?,
                    game: t.game,
                    name: t.name,
                    status: t.status,
                    round: t.round,
                    rounds_total: t.rounds_total,
                })
            })
            .collect()
    }

    /// The public view of a tournament, with the results of the games finished so far.
    pub async fn tournament(&self, id: Uuid) -> Result<TournamentView, AppError> {
        self.settle_tournament(id).await?;
        let record = self.tournament_record(id).await?;
        view(&record)
    }

    /// The tournament's name, read as it stands (no settling: the delivery worker asks).
    pub async fn tournament_name(&self, id: Uuid) -> Result<String, AppError> {
        Ok(self.tournament_record(id).await?.tournament.name)
    }

    /// Whether `token` is the director's of tournament `id` (401 without one, 403 another).
    pub async fn check_director(&self, id: Uuid, token: Option<&str>) -> Result<(), AppError> {
        let record = self.tournament_record(id).await?;
        director(&record, token)
    }

    /// A stamp that moves whenever what the tournament's pages show moves: an entry, a
    /// withdrawal, a round paired (each moves the `version`), a game's result, a round closed
    /// (docs/tournaments.md, "The pages"). It settles first, as every read of the tournament
    /// does, so that a settle that failed after a game is done by the next poll.
    pub async fn tournament_stamp(&self, id: Uuid) -> Result<String, AppError> {
        self.settle_tournament(id).await?;
        let record = self.tournament_record(id).await?;
        let results = record.games.iter().filter(|g| g.result.is_some()).count();
        let closed = record
            .rounds
            .iter()
            .filter(|r| r.closed_at.is_some())
            .count();
        Ok(format!("{}.{results}.{closed}", record.tournament.version))
    }

    /// The standings post for the forum: (BBCode, Markdown).
    pub async fn tournament_post(&self, id: Uuid, url: &str) -> Result<(String, String), AppError> {
        let record = self.tournament_record(id).await?;
        let t = &record.tournament;
        let rows = standing_rows(&record)?;
        let about = StandingsPost {
            name: &t.name,
            format: record::format_of(&t.format)?,
            round: u32::try_from(t.round).unwrap_or(0),
            rounds_total: u32::try_from(t.rounds_total).unwrap_or(0),
            finished: t.status == "finished",
            url,
        };
        Ok((
            crate::tournament::standings_bbcode(&about, &rows),
            crate::tournament::standings_markdown(&about, &rows),
        ))
    }
}

fn director(record: &TournamentRecord, token: Option<&str>) -> Result<(), AppError> {
    let token = token.ok_or_else(|| {
        AppError::unauthenticated(
            "missing-token",
            "This request needs the director's token: send it as \"Authorization: Bearer <token>\".",
        )
    })?;
    if hash_token(token) == record.tournament.director_hash {
        Ok(())
    } else {
        Err(AppError::forbidden(
            "director-only",
            "Only the tournament's director can do this; that is not the director's token.",
        ))
    }
}

fn handle_of(record: &TournamentRecord, entry: u64) -> String {
    record
        .entrants
        .iter()
        .find(|e| u64::try_from(e.entry).ok() == Some(entry))
        .map(|e| e.handle.clone())
        .unwrap_or_default()
}

fn standing_rows(record: &TournamentRecord) -> Result<Vec<StandingRow>, AppError> {
    let standings = record::standings(record)?;
    Ok(named(&standings, |EntrantId(e)| handle_of(record, e)))
}

fn result_view(record: &TournamentRecord, result: &StoredResult) -> ResultView {
    let handle = |e: u64| handle_of(record, e);
    match result {
        StoredResult::Won { winner } => ResultView::Won {
            winner: handle(*winner),
        },
        StoredResult::Forfeited { winner } => ResultView::Forfeited {
            winner: handle(*winner),
        },
        StoredResult::Drawn => ResultView::Drawn,
        StoredResult::Board { seats } => ResultView::Board {
            winners: seats
                .iter()
                .filter(|(_, _, won)| *won)
                .map(|(e, _, _)| handle(*e))
                .collect(),
            vp: seats
                .iter()
                .map(|(e, points, _)| (handle(*e), *points))
                .collect(),
        },
    }
}

fn entrant_view(e: &crate::store::EntrantRow) -> EntrantView {
    EntrantView {
        handle: e.handle.clone(),
        withdrawn: e.withdrawn,
        first_round: e.first_round,
    }
}

fn view(record: &TournamentRecord) -> Result<TournamentView, AppError> {
    let t = &record.tournament;
    let format = record::format_of(&t.format)?;
    let anonymous = masks::anonymous(t)?;
    let mut rounds = Vec::new();
    for r in &record.rounds {
        let mut games = Vec::new();
        for game in record.games.iter().filter(|g| g.round == r.round) {
            games.push(GameView {
                lobby: game.lobby,
                players: masks::shown_players(anonymous, game, |e| handle_of(record, e))?,
                result: result_of(game)?.map(|res| result_view(record, &res)),
            });
        }
        let byes: Vec<u64> = super::engine::from_stored(&r.byes)?;
        rounds.push(RoundView {
            round: r.round,
            finished: r.closed_at.is_some(),
            games,
            byes: byes.into_iter().map(|e| handle_of(record, e)).collect(),
        });
    }
    Ok(TournamentView {
        id: t.id,
        game: t.game.clone(),
        name: t.name.clone(),
        format,
        status: t.status.clone(),
        round: t.round,
        rounds_total: t.rounds_total,
        board_size: (format == Format::Melee).then_some(t.board_size),
        auto_rounds: t.auto_rounds,
        entries_open: entries::entries_open(record)?,
        entrants: record.entrants.iter().map(entrant_view).collect(),
        rounds,
        standings: standing_rows(record)?,
    })
}
