//! SQLite's group commit: changes queued together share one transaction, each sees the ones
//! before it, and one that fails is rolled back alone.

use futures_util::future::join_all;
use herald::store::{Change, NewEvent, NewLobby, NewPlayer, TransactError};
use sqlx::{Connection, Executor, SqliteConnection};
use uuid::Uuid;

use crate::support::sqlite_app;

fn player(seat: usize, token_hash: &str) -> NewPlayer {
    NewPlayer {
        id: Uuid::new_v4(),
        seat,
        name: format!("P{seat}"),
        name_key: format!("p{seat}"),
        join_data: "null".into(),
        token_hash: token_hash.into(),
        binding: None,
        alias: None,
    }
}

/// Another connection holds SQLite's write lock while the ten changes below are queued, so the
/// writer (which takes everything queued while it waits) can start at most one batch before
/// the lock is released: ten changes need at most two commits.
#[tokio::test]
async fn changes_queued_together_share_one_commit_and_a_failing_one_is_rolled_back_alone() {
    let app = sqlite_app().await;
    let store = &app.store;
    let lobby = NewLobby {
        id: Uuid::new_v4(),
        game: "crossing-swords".into(),
        name: "batch".into(),
        settings: "{}".into(),
        host_token_hash: "host".into(),
        seed: 1,
        created_at: 0,
        timing: "{}".into(),
        seed_salt: "00".repeat(32),
        unlisted: false,
    };
    store.create_lobby(&lobby).await.unwrap();
    let (commits_before, changes_before) = store.group_commits();

    let mut blocker = SqliteConnection::connect(&app.url).await.unwrap();
    blocker.execute("BEGIN IMMEDIATE").await.unwrap();

    // Each change seats the next player where the snapshot says the next seat is; change 5
    // reuses change 4's token hash, which the schema forbids (UNIQUE).
    let changes = (0..10).map(|i| {
        let store = store.clone();
        async move {
            store
                .transact(lobby.id, move |snapshot| {
                    let seat = snapshot.players.len();
                    let hash = if i == 5 {
                        "token-4".to_string()
                    } else {
                        format!("token-{i}")
                    };
                    let change = Change {
                        player: Some(player(seat, &hash)),
                        events: vec![NewEvent {
                            kind: herald::events::EventKind::PlayerJoined,
                            data: "{}".into(),
                        }],
                        ..Change::default()
                    };
                    Ok::<_, ()>((change, seat))
                })
                .await
        }
    });
    let queued = tokio::spawn(join_all(changes));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    blocker.execute("ROLLBACK").await.unwrap();
    let results = queued.await.unwrap();

    let (commits_after, changes_after) = store.group_commits();
    assert_eq!(changes_after - changes_before, 10);
    assert!(
        commits_after - commits_before <= 2,
        "ten changes queued together share commits: {} commits",
        commits_after - commits_before
    );
    let seats: Vec<Option<usize>> = results
        .iter()
        .map(|r| r.as_ref().ok().map(|c| c.value))
        .collect();
    assert_eq!(
        seats,
        [
            Some(0),
            Some(1),
            Some(2),
            Some(3),
            Some(4),
            None,
            Some(5),
            Some(6),
            Some(7),
            Some(8)
        ],
        "each change saw the ones before it; the failing one left no trace for the next"
    );
    assert!(
        matches!(results[5], Err(TransactError::Database(_))),
        "the duplicate token is refused by the database"
    );
    let snapshot = store.snapshot(lobby.id).await.unwrap().unwrap();
    assert_eq!(snapshot.players.len(), 9, "the other nine are durable");
    assert_eq!(
        snapshot.lobby.event_seq, 9,
        "and so are their events, numbered without a gap"
    );
    let events = store.events_after(lobby.id, 0).await.unwrap();
    assert_eq!(
        events.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (1..=9).collect::<Vec<_>>()
    );
}
