//! The one way state changes: take the lobby's snapshot under its write lock, let the caller
//! decide, apply the decision with a compare-and-swap on the lobby's version, commit (shared
//! with other changes by the group-commit writer).

use sqlx::AnyConnection;
use tokio::sync::oneshot;
use uuid::Uuid;

use super::feed::Published;
use super::rows::{Change, EventRow, NewLobby, Snapshot, Status};
use super::writer::{Decision, Job, Read};
use super::{Store, sql};

/// Why a transaction did not apply.
#[derive(Debug, thiserror::Error)]
pub enum TransactError<E> {
    #[error("no such lobby")]
    NotFound,
    /// The caller refused the change; nothing was written.
    #[error("refused")]
    Refused(E),
    /// Another writer changed the lobby between our read and our write (cannot happen while
    /// the lock works; reported rather than applied).
    #[error("the lobby changed concurrently")]
    Conflict,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// What a committed transaction published: the caller's value and the lobby's last event number
/// (so that listeners can be woken).
#[derive(Debug)]
pub struct Committed<T> {
    pub value: T,
    pub event_seq: i64,
}

/// Why writing a decided change failed (writing never refuses: deciding did that).
#[derive(Debug)]
pub(super) enum WriteError {
    /// The lobby's version moved between the read and the write.
    Conflict,
    Database(sqlx::Error),
}

impl From<sqlx::Error> for WriteError {
    fn from(error: sqlx::Error) -> WriteError {
        WriteError::Database(error)
    }
}

impl<E> From<WriteError> for TransactError<E> {
    fn from(error: WriteError) -> TransactError<E> {
        match error {
            WriteError::Conflict => TransactError::Conflict,
            WriteError::Database(error) => TransactError::Database(error),
        }
    }
}

impl Store {
    /// Runs `decide` on the lobby's snapshot under its write lock and applies the [`Change`] it
    /// returns in the same transaction. If `decide` refuses, nothing is written. The change
    /// joins its writer's next group commit (see `writer.rs`); the answer comes after the
    /// commit.
    #[tracing::instrument(skip_all, fields(lobby = %id))]
    pub async fn transact<T, E>(
        &self,
        id: Uuid,
        decide: impl FnOnce(&Snapshot) -> Result<(Change, T), E> + Send + 'static,
    ) -> Result<Committed<T>, TransactError<E>>
    where
        T: Send + 'static,
        E: Send + 'static,
    {
        let (sender, answer) = oneshot::channel();
        let decide = Box::new(move |read: Read<'_>| decision(read, decide, sender));
        self.writers
            .queue(id)
            .send(Job::Transact { lobby: id, decide })
            .await
            .map_err(|_| writer_gone())?;
        answer.await.map_err(|_| writer_gone())?
    }
}

fn writer_gone<E>() -> TransactError<E> {
    TransactError::Database(sqlx::Error::PoolClosed)
}

/// Runs the caller's decision for the group-commit writer, and wraps the answer to give once
/// the shared commit is known.
fn decision<T, E>(
    read: Read<'_>,
    decide: impl FnOnce(&Snapshot) -> Result<(Change, T), E>,
    sender: oneshot::Sender<Result<Committed<T>, TransactError<E>>>,
) -> Decision
where
    T: Send + 'static,
    E: Send + 'static,
{
    let outcome = match read {
        Read::Found(snapshot) => decide(snapshot).map_err(TransactError::Refused),
        Read::Missing => Err(TransactError::NotFound),
        Read::Failed => {
            // The batch fails with the read; its error is what this caller hears.
            return Decision {
                change: None,
                deliver: Box::new(move |result| {
                    let answer = match result {
                        Err(error) => Err(TransactError::from(error)),
                        Ok(_) => Err(TransactError::Database(sqlx::Error::Protocol(
                            "reading the lobby failed".into(),
                        ))),
                    };
                    let _ = sender.send(answer);
                }),
            };
        }
    };
    match outcome {
        Ok((change, value)) => Decision {
            change: Some(change),
            deliver: Box::new(move |result| {
                let answer = result
                    .map(|event_seq| Committed { value, event_seq })
                    .map_err(TransactError::from);
                let _ = sender.send(answer);
            }),
        },
        Err(error) => Decision {
            change: None,
            deliver: Box::new(move |_| {
                let _ = sender.send(Err(error));
            }),
        },
    }
}

/// Inserts a new lobby.
pub(super) async fn insert_lobby(
    conn: &mut AnyConnection,
    lobby: &NewLobby,
) -> Result<(), sqlx::Error> {
    sqlx::query(sql::INSERT_LOBBY)
        .bind(lobby.id.to_string())
        .bind(&lobby.game)
        .bind(&lobby.name)
        .bind(&lobby.settings)
        .bind(Status::Signups.as_str())
        .bind(&lobby.host_token_hash)
        .bind(lobby.seed as i64)
        .bind(lobby.created_at)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

impl Store {
    /// Stores a new lobby (in its writer's next group commit).
    #[tracing::instrument(skip_all, fields(lobby = %lobby.id))]
    pub async fn create_lobby(&self, lobby: &NewLobby) -> Result<(), sqlx::Error> {
        let (reply, answer) = oneshot::channel();
        let job = Job::CreateLobby {
            lobby: lobby.clone(),
            reply,
        };
        self.writers
            .queue(lobby.id)
            .send(job)
            .await
            .map_err(|_| sqlx::Error::PoolClosed)?;
        answer.await.map_err(|_| sqlx::Error::PoolClosed)?
    }
}

/// Writes a decided change, guarded by the lobby's version, all but its events: the writer
/// inserts a whole batch's events at once (`insert_events`). Returns the lobby's last event
/// number.
pub(super) async fn apply(
    conn: &mut AnyConnection,
    snapshot: &Snapshot,
    change: &Change,
) -> Result<i64, WriteError> {
    let lobby = &snapshot.lobby;
    let id = lobby.id.to_string();
    let now_seq = lobby.step_seq;
    let next_seq = now_seq + change.resolved.len() as i64;
    let event_seq = lobby.event_seq + change.events.len() as i64;

    let updated = sqlx::query(sql::UPDATE_LOBBY)
        .bind(change.lobby.status.map(|s| s.as_str()))
        .bind(change.lobby.state.as_deref())
        .bind(change.lobby.round.map(i64::from))
        .bind(change.lobby.step.as_deref())
        .bind(next_seq)
        .bind(event_seq)
        .bind(&id)
        .bind(lobby.version)
        .execute(&mut *conn)
        .await?;
    if updated.rows_affected() != 1 {
        return Err(WriteError::Conflict);
    }

    if let Some(player) = &change.player {
        sqlx::query(sql::INSERT_PLAYER)
            .bind(player.id.to_string())
            .bind(&id)
            .bind(player.seat as i64)
            .bind(&player.name)
            .bind(&player.name_key)
            .bind(&player.join_data)
            .bind(&player.token_hash)
            .execute(&mut *conn)
            .await?;
    }

    if let Some(order) = &change.order {
        sqlx::query(sql::UPSERT_ORDER)
            .bind(&id)
            .bind(now_seq)
            .bind(order.player_id.to_string())
            .bind(&order.body)
            .bind(order.submitted_at)
            .execute(&mut *conn)
            .await?;
    }

    let resolving = !change.resolved.is_empty();
    for (offset, step) in change.resolved.iter().enumerate() {
        sqlx::query(sql::INSERT_STEP)
            .bind(&id)
            .bind(now_seq + offset as i64)
            .bind(i64::from(step.round))
            .bind(&step.step)
            .bind(&step.revealed)
            .bind(&step.log)
            .bind(&step.pools)
            .bind(step.resolved_at)
            .execute(&mut *conn)
            .await?;
    }
    if resolving {
        // The resolved step's orders live on, revealed, in its `steps` row.
        sqlx::query(sql::DELETE_ORDERS)
            .bind(&id)
            .bind(now_seq)
            .execute(&mut *conn)
            .await?;
    }

    Ok(event_seq)
}

/// Inserts the events of a batch's written changes, several rows per statement: on PostgreSQL
/// a statement costs the database more than the row. The rows go in chunks of a few fixed
/// sizes, so that only a few statement shapes are prepared and kept.
pub(super) async fn insert_events(
    conn: &mut AnyConnection,
    published: &[(Uuid, Published)],
) -> Result<(), sqlx::Error> {
    let now = crate::clock::now_millis();
    let rows: Vec<(String, &EventRow)> = published
        .iter()
        .flat_map(|(lobby, events)| events.iter().map(move |e| (lobby.to_string(), e)))
        .collect();
    let mut rest = &rows[..];
    while !rest.is_empty() {
        let size = [64, 16, 4, 1]
            .into_iter()
            .find(|&size| size <= rest.len())
            .unwrap_or(1);
        let (chunk, after) = rest.split_at(size);
        let values: Vec<String> = (0..size)
            .map(|row| {
                let n = row * 5;
                format!(
                    "(${}, ${}, ${}, ${}, ${})",
                    n + 1,
                    n + 2,
                    n + 3,
                    n + 4,
                    n + 5
                )
            })
            .collect();
        let sql = format!(
            "INSERT INTO events (lobby_id, seq, kind, data, created_at) VALUES {}",
            values.join(", ")
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (lobby, event) in chunk {
            query = query
                .bind(lobby.as_str())
                .bind(event.seq)
                .bind(event.kind.as_str())
                .bind(event.data.as_str())
                .bind(now);
        }
        query.execute(&mut *conn).await?;
        rest = after;
    }
    Ok(())
}
