//! The host's clock controls (extend, pause, resume, resolve now) and a player's fallback
//! order: the happy paths, the wrong role (403), the wrong state (409), bad values (400/422),
//! and nothing changed by a request that fails.

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::api_deadlines::{event_kinds, put, seated, wait_for_round};
use crate::support::{TestApp, timed_apps};

async fn control(
    app: &TestApp,
    lobby: &str,
    what: &str,
    token: &str,
    body: Value,
) -> crate::support::Reply {
    app.post(
        &format!("/api/v1/lobbies/{lobby}/{what}"),
        Some(token),
        body,
    )
    .await
}

#[tokio::test]
async fn the_host_extends_pauses_resumes_and_resolves_now() {
    for app in timed_apps().await {
        let settings = json!({"deadline_seconds": 600});
        let (lobby, host, p) = seated(&app, settings, &["Ann", "Bob"]).await;

        let reply = control(
            &app,
            &lobby,
            "deadline",
            &host,
            json!({"extend_seconds": 60}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.body["deadline_at"], "2026-12-01T00:11:00.000Z");

        app.clock.advance(Duration::from_secs(60));
        let reply = control(&app, &lobby, "pause", &host, json!({})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(
            (&reply.body["paused"], &reply.body["deadline_at"]),
            (&json!(true), &Value::Null)
        );
        // Far past the old deadline: a paused clock does not fall due.
        app.clock.advance(Duration::from_secs(7 * 86_400));
        tokio::time::sleep(Duration::from_millis(100)).await;
        let path = format!("/api/v1/lobbies/{lobby}");
        assert_eq!(app.get(&path, None).await.body["round"], 1);
        let me = app.get(&format!("{path}/me"), Some(&p[0].1)).await.body;
        assert_eq!(me["paused"], true);

        let reply = control(&app, &lobby, "resume", &host, json!({})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.body["paused"], false);
        assert_eq!(
            reply.body["deadline_at"], "2026-12-08T00:11:00.000Z",
            "the ten minutes that were left"
        );

        let at = "2026-12-08T02:00:00+01:00";
        let reply = control(&app, &lobby, "deadline", &host, json!({"deadline_at": at})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.body["deadline_at"], "2026-12-08T01:00:00.000Z");

        let sent = json!({"round": 1, "step": "orders", "move": "dodge", "target": p[1].0});
        assert_eq!(
            app.post(&format!("{path}/orders"), Some(&p[0].1), sent)
                .await
                .status,
            StatusCode::ACCEPTED
        );
        let reply = control(&app, &lobby, "resolve-now", &host, json!({})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.body["round"], 2);
        let round = app.get(&format!("{path}/rounds/1"), None).await.body;
        assert_eq!(round["orders"][0]["source"], "order");
        assert_eq!(round["orders"][1]["source"], "default");
        assert_eq!(round["log"][0]["kind"], "resolved-by-host", "{round}");

        let kinds: Vec<String> = event_kinds(&app, &lobby)
            .await
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        let controls: Vec<&str> = kinds
            .iter()
            .map(String::as_str)
            .filter(|k| ["deadline-set", "paused", "resumed", "step-resolved"].contains(k))
            .collect();
        assert_eq!(
            controls,
            [
                "deadline-set",
                "deadline-set",
                "paused",
                "resumed",
                "deadline-set",
                "step-resolved",
                "deadline-set"
            ]
        );
    }
}

#[tokio::test]
async fn clock_controls_refuse_the_wrong_role_state_and_values_and_change_nothing() {
    for app in timed_apps().await {
        let (lobby, host, p) =
            seated(&app, json!({"deadline_seconds": 600}), &["Ann", "Bob"]).await;
        let path = format!("/api/v1/lobbies/{lobby}");
        let before = app.get(&path, None).await.body;
        let events_before = event_kinds(&app, &lobby).await.len();
        let player = &p[0].1;
        for what in ["deadline", "pause", "resume", "resolve-now"] {
            let body = json!({"extend_seconds": 60});
            let reply = control(&app, &lobby, what, player, body).await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::FORBIDDEN, "host-only"),
                "{what}"
            );
            let reply = app.post(&format!("{path}/{what}"), None, json!({})).await;
            assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{what}");
        }
        for (body, status, code) in [
            (
                json!({"extend_seconds": 0}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-extend-seconds",
            ),
            (
                json!({"extend_seconds": 2_592_001}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-extend-seconds",
            ),
            (
                json!({"extend_seconds": 2_592_000}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-extend-seconds",
            ),
            (
                json!({"extend_seconds": "1h"}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-extend-seconds",
            ),
            (
                json!({"deadline_at": "tomorrow"}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-deadline-at",
            ),
            (
                json!({"deadline_at": "2026-11-30T00:00:00Z"}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-deadline-at",
            ),
            (
                json!({"deadline_at": "2027-06-01T00:00:00Z"}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-deadline-at",
            ),
            (json!({}), StatusCode::BAD_REQUEST, "invalid-body"),
            (
                json!({"extend_seconds": 5, "deadline_at": "2026-12-01T01:00:00Z"}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
            (
                json!({"extend_by": 5}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
        ] {
            let reply = control(&app, &lobby, "deadline", &host, body.clone()).await;
            assert_eq!(
                (reply.status, reply.code()),
                (status, code),
                "{body}: {}",
                reply.text
            );
        }
        let reply = control(&app, &lobby, "resume", &host, json!({})).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::CONFLICT, "not-paused")
        );
        assert_eq!(
            control(&app, &lobby, "pause", &host, json!({}))
                .await
                .status,
            StatusCode::OK
        );
        let reply = control(&app, &lobby, "pause", &host, json!({})).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::CONFLICT, "paused")
        );
        let reply = control(
            &app,
            &lobby,
            "deadline",
            &host,
            json!({"extend_seconds": 5}),
        )
        .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::CONFLICT, "paused")
        );
        assert_eq!(
            control(&app, &lobby, "resume", &host, json!({}))
                .await
                .status,
            StatusCode::OK
        );
        let after = app.get(&path, None).await.body;
        assert_eq!(
            after["deadline_at"], before["deadline_at"],
            "the refusals changed nothing"
        );
        assert_eq!(
            event_kinds(&app, &lobby).await.len(),
            events_before + 2,
            "paused, resumed"
        );

        // No deadline: nothing to extend or pause; a step is not open before the start.
        let (quiet, quiet_host, _) = seated(&app, json!({}), &["Ann", "Bob"]).await;
        for what in ["pause", "deadline"] {
            let reply = control(
                &app,
                &quiet,
                what,
                &quiet_host,
                json!({"extend_seconds": 5}),
            )
            .await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::CONFLICT, "no-deadline"),
                "{what}"
            );
        }
        let at = json!({"deadline_at": "2026-12-01T01:00:00Z"});
        let reply = control(&app, &quiet, "deadline", &quiet_host, at).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "a deadline can be set on a step without one"
        );
        let (unstarted, unstarted_host) = app.create_lobby("crossing-swords", json!({})).await;
        for what in ["deadline", "pause", "resume", "resolve-now"] {
            let reply = control(
                &app,
                &unstarted,
                what,
                &unstarted_host,
                json!({"extend_seconds": 5}),
            )
            .await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::CONFLICT, "not-started"),
                "{what}"
            );
        }
    }
}

#[tokio::test]
async fn a_fallback_order_is_set_replaced_and_removed_by_its_player_only() {
    for app in timed_apps().await {
        let (lobby, host, p) = seated(&app, json!({}), &["Ann", "Bob"]).await;
        let path = format!("/api/v1/lobbies/{lobby}/me/fallback");
        let me_path = format!("/api/v1/lobbies/{lobby}/me");
        assert_eq!(
            app.get(&me_path, Some(&p[0].1)).await.body["fallback"],
            Value::Null
        );
        let block = json!({"move": "block", "target": p[1].0});
        let reply = put(&app, &path, Some(&p[0].1), block.clone()).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.body, json!({"fallback": block}));
        let mend = json!({"move": "mend", "target": p[1].0});
        assert_eq!(
            put(&app, &path, Some(&p[0].1), mend.clone()).await.status,
            StatusCode::OK
        );
        assert_eq!(
            app.get(&me_path, Some(&p[0].1)).await.body["fallback"],
            mend,
            "replaced"
        );
        assert_eq!(
            app.get(&me_path, Some(&p[1].1)).await.body["fallback"],
            Value::Null,
            "Ann's own"
        );

        for (body, status, code) in [
            (
                json!({"move": "shove", "target": p[1].0}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown-move",
            ),
            (
                json!({"move": "block", "target": "nobody"}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown-target",
            ),
            (
                json!({"move": "block"}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
            (
                json!({"move": "block", "target": p[1].0, "round": 1, "step": "orders"}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
            // The route takes every game's form (one document schema for all lobbies): a
            // well-formed BST fallback is this game's refusal, a body no game reads is malformed.
            (
                json!({"move": "guard", "token": "W10"}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "wrong-game",
            ),
            (
                json!({"move": "block", "token": "W10"}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
        ] {
            let reply = put(&app, &path, Some(&p[0].1), body.clone()).await;
            assert_eq!(
                (reply.status, reply.code()),
                (status, code),
                "{body}: {}",
                reply.text
            );
        }
        let reply = put(&app, &path, Some(&host), block.clone()).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::FORBIDDEN, "players-only")
        );
        assert_eq!(
            put(&app, &path, None, block).await.status,
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(
            app.get(&me_path, Some(&p[0].1)).await.body["fallback"],
            mend,
            "refusals changed nothing"
        );

        let reply = app.send(Method::DELETE, &path, Some(&p[0].1), None).await;
        assert_eq!(reply.status, StatusCode::NO_CONTENT);
        assert_eq!(
            app.get(&me_path, Some(&p[0].1)).await.body["fallback"],
            Value::Null
        );

        // BST: a fallback is a play with a known tile and token; the hand is checked at use.
        let (duel, duel_host) = app.create_lobby("bst", json!({})).await;
        let (_, token) = app.join(&duel, json!({"name": "Ann"})).await;
        app.join(&duel, json!({"name": "Bob"})).await;
        let duel_path = format!("/api/v1/lobbies/{duel}/me/fallback");
        let guard = json!({"move": "guard", "token": "W10"});
        assert_eq!(
            put(&app, &duel_path, Some(&token), guard).await.status,
            StatusCode::OK,
            "before the start too"
        );
        app.start(&duel, &duel_host).await;
        let reply = put(
            &app,
            &duel_path,
            Some(&token),
            json!({"move": "guard", "token": "Q3"}),
        )
        .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "unknown-token")
        );
        let reply = put(&app, &duel_path, Some(&token), json!({"decline": true})).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
        let block = json!({"move": "block", "target": uuid::Uuid::new_v4()});
        let reply = put(&app, &duel_path, Some(&token), block).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "wrong-game")
        );
    }
}

#[tokio::test]
async fn resolve_now_works_on_a_step_without_a_deadline_and_says_it_timed_out() {
    for app in timed_apps().await {
        let (lobby, host, _) = seated(&app, json!({}), &["Ann", "Bob", "Cat"]).await;
        let reply = control(&app, &lobby, "resolve-now", &host, json!({})).await;
        assert_eq!(reply.status, StatusCode::OK);
        let view = wait_for_round(&app, &lobby, 2).await;
        assert_eq!(view["deadline_at"], Value::Null, "still no deadline");
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await
            .body;
        assert!(
            round["orders"]
                .as_array()
                .unwrap()
                .iter()
                .all(|o| o["source"] == "default")
        );
        let resolved: Vec<Value> = event_kinds(&app, &lobby)
            .await
            .into_iter()
            .filter(|(k, _)| k == "step-resolved")
            .map(|(_, d)| d)
            .collect();
        assert_eq!(resolved[0]["timed_out"], true);
    }
}
