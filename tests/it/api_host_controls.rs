//! The host's controls over people, over HTTP on every backend: a substitute, a new private
//! link, and sign-ups undone before the start (removed, left, reopened). Each refusal leaves
//! the lobby as it was.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::api_secrecy::EventReader;
use crate::support::{Reply, TestApp, apps};

pub async fn delete(app: &TestApp, path: &str, token: Option<&str>) -> Reply {
    app.send(Method::DELETE, path, token, None).await
}

/// The kinds of the lobby's stored events, in order.
pub async fn event_kinds(app: &TestApp, lobby: &str) -> Vec<String> {
    let id = uuid::Uuid::parse_str(lobby).unwrap();
    let events = app.store.events_after(id, 0).await.unwrap();
    events.into_iter().map(|e| e.kind).collect()
}

/// The data of the lobby's last stored event of `kind`.
pub async fn last_event(app: &TestApp, lobby: &str, kind: &str) -> Value {
    let id = uuid::Uuid::parse_str(lobby).unwrap();
    let events = app.store.events_after(id, 0).await.unwrap();
    let data = &events
        .iter()
        .rev()
        .find(|e| e.kind == kind)
        .expect(kind)
        .data;
    serde_json::from_str(data).unwrap()
}

/// A Crossing Swords lobby with `names` seated; returns (lobby, host, [(id, token)]).
pub async fn seated(app: &TestApp, names: &[&str]) -> (String, String, Vec<(String, String)>) {
    let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
    let mut players = Vec::new();
    for name in names {
        players.push(app.join(&lobby, json!({"name": name})).await);
    }
    (lobby, host, players)
}

async fn names(app: &TestApp, lobby: &str) -> Vec<String> {
    let view = app
        .get(&format!("/api/v1/lobbies/{lobby}"), None)
        .await
        .body;
    view["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_substitute_keeps_the_seat_pools_and_pending_order_under_a_new_name_and_token() {
    for app in apps().await {
        let (lobby, host, p) = seated(&app, &["Ann", "Bob", "Cat"]).await;
        app.start(&lobby, &host).await;
        let order = |target: &str| json!({"round": 1, "step": "orders", "move": "strike", "target": target});
        let sent = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/orders"),
                Some(&p[1].1),
                order(&p[0].0),
            )
            .await;
        assert_eq!(sent.status, StatusCode::ACCEPTED, "{}", sent.text);

        let path = format!("/api/v1/lobbies/{lobby}/players/{}/replace", p[1].0);
        let reply = app.post(&path, Some(&host), json!({"name": "Zed"})).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{}: {}",
            app.backend,
            reply.text
        );
        assert_eq!(reply.body["player_id"], p[1].0.as_str());
        let fresh = reply.body["player_token"].as_str().unwrap().to_owned();
        assert_ne!(fresh, p[1].1);

        let me = format!("/api/v1/lobbies/{lobby}/me");
        let old = app.get(&me, Some(&p[1].1)).await;
        assert_eq!(
            (old.status, old.code()),
            (StatusCode::UNAUTHORIZED, "unknown-token")
        );
        let mine = app.get(&me, Some(&fresh)).await;
        assert_eq!(mine.body["player"]["name"], "Zed");
        assert_eq!(mine.body["player"]["seat"], 1);
        assert_eq!(
            mine.body["pending"]["move"], "strike",
            "the seat's order stays"
        );
        let prompt_names: Vec<&str> = mine.body["prompt"]["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(prompt_names, ["Ann", "Zed", "Cat"]);
        assert_eq!(names(&app, &lobby).await, ["Ann", "Zed", "Cat"]);
        let event = last_event(&app, &lobby, "player-replaced").await;
        assert_eq!(event["player"], json!({"id": p[1].0, "name": "Zed"}));
        assert_eq!(event["previous_name"], "Bob");

        // The substitute plays the seat: the round resolves with the old order and theirs.
        for (who, target) in [(&p[0].1, &p[1].0), (&p[2].1, &p[1].0)] {
            app.post(
                &format!("/api/v1/lobbies/{lobby}/orders"),
                Some(who),
                order(target),
            )
            .await;
        }
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await;
        assert_eq!(round.status, StatusCode::OK, "{}", round.text);
        let log = round.body["log"].to_string();
        assert!(
            log.contains("Zed"),
            "the log names the seat's player now: {log}"
        );
    }
}

#[tokio::test]
async fn a_replacement_is_refused_for_a_player_a_stranger_a_bad_name_a_taken_name_or_a_finished_game()
 {
    for app in apps().await {
        let (lobby, host, p) = seated(&app, &["Ann", "Bob"]).await;
        app.start(&lobby, &host).await;
        let path = format!("/api/v1/lobbies/{lobby}/players/{}/replace", p[1].0);
        let cases = [
            (
                Some(p[0].1.as_str()),
                json!({"name": "Zed"}),
                StatusCode::FORBIDDEN,
                "host-only",
            ),
            (
                None,
                json!({"name": "Zed"}),
                StatusCode::UNAUTHORIZED,
                "missing-token",
            ),
            (
                Some(host.as_str()),
                json!({"name": "  "}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-name",
            ),
            (
                Some(host.as_str()),
                json!({"name": "ANN"}),
                StatusCode::CONFLICT,
                "name-taken",
            ),
            (
                Some(host.as_str()),
                json!({}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
            (
                Some(host.as_str()),
                json!({"name": "Zed", "seat": 0}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
        ];
        for (token, body, status, code) in cases {
            let reply = app.post(&path, token, body.clone()).await;
            assert_eq!(
                (reply.status, reply.code()),
                (status, code),
                "{}: {body}",
                app.backend
            );
        }
        let stranger = format!(
            "/api/v1/lobbies/{lobby}/players/{}/replace",
            uuid::Uuid::new_v4()
        );
        let reply = app
            .post(&stranger, Some(&host), json!({"name": "Zed"}))
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::NOT_FOUND, "unknown-player")
        );
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/players/nope/replace"),
                Some(&host),
                json!({"name": "Zed"}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND);
        // Nothing changed: the old token still plays, the name is still Bob.
        assert_eq!(
            app.get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&p[1].1))
                .await
                .status,
            StatusCode::OK
        );
        assert_eq!(names(&app, &lobby).await, ["Ann", "Bob"]);
        assert!(
            !event_kinds(&app, &lobby)
                .await
                .contains(&"player-replaced".to_owned())
        );

        let end = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/end"),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(end.status, StatusCode::OK, "{}", end.text);
        let reply = app.post(&path, Some(&host), json!({"name": "Zed"})).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::CONFLICT, "game-over")
        );
    }
}

#[tokio::test]
async fn a_reissued_link_works_at_once_and_the_old_token_is_401_from_then_on() {
    for app in apps().await {
        let (lobby, host, p) = seated(&app, &["Ann", "Bob"]).await;
        let path = format!("/api/v1/lobbies/{lobby}/players/{}/reissue", p[0].0);
        let refused = app.post(&path, Some(&p[0].1), json!({})).await;
        assert_eq!(
            (refused.status, refused.code()),
            (StatusCode::FORBIDDEN, "host-only")
        );
        let stranger = format!(
            "/api/v1/lobbies/{lobby}/players/{}/reissue",
            uuid::Uuid::new_v4()
        );
        let refused = app.post(&stranger, Some(&host), json!({})).await;
        assert_eq!(refused.status, StatusCode::NOT_FOUND);
        assert_eq!(
            app.get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&p[0].1))
                .await
                .status,
            StatusCode::OK
        );

        let reply = app.post(&path, Some(&host), json!({})).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{}: {}",
            app.backend,
            reply.text
        );
        assert_eq!(reply.body["player_id"], p[0].0.as_str());
        let fresh = reply.body["player_token"].as_str().unwrap().to_owned();
        let me = format!("/api/v1/lobbies/{lobby}/me");
        assert_eq!(
            app.get(&me, Some(&p[0].1)).await.status,
            StatusCode::UNAUTHORIZED
        );
        let mine = app.get(&me, Some(&fresh)).await;
        assert_eq!(
            (
                mine.body["player"]["name"].as_str(),
                mine.body["player"]["seat"].as_u64()
            ),
            (Some("Ann"), Some(0))
        );
        // The game starts and the new token plays.
        app.start(&lobby, &host).await;
        let sent = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/orders"),
                Some(&fresh),
                json!({"round": 1, "step": "orders", "move": "block", "target": p[1].0}),
            )
            .await;
        assert_eq!(sent.status, StatusCode::ACCEPTED, "{}", sent.text);
        app.post(
            &format!("/api/v1/lobbies/{lobby}/end"),
            Some(&host),
            json!({}),
        )
        .await;
        let late = app.post(&path, Some(&host), json!({})).await;
        assert_eq!(
            (late.status, late.code()),
            (StatusCode::CONFLICT, "game-over")
        );
    }
}

#[tokio::test]
async fn a_removed_sign_up_frees_its_name_and_the_seats_close_up_before_the_start() {
    for app in apps().await {
        let (lobby, host, p) = seated(&app, &["Ann", "Bob", "Cat", "Dan"]).await;
        let remove = |id: &str| format!("/api/v1/lobbies/{lobby}/players/{id}");
        let refused = delete(&app, &remove(&p[1].0), Some(&p[0].1)).await;
        assert_eq!(
            (refused.status, refused.code()),
            (StatusCode::FORBIDDEN, "host-only")
        );
        let refused = delete(
            &app,
            &remove(&uuid::Uuid::new_v4().to_string()),
            Some(&host),
        )
        .await;
        assert_eq!(
            (refused.status, refused.code()),
            (StatusCode::NOT_FOUND, "unknown-player")
        );
        assert_eq!(names(&app, &lobby).await, ["Ann", "Bob", "Cat", "Dan"]);

        let removed = delete(&app, &remove(&p[1].0), Some(&host)).await;
        assert_eq!(
            removed.status,
            StatusCode::NO_CONTENT,
            "{}: {}",
            app.backend,
            removed.text
        );
        assert_eq!(names(&app, &lobby).await, ["Ann", "Cat", "Dan"]);
        let me = format!("/api/v1/lobbies/{lobby}/me");
        assert_eq!(
            app.get(&me, Some(&p[1].1)).await.status,
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(app.get(&me, Some(&p[3].1)).await.body["player"]["seat"], 2);
        assert_eq!(
            last_event(&app, &lobby, "player-left").await["player"]["name"],
            "Bob"
        );

        // A player leaves on their own; the host's token cannot "leave".
        let refused = delete(&app, &me, Some(&host)).await;
        assert_eq!(
            (refused.status, refused.code()),
            (StatusCode::FORBIDDEN, "players-only")
        );
        let left = delete(&app, &me, Some(&p[0].1)).await;
        assert_eq!(left.status, StatusCode::NO_CONTENT, "{}", left.text);
        // Gone: their token is no one's, and the host's routes no longer know the player.
        let stale = app.get(&me, Some(&p[0].1)).await;
        assert_eq!(
            (stale.status, stale.code()),
            (StatusCode::UNAUTHORIZED, "unknown-token")
        );
        let reissue = format!("/api/v1/lobbies/{lobby}/players/{}/reissue", p[0].0);
        let gone = app.post(&reissue, Some(&host), json!({})).await;
        assert_eq!(
            (gone.status, gone.code()),
            (StatusCode::NOT_FOUND, "unknown-player")
        );
        assert_eq!(names(&app, &lobby).await, ["Cat", "Dan"]);
        assert_eq!(app.get(&me, Some(&p[2].1)).await.body["player"]["seat"], 0);

        // The names are free again; the newcomer takes the next seat.
        let (bob, bob_token) = app.join(&lobby, json!({"name": "bob"})).await;
        assert_eq!(
            app.get(&me, Some(&bob_token)).await.body["player"]["seat"],
            2
        );
        let started = app.start(&lobby, &host).await;
        let ids: Vec<&str> = started.body["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, [p[2].0.as_str(), p[3].0.as_str(), bob.as_str()]);
        let sent = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/orders"),
                Some(&bob_token),
                json!({"round": 1, "step": "orders", "move": "strike", "target": p[2].0}),
            )
            .await;
        assert_eq!(sent.status, StatusCode::ACCEPTED, "{}", sent.text);

        // Seats are fixed once the game runs.
        let late = delete(&app, &remove(&p[2].0), Some(&host)).await;
        assert_eq!(
            (late.status, late.code()),
            (StatusCode::CONFLICT, "already-started")
        );
        let late = delete(&app, &me, Some(&p[3].1)).await;
        assert_eq!(
            (late.status, late.code()),
            (StatusCode::CONFLICT, "already-started")
        );
        assert_eq!(names(&app, &lobby).await, ["Cat", "Dan", "bob"]);
    }
}

#[tokio::test]
async fn closed_sign_ups_reopen_for_the_host_until_the_start() {
    for app in apps().await {
        let (lobby, host, p) = seated(&app, &["Ann", "Bob"]).await;
        let reopen = format!("/api/v1/lobbies/{lobby}/reopen-signups");
        let open = app.post(&reopen, Some(&host), json!({})).await;
        assert_eq!(
            (open.status, open.code()),
            (StatusCode::CONFLICT, "signups-open")
        );
        app.post(
            &format!("/api/v1/lobbies/{lobby}/close-signups"),
            Some(&host),
            json!({}),
        )
        .await;
        let refused = app.post(&reopen, Some(&p[0].1), json!({})).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        let closed = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/players"),
                None,
                json!({"name": "Cat"}),
            )
            .await;
        assert_eq!(closed.code(), "signups-closed");

        let reply = app.post(&reopen, Some(&host), json!({})).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{}: {}",
            app.backend,
            reply.text
        );
        assert_eq!(reply.body["status"], "signups");
        app.join(&lobby, json!({"name": "Cat"})).await;
        assert!(
            event_kinds(&app, &lobby)
                .await
                .ends_with(&["signups-reopened".to_owned(), "player-joined".to_owned()])
        );

        app.start(&lobby, &host).await;
        let late = app.post(&reopen, Some(&host), json!({})).await;
        assert_eq!(
            (late.status, late.code()),
            (StatusCode::CONFLICT, "already-started")
        );
    }
}

#[tokio::test]
async fn a_player_stream_ends_once_its_token_is_replaced_and_the_new_token_hears_the_prompt() {
    for app in apps().await {
        let (lobby, host, p) = seated(&app, &["Ann", "Bob"]).await;
        app.start(&lobby, &host).await;
        let path = format!("/api/v1/lobbies/{lobby}/me/events?events=prompt,finished");
        let mut old = EventReader::open_path(&app, &path, Some(&p[1].1), None).await;
        assert_eq!(old.next().await.map(|e| e.kind).as_deref(), Some("prompt"));
        let mut ann = EventReader::open_path(&app, &path, Some(&p[0].1), None).await;
        assert_eq!(ann.next().await.map(|e| e.kind).as_deref(), Some("prompt"));
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/players/{}/replace", p[1].0),
                Some(&host),
                json!({"name": "Zed"}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK);
        assert!(
            old.ends().await,
            "{}: the old token's stream ends",
            app.backend
        );
        assert!(!ann.ends().await, "another player's stream goes on");
        let fresh = reply.body["player_token"].as_str().unwrap();
        let mut new = EventReader::open_path(&app, &path, Some(fresh), None).await;
        let prompt = new.next().await.expect("the seat's prompt");
        assert_eq!(prompt.data["player"]["name"], "Zed");
    }
}
