//! The refusals around a profile's seats (docs/identity.md, "Gates", "Seats that belong to
//! someone" and "Reliability"): a least reliability score refuses a join and a claim before
//! the start; a new link or a substitute ends a binding, so that the profile's key plays the
//! seat no more; and a host's excuse comes too late once 7 days have passed.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::api_profiles::{join_as, profile};
use crate::support::{TestApp, apps, timed_apps};

const DAY: Duration = Duration::from_secs(24 * 3600);

async fn resolve_now(app: &TestApp, lobby: &str, host: &str) {
    let path = format!("/api/v1/lobbies/{lobby}/resolve-now");
    let reply = app.post(&path, Some(host), json!({})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

async fn reliability(app: &TestApp, handle: &str) -> Value {
    let reply = app.get(&format!("/api/v1/profiles/{handle}"), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["reliability"].clone()
}

/// A profile `handle` (one word) that missed the one step it owed: its score is 0
/// (100 × 0 − 5 − 6, clamped). Its key.
pub async fn unreliable(app: &TestApp, handle: &str) -> String {
    let (key, _) = profile(app, handle).await;
    let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
    join_as(app, &lobby, &key, json!({})).await;
    app.join(&lobby, json!({"name": "Filler"})).await;
    app.start(&lobby, &host).await;
    resolve_now(app, &lobby, &host).await;
    assert_eq!(reliability(app, handle).await["score"], 0);
    key
}

/// The lobby's players, by name.
async fn names(app: &TestApp, lobby: &str) -> Vec<String> {
    let view = app.get(&format!("/api/v1/lobbies/{lobby}"), None).await;
    view.body["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_least_reliability_score_refuses_a_join_and_a_claim_below_it() {
    for app in apps().await {
        let flaky = unreliable(&app, "Flaky").await;
        let (steady, _) = profile(&app, "Steady").await;
        let (lobby, host) = app
            .create_lobby("crossing-swords", json!({"min_reliability": 50}))
            .await;
        let players = format!("/api/v1/lobbies/{lobby}/players");
        let reply = app.post(&players, Some(&flaky), json!({})).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::FORBIDDEN, "reliability-too-low"),
            "{}",
            app.backend
        );
        let message = reply.body["error"]["message"].as_str().unwrap();
        assert!(message.contains("at least 50; yours is 0"), "{message}");
        assert!(names(&app, &lobby).await.is_empty(), "nobody joined");
        // A profile at or above the least score joins.
        let (seat, _) = join_as(&app, &lobby, &steady, json!({})).await;
        // A new link unbinds the seat; a claim of it before the start passes the same gate.
        let path = format!("/api/v1/lobbies/{lobby}/players/{seat}/reissue");
        let reply = app.post(&path, Some(&host), json!({})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let token = reply.body["player_token"].as_str().unwrap().to_owned();
        let claim = format!("/api/v1/lobbies/{lobby}/players/{seat}/claim");
        let body = json!({"player_token": token});
        let reply = app.post(&claim, Some(&flaky), body.clone()).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::FORBIDDEN, "reliability-too-low")
        );
        let reply = app.post(&claim, Some(&steady), body).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.body["holding"], "bound", "{}", reply.text);
    }
}

#[tokio::test]
async fn a_substitute_or_a_new_link_ends_the_binding_and_the_key_plays_the_seat_no_more() {
    for app in apps().await {
        let (gone, _) = profile(&app, "Replaced").await;
        let (relinked, _) = profile(&app, "Relinked").await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (gone_seat, _) = join_as(&app, &lobby, &gone, json!({})).await;
        let (relinked_seat, _) = join_as(&app, &lobby, &relinked, json!({})).await;
        app.join(&lobby, json!({"name": "Third"})).await;
        app.start(&lobby, &host).await;
        let me = format!("/api/v1/lobbies/{lobby}/me");
        for key in [&gone, &relinked] {
            assert_eq!(app.get(&me, Some(key)).await.status, StatusCode::OK);
        }
        resolve_now(&app, &lobby, &host).await;
        assert_eq!(reliability(&app, "replaced").await["owed"], 1);

        let path = format!("/api/v1/lobbies/{lobby}/players/{gone_seat}/replace");
        let reply = app.post(&path, Some(&host), json!({"name": "Sub"})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let sub = reply.body["player_token"].as_str().unwrap().to_owned();
        let path = format!("/api/v1/lobbies/{lobby}/players/{relinked_seat}/reissue");
        let reply = app.post(&path, Some(&host), json!({})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let new_link = reply.body["player_token"].as_str().unwrap().to_owned();

        for key in [&gone, &relinked] {
            let reply = app.get(&me, Some(key)).await;
            assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{}", reply.text);
            let order = json!({"round": 2, "step": "orders", "move": "pass"});
            let path = format!("/api/v1/lobbies/{lobby}/orders");
            let reply = app.post(&path, Some(key), order).await;
            assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{}", reply.text);
        }
        for token in [&sub, &new_link] {
            assert_eq!(app.get(&me, Some(token)).await.status, StatusCode::OK);
        }
        // The profiles' records of the game stopped with their holdings.
        resolve_now(&app, &lobby, &host).await;
        for handle in ["replaced", "relinked"] {
            assert_eq!(reliability(&app, handle).await["owed"], 1, "{handle}");
        }
        let mine = app.get("/api/v1/me", Some(&gone)).await.body;
        assert!(
            mine["seats"].as_array().unwrap().is_empty(),
            "no seat held now: {mine}"
        );
    }
}

#[tokio::test]
async fn a_miss_is_excused_within_seven_days_and_too_late_after() {
    for app in timed_apps().await {
        let (key, _) = profile(&app, "Absent").await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (seat, _) = join_as(&app, &lobby, &key, json!({})).await;
        app.join(&lobby, json!({"name": "Other"})).await;
        app.start(&lobby, &host).await;
        resolve_now(&app, &lobby, &host).await;
        app.clock.advance(DAY);
        resolve_now(&app, &lobby, &host).await;
        // Round 1 fell due 7 days and a moment ago, round 2 six days ago.
        app.clock.advance(6 * DAY + Duration::from_millis(1));
        let path = format!("/api/v1/lobbies/{lobby}/players/{seat}/excuse");
        let excuse = |round: u64| {
            let path = path.clone();
            let host = host.clone();
            let app = &app;
            async move {
                let body = json!({"round": round, "step": "orders", "reason": "Power cut"});
                app.post(&path, Some(&host), body).await
            }
        };
        let reply = excuse(1).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::CONFLICT, "excuse-too-late"),
            "{}",
            reply.text
        );
        let reply = excuse(2).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let record = reliability(&app, "absent").await;
        assert_eq!(
            (record["missed"].clone(), record["excused"].clone()),
            (json!(1), json!(1)),
            "{record}"
        );
    }
}
