//! Blood Sweat and Tears over HTTP, on every backend: whole games played by the reference bots'
//! policies, games started from a `setup` and from an explicit `pool`, and its secrets.

use axum::http::StatusCode;
use rand::SeedableRng;
use serde_json::{Value, json};

use herald::bots::policy::{Strategy, answer};

use crate::support::{TestApp, apps};

/// The 80 tokens in a fixed order: for each number 3..10, four Blue, three Red, two Yellow and a
/// Wildcard (S1).
fn all_tokens() -> Vec<String> {
    let mut tokens = Vec::new();
    for n in 3..=10 {
        for (colour, copies) in [("B", 4), ("R", 3), ("Y", 2), ("W", 1)] {
            tokens.extend((0..copies).map(|_| format!("{colour}{n}")));
        }
    }
    tokens
}

async fn duel(
    app: &TestApp,
    settings: Value,
    characters: [&str; 2],
) -> (String, String, Vec<(String, String)>) {
    let (lobby, host) = app.create_lobby("bst", settings).await;
    let mut players = Vec::new();
    for (name, character) in ["Ann", "Bob"].into_iter().zip(characters) {
        players.push(
            app.join(&lobby, json!({"name": name, "character": character}))
                .await,
        );
    }
    (lobby, host, players)
}

/// Plays the game to the end with `strategy` for both seats; returns the steps answered.
async fn play_out(
    app: &TestApp,
    lobby: &str,
    players: &[(String, String)],
    strategy: Strategy,
    seed: u64,
) -> usize {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut answered = 0;
    for _ in 0..5_000 {
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        if view["status"] == "finished" {
            return answered;
        }
        let mut progressed = false;
        for (id, token) in players {
            let owes = view["players"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["id"] == id.as_str() && p["owes"] == true);
            if !owes {
                continue;
            }
            let me = app
                .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(token))
                .await
                .body;
            let order = answer(&me, strategy, &mut rng)
                .unwrap_or_else(|| panic!("no answer for {}", me["prompt"]));
            let reply = app
                .post(
                    &format!("/api/v1/lobbies/{lobby}/orders"),
                    Some(token),
                    order.clone(),
                )
                .await;
            assert_eq!(
                reply.status,
                StatusCode::ACCEPTED,
                "{}: {order} for {}: {}",
                app.backend,
                me["prompt"],
                reply.text
            );
            answered += 1;
            progressed = true;
        }
        assert!(
            progressed,
            "someone owes an answer while the game runs: {view}"
        );
    }
    panic!("the game did not end");
}

/// Declines every optional step until the next play step.
async fn decline_until_play(app: &TestApp, lobby: &str, players: &[(String, String)]) {
    loop {
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        if view["step"] == "play" || view["status"] == "finished" {
            return;
        }
        let step = view["step"].clone();
        let round = view["round"].clone();
        for (p, (_, token)) in view["players"].as_array().unwrap().iter().zip(players) {
            if p["owes"] == true {
                let body = json!({"round": round, "step": step, "decline": true});
                let reply = app
                    .post(
                        &format!("/api/v1/lobbies/{lobby}/orders"),
                        Some(token),
                        body,
                    )
                    .await;
                assert_eq!(
                    reply.status,
                    StatusCode::ACCEPTED,
                    "decline {step}: {}",
                    reply.text
                );
            }
        }
    }
}

/// Every token is somewhere: pool, hands, discard or the table (S1).
fn tokens_accounted(view: &Value) -> u64 {
    let hands: u64 = view["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["hand_size"].as_u64().unwrap())
        .sum();
    view["pool_size"].as_u64().unwrap()
        + hands
        + view["discard"].as_array().unwrap().len() as u64
        + view["in_play"].as_array().unwrap().len() as u64
}

#[tokio::test]
async fn whole_bst_games_are_played_over_http_by_random_and_greedy_bots() {
    for app in apps().await {
        for (i, (characters, strategy)) in [
            (["sellsword", "razorbeast"], Strategy::Random),
            (["warpriest", "channeler"], Strategy::Greedy),
            (["sentinel", "assassin"], Strategy::Random),
        ]
        .into_iter()
        .enumerate()
        {
            let (lobby, host, players) =
                duel(&app, json!({"seed": 1000 + i as u64}), characters).await;
            let started = app.start(&lobby, &host).await.body;
            assert_eq!(started["players"][0]["character"], characters[0]);
            assert_eq!(tokens_accounted(&started), 80);
            let answered = play_out(&app, &lobby, &players, strategy, i as u64).await;
            assert!(answered >= 2, "at least one play step");
            let view = app
                .get(&format!("/api/v1/lobbies/{lobby}"), None)
                .await
                .body;
            assert_eq!(view["status"], "finished");
            assert!(view["result"]["reason"].is_string(), "{}", view["result"]);
            assert_eq!(
                tokens_accounted(&view),
                80,
                "{}: the 80 tokens at the end",
                app.backend
            );
            assert_eq!(view["seed"], (1000 + i as u64).to_string());
            let rounds = app
                .get(&format!("/api/v1/lobbies/{lobby}/rounds"), None)
                .await
                .body;
            let first = app
                .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
                .await
                .body;
            assert!(!rounds.as_array().unwrap().is_empty());
            let plays: Vec<&Value> = first["orders"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|o| o["step"] == "play")
                .collect();
            assert_eq!(plays.len(), 2, "both tiles and tokens are revealed");
            assert!(
                first["log"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["kind"] == "exchange"),
                "the exchange and its reason are logged"
            );
        }
    }
}

/// TC-01 (the seed's first example) from a `setup`: Lightning beats Standard, B10 deals 7.
#[tokio::test]
async fn a_bst_game_starts_from_a_setup_and_plays_tc_01() {
    for app in apps().await {
        let setup = json!({"players": [{"hand": ["Y3", "B6", "R8", "B9", "Y4"]}, {"hand": ["B10", "R5", "B4", "Y7", "W6"]}]});
        let (lobby, host, players) = duel(
            &app,
            json!({"setup": setup, "seed": 5}),
            ["sellsword", "sellsword"],
        )
        .await;
        app.start(&lobby, &host).await;
        let orders = format!("/api/v1/lobbies/{lobby}/orders");
        let a = app
            .post(
                &orders,
                Some(&players[0].1),
                json!({"round": 1, "step": "play", "move": "standard-strike", "token": "Y3"}),
            )
            .await;
        assert_eq!(a.status, StatusCode::ACCEPTED, "{}", a.text);
        let b = app
            .post(
                &orders,
                Some(&players[1].1),
                json!({"round": 1, "step": "play", "move": "lightning-strike", "token": "B10"}),
            )
            .await;
        assert_eq!(b.status, StatusCode::ACCEPTED, "{}", b.text);
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["round"], 2, "{}", app.backend);
        let (ann, bob) = (&view["players"][0], &view["players"][1]);
        assert_eq!(
            (ann["hp"].as_i64(), ann["charges"].as_i64()),
            (Some(68), Some(1))
        );
        assert_eq!(
            (bob["hp"].as_i64(), bob["charges"].as_i64()),
            (Some(75), Some(0))
        );
        assert_eq!(view["discard"], json!(["Y3", "B10"]));
        let hand = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&players[0].1))
            .await
            .body["hand"]
            .clone();
        let hand: Vec<&str> = hand
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert_eq!(hand.len(), 5, "four left and one drawn at turn 2");
        for kept in ["B6", "R8", "B9", "Y4"] {
            assert!(hand.contains(&kept), "{kept} stays in Ann's hand: {hand:?}");
        }

        // An impossible setup is refused at creation (422), with the rules' reason.
        let bad = app.post("/api/v1/lobbies", None, json!({"game": "bst", "name": "x", "settings": {"setup": {"players": [{"charges": 6}]}}})).await;
        assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
        assert_eq!(bad.code(), "charges-out-of-range");
    }
}

/// An explicit pool: P1 draws the first five, P2 the next five, and the turn-2 draws take the
/// next tokens, P1 first (api.md).
#[tokio::test]
async fn a_bst_game_deals_from_an_explicit_pool_in_order() {
    for app in apps().await {
        let mut pool = all_tokens();
        pool.reverse(); // W10 Y10 Y10 R10 R10 R10 B10 …
        let (lobby, host, players) =
            duel(&app, json!({"pool": pool}), ["sellsword", "sellsword"]).await;
        app.start(&lobby, &host).await;
        let hand = |token: String| {
            let app = &app;
            let lobby = lobby.clone();
            async move {
                let me = app
                    .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&token))
                    .await
                    .body;
                me["hand"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap().to_string())
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(
            hand(players[0].1.clone()).await,
            pool[..5].to_vec(),
            "{}",
            app.backend
        );
        assert_eq!(hand(players[1].1.clone()).await, pool[5..10].to_vec());
        let orders = format!("/api/v1/lobbies/{lobby}/orders");
        app.post(
            &orders,
            Some(&players[0].1),
            json!({"round": 1, "step": "play", "move": "guard", "token": pool[0]}),
        )
        .await;
        app.post(
            &orders,
            Some(&players[1].1),
            json!({"round": 1, "step": "play", "move": "guard", "token": pool[5]}),
        )
        .await;
        // Guard v Guard: both win; each Guard token returns to its hand and each winner draws
        // one (P1 first: the 11th and 12th tokens); both hold pairs of 10s, so both are offered
        // Gather Power (T13) and decline; then the turn-2 draws take the 13th and 14th.
        decline_until_play(&app, &lobby, &players).await;
        let ann = hand(players[0].1.clone()).await;
        let bob = hand(players[1].1.clone()).await;
        assert_eq!(
            ann[5..],
            [pool[10].clone(), pool[12].clone()],
            "Ann drew the 11th and 13th tokens"
        );
        assert_eq!(
            bob[5..],
            [pool[11].clone(), pool[13].clone()],
            "Bob drew the 12th and 14th tokens"
        );
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["pool_size"], 66);
    }
}

/// Secrets: a hand is its owner's alone, the pool's order and the seed are never shown while the
/// game runs, a draw names its token only to the drawer, and orders stay secret until the reveal.
#[tokio::test]
async fn bst_hands_pool_order_seed_and_orders_stay_secret_until_revealed() {
    const SEED: u64 = 987_654_321_012;
    for app in apps().await {
        let pool = all_tokens(); // B3 B3 B3 B3 R3 R3 R3 Y3 Y3 W3 B4 …
        let (lobby, host, players) = duel(
            &app,
            json!({"pool": pool, "seed": SEED}),
            ["sellsword", "assassin"],
        )
        .await;
        let created = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .text;
        app.start(&lobby, &host).await;
        let lobby_path = format!("/api/v1/lobbies/{lobby}");
        // Windows of six consecutive undrawn pool tokens, as they would appear in JSON.
        let windows: Vec<String> = pool[10..]
            .windows(6)
            .map(|w| {
                serde_json::to_string(w)
                    .unwrap()
                    .trim_matches(['[', ']'])
                    .to_string()
            })
            .collect();
        let leaks = |text: &str| -> Option<String> {
            if text.contains(&SEED.to_string()) {
                return Some("the seed".into());
            }
            windows
                .iter()
                .find(|w| text.contains(w.as_str()))
                .map(|w| format!("the pool order ({w})"))
        };
        assert_eq!(leaks(&created), None, "settings are never echoed");

        let public = app.get(&lobby_path, None).await;
        assert_eq!(leaks(&public.text), None);
        assert!(
            !public.text.contains("\"hand\""),
            "no hand in the public view"
        );
        let ann_me = app
            .get(&format!("{lobby_path}/me"), Some(&players[0].1))
            .await;
        let bob_me = app
            .get(&format!("{lobby_path}/me"), Some(&players[1].1))
            .await;
        assert_eq!(
            ann_me.body["hand"],
            json!(pool[..5]),
            "Ann sees her own hand"
        );
        assert_eq!(
            bob_me.body["hand"],
            json!(pool[5..10]),
            "Bob sees his own hand"
        );
        for me in [&ann_me, &bob_me] {
            assert_eq!(leaks(&me.text), None);
        }

        // Ann plays; until Bob answers, nothing of her tile or token is visible to anyone else:
        // Bob's view is unchanged and the public view changes only in Ann's flags.
        let orders = format!("{lobby_path}/orders");
        let ann_token = &players[0].1;
        let public_before = app.get(&lobby_path, None).await.body;
        let bob_before = app
            .get(&format!("{lobby_path}/me"), Some(&players[1].1))
            .await
            .body;
        let play = json!({"round": 1, "step": "play", "move": "evasion", "token": "W3"});
        let reply = app.post(&orders, Some(ann_token), play).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "token-not-in-hand"),
            "W3 is not in Ann's hand"
        );
        let play = json!({"round": 1, "step": "play", "move": "evasion", "token": "R3"});
        assert_eq!(
            app.post(&orders, Some(ann_token), play).await.status,
            StatusCode::ACCEPTED
        );
        let mut public = app.get(&lobby_path, None).await.body;
        assert_eq!(public["players"][0]["submitted"], true);
        public["players"][0]["submitted"] = json!(false);
        assert_eq!(
            public, public_before,
            "{}: only Ann's submitted flag changed",
            app.backend
        );
        assert_eq!(
            app.get(&format!("{lobby_path}/me"), Some(&players[1].1))
                .await
                .body,
            bob_before
        );
        assert_eq!(
            app.get(&format!("{lobby_path}/rounds/1"), None)
                .await
                .status,
            StatusCode::NOT_FOUND
        );

        let play = json!({"round": 1, "step": "play", "move": "guard", "token": pool[5]});
        assert_eq!(
            app.post(&orders, Some(&players[1].1), play).await.status,
            StatusCode::ACCEPTED
        );
        decline_until_play(&app, &lobby, &players).await;

        // Turn 2 opens with the draws: counted publicly in the running round, each token named
        // only to its drawer.
        let kinds = |log: &Value| -> Vec<String> {
            log.as_array()
                .unwrap()
                .iter()
                .map(|e| e["kind"].as_str().unwrap().to_string())
                .collect()
        };
        let view = app.get(&lobby_path, None).await.body;
        assert_eq!(view["current_round"]["round"], 2);
        let opening = kinds(&view["current_round"]["log"]);
        assert!(
            opening.contains(&"drew-count".to_string()) && !opening.contains(&"drew".to_string()),
            "{opening:?}"
        );
        for (seat, (_, token)) in players.iter().enumerate() {
            let hand = app.get(&format!("{lobby_path}/me"), Some(token)).await.body["hand"].clone();
            let body = json!({"round": 2, "step": "play", "move": "guard", "token": hand[0]});
            assert_eq!(
                app.post(&orders, Some(token), body).await.status,
                StatusCode::ACCEPTED,
                "seat {seat}"
            );
        }
        decline_until_play(&app, &lobby, &players).await;
        let public_log = app.get(&format!("{lobby_path}/rounds/2"), None).await;
        assert_eq!(leaks(&public_log.text), None);
        assert!(
            !kinds(&public_log.body["log"]).contains(&"drew".to_string()),
            "no drawn token in the public log"
        );
        let ann_log = app
            .get(&format!("{lobby_path}/rounds/2"), Some(ann_token))
            .await
            .body;
        let ann_draws: Vec<&Value> = ann_log["log"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "drew")
            .collect();
        assert!(!ann_draws.is_empty(), "Ann sees her own draws");
        assert!(
            ann_draws.iter().all(|e| e["private_to_seat"] == 0),
            "and only hers"
        );
        assert_eq!(
            ann_log["log"][0]["kind"], "turn-began",
            "round 2's log opens with its turn"
        );
        let public = app.get(&lobby_path, None).await.text;
        assert_eq!(
            leaks(&public),
            None,
            "{}: still no pool order or seed after a round",
            app.backend
        );
    }
}
