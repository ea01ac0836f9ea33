//! The host's "Remind" (docs/notifications.md, "Reminders") over the API and the host panel,
//! against a real local receiver standing for a player's own webhook: what arrives, signed,
//! once per step however the requests race, and every refusal, which writes nothing.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::api_openapi_strict::{assert_fits, component, document};
use crate::notify_receivers::{Behaviour, Receiver, settings, settle};
use crate::notify_webhooks::verify;
use crate::pages_client::Visitor;
use crate::support::{TestApp, notify_apps};

/// Sets `token`'s player's own webhook to `url`, for `finished` only: a reminder goes to it
/// whatever events it chose. Returns its signing secret.
async fn own_webhook(app: &TestApp, lobby: &str, token: &str, url: &str) -> String {
    let reply = app
        .send(
            Method::PUT,
            &format!("/api/v1/lobbies/{lobby}/me/notifications"),
            Some(token),
            Some(axum::body::Body::from(
                json!({"webhook_url": url, "events": ["finished"]}).to_string(),
            )),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["secret"].as_str().unwrap().to_owned()
}

fn remind_path(lobby: &str, player: &str) -> String {
    format!("/api/v1/lobbies/{lobby}/players/{player}/remind")
}

async fn remind(
    app: &TestApp,
    lobby: &str,
    token: Option<&str>,
    player: &str,
) -> (StatusCode, String) {
    let reply = app
        .post(&remind_path(lobby, player), token, json!({}))
        .await;
    (reply.status, reply.code().to_owned())
}

async fn strike(app: &TestApp, lobby: &str, token: &str, target: &str) {
    let reply = app
        .post(
            &format!("/api/v1/lobbies/{lobby}/orders"),
            Some(token),
            json!({"round": 1, "step": "orders", "move": "strike", "target": target}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
}

/// A three-player melee of 8 rounds with an hour per step, not started: (lobby, host token,
/// the players' (id, token) for Ann, Bob and Cat).
async fn melee(app: &TestApp) -> (String, String, Vec<(String, String)>) {
    let (lobby, host) = app
        .create_lobby(
            "crossing-swords",
            json!({"max_rounds": 8, "deadline_seconds": 3600}),
        )
        .await;
    let mut players = Vec::new();
    for name in ["Ann", "Bob", "Cat"] {
        players.push(app.join(&lobby, json!({"name": name})).await);
    }
    (lobby, host, players)
}

#[tokio::test]
async fn a_reminder_reaches_the_players_own_webhook_once_with_the_step_and_deadline_and_no_secret()
{
    for app in notify_apps(settings()).await {
        let doc = document(&app).await;
        let receiver = Receiver::start(Behaviour::Accept).await;
        let (lobby, host, players) = melee(&app).await;
        let [(ann, ann_token), (bob, bob_token), (_, cat_token)] = &players[..] else {
            unreachable!()
        };
        let secret = own_webhook(&app, &lobby, ann_token, &receiver.url).await;
        app.start(&lobby, &host).await;
        // Bob's order is in, and names Ann: nothing of it may reach her.
        strike(&app, &lobby, bob_token, ann).await;

        let reply = app
            .post(&remind_path(&lobby, ann), Some(&host), json!({}))
            .await;
        assert_eq!(
            reply.status,
            StatusCode::ACCEPTED,
            "{}: {}",
            app.backend,
            reply.text
        );
        assert_fits(
            &doc,
            &component("ReminderReceipt"),
            &reply.body,
            "the receipt",
        );
        assert_eq!(
            (
                &reply.body["player_id"],
                &reply.body["round"],
                &reply.body["step"]
            ),
            (&json!(ann), &json!(1), &json!("orders"))
        );

        let got = receiver.wait_for(1).await;
        let message = &got[0];
        let body: Value = message.json();
        assert_eq!(body["type"], "lobby.reminder", "{}", app.backend);
        assert_eq!(body["data"]["title"], "Your answer is due in Test lobby");
        assert_eq!(
            body["data"]["summary"],
            "Round 1 of 8, step orders: your answer is due by 2026-12-01 01:00 UTC.\n\
             The host sent you this reminder."
        );
        assert_eq!(body["data"]["event"], Value::Null);
        assert!(verify(
            &secret,
            message.header("webhook-id"),
            message.header("webhook-timestamp"),
            &message.body,
            message.header("webhook-signature"),
        ));
        let text = String::from_utf8_lossy(&message.body);
        for secret_thing in [&host, ann_token, bob_token, cat_token, bob] {
            assert!(!text.contains(secret_thing.as_str()), "{text}");
        }
        for word in ["Bob", "Cat", "strike"] {
            assert!(!text.contains(word), "a reminder names {word}: {text}");
        }

        // A second reminder for the same step is refused and sends nothing.
        assert_eq!(
            remind(&app, &lobby, Some(&host), ann).await,
            (StatusCode::CONFLICT, "already-reminded".into())
        );
        settle().await;
        assert_eq!(receiver.got().len(), 1, "{}", app.backend);
    }
}

#[tokio::test]
async fn two_racing_reminders_for_one_step_deliver_one_notice() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let (lobby, host, players) = melee(&app).await;
        let (ann, ann_token) = &players[0];
        own_webhook(&app, &lobby, ann_token, &receiver.url).await;
        app.start(&lobby, &host).await;
        let (a, b) = tokio::join!(
            remind(&app, &lobby, Some(&host), ann),
            remind(&app, &lobby, Some(&host), ann)
        );
        let mut answers = vec![a, b];
        answers.sort();
        assert_eq!(
            answers,
            [
                (StatusCode::ACCEPTED, String::new()),
                (StatusCode::CONFLICT, "already-reminded".into())
            ],
            "{}",
            app.backend
        );
        receiver.wait_for(1).await;
        settle().await;
        assert_eq!(receiver.got().len(), 1, "{}", app.backend);
    }
}

#[tokio::test]
async fn a_reminder_is_refused_with_its_reason_and_a_refusal_writes_nothing() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let (lobby, host, players) = melee(&app).await;
        let [(ann, ann_token), (bob, bob_token), (cat, cat_token)] = &players[..] else {
            unreachable!()
        };
        own_webhook(&app, &lobby, ann_token, &receiver.url).await;
        own_webhook(&app, &lobby, bob_token, &receiver.url).await;
        let refused = |status: StatusCode, code: &str| (status, code.to_owned());

        assert_eq!(
            remind(&app, &lobby, Some(&host), ann).await,
            refused(StatusCode::CONFLICT, "not-started")
        );
        app.start(&lobby, &host).await;
        assert_eq!(
            remind(&app, &lobby, None, ann).await,
            refused(StatusCode::UNAUTHORIZED, "missing-token")
        );
        assert_eq!(
            remind(&app, &lobby, Some("not-a-token"), ann).await,
            refused(StatusCode::UNAUTHORIZED, "unknown-token")
        );
        assert_eq!(
            remind(&app, &lobby, Some(bob_token), ann).await,
            refused(StatusCode::FORBIDDEN, "host-only")
        );
        assert_eq!(
            remind(
                &app,
                &lobby,
                Some(&host),
                "6f1c1c9e-0000-4000-8000-000000000000"
            )
            .await,
            refused(StatusCode::NOT_FOUND, "unknown-player")
        );
        // Bob answered: nothing to remind him of.
        strike(&app, &lobby, bob_token, ann).await;
        assert_eq!(
            remind(&app, &lobby, Some(&host), bob).await,
            refused(StatusCode::CONFLICT, "nothing-owed")
        );
        // Cat has no notifications: refused, and nothing kept of it, so that once she sets
        // some up she can be reminded of this very step.
        let none = app
            .post(&remind_path(&lobby, cat), Some(&host), json!({}))
            .await;
        assert_eq!(
            (none.status, none.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "no-notifications"),
            "{}",
            app.backend
        );
        assert_eq!(
            none.body["error"]["message"],
            "Cat has no notifications set up: remind them in the thread."
        );
        settle().await;
        assert!(receiver.got().is_empty(), "{}", app.backend);
        own_webhook(&app, &lobby, cat_token, &receiver.url).await;
        assert_eq!(
            remind(&app, &lobby, Some(&host), cat).await.0,
            StatusCode::ACCEPTED
        );
        receiver.wait_for(1).await;

        // A kicked player owes nothing.
        let kicked = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/players/{ann}/kick"),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(kicked.status, StatusCode::OK, "{}", kicked.text);
        assert_eq!(
            remind(&app, &lobby, Some(&host), ann).await,
            refused(StatusCode::CONFLICT, "nothing-owed")
        );
        // Over: nothing is owed by anyone.
        let ended = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/end"),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(ended.status, StatusCode::OK, "{}", ended.text);
        assert_eq!(
            remind(&app, &lobby, Some(&host), bob).await,
            refused(StatusCode::CONFLICT, "game-over")
        );
        settle().await;
        let reminders = receiver
            .got()
            .iter()
            .filter(|m| m.json()["type"] == "lobby.reminder")
            .count();
        assert_eq!(reminders, 1, "{}", app.backend);
    }
}

/// The host panel offers "Remind" only beside a seat the step waits for and that has
/// notifications, says why not beside one that has none, and the plain form (no script) sends
/// it and then says "reminded".
#[tokio::test]
async fn the_panel_offers_remind_only_to_waiting_seats_and_its_form_works_without_script() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Friday melee").await;
        let mut players = Vec::new();
        for name in ["Ann", "Bob", "Cat"] {
            players.push(app.join(&lobby, json!({"name": name})).await);
        }
        let [(ann, ann_token), (bob, bob_token), (cat, _)] = &players[..] else {
            unreachable!()
        };
        own_webhook(&app, &lobby, ann_token, &receiver.url).await;
        own_webhook(&app, &lobby, bob_token, &receiver.url).await;
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(
            !panel.html.contains("/remind"),
            "no reminders before the start"
        );
        let started = host
            .post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        assert_eq!(started.status, StatusCode::SEE_OTHER, "{}", started.html);
        strike(&app, &lobby, bob_token, ann).await;

        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        let form = |id: &str| format!("action=\"/lobbies/{lobby}/host/players/{id}/remind\"");
        assert!(panel.html.contains(&form(ann)), "{}", panel.html);
        assert!(panel.html.contains("Remind Ann"));
        assert!(!panel.html.contains(&form(bob)), "Bob answered");
        assert!(!panel.html.contains(&form(cat)), "Cat has no notifications");
        assert!(
            panel
                .html
                .contains("Cat has no notifications set up: remind them in the thread."),
            "{}",
            panel.html
        );

        // Without the CSRF field the form is refused and nothing is sent.
        let forged = host
            .post_raw(&format!("/lobbies/{lobby}/host/players/{ann}/remind"), &[])
            .await;
        assert_ne!(forged.status, StatusCode::SEE_OTHER);
        let sent = host
            .post(&format!("/lobbies/{lobby}/host/players/{ann}/remind"), &[])
            .await;
        assert_eq!(
            (sent.status, sent.location()),
            (
                StatusCode::SEE_OTHER,
                format!("/lobbies/{lobby}/host").as_str()
            ),
            "{}",
            sent.html
        );
        receiver.wait_for(1).await;
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(!panel.html.contains(&form(ann)), "{}", panel.html);
        assert!(panel.html.contains(">reminded<"), "{}", panel.html);

        // Posted again (an old page, say), the panel says why, with the API's status.
        let again = host
            .post(&format!("/lobbies/{lobby}/host/players/{ann}/remind"), &[])
            .await;
        assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.html);
        assert!(
            again
                .html
                .contains("Ann was reminded of this step already.")
        );
        settle().await;
        assert_eq!(receiver.got().len(), 1, "{}", app.backend);
    }
}
