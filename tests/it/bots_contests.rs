//! Contests played by the reference bot (`herald bot`, from each seat's event stream) and by the
//! load generator, against a real server on a loopback port: both strategies, to the end.

use std::time::Duration;

use serde_json::json;

use herald::bots::bot::{self, BotArgs};
use herald::bots::client::Api;
use herald::bots::drive::Drive;
use herald::bots::load::{self, LoadArgs};
use herald::bots::policy::Strategy;

use crate::bots::server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reference_bots_play_contests_duels_from_their_event_streams() {
    let (url, _dir) = server().await;
    let api = Api::new(&url);
    for (seed, strategy) in [(9, Strategy::Greedy), (10, Strategy::Random)] {
        let settings = json!({"seed": seed, "max_phases": 12});
        let (lobby, host) = api
            .create_lobby("contests", "bots", settings)
            .await
            .unwrap();
        let mut bots = Vec::new();
        for name in ["Ann", "Bob"] {
            let (_, token) = api.join(&lobby, json!({"name": name})).await.unwrap();
            let args = BotArgs {
                url: Some(url.clone()),
                lobby: Some(lobby.clone()),
                token: Some(token),
                profile: false,
                stay: false,
                accept_challenges: false,
                strategy,
                seed: Some(7),
            };
            bots.push(tokio::spawn(bot::run(args)));
        }
        api.start(&lobby, &host).await.unwrap();
        for handle in bots {
            let played = tokio::time::timeout(Duration::from_secs(120), handle)
                .await
                .expect("the bot finishes");
            played.unwrap().expect("the bot plays without error");
        }
        let view = api.lobby(&lobby).await.unwrap();
        assert_eq!(view["status"], "finished", "{view}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_generator_plays_contests_lobbies_to_the_end() {
    let (url, _dir) = server().await;
    for (drive, strategy) in [
        (Drive::Streams, Strategy::Greedy),
        (Drive::Poll, Strategy::Random),
    ] {
        let args = LoadArgs {
            url: url.clone(),
            game: "contests".into(),
            lobbies: 2,
            players: 4,
            max_rounds: 6,
            connections: 4,
            strategy,
            drive,
            server_pid: Vec::new(),
            database_processes: Vec::new(),
            seed: 3,
            webhooks: false,
            webhook_events: Vec::new(),
        };
        let report = load::run(args).await.expect("load runs");
        assert_eq!(report.games, 2, "{drive:?}");
        assert!(report.errors.is_empty(), "{drive:?}: {:?}", report.errors);
        // A duel, whatever was asked: two players answer; a round has several steps.
        assert!(report.steps >= report.rounds, "{drive:?}");
        assert!(report.orders >= 2, "{drive:?}: {} orders", report.orders);
    }
}
