//! Pairing and starting rounds, and settling them (docs/tournaments.md, "How the server keeps
//! them"). A round is paired from the stored record by the pure core and written with its games'
//! lobby ids in one versioned write, before any lobby exists; its lobbies are then made to exist
//! (`lobbies.rs`). Settling reads the results of finished lobbies, creates a drawn knockout
//! game's replay, and closes the round once its last game is over: `closed_at` is set once, by
//! whoever sees it first, and the tournament then finishes or, when it says so, pairs its next
//! round. Every step can run again and repeats nothing.

use std::future::Future;
use std::pin::Pin;

use rand::SeedableRng;
use uuid::Uuid;

use super::super::{Host, clean_name, name_key};
use super::entries::{ATTEMPTS, concurrent};
use super::lobbies::Seated;
use super::masks;
use super::news;
use super::record::{
    self, StoredResult, bracket, duel_rounds, finished_result, format_of, melee_rounds, players_of,
    result_of, stored,
};
use super::{TournamentView, director};
use crate::error::AppError;
use crate::store::{TournamentGameRow, TournamentRecord, TournamentRoundRow, TournamentWrite};
use crate::tournament::{
    DuelResult, EntrantId, Format, MatchDecision, pair_swiss, round_robin_round, seat_melee,
};

type Settling<'a> = Pin<Box<dyn Future<Output = Result<(), AppError>> + Send + 'a>>;

fn no_round_left() -> AppError {
    AppError::conflict(
        "no-round-left",
        "Every round of this tournament has been played.",
    )
}

fn internal(what: &str, e: impl std::fmt::Display) -> AppError {
    AppError::Internal(format!("{what}: {e}"))
}

/// The next round's games (entries in seat order) and byes.
type Paired = (Vec<Vec<u64>>, Vec<u64>);

fn pair(
    record: &TournamentRecord,
    entrants: &[crate::tournament::Entrant],
) -> Result<Option<Paired>, AppError> {
    let t = &record.tournament;
    let next = u32::try_from(t.round + 1).unwrap_or(u32::MAX);
    let ids = |v: Vec<EntrantId>| v.into_iter().map(|e| e.0).collect::<Vec<u64>>();
    let duels = |p: crate::tournament::DuelPairing| -> Paired {
        (
            p.games.into_iter().map(|[a, b]| vec![a.0, b.0]).collect(),
            ids(p.byes),
        )
    };
    Ok(match format_of(&t.format)? {
        Format::Swiss => {
            let keys: Vec<[String; 2]> = super::super::engine::from_stored(&t.forbidden)?;
            let entry_of = |key: &str| {
                record
                    .entrants
                    .iter()
                    .find(|e| name_key(&e.handle) == key)
                    .map(|e| EntrantId(u64::try_from(e.entry).unwrap_or(0)))
            };
            let forbidden: Vec<[EntrantId; 2]> = keys
                .iter()
                .filter_map(|[a, b]| Some([entry_of(a)?, entry_of(b)?]))
                .collect();
            let rounds = duel_rounds(record)?;
            Some(duels(
                pair_swiss(entrants, &rounds, &forbidden).map_err(|e| internal("pairing", e))?,
            ))
        }
        Format::RoundRobin => round_robin_round(entrants, next).map(duels),
        Format::Knockout => crate::tournament::Knockout::new(entrants)
            .pair_round(entrants, &duel_rounds(record)?)
            .map_err(|e| internal("knockout", e))?
            .map(duels),
        Format::Melee => {
            let seed = u64::from_le_bytes(t.id.as_bytes()[..8].try_into().unwrap_or([0; 8]));
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ u64::from(next));
            let size = usize::try_from(t.board_size).unwrap_or(2);
            let seating = seat_melee(entrants, &melee_rounds(record)?, size, &mut rng)
                .map_err(|e| internal("melee seating", e))?;
            Some((
                seating.boards.into_iter().map(ids).collect(),
                ids(seating.byes),
            ))
        }
    })
}

impl Host {
    /// `POST /api/v1/tournaments/{id}/rounds` (director): closes entries if open, pairs the
    /// next round and starts its games.
    pub async fn start_next_round(
        &self,
        id: Uuid,
        token: Option<&str>,
    ) -> Result<TournamentView, AppError> {
        director(&self.tournament_record(id).await?, token)?;
        self.settle_tournament(id).await?;
        self.pair_next_round(id).await?;
        self.tournament(id).await
    }

    /// Why the next round cannot start now, if it cannot: the refusal
    /// [`Host::start_next_round`] would answer (its 409s), read after settling, for a page
    /// that says so before the director asks.
    pub async fn next_round_refusal(&self, id: Uuid) -> Result<Option<AppError>, AppError> {
        self.settle_tournament(id).await?;
        Ok(refusal(&self.tournament_record(id).await?))
    }

    fn pair_next_round(&self, id: Uuid) -> Settling<'_> {
        Box::pin(async move {
            for _ in 0..ATTEMPTS {
                let record = self.tournament_record(id).await?;
                let t = &record.tournament;
                if let Some(refusal) = refusal(&record) {
                    return Err(refusal);
                }
                let format = format_of(&t.format)?;
                let mut entrants = record::entrants(&record);
                let mut writes = Vec::new();
                let rounds_total = if t.round == 0 {
                    // Entries close: each rating is frozen for seeding.
                    for (entrant, row) in entrants.iter_mut().zip(&record.entrants) {
                        let profile = self.store.profile_by_id(row.profile).await?;
                        let rating = match profile {
                            Some(p) => self.seeding_rating(&t.game, &p).await?,
                            None => None,
                        };
                        entrant.rating = rating;
                        writes.push(TournamentWrite::Rating {
                            entry: row.entry,
                            rating,
                        });
                    }
                    let asked = u32::try_from(t.rounds_asked).unwrap_or(0);
                    i64::from(format.rounds_total(entrants.len(), asked))
                } else {
                    t.rounds_total
                };
                if t.round >= rounds_total {
                    return Err(no_round_left());
                }
                let Some((games, byes)) = pair(&record, &entrants)? else {
                    return Err(no_round_left());
                };
                let next = t.round + 1;
                let paired_at = self.store.clock().now_millis();
                let anonymous = masks::anonymous(t)?;
                let lobbies: Vec<(Uuid, Vec<u64>)> = games
                    .into_iter()
                    .map(|players| (Uuid::new_v4(), masks::seat_order(anonymous, players)))
                    .collect();
                writes.push(TournamentWrite::Progress {
                    status: "running".into(),
                    round: next,
                    rounds_total,
                });
                writes.push(TournamentWrite::Round(TournamentRoundRow {
                    round: next,
                    byes: super::super::engine::to_text(&byes)?,
                    started_at: paired_at,
                    closed_at: None,
                }));
                for (ordinal, (lobby, players)) in lobbies.iter().enumerate() {
                    writes.push(TournamentWrite::Game(TournamentGameRow {
                        lobby: *lobby,
                        round: next,
                        ordinal: i64::try_from(ordinal).unwrap_or(0),
                        players: super::super::engine::to_text(players)?,
                        result: None,
                    }));
                }
                // Announced by the very write that pairs the round: once, whoever pairs it.
                writes.push(news::round_started(
                    &record,
                    next,
                    rounds_total,
                    &lobbies,
                    &byes,
                    paired_at,
                )?);
                if self.store.write_tournament(id, t.version, &writes).await? {
                    self.outbox.notify_one();
                    self.open_games(id).await?;
                    return self.settle_tournament(id).await;
                }
            }
            Err(concurrent())
        })
    }

    /// Makes every unfinished game of the current round exist, seated and started.
    async fn open_games(&self, id: Uuid) -> Result<(), AppError> {
        let record = self.tournament_record(id).await?;
        let t = &record.tournament;
        let format = format_of(&t.format)?;
        for game in record
            .games
            .iter()
            .filter(|g| g.round == t.round && g.result.is_none())
        {
            let mut seats = Vec::new();
            for entry in players_of(game)? {
                let Some(row) = record.entrants.iter().find(|e| e.entry == entry as i64) else {
                    return Err(internal("tournament game", "an unknown entry"));
                };
                let profile = self
                    .store
                    .profile_by_id(row.profile)
                    .await?
                    .ok_or_else(|| internal("tournament entrant", "no profile"))?;
                seats.push(Seated {
                    profile: profile.id,
                    kind: profile.kind,
                    handle: profile.handle,
                });
            }
            let what = match format {
                Format::Melee => "board",
                _ => "game",
            };
            let full = format!("{}: round {}, {what} {}", t.name, t.round, game.ordinal + 1);
            let name = clean_name(&full, "lobby name")
                .unwrap_or_else(|_| format!("Round {}, {what} {}", t.round, game.ordinal + 1));
            self.ensure_game(t, game.lobby, name, &seats).await?;
        }
        Ok(())
    }

    /// Reads the results of finished games, creates knockout replays, closes the current round
    /// once all its games are over, and finishes the tournament or (when it says so) pairs
    /// its next round. Idempotent: keyed by the round.
    pub(crate) fn settle_tournament(&self, id: Uuid) -> Settling<'_> {
        Box::pin(async move {
            for _ in 0..ATTEMPTS {
                let record = self.tournament_record(id).await?;
                let t = &record.tournament;
                if t.status != "running" {
                    return Ok(());
                }
                let format = format_of(&t.format)?;
                let mut read = false;
                for game in record.games.iter().filter(|g| g.result.is_none()) {
                    let Some(snapshot) = self.store.snapshot(game.lobby).await? else {
                        continue;
                    };
                    if let Some(result) =
                        finished_result(&record, game, &snapshot, format == Format::Melee)?
                    {
                        read |= self
                            .store
                            .record_tournament_result(game.lobby, &stored(&result)?)
                            .await?;
                    }
                }
                if read {
                    continue;
                }
                let current: Vec<&TournamentGameRow> =
                    record.games.iter().filter(|g| g.round == t.round).collect();
                // A drawn knockout game is replayed at once, whatever the other matches do.
                if format == Format::Knockout {
                    let replays = replays_owed(&record, &current)?;
                    if !replays.is_empty() {
                        if self.store.write_tournament(id, t.version, &replays).await? {
                            self.open_games(id).await?;
                            return Ok(());
                        }
                        continue;
                    }
                }
                if current.iter().any(|g| g.result.is_none()) {
                    return Ok(());
                }
                let Some(round) = record.rounds.iter().find(|r| r.round == t.round) else {
                    return Ok(());
                };
                if round.closed_at.is_none() {
                    let now = self.store.clock().now_millis();
                    if self.store.close_tournament_round(id, t.round, now).await? {
                        tracing::info!(tournament = %id, round = t.round, "tournament round over");
                    }
                }
                if t.round >= t.rounds_total {
                    let done = [
                        TournamentWrite::Progress {
                            status: "finished".into(),
                            round: t.round,
                            rounds_total: t.rounds_total,
                        },
                        news::finished(&super::standing_rows(&record)?)?,
                    ];
                    if self.store.write_tournament(id, t.version, &done).await? {
                        self.outbox.notify_one();
                        return Ok(());
                    }
                    continue;
                }
                if t.auto_rounds {
                    return match self.pair_next_round(id).await {
                        // Another request paired it first.
                        Err(AppError::Conflict { .. }) => Ok(()),
                        other => other,
                    };
                }
                return Ok(());
            }
            Err(concurrent())
        })
    }

    /// After a lobby's game finished: settles its tournament, if it belongs to one. A failure
    /// is logged, not the finishing request's: the next settle (any read of the tournament)
    /// does what this one did not.
    pub(in crate::host) async fn after_game_finished(&self, lobby: Uuid) {
        let tournament = match self.store.tournament_of_lobby(lobby).await {
            Ok(Some(id)) => id,
            Ok(None) => return,
            Err(error) => {
                tracing::warn!(%lobby, %error, "reading a finished game's tournament");
                return;
            }
        };
        if let Err(error) = self.settle_tournament(tournament).await {
            tracing::warn!(%tournament, %error, "settling a tournament after a game");
        }
    }
}

/// Why no round can be paired now: the tournament is over, a game of the current round is
/// unfinished, fewer than two have entered, or every round has been played.
fn refusal(record: &TournamentRecord) -> Option<AppError> {
    let t = &record.tournament;
    if t.status == "finished" {
        return Some(no_round_left());
    }
    if let Some(current) = record.rounds.last()
        && current.closed_at.is_none()
    {
        return Some(AppError::conflict(
            "round-unfinished",
            format!("A game of round {} is not finished yet.", current.round),
        ));
    }
    if t.round == 0 && record.entrants.len() < 2 {
        return Some(AppError::conflict(
            "too-few-entrants",
            "A tournament needs at least two entrants to start.",
        ));
    }
    (t.round > 0 && t.round >= t.rounds_total).then(no_round_left)
}

/// The replays the current knockout round owes: one for each match whose games so far were all
/// drawn, while it has replays left.
fn replays_owed(
    record: &TournamentRecord,
    current: &[&TournamentGameRow],
) -> Result<Vec<TournamentWrite>, AppError> {
    let knockout = bracket(record);
    let mut writes = Vec::new();
    let mut ordinal = current.iter().map(|g| g.ordinal).max().unwrap_or(-1) + 1;
    let mut seen: Vec<Vec<u64>> = Vec::new();
    for game in current {
        let players = players_of(game)?;
        let mut key = players.clone();
        key.sort_unstable();
        if seen.contains(&key) {
            continue;
        }
        seen.push(key.clone());
        let results: Vec<Option<DuelResult>> = current
            .iter()
            .filter(|g| {
                let mut k = players_of(g).unwrap_or_default();
                k.sort_unstable();
                k == key
            })
            .map(|g| {
                result_of(g).map(|r| {
                    r.map(|r| match r {
                        StoredResult::Won { winner } => DuelResult::Won {
                            winner: EntrantId(winner),
                        },
                        StoredResult::Forfeited { winner } => DuelResult::Forfeited {
                            winner: EntrantId(winner),
                        },
                        StoredResult::Drawn | StoredResult::Board { .. } => DuelResult::Drawn,
                    })
                })
            })
            .collect::<Result<_, _>>()?;
        let [a, b] = players[..] else { continue };
        let decision = knockout
            .decide([EntrantId(a), EntrantId(b)], &results)
            .map_err(|e| internal("knockout", e))?;
        if let MatchDecision::Replay { .. } = decision {
            let seated = masks::seat_order(masks::anonymous(&record.tournament)?, players);
            writes.push(TournamentWrite::Game(TournamentGameRow {
                lobby: Uuid::new_v4(),
                round: game.round,
                ordinal,
                players: super::super::engine::to_text(&seated)?,
                result: None,
            }));
            ordinal += 1;
        }
    }
    Ok(writes)
}
