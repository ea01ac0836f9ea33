//! A receipt's `submitted_at` is the instant of the commit that stored the order (the time the
//! stored order and its events carry), not the moment the request arrived: with the writer
//! busy, an order queued behind a commit carries the time its own commit ran.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::json;
use sqlx::{Connection, Executor};

use crate::support::{TestApp, manual_apps};

const T0: i64 = 1_800_000_000_000;
const LATER: Duration = Duration::from_secs(90);

/// Holds the write lock on `lobby` until dropped: SQLite's database lock, or the lobby's row
/// lock on PostgreSQL (what the group-commit writers wait on).
struct Blocker(Option<sqlx::AnyConnection>, Option<rusqlite::Connection>);

async fn block_writes(app: &TestApp, lobby: &str) -> Blocker {
    match app.backend {
        "sqlite" => {
            let path = app.url.trim_start_matches("sqlite://");
            let path = path.split('?').next().unwrap();
            let conn = rusqlite::Connection::open(path).unwrap();
            conn.execute_batch("BEGIN IMMEDIATE").unwrap();
            Blocker(None, Some(conn))
        }
        _ => {
            let mut conn = sqlx::AnyConnection::connect(&app.url).await.unwrap();
            conn.execute("BEGIN").await.unwrap();
            sqlx::query("SELECT id FROM lobbies WHERE id = $1 FOR UPDATE")
                .bind(lobby)
                .fetch_one(&mut conn)
                .await
                .unwrap();
            Blocker(Some(conn), None)
        }
    }
}

impl Blocker {
    async fn release(self) {
        if let Some(mut conn) = self.0 {
            conn.execute("ROLLBACK").await.unwrap();
        }
        if let Some(conn) = self.1 {
            conn.execute_batch("ROLLBACK").unwrap();
        }
    }
}

async fn stored_times(app: &TestApp) -> Vec<(String, i64)> {
    let mut conn = sqlx::AnyConnection::connect(&app.url).await.unwrap();
    let rows: Vec<(String, i64)> =
        sqlx::query_as("SELECT player_id, submitted_at FROM orders ORDER BY player_id")
            .fetch_all(&mut conn)
            .await
            .unwrap();
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_receipt_carries_the_instant_of_the_commit_that_stored_its_order() {
    for app in manual_apps(T0).await {
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let mut players = Vec::new();
        for name in ["Ann", "Bob", "Cat"] {
            players.push(app.join(&lobby, json!({"name": name})).await);
        }
        app.start(&lobby, &host).await;
        let path = format!("/api/v1/lobbies/{lobby}/orders");
        let send = |who: usize| {
            let (app, path) = (&app, &path);
            let token = players[who].1.clone();
            let target = players[(who + 1) % 3].0.clone();
            async move {
                let order =
                    json!({"round": 1, "step": "orders", "move": "block", "target": target});
                app.post(path, Some(&token), order).await
            }
        };

        let blocker = block_writes(&app, &lobby).await;
        // Ann's order: its batch takes the clock's T0 and then waits for the lock.
        let ann = send(0);
        let bob = send(1);
        tokio::pin!(ann, bob);
        let waited = tokio::time::timeout(Duration::from_millis(200), &mut ann).await;
        assert!(waited.is_err(), "Ann's commit waits for the lock");
        // Bob's order arrives at T0 too, but queues behind Ann's batch.
        let waited = tokio::time::timeout(Duration::from_millis(200), &mut bob).await;
        assert!(waited.is_err(), "Bob's order waits behind it");
        app.clock.advance(LATER);
        blocker.release().await;
        let (ann, bob) = tokio::join!(ann, bob);
        let later = T0 + LATER.as_millis() as i64;
        for reply in [&ann, &bob] {
            assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        }
        // Ann's batch read the clock before it waited for the lock: T0, unless this machine
        // was too busy to take her order within the 200 ms (then it read the later instant).
        // Either way her receipt says what her stored order says (below).
        let ann_at = ann.body["submitted_at"].as_i64().unwrap();
        assert!([T0, later].contains(&ann_at), "{}: {ann_at}", app.backend);
        assert_eq!(
            bob.body["submitted_at"],
            json!(later),
            "{}: Bob's order was committed after the clock moved",
            app.backend
        );
        // The stored orders carry the same instants as the receipts.
        let stored = stored_times(&app).await;
        let mut expected: Vec<(String, i64)> = vec![
            (players[0].0.clone(), ann_at),
            (players[1].0.clone(), later),
        ];
        expected.sort();
        assert_eq!(stored, expected, "{}", app.backend);
    }
}
