//! Kicking a player and ending the game now, over HTTP on every backend, for both games: the
//! view, the result, the round's log, the events, and the refusals that change nothing.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::api_host_controls::{event_kinds, last_event, seated};
use crate::support::TestApp;
use crate::support::apps;

async fn order(app: &TestApp, lobby: &str, token: &str, round: u64, mv: &str, target: &str) {
    let reply = app
        .post(
            &format!("/api/v1/lobbies/{lobby}/orders"),
            Some(token),
            json!({"round": round, "step": "orders", "move": mv, "target": target}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
}

fn player<'a>(view: &'a Value, id: &str) -> &'a Value {
    view["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap()
}

fn log_kinds(round: &Value) -> Vec<String> {
    round["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_kicked_player_is_out_keeps_his_vp_and_the_round_goes_on_without_his_order() {
    for app in apps().await {
        let (lobby, host, p) = seated(&app, &["Ann", "Bob", "Cat", "Dan"]).await;
        app.start(&lobby, &host).await;
        // Ann strikes Dan; Dan strikes Ann; then the host kicks Dan.
        order(&app, &lobby, &p[0].1, 1, "strike", &p[3].0).await;
        order(&app, &lobby, &p[3].1, 1, "strike", &p[0].0).await;
        let kick = format!("/api/v1/lobbies/{lobby}/players/{}/kick", p[3].0);
        let reply = app.post(&kick, Some(&host), json!({})).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{}: {}",
            app.backend,
            reply.text
        );
        let dan = player(&reply.body, &p[3].0);
        assert_eq!(
            (
                dan["alive"].as_bool(),
                dan["hp"].as_u64(),
                dan["owes"].as_bool()
            ),
            (Some(false), Some(0), Some(false))
        );
        assert_eq!(reply.body["status"], "running");
        assert_eq!(reply.body["round"], 1, "Bob and Cat still owe their orders");
        assert_eq!(
            last_event(&app, &lobby, "player-kicked").await["player"]["id"],
            p[3].0.as_str()
        );
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&p[3].1))
            .await;
        assert_eq!(
            me.body["prompt"],
            Value::Null,
            "a kicked player owes nothing"
        );
        assert!(me.body["pending"].is_null(), "his pending order is gone");
        let again = app.post(&kick, Some(&host), json!({})).await;
        assert_eq!(
            (again.status, again.code()),
            (StatusCode::CONFLICT, "not-in-play")
        );

        order(&app, &lobby, &p[1].1, 1, "block", &p[0].0).await;
        order(&app, &lobby, &p[2].1, 1, "block", &p[0].0).await;
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await
            .body;
        let kinds = log_kinds(&round);
        assert_eq!(
            kinds[0], "kicked",
            "the kick leads the round's log: {kinds:?}"
        );
        assert!(round["log"][0]["text"].as_str().unwrap().contains("Dan"));
        assert!(
            kinds.contains(&"passed".to_owned()),
            "Ann's strike on Dan passes: {kinds:?}"
        );
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(
            player(&view, &p[0].0)["hp"],
            20,
            "Dan's dropped order hit nobody"
        );
        assert_eq!(view["round"], 2);
    }
}

#[tokio::test]
async fn kicking_the_last_player_owed_an_order_resolves_the_step_at_once() {
    for app in apps().await {
        let (lobby, host, p) = seated(&app, &["Ann", "Bob", "Cat"]).await;
        app.start(&lobby, &host).await;
        order(&app, &lobby, &p[0].1, 1, "strike", &p[1].0).await;
        order(&app, &lobby, &p[1].1, 1, "strike", &p[0].0).await;
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/players/{}/kick", p[2].0),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{}: {}",
            app.backend,
            reply.text
        );
        assert_eq!(
            reply.body["round"], 2,
            "the round resolved with the orders that were in"
        );
        assert_eq!(player(&reply.body, &p[0].0)["hp"], 17);
        let kinds = event_kinds(&app, &lobby).await;
        let tail: Vec<&str> = kinds
            .iter()
            .rev()
            .take(3)
            .rev()
            .map(String::as_str)
            .collect();
        assert_eq!(tail, ["player-kicked", "step-resolved", "round-resolved"]);
        assert_eq!(
            kinds.iter().filter(|k| *k == "step-resolved").count(),
            1,
            "once"
        );
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await
            .body;
        assert_eq!(round["orders"].as_array().unwrap().len(), 2);
        assert_eq!(log_kinds(&round)[0], "kicked");
    }
}

#[tokio::test]
async fn a_kick_that_leaves_one_standing_ends_the_game_and_publishes_the_seed() {
    for app in apps().await {
        let (lobby, host, p) = seated(&app, &["Ann", "Bob"]).await;
        app.start(&lobby, &host).await;
        order(&app, &lobby, &p[1].1, 1, "strike", &p[0].0).await;
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/players/{}/kick", p[0].0),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{}: {}",
            app.backend,
            reply.text
        );
        let view = &reply.body;
        assert_eq!(view["status"], "finished");
        assert_eq!(view["result"]["reason"], "last-standing");
        assert_eq!(view["result"]["winners"], json!([p[1].0]));
        assert_eq!(
            player(view, &p[1].0)["vp"],
            20,
            "the survivor converts his HP (G6)"
        );
        assert!(view["seed"].is_string(), "the seed is published");
        let kinds = event_kinds(&app, &lobby).await;
        assert!(
            kinds.ends_with(&[
                "player-kicked".into(),
                "round-resolved".into(),
                "finished".into()
            ]),
            "{kinds:?}"
        );
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await
            .body;
        assert_eq!(log_kinds(&round), ["kicked", "converted", "game-over"]);
        assert_eq!(
            round["orders"],
            json!([]),
            "the void step's orders stay secret"
        );
        let late = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/players/{}/kick", p[1].0),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(
            (late.status, late.code()),
            (StatusCode::CONFLICT, "game-over")
        );
    }
}

#[tokio::test]
async fn a_kick_is_refused_before_the_start_for_a_player_and_for_a_stranger() {
    for app in apps().await {
        let (lobby, host, p) = seated(&app, &["Ann", "Bob", "Cat"]).await;
        let kick = format!("/api/v1/lobbies/{lobby}/players/{}/kick", p[1].0);
        let early = app.post(&kick, Some(&host), json!({})).await;
        assert_eq!(
            (early.status, early.code()),
            (StatusCode::CONFLICT, "not-started")
        );
        app.start(&lobby, &host).await;
        let refused = app.post(&kick, Some(&p[0].1), json!({})).await;
        assert_eq!(
            (refused.status, refused.code()),
            (StatusCode::FORBIDDEN, "host-only")
        );
        let stranger = format!(
            "/api/v1/lobbies/{lobby}/players/{}/kick",
            uuid::Uuid::new_v4()
        );
        let refused = app.post(&stranger, Some(&host), json!({})).await;
        assert_eq!(
            (refused.status, refused.code()),
            (StatusCode::NOT_FOUND, "unknown-player")
        );
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert!(
            view["players"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["alive"] == true)
        );
        assert!(
            !event_kinds(&app, &lobby)
                .await
                .contains(&"player-kicked".to_owned())
        );
    }
}

#[tokio::test]
async fn the_host_ends_a_melee_by_vp_without_conversion_ruling_31() {
    for app in apps().await {
        let (lobby, host, p) = seated(&app, &["Ann", "Bob", "Cat"]).await;
        let end = format!("/api/v1/lobbies/{lobby}/end");
        let early = app.post(&end, Some(&host), json!({})).await;
        assert_eq!(
            (early.status, early.code()),
            (StatusCode::CONFLICT, "not-started")
        );
        app.start(&lobby, &host).await;
        order(&app, &lobby, &p[0].1, 1, "lunge", &p[2].0).await;
        order(&app, &lobby, &p[1].1, 1, "block", &p[1].0).await;
        order(&app, &lobby, &p[2].1, 1, "block", &p[2].0).await;
        order(&app, &lobby, &p[0].1, 2, "strike", &p[1].0).await;

        let refused = app.post(&end, Some(&p[0].1), json!({})).await;
        assert_eq!(
            (refused.status, refused.code()),
            (StatusCode::FORBIDDEN, "host-only")
        );
        // The ending's shape is every game's (the document has one schema for the route);
        // Crossing Swords reads a winner and refuses it: the standings decide.
        let refused = app.post(&end, Some(&host), json!({"winner": p[1].0})).await;
        assert_eq!(
            (refused.status, refused.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid-ending")
        );
        let refused = app.post(&end, Some(&host), json!({"loser": p[1].0})).await;
        assert_eq!(
            (refused.status, refused.code()),
            (StatusCode::BAD_REQUEST, "invalid-body")
        );
        assert_eq!(
            app.get(&format!("/api/v1/lobbies/{lobby}"), None)
                .await
                .body["status"],
            "running"
        );

        let reply = app
            .send(axum::http::Method::POST, &end, Some(&host), None)
            .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{}: {}",
            app.backend,
            reply.text
        );
        let view = &reply.body;
        assert_eq!(view["status"], "finished");
        assert_eq!(view["result"]["reason"], "ended-by-host");
        assert_eq!(
            view["result"]["winners"],
            json!([p[0].0]),
            "Ann has the most VP"
        );
        assert_eq!(player(view, &p[1].0)["hp"], 20, "no conversion");
        assert!(view["seed"].is_string());
        let kinds = event_kinds(&app, &lobby).await;
        assert!(
            kinds.ends_with(&[
                "ended-by-host".into(),
                "round-resolved".into(),
                "finished".into()
            ]),
            "{kinds:?}"
        );
        assert_eq!(
            last_event(&app, &lobby, "ended-by-host").await["result"],
            view["result"]
        );
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/2"), None)
            .await
            .body;
        assert_eq!(log_kinds(&round), ["game-over"]);
        let again = app.post(&end, Some(&host), json!({})).await;
        assert_eq!(
            (again.status, again.code()),
            (StatusCode::CONFLICT, "game-over")
        );
    }
}

async fn duel(app: &TestApp) -> (String, String, Vec<(String, String)>) {
    let (lobby, host) = app.create_lobby("bst", json!({"seed": 5})).await;
    let mut players = Vec::new();
    for name in ["Ann", "Bob"] {
        players.push(app.join(&lobby, json!({"name": name})).await);
    }
    app.start(&lobby, &host).await;
    (lobby, host, players)
}

#[tokio::test]
async fn a_bst_kick_is_a_forfeit_and_the_opponent_wins() {
    for app in apps().await {
        let (lobby, host, p) = duel(&app).await;
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/players/{}/kick", p[1].0),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{}: {}",
            app.backend,
            reply.text
        );
        assert_eq!(reply.body["status"], "finished");
        assert_eq!(reply.body["result"]["reason"], "forfeit");
        assert_eq!(reply.body["result"]["winners"], json!([p[0].0]));
        assert_eq!(player(&reply.body, &p[1].0)["alive"], false);
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await
            .body;
        let kinds = log_kinds(&round);
        assert!(
            kinds.ends_with(&["forfeited".into(), "game-over".into()]),
            "{kinds:?}"
        );
    }
}

#[tokio::test]
async fn the_host_ends_a_duel_as_a_draw_or_with_a_winner_and_bad_endings_change_nothing() {
    for app in apps().await {
        let (lobby, host, p) = duel(&app).await;
        let end = format!("/api/v1/lobbies/{lobby}/end");
        let cases = [
            (
                json!({}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-ending",
            ),
            (
                json!({"result": "win"}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-ending",
            ),
            (
                json!({"result": "draw", "winner": p[0].0}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-ending",
            ),
            (
                json!({"winner": uuid::Uuid::new_v4()}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown-winner",
            ),
            (
                json!({"winner": 3}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
            (
                json!({"loser": p[0].0}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
        ];
        for (body, status, code) in cases {
            let reply = app.post(&end, Some(&host), body.clone()).await;
            assert_eq!(
                (reply.status, reply.code()),
                (status, code),
                "{}: {body}",
                app.backend
            );
        }
        assert_eq!(
            app.get(&format!("/api/v1/lobbies/{lobby}"), None)
                .await
                .body["status"],
            "running"
        );
        let reply = app.post(&end, Some(&host), json!({"winner": p[1].0})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.body["result"]["winners"], json!([p[1].0]));
        assert_eq!(reply.body["result"]["reason"], "ended-by-host");

        let (lobby, host, _) = duel(&app).await;
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/end"),
                Some(&host),
                json!({"result": "draw"}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.body["result"]["winners"], json!([]));
        assert!(reply.body["seed"].is_string());
    }
}

/// A kick racing the last order of the others: whichever the lobby's transaction takes first,
/// the round resolves exactly once, with the three orders acknowledged, and both requests
/// succeed.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_kick_racing_the_last_order_resolves_the_round_exactly_once() {
    for app in apps().await {
        let app = std::sync::Arc::new(app);
        for _ in 0..20 {
            let (lobby, host, p) = seated(&app, &["Ann", "Bob", "Cat", "Dan"]).await;
            app.start(&lobby, &host).await;
            order(&app, &lobby, &p[0].1, 1, "block", &p[1].0).await;
            order(&app, &lobby, &p[1].1, 1, "dodge", &p[2].0).await;
            let last = {
                let (app, lobby, token, target) =
                    (app.clone(), lobby.clone(), p[2].1.clone(), p[0].0.clone());
                tokio::spawn(async move {
                    let body =
                        json!({"round": 1, "step": "orders", "move": "strike", "target": target});
                    app.post(
                        &format!("/api/v1/lobbies/{lobby}/orders"),
                        Some(&token),
                        body,
                    )
                    .await
                })
            };
            let kick = {
                let (app, lobby, host, dan) =
                    (app.clone(), lobby.clone(), host.clone(), p[3].0.clone());
                tokio::spawn(async move {
                    app.post(
                        &format!("/api/v1/lobbies/{lobby}/players/{dan}/kick"),
                        Some(&host),
                        json!({}),
                    )
                    .await
                })
            };
            let (last, kick) = (last.await.unwrap(), kick.await.unwrap());
            assert_eq!(
                last.status,
                StatusCode::ACCEPTED,
                "{}: {}",
                app.backend,
                last.text
            );
            assert_eq!(
                kick.status,
                StatusCode::OK,
                "{}: {}",
                app.backend,
                kick.text
            );
            let kinds = event_kinds(&app, &lobby).await;
            assert_eq!(
                kinds.iter().filter(|k| *k == "step-resolved").count(),
                1,
                "{kinds:?}"
            );
            let round = app
                .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
                .await
                .body;
            let moves: Vec<&str> = round["orders"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["order"]["move"].as_str().unwrap())
                .collect();
            assert_eq!(moves, ["block", "dodge", "strike"], "{}", app.backend);
            let view = app
                .get(&format!("/api/v1/lobbies/{lobby}"), None)
                .await
                .body;
            assert_eq!(view["round"], 2);
        }
    }
}
