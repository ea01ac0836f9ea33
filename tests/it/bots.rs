//! The reference bot and the load generator, against a real server on a loopback port.

use std::time::Duration;

use serde_json::json;
use tokio::net::TcpListener;

use herald::bots::bot::{self, BotArgs};
use herald::bots::client::Api;
use herald::bots::drive::Drive;
use herald::bots::load::{self, LoadArgs};
use herald::bots::policy::Strategy;
use herald::games::GameKind;
use herald::host::Host;
use herald::store::Store;

/// Serves Herald on 127.0.0.1 (an ephemeral port) with a temporary SQLite file.
pub(crate) async fn server() -> (String, tempfile::TempDir) {
    server_with(herald::Options::default()).await
}

/// As the load scripts run the server (docs/performance.md): the load generator's address
/// exempt from the limits on new lobbies, joins and profiles, which it makes far faster than a
/// person.
async fn load_server() -> (String, tempfile::TempDir) {
    let mut options = herald::Options::default();
    options.rates.rate_limit_exempt = vec![herald::http::client::net("127.0.0.0/8").unwrap()];
    server_with(options).await
}

async fn server_with(options: herald::Options) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("h.db").display());
    let store = Store::connect(&url).await.unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(herald::serve_with(
        listener,
        Host::new(store),
        options,
        std::future::pending(),
    ));
    (address, dir)
}

/// Two bots per game, driven only by their event streams, play every registered game to the
/// end, in the load generator's lobby of it (a cap of 15 rounds where the game has one), each
/// strategy on alternate games. (The timeout only guards against a hang; nothing is timed.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reference_bots_play_whole_games_of_every_game_from_their_event_streams() {
    let (url, _dir) = server().await;
    let api = Api::new(&url);
    for (i, kind) in GameKind::ALL.into_iter().enumerate() {
        let game = kind.id();
        let strategy = [Strategy::Random, Strategy::Greedy][i % 2];
        let (_, settings) = load::lobby(kind, 2, 15);
        let (lobby, host) = api.create_lobby(game, "bots", settings).await.unwrap();
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
        assert_eq!(view["status"], "finished", "{game}: {view}");
    }
}

/// The load generator plays lobbies of every registered game to their end, over each drive and
/// strategy, with no error: two answers at least a game (every game seats two players at least).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_generator_plays_every_game_to_the_end() {
    let (url, _dir) = load_server().await;
    for (i, kind) in GameKind::ALL.into_iter().enumerate() {
        let (drive, strategy) = [
            (Drive::Streams, Strategy::Greedy),
            (Drive::Poll, Strategy::Random),
            (Drive::Profiles, Strategy::Greedy),
        ][i % 3];
        let args = LoadArgs {
            url: url.clone(),
            game: kind.id().into(),
            lobbies: 2,
            players: 3,
            max_rounds: 4,
            connections: 4,
            strategy,
            drive,
            server_pid: Vec::new(),
            database_processes: Vec::new(),
            seed: 3,
            webhooks: false,
            webhook_events: Vec::new(),
            messages: false,
            profiles: false,
            rated: false,
        };
        let report = load::run(args).await.expect("load runs");
        let what = format!("{kind} {drive:?}");
        assert_eq!(report.games, 2, "{what}");
        assert!(report.errors.is_empty(), "{what}: {:?}", report.errors);
        assert!(report.steps >= report.rounds, "{what}");
        assert!(report.rounds >= 2, "{what}: {} rounds", report.rounds);
        assert!(report.orders >= 4, "{what}: {} orders", report.orders);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_generator_plays_every_lobby_to_the_end_and_counts_what_it_saw() {
    let (url, _dir) = load_server().await;
    for drive in [Drive::Streams, Drive::Poll, Drive::Profiles] {
        let args = LoadArgs {
            url: url.clone(),
            game: "crossing-swords".into(),
            lobbies: 4,
            players: 3,
            max_rounds: 4,
            connections: 8,
            strategy: Strategy::Random,
            drive,
            server_pid: Vec::new(),
            database_processes: Vec::new(),
            seed: 1,
            webhooks: false,
            webhook_events: Vec::new(),
            // Polling bots also talk: a message before each answer.
            messages: drive == Drive::Poll,
            profiles: false,
            rated: false,
        };
        let report = load::run(args).await.expect("load runs");
        assert_eq!(report.games, 4, "{drive:?}");
        let talked = if drive == Drive::Poll {
            report.orders
        } else {
            0
        };
        assert_eq!(report.messages, talked, "{drive:?}");
        assert!(report.errors.is_empty(), "{drive:?}: {:?}", report.errors);
        assert!(
            report.rounds >= 4 && report.rounds <= 16,
            "{drive:?}: {} rounds",
            report.rounds
        );
        // Every round of Crossing Swords is one step; every living player answers each one,
        // once (a bot never answers the same prompt twice).
        assert_eq!(report.steps, report.rounds, "{drive:?}");
        assert_eq!(report.latencies_us.len() as u64, report.orders);
        assert!(
            report.orders >= report.rounds * 2 && report.orders <= report.rounds * 3,
            "{drive:?}: {} orders in {} rounds of at most three players",
            report.orders,
            report.rounds
        );
    }
}

/// The webhook benchmark (docs/performance.md) counts what it charges to the play: a webhook on
/// every lobby hears each join and start before play begins, and during it exactly one delivery
/// per resolved round and one per finished game (the channel events of docs/notifications.md;
/// no deadline falls in a load run).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_generators_webhooks_are_counted_for_the_seating_and_the_play_apart() {
    let options = herald::Options {
        notifications: herald::notify::Settings {
            allow_private: true,
            ..herald::notify::Settings::default()
        },
        ..herald::Options::default()
    };
    let (url, _dir) = server_with(options).await;
    let args = LoadArgs {
        url,
        game: "crossing-swords".into(),
        lobbies: 3,
        players: 3,
        max_rounds: 3,
        connections: 8,
        strategy: Strategy::Random,
        drive: Drive::Poll,
        server_pid: Vec::new(),
        database_processes: Vec::new(),
        seed: 1,
        webhooks: true,
        webhook_events: ["player-joined", "started", "round-resolved", "finished"]
            .map(String::from)
            .to_vec(),
        messages: false,
        profiles: false,
        rated: false,
    };
    let report = load::run(args).await.expect("load runs");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.games, 3);
    let deliveries = report.deliveries.expect("the receiver counted");
    assert_eq!(
        deliveries.seating,
        3 * (3 + 1),
        "three joins and a start a lobby"
    );
    assert_eq!(
        deliveries.play,
        report.rounds + report.games,
        "a round-resolved per round and a finished per game"
    );
}

/// Posts `body` to `path` on `url` with `token`; the reply's JSON.
async fn post_json(
    url: &str,
    path: &str,
    token: Option<&str>,
    body: serde_json::Value,
) -> serde_json::Value {
    let mut request = reqwest::Client::new()
        .post(format!("{url}{path}"))
        .json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let reply = request.send().await.unwrap();
    assert!(reply.status().is_success(), "{path}: {}", reply.status());
    reply.json().await.unwrap()
}

/// `herald bot --profile` plays every seat of a bot profile, in two games, from its one
/// stream, and stops once no game is left; the other seats are reference bots on their own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_profile_bot_plays_every_seat_of_its_profile_from_one_stream() {
    let (url, _dir) = server().await;
    let api = Api::new(&url);
    let owner = post_json(&url, "/api/v1/profiles", None, json!({"handle": "Owner"})).await;
    let owner = owner["key"].as_str().unwrap().to_string();
    let robo = post_json(
        &url,
        "/api/v1/me/bots",
        Some(&owner),
        json!({"handle": "Robo"}),
    )
    .await;
    let key = robo["key"].as_str().unwrap().to_string();
    let mut others = Vec::new();
    let mut lobbies = Vec::new();
    for (game, settings) in [
        (
            "crossing-swords",
            json!({"max_players": 2, "max_rounds": 6}),
        ),
        ("bst", json!({"seed": 3, "max_rounds": 6})),
    ] {
        let (lobby, host) = api
            .create_lobby(game, "profile bot", settings)
            .await
            .unwrap();
        post_json(
            &url,
            &format!("/api/v1/lobbies/{lobby}/players"),
            Some(&key),
            json!({}),
        )
        .await;
        let (_, token) = api.join(&lobby, json!({"name": "Ann"})).await.unwrap();
        others.push(tokio::spawn(bot::run(BotArgs {
            url: Some(url.clone()),
            lobby: Some(lobby.clone()),
            token: Some(token),
            profile: false,
            stay: false,
            accept_challenges: false,
            strategy: Strategy::Random,
            seed: Some(5),
        })));
        api.start(&lobby, &host).await.unwrap();
        lobbies.push(lobby);
    }
    let profile = tokio::spawn(herald::bots::profile_bot::run(BotArgs {
        url: Some(url.clone()),
        lobby: None,
        token: Some(key),
        profile: true,
        stay: false,
        accept_challenges: false,
        strategy: Strategy::Greedy,
        seed: Some(6),
    }));
    for handle in others.into_iter().chain([profile]) {
        let played = tokio::time::timeout(Duration::from_secs(120), handle)
            .await
            .expect("the bot finishes");
        played.unwrap().expect("the bot plays without error");
    }
    for lobby in lobbies {
        assert_eq!(api.lobby(&lobby).await.unwrap()["status"], "finished");
    }
}

/// The load generator's profiles and ratings (docs/performance.md): with `--rated` every seat
/// is joined with a profile key of its own and every lobby is rated, so that each finished
/// game rates every player; with `--profiles` alone the seats are bound and unrated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_generator_binds_every_seat_and_rates_every_game_when_asked() {
    let (url, _dir) = load_server().await;
    // A run's handles are made of its seed: each run here takes its own.
    for (seed, game, players, rated) in [
        (7, "crossing-swords", 3, true),
        (8, "bst", 2, true),
        (9, "crossing-swords", 3, false),
    ] {
        let args = LoadArgs {
            url: url.clone(),
            game: game.into(),
            lobbies: 2,
            players,
            max_rounds: 3,
            connections: 4,
            strategy: Strategy::Random,
            drive: Drive::Poll,
            server_pid: Vec::new(),
            database_processes: Vec::new(),
            seed,
            webhooks: false,
            webhook_events: Vec::new(),
            messages: false,
            profiles: !rated,
            rated,
        };
        let report = load::run(args).await.expect("load runs");
        assert!(report.errors.is_empty(), "{game}: {:?}", report.errors);
        assert_eq!(report.games, 2, "{game}");
        assert_eq!(report.rated, if rated { 2 } else { 0 }, "{game}");
        // Each bot's profile holds its seat, bound before the start.
        let handle = format!("bot%20{seed}%201%200");
        let profile: serde_json::Value = reqwest::get(format!("{url}/api/v1/profiles/{handle}"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let games = profile["games"].as_array().expect("the profile's games");
        assert_eq!(games.len(), 1, "{profile}");
        assert_eq!(games[0]["holding"], "bound", "{profile}");
        assert_eq!(games[0]["game"], game, "{profile}");
        let ratings = profile["ratings"].as_array().map_or(0, Vec::len);
        assert_eq!(ratings, usize::from(rated), "{profile}");
    }
}
