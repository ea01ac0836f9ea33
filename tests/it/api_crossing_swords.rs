//! A whole game of Crossing Swords over HTTP, lobby to final standings, on every backend.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::support::{TestApp, apps};

struct Seated {
    id: String,
    token: String,
}

async fn seat_three(app: &TestApp) -> (String, String, Vec<Seated>) {
    let (lobby, host) = app
        .create_lobby("crossing-swords", json!({"max_players": 3}))
        .await;
    let mut players = Vec::new();
    for name in ["Ann", "Bob", "Cat"] {
        let (id, token) = app.join(&lobby, json!({"name": name})).await;
        players.push(Seated { id, token });
    }
    (lobby, host, players)
}

async fn order(
    app: &TestApp,
    lobby: &str,
    who: &Seated,
    round: u64,
    mv: &str,
    target: &Seated,
) -> Value {
    let reply = app
        .post(
            &format!("/api/v1/lobbies/{lobby}/orders"),
            Some(&who.token),
            json!({"round": round, "step": "orders", "move": mv, "target": target.id}),
        )
        .await;
    assert_eq!(
        reply.status,
        StatusCode::ACCEPTED,
        "{}: order {mv}: {}",
        app.backend,
        reply.text
    );
    reply.body
}

fn pools(view: &Value) -> Vec<(i64, i64, bool)> {
    view["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["hp"].as_i64().unwrap(),
                p["vp"].as_i64().unwrap(),
                p["alive"].as_bool().unwrap(),
            )
        })
        .collect()
}

/// Ann and Bob strike Cat while Cat strikes Ann; Cat falls in round 4 (an overkill split 1/1),
/// then Ann and Bob trade Strikes until Ann falls in round 7 and Bob, the sole survivor,
/// converts his HP (G5, G6, R8, R13, Ruling 29).
#[tokio::test]
async fn a_three_player_game_runs_from_lobby_to_final_standings() {
    for app in apps().await {
        let (lobby, host, p) = seat_three(&app).await;
        let (ann, bob, cat) = (&p[0], &p[1], &p[2]);
        let started = app.start(&lobby, &host).await;
        assert_eq!(started.body["status"], "running");
        assert_eq!(started.body["round"], 1);
        assert_eq!(pools(&started.body), vec![(20, 0, true); 3]);

        for round in 1..=4 {
            order(&app, &lobby, ann, round, "strike", cat).await;
            order(&app, &lobby, bob, round, "strike", cat).await;
            let last = order(&app, &lobby, cat, round, "strike", ann).await;
            assert_eq!(last["resolved"], true, "the last order resolves the round");
        }
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(
            pools(&view),
            vec![(8, 10, true), (20, 10, true), (0, 12, false)],
            "{}",
            app.backend
        );

        // A dead player owes nothing and gets no prompt.
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&cat.token))
            .await;
        assert_eq!(me.status, StatusCode::OK);
        assert_eq!(me.body["prompt"], Value::Null);

        for round in 5..=7 {
            order(&app, &lobby, ann, round, "strike", bob).await;
            order(&app, &lobby, bob, round, "strike", ann).await;
        }
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["status"], "finished", "{}", app.backend);
        assert_eq!(
            pools(&view),
            vec![(0, 19, false), (0, 29, true), (0, 12, false)],
            "the survivor converts and stays standing"
        );
        assert_eq!(view["result"]["winners"], json!([bob.id]));
        let standings: Vec<&str> = view["result"]["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["player"].as_str().unwrap())
            .collect();
        assert_eq!(
            standings,
            vec![bob.id.as_str(), ann.id.as_str(), cat.id.as_str()]
        );
        assert!(
            view["seed"].is_string(),
            "the seed is published once the game is over"
        );

        let rounds = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds"), None)
            .await;
        assert_eq!(rounds.body.as_array().unwrap().len(), 7);
        let round4 = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/4"), None)
            .await;
        assert_eq!(round4.status, StatusCode::OK);
        assert_eq!(round4.body["orders"].as_array().unwrap().len(), 3);
        let texts: Vec<&str> = round4.body["log"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["text"].as_str().unwrap())
            .collect();
        assert!(
            texts.iter().any(|t| t.contains("Cat")),
            "round 4's log names Cat: {texts:?}"
        );
        assert_eq!(
            pools(&round4.body["pools"]),
            vec![(8, 10, true), (20, 10, true), (0, 12, false)]
        );

        // Nothing more can be ordered once the game is over.
        let late = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/orders"),
                Some(&bob.token),
                json!({"round": 8, "step": "orders", "move": "strike", "target": ann.id}),
            )
            .await;
        assert_eq!(late.status, StatusCode::CONFLICT);
    }
}

/// An order may be replaced until the step resolves; only the last one counts.
#[tokio::test]
async fn an_order_can_be_replaced_until_the_round_resolves() {
    for app in apps().await {
        let (lobby, host, p) = seat_three(&app).await;
        app.start(&lobby, &host).await;
        let first = order(&app, &lobby, &p[0], 1, "strike", &p[1]).await;
        assert_eq!(first["replaced"], false);
        let second = order(&app, &lobby, &p[0], 1, "strike", &p[2]).await;
        assert_eq!(second["replaced"], true);
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&p[0].token))
            .await;
        assert_eq!(me.body["pending"]["target"], p[2].id.as_str());
        order(&app, &lobby, &p[1], 1, "focus", &p[0]).await;
        order(&app, &lobby, &p[2], 1, "mend", &p[2]).await;
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        // Cat mends herself (+3) and takes Ann's replacement Strike (3); Bob is untouched.
        assert_eq!(
            pools(&view),
            vec![(20, 3, true), (20, 0, true), (20, 1, true)],
            "{}",
            app.backend
        );
    }
}

/// Joining is refused once sign-ups close, when the lobby is full and after the start
/// (G1: "no latecomers"); a duplicate name is refused.
#[tokio::test]
async fn no_latecomers_and_no_duplicate_names() {
    for app in apps().await {
        let (lobby, host) = app
            .create_lobby("crossing-swords", json!({"max_players": 2}))
            .await;
        let join = |name: &'static str| {
            let path = format!("/api/v1/lobbies/{lobby}/players");
            let app = &app;
            async move { app.post(&path, None, json!({"name": name})).await }
        };
        assert_eq!(join("Ann").await.status, StatusCode::CREATED);
        let duplicate = join("ann").await;
        assert_eq!(
            (duplicate.status, duplicate.code()),
            (StatusCode::CONFLICT, "name-taken")
        );
        assert_eq!(join("Bob").await.status, StatusCode::CREATED);
        let full = join("Cat").await;
        assert_eq!(
            (full.status, full.code()),
            (StatusCode::CONFLICT, "lobby-full")
        );

        let (lobby2, host2) = app.create_lobby("crossing-swords", json!({})).await;
        app.join(&lobby2, json!({"name": "Ann"})).await;
        let close = app
            .post(
                &format!("/api/v1/lobbies/{lobby2}/close-signups"),
                Some(&host2),
                json!({}),
            )
            .await;
        assert_eq!(close.status, StatusCode::OK);
        assert_eq!(close.body["status"], "closed");
        let late = app
            .post(
                &format!("/api/v1/lobbies/{lobby2}/players"),
                None,
                json!({"name": "Bob"}),
            )
            .await;
        assert_eq!(
            (late.status, late.code()),
            (StatusCode::CONFLICT, "signups-closed")
        );
        let one = app
            .post(
                &format!("/api/v1/lobbies/{lobby2}/start"),
                Some(&host2),
                json!({}),
            )
            .await;
        assert_eq!(
            (one.status, one.code()),
            (StatusCode::CONFLICT, "wrong-player-count")
        );

        app.start(&lobby, &host).await;
        let after = join("Dan").await;
        assert_eq!(
            (after.status, after.code()),
            (StatusCode::CONFLICT, "signups-closed")
        );
        let again = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/start"),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(again.status, StatusCode::CONFLICT);
    }
}

/// The public list shows the newest lobby first.
#[tokio::test]
async fn the_lobby_list_is_newest_first() {
    for app in apps().await {
        let (first, _) = app.create_lobby("crossing-swords", json!({})).await;
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        let (second, _) = app.create_lobby("crossing-swords", json!({})).await;
        let list = app.get("/api/v1/lobbies", None).await.body;
        let ids: Vec<&str> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, vec![second.as_str(), first.as_str()]);
    }
}

/// A lobby can start from a position (api.md `settings.setup`): the rulings' Case 6, a Focused
/// Lunge met by a Strike, played over HTTP (Rulings 13-14). Impossible setups are refused.
#[tokio::test]
async fn a_game_starts_from_a_setup_and_plays_case_6_of_the_rulings() {
    for app in apps().await {
        let setup =
            json!({"round": 4, "players": [{"hp": 20, "vp": 0, "focus": 1}, {"hp": 20, "vp": 0}]});
        let (lobby, host) = app
            .create_lobby("crossing-swords", json!({"max_players": 2, "setup": setup}))
            .await;
        let (a, a_token) = app.join(&lobby, json!({"name": "A"})).await;
        let (b, b_token) = app.join(&lobby, json!({"name": "B"})).await;
        let started = app.start(&lobby, &host).await;
        assert_eq!(started.body["round"], 4);
        assert_eq!(
            started.body["players"][0]["focus"],
            b.as_str(),
            "the carried-over Focus is public"
        );
        let orders = format!("/api/v1/lobbies/{lobby}/orders");
        let reply = app
            .post(
                &orders,
                Some(&a_token),
                json!({"round": 4, "step": "orders", "move": "lunge", "target": b}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED);
        app.post(
            &orders,
            Some(&b_token),
            json!({"round": 4, "step": "orders", "move": "strike", "target": a}),
        )
        .await;
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(
            pools(&view),
            vec![(8, 11, true), (9, 12, true)],
            "{}: Case 6",
            app.backend
        );
        let log = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/4"), None)
            .await
            .body["log"]
            .clone();
        assert!(
            log.as_array()
                .unwrap()
                .iter()
                .any(|e| e["kind"] == "lunge-bonus"),
            "the +6 MORE is logged"
        );

        let bad = app
            .post("/api/v1/lobbies", None, json!({"game": "crossing-swords", "name": "x", "settings": {"setup": {"players": [{"hp": -3}]}}}))
            .await;
        assert_eq!(
            (bad.status, bad.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid-setup"),
            "{}",
            bad.text
        );
        let (lobby, host) = app
            .create_lobby(
                "crossing-swords",
                json!({"setup": {"players": [{"hp": 5}, {"hp": 5}, {"hp": 5}]}}),
            )
            .await;
        app.join(&lobby, json!({"name": "A"})).await;
        app.join(&lobby, json!({"name": "B"})).await;
        let mismatch = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/start"),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(
            (mismatch.status, mismatch.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "setup-mismatch")
        );
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["status"], "signups", "a refused start changes nothing");
    }
}
