//! The one way state changes: take the lobby's snapshot under its write lock, let the caller
//! decide, apply the decision with a compare-and-swap on the lobby's version, commit (shared
//! with other changes by the group-commit writer).

use tokio::sync::oneshot;
use uuid::Uuid;

use super::jobs::{Decision, Job, Read, WriteError, Written};
use super::rows::{Change, NewLobby, Snapshot};
use super::{Store, StoreError};

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
    Database(#[from] StoreError),
}

/// What a committed transaction published: the caller's value, the lobby's last event number
/// (the writer has already handed the events to this process's streams, `feed.rs`) and the
/// commit's instant (the time its orders, steps and events carry).
#[derive(Debug)]
pub struct Committed<T> {
    pub value: T,
    pub event_seq: i64,
    /// Milliseconds since the Unix epoch, by the store's clock, when the batch ran.
    pub at: i64,
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
        // Within the request's wait (`Store::within`), queued behind another batch included;
        // past it the caller hears 503, and the job, if it still runs, is what it always was:
        // a change applied whole or not at all.
        let answered = self.within(async {
            self.writers
                .queue(id)
                .send(Job::Transact { lobby: id, decide })
                .await
                .map_err(|_| StoreError::Stopped("writer"))?;
            answer.await.map_err(|_| StoreError::Stopped("writer"))
        });
        answered.await?
    }
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
                        Ok(_) => Err(TransactError::Database(StoreError::ReadFailed)),
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
                    .map(|Written { event_seq, at }| Committed {
                        value,
                        event_seq,
                        at,
                    })
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

impl Store {
    /// Stores a new lobby (in its writer's next group commit).
    #[tracing::instrument(skip_all, fields(lobby = %lobby.id))]
    pub async fn create_lobby(&self, lobby: &NewLobby) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        let job = Job::CreateLobby {
            lobby: lobby.clone(),
            reply,
        };
        self.within(async {
            self.writers
                .queue(lobby.id)
                .send(job)
                .await
                .map_err(|_| StoreError::Stopped("writer"))?;
            answer.await.map_err(|_| StoreError::Stopped("writer"))?
        })
        .await
    }

    /// Recomputes every rating from the stored results, in the order they were stored (the
    /// order the games ended), and writes the ratings and every change's before and after,
    /// all in one of the writer's transactions (`rating_rebuild.rs`).
    pub async fn rebuild_ratings(&self) -> Result<super::Rebuilt, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.writers
            .queue(Uuid::nil())
            .send(Job::RebuildRatings { reply })
            .await
            .map_err(|_| StoreError::Stopped("writer"))?;
        answer.await.map_err(|_| StoreError::Stopped("writer"))?
    }
}
