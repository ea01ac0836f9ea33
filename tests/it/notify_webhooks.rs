//! Lobby webhooks against real local receivers: what arrives, signed how, exactly once; the
//! host's routes and what they show.

use std::collections::HashSet;

use axum::http::{Method, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Value, json};
use sha2::Sha256;

use crate::notify_receivers::{Behaviour, Receiver, settings, settle};
use crate::support::{TestApp, notify_apps};

/// Adds a webhook and returns (its id, its secret or null).
pub async fn add_webhook(
    app: &TestApp,
    lobby: &str,
    host: &str,
    url: &str,
    format: &str,
    events: &[&str],
) -> (String, Value) {
    let reply = app
        .post(
            &format!("/api/v1/lobbies/{lobby}/webhooks"),
            Some(host),
            json!({"url": url, "format": format, "events": events}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    (
        reply.body["id"].as_str().unwrap().to_string(),
        reply.body["secret"].clone(),
    )
}

/// Checks a Standard Webhooks signature independently of Herald's signing code.
pub fn verify(secret: &str, id: &str, timestamp: &str, body: &[u8], signature: &str) -> bool {
    let key = STANDARD
        .decode(secret.strip_prefix("whsec_").expect("whsec_ prefix"))
        .expect("base64 key");
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body);
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    signature.split(' ').any(|s| s == expected)
}

async fn three_players(app: &TestApp, lobby: &str) -> Vec<(String, String)> {
    let mut players = Vec::new();
    for name in ["Ann", "Bob", "Cat"] {
        players.push(app.join(lobby, json!({"name": name})).await);
    }
    players
}

#[tokio::test]
async fn a_standard_webhook_gets_each_subscribed_event_once_signed() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (_, secret) = add_webhook(
            &app,
            &lobby,
            &host,
            &receiver.url,
            "standard",
            &["player-joined", "started"],
        )
        .await;
        let secret = secret
            .as_str()
            .expect("a standard webhook's secret")
            .to_string();
        assert!(secret.starts_with("whsec_"));
        three_players(&app, &lobby).await;
        app.start(&lobby, &host).await;
        let got = receiver.wait_for(4).await;
        settle().await;
        let got_now = receiver.got();
        assert_eq!(
            got_now.len(),
            4,
            "{}: exactly the 4 subscribed events",
            app.backend
        );
        let mut ids = HashSet::new();
        let mut kinds = Vec::new();
        for message in &got {
            let (id, ts, sig) = (
                message.header("webhook-id"),
                message.header("webhook-timestamp"),
                message.header("webhook-signature"),
            );
            assert!(
                verify(&secret, id, ts, &message.body, sig),
                "signature of {id}"
            );
            assert!(ids.insert(id.to_string()), "ids differ between messages");
            let body = message.json();
            assert_eq!(body["data"]["lobby"]["id"], lobby.as_str());
            kinds.push(body["type"].as_str().unwrap().to_string());
        }
        kinds.sort();
        assert_eq!(
            kinds,
            [
                "lobby.player-joined",
                "lobby.player-joined",
                "lobby.player-joined",
                "lobby.started"
            ]
        );
        // A wrong secret does not verify.
        let other = herald::notify::sign::new_secret();
        let m = &got[0];
        assert!(!verify(
            &other,
            m.header("webhook-id"),
            m.header("webhook-timestamp"),
            &m.body,
            m.header("webhook-signature")
        ));

        // The host sees each delivery, and only the URL's scheme and host.
        let list = app
            .get(&format!("/api/v1/lobbies/{lobby}/webhooks"), Some(&host))
            .await;
        assert_eq!(list.status, StatusCode::OK);
        let hook = &list.body["webhooks"][0];
        assert_eq!(hook["deliveries"].as_array().unwrap().len(), 4);
        assert!(
            hook["deliveries"]
                .as_array()
                .unwrap()
                .iter()
                .all(|d| d["status"] == 204)
        );
        assert!(!list.text.contains("receiver-secret"), "{}", list.text);
        assert!(!list.text.contains("whsec_"), "the secret is shown once");
        assert_eq!(hook["enabled"], true);
    }
}

/// The SQLite writer remembers the lobbies it found with no subscription, to skip the outbox
/// for their events; a webhook added later must still hear every event after it.
#[tokio::test]
async fn a_webhook_added_after_the_lobbys_first_events_hears_every_event_after_it() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        app.join(&lobby, json!({"name": "Ann"})).await;
        add_webhook(
            &app,
            &lobby,
            &host,
            &receiver.url,
            "standard",
            &["player-joined"],
        )
        .await;
        for name in ["Bob", "Cat"] {
            app.join(&lobby, json!({"name": name})).await;
        }
        receiver.wait_for(2).await;
        settle().await;
        let got = receiver.got();
        assert_eq!(got.len(), 2, "{}: Bob's and Cat's joins only", app.backend);
        for message in &got {
            assert_eq!(message.json()["type"], "lobby.player-joined");
            assert!(!String::from_utf8_lossy(&message.body).contains("Ann joined"));
        }
    }
}

#[tokio::test]
async fn a_discord_webhook_gets_discords_shape() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (_, secret) =
            add_webhook(&app, &lobby, &host, &receiver.url, "discord", &["started"]).await;
        assert_eq!(
            secret,
            Value::Null,
            "discord's URL is its secret; none is made"
        );
        three_players(&app, &lobby).await;
        app.start(&lobby, &host).await;
        let got = receiver.wait_for(1).await;
        let body = got[0].json();
        assert!(got[0].header("webhook-signature").is_empty());
        let content = body["content"].as_str().unwrap();
        assert!(content.chars().count() <= 2000 && content.contains("Test lobby"));
        let embed = &body["embeds"][0];
        assert!(embed["title"].as_str().unwrap().chars().count() <= 256);
        assert!(embed["description"].as_str().unwrap().chars().count() <= 4096);
        assert_eq!(embed["url"], format!("http://herald.test/lobbies/{lobby}"));
        assert_eq!(body["allowed_mentions"], json!({"parse": []}));
    }
}

#[tokio::test]
async fn the_host_tests_deletes_and_is_the_only_one_who_may() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (_, player) = app.join(&lobby, json!({"name": "Ann"})).await;
        let path = format!("/api/v1/lobbies/{lobby}/webhooks");
        let body = json!({"url": receiver.url, "format": "standard", "events": ["started"]});
        assert_eq!(
            app.post(&path, None, body.clone()).await.status,
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(
            app.post(&path, Some(&player), body.clone()).await.status,
            StatusCode::FORBIDDEN
        );
        for (bad, status, code) in [
            (
                json!({"url": receiver.url, "format": "slack", "events": ["started"]}),
                422,
                "invalid-format",
            ),
            (
                json!({"url": receiver.url, "format": "standard", "events": ["submitted"]}),
                422,
                "unknown-event",
            ),
            (
                json!({"url": receiver.url, "format": "standard", "events": []}),
                422,
                "no-events",
            ),
            (
                json!({"url": "ftp://x/", "format": "standard", "events": ["started"]}),
                422,
                "invalid-url",
            ),
            (
                json!({"url": receiver.url, "format": "standard"}),
                400,
                "invalid-body",
            ),
            (
                json!({"url": receiver.url, "format": "standard", "events": ["started"], "x": 1}),
                400,
                "invalid-body",
            ),
            (
                json!({"url": 5, "format": "standard", "events": ["started"]}),
                400,
                "invalid-body",
            ),
        ] {
            let reply = app.post(&path, Some(&host), bad.clone()).await;
            assert_eq!(
                (reply.status.as_u16(), reply.code()),
                (status, code),
                "{bad}"
            );
        }
        assert_eq!(
            app.get(&path, Some(&host)).await.body["webhooks"],
            json!([]),
            "nothing stored"
        );

        let (id, _) =
            add_webhook(&app, &lobby, &host, &receiver.url, "standard", &["started"]).await;
        let test = app
            .post(&format!("{path}/{id}/test"), Some(&host), json!({}))
            .await;
        assert_eq!(test.status, StatusCode::ACCEPTED, "{}", test.text);
        let got = receiver.wait_for(1).await;
        assert_eq!(got[0].json()["type"], "lobby.test");
        assert_eq!(
            got[0].header("webhook-id"),
            test.body["delivery_id"].as_str().unwrap()
        );

        let unknown = uuid::Uuid::new_v4();
        for (method, p) in [
            (Method::DELETE, format!("{path}/{unknown}")),
            (Method::POST, format!("{path}/{unknown}/test")),
            (Method::POST, format!("{path}/not-a-uuid/enable")),
        ] {
            let reply = app.send(method, &p, Some(&host), None).await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND, "{p}");
        }
        let deleted = app
            .send(Method::DELETE, &format!("{path}/{id}"), Some(&host), None)
            .await;
        assert_eq!(deleted.status, StatusCode::NO_CONTENT);
        assert_eq!(
            app.get(&path, Some(&host)).await.body["webhooks"],
            json!([])
        );
        // Events after the deletion go nowhere.
        app.join(&lobby, json!({"name": "Bob"})).await;
        app.start(&lobby, &host).await;
        settle().await;
        assert_eq!(receiver.got().len(), 1, "{}", app.backend);
    }
}

#[tokio::test]
async fn the_notification_routes_answer_as_the_document_says() {
    use crate::api_openapi_strict::{assert_fits, component, document};
    for app in notify_apps(settings()).await {
        let doc = document(&app).await;
        let receiver = Receiver::start(Behaviour::Accept).await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (_, player) = app.join(&lobby, json!({"name": "Ann"})).await;
        let path = format!("/api/v1/lobbies/{lobby}/webhooks");
        let created = app
            .post(
                &path,
                Some(&host),
                json!({"url": receiver.url, "format": "standard", "events": ["player-joined"]}),
            )
            .await;
        assert_fits(&doc, &component("WebhookCreated"), &created.body, "created");
        let id = created.body["id"].as_str().unwrap();
        let test = app
            .post(&format!("{path}/{id}/test"), Some(&host), json!({}))
            .await;
        assert_eq!(test.status, StatusCode::ACCEPTED);
        receiver.wait_for(1).await;
        app.join(&lobby, json!({"name": "Bob"})).await;
        receiver.wait_for(2).await;
        let list = app.get(&path, Some(&host)).await;
        let schema = &doc["paths"]["/api/v1/lobbies/{id}/webhooks"]["get"]["responses"]["200"]["content"]
            ["application/json"]["schema"];
        assert_fits(&doc, schema, &list.body, "the list");
        let enabled = app
            .post(&format!("{path}/{id}/enable"), Some(&host), json!({}))
            .await;
        assert_fits(&doc, &component("Webhook"), &enabled.body, "enabled");
        let mine = app
            .send(
                Method::PUT,
                &format!("/api/v1/lobbies/{lobby}/me/notifications"),
                Some(&player),
                Some(axum::body::Body::from(
                    json!({"webhook_url": receiver.url, "events": ["finished"]}).to_string(),
                )),
            )
            .await;
        assert_eq!(mine.status, StatusCode::OK, "{}", mine.text);
        assert_fits(&doc, &component("MyNotifications"), &mine.body, "mine");
        assert!(mine.body["secret"].as_str().unwrap().starts_with("whsec_"));
        let refused = app.post(&path, Some(&player), json!({})).await;
        assert_fits(&doc, &component("Error"), &refused.body, "an error");
        let cleared = app
            .send(
                Method::DELETE,
                &format!("/api/v1/lobbies/{lobby}/me/notifications"),
                Some(&player),
                None,
            )
            .await;
        assert_eq!(cleared.status, StatusCode::NO_CONTENT);
    }
}

/// What a notice says is read from the lobby as the public sees it: a join counts the seats
/// taken, a resolved round quotes that round's public log as its page shows it.
#[tokio::test]
async fn a_notice_counts_the_seats_and_quotes_the_rounds_public_log() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let (lobby, host) = app
            .create_lobby("crossing-swords", json!({"max_players": 4}))
            .await;
        add_webhook(
            &app,
            &lobby,
            &host,
            &receiver.url,
            "standard",
            &["player-joined", "round-resolved"],
        )
        .await;
        let mut players = Vec::new();
        for name in ["Ann", "Bob"] {
            players.push(app.join(&lobby, json!({"name": name})).await);
            // One at a time, so that each join's notice counts the seats taken by then.
            receiver.wait_for(players.len()).await;
        }
        app.start(&lobby, &host).await;
        app.strike_each_other(&lobby, &players).await;
        let got = receiver.wait_for(3).await;
        let bodies: Vec<Value> = got.iter().map(|m| m.json()).collect();
        let summaries: Vec<&str> = bodies
            .iter()
            .map(|b| b["data"]["summary"].as_str().unwrap())
            .collect();
        assert_eq!(
            summaries[..2],
            ["1 of 4 seats taken.", "2 of 4 seats taken."],
            "{}",
            app.backend
        );
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await;
        // The page reads each entry in words (`rules::Event::words`), not as stored.
        let lines: Vec<String> = round.body["log"]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| {
                let event: herald::rules::crossing_swords::events::Event =
                    serde_json::from_value(entry.clone()).unwrap();
                herald::rules::Event::words(&event)
            })
            .collect();
        assert!(!lines.is_empty());
        assert_eq!(bodies[2]["type"], "lobby.round-resolved");
        assert_eq!(bodies[2]["data"]["title"], "Test lobby: round 1 is out");
        // The round's public log, then the line a forum host adds: when the next is due.
        let (log, next) = summaries[2]
            .split_once("\n\n")
            .unwrap_or_else(|| panic!("{}", summaries[2]));
        assert_eq!(log, lines.join("\n"), "{}", app.backend);
        assert!(next.starts_with("Orders for round 2 "), "{next}");
    }
}
