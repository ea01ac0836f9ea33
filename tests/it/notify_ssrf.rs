//! A webhook URL cannot reach the server's own network: loopback, private, link-local and
//! metadata addresses, their IPv6 forms and names resolving to them are refused when the
//! webhook is added (nothing is stored, nothing sent), and a redirect is never followed.

use axum::http::StatusCode;
use serde_json::json;

use crate::notify_receivers::{Behaviour, Receiver, settings, settle};
use crate::notify_webhooks::add_webhook;
use crate::support::notify_apps;

#[tokio::test]
async fn private_targets_are_refused_before_anything_is_sent() {
    let refusing = herald::notify::Settings {
        allow_private: false,
        ..settings()
    };
    for app in notify_apps(refusing).await {
        // A live receiver on loopback: none of the refused URLs may reach it.
        let receiver = Receiver::start(Behaviour::Accept).await;
        let port = receiver
            .url
            .split(':')
            .nth(2)
            .unwrap()
            .split('/')
            .next()
            .unwrap()
            .to_string();
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let path = format!("/api/v1/lobbies/{lobby}/webhooks");
        for url in [
            receiver.url.clone(),
            format!("http://localhost:{port}/hook"),
            format!("http://[::1]:{port}/hook"),
            format!("http://[::ffff:127.0.0.1]:{port}/hook"),
            format!("http://[::ffff:7f00:1]:{port}/hook"),
            format!("http://127.1:{port}/hook"),
            format!("http://2130706433:{port}/hook"),
            "http://10.0.0.1/hook".into(),
            "http://172.16.5.4/hook".into(),
            "http://192.168.0.10/hook".into(),
            "http://169.254.169.254/latest/meta-data/".into(),
            "http://100.64.0.1/hook".into(),
            "http://[fd00::1]/hook".into(),
            "http://[fe80::1]/hook".into(),
            "http://0.0.0.0/hook".into(),
        ] {
            let reply = app
                .post(
                    &path,
                    Some(&host),
                    json!({"url": url, "format": "standard", "events": ["player-joined"]}),
                )
                .await;
            assert_eq!(
                reply.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{url}: {}",
                reply.text
            );
            assert_eq!(reply.code(), "forbidden-target", "{url}");
        }
        // The same refusal for a player's own webhook.
        let (_, player) = app.join(&lobby, json!({"name": "Ann"})).await;
        let mine = app
            .send(
                axum::http::Method::PUT,
                &format!("/api/v1/lobbies/{lobby}/me/notifications"),
                Some(&player),
                Some(axum::body::Body::from(
                    json!({"webhook_url": format!("http://localhost:{port}/")}).to_string(),
                )),
            )
            .await;
        assert_eq!(mine.code(), "forbidden-target", "{}", mine.text);
        assert_eq!(
            app.get(&path, Some(&host)).await.body["webhooks"],
            json!([])
        );
        settle().await;
        assert!(
            receiver.got().is_empty(),
            "{}: nothing reached loopback",
            app.backend
        );
    }
}

#[tokio::test]
async fn a_redirect_is_not_followed() {
    for app in notify_apps(settings()).await {
        // Where the redirect points: a private address that must get nothing.
        let inside = Receiver::start(Behaviour::Accept).await;
        let redirecting = Receiver::start(Behaviour::Redirect(inside.url.clone())).await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (hook, _) = add_webhook(
            &app,
            &lobby,
            &host,
            &redirecting.url,
            "standard",
            &["player-joined"],
        )
        .await;
        app.join(&lobby, json!({"name": "Ann"})).await;
        redirecting.wait_for(1).await;
        let start = std::time::Instant::now();
        let view = loop {
            let view = app
                .get(&format!("/api/v1/lobbies/{lobby}/webhooks"), Some(&host))
                .await
                .body;
            if view["webhooks"][0]["enabled"] == false {
                break view;
            }
            assert!(start.elapsed() < std::time::Duration::from_secs(10));
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        };
        let attempt = &view["webhooks"][0]["deliveries"][0];
        assert_eq!(attempt["status"], 302);
        assert!(
            attempt["error"]
                .as_str()
                .unwrap()
                .contains("redirects are not followed")
        );
        settle().await;
        assert!(
            inside.got().is_empty(),
            "{}: the redirect was followed",
            app.backend
        );
        assert_eq!(redirecting.got().len(), 1, "a redirect is not retried");
        let _ = hook;
    }
}
