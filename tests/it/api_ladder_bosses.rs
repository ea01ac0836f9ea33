//! The boss bots (docs/bots.md, "The boss bots"): made once whatever the processes, entered in
//! every game's ladder, and played in the process to the end of each ladder game, every game
//! through the seam; the games are rated in `{game}/bots`. On two processes both play the
//! bosses, and a boss's step is answered once.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use rand::SeedableRng;
use serde_json::Value;

use crate::api_ladder::{bot, enter, ladder_games, settings};
use crate::api_profiles::profile;
use crate::support::{TestApp, timed_apps};
use herald::bots::policy::{self, Strategy};
use herald::error::AppError;
use herald::host::profile_stream::SeatNow;

const GAMES: [&str; 4] = ["bst", "contests", "crossing-swords", "scale-of-styles"];

/// Plays `key`'s seat in `lobby` with the random strategy until the game is over; the other
/// seat is a boss's, which the process answers. Waits (briefly, in real time) only for the
/// boss's answers, never for a deadline: the clock stands still.
pub async fn play_to_the_end(app: &TestApp, lobby: &str, key: &str) -> Value {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let started = Instant::now();
    loop {
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(key))
            .await;
        assert_eq!(me.status, StatusCode::OK, "{}", me.text);
        if me.body["status"] == "finished" {
            return app
                .get(&format!("/api/v1/lobbies/{lobby}"), None)
                .await
                .body;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the boss stopped answering: {}",
            me.text
        );
        if me.body["prompt"].is_null() || !me.body["pending"].is_null() {
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        }
        let order = policy::answer(&me.body, Strategy::Random, &mut rng).expect("an answer");
        let reply = app
            .post(&format!("/api/v1/lobbies/{lobby}/orders"), Some(key), order)
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
    }
}

#[tokio::test]
async fn the_bosses_play_every_game_to_the_end_in_the_process_and_the_games_are_rated() {
    for app in timed_apps().await {
        let app = app.with_ladder(settings(4));
        let bosses = app.host.ensure_bosses().await.unwrap();
        // A second process (PostgreSQL) makes no second boss, and plays them too.
        let other = match app.backend {
            "postgres" => Some(app.second_server().await.with_ladder(settings(4))),
            _ => None,
        };
        let mut players = vec![herald::bots::bosses::spawn(&app.host, bosses.clone())];
        if let Some(other) = &other {
            let again = other.host.ensure_bosses().await.unwrap();
            let ids = |b: &[herald::host::ladder::bosses::Boss]| {
                b.iter().map(|b| b.profile).collect::<Vec<_>>()
            };
            assert_eq!(ids(&again), ids(&bosses));
            players.push(herald::bots::bosses::spawn(&other.host, again));
        }
        let (hana, _) = profile(&app, "Hana").await;
        let robo = bot(&app, &hana, "Robo").await;
        for game in GAMES {
            enter(&app, &robo, game).await;
        }
        let paired = app.host.play_ladder_round().await.unwrap().unwrap();
        // Robo meets a boss in every game; the bosses never meet each other.
        assert_eq!(paired.games.len(), GAMES.len());
        for game in GAMES {
            let games = ladder_games(&app, game).await;
            assert_eq!(games.len(), 1, "{game}");
            let players: Vec<&str> = games[0]["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect();
            assert!(players.contains(&"Robo"), "{players:?}");
            assert!(
                players.iter().any(|p| p.starts_with("herald-")),
                "{players:?}"
            );
            let lobby = games[0]["lobby"].as_str().unwrap();
            let result = play_to_the_end(&app, lobby, &robo).await;
            assert_eq!(result["status"], "finished", "{result}");
            let changes = result["result"]["rating_changes"].as_array().unwrap();
            assert_eq!(changes.len(), 2, "{game}: {result}");
            assert!(
                changes
                    .iter()
                    .all(|c| c["after"]["pool"] == format!("{game}/bots"))
            );
            let board = app.get(&format!("/api/v1/ratings/{game}/bots"), None).await;
            let rated: Vec<&str> = board.body["entries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["handle"].as_str().unwrap())
                .collect();
            assert_eq!(rated.len(), 2, "{game}: {}", board.text);
            assert!(rated.contains(&"Robo"));
            let games = ladder_games(&app, game).await;
            assert_eq!(games[0]["status"], "finished", "{}", games[0]);
        }
        drop(players);
    }
}

#[tokio::test]
async fn two_processes_answering_one_boss_prompt_store_one_order() {
    for app in timed_apps().await {
        let app = app.with_ladder(settings(2));
        let other = match app.backend {
            "postgres" => Some(app.second_server().await.with_ladder(settings(2))),
            _ => None,
        };
        let bosses = app.host.ensure_bosses().await.unwrap();
        let (hana, _) = profile(&app, "Hana").await;
        let robo = bot(&app, &hana, "Robo").await;
        enter(&app, &robo, "bst").await;
        let paired = app.host.play_ladder_round().await.unwrap().unwrap();
        let game = &paired.games[0];
        let boss = bosses
            .iter()
            .find(|b| game.seats.contains(&b.profile))
            .unwrap();
        let SeatNow::Owes { me, .. } = app.host.seat_now(game.lobby, boss.profile).await.unwrap()
        else {
            panic!("the boss owes its opening answer");
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let Some(Value::Object(order)) = policy::answer_json(&me, boss.strategy, &mut rng) else {
            panic!("an answer");
        };
        let second = other.as_ref().map_or(&app.host, |o| &o.host);
        let (a, b) = tokio::join!(
            app.host
                .submit_once(game.lobby, boss.profile, order.clone()),
            second.submit_once(game.lobby, boss.profile, order.clone()),
        );
        let refused = [&a, &b]
            .iter()
            .filter(|r| matches!(r, Err(AppError::Conflict { .. })))
            .count();
        assert_eq!(
            (a.is_ok() as u8 + b.is_ok() as u8, refused),
            (1, 1),
            "{a:?} {b:?}"
        );
        let receipt = a.or(b).unwrap();
        assert!(!receipt.replaced);
        // Answered again later: refused, and the stored order stands.
        let again = app.host.submit_once(game.lobby, boss.profile, order).await;
        assert!(
            matches!(
                again,
                Err(AppError::Conflict {
                    code: "already-answered",
                    ..
                })
            ),
            "{again:?}"
        );
        let view = app
            .get(&format!("/api/v1/lobbies/{}", game.lobby), None)
            .await;
        assert_eq!(view.body["status"], "running");
    }
}
