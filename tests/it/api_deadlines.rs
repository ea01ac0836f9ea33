//! Deadlines: a step resolves at its deadline with the orders that are in, fallback orders
//! and the games' defaults; reminders fire once; a restart loses none. Time is a manual
//! clock the tests move (support::timed_apps); no test sleeps for a deadline.

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{T0, TestApp, timed_apps};

const MINUTE: Duration = Duration::from_secs(60);

/// Waits (in real time, briefly) until the scheduler has moved the lobby to `round`.
pub async fn wait_for_round(app: &TestApp, lobby: &str, round: u64) -> Value {
    for _ in 0..500 {
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        if view["round"].as_u64().is_some_and(|r| r >= round) || view["status"] == "finished" {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{}: lobby {lobby} never reached round {round}", app.backend);
}

/// The kinds of the lobby's events so far.
pub async fn event_kinds(app: &TestApp, lobby: &str) -> Vec<(String, Value)> {
    let id = lobby.parse().unwrap();
    let mut all = Vec::new();
    let mut after = 0;
    loop {
        let page = app.store.events_after(id, after).await.unwrap();
        let Some(last) = page.last() else {
            return all;
        };
        after = last.seq;
        for event in &page {
            all.push((
                event.kind.clone(),
                serde_json::from_str(&event.data).unwrap(),
            ));
        }
    }
}

/// A started Crossing Swords lobby with `names` seated: (lobby, host token, [(id, token)]).
pub async fn seated(
    app: &TestApp,
    settings: Value,
    names: &[&str],
) -> (String, String, Vec<(String, String)>) {
    let (lobby, host) = app.create_lobby("crossing-swords", settings).await;
    let mut players = Vec::new();
    for name in names {
        players.push(app.join(&lobby, json!({"name": name})).await);
    }
    app.start(&lobby, &host).await;
    (lobby, host, players)
}

pub async fn put(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> crate::support::Reply {
    let body = Some(axum::body::Body::from(body.to_string()));
    app.send(Method::PUT, path, token, body).await
}

#[tokio::test]
async fn a_deadline_resolves_the_step_with_the_orders_in_fallbacks_and_defaults() {
    for app in timed_apps().await {
        let settings = json!({"deadline_seconds": 60});
        let (lobby, _host, p) = seated(&app, settings, &["Ann", "Bob", "Dan"]).await;
        let path = format!("/api/v1/lobbies/{lobby}");
        let view = app.get(&path, None).await.body;
        assert_eq!(view["deadline_at"], "2026-12-01T00:01:00.000Z", "{view}");
        assert_eq!(view["paused"], false);
        let me = app.get(&format!("{path}/me"), Some(&p[0].1)).await.body;
        assert_eq!(me["deadline_at"], view["deadline_at"]);

        let sent = json!({"round": 1, "step": "orders", "move": "strike", "target": p[1].0});
        let reply = app
            .post(&format!("{path}/orders"), Some(&p[0].1), sent)
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED);
        let fallback = json!({"move": "block", "target": p[0].0});
        let reply = put(
            &app,
            &format!("{path}/me/fallback"),
            Some(&p[1].1),
            fallback,
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);

        app.clock.advance(MINUTE - Duration::from_millis(1));
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(app.get(&path, None).await.body["round"], 1, "not due yet");
        app.clock.advance(Duration::from_millis(1));
        let view = wait_for_round(&app, &lobby, 2).await;
        assert_eq!(
            view["deadline_at"], "2026-12-01T00:02:00.000Z",
            "the next step's deadline counts from its opening"
        );

        let round = app.get(&format!("{path}/rounds/1"), None).await.body;
        let sources: Vec<(&str, &str)> = round["orders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                (
                    o["player"]["name"].as_str().unwrap(),
                    o["source"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            sources,
            [("Ann", "order"), ("Bob", "fallback"), ("Dan", "default")],
            "{round}"
        );
        assert_eq!(round["orders"][1]["order"]["move"], "block");
        assert_eq!(
            round["orders"][2]["order"],
            Value::Null,
            "Dan passes (Ruling 2)"
        );
        let lines: Vec<&str> = round["log"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["text"].as_str().unwrap())
            .collect();
        assert!(
            lines.contains(&"Bob's fallback order: Block on Ann"),
            "{lines:?}"
        );
        assert!(lines.contains(&"Dan sent no order: Pass"), "{lines:?}");
        assert!(
            lines.iter().any(|l| l.starts_with("Dan passes")),
            "{lines:?}"
        );

        let events = event_kinds(&app, &lobby).await;
        let resolved: Vec<&Value> = events
            .iter()
            .filter(|(k, _)| k == "step-resolved")
            .map(|(_, d)| d)
            .collect();
        assert_eq!(resolved.len(), 1);
        assert_eq!(resolved[0]["timed_out"], true);
        let set: Vec<&Value> = events
            .iter()
            .filter(|(k, _)| k == "deadline-set")
            .map(|(_, d)| d)
            .collect();
        assert_eq!(set.len(), 2, "one per step opened: {events:?}");
        assert_eq!(set[1]["round"], 2);
        assert_eq!(set[1]["step"], "orders");
    }
}

#[tokio::test]
async fn a_fallback_that_is_no_longer_legal_gives_way_to_the_default() {
    for app in timed_apps().await {
        // Cat is dead from the start, so a fallback that strikes her cannot be played.
        let setup = json!({"players": [{}, {}, {"hp": 0, "alive": false}]});
        let settings = json!({"deadline_seconds": 60, "setup": setup});
        let (lobby, _host, p) = seated(&app, settings, &["Ann", "Bob", "Cat"]).await;
        let path = format!("/api/v1/lobbies/{lobby}");
        let strike_cat = json!({"move": "strike", "target": p[2].0});
        let reply = put(
            &app,
            &format!("{path}/me/fallback"),
            Some(&p[0].1),
            strike_cat,
        )
        .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "its legality waits for its use"
        );
        let block_ann = json!({"move": "block", "target": p[0].0});
        let reply = put(
            &app,
            &format!("{path}/me/fallback"),
            Some(&p[1].1),
            block_ann,
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK);

        app.clock.advance(MINUTE);
        wait_for_round(&app, &lobby, 2).await;
        let round = app.get(&format!("{path}/rounds/1"), None).await.body;
        let orders = round["orders"].as_array().unwrap();
        assert_eq!(orders.len(), 2, "{round}");
        assert_eq!(
            (&orders[0]["source"], &orders[0]["order"]),
            (&json!("default"), &Value::Null)
        );
        assert_eq!(orders[1]["source"], "fallback");
        let me = app.get(&format!("{path}/me"), Some(&p[0].1)).await.body;
        assert_eq!(me["fallback"]["move"], "strike", "kept until changed");
    }
}

#[tokio::test]
async fn bst_defaults_at_a_deadline_are_guard_with_a_token_of_the_hand() {
    for app in timed_apps().await {
        let settings = json!({"seed": 7, "deadline_seconds": 30, "decision_deadline_seconds": 5});
        let (lobby, host) = app.create_lobby("bst", settings).await;
        let a = app.join(&lobby, json!({"name": "Ann"})).await;
        app.join(&lobby, json!({"name": "Bob"})).await;
        app.start(&lobby, &host).await;
        let path = format!("/api/v1/lobbies/{lobby}");
        let hand = app.get(&format!("{path}/me"), Some(&a.1)).await.body["hand"].clone();
        app.clock.advance(Duration::from_secs(30));
        // The play step resolves; decision steps (if any) fall due 5 s after they open.
        for _ in 0..10 {
            let view = app.get(&path, None).await.body;
            if view["round"].as_u64() >= Some(2) || view["status"] == "finished" {
                break;
            }
            app.clock.advance(Duration::from_secs(5));
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let view = wait_for_round(&app, &lobby, 2).await;
        assert!(view["round"].as_u64() >= Some(2), "{view}");
        let round = app.get(&format!("{path}/rounds/1"), None).await.body;
        let play = &round["orders"][0];
        assert_eq!(play["step"], "play", "{round}");
        assert_eq!(play["source"], "default");
        assert_eq!(play["order"]["move"], "guard", "A36: Guard");
        assert!(
            hand.as_array().unwrap().contains(&play["order"]["token"]),
            "A36: a token of the hand: {hand} {play}"
        );
    }
}

#[tokio::test]
async fn a_step_without_a_deadline_waits_however_long_it_takes() {
    for app in timed_apps().await {
        let (lobby, _host, _p) = seated(&app, json!({}), &["Ann", "Bob"]).await;
        let path = format!("/api/v1/lobbies/{lobby}");
        assert_eq!(app.get(&path, None).await.body["deadline_at"], Value::Null);
        app.clock.advance(Duration::from_secs(40 * 86_400));
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(app.get(&path, None).await.body["round"], 1);
    }
}

#[tokio::test]
async fn deadline_settings_out_of_range_are_refused_naming_the_field() {
    for app in timed_apps().await {
        for (settings, field) in [
            (json!({"deadline_seconds": 0}), "deadline_seconds"),
            (json!({"deadline_seconds": 2_592_001}), "deadline_seconds"),
            (json!({"deadline_seconds": "soon"}), "deadline_seconds"),
            (
                json!({"decision_deadline_seconds": -5}),
                "decision_deadline_seconds",
            ),
            (json!({"reminder_seconds": 60}), "reminder_seconds"),
            (json!({"miss_limit": 0}), "miss_limit"),
        ] {
            let body = json!({"game": "crossing-swords", "name": "x", "settings": settings});
            let reply = app.post("/api/v1/lobbies", None, body).await;
            assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{settings}");
            assert_eq!(reply.code(), "invalid-deadline-setting");
            assert!(
                reply.body["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains(field)
            );
        }
        let body = json!({"game": "bst", "name": "x", "settings": {"deadline_seconds": 1}});
        assert_eq!(
            app.post("/api/v1/lobbies", None, body).await.status,
            StatusCode::CREATED
        );
    }
}

#[tokio::test]
async fn reminders_fire_once_each_and_only_those_that_fit() {
    for app in timed_apps().await {
        // Two hours: the day's reminder does not fit; the hour's and the minute's do.
        let settings = json!({"deadline_seconds": 7200, "reminder_seconds": [86400, 3600, 60]});
        let (lobby, _host, _p) = seated(&app, settings, &["Ann", "Bob"]).await;
        let approaching = |events: &[(String, Value)]| {
            events
                .iter()
                .filter(|(k, _)| k == "deadline-approaching")
                .map(|(_, d)| d.clone())
                .collect::<Vec<_>>()
        };
        // A reminder that must fire is waited for (the scheduler acts on its own task, later
        // under load); one that must not is given a moment to show up wrongly, and every later
        // count would reveal it anyway, since the counts only grow.
        let settle = || tokio::time::sleep(Duration::from_millis(100));
        let fired_by_now = |at_least: usize| {
            let app = &app;
            let lobby = &lobby;
            async move {
                let deadline = std::time::Instant::now() + Duration::from_secs(30);
                loop {
                    let fired = approaching(&event_kinds(app, lobby).await);
                    if fired.len() >= at_least || std::time::Instant::now() > deadline {
                        return fired;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        };
        app.clock.advance(Duration::from_secs(3599));
        settle().await;
        assert!(approaching(&event_kinds(&app, &lobby).await).is_empty());
        app.clock.advance(Duration::from_secs(1));
        let fired = fired_by_now(1).await;
        assert_eq!(fired.len(), 1, "the hour's reminder");
        assert_eq!(fired[0]["deadline_at"], "2026-12-01T02:00:00.000Z");
        assert_eq!(
            (&fired[0]["round"], &fired[0]["step"]),
            (&json!(1), &json!("orders"))
        );
        app.clock.advance(Duration::from_secs(1800));
        settle().await;
        assert_eq!(
            approaching(&event_kinds(&app, &lobby).await).len(),
            1,
            "once"
        );
        app.clock.set(T0 + 7_140_000);
        assert_eq!(fired_by_now(2).await.len(), 2, "the minute's");
        app.clock.set(T0 + 7_200_000);
        wait_for_round(&app, &lobby, 2).await;
        assert_eq!(approaching(&event_kinds(&app, &lobby).await).len(), 2);
    }
}

#[tokio::test]
async fn a_deadline_that_passed_while_the_server_was_down_fires_once_on_start() {
    for app in timed_apps().await {
        let (lobby, _host, _p) =
            seated(&app, json!({"deadline_seconds": 600}), &["Ann", "Bob"]).await;
        let stopped = app.stop().await;
        stopped.clock.advance(Duration::from_secs(3600));
        let app = stopped.start().await;
        wait_for_round(&app, &lobby, 2).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        let events = event_kinds(&app, &lobby).await;
        let resolved = events.iter().filter(|(k, _)| k == "step-resolved").count();
        assert_eq!(resolved, 1, "{}: {events:?}", app.backend);
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(
            view["deadline_at"], "2026-12-01T01:10:00.000Z",
            "round 2's deadline counts from when the server resolved round 1"
        );
    }
}

#[tokio::test]
async fn missed_steps_are_counted_in_a_row() {
    for app in timed_apps().await {
        let settings = json!({"deadline_seconds": 60, "miss_limit": 3});
        let (lobby, _host, p) = seated(&app, settings, &["Ann", "Bob"]).await;
        let id = lobby.parse().unwrap();
        let misses = || async {
            let snapshot = app.store.snapshot(id).await.unwrap().unwrap();
            snapshot
                .players
                .iter()
                .map(|p| p.misses)
                .collect::<Vec<_>>()
        };
        for round in 1..=2 {
            let body = json!({"round": round, "step": "orders", "move": "dodge", "target": p[1].0});
            let path = format!("/api/v1/lobbies/{lobby}/orders");
            assert_eq!(
                app.post(&path, Some(&p[0].1), body).await.status,
                StatusCode::ACCEPTED
            );
            app.clock.advance(MINUTE);
            wait_for_round(&app, &lobby, round + 1).await;
        }
        assert_eq!(misses().await, [0, 2]);
        let path = format!("/api/v1/lobbies/{lobby}/orders");
        for (token, target) in [(&p[0].1, &p[1].0), (&p[1].1, &p[0].0)] {
            let body = json!({"round": 3, "step": "orders", "move": "dodge", "target": target});
            assert_eq!(
                app.post(&path, Some(token), body).await.status,
                StatusCode::ACCEPTED
            );
        }
        assert_eq!(misses().await, [0, 0], "an answer starts the count again");
    }
}

/// The one real deadline: a server on a loopback port with the system clock, a one-second
/// deadline, and nobody answering: the round resolves by itself, over HTTP, within seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_one_second_deadline_resolves_a_round_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("h.db").display());
    let store = herald::store::Store::connect(&url).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/api/v1/lobbies", listener.local_addr().unwrap());
    let host = herald::host::Host::new(store);
    tokio::spawn(herald::serve(listener, host, std::future::pending()));
    herald::notify::install_crypto_provider();
    let http = reqwest::Client::new();
    let created: Value = http
        .post(&base)
        .json(&json!({"game": "crossing-swords", "name": "fast", "settings": {"deadline_seconds": 1}}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let (lobby, host_token) = (
        created["id"].as_str().unwrap(),
        created["host_token"].as_str().unwrap(),
    );
    for name in ["Ann", "Bob"] {
        let reply = http
            .post(format!("{base}/{lobby}/players"))
            .json(&json!({"name": name}))
            .send()
            .await
            .unwrap();
        assert_eq!(reply.status(), StatusCode::CREATED);
    }
    let started: Value = http
        .post(format!("{base}/{lobby}/start"))
        .bearer_auth(host_token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(started["deadline_at"].is_string(), "{started}");
    let began = std::time::Instant::now();
    loop {
        let view: Value = http
            .get(format!("{base}/{lobby}"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if view["round"].as_u64() >= Some(2) {
            break;
        }
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "the deadline never fired: {view}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let round: Value = http
        .get(format!("{base}/{lobby}/rounds/1"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(round["orders"][0]["source"], "default", "{round}");
}
