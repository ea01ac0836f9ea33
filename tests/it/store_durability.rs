//! Durability and exactly-once across processes: an acknowledged order survives a restart, and
//! two servers on one database still resolve each step once.

use axum::http::StatusCode;
use serde_json::json;

use crate::support::{TestApp, apps};

async fn seated(app: &TestApp, count: usize) -> (String, Vec<(String, String)>) {
    let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
    let mut players = Vec::new();
    for seat in 0..count {
        players.push(app.join(&lobby, json!({"name": format!("P{seat}")})).await);
    }
    app.start(&lobby, &host).await;
    (lobby, players)
}

#[tokio::test]
async fn an_acknowledged_order_survives_a_restart() {
    for app in apps().await {
        let (lobby, players) = seated(&app, 2).await;
        let orders = format!("/api/v1/lobbies/{lobby}/orders");
        let body = json!({"round": 1, "step": "orders", "move": "lunge", "target": players[1].0});
        let ack = app.post(&orders, Some(&players[0].1), body).await;
        assert_eq!(ack.status, StatusCode::ACCEPTED);

        let app = app.restart().await;
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&players[0].1))
            .await;
        assert_eq!(
            me.body["pending"]["move"], "lunge",
            "{}: the order is still there",
            app.backend
        );
        let body = json!({"round": 1, "step": "orders", "move": "strike", "target": players[0].0});
        let last = app.post(&orders, Some(&players[1].1), body).await;
        assert_eq!(last.body["resolved"], true);
        let reveal = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await
            .body;
        assert_eq!(reveal["orders"][0]["order"]["move"], "lunge");
        // Case 5 of the rulings: Lunge met by a Strike: A 14/5, B 15/6.
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(
            (
                view["players"][0]["hp"].as_i64(),
                view["players"][0]["vp"].as_i64()
            ),
            (Some(14), Some(5))
        );
        assert_eq!(
            (
                view["players"][1]["hp"].as_i64(),
                view["players"][1]["vp"].as_i64()
            ),
            (Some(15), Some(6))
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_servers_on_one_database_resolve_each_round_once() {
    for first in apps().await {
        let second = first.second_server().await;
        let (lobby, players) = seated(&first, 16).await;
        let servers = std::sync::Arc::new([first, second]);
        for round in 1..=20u64 {
            let mut tasks = Vec::new();
            for (seat, (_, token)) in players.iter().enumerate() {
                let (servers, lobby, token) = (servers.clone(), lobby.clone(), token.clone());
                let target = players[(seat + 1) % players.len()].0.clone();
                tasks.push(tokio::spawn(async move {
                    let body = json!({"round": round, "step": "orders", "move": "block", "target": target});
                    servers[seat % 2].post(&format!("/api/v1/lobbies/{lobby}/orders"), Some(&token), body).await
                }));
            }
            let mut resolved = 0;
            for task in tasks {
                let reply = task.await.unwrap();
                assert_eq!(
                    reply.status,
                    StatusCode::ACCEPTED,
                    "{}: {}",
                    servers[0].backend,
                    reply.text
                );
                resolved += usize::from(reply.body["resolved"] == true);
            }
            assert_eq!(
                resolved, 1,
                "{} round {round}: resolved exactly once",
                servers[0].backend
            );
        }
        let rounds = servers[1]
            .get(&format!("/api/v1/lobbies/{lobby}/rounds"), None)
            .await
            .body;
        assert_eq!(rounds.as_array().unwrap().len(), 20);
        for round in [1, 20] {
            let reveal = servers[0]
                .get(&format!("/api/v1/lobbies/{lobby}/rounds/{round}"), None)
                .await
                .body;
            assert_eq!(
                reveal["orders"].as_array().unwrap().len(),
                16,
                "no order lost"
            );
        }
    }
}

/// Tokens are stored only as hashes: a dump of every table shows neither the host's token nor a
/// player's.
#[tokio::test]
async fn a_database_dump_reveals_no_token() {
    use sqlx::Row;
    for app in apps().await {
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (_, player) = app.join(&lobby, json!({"name": "Ann"})).await;
        let pool = sqlx::AnyPool::connect(&app.url).await.unwrap();
        let mut dump = String::new();
        for table in ["lobbies", "players", "orders", "steps", "events"] {
            let sql = format!("SELECT * FROM {table}");
            for row in sqlx::query(sqlx::AssertSqlSafe(sql))
                .fetch_all(&pool)
                .await
                .unwrap()
            {
                for column in 0..row.len() {
                    if let Ok(text) = row.try_get::<String, _>(column) {
                        dump.push_str(&text);
                        dump.push('\n');
                    }
                }
            }
        }
        assert!(
            dump.contains("Ann"),
            "{}: the dump holds the data",
            app.backend
        );
        assert!(
            !dump.contains(&host),
            "{}: no host token in the database",
            app.backend
        );
        assert!(
            !dump.contains(&player),
            "{}: no player token in the database",
            app.backend
        );
        pool.close().await;
    }
}

/// PostgreSQL compresses the large JSON documents with lz4, not pglz (migration 0002): pglz
/// was a tenth of the database's CPU under load.
#[tokio::test]
async fn postgres_compresses_the_large_documents_with_lz4() {
    use sqlx::Row;
    let Ok(admin) = std::env::var(crate::support::POSTGRES_ENV) else {
        crate::support::announce_postgres_skip();
        return;
    };
    let app = crate::support::postgres_app(&admin).await;
    let pool = sqlx::AnyPool::connect(&app.url).await.unwrap();
    let rows = sqlx::query(
        "SELECT attrelid::regclass::text || '.' || attname AS col, attcompression::text AS method \
         FROM pg_attribute WHERE attrelid IN ('lobbies'::regclass, 'steps'::regclass, \
         'events'::regclass) AND attname IN ('state', 'settings', 'revealed', 'log', 'pools', 'data') \
         ORDER BY 1",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let methods: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r.get("col"), r.get("method")))
        .collect();
    let expected: Vec<(String, String)> = [
        "events.data",
        "lobbies.settings",
        "lobbies.state",
        "steps.log",
        "steps.pools",
        "steps.revealed",
    ]
    .iter()
    .map(|c| (c.to_string(), "l".to_string()))
    .collect();
    assert_eq!(methods, expected, "l is lz4 in pg_attribute");
    pool.close().await;
}
