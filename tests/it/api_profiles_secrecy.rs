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

/// The sign-in ways (docs/identity.md, "A sign-in code by mail"; passkeys' credentials are
/// checked the same way in `pages_browser_passkeys.rs`, the only place a browser makes one):
/// no mail address, code, key or session secret in any page, error, API reply or log line.
#[tokio::test]
async fn mail_addresses_codes_and_sessions_appear_nowhere() {
    use crate::notify_mail::with_smtp;
    use crate::notify_receivers::settings;
    use crate::pages_client::Visitor;
    use crate::pages_sign_in_mail::{ANN, all_mailed, code_mailed_to, signed_in};
    use crate::support::notify_apps;

    let (with_mail, inbox) = with_smtp(settings());
    for app in notify_apps(with_mail).await {
        inbox.lock().unwrap().clear();
        // At trace, without timestamps: their microseconds would be six digits like a code.
        let logs = Captured::default();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(logs.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::TRACE)
            .without_time()
            .finish();
        let _guard = tracing::subscriber::set_default(subscriber);
        let mut ann = signed_in(&app, "Hush Ann").await;
        let mut pages = vec![ann.get("/me").await];
        pages.push(ann.post("/me/mail", &[("address", ANN)]).await);
        let attempt = pages.last().unwrap().input_value("attempt").unwrap();
        let confirm = code_mailed_to(&inbox, ANN, 0).await;
        pages.push(
            ann.post("/me/mail/confirm", &[("attempt", &attempt), ("code", "12")])
                .await,
        );
        pages.push(
            ann.post(
                "/me/mail/confirm",
                &[("attempt", &attempt), ("code", &confirm)],
            )
            .await,
        );
        pages.push(ann.get("/me").await);
        let mut phone = Visitor::new(&app);
        pages.push(phone.post("/me/code", &[("address", ANN)]).await);
        let attempt = pages.last().unwrap().input_value("attempt").unwrap();
        let code = code_mailed_to(&inbox, ANN, 1).await;
        pages.push(phone.post("/me/code", &[("address", "Not @ mail")]).await);
        pages.push(phone.post("/me/code", &[("address", ANN)]).await);
        pages.push(phone.post("/me/code", &[("address", ANN)]).await);
        assert_eq!(
            pages.last().unwrap().status,
            StatusCode::TOO_MANY_REQUESTS,
            "an error page is checked too"
        );
        pages.push(
            phone
                .post(
                    "/me/code/sign-in",
                    &[("attempt", &attempt), ("code", &code)],
                )
                .await,
        );
        let secret = phone.cookies["herald_session"].clone();
        pages.push(phone.get("/me").await);
        assert!(pages.last().unwrap().html.contains("Signed in as"));
        pages.push(phone.get("/u/hush%20ann").await);
        // The confirmation and two sign-in codes went out (the third ask was refused).
        all_mailed(&inbox, ANN, 3).await;
        let mut replies: Vec<String> = pages.iter().map(|p| p.html.clone()).collect();
        for page in &pages {
            replies.extend(
                page.headers
                    .iter()
                    .filter(|(name, _)| *name != "set-cookie")
                    .map(|(_, value)| value.to_str().unwrap_or("").to_string()),
            );
        }
        replies.push(app.get("/api/v1/profiles/hush%20ann", None).await.text);
        let logged = logs.text();
        assert!(!logged.is_empty(), "the log was captured");
        let ann_secret = ann.cookies["herald_session"].clone();
        for hidden in [ANN, "ann.mail@", &confirm, &code, &secret, &ann_secret] {
            for reply in &replies {
                assert!(
                    !shows(reply, hidden),
                    "{}: {hidden} in {reply}",
                    app.backend
                );
            }
            assert!(
                !shows(&logged, hidden),
                "{}: {hidden} in the log",
                app.backend
            );
        }
    }
}

/// Whether `text` shows `secret`: a code (six digits) only as a token of its own, since ids
/// and hex tokens hold runs of digits by chance.
fn shows(text: &str, secret: &str) -> bool {
    if !secret.bytes().all(|b| b.is_ascii_digit()) {
        return text.contains(secret);
    }
    let bytes = text.as_bytes();
    let apart =
        |i: Option<usize>| i.is_none_or(|i| !bytes[i].is_ascii_alphanumeric() && bytes[i] != b'-');
    text.match_indices(secret).any(|(at, _)| {
        apart(at.checked_sub(1)) && apart(Some(at + secret.len()).filter(|&i| i < bytes.len()))
    })
}
