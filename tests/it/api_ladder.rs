//! The bots' ladder (docs/bots.md, "The ladder"): off unless turned on; a bot enters and
//! leaves a game's ladder with its key, a person's profile cannot; a round pairs the entered
//! bots by rating, never two of one owner, within the games each may have at once.

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::api_profiles::profile;
use crate::support::{T0, TestApp, timed_apps};
use herald::host::ladder::LadderSettings;

pub const INTERVAL: Duration = Duration::from_secs(600);

pub fn settings(games_per_bot: u32) -> LadderSettings {
    LadderSettings {
        interval: INTERVAL,
        games_per_bot,
    }
}

/// A bot owned by `owner_key`'s profile, named `handle`: its key.
pub async fn bot(app: &TestApp, owner_key: &str, handle: &str) -> String {
    let reply = app
        .post(
            "/api/v1/me/bots",
            Some(owner_key),
            json!({"handle": handle}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.body["key"].as_str().unwrap().to_string()
}

pub async fn enter(app: &TestApp, key: &str, game: &str) {
    let reply = app
        .post(&format!("/api/v1/ladder/{game}"), Some(key), json!({}))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

/// Gives `handle` a settled Glicko-2 rating in the pool `bst/bots`, as if it had played.
async fn rate(app: &TestApp, handle: &str, rating: f64) {
    let pool = sqlx::AnyPool::connect(&app.url).await.expect("connect");
    let id: String = sqlx::query_scalar("SELECT id FROM profiles WHERE handle = $1")
        .bind(handle)
        .fetch_one(&pool)
        .await
        .expect("the profile");
    sqlx::query(
        "INSERT INTO ratings (profile_id, pool, game, rating, deviation, volatility, games, \
         last_game_at) VALUES ($1, 'bst/bots', 'bst', $2, $3, $4, 20, $5)",
    )
    .bind(id)
    .bind(rating)
    .bind(60.0_f64)
    .bind(0.06_f64)
    .bind(T0)
    .execute(&pool)
    .await
    .expect("a rating");
    pool.close().await;
}

/// The ladder's games as `GET /api/v1/ladder/{game}` lists them: each game's players.
pub async fn ladder_games(app: &TestApp, game: &str) -> Vec<Value> {
    let reply = app.get(&format!("/api/v1/ladder/{game}"), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["games"].as_array().unwrap().clone()
}

fn players(game: &Value) -> Vec<&str> {
    game["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn the_ladder_is_off_unless_turned_on_and_its_routes_say_so() {
    for app in timed_apps().await {
        let (human, _) = profile(&app, "Hana").await;
        let robo = bot(&app, &human, "Robo").await;
        let reply = app.post("/api/v1/ladder/bst", Some(&robo), json!({})).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::NOT_FOUND, "ladder-off")
        );
        let reply = app.get("/api/v1/ladder/bst", None).await;
        assert_eq!(reply.code(), "ladder-off");
        assert_eq!(
            app.get("/ladder/bst", None).await.status,
            StatusCode::NOT_FOUND
        );
        assert!(!app.get("/", None).await.text.contains("/ladder/bst"));
        // Nothing is scheduled: the host refuses a round, and no task was started.
        assert!(app.host.play_ladder_round().await.is_err());
        assert!(app.host.spawn_ladder().is_none());
    }
}

#[tokio::test]
async fn a_bot_enters_and_leaves_a_ladder_and_people_and_unknown_games_are_refused() {
    for app in timed_apps().await {
        let app = app.with_ladder(settings(2));
        let (human, _) = profile(&app, "Hana").await;
        let robo = bot(&app, &human, "Robo").await;
        let path = "/api/v1/ladder/bst";
        let reply = app.post(path, Some(&human), json!({})).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::FORBIDDEN, "not-a-bot")
        );
        let reply = app.post(path, None, json!({})).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        let reply = app
            .post("/api/v1/ladder/chess", Some(&robo), json!({}))
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "unknown-game")
        );
        for _ in 0..2 {
            let reply = app.post(path, Some(&robo), json!({})).await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
            assert_eq!(
                reply.body,
                json!({"game": "bst", "handle": "Robo", "entered": true})
            );
        }
        let view = app.get(path, None).await;
        assert_eq!(view.body["pool"], "bst/bots");
        assert_eq!(view.body["interval_seconds"], 600);
        assert_eq!(view.body["entries"][0]["handle"], "Robo");
        assert_eq!(view.body["entries"][0]["owner"], "Hana");
        assert_eq!(view.body["entries"][0]["shown"], "1500?");
        assert_eq!(view.body["entries"].as_array().unwrap().len(), 1);
        let reply = app.send(Method::DELETE, path, Some(&human), None).await;
        assert_eq!(reply.code(), "not-a-bot");
        for _ in 0..2 {
            let reply = app.send(Method::DELETE, path, Some(&robo), None).await;
            assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.text);
        }
        let view = app.get(path, None).await;
        assert_eq!(view.body["entries"], json!([]));
    }
}

#[tokio::test]
async fn a_round_pairs_close_ratings_never_two_bots_of_one_owner_within_the_limit() {
    for app in timed_apps().await {
        let app = app.with_ladder(settings(1));
        let (ann, _) = profile(&app, "Ann").await;
        let (bob, _) = profile(&app, "Bob").await;
        for (owner, handle, rating) in [
            (&ann, "AnnOne", 1800.0),
            (&ann, "AnnTwo", 1790.0),
            (&bob, "BobOne", 1500.0),
            (&bob, "BobTwo", 1400.0),
        ] {
            let key = bot(&app, owner, handle).await;
            enter(&app, &key, "bst").await;
            rate(&app, handle, rating).await;
        }
        let paired = app.host.play_ladder_round().await.unwrap();
        assert_eq!(paired.unwrap().games.len(), 2);
        let games = ladder_games(&app, "bst").await;
        let mut pairs: Vec<Vec<&str>> = games.iter().map(players).collect();
        for pair in &mut pairs {
            pair.sort();
        }
        pairs.sort();
        // AnnOne's closest rating is AnnTwo's, of the same owner: it meets BobOne instead.
        assert_eq!(pairs, [["AnnOne", "BobOne"], ["AnnTwo", "BobTwo"]]);
        for game in &games {
            assert_eq!(game["status"], "running", "{game}");
            let lobby = app
                .get(
                    &format!("/api/v1/lobbies/{}", game["lobby"].as_str().unwrap()),
                    None,
                )
                .await;
            assert_eq!(lobby.body["settings"]["rated"], true);
            assert_eq!(lobby.body["settings"]["deadline_seconds"], 60);
        }
        // A second tick in the same interval pairs nothing.
        assert!(app.host.play_ladder_round().await.unwrap().is_none());
        // The next interval: every bot already has its one game in progress.
        app.clock.advance(INTERVAL);
        let next = app.host.play_ladder_round().await.unwrap().unwrap();
        assert!(next.games.is_empty(), "{:?}", next.games);
        assert_eq!(app.store.ladder_rounds().await.unwrap(), 2);
    }
}
