//! Reading a lobby's [`Snapshot`]: one loader for every connection. The writers load a lobby
//! the cache holds no current copy of (under the batch's lock), and reads outside the writer
//! do the same without a lock; both run [`load_snapshot`], on whichever connection implements
//! [`Reads`]: rusqlite's (the SQLite writer) or sqlx's (PostgreSQL, and SQLite's other reads).
//! The statements are the same on both (`sql.rs`), and so is the mapping (`rows.rs`).

use std::sync::Arc;

use rusqlite::{Connection, params};
use sqlx::AnyConnection;
use uuid::Uuid;

use super::rows::{LobbyRow, OrderRow, ParsedState, PlayerRow, RoundSteps, Snapshot};
use super::{StoreError, sql};

/// The reads a snapshot is made of.
pub(super) trait Reads {
    async fn lobby(&mut self, id: Uuid) -> Result<Option<LobbyRow>, StoreError>;
    async fn players(&mut self, id: Uuid) -> Result<Vec<PlayerRow>, StoreError>;
    /// The orders pending for the lobby's step `step_seq`.
    async fn orders(&mut self, id: Uuid, step_seq: i64) -> Result<Vec<OrderRow>, StoreError>;
}

/// The lobby, its players and its pending orders as the connection sees them; None if there
/// is no such lobby.
pub(super) async fn load_snapshot(
    conn: &mut impl Reads,
    id: Uuid,
) -> Result<Option<Snapshot>, StoreError> {
    let Some(lobby) = conn.lobby(id).await? else {
        return Ok(None);
    };
    let players = conn.players(id).await?;
    let orders = conn.orders(id, lobby.step_seq).await?;
    Ok(Some(Snapshot {
        lobby,
        players: Arc::new(players),
        orders,
        parsed: ParsedState::default(),
        round_steps: RoundSteps::default(),
    }))
}

impl Reads for AnyConnection {
    async fn lobby(&mut self, id: Uuid) -> Result<Option<LobbyRow>, StoreError> {
        let row = sqlx::query(sql::LOBBY_BY_ID)
            .bind(id.to_string())
            .fetch_optional(&mut *self)
            .await?;
        row.as_ref().map(LobbyRow::read).transpose()
    }

    async fn players(&mut self, id: Uuid) -> Result<Vec<PlayerRow>, StoreError> {
        let rows = sqlx::query(sql::PLAYERS_OF_LOBBY)
            .bind(id.to_string())
            .fetch_all(&mut *self)
            .await?;
        rows.iter().map(PlayerRow::read).collect()
    }

    async fn orders(&mut self, id: Uuid, step_seq: i64) -> Result<Vec<OrderRow>, StoreError> {
        let rows = sqlx::query(sql::PENDING_ORDERS)
            .bind(id.to_string())
            .bind(step_seq)
            .fetch_all(&mut *self)
            .await?;
        rows.iter().map(OrderRow::read).collect()
    }
}

/// rusqlite runs each statement at once: these futures are ready when first polled. (A shared
/// reference: the writer reads inside its transaction, which lends the connection as `&`.)
impl Reads for &Connection {
    async fn lobby(&mut self, id: Uuid) -> Result<Option<LobbyRow>, StoreError> {
        let mut statement = self.prepare_cached(sql::LOBBY_BY_ID)?;
        let mut rows = statement.query(params![id.to_string()])?;
        rows.next()?.map(LobbyRow::read).transpose()
    }

    async fn players(&mut self, id: Uuid) -> Result<Vec<PlayerRow>, StoreError> {
        let mut statement = self.prepare_cached(sql::PLAYERS_OF_LOBBY)?;
        let mut rows = statement.query(params![id.to_string()])?;
        let mut players = Vec::new();
        while let Some(row) = rows.next()? {
            players.push(PlayerRow::read(row)?);
        }
        Ok(players)
    }

    async fn orders(&mut self, id: Uuid, step_seq: i64) -> Result<Vec<OrderRow>, StoreError> {
        let mut statement = self.prepare_cached(sql::PENDING_ORDERS)?;
        let mut rows = statement.query(params![id.to_string(), step_seq])?;
        let mut orders = Vec::new();
        while let Some(row) = rows.next()? {
            orders.push(OrderRow::read(row)?);
        }
        Ok(orders)
    }
}
