//! Profiles (docs/identity.md): made without a password, reached by keys shown once, handles
//! unique however disguised; seats bound by joining with a key or claimed with their private
//! link; a profile key on its seats' player routes; the lobby's gates.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{TestApp, apps};

/// Makes a profile and returns (its key, the reply's body).
pub async fn profile(app: &TestApp, handle: &str) -> (String, Value) {
    let reply = app
        .post("/api/v1/profiles", None, json!({"handle": handle}))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    (
        reply.body["key"].as_str().unwrap().to_string(),
        reply.body["profile"].clone(),
    )
}

/// Joins `lobby` with a profile key: (player id, player token).
pub async fn join_as(app: &TestApp, lobby: &str, key: &str, body: Value) -> (String, String) {
    let reply = app
        .post(&format!("/api/v1/lobbies/{lobby}/players"), Some(key), body)
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    (
        reply.body["player_id"].as_str().unwrap().to_string(),
        reply.body["player_token"].as_str().unwrap().to_string(),
    )
}

#[tokio::test]
async fn a_profile_is_made_with_a_handle_and_reached_by_its_key() {
    for app in apps().await {
        let (key, view) = profile(&app, "  Zoe\u{301}   Barnes ").await;
        assert!(key.starts_with("hpk_") && key.len() == 68, "{key}");
        assert_eq!(view["handle"], "Zo\u{e9} Barnes", "normalised as names are");
        assert_eq!(view["kind"], "human");
        assert_eq!(view["owner"], Value::Null);
        assert_eq!(view["games"], json!([]));
        assert_eq!(view["ratings"], json!([]));
        assert_eq!(
            view["reliability"],
            json!({"owed": 0, "on_time": 0, "missed": 0, "excused": 0, "score": 100, "tier": "new"})
        );
        // Unique on the confusable key: case, decomposition and a Cyrillic А are all taken.
        for twin in ["ZOÉ BARNES", "Zo\u{e9}  barnes", "Zoe\u{301} B\u{430}rnes"] {
            let reply = app
                .post("/api/v1/profiles", None, json!({"handle": twin}))
                .await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::CONFLICT, "handle-taken"),
                "{}: {twin}",
                app.backend
            );
        }
        for (bad, code) in [
            ("ab", "invalid-handle"),
            (&"x".repeat(25)[..], "invalid-handle"),
            ("A\u{202e}nn", "invalid-name"),
        ] {
            let reply = app
                .post("/api/v1/profiles", None, json!({"handle": bad}))
                .await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::UNPROCESSABLE_ENTITY, code),
                "{bad}"
            );
        }
        let reply = app
            .post(
                "/api/v1/profiles",
                None,
                json!({"handle": "Zed", "extra": 1}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST);

        // Public by handle, matched as handles compare; 404 for none.
        let public = app.get("/api/v1/profiles/zo%C3%A9%20barnes", None).await;
        assert_eq!(public.status, StatusCode::OK, "{}", public.text);
        assert_eq!(public.body["handle"], "Zo\u{e9} Barnes");
        let none = app.get("/api/v1/profiles/nobody", None).await;
        assert_eq!(
            (none.status, none.code()),
            (StatusCode::NOT_FOUND, "unknown-profile")
        );

        let me = app.get("/api/v1/me", Some(&key)).await;
        assert_eq!(me.status, StatusCode::OK, "{}", me.text);
        assert_eq!(me.body["handle"], "Zo\u{e9} Barnes");
        assert_eq!(me.body["seats"], json!([]));
        for token in [
            None,
            Some("hpk_".to_string() + &"0".repeat(64)),
            Some("nonsense".into()),
        ] {
            let reply = app.get("/api/v1/me", token.as_deref()).await;
            assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{token:?}");
        }
        assert!(!public.text.contains(&key) && !me.text.contains(&key));
    }
}

#[tokio::test]
async fn keys_are_added_and_revoked_and_a_revoked_key_is_401_at_once() {
    for app in apps().await {
        let (first, _) = profile(&app, "Keeper").await;
        let reply = app.post("/api/v1/me/keys", Some(&first), json!({})).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        let second = reply.body["key"].as_str().unwrap().to_string();
        let second_id = reply.body["key_id"].as_str().unwrap().to_string();
        assert_ne!(first, second);
        assert_eq!(
            app.get("/api/v1/me", Some(&second)).await.status,
            StatusCode::OK
        );
        let app = &app;
        let revoke = |key: String, id: String| async move {
            app.send(
                Method::DELETE,
                &format!("/api/v1/me/keys/{id}"),
                Some(&key),
                None,
            )
            .await
        };
        // The first key revokes the second; the second is unknown from then on.
        let reply = revoke(first.clone(), second_id.clone()).await;
        assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.text);
        assert_eq!(
            app.get("/api/v1/me", Some(&second)).await.status,
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(
            revoke(first.clone(), second_id).await.status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            revoke(first.clone(), "not-a-uuid".into()).await.status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            app.get("/api/v1/me", Some(&first)).await.status,
            StatusCode::OK
        );
    }
}

#[tokio::test]
async fn a_human_owns_bots_and_a_bot_owns_none() {
    for app in apps().await {
        let (human, _) = profile(&app, "Maker").await;
        let reply = app
            .post(
                "/api/v1/me/bots",
                Some(&human),
                json!({"handle": "Maker Bot"}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        assert_eq!(reply.body["profile"]["kind"], "bot");
        assert_eq!(reply.body["profile"]["owner"], "Maker");
        let bot = reply.body["key"].as_str().unwrap().to_string();
        let public = app.get("/api/v1/profiles/maker%20bot", None).await.body;
        assert_eq!(
            (public["kind"].clone(), public["owner"].clone()),
            (json!("bot"), json!("Maker"))
        );
        let reply = app
            .post("/api/v1/me/bots", Some(&bot), json!({"handle": "Bot Bot"}))
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::FORBIDDEN, "humans-only")
        );
        let reply = app
            .post("/api/v1/me/bots", None, json!({"handle": "Orphan"}))
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        let reply = app
            .post("/api/v1/me/bots", Some(&human), json!({"handle": "maker"}))
            .await;
        assert_eq!(reply.code(), "handle-taken");
    }
}

#[tokio::test]
async fn joining_with_a_key_binds_the_seat_and_the_key_plays_it() {
    for app in apps().await {
        let (key, _) = profile(&app, "Binder").await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (bound, bound_token) = join_as(&app, &lobby, &key, json!({})).await;
        let (other, _) = app.join(&lobby, json!({"name": "Walk-in"})).await;
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(
            view["players"][0]["name"], "Binder",
            "the handle is the default name"
        );
        // One seat per profile and lobby.
        let again = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/players"),
                Some(&key),
                json!({"name": "Twice"}),
            )
            .await;
        assert_eq!(
            (again.status, again.code()),
            (StatusCode::CONFLICT, "already-seated")
        );
        app.start(&lobby, &host).await;

        // The profile key works on the seat's player routes in place of its token.
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&key))
            .await;
        assert_eq!(me.status, StatusCode::OK, "{}", me.text);
        assert_eq!(me.body["player"]["id"], bound.as_str());
        let order = json!({"round": 1, "step": "orders", "move": "strike", "target": other});
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/orders"),
                Some(&key),
                order,
            )
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        let mine = app.get("/api/v1/me", Some(&key)).await.body;
        assert_eq!(mine["seats"][0]["player_id"], bound.as_str());
        assert_eq!(mine["seats"][0]["bound"], true);
        assert_eq!(mine["seats"][0]["status"], "running");
        assert_eq!(mine["games"][0]["holding"], "bound");

        // A new link for the seat ends the binding: the key no longer plays it.
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/players/{bound}/reissue"),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&key))
            .await;
        assert_eq!(
            (me.status, me.code()),
            (StatusCode::UNAUTHORIZED, "unknown-token")
        );
        assert_eq!(
            app.get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&bound_token))
                .await
                .status,
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(
            app.get("/api/v1/me", Some(&key)).await.body["seats"],
            json!([])
        );
        // The history keeps the game.
        let public = app.get("/api/v1/profiles/binder", None).await.body;
        assert_eq!(public["games"][0]["lobby"], lobby.as_str());
        // A profile key on another lobby's routes is 401; on a host route, not the host.
        let (elsewhere, elsewhere_host) = app.create_lobby("crossing-swords", json!({})).await;
        let reply = app
            .get(&format!("/api/v1/lobbies/{elsewhere}/me"), Some(&key))
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{elsewhere}/start"),
                Some(&key),
                json!({}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        let _ = elsewhere_host;
    }
}

#[tokio::test]
async fn a_seat_is_claimed_with_its_link_bound_before_the_start_retro_after() {
    for app in apps().await {
        let (ann, _) = profile(&app, "Claimer").await;
        let (bob, _) = profile(&app, "Rival").await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (seat, token) = app.join(&lobby, json!({"name": "Anon"})).await;
        let (late, late_token) = app.join(&lobby, json!({"name": "Late"})).await;
        let claim = |key: String, player: String, token: String| {
            let app = &app;
            let lobby = lobby.clone();
            async move {
                app.post(
                    &format!("/api/v1/lobbies/{lobby}/players/{player}/claim"),
                    Some(&key),
                    json!({"player_token": token}),
                )
                .await
            }
        };
        let reply = claim(ann.clone(), seat.clone(), late_token.clone()).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::FORBIDDEN, "wrong-token")
        );
        let reply = claim(ann.clone(), seat.clone(), token.clone()).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.body, json!({"player_id": seat, "holding": "bound"}));
        // Again: the same answer; by another profile: 409.
        assert_eq!(
            claim(ann.clone(), seat.clone(), token.clone()).await.body["holding"],
            "bound"
        );
        let reply = claim(bob.clone(), seat.clone(), token.clone()).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::CONFLICT, "seat-bound")
        );
        // One seat per profile.
        let reply = claim(ann.clone(), late.clone(), late_token.clone()).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::CONFLICT, "already-seated")
        );
        app.start(&lobby, &host).await;
        let reply = claim(bob.clone(), late.clone(), late_token.clone()).await;
        assert_eq!(reply.body["holding"], "retro", "{}", reply.text);
        let mine = app.get("/api/v1/me", Some(&bob)).await.body;
        assert_eq!(mine["seats"][0]["bound"], false);
        assert_eq!(mine["games"][0]["holding"], "retro");
        // A retro claim still lets the key play the seat.
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&bob))
            .await;
        assert_eq!(me.status, StatusCode::OK, "{}", me.text);
        let reply = claim("nonsense".into(), late.clone(), late_token.clone()).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        let reply = claim(
            bob.clone(),
            "6f1c1c9e-0000-4000-8000-000000000000".into(),
            late_token,
        )
        .await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND);
    }
}

#[tokio::test]
async fn the_gates_refuse_joins_with_their_codes_and_rated_needs_one_kind() {
    for app in apps().await {
        let (human, _) = profile(&app, "Person").await;
        let bot = app
            .post(
                "/api/v1/me/bots",
                Some(&human),
                json!({"handle": "Machine"}),
            )
            .await
            .body["key"]
            .as_str()
            .unwrap()
            .to_string();
        let gated = |settings: Value| app.create_lobby("crossing-swords", settings);
        let join = |lobby: String, key: Option<String>| {
            let app = &app;
            async move {
                app.post(
                    &format!("/api/v1/lobbies/{lobby}/players"),
                    key.as_deref(),
                    match key {
                        Some(_) => json!({}),
                        None => json!({"name": "Guest"}),
                    },
                )
                .await
            }
        };
        let (required, _) = gated(json!({"profile_required": true})).await;
        let view = app
            .get(&format!("/api/v1/lobbies/{required}"), None)
            .await
            .body;
        assert_eq!(view["settings"]["profile_required"], true);
        assert_eq!(view["settings"]["bots"], "allowed");
        let reply = join(required.clone(), None).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::FORBIDDEN, "profile-required")
        );
        assert_eq!(
            join(required.clone(), Some(human.clone())).await.status,
            StatusCode::CREATED
        );

        let (no_bots, _) = gated(json!({"bots": "forbidden"})).await;
        assert_eq!(
            join(no_bots.clone(), Some(bot.clone())).await.code(),
            "bots-forbidden"
        );
        assert_eq!(
            join(no_bots.clone(), None).await.status,
            StatusCode::CREATED
        );
        let (only_bots, _) = gated(json!({"bots": "only"})).await;
        assert_eq!(
            join(only_bots.clone(), Some(human.clone())).await.code(),
            "bots-only"
        );
        assert_eq!(
            join(only_bots.clone(), None).await.code(),
            "profile-required"
        );
        assert_eq!(
            join(only_bots.clone(), Some(bot.clone())).await.status,
            StatusCode::CREATED
        );

        let (strict, _) = gated(json!({"min_reliability": 100})).await;
        let view = app
            .get(&format!("/api/v1/lobbies/{strict}"), None)
            .await
            .body;
        assert_eq!(view["settings"]["profile_required"], true, "implied");
        assert_eq!(join(strict.clone(), None).await.code(), "profile-required");
        assert_eq!(
            join(strict.clone(), Some(human.clone())).await.status,
            StatusCode::CREATED,
            "a new profile scores 100"
        );

        for bad in [
            json!({"bots": "some"}),
            json!({"min_reliability": 101}),
            json!({"rated": "yes"}),
        ] {
            let reply = app
                .post(
                    "/api/v1/lobbies",
                    None,
                    json!({"game": "crossing-swords", "name": "G", "settings": bad}),
                )
                .await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::UNPROCESSABLE_ENTITY, "invalid-setting"),
                "{bad}"
            );
        }

        // Rated: one kind at every seat, or 422 at the start (the lobby stays as it was).
        let (rated, host) = gated(json!({"rated": true})).await;
        join(rated.clone(), Some(human.clone())).await;
        join(rated.clone(), Some(bot.clone())).await;
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{rated}/start"),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "mixed-kinds")
        );
        let view = app
            .get(&format!("/api/v1/lobbies/{rated}"), None)
            .await
            .body;
        assert_eq!(view["status"], "signups");
        let (second, _) = profile(&app, "Another").await;
        let (rated, host) = gated(json!({"rated": true})).await;
        join(rated.clone(), Some(human.clone())).await;
        join(rated.clone(), Some(second)).await;
        app.start(&rated, &host).await;
    }
}
