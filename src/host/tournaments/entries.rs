//! Entering and withdrawing (docs/api.md, "Tournaments"): a profile enters while entries are
//! open, or late into a Swiss or a melee while fewer than half its rounds have started (paired
//! from the next round, with the late half point of the duels' rule); one who withdraws is not
//! paired again, and a game of his in progress is lost by forfeit.

use uuid::Uuid;

use super::super::Host;
use super::record::{StoredResult, format_of, players_of, stored};
use crate::error::AppError;
use crate::store::{EntrantRow, ProfileRow, TournamentRecord, TournamentWrite};
use crate::tournament::{Format, late_entry_allowed};

/// How often a change is tried again when another changed the tournament in between.
pub(super) const ATTEMPTS: usize = 8;

pub(super) fn concurrent() -> AppError {
    AppError::conflict(
        "concurrent-change",
        "The tournament changed while your request was being handled; nothing was stored. Please retry.",
    )
}

/// Whether a profile may enter now.
pub(super) fn entries_open(record: &TournamentRecord) -> Result<bool, AppError> {
    let t = &record.tournament;
    Ok(match t.status.as_str() {
        "entries" => true,
        "running" => late_entry_allowed(
            format_of(&t.format)?,
            u32::try_from(t.rounds_total).unwrap_or(0),
            u32::try_from(t.round).unwrap_or(u32::MAX),
        ),
        _ => false,
    })
}

impl Host {
    /// Enters the key's profile; 409 once entries are closed (late entries aside).
    pub async fn enter_tournament(&self, id: Uuid, key: Option<&str>) -> Result<(), AppError> {
        let profile = self.signed(key).await?.profile;
        self.enter_tournament_as(id, profile).await
    }

    /// Enters `profile`, already known to be the caller's (a page's signed-in session).
    pub async fn enter_tournament_as(&self, id: Uuid, profile: ProfileRow) -> Result<(), AppError> {
        for _ in 0..ATTEMPTS {
            let record = self.tournament_record(id).await?;
            if record.entrants.iter().any(|e| e.profile == profile.id) {
                return Err(AppError::conflict(
                    "already-entered",
                    "Your profile has already entered this tournament.",
                ));
            }
            if !entries_open(&record)? {
                return Err(AppError::conflict(
                    "entries-closed",
                    "Entries to this tournament are closed.",
                ));
            }
            let t = &record.tournament;
            let late = t.status == "running";
            let rating = match late {
                true => self.seeding_rating(&t.game, &profile).await?,
                false => None,
            };
            let entry = EntrantRow {
                entry: record.entrants.iter().map(|e| e.entry).max().unwrap_or(0) + 1,
                profile: profile.id,
                handle: profile.handle.clone(),
                rating,
                first_round: if late { t.round + 1 } else { 1 },
                withdrawn: false,
            };
            if self
                .store
                .write_tournament(id, t.version, &[TournamentWrite::Enter(entry)])
                .await?
            {
                return Ok(());
            }
        }
        Err(concurrent())
    }

    /// Withdraws the key's profile: not paired again; a game of his in progress is lost by
    /// forfeit (a duel's opponent wins it; at a melee board he is kicked out).
    pub async fn withdraw_from_tournament(
        &self,
        id: Uuid,
        key: Option<&str>,
    ) -> Result<(), AppError> {
        let profile = self.signed(key).await?.profile;
        self.withdraw_from_tournament_as(id, profile).await
    }

    /// Withdraws `profile`, already known to be the caller's (a page's signed-in session).
    pub async fn withdraw_from_tournament_as(
        &self,
        id: Uuid,
        profile: ProfileRow,
    ) -> Result<(), AppError> {
        for _ in 0..ATTEMPTS {
            let record = self.tournament_record(id).await?;
            let Some(me) = record.entrants.iter().find(|e| e.profile == profile.id) else {
                return Err(AppError::not_found(
                    "not-entered",
                    "Your profile has not entered this tournament.",
                ));
            };
            if me.withdrawn {
                return Err(AppError::conflict(
                    "already-withdrawn",
                    "Your profile has already withdrawn from this tournament.",
                ));
            }
            let t = &record.tournament;
            if t.status == "finished" {
                return Err(AppError::conflict(
                    "tournament-finished",
                    "The tournament is over.",
                ));
            }
            // During entries he leaves no trace: the bracket and the schedule are drawn from
            // those in when entries close.
            let mut writes = vec![match t.status.as_str() {
                "entries" => TournamentWrite::Leave { entry: me.entry },
                _ => TournamentWrite::Withdraw { entry: me.entry },
            }];
            let melee = format_of(&t.format)? == Format::Melee;
            let mut playing = Vec::new();
            for game in record.games.iter().filter(|g| g.result.is_none()) {
                let players = players_of(game)?;
                let mine = u64::try_from(me.entry).unwrap_or(0);
                if !players.contains(&mine) {
                    continue;
                }
                playing.push(game.lobby);
                if !melee && let Some(winner) = players.iter().find(|p| **p != mine) {
                    let forfeit = StoredResult::Forfeited { winner: *winner };
                    writes.push(TournamentWrite::Result {
                        lobby: game.lobby,
                        result: stored(&forfeit)?,
                    });
                }
            }
            if self.store.write_tournament(id, t.version, &writes).await? {
                for lobby in playing {
                    self.withdraw_from_game(lobby, profile.id).await?;
                }
                self.settle_tournament(id).await?;
                return Ok(());
            }
        }
        Err(concurrent())
    }

    /// `profile`'s entry in tournament `id`, if it has entered (withdrawn or not).
    pub async fn tournament_entry(
        &self,
        id: Uuid,
        profile: Uuid,
    ) -> Result<Option<super::EntrantView>, AppError> {
        let record = self.tournament_record(id).await?;
        Ok(record
            .entrants
            .iter()
            .find(|e| e.profile == profile)
            .map(super::entrant_view))
    }

    /// The lobby of `profile`'s newest game in tournament `id`'s round in play, if it seats
    /// him: his own page links to it even while an anonymous tournament names its players by
    /// pseudonyms (a knockout's replay is newer than the game it replays).
    pub async fn tournament_game_of(
        &self,
        id: Uuid,
        profile: Uuid,
    ) -> Result<Option<Uuid>, AppError> {
        let record = self.tournament_record(id).await?;
        let Some(entry) = record.entrants.iter().find(|e| e.profile == profile) else {
            return Ok(None);
        };
        let mut newest = None;
        for game in record
            .games
            .iter()
            .filter(|g| g.round == record.tournament.round)
        {
            if players_of(game)?.contains(&u64::try_from(entry.entry).unwrap_or(u64::MAX)) {
                newest = Some(game.lobby);
            }
        }
        Ok(newest)
    }

    /// A profile's rating in the game's pool of his kind, for seeding (None when unrated).
    pub(super) async fn seeding_rating(
        &self,
        game: &str,
        profile: &ProfileRow,
    ) -> Result<Option<f64>, AppError> {
        let game: super::super::GameKind = game.parse()?;
        let kind = match profile.kind {
            crate::store::ProfileKind::Bot => crate::ratings::Kind::Bots,
            crate::store::ProfileKind::Human => crate::ratings::Kind::Humans,
        };
        let pool = crate::ratings::Pool::new(game, kind);
        Ok(self
            .store
            .profile_ratings(profile.id)
            .await?
            .iter()
            .find(|r| r.pool() == pool)
            .map(|r| r.entry().rating))
    }
}
