//! No profile key and no seat token shows anywhere but in the one reply that issues it: not in
//! a view, a profile, an event of either stream, an error, or a log line (at trace).

use axum::http::{Method, StatusCode};
use serde_json::json;

use crate::api_profiles::{join_as, profile};
use crate::api_secrecy::EventReader;
use crate::store_errors::Captured;
use crate::support::apps;

#[tokio::test]
async fn keys_and_tokens_appear_only_in_the_reply_that_issues_them() {
    for app in apps().await {
        let logs = Captured::default();
        let _guard = logs.install_trace();
        let (ann, _) = profile(&app, "Secretive").await;
        let extra = app.post("/api/v1/me/keys", Some(&ann), json!({})).await;
        let extra_key = extra.body["key"].as_str().unwrap().to_string();
        let bot = app
            .post(
                "/api/v1/me/bots",
                Some(&ann),
                json!({"handle": "Quiet Bot"}),
            )
            .await;
        let bot_key = bot.body["key"].as_str().unwrap().to_string();
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (a, a_token) = join_as(&app, &lobby, &ann, json!({})).await;
        let (b, b_token) = join_as(&app, &lobby, &bot_key, json!({})).await;
        app.start(&lobby, &host).await;
        let mut replies = Vec::new();
        let mut player_stream = EventReader::open_path(
            &app,
            &format!("/api/v1/lobbies/{lobby}/me/events"),
            Some(&ann),
            None,
        )
        .await;
        for (key, target) in [(&ann, &b), (&bot_key, &a)] {
            let order = json!({"round": 1, "step": "orders", "move": "strike", "target": target});
            replies.push(
                app.post(&format!("/api/v1/lobbies/{lobby}/orders"), Some(key), order)
                    .await,
            );
        }
        // Errors that name nothing: a revoked key, a key on a lobby it holds no seat in.
        let revoke = app
            .send(
                Method::DELETE,
                &format!("/api/v1/me/keys/{}", extra.body["key_id"].as_str().unwrap()),
                Some(&ann),
                None,
            )
            .await;
        assert_eq!(revoke.status, StatusCode::NO_CONTENT);
        replies.push(app.get("/api/v1/me", Some(&extra_key)).await);
        let (other, _) = app.create_lobby("crossing-swords", json!({})).await;
        replies.push(
            app.get(&format!("/api/v1/lobbies/{other}/me"), Some(&ann))
                .await,
        );
        replies.push(
            app.post(
                &format!("/api/v1/lobbies/{lobby}/players/{a}/claim"),
                Some(&bot_key),
                json!({"player_token": b_token}),
            )
            .await,
        );
        for path in [
            "/api/v1/me".to_string(),
            "/api/v1/profiles/secretive".into(),
            "/api/v1/profiles/quiet%20bot".into(),
            format!("/api/v1/lobbies/{lobby}"),
            format!("/api/v1/lobbies/{lobby}/me"),
            format!("/api/v1/lobbies/{lobby}/rounds/1"),
            format!("/api/v1/lobbies/{lobby}/archive"),
        ] {
            replies.push(app.get(&path, Some(&ann)).await);
        }
        let mut public_stream = EventReader::open(&app, &lobby, Some("0")).await;
        let mut streamed = String::new();
        while let Some(event) = public_stream.next().await {
            streamed.push_str(&format!("{} {}\n", event.kind, event.data));
        }
        while let Some(event) = player_stream.next().await {
            streamed.push_str(&format!("{} {}\n", event.kind, event.data));
        }
        assert!(streamed.contains("round-resolved"), "the streams were read");
        let logged = logs.text();
        assert!(!logged.is_empty(), "the log was captured");
        for secret in [&ann, &extra_key, &bot_key, &a_token, &b_token, &host] {
            for reply in &replies {
                assert!(
                    !reply.text.contains(secret.as_str()),
                    "{}: {}",
                    app.backend,
                    reply.text
                );
            }
            assert!(!streamed.contains(secret.as_str()), "{}", app.backend);
            assert!(
                !logged.contains(secret.as_str()),
                "{}: a secret in the log",
                app.backend
            );
        }
    }
}
