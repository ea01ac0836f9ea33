//! Ratings through the API on every backend (docs/ratings.md, "How the server stores them"):
//! rated duels won and drawn, a rated melee, the host's end with a result, a kick-out and a
//! substitute, the leaderboards and their limits, the rebuild that reaches the stored values
//! bit for bit, and ratings that outlive the retention sweep.

use std::time::Duration;

use axum::http::StatusCode;
use herald::store::retention::Retention;
use serde_json::{Value, json};

use crate::api_profiles::{join_as, profile};
use crate::support::{TestApp, manual_apps};

const CHARACTERS: [&str; 2] = ["sellsword", "sellsword"];

/// A started rated lobby of `game` with each key's profile seated: (lobby, host, players).
pub(crate) async fn rated(
    app: &TestApp,
    game: &str,
    settings: Value,
    keys: &[&str],
) -> (String, String, Vec<(String, String)>) {
    let mut settings = settings;
    settings["rated"] = json!(true);
    let (lobby, host) = app.create_lobby(game, settings).await;
    let mut players = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        let body = match game {
            "bst" => json!({"character": CHARACTERS[i % 2]}),
            _ => json!({}),
        };
        players.push(join_as(app, &lobby, key, body).await);
    }
    let started = app.start(&lobby, &host).await;
    assert_eq!(started.status, StatusCode::OK, "{}", started.text);
    (lobby, host, players)
}

pub(crate) async fn end(app: &TestApp, lobby: &str, host: &str, body: Value) -> Value {
    let reply = app
        .post(&format!("/api/v1/lobbies/{lobby}/end"), Some(host), body)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

fn changes(view: &Value) -> &Vec<Value> {
    view["result"]["rating_changes"]
        .as_array()
        .expect("rating_changes")
}

fn by_handle<'a>(changes: &'a [Value], handle: &str) -> &'a Value {
    changes
        .iter()
        .find(|c| c["handle"] == handle)
        .expect(handle)
}

#[tokio::test]
async fn a_duel_won_and_one_drawn_move_glicko2_ratings_and_chain() {
    for app in manual_apps(1_800_000_000_000).await {
        let (ann, _) = profile(&app, "Ann").await;
        let (bob, _) = profile(&app, "Bob").await;
        let (lobby, host, players) = rated(&app, "bst", json!({}), &[&ann, &bob]).await;
        let view = end(&app, &lobby, &host, json!({"winner": players[0].0})).await;
        let first = changes(&view);
        assert_eq!(first.len(), 2, "{}", app.backend);
        let won = by_handle(first, "Ann");
        let lost = by_handle(first, "Bob");
        assert_eq!(won["player"], players[0].0.as_str());
        assert_eq!(
            won["before"],
            json!({"pool": "bst/humans", "rating": 1500.0, "deviation": 350.0, "volatility": 0.06, "games": 0, "provisional": true})
        );
        assert!(won["after"]["rating"].as_f64().unwrap() > 1500.0);
        assert!(lost["after"]["rating"].as_f64().unwrap() < 1500.0);
        assert_eq!(won["after"]["games"], 1);

        app.clock.advance(Duration::from_secs(3600));
        let (lobby, host, _) = rated(&app, "bst", json!({}), &[&bob, &ann]).await;
        let view = end(&app, &lobby, &host, json!({"result": "draw"})).await;
        let second = changes(&view);
        // Each change starts where the last one ended.
        assert_eq!(by_handle(second, "Ann")["before"], won["after"]);
        assert_eq!(by_handle(second, "Bob")["before"], lost["after"]);
        let drawn = by_handle(second, "Bob")["after"]["rating"]
            .as_f64()
            .unwrap();
        assert!(
            drawn > lost["after"]["rating"].as_f64().unwrap(),
            "the weaker gains by a draw"
        );

        let ann_profile = app.get("/api/v1/profiles/ann", None).await.body;
        let ratings = ann_profile["ratings"].as_array().unwrap();
        assert_eq!(ratings.len(), 1);
        assert_eq!(ratings[0]["pool"], "bst/humans");
        assert_eq!(ratings[0]["games"], 2);
        assert_eq!(ratings[0]["history"].as_array().unwrap().len(), 2);
        assert_eq!(
            ratings[0]["history"][0]["lobby"],
            lobby.as_str(),
            "newest first"
        );
        assert_eq!(
            ratings[0]["history"][0]["after"],
            by_handle(second, "Ann")["after"]
        );
        let me = app.get("/api/v1/me", Some(&ann)).await.body;
        assert_eq!(me["ratings"], ann_profile["ratings"]);
    }
}

#[tokio::test]
async fn a_melee_is_rated_by_its_standings_by_the_rules_and_by_the_host() {
    for app in manual_apps(1_800_000_000_000).await {
        let mut keys = Vec::new();
        for handle in ["Cat", "Dan", "Eve"] {
            keys.push(profile(&app, handle).await.0);
        }
        // The rules end a one-round melee.
        let (lobby, _, players) = rated(
            &app,
            "crossing-swords",
            json!({"max_rounds": 1}),
            &[&keys[0], &keys[1]],
        )
        .await;
        app.strike_each_other(&lobby, &players).await;
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["status"], "finished", "{}", view);
        let by_rules = changes(&view);
        assert_eq!(by_rules.len(), 2, "{}", app.backend);
        assert_eq!(by_rules[0]["before"]["pool"], "crossing-swords/humans");
        assert_eq!(by_rules[0]["before"]["rating"], 25.0);
        assert_eq!(by_rules[0]["before"]["volatility"], Value::Null);

        // The host ends a three-player melee: the standings rank it.
        let keys3: Vec<&str> = keys.iter().map(String::as_str).collect();
        let (lobby, host, _) = rated(&app, "crossing-swords", json!({}), &keys3).await;
        let view = end(&app, &lobby, &host, json!({})).await;
        assert_eq!(changes(&view).len(), 3, "{}", app.backend);
        let cat = by_handle(changes(&view), "Cat");
        assert_eq!(cat["after"]["games"], 2);
    }
}

#[tokio::test]
async fn kick_outs_unrated_lobbies_and_substitutes_rate_as_the_rules_say() {
    for app in manual_apps(1_800_000_000_000).await {
        let (fay, _) = profile(&app, "Fay").await;
        let (gus, _) = profile(&app, "Gus").await;
        // A kick-out of the only opponent: unrated, and the result says so with no changes.
        let (lobby, host, players) = rated(&app, "bst", json!({}), &[&fay, &gus]).await;
        let kicked = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/players/{}/kick", players[1].0),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(kicked.status, StatusCode::OK, "{}", kicked.text);
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["status"], "finished");
        assert_eq!(
            view["result"]["rating_changes"],
            json!([]),
            "{}",
            app.backend
        );
        // An unrated lobby's result has no rating changes at all.
        let (lobby, host) = app.create_lobby("bst", json!({})).await;
        let a = join_as(&app, &lobby, &fay, json!({"character": CHARACTERS[0]})).await;
        join_as(&app, &lobby, &gus, json!({"character": CHARACTERS[1]})).await;
        app.start(&lobby, &host).await;
        let view = end(&app, &lobby, &host, json!({"winner": a.0})).await;
        assert_eq!(view["result"].get("rating_changes"), None);
        assert_eq!(
            app.get("/api/v1/profiles/fay", None).await.body["ratings"],
            json!([])
        );

        // A substitute takes Gus's seat: Gus is rated as placed when he left (second: in a
        // duel, leaving loses), the substitute not at all. Fay beats the substitute: she wins
        // against Gus.
        let (lobby, host, players) = rated(&app, "bst", json!({}), &[&fay, &gus]).await;
        let path = format!("/api/v1/lobbies/{lobby}/players/{}/replace", players[1].0);
        let replaced = app.post(&path, Some(&host), json!({"name": "Sub"})).await;
        assert_eq!(replaced.status, StatusCode::OK, "{}", replaced.text);
        let view = end(&app, &lobby, &host, json!({"winner": players[0].0})).await;
        let rated_changes = changes(&view);
        assert_eq!(rated_changes.len(), 2, "{}", app.backend);
        let gus_change = by_handle(rated_changes, "Gus");
        assert_eq!(gus_change["player"], players[1].0.as_str());
        assert!(
            gus_change["after"]["rating"].as_f64().unwrap() < 1500.0,
            "{view}"
        );
        let fay_change = by_handle(rated_changes, "Fay");
        assert!(fay_change["after"]["rating"].as_f64().unwrap() > 1500.0);
        // Had the substitute won, Fay lost the seat's game and Gus left it: both second, a
        // draw between them.
        let (lobby, host, players) = rated(&app, "bst", json!({}), &[&fay, &gus]).await;
        let path = format!("/api/v1/lobbies/{lobby}/players/{}/replace", players[1].0);
        app.post(&path, Some(&host), json!({"name": "Sub"})).await;
        let view = end(&app, &lobby, &host, json!({"winner": players[1].0})).await;
        let drawn = changes(&view);
        let (fay_before, gus_before) = (
            by_handle(drawn, "Fay")["before"]["rating"]
                .as_f64()
                .unwrap(),
            by_handle(drawn, "Gus")["before"]["rating"]
                .as_f64()
                .unwrap(),
        );
        assert!(
            by_handle(drawn, "Fay")["after"]["rating"].as_f64().unwrap() < fay_before,
            "the stronger loses by a draw"
        );
        assert!(by_handle(drawn, "Gus")["after"]["rating"].as_f64().unwrap() > gus_before);
    }
}

#[tokio::test]
async fn leaderboards_order_by_rating_put_provisional_last_and_keep_kinds_apart() {
    for app in manual_apps(1_800_000_000_000).await {
        let mut keys = Vec::new();
        for handle in ["Hal", "Ida", "Jon"] {
            keys.push(profile(&app, handle).await.0);
        }
        for _ in 0..2 {
            let (lobby, host, players) = rated(&app, "bst", json!({}), &[&keys[0], &keys[1]]).await;
            end(&app, &lobby, &host, json!({"winner": players[0].0})).await;
            app.clock.advance(Duration::from_secs(60));
        }
        let (lobby, host, players) = rated(&app, "bst", json!({}), &[&keys[2], &keys[1]]).await;
        end(&app, &lobby, &host, json!({"winner": players[0].0})).await;

        let board = app.get("/api/v1/ratings/bst/humans", None).await;
        assert_eq!(board.status, StatusCode::OK, "{}", board.text);
        assert_eq!(board.body["pool"], "bst/humans");
        let entries = board.body["entries"].as_array().unwrap();
        let handles: Vec<&str> = entries
            .iter()
            .map(|e| e["handle"].as_str().unwrap())
            .collect();
        assert_eq!(handles, ["Hal", "Jon", "Ida"], "{}", app.backend);
        let ratings: Vec<f64> = entries
            .iter()
            .map(|e| e["rating"].as_f64().unwrap())
            .collect();
        assert!(ratings[0] > ratings[1] && ratings[1] > ratings[2]);
        assert_eq!(entries[0]["rank"], 1);
        assert!(entries[0]["shown"].as_str().unwrap().ends_with('?'));

        let one = app.get("/api/v1/ratings/bst/humans?limit=1", None).await;
        assert_eq!(one.body["entries"].as_array().unwrap().len(), 1);
        let bots = app.get("/api/v1/ratings/bst/bots", None).await;
        assert_eq!(bots.body["entries"], json!([]), "humans and bots apart");
        for limit in ["0", "201", "x"] {
            let reply = app
                .get(&format!("/api/v1/ratings/bst/humans?limit={limit}"), None)
                .await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::UNPROCESSABLE_ENTITY, "bad-limit"),
                "{limit}"
            );
        }
        for (path, code) in [
            ("/api/v1/ratings/chess/humans", "unknown-game"),
            ("/api/v1/ratings/bst/martians", "unknown-kind"),
        ] {
            let reply = app.get(path, None).await;
            assert_eq!((reply.status, reply.code()), (StatusCode::NOT_FOUND, code));
        }
    }
}

/// Every stored rating as JSON, the floats' bits included, in one order.
pub(crate) async fn stored(app: &TestApp, pools: &[&str]) -> Vec<(Value, Vec<u64>)> {
    let mut all = Vec::new();
    for pool in pools {
        let board = app
            .get(&format!("/api/v1/ratings/{pool}?limit=200"), None)
            .await
            .body;
        for entry in board["entries"].as_array().unwrap() {
            let bits = ["rating", "deviation", "volatility"]
                .iter()
                .filter_map(|k| entry[*k].as_f64().map(f64::to_bits))
                .collect();
            all.push((entry.clone(), bits));
        }
    }
    all
}

#[tokio::test]
async fn a_rebuild_reaches_the_stored_values_and_ratings_survive_the_sweep() {
    const DAY: Duration = Duration::from_secs(24 * 3600);
    for app in manual_apps(1_800_000_000_000).await {
        let mut keys = Vec::new();
        for handle in ["Kim", "Lou", "Max", "Ned"] {
            keys.push(profile(&app, handle).await.0);
        }
        for round in 0..3usize {
            let (a, b) = (&keys[round % 4], &keys[(round + 1) % 4]);
            let (lobby, host, players) = rated(&app, "bst", json!({}), &[a, b]).await;
            let body = match round {
                1 => json!({"result": "draw"}),
                _ => json!({"winner": players[round % 2].0}),
            };
            end(&app, &lobby, &host, body).await;
            app.clock.advance(DAY * 3);
            let four: Vec<&str> = keys.iter().map(String::as_str).collect();
            let (lobby, host, _) = rated(&app, "crossing-swords", json!({}), &four).await;
            end(&app, &lobby, &host, json!({})).await;
            app.clock.advance(DAY);
        }
        let pools = ["bst/humans", "crossing-swords/humans"];
        let before = stored(&app, &pools).await;
        let history = app.get("/api/v1/profiles/kim", None).await.body["ratings"].clone();
        assert_eq!(before.len(), 8, "{}", app.backend);
        let rebuilt = app.store.rebuild_ratings().await.unwrap();
        assert_eq!(rebuilt.results, 6);
        assert_eq!(rebuilt.ratings, 8);
        assert_eq!(rebuilt.differing, 0, "{}", app.backend);
        assert_eq!(stored(&app, &pools).await, before);
        assert_eq!(
            app.get("/api/v1/profiles/kim", None).await.body["ratings"],
            history
        );

        // The sweep deletes the finished lobbies; the ratings and their history stay.
        app.clock.advance(DAY * 40);
        let policy = Retention {
            unstarted_days: Some(7),
            finished_days: Some(30),
            every: Duration::from_secs(3600),
        };
        let swept = app
            .store
            .sweep(&policy, app.clock.now_millis())
            .await
            .unwrap();
        assert_eq!(swept.finished, 6, "{}", app.backend);
        assert_eq!(stored(&app, &pools).await, before);
        assert_eq!(
            app.get("/api/v1/profiles/kim", None).await.body["ratings"],
            history
        );
        let rebuilt = app.store.rebuild_ratings().await.unwrap();
        assert_eq!((rebuilt.results, rebuilt.differing), (6, 0));
        assert_eq!(stored(&app, &pools).await, before);
    }
}
