//! The secrecy walk (docs/table-talk.md): before the game is over, no view, page, forum post,
//! event, notification (a standard and a Discord webhook, mail through an SMTP server, each
//! checked to have delivered something), log line or archive shows a private message's text,
//! its id or that it was sent to anyone but its sender and recipient; nor a draw vote before
//! its step is revealed; nor, in an anonymous game, a player's real name or his profile's
//! handle.
//! Once the game is over, with the reveal, everyone reads the message and the real names.

use std::io::Write;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{Method, StatusCode};
use serde_json::json;
use tracing_subscriber::fmt::MakeWriter;

use crate::api_secrecy::EventReader;
use crate::notify_mail::with_smtp;
use crate::notify_receivers::{Behaviour, Receiver, eventually, settings, settle};
use crate::pages_client::Visitor;
use crate::support::{TestApp, notify_apps};

/// The log lines written while the guard of [`Logs::install`] is held.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl Write for Logs {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Logs {
    type Writer = Logs;
    fn make_writer(&'a self) -> Logs {
        self.clone()
    }
}

/// Everything a reader who is neither the sender nor the recipient can reach: (what, text).
async fn everything_cat_and_others_see(
    app: &TestApp,
    lobby: &str,
    host: &str,
    cat: &str,
) -> Vec<(String, String)> {
    let base = format!("/api/v1/lobbies/{lobby}");
    let mut seen = Vec::new();
    for (what, path, token) in [
        ("the lobby view", base.clone(), None),
        ("cat's me", format!("{base}/me"), Some(cat)),
        ("the rounds", format!("{base}/rounds"), None),
        ("round 1", format!("{base}/rounds/1"), Some(cat)),
        ("the archive", format!("{base}/archive"), None),
        ("the messages, anyone", format!("{base}/messages"), None),
        (
            "the messages, the host",
            format!("{base}/messages"),
            Some(host),
        ),
        ("the messages, cat", format!("{base}/messages"), Some(cat)),
        ("the webhooks", format!("{base}/webhooks"), Some(host)),
        ("the lobby list", "/api/v1/lobbies".to_owned(), None),
        ("the profile", format!("/api/v1/profiles/{HANDLE}"), None),
    ] {
        seen.push((what.to_owned(), app.get(&path, token).await.text));
    }
    for (what, reader) in [
        (
            "the lobby stream",
            EventReader::open(app, lobby, Some("0")).await,
        ),
        (
            "cat's stream",
            EventReader::open_path(app, &format!("{base}/me/events"), Some(cat), Some("0")).await,
        ),
    ] {
        let mut reader = reader;
        let mut text = String::new();
        while let Some(event) = reader.next().await {
            text.push_str(&format!("{} {}\n", event.kind, event.data));
        }
        seen.push((what.to_owned(), text));
    }
    // Who opens which page: 0 a visitor, 1 the host, 2 Cat.
    let mut browsers = [Visitor::new(app), Visitor::new(app), Visitor::new(app)];
    browsers[1]
        .get(&format!("/lobbies/{lobby}/as/{host}"))
        .await;
    browsers[2].get(&format!("/lobbies/{lobby}/as/{cat}")).await;
    for (what, who, path) in [
        ("the lobby page", 0, format!("/lobbies/{lobby}")),
        ("round 1's page", 0, format!("/lobbies/{lobby}/rounds/1")),
        ("the whole game post", 0, format!("/lobbies/{lobby}/export")),
        ("the host panel", 1, format!("/lobbies/{lobby}/host")),
        ("cat's page", 2, format!("/lobbies/{lobby}/play")),
        ("cat's talk", 2, format!("/lobbies/{lobby}/play/talk")),
        ("the front page", 0, "/".to_owned()),
        ("the profile page", 0, format!("/u/{HANDLE}")),
    ] {
        seen.push((what.to_owned(), browsers[who].get(&path).await.html));
    }
    seen
}

/// The handle of the profile that holds the first seat.
const HANDLE: &str = "Quillon-Q";
/// The names the other two players join under (the first takes the handle).
const REAL: [&str; 2] = ["Brangwen-Q", "Cadfael-Q"];

#[tokio::test]
async fn no_message_vote_or_real_name_reaches_anyone_anywhere_until_the_reveal() {
    let (with_mail, inbox) = with_smtp(settings());
    for app in notify_apps(with_mail).await {
        inbox.lock().unwrap().clear();
        let logs = Logs::default();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(logs.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::TRACE)
            .finish();
        let _guard = tracing::subscriber::set_default(subscriber);
        let hook = Receiver::start(Behaviour::Accept).await;
        let discord = Receiver::start(Behaviour::Accept).await;
        let (lobby, host) = app
            .create_lobby(
                "crossing-swords",
                json!({"press": "full", "anonymous": true}),
            )
            .await;
        let base = format!("/api/v1/lobbies/{lobby}");
        let events = herald::store::outbox::NOTIFIABLE;
        for (url, format) in [(&hook.url, "standard"), (&discord.url, "discord")] {
            let reply = app
                .post(
                    &format!("{base}/webhooks"),
                    Some(&host),
                    json!({"url": url, "format": format, "events": events}),
                )
                .await;
            assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        }
        // A message is not a kind a channel can ask for.
        let refused = app
            .post(
                &format!("{base}/webhooks"),
                Some(&host),
                json!({"url": hook.url, "format": "standard", "events": ["message"]}),
            )
            .await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.text
        );
        let key = app
            .post("/api/v1/profiles", None, json!({"handle": HANDLE}))
            .await
            .body["key"]
            .as_str()
            .unwrap()
            .to_owned();
        let bound = app
            .post(&format!("{base}/players"), Some(&key), json!({}))
            .await;
        assert_eq!(bound.status, StatusCode::CREATED, "{}", bound.text);
        let mut p = vec![(
            bound.body["player_id"].as_str().unwrap().to_owned(),
            key.clone(),
        )];
        for (seat, name) in REAL.into_iter().enumerate() {
            let joined = app.join(&lobby, json!({"name": name})).await;
            // The addresses name no one: a real name in a mail must come from its text.
            let mail = json!({"email": format!("seat{}@example.org", seat + 2)});
            let set = app
                .send(
                    Method::PUT,
                    &format!("{base}/me/notifications"),
                    Some(&joined.1),
                    Some(Body::from(mail.to_string())),
                )
                .await;
            assert_eq!(set.status, StatusCode::OK, "{}", set.text);
            p.push(joined);
        }
        app.start(&lobby, &host).await;
        let secret = "SECRET-PACT-7Q";
        let sent = app
            .post(
                &format!("{base}/messages"),
                Some(&p[0].1),
                json!({"to": [p[1].0], "text": secret}),
            )
            .await;
        assert_eq!(sent.status, StatusCode::CREATED, "{}", sent.text);
        let message_id = sent.body["id"].as_str().unwrap().to_owned();
        // A round resolves, so that the round's views, pages and posts exist.
        for (author, target) in [(0, 1), (1, 2), (2, 0)] {
            let body =
                json!({"round": 1, "step": "orders", "move": "strike", "target": p[target].0});
            let reply = app
                .post(&format!("{base}/orders"), Some(&p[author].1), body)
                .await;
            assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        }
        // Round 2: the first player's order carries a draw vote, not revealed yet.
        let body = json!({"round": 2, "step": "orders", "move": "strike", "target": p[1].0,
            "vote": "draw"});
        let voted = app
            .post(&format!("{base}/orders"), Some(&p[0].1), body)
            .await;
        assert_eq!(voted.status, StatusCode::ACCEPTED, "{}", voted.text);
        settle().await;
        let walked = everything_cat_and_others_see(&app, &lobby, &host, &p[2].1).await;
        assert!(walked.len() >= 21);
        for (what, text) in &walked {
            if what.starts_with("the profile") {
                // The profile is the handle's own: it must not list the game.
                assert!(
                    !text.contains(&lobby),
                    "{}: {what} lists the game",
                    app.backend
                );
                continue;
            }
            for real in [HANDLE, REAL[0], REAL[1]] {
                assert!(
                    !text.contains(real),
                    "{}: {what} names {real} in an anonymous game",
                    app.backend
                );
            }
            assert!(
                !text.contains("\"vote\":\"draw\"") && !text.contains("Voted for a draw"),
                "{}: {what} shows a vote before its reveal",
                app.backend
            );
        }
        for (what, text) in &walked {
            assert!(
                !text.contains(secret),
                "{}: {what} shows the text",
                app.backend
            );
            assert!(
                !text.contains(&message_id),
                "{}: {what} shows the message",
                app.backend
            );
        }
        // Something was delivered on every channel, so that the checks below check something.
        eventually("the mails", || inbox.lock().unwrap().len() >= 2).await;
        let mut delivered: Vec<(&str, String)> = Vec::new();
        for (channel, receiver) in [("the webhook", &hook), ("the Discord webhook", &discord)] {
            for delivery in receiver.wait_for(1).await {
                assert!(!delivery.body.is_empty(), "{channel}: an empty body");
                delivered.push((
                    channel,
                    String::from_utf8_lossy(&delivery.body).into_owned(),
                ));
            }
        }
        for mail in inbox.lock().unwrap().iter() {
            // Quoted-printable soft line breaks joined, so that no word hides across a line.
            delivered.push(("a mail", mail.raw.replace("=\r\n", "")));
        }
        for (channel, body) in &delivered {
            assert!(
                !body.contains(secret) && !body.contains(&message_id),
                "{channel} shows the message: {body}"
            );
            for real in [
                HANDLE,
                REAL[0],
                REAL[1],
                "\"vote\":\"draw\"",
                "Voted for a draw",
            ] {
                assert!(!body.contains(real), "{channel} shows {real}: {body}");
            }
        }
        let outbox: Vec<(String,)> = {
            use sqlx::Connection;
            let mut conn = sqlx::AnyConnection::connect(&app.url).await.unwrap();
            sqlx::query_as(
                "SELECT kind FROM notify_outbox WHERE lobby_id = $1 AND kind = 'message'",
            )
            .bind(&lobby)
            .fetch_all(&mut conn)
            .await
            .unwrap()
        };
        assert!(outbox.is_empty(), "a message was owed to a channel");
        let logged = String::from_utf8_lossy(&logs.0.lock().unwrap()).into_owned();
        assert!(!logged.is_empty(), "the logs were captured");
        assert!(!logged.contains(secret), "a log line shows the text");
        // Nor the message's id, nor its recipient beside it, nor the vote.
        assert!(
            !logged.contains(&message_id),
            "a log line shows the message"
        );
        let told = logged
            .lines()
            .find(|l| l.contains("message") && l.contains(p[1].0.as_str()));
        assert!(told.is_none(), "a log line shows the recipient: {told:?}");
        let voted = logged.lines().find(|l| l.contains("vote"));
        assert!(voted.is_none(), "a log line shows the vote: {voted:?}");
        for real in [HANDLE, REAL[0], REAL[1]] {
            // The walk's own requests for the profile name its handle in their paths.
            let line = logged
                .lines()
                .filter(|l| !l.contains(&format!("/profiles/{HANDLE}")))
                .filter(|l| !l.contains(&format!("/u/{HANDLE}")))
                .find(|l| l.contains(real));
            assert!(line.is_none(), "a log line names {real}: {line:?}");
        }

        // The game ends: the message is everyone's, in the views and pages that list messages.
        let end = app
            .post(&format!("{base}/end"), Some(&host), json!({}))
            .await;
        assert_eq!(end.status, StatusCode::OK, "{}", end.text);
        let walked = everything_cat_and_others_see(&app, &lobby, &host, &p[2].1).await;
        for shows in [
            "the archive",
            "the messages, anyone",
            "the messages, cat",
            "the lobby page",
        ] {
            let (_, text) = walked.iter().find(|(what, _)| what == shows).unwrap();
            assert!(
                text.contains(secret),
                "{}: {shows} after the reveal",
                app.backend
            );
        }
        // And the real names, in the views, the pages, the archive and on the profile.
        for shows in [
            "the lobby view",
            "the archive",
            "the lobby page",
            "the profile",
            "the profile page",
        ] {
            let (_, text) = walked.iter().find(|(what, _)| what == shows).unwrap();
            assert!(
                text.contains(REAL[1]) || (shows.contains("profile") && text.contains(&lobby)),
                "{}: {shows} after the end: {text}",
                app.backend
            );
        }
    }
}
