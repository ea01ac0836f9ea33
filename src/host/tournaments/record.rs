//! A stored tournament read as the pure core's values (`crate::tournament`): its entrants, its
//! rounds' records, its standings, and a finished lobby's result as a game's result.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::super::engine::{from_stored, to_text};
use super::super::with_game;
use crate::error::AppError;
use crate::games::GameUi;
use crate::store::{Snapshot, Status, TournamentGameRow, TournamentRecord};
use crate::tournament::{
    DuelGame, DuelResult, DuelRound, Entrant, EntrantId, Format, Knockout, MeleeBoard, MeleeRound,
    MeleeSeat, Standing,
};

/// A game's result as stored (`tournament_games.result`), by entry numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(super) enum StoredResult {
    Won {
        winner: u64,
    },
    Drawn,
    Forfeited {
        winner: u64,
    },
    /// A melee board: each seat's entry, final VP and whether he is among its winners.
    Board {
        seats: Vec<(u64, u32, bool)>,
    },
}

pub(super) fn format_of(text: &str) -> Result<Format, AppError> {
    serde_json::from_value(serde_json::Value::String(text.to_string()))
        .map_err(|e| AppError::Internal(format!("stored format: {e}")))
}

/// The entries seated at a game, in seat order.
pub(super) fn players_of(game: &TournamentGameRow) -> Result<Vec<u64>, AppError> {
    from_stored(&game.players)
}

pub(super) fn result_of(game: &TournamentGameRow) -> Result<Option<StoredResult>, AppError> {
    game.result.as_deref().map(from_stored).transpose()
}

/// The core's entrants.
pub(super) fn entrants(record: &TournamentRecord) -> Vec<Entrant> {
    record
        .entrants
        .iter()
        .map(|e| Entrant {
            id: EntrantId(u64::try_from(e.entry).unwrap_or(0)),
            entry: u32::try_from(e.entry).unwrap_or(u32::MAX),
            rating: e.rating,
            first_round: u32::try_from(e.first_round).unwrap_or(u32::MAX),
            withdrawn: e.withdrawn,
        })
        .collect()
}

fn byes_of(record: &TournamentRecord, round: i64) -> Result<Vec<EntrantId>, AppError> {
    match record.rounds.iter().find(|r| r.round == round) {
        Some(r) => Ok(from_stored::<Vec<u64>>(&r.byes)?
            .into_iter()
            .map(EntrantId)
            .collect()),
        None => Ok(Vec::new()),
    }
}

/// The duel rounds' records, round 1 first (a knockout's replays in their round, in order).
pub(super) fn duel_rounds(record: &TournamentRecord) -> Result<Vec<DuelRound>, AppError> {
    let mut rounds = Vec::new();
    for r in &record.rounds {
        let mut games = Vec::new();
        for game in record.games.iter().filter(|g| g.round == r.round) {
            let players = players_of(game)?;
            let [a, b] = players[..] else {
                return Err(AppError::Internal("a duel without two players".into()));
            };
            let result = result_of(game)?.map(|res| match res {
                StoredResult::Won { winner } => DuelResult::Won {
                    winner: EntrantId(winner),
                },
                StoredResult::Forfeited { winner } => DuelResult::Forfeited {
                    winner: EntrantId(winner),
                },
                StoredResult::Drawn | StoredResult::Board { .. } => DuelResult::Drawn,
            });
            games.push(DuelGame {
                players: [EntrantId(a), EntrantId(b)],
                result,
            });
        }
        rounds.push(DuelRound {
            games,
            byes: byes_of(record, r.round)?,
        });
    }
    Ok(rounds)
}

/// The melee rounds' records, round 1 first.
pub(super) fn melee_rounds(record: &TournamentRecord) -> Result<Vec<MeleeRound>, AppError> {
    let mut rounds = Vec::new();
    for r in &record.rounds {
        let mut boards = Vec::new();
        for game in record.games.iter().filter(|g| g.round == r.round) {
            let board = match result_of(game)? {
                Some(StoredResult::Board { seats }) => MeleeBoard {
                    seats: seats
                        .into_iter()
                        .map(|(entry, vp, won)| MeleeSeat {
                            entrant: EntrantId(entry),
                            vp,
                            won,
                        })
                        .collect(),
                    finished: true,
                },
                _ => MeleeBoard {
                    seats: players_of(game)?
                        .into_iter()
                        .map(|entry| MeleeSeat {
                            entrant: EntrantId(entry),
                            vp: 0,
                            won: false,
                        })
                        .collect(),
                    finished: false,
                },
            };
            boards.push(board);
        }
        rounds.push(MeleeRound {
            boards,
            byes: byes_of(record, r.round)?,
        });
    }
    Ok(rounds)
}

/// The knockout's bracket: the entrants in when entries closed (everyone stored then; one who
/// withdrew during entries left no row).
pub(super) fn bracket(record: &TournamentRecord) -> Knockout {
    Knockout::new(&entrants(record))
}

/// The standings of the games finished so far.
pub(super) fn standings(record: &TournamentRecord) -> Result<Vec<Standing>, AppError> {
    let entrants = entrants(record);
    let internal = |e: String| AppError::Internal(format!("tournament standings: {e}"));
    match format_of(&record.tournament.format)? {
        Format::Swiss => crate::tournament::swiss_standings(&entrants, &duel_rounds(record)?)
            .map_err(|e| internal(e.to_string())),
        Format::RoundRobin => {
            crate::tournament::round_robin_standings(&entrants, &duel_rounds(record)?)
                .map_err(|e| internal(e.to_string()))
        }
        Format::Knockout => bracket(record)
            .standings(&duel_rounds(record)?)
            .map_err(|e| internal(e.to_string())),
        Format::Melee => crate::tournament::melee_standings(&entrants, &melee_rounds(record)?)
            .map_err(|e| internal(e.to_string())),
    }
}

/// The result of game `game`, read from its lobby once it has finished (None while it runs).
/// Seats are matched to entries by their bound profiles.
pub(super) fn finished_result(
    record: &TournamentRecord,
    game: &TournamentGameRow,
    snapshot: &Snapshot,
    melee: bool,
) -> Result<Option<StoredResult>, AppError> {
    if snapshot.lobby.status != Status::Finished {
        return Ok(None);
    }
    let entry_of = |player: Uuid| -> Option<u64> {
        let seat = snapshot.players.iter().find(|p| p.id == player)?;
        let profile = seat.binding.map(|b| b.profile)?;
        let entrant = record.entrants.iter().find(|e| e.profile == profile)?;
        u64::try_from(entrant.entry).ok()
    };
    let kind = snapshot.lobby.game_kind()?;
    let state = snapshot.lobby.state.as_deref().unwrap_or("null");
    let Finish { places, points } = with_game!(kind, G => outcome_of::<G>(state)?);
    let placed: Vec<(u64, u32)> = places
        .iter()
        .filter_map(|(player, place)| entry_of(*player).map(|e| (e, *place)))
        .collect();
    if melee {
        let points_of = |player: Uuid| -> u32 {
            points
                .iter()
                .find(|(id, _)| *id == player)
                .map_or(0, |(_, points)| *points)
        };
        let mut seats = Vec::new();
        for entry in players_of(game)? {
            let player = snapshot.players.iter().find(|p| {
                p.binding.is_some_and(|b| {
                    record
                        .entrants
                        .iter()
                        .any(|e| e.profile == b.profile && e.entry == entry as i64)
                })
            });
            let (points, won) = match player {
                Some(p) => (
                    points_of(p.id),
                    places.iter().any(|(id, place)| *id == p.id && *place == 1),
                ),
                None => (0, false),
            };
            seats.push((entry, points, won));
        }
        return Ok(Some(StoredResult::Board { seats }));
    }
    let winners: Vec<u64> = placed
        .iter()
        .filter(|(_, p)| *p == 1)
        .map(|(e, _)| *e)
        .collect();
    Ok(Some(match winners[..] {
        [winner] if placed.len() == 2 => StoredResult::Won { winner },
        _ => StoredResult::Drawn,
    }))
}

/// What a finished game tells a tournament: each player's place and, on a melee board, his
/// final points (both empty while the game runs).
#[derive(Default)]
struct Finish {
    places: Vec<(Uuid, u32)>,
    points: Vec<(Uuid, u32)>,
}

fn outcome_of<G: GameUi>(state: &str) -> Result<Finish, AppError> {
    let Some(state) = from_stored::<Option<G::State>>(state)? else {
        return Ok(Finish::default());
    };
    let Some(outcome) = G::outcome(&state) else {
        return Ok(Finish::default());
    };
    let ids = |pairs: Vec<(crate::rules::PlayerId, u32)>| {
        pairs.into_iter().map(|(id, n)| (id.0, n)).collect()
    };
    Ok(Finish {
        places: ids(G::places(&outcome)),
        points: ids(G::board_points(&outcome)),
    })
}

pub(super) fn stored(result: &StoredResult) -> Result<String, AppError> {
    to_text(result)
}
