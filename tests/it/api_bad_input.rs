//! Bad input gets the documented error and status, never a 500, and changes nothing.

use axum::body::Body;
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Reply, TestApp, apps};

async fn running_game(app: &TestApp) -> (String, String, Vec<(String, String)>) {
    let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
    let mut players = Vec::new();
    for name in ["Ann", "Bob", "Cat"] {
        players.push(app.join(&lobby, json!({"name": name})).await);
    }
    app.start(&lobby, &host).await;
    (lobby, host, players)
}

fn expect(reply: &Reply, status: StatusCode, code: &str, what: &str) {
    assert_eq!(reply.status, status, "{what}: {}", reply.text);
    assert_eq!(reply.code(), code, "{what}: {}", reply.text);
    let message = reply.body["error"]["message"].as_str().unwrap_or("");
    assert!(
        message.len() > 10,
        "{what}: a sentence for a person, got {message:?}"
    );
}

/// Everything a client can get wrong about an order, and the state afterwards is untouched.
#[tokio::test]
async fn bad_orders_are_refused_with_the_documented_errors_and_nothing_is_stored() {
    for app in apps().await {
        let (lobby, host, players) = running_game(&app).await;
        let (ann, ann_token) = (&players[0].0, players[0].1.as_str());
        let bob = &players[1].0;
        let orders = format!("/api/v1/lobbies/{lobby}/orders");
        let before = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;

        let raw = |body: &'static str| {
            let app = &app;
            let orders = orders.clone();
            async move {
                app.send(
                    Method::POST,
                    &orders,
                    Some(ann_token),
                    Some(Body::from(body)),
                )
                .await
            }
        };
        expect(
            &raw("{\"round\": 1,").await,
            StatusCode::BAD_REQUEST,
            "malformed-json",
            "malformed JSON",
        );
        expect(
            &raw("[1, 2]").await,
            StatusCode::BAD_REQUEST,
            "invalid-body",
            "not an object",
        );
        let cases: Vec<(Value, StatusCode, &str, &str)> = vec![
            (
                json!({"round": "one", "step": "orders", "move": "strike", "target": bob}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
                "round of the wrong type",
            ),
            (
                json!({"round": 1, "step": "orders", "move": 7, "target": bob}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
                "move of the wrong type",
            ),
            (
                json!({"round": 1, "step": "orders", "move": "strike"}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
                "missing target",
            ),
            (
                json!({"round": 1, "step": "orders", "move": "strike", "target": bob, "extra": 1}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
                "unknown field",
            ),
            (
                json!({"round": 1, "step": "orders", "move": "fireball", "target": bob}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown-move",
                "unknown move",
            ),
            (
                json!({"round": 1, "step": "orders", "move": "strike", "target": ann}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "self-target",
                "self-target Strike (Ruling 3)",
            ),
            (
                json!({"round": 1, "step": "orders", "move": "halt", "target": ann}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "self-target",
                "self-target Halt (Ruling 3)",
            ),
            (
                json!({"round": 1, "step": "orders", "move": "strike", "target": "00000000-0000-0000-0000-000000000000"}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown-target",
                "unknown target",
            ),
            (
                json!({"round": 1, "step": "orders", "move": "strike", "target": "nobody"}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown-target",
                "target that is no id",
            ),
            (
                json!({"round": 2, "step": "orders", "move": "strike", "target": bob}),
                StatusCode::CONFLICT,
                "wrong-round",
                "wrong round",
            ),
            (
                json!({"round": 1, "step": "play", "move": "strike", "target": bob}),
                StatusCode::CONFLICT,
                "wrong-step",
                "wrong step",
            ),
        ];
        for (body, status, code, what) in cases {
            let reply = app.post(&orders, Some(ann_token), body).await;
            expect(&reply, status, code, &format!("{} {what}", app.backend));
        }

        let body = json!({"round": 1, "step": "orders", "move": "strike", "target": bob});
        expect(
            &app.post(&orders, None, body.clone()).await,
            StatusCode::UNAUTHORIZED,
            "missing-token",
            "no token",
        );
        expect(
            &app.post(&orders, Some("not-a-token"), body.clone()).await,
            StatusCode::UNAUTHORIZED,
            "unknown-token",
            "unknown token",
        );
        expect(
            &app.post(&orders, Some(&host), body.clone()).await,
            StatusCode::FORBIDDEN,
            "players-only",
            "host token on orders",
        );
        let start = format!("/api/v1/lobbies/{lobby}/start");
        expect(
            &app.post(&start, Some(ann_token), json!({})).await,
            StatusCode::FORBIDDEN,
            "host-only",
            "player token on start",
        );
        let unknown = "/api/v1/lobbies/6f1c1c9e-0000-4000-8000-000000000000/orders";
        expect(
            &app.post(unknown, Some(ann_token), body.clone()).await,
            StatusCode::NOT_FOUND,
            "unknown-lobby",
            "unknown lobby",
        );
        expect(
            &app.get("/api/v1/lobbies/not-a-uuid", None).await,
            StatusCode::NOT_FOUND,
            "unknown-lobby",
            "lobby id that is no UUID",
        );
        expect(
            &app.get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
                .await,
            StatusCode::NOT_FOUND,
            "round-not-resolved",
            "unresolved round",
        );

        let huge = format!(
            "{{\"round\": 1, \"step\": \"orders\", \"move\": \"{}\", \"target\": \"x\"}}",
            "a".repeat(100_000)
        );
        let reply = app
            .send(
                Method::POST,
                &orders,
                Some(ann_token),
                Some(Body::from(huge)),
            )
            .await;
        expect(
            &reply,
            StatusCode::PAYLOAD_TOO_LARGE,
            "body-too-large",
            "oversized body",
        );

        // Nothing was stored: nobody has submitted, the state is as before.
        let after = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(
            before, after,
            "{}: a refused request changes nothing",
            app.backend
        );
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(ann_token))
            .await;
        assert_eq!(me.body["pending"], Value::Null);
    }
}

/// Lobby creation and joining refuse bad settings and names with clear errors.
#[tokio::test]
async fn bad_lobbies_and_names_are_refused() {
    for app in apps().await {
        let create = |body: Value| {
            let app = &app;
            async move { app.post("/api/v1/lobbies", None, body).await }
        };
        expect(
            &create(json!({"game": "chess", "name": "x"})).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown-game",
            "unknown game",
        );
        expect(
            &create(json!({"name": "x"})).await,
            StatusCode::BAD_REQUEST,
            "invalid-body",
            "missing game",
        );
        expect(
            &create(
                json!({"game": "crossing-swords", "name": "x", "settings": {"max_players": 17}}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-max-players",
            "17 players",
        );
        expect(
            &create(
                json!({"game": "crossing-swords", "name": "x", "settings": {"max_players": 1}}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-max-players",
            "1 player",
        );
        expect(&create(json!({"game": "crossing-swords", "name": "x", "settings": {"max_players": "lots"}})).await, StatusCode::BAD_REQUEST, "invalid-body", "max_players of the wrong type");
        expect(
            &create(json!({"game": "crossing-swords", "name": "x", "settings": {"colour": "red"}}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown-setting",
            "unknown setting",
        );
        expect(
            &create(json!({"game": "crossing-swords", "name": "   "})).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-name",
            "blank lobby name",
        );

        let (lobby, _) = app.create_lobby("crossing-swords", json!({})).await;
        let join = format!("/api/v1/lobbies/{lobby}/players");
        expect(
            &app.post(&join, None, json!({"name": "x".repeat(41)})).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-name",
            "overlong name",
        );
        expect(
            &app.post(&join, None, json!({"name": "a\u{7}b"})).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-name",
            "control character",
        );
        expect(
            &app.post(&join, None, json!({"nom": "Ann"})).await,
            StatusCode::BAD_REQUEST,
            "invalid-body",
            "missing name",
        );
        expect(
            &app.post(&join, None, json!({"name": "Ann", "character": "sentinel"}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "no-characters",
            "a BST character in Crossing Swords",
        );
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(
            view["players"].as_array().unwrap().len(),
            0,
            "no refused join was stored"
        );
        expect(
            &app.get("/api/v1/nowhere", None).await,
            StatusCode::NOT_FOUND,
            "not-found",
            "unknown route",
        );
    }
}

/// A key given twice in one object is refused wherever it stands (the body's top, settings
/// deep down, a fork), never read as its last value: a client's tooling and Herald could
/// otherwise read two different requests from one body.
#[tokio::test]
async fn a_key_given_twice_in_one_object_is_refused_and_nothing_is_stored() {
    for app in apps().await {
        let raw = |path: String, token: Option<String>, body: &'static str| {
            let app = &app;
            async move {
                app.send(
                    Method::POST,
                    &path,
                    token.as_deref(),
                    Some(Body::from(body)),
                )
                .await
            }
        };
        let lobbies = || "/api/v1/lobbies".to_string();
        for (body, what) in [
            (
                r#"{"game": "crossing-swords", "name": "Twice", "name": "Other"}"#,
                "the name twice",
            ),
            (
                r#"{"game": "crossing-swords", "name": "Twice", "settings": {"max_players": 2, "max_players": 16}}"#,
                "a setting twice",
            ),
            (
                r#"{"game": "crossing-swords", "name": "Twice", "settings": {"setup": {"players": [{"hp": 20, "hp": 1}, {}]}}}"#,
                "a setup entry's field twice",
            ),
            (
                r#"{"game": "crossing-swords", "name": "Twice", "fork": {"archive": {}, "round": 1, "round": 2}}"#,
                "a fork's round twice",
            ),
        ] {
            let reply = raw(lobbies(), None, body).await;
            expect(&reply, StatusCode::BAD_REQUEST, "duplicate-key", what);
        }
        let listed = app.get("/api/v1/lobbies", None).await.body;
        assert!(!listed.to_string().contains("Twice"), "{listed}");

        let (lobby, _) = app.create_lobby("crossing-swords", json!({})).await;
        let join = format!("/api/v1/lobbies/{lobby}/players");
        let reply = raw(join, None, r#"{"name": "Ann", "name": "Bob"}"#).await;
        expect(
            &reply,
            StatusCode::BAD_REQUEST,
            "duplicate-key",
            "a join's name twice",
        );
        let message = reply.body["error"]["message"].as_str().unwrap_or("");
        assert!(message.contains("\"name\""), "names the key: {message}");
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["players"].as_array().map(Vec::len), Some(0), "{view}");
    }
}
