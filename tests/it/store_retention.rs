//! Retention: a lobby that never starts is deleted a configured time after its last change,
//! with everything of it; finished games stay unless the operator sets a time for them too;
//! a running game is never touched. Time is moved on the store's manual clock.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::json;
use sqlx::Connection;

use herald::store::retention::{self, Retention, Swept};

use crate::support::{TestApp, manual_apps};

const T0: i64 = 1_800_000_000_000;
const HOUR: Duration = Duration::from_secs(3600);
const DAY: Duration = Duration::from_secs(24 * 3600);

fn policy(finished_days: Option<u32>) -> Retention {
    Retention {
        unstarted_days: Some(7),
        finished_days,
        every: HOUR,
    }
}

/// Rows of `lobby` left in each of its tables.
async fn rows_of(app: &TestApp, lobby: &str) -> Vec<i64> {
    let mut conn = sqlx::AnyConnection::connect(&app.url).await.unwrap();
    let mut counts = Vec::new();
    for (table, column) in [
        ("lobbies", "id"),
        ("players", "lobby_id"),
        ("orders", "lobby_id"),
        ("steps", "lobby_id"),
        ("events", "lobby_id"),
    ] {
        let sql = format!("SELECT COUNT(*) FROM {table} WHERE {column} = $1");
        let (n,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(lobby)
            .fetch_one(&mut conn)
            .await
            .unwrap();
        counts.push(n);
    }
    counts
}

async fn status(app: &TestApp, lobby: &str) -> StatusCode {
    app.get(&format!("/api/v1/lobbies/{lobby}"), None)
        .await
        .status
}

/// A two-player Crossing Swords game that ends after one round; returns the lobby.
async fn finished_game(app: &TestApp) -> String {
    let (lobby, host) = app
        .create_lobby("crossing-swords", json!({"max_rounds": 1}))
        .await;
    let ann = app.join(&lobby, json!({"name": "Ann"})).await;
    let bob = app.join(&lobby, json!({"name": "Bob"})).await;
    app.start(&lobby, &host).await;
    for (who, target) in [(&ann, &bob), (&bob, &ann)] {
        let order = json!({"round": 1, "step": "orders", "move": "strike", "target": target.0});
        let path = format!("/api/v1/lobbies/{lobby}/orders");
        assert_eq!(
            app.post(&path, Some(&who.1), order).await.status,
            StatusCode::ACCEPTED
        );
    }
    lobby
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobbies_that_never_start_expire_and_take_all_their_rows_with_them() {
    for app in manual_apps(T0).await {
        let (idle, _) = app.create_lobby("crossing-swords", json!({})).await;
        app.join(&idle, json!({"name": "Ann"})).await;
        let (busy, _) = app.create_lobby("bst", json!({})).await;
        let finished = finished_game(&app).await;
        let (running, host) = app.create_lobby("crossing-swords", json!({})).await;
        app.join(&running, json!({"name": "Ann"})).await;
        app.join(&running, json!({"name": "Bob"})).await;
        app.start(&running, &host).await;
        // Each move of the clock by more than the sweep's hour wakes exactly one sweep (the
        // next is due an hour after it); `sweeps` counts them.
        let mut sweeps = retention::spawn(app.store.clone(), policy(None));
        let mut sweep_after = async |by: Duration, count: u64| {
            app.clock.advance(by);
            tokio::time::timeout(Duration::from_secs(10), sweeps.wait_for(|n| *n >= count))
                .await
                .expect("the sweep runs once the clock moves")
                .unwrap();
        };
        sweep_after(6 * DAY, 1).await;
        app.join(&busy, json!({"name": "Cat", "character": "sellsword"}))
            .await;

        // Day 7 and an hour: the idle lobby's last change (a join at T0) is a week old.
        sweep_after(DAY + HOUR, 2).await;
        assert_eq!(
            status(&app, &idle).await,
            StatusCode::NOT_FOUND,
            "{}",
            app.backend
        );
        assert_eq!(
            rows_of(&app, &idle).await,
            [0, 0, 0, 0, 0],
            "{}",
            app.backend
        );
        assert_eq!(
            status(&app, &busy).await,
            StatusCode::OK,
            "changed on day 6"
        );
        assert_eq!(
            status(&app, &finished).await,
            StatusCode::OK,
            "finished games are kept"
        );
        assert_eq!(status(&app, &running).await, StatusCode::OK);

        // Day 13 and two hours: a week after the busy lobby's join.
        sweep_after(6 * DAY + HOUR, 3).await;
        assert_eq!(
            status(&app, &busy).await,
            StatusCode::NOT_FOUND,
            "{}",
            app.backend
        );
        let listed = app.get("/api/v1/lobbies", None).await.body;
        let ids: Vec<&str> = listed
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["id"].as_str().unwrap())
            .collect();
        assert!(
            !ids.contains(&busy.as_str()) && ids.contains(&running.as_str()),
            "{ids:?}"
        );

        // With a retention for finished games, the finished one goes too; the running one
        // stays, however old.
        let now = app.clock.now_millis();
        let swept = app.store.sweep(&policy(Some(30)), now).await.unwrap();
        assert_eq!(
            swept,
            Swept {
                unstarted: 0,
                finished: 0
            },
            "13 days are not 30"
        );
        app.clock.advance(20 * DAY);
        let swept = app
            .store
            .sweep(&policy(Some(30)), app.clock.now_millis())
            .await
            .unwrap();
        assert_eq!(
            swept,
            Swept {
                unstarted: 0,
                finished: 1
            },
            "{}",
            app.backend
        );
        assert_eq!(status(&app, &finished).await, StatusCode::NOT_FOUND);
        assert_eq!(
            rows_of(&app, &finished).await,
            [0, 0, 0, 0, 0],
            "{}",
            app.backend
        );
        assert_eq!(status(&app, &running).await, StatusCode::OK);
        assert_ne!(rows_of(&app, &running).await[0..2], [0, 0]);
    }
}

/// Two processes sweeping one database at once delete each expired lobby once between them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_sweeping_at_once_delete_each_lobby_once() {
    for app in manual_apps(T0).await {
        let other = app.second_server().await;
        let mut lobbies = Vec::new();
        for _ in 0..20 {
            let (lobby, _) = app.create_lobby("crossing-swords", json!({})).await;
            app.join(&lobby, json!({"name": "Ann"})).await;
            lobbies.push(lobby);
        }
        app.clock.advance(8 * DAY);
        let now = app.clock.now_millis();
        let keep = policy(None);
        let (a, b) = tokio::join!(app.store.sweep(&keep, now), other.store.sweep(&keep, now));
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(
            a.unstarted + b.unstarted,
            lobbies.len(),
            "{}: {a:?} {b:?}",
            app.backend
        );
        for lobby in &lobbies {
            assert_eq!(status(&app, lobby).await, StatusCode::NOT_FOUND);
            assert_eq!(status(&other, lobby).await, StatusCode::NOT_FOUND);
        }
    }
}

/// Rows, in any table keyed by a lobby, whose lobby (or, for an order, whose player) is gone.
async fn orphans(app: &TestApp) -> Vec<(&'static str, i64)> {
    let mut conn = sqlx::AnyConnection::connect(&app.url).await.unwrap();
    let mut found = Vec::new();
    for (what, sql) in [
        (
            "players",
            "SELECT COUNT(*) FROM players WHERE lobby_id NOT IN (SELECT id FROM lobbies)",
        ),
        (
            "orders",
            "SELECT COUNT(*) FROM orders WHERE lobby_id NOT IN (SELECT id FROM lobbies) \
             OR player_id NOT IN (SELECT id FROM players)",
        ),
        (
            "steps",
            "SELECT COUNT(*) FROM steps WHERE lobby_id NOT IN (SELECT id FROM lobbies)",
        ),
        (
            "events",
            "SELECT COUNT(*) FROM events WHERE lobby_id NOT IN (SELECT id FROM lobbies)",
        ),
    ] {
        let (n,): (i64,) = sqlx::query_as(sql).fetch_one(&mut conn).await.unwrap();
        found.push((what, n));
    }
    found
}

/// A join sent to another process while the sweep deletes its lobby either keeps the lobby
/// (the sweep's compare-and-swap finds it changed) or finds it gone (404): no player or event
/// row outlives its lobby. On PostgreSQL the rows written for every order and step carry no
/// foreign keys (migration 0010), so this is the store's own guarantee there, not the
/// database's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_racing_the_sweep_leaves_no_row_without_its_lobby() {
    for app in manual_apps(T0).await {
        let other = app.second_server().await;
        let mut lobbies = Vec::new();
        for _ in 0..30 {
            let (lobby, _) = app.create_lobby("crossing-swords", json!({})).await;
            app.join(&lobby, json!({"name": "Ann"})).await;
            lobbies.push(lobby);
        }
        app.clock.advance(8 * DAY);
        let now = app.clock.now_millis();
        let paths: Vec<String> = lobbies
            .iter()
            .map(|lobby| format!("/api/v1/lobbies/{lobby}/players"))
            .collect();
        let joins = paths
            .iter()
            .map(|path| other.post(path, None, json!({"name": "Bob"})));
        let keep = policy(None);
        let (swept, answers) = tokio::join!(
            app.store.sweep(&keep, now),
            futures_util::future::join_all(joins)
        );
        let swept = swept.unwrap();
        let mut kept = 0;
        for (lobby, answer) in lobbies.iter().zip(&answers) {
            match answer.status {
                StatusCode::CREATED => {
                    kept += 1;
                    assert_eq!(rows_of(&app, lobby).await[0..2], [1, 2], "{}", app.backend);
                }
                StatusCode::NOT_FOUND => {
                    assert_eq!(rows_of(&app, lobby).await, [0; 5], "{}", app.backend);
                }
                status => panic!("{}: join answered {status}: {}", app.backend, answer.text),
            }
        }
        assert_eq!(swept.unstarted + kept, lobbies.len(), "{}", app.backend);
        assert_eq!(
            orphans(&app).await,
            [("players", 0), ("orders", 0), ("steps", 0), ("events", 0)],
            "{}",
            app.backend
        );
    }
}
