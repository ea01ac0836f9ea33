//! The seats a profile holds and the games it held a seat in (docs/identity.md, "What is
//! stored"): read from the lobbies that still exist and from `profile_games`, which outlives
//! them.

use uuid::Uuid;

use super::columns::Columns;
use super::profile_rows::Holding;
use super::{Status, Store, StoreError};

/// A seat a profile holds now, in a lobby that still exists.
#[derive(Clone, Debug)]
pub struct SeatRow {
    pub lobby: Uuid,
    pub player: Uuid,
    pub game: String,
    pub status: Status,
    pub holding: Holding,
}

/// A game a profile held a seat in (the summary that outlives the lobby).
#[derive(Clone, Debug)]
pub struct ProfileGameRow {
    pub lobby: Uuid,
    pub player: Uuid,
    pub game: String,
    pub lobby_name: String,
    pub holding: Holding,
    pub bound_at: i64,
    /// The lobby's step count when a substitute or a new link ended the holding.
    pub ended_seq: Option<i64>,
    /// The lobby's status; None once the retention sweep deleted it.
    pub status: Option<Status>,
    /// The lobby's host settings (`host::timing`, JSON); None once it was deleted.
    pub timing: Option<String>,
}

const SEATS: &str = "SELECT p.lobby_id, p.id AS player_id, l.game, l.status, p.binding \
    FROM players p JOIN lobbies l ON l.id = p.lobby_id WHERE p.profile_id = $1 \
    ORDER BY l.created_at DESC, l.id";

const GAMES: &str = "SELECT g.lobby_id, g.player_id, g.game, g.lobby_name, g.binding, g.bound_at, \
    g.ended_seq, l.status, l.timing FROM profile_games g LEFT JOIN lobbies l ON l.id = g.lobby_id \
    WHERE g.profile_id = $1 ORDER BY g.bound_at DESC, g.lobby_id";

impl Store {
    /// The seats `profile` holds in lobbies that still exist, newest lobby first.
    pub async fn profile_seats(&self, profile: Uuid) -> Result<Vec<SeatRow>, StoreError> {
        let rows = sqlx::query(SEATS)
            .bind(profile.to_string())
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| {
                let row = Columns::of("players", row);
                Ok(SeatRow {
                    lobby: row.uuid("lobby_id")?,
                    player: row.uuid("player_id")?,
                    game: row.text("game")?,
                    status: row.word("status", Status::parse)?,
                    holding: row.word("binding", Holding::parse)?,
                })
            })
            .collect()
    }

    /// Every game `profile` held a seat in, newest first, deleted lobbies included.
    pub async fn profile_games(&self, profile: Uuid) -> Result<Vec<ProfileGameRow>, StoreError> {
        let rows = sqlx::query(GAMES)
            .bind(profile.to_string())
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| {
                let row = Columns::of("profile_games", row);
                let status = match row.text_or_null("status")? {
                    Some(text) => {
                        Some(Status::parse(&text).ok_or_else(|| row.corrupt("status", &text))?)
                    }
                    None => None,
                };
                Ok(ProfileGameRow {
                    lobby: row.uuid("lobby_id")?,
                    player: row.uuid("player_id")?,
                    game: row.text("game")?,
                    lobby_name: row.text("lobby_name")?,
                    holding: row.word("binding", Holding::parse)?,
                    bound_at: row.int("bound_at")?,
                    ended_seq: row.int_or_null("ended_seq")?,
                    status,
                    timing: row.text_or_null("timing")?,
                })
            })
            .collect()
    }
}
