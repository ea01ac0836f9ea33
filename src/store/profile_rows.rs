//! Profiles' rows (docs/identity.md): the profile, a seat's binding to one, and what a lobby's
//! transaction writes about profiles beside its own rows (the games they held a seat in, the
//! steps their bound seats owed). Those are written by both engines from here, so a change
//! of a lobby and its records commit together.

use uuid::Uuid;

use super::StoreError;
use super::columns::{Columns, Stored};

/// A human, or a bot a human owns.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProfileKind {
    Human,
    Bot,
}

impl ProfileKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ProfileKind::Human => "human",
            ProfileKind::Bot => "bot",
        }
    }

    pub(super) fn parse(text: &str) -> Option<ProfileKind> {
        match text {
            "human" => Some(ProfileKind::Human),
            "bot" => Some(ProfileKind::Bot),
            _ => None,
        }
    }
}

/// How a profile came to hold a seat: bound before the game started (joined with the
/// profile, or claimed while sign-ups ran), or claimed once it had (history only: it counts
/// for neither reliability nor ratings).
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Holding {
    Bound,
    Retro,
}

impl Holding {
    pub fn as_str(self) -> &'static str {
        match self {
            Holding::Bound => "bound",
            Holding::Retro => "retro",
        }
    }

    pub(super) fn parse(text: &str) -> Option<Holding> {
        match text {
            "bound" => Some(Holding::Bound),
            "retro" => Some(Holding::Retro),
            _ => None,
        }
    }
}

/// A seat's binding to a profile, as the seat's row holds it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SeatBinding {
    pub profile: Uuid,
    pub kind: ProfileKind,
    pub holding: Holding,
}

impl SeatBinding {
    /// The binding columns of a `players` row (all NULL: no binding).
    pub(super) fn read(
        row: &Columns<'_, impl Stored + ?Sized>,
    ) -> Result<Option<SeatBinding>, StoreError> {
        let Some(profile) = row.text_or_null("profile_id")? else {
            return Ok(None);
        };
        let profile = Uuid::parse_str(&profile).map_err(|e| row.corrupt("profile_id", e))?;
        let kind = row.word("profile_kind", ProfileKind::parse)?;
        let holding = row.word("binding", Holding::parse)?;
        Ok(Some(SeatBinding {
            profile,
            kind,
            holding,
        }))
    }

    /// The three columns as written: (profile_id, profile_kind, binding).
    pub(super) fn columns(
        binding: Option<&SeatBinding>,
    ) -> (Option<String>, Option<&'static str>, Option<&'static str>) {
        match binding {
            Some(b) => (
                Some(b.profile.to_string()),
                Some(b.kind.as_str()),
                Some(b.holding.as_str()),
            ),
            None => (None, None, None),
        }
    }
}

/// What a step owed by a bound seat came to (docs/identity.md, "Reliability").
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The player's own order, or their standing fallback.
    OnTime,
    /// Resolved by its deadline or the host without the player's order.
    Missed,
    /// A miss the host excused, or one that fell due during the player's vacation.
    Excused,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::OnTime => "on-time",
            Outcome::Missed => "missed",
            Outcome::Excused => "excused",
        }
    }

    pub(super) fn parse(text: &str) -> Option<Outcome> {
        match text {
            "on-time" => Some(Outcome::OnTime),
            "missed" => Some(Outcome::Missed),
            "excused" => Some(Outcome::Excused),
            _ => None,
        }
    }
}

/// Why a miss is excused (docs/identity.md, "Reliability").
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Excuse {
    /// The host excused it (with a reason the player sees).
    Host,
    /// It fell due during the player's declared vacation.
    Vacation,
}

impl Excuse {
    pub fn as_str(self) -> &'static str {
        match self {
            Excuse::Host => "host",
            Excuse::Vacation => "vacation",
        }
    }

    pub(super) fn parse(text: &str) -> Option<Excuse> {
        match text {
            "host" => Some(Excuse::Host),
            "vacation" => Some(Excuse::Vacation),
            _ => None,
        }
    }
}

/// A row about a profile that a lobby's change writes in its own transaction.
#[derive(Clone, Debug)]
pub enum ProfileRecord {
    /// A profile took a seat (joined with it, or claimed it).
    Game {
        profile: Uuid,
        player: Uuid,
        game: String,
        lobby_name: String,
        holding: Holding,
    },
    /// A step a bound seat owed, resolved by this change (`step_seq` is the step's number).
    /// Excused here only by a vacation: the host excuses later (`owed.rs`).
    Owed {
        profile: Uuid,
        player: Uuid,
        step_seq: i64,
        round: u32,
        step: String,
        outcome: Outcome,
    },
    /// A substitute or a new link ended the profile's holding of a seat, when the lobby had
    /// resolved `step_seq` steps.
    Ended {
        profile: Uuid,
        player: Uuid,
        step_seq: i64,
    },
}

const INSERT_GAME: &str = "INSERT INTO profile_games \
    (profile_id, lobby_id, player_id, game, lobby_name, binding, bound_at) \
    VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (profile_id, lobby_id, player_id) DO NOTHING";

const INSERT_OWED: &str = "INSERT INTO owed_steps \
    (profile_id, lobby_id, step_seq, player_id, round, step, due_at, outcome, excused_by) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

/// Who excused a step as it is written: only a vacation excuses while the step resolves.
fn excused_by(outcome: Outcome) -> Option<&'static str> {
    match outcome {
        Outcome::Excused => Some(Excuse::Vacation.as_str()),
        Outcome::OnTime | Outcome::Missed => None,
    }
}

const END_GAME: &str = "UPDATE profile_games SET ended_seq = $1 \
    WHERE profile_id = $2 AND lobby_id = $3 AND player_id = $4 AND ended_seq IS NULL";

/// Writes `records` of lobby `lobby` at `now` on SQLite.
pub(super) fn write_sqlite(
    conn: &rusqlite::Connection,
    lobby: &str,
    records: &[ProfileRecord],
    now: i64,
) -> Result<(), StoreError> {
    for record in records {
        match record {
            ProfileRecord::Game {
                profile,
                player,
                game,
                lobby_name,
                holding,
            } => {
                conn.prepare_cached(INSERT_GAME)?
                    .execute(rusqlite::params![
                        profile.to_string(),
                        lobby,
                        player.to_string(),
                        game,
                        lobby_name,
                        holding.as_str(),
                        now,
                    ])?;
            }
            ProfileRecord::Owed {
                profile,
                player,
                step_seq,
                round,
                step,
                outcome,
            } => {
                conn.prepare_cached(INSERT_OWED)?
                    .execute(rusqlite::params![
                        profile.to_string(),
                        lobby,
                        step_seq,
                        player.to_string(),
                        i64::from(*round),
                        step,
                        now,
                        outcome.as_str(),
                        excused_by(*outcome),
                    ])?;
            }
            ProfileRecord::Ended {
                profile,
                player,
                step_seq,
            } => {
                conn.prepare_cached(END_GAME)?.execute(rusqlite::params![
                    step_seq,
                    profile.to_string(),
                    lobby,
                    player.to_string(),
                ])?;
            }
        }
    }
    Ok(())
}

/// Writes `records` of lobby `lobby` at `now` on PostgreSQL.
pub(super) async fn write_pg(
    conn: &mut sqlx::AnyConnection,
    lobby: &str,
    records: &[ProfileRecord],
    now: i64,
) -> Result<(), StoreError> {
    for record in records {
        match record {
            ProfileRecord::Game {
                profile,
                player,
                game,
                lobby_name,
                holding,
            } => {
                sqlx::query(INSERT_GAME)
                    .bind(profile.to_string())
                    .bind(lobby)
                    .bind(player.to_string())
                    .bind(game)
                    .bind(lobby_name)
                    .bind(holding.as_str())
                    .bind(now)
                    .execute(&mut *conn)
                    .await?;
            }
            ProfileRecord::Owed {
                profile,
                player,
                step_seq,
                round,
                step,
                outcome,
            } => {
                sqlx::query(INSERT_OWED)
                    .bind(profile.to_string())
                    .bind(lobby)
                    .bind(*step_seq)
                    .bind(player.to_string())
                    .bind(i64::from(*round))
                    .bind(step)
                    .bind(now)
                    .bind(outcome.as_str())
                    .bind(excused_by(*outcome))
                    .execute(&mut *conn)
                    .await?;
            }
            ProfileRecord::Ended {
                profile,
                player,
                step_seq,
            } => {
                sqlx::query(END_GAME)
                    .bind(*step_seq)
                    .bind(profile.to_string())
                    .bind(lobby)
                    .bind(player.to_string())
                    .execute(&mut *conn)
                    .await?;
            }
        }
    }
    Ok(())
}
