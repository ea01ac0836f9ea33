//! Anonymous games (docs/table-talk.md, "Anonymous games"): seats are named "Player 1",
//! "Player 2", ... in seat order until the game is over, a profile neither lists the game nor
//! shows its handle on the seat, and the real names appear at the end, in a record that still
//! verifies.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{TestApp, apps};

fn names(view: &Value) -> Vec<String> {
    view["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

/// A profile with `handle`; its key.
async fn profile(app: &TestApp, handle: &str) -> String {
    let reply = app
        .post("/api/v1/profiles", None, json!({"handle": handle}))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.body["key"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn an_anonymous_game_names_pseudonyms_until_it_is_over() {
    for app in apps().await {
        let (lobby, host) = app
            .create_lobby("crossing-swords", json!({"anonymous": true}))
            .await;
        let base = format!("/api/v1/lobbies/{lobby}");
        let key = profile(&app, "Zanzibar-Q").await;
        let reply = app
            .post(&format!("{base}/players"), Some(&key), json!({}))
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        let bound = reply.body["player_id"].as_str().unwrap().to_owned();
        let leaver = app.join(&lobby, json!({"name": "Wendel-Q"})).await;
        let ysolde = app.join(&lobby, json!({"name": "Ysolde-Q"})).await;
        // Real names stay unique, whatever the seats are called.
        let twin = app
            .post(
                &format!("{base}/players"),
                None,
                json!({"name": "ysolde-q"}),
            )
            .await;
        assert_eq!(
            (twin.status, twin.code()),
            (StatusCode::CONFLICT, "name-taken")
        );
        // A withdrawn sign-up: the seats after it move down, with their seat's pseudonym.
        let left = app
            .send(Method::DELETE, &format!("{base}/me"), Some(&leaver.1), None)
            .await;
        assert!(left.status.is_success(), "{}", left.text);
        let xavier = app.join(&lobby, json!({"name": "Xavier-Q"})).await;
        let view = app.get(&base, None).await;
        assert_eq!(view.body["settings"]["anonymous"], true, "{}", view.text);
        assert_eq!(names(&view.body), ["Player 1", "Player 2", "Player 3"]);
        app.start(&lobby, &host).await;
        let players = [bound.clone(), ysolde.0.clone(), xavier.0.clone()];
        // Nobody reads a real name or the handle while it runs: not the views, not the
        // profile, not the host.
        let me = app.get(&format!("{base}/me"), Some(&ysolde.1)).await;
        for (what, text) in [
            ("the view", app.get(&base, None).await.text),
            ("the host's view", app.get(&base, Some(&host)).await.text),
            ("a player's me", me.text),
            (
                "the archive",
                app.get(&format!("{base}/archive"), None).await.text,
            ),
            (
                "the profile",
                app.get("/api/v1/profiles/Zanzibar-Q", None).await.text,
            ),
        ] {
            // The profile is the handle's own: it names no other player, nor the game.
            if what == "the profile" {
                assert!(
                    !text.contains(&lobby),
                    "{}: {what} lists the game",
                    app.backend
                );
                continue;
            }
            for real in ["Zanzibar-Q", "Ysolde-Q", "Xavier-Q", "Wendel-Q"] {
                assert!(!text.contains(real), "{}: {what} shows {real}", app.backend);
            }
        }
        let public = app.get("/api/v1/profiles/Zanzibar-Q", None).await.body;
        assert_eq!(public["games"], json!([]), "{}", app.backend);
        // A round, then the host ends the game.
        for (author, token) in [&key, &ysolde.1, &xavier.1].into_iter().enumerate() {
            let target = &players[(author + 1) % 3];
            let body = json!({"round": 1, "step": "orders", "move": "strike", "target": target});
            let reply = app.post(&format!("{base}/orders"), Some(token), body).await;
            assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        }
        let round = app.get(&format!("{base}/rounds/1"), None).await;
        assert!(round.text.contains("Player 2"), "{}", round.text);
        assert!(!round.text.contains("Ysolde-Q"), "{}", round.text);
        let end = app
            .post(&format!("{base}/end"), Some(&host), json!({}))
            .await;
        assert_eq!(end.status, StatusCode::OK, "{}", end.text);
        // Over: the real names, each beside the pseudonym it played under.
        let view = app.get(&base, None).await.body;
        assert_eq!(names(&view), ["Zanzibar-Q", "Ysolde-Q", "Xavier-Q"]);
        assert_eq!(view["players"][1]["pseudonym"], "Player 2");
        let public = app.get("/api/v1/profiles/Zanzibar-Q", None).await.body;
        assert_eq!(public["games"][0]["lobby"], lobby.as_str());
        let archive = app.get(&format!("{base}/archive"), None).await;
        let entrants = &archive.body["entrants"];
        assert_eq!(entrants[0]["name"], "Player 1");
        assert_eq!(entrants[0]["real_name"], "Zanzibar-Q");
        assert_eq!(entrants[2]["real_name"], "Xavier-Q");
        let read = herald::fairness::verify::read(&archive.text).unwrap();
        let report = herald::fairness::verify::verify(&read).unwrap();
        assert!(report.replayed, "{:?}", report.lines);
        assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    }
}

#[tokio::test]
async fn a_substitute_in_an_anonymous_game_takes_the_seat_s_pseudonym() {
    for app in apps().await {
        let (lobby, host) = app
            .create_lobby("crossing-swords", json!({"anonymous": true}))
            .await;
        let base = format!("/api/v1/lobbies/{lobby}");
        let a = app.join(&lobby, json!({"name": "Tamsin-Q"})).await;
        let _b = app.join(&lobby, json!({"name": "Ulric-Q"})).await;
        app.start(&lobby, &host).await;
        // A substitute may not take a name already seated, real or not.
        let taken = app
            .post(
                &format!("{base}/players/{}/replace", a.0),
                Some(&host),
                json!({"name": "Ulric-Q"}),
            )
            .await;
        assert_eq!(taken.code(), "name-taken", "{}", taken.text);
        let sub = app
            .post(
                &format!("{base}/players/{}/replace", a.0),
                Some(&host),
                json!({"name": "Valda-Q"}),
            )
            .await;
        assert_eq!(sub.status, StatusCode::OK, "{}", sub.text);
        let view = app.get(&base, Some(&host)).await;
        assert_eq!(names(&view.body), ["Player 1", "Player 2"]);
        assert!(!view.text.contains("Valda-Q") && !view.text.contains("Tamsin-Q"));
        let end = app
            .post(&format!("{base}/end"), Some(&host), json!({}))
            .await;
        assert_eq!(end.status, StatusCode::OK, "{}", end.text);
        assert_eq!(
            names(&app.get(&base, None).await.body),
            ["Valda-Q", "Ulric-Q"]
        );
        let archive = app.get(&format!("{base}/archive"), None).await;
        let read = herald::fairness::verify::read(&archive.text).unwrap();
        let report = herald::fairness::verify::verify(&read).unwrap();
        assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    }
}

#[tokio::test]
async fn the_anonymous_setting_is_a_boolean() {
    for app in apps().await {
        let reply = app
            .post(
                "/api/v1/lobbies",
                None,
                json!({"game": "crossing-swords", "name": "Masks", "settings": {"anonymous": "yes"}}),
            )
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-anonymous-setting"
            ),
            "{}",
            reply.text
        );
    }
}

/// Plays round 1 of an anonymous Crossing Swords game of Ann, Bob and Cat (a strike each at
/// the next), each order with `vote` when given; the lobby's base path.
async fn play_round_one(app: &TestApp, settings: Value, vote: Option<&str>) -> String {
    let (lobby, host) = app.create_lobby("crossing-swords", settings).await;
    let base = format!("/api/v1/lobbies/{lobby}");
    let mut seats = Vec::new();
    for name in ["Annwyl-Q", "Bedwyr-Q", "Cyndaf-Q"] {
        seats.push(app.join(&lobby, json!({"name": name})).await);
    }
    app.start(&lobby, &host).await;
    assert_eq!(
        names(&app.get(&base, None).await.body),
        ["Player 1", "Player 2", "Player 3"]
    );
    for (author, (_, token)) in seats.iter().enumerate() {
        let target = &seats[(author + 1) % 3].0;
        let mut body = json!({"round": 1, "step": "orders", "move": "strike", "target": target});
        if let Some(vote) = vote {
            body["vote"] = json!(vote);
        }
        let reply = app.post(&format!("{base}/orders"), Some(token), body).await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
    }
    base
}

/// The game at `base` is over by `reason`, and names its players as they joined, with the
/// pseudonyms they played under beside them, in the view and in an archive that verifies.
async fn unmasked(app: &TestApp, base: &str, reason: &str) {
    let view = app.get(base, None).await.body;
    assert_eq!(view["status"], "finished", "{}: {view}", app.backend);
    assert_eq!(view["result"]["reason"], reason, "{view}");
    assert_eq!(names(&view), ["Annwyl-Q", "Bedwyr-Q", "Cyndaf-Q"]);
    assert_eq!(view["players"][2]["pseudonym"], "Player 3");
    let archive = app.get(&format!("{base}/archive"), None).await;
    assert_eq!(archive.body["entrants"][1]["real_name"], "Bedwyr-Q");
    assert_eq!(archive.body["entrants"][1]["name"], "Player 2");
    let read = herald::fairness::verify::read(&archive.text).unwrap();
    let report = herald::fairness::verify::verify(&read).unwrap();
    assert!(report.replayed, "{:?}", report.lines);
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
}

#[tokio::test]
async fn the_names_appear_when_the_rules_end_an_anonymous_game() {
    for app in apps().await {
        let settings = json!({"anonymous": true, "max_rounds": 1});
        let base = play_round_one(&app, settings, None).await;
        unmasked(&app, &base, "round-cap").await;
    }
}

#[tokio::test]
async fn the_names_appear_when_a_draw_vote_ends_an_anonymous_game() {
    for app in apps().await {
        let base = play_round_one(&app, json!({"anonymous": true}), Some("draw")).await;
        unmasked(&app, &base, "draw-vote").await;
    }
}
