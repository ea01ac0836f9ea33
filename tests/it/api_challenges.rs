//! Challenges between profiles (docs/bots.md, "Challenges"): made with a profile key to a
//! handle, sent to the opponent's profile stream, accepted once into a started lobby with both
//! seated and bound (each plays with its profile key), declined, or lapsed after 24 hours.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::json;

use crate::api_profile_stream::Stream;
use crate::api_profiles::profile;
use crate::support::{TestApp, manual_apps};

/// A human (key) and a bot they own (key), on `app`.
async fn human_and_bot(app: &TestApp) -> (String, String) {
    let (human, _) = profile(app, "Hana").await;
    let reply = app
        .post("/api/v1/me/bots", Some(&human), json!({"handle": "Robo"}))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    (human, reply.body["key"].as_str().unwrap().to_string())
}

async fn challenge(app: &TestApp, key: &str, body: serde_json::Value) -> String {
    let reply = app.post("/api/v1/challenges", Some(key), body).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.body["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_challenge_reaches_the_opponents_stream_and_is_accepted_once_into_a_started_game() {
    for app in manual_apps(1_700_000_000_000).await {
        let (human, bot) = human_and_bot(&app).await;
        let mut stream = Stream::open(&app, "/api/v1/me/events", &bot).await;
        assert_eq!(stream.next().await.kind, "seats");
        let id = challenge(
            &app,
            &human,
            json!({"game": "bst", "opponent": "robo", "settings": {"seed": 4, "max_rounds": 2}}),
        )
        .await;
        let heard = stream.next().await;
        assert_eq!(heard.kind, "challenge");
        assert_eq!(
            (&heard.data["id"], &heard.data["from"], &heard.data["game"]),
            (&json!(id), &json!("Hana"), &json!("bst"))
        );
        assert_eq!(heard.data["settings"]["max_rounds"], 2);
        // The seed fixes the shuffle: secret until the game is over, as in the lobby view.
        assert!(!heard.text.contains("seed\":4"), "{}", heard.text);
        // Only the opponent answers.
        let path = format!("/api/v1/challenges/{id}/accept");
        let reply = app.post(&path, Some(&human), json!({})).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::FORBIDDEN, "not-your-challenge")
        );
        let reply = app.post(&path, Some(&bot), json!({})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let lobby = reply.body["lobby"].as_str().unwrap().to_string();
        let reply = app.post(&path, Some(&bot), json!({})).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::CONFLICT, "challenge-closed")
        );
        let view = app.get(&format!("/api/v1/lobbies/{lobby}"), None).await;
        assert_eq!(view.body["status"], "running");
        let names: Vec<_> = view.body["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(names, ["Hana", "Robo"], "the challenger first");
        // Both seats are bound: each side plays with its profile key at once.
        for key in [&human, &bot] {
            let me = app
                .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(key))
                .await;
            assert_eq!(me.status, StatusCode::OK, "{}", me.text);
            assert!(!me.body["prompt"].is_null());
        }
        let prompt = stream.next().await;
        assert_eq!(
            (prompt.kind.as_str(), &prompt.data["lobby"]),
            ("prompt", &json!(lobby))
        );
        let me = app.get("/api/v1/me", Some(&bot)).await;
        assert_eq!(me.body["seats"][0]["lobby"], lobby.as_str());
        assert_eq!(me.body["seats"][0]["bound"], true);
    }
}

#[tokio::test]
async fn a_challenge_may_be_declined_and_lapses_after_a_day() {
    for app in manual_apps(1_700_000_000_000).await {
        let (human, bot) = human_and_bot(&app).await;
        let body = json!({"game": "crossing-swords", "opponent": "Robo"});
        let declined = challenge(&app, &human, body.clone()).await;
        let path = format!("/api/v1/challenges/{declined}/decline");
        assert_eq!(
            app.post(&path, Some(&bot), json!({})).await.status,
            StatusCode::NO_CONTENT
        );
        let reply = app
            .post(
                &format!("/api/v1/challenges/{declined}/accept"),
                Some(&bot),
                json!({}),
            )
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::CONFLICT, "challenge-closed")
        );
        let lapsing = challenge(&app, &human, body).await;
        // An open challenge is sent again on a new connection, until it lapses.
        let mut stream = Stream::open(&app, "/api/v1/me/events", &bot).await;
        assert_eq!(stream.next().await.kind, "seats");
        let heard = stream.next().await;
        assert_eq!(
            (heard.kind.as_str(), &heard.data["id"]),
            ("challenge", &json!(lapsing))
        );
        app.clock.advance(Duration::from_secs(24 * 3600));
        let reply = app
            .post(
                &format!("/api/v1/challenges/{lapsing}/accept"),
                Some(&bot),
                json!({}),
            )
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::CONFLICT, "challenge-closed")
        );
        let me = app.get("/api/v1/me", Some(&bot)).await;
        assert_eq!(me.body["seats"], json!([]), "no lobby was made");
    }
}

#[tokio::test]
async fn a_bad_challenge_is_refused_with_a_clear_error() {
    for app in manual_apps(1_700_000_000_000).await {
        let (human, bot) = human_and_bot(&app).await;
        for (token, body, status, code) in [
            (
                None,
                json!({"game": "bst", "opponent": "Robo"}),
                StatusCode::UNAUTHORIZED,
                "missing-token",
            ),
            (
                Some(&human),
                json!({"game": "bst", "opponent": "Nobody"}),
                StatusCode::NOT_FOUND,
                "unknown-profile",
            ),
            (
                Some(&human),
                json!({"game": "bst", "opponent": "Hana"}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "self-challenge",
            ),
            (
                Some(&human),
                json!({"game": "chess", "opponent": "Robo"}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown-game",
            ),
            (
                Some(&human),
                json!({"game": "bst", "opponent": "Robo", "settings": 3}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
            (
                Some(&human),
                json!({"game": "bst", "opponent": "Robo", "settings": {"max_rounds": "x"}}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
            (
                Some(&human),
                json!({"game": "bst", "opponent": "Robo", "colour": "red"}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
        ] {
            let reply = app
                .post(
                    "/api/v1/challenges",
                    token.map(String::as_str),
                    body.clone(),
                )
                .await;
            assert_eq!(
                (reply.status, reply.code()),
                (status, code),
                "{body}: {}",
                reply.text
            );
        }
        for path in ["not-a-uuid", "6f1c1c9e-0000-4000-8000-000000000000"] {
            let reply = app
                .post(
                    &format!("/api/v1/challenges/{path}/accept"),
                    Some(&bot),
                    json!({}),
                )
                .await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::NOT_FOUND, "unknown-challenge")
            );
        }
    }
}
