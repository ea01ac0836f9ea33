//! Table talk over HTTP on every backend (docs/table-talk.md): the press modes as the server
//! enforces them, who reads which message (the API, the streams, the archive) before and after
//! the reveal, the refusals that write nothing, and the per-player allowance.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::api_host_controls::event_kinds;
use crate::api_secrecy::{EventReader, SseEvent};
use crate::support::{TestApp, apps, manual_apps};

/// A started Crossing Swords game with Ann, Bob and Cat seated under `settings`; returns
/// (lobby, host token, [(id, token)]).
async fn game(app: &TestApp, settings: Value) -> (String, String, Vec<(String, String)>) {
    let (lobby, host) = app.create_lobby("crossing-swords", settings).await;
    let mut players = Vec::new();
    for name in ["Ann", "Bob", "Cat"] {
        players.push(app.join(&lobby, json!({"name": name})).await);
    }
    app.start(&lobby, &host).await;
    (lobby, host, players)
}

async fn send(
    app: &TestApp,
    lobby: &str,
    token: &str,
    to: Value,
    text: &str,
) -> (StatusCode, Value) {
    let reply = app
        .post(
            &format!("/api/v1/lobbies/{lobby}/messages"),
            Some(token),
            json!({"to": to, "text": text}),
        )
        .await;
    (reply.status, reply.body)
}

/// The texts of the messages `token` (None: anyone) reads.
async fn read(app: &TestApp, lobby: &str, token: Option<&str>) -> Vec<String> {
    let reply = app
        .get(&format!("/api/v1/lobbies/{lobby}/messages"), token)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_owned())
        .collect()
}

async fn end(app: &TestApp, lobby: &str, host: &str) {
    let reply = app
        .post(
            &format!("/api/v1/lobbies/{lobby}/end"),
            Some(host),
            json!({}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

/// Every event a stream has to give now.
async fn drain(mut reader: EventReader) -> Vec<SseEvent> {
    let mut events = Vec::new();
    while let Some(event) = reader.next().await {
        events.push(event);
    }
    events
}

fn message_texts(events: &[SseEvent]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e.kind == "message")
        .map(|e| e.data["text"].as_str().unwrap().to_owned())
        .collect()
}

async fn player_stream(app: &TestApp, lobby: &str, token: &str) -> EventReader {
    let path = format!("/api/v1/lobbies/{lobby}/me/events");
    EventReader::open_path(app, &path, Some(token), Some("0")).await
}

#[tokio::test]
async fn the_press_settings_default_to_none_with_the_reveal_and_refuse_other_values() {
    for app in apps().await {
        let (lobby, _host) = app.create_lobby("crossing-swords", json!({})).await;
        let view = app.get(&format!("/api/v1/lobbies/{lobby}"), None).await;
        assert_eq!(view.body["settings"]["press"], "none", "{}", view.text);
        assert_eq!(view.body["settings"]["press_reveal"], true);
        let (full, _) = app
            .create_lobby(
                "crossing-swords",
                json!({"press": "full", "press_reveal": false}),
            )
            .await;
        let view = app.get(&format!("/api/v1/lobbies/{full}"), None).await;
        assert_eq!(view.body["settings"]["press"], "full");
        assert_eq!(view.body["settings"]["press_reveal"], false);
        for bad in [json!({"press": "loud"}), json!({"press_reveal": "yes"})] {
            let reply = app
                .post(
                    "/api/v1/lobbies",
                    None,
                    json!({"game": "crossing-swords", "name": "Bad", "settings": bad}),
                )
                .await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::UNPROCESSABLE_ENTITY, "invalid-press-setting"),
                "{}: {}",
                app.backend,
                reply.text
            );
        }
    }
}

#[tokio::test]
async fn each_mode_allows_what_it_says_and_only_while_the_game_runs() {
    for app in apps().await {
        // No press: nothing at all.
        let (lobby, _host, p) = game(&app, json!({})).await;
        let (status, body) = send(&app, &lobby, &p[0].1, json!("all"), "Hello").await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (StatusCode::FORBIDDEN, &json!("press-forbidden"))
        );
        assert!(read(&app, &lobby, Some(&p[0].1)).await.is_empty());

        // Public press: to everyone only.
        let (lobby, _host, p) = game(&app, json!({"press": "public"})).await;
        let (status, body) = send(&app, &lobby, &p[0].1, json!([p[1].0]), "Psst").await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (StatusCode::FORBIDDEN, &json!("press-forbidden"))
        );
        let (status, body) = send(&app, &lobby, &p[0].1, json!("all"), "Hello all").await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        assert!(body["id"].is_string() && body["at"].is_string(), "{body}");
        assert_eq!(read(&app, &lobby, None).await, ["Hello all"]);

        // Full press: to everyone or to chosen players; not before the start, not after the end.
        let (lobby, host) = app
            .create_lobby("crossing-swords", json!({"press": "full"}))
            .await;
        let ann = app.join(&lobby, json!({"name": "Ann"})).await;
        let bob = app.join(&lobby, json!({"name": "Bob"})).await;
        let (status, body) = send(&app, &lobby, &ann.1, json!("all"), "Early").await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (StatusCode::CONFLICT, &json!("not-started"))
        );
        app.start(&lobby, &host).await;
        let (status, _) = send(&app, &lobby, &ann.1, json!([bob.0]), "Ally?").await;
        assert_eq!(status, StatusCode::CREATED);
        let (status, body) = send(&app, &lobby, &host, json!("all"), "I am the host").await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (StatusCode::FORBIDDEN, &json!("players-only"))
        );
        end(&app, &lobby, &host).await;
        let (status, body) = send(&app, &lobby, &ann.1, json!("all"), "Late").await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (StatusCode::CONFLICT, &json!("game-over"))
        );
    }
}

#[tokio::test]
async fn a_private_message_reaches_its_sender_and_recipients_only_until_the_reveal() {
    for app in apps().await {
        let (lobby, host, p) = game(&app, json!({"press": "full"})).await;
        let (ann, bob, cat) = (&p[0], &p[1], &p[2]);
        let (status, _) = send(&app, &lobby, &ann.1, json!([bob.0]), "Secret pact").await;
        assert_eq!(status, StatusCode::CREATED);
        let (status, _) = send(&app, &lobby, &cat.1, json!("all"), "Peace to all").await;
        assert_eq!(status, StatusCode::CREATED);

        assert_eq!(
            read(&app, &lobby, Some(&ann.1)).await,
            ["Secret pact", "Peace to all"]
        );
        assert_eq!(
            read(&app, &lobby, Some(&bob.1)).await,
            ["Secret pact", "Peace to all"]
        );
        assert_eq!(read(&app, &lobby, Some(&cat.1)).await, ["Peace to all"]);
        assert_eq!(read(&app, &lobby, None).await, ["Peace to all"]);
        assert_eq!(read(&app, &lobby, Some(&host)).await, ["Peace to all"]);

        // The streams: the lobby's carries the public one; each player's what its player reads.
        let public = drain(EventReader::open(&app, &lobby, Some("0")).await).await;
        assert_eq!(message_texts(&public), ["Peace to all"], "{}", app.backend);
        assert_eq!(
            public.iter().find(|e| e.kind == "message").unwrap().data["to"],
            "all"
        );
        for (player, expected) in [
            (ann, vec!["Secret pact", "Peace to all"]),
            (bob, vec!["Secret pact", "Peace to all"]),
            (cat, vec!["Peace to all"]),
        ] {
            let events = drain(player_stream(&app, &lobby, &player.1).await).await;
            assert_eq!(message_texts(&events), expected, "{}", app.backend);
        }
        let archive = app
            .get(&format!("/api/v1/lobbies/{lobby}/archive"), None)
            .await;
        assert_eq!(archive.body["format"], "herald-archive/2");
        assert!(!archive.text.contains("Secret pact"), "{}", archive.text);

        // The game ends: every message is everyone's, in the API and the archive.
        end(&app, &lobby, &host).await;
        let all = ["Secret pact", "Peace to all"];
        assert_eq!(read(&app, &lobby, None).await, all);
        assert_eq!(read(&app, &lobby, Some(&cat.1)).await, all);
        let archive = app
            .get(&format!("/api/v1/lobbies/{lobby}/archive"), None)
            .await;
        let texts: Vec<&str> = archive.body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap())
            .collect();
        assert_eq!(texts, all);
        assert_eq!(archive.body["messages"][0]["to"], json!([bob.0]));
        assert_eq!(archive.body["messages"][0]["from"], json!(ann.0));
    }
}

#[tokio::test]
async fn without_the_reveal_private_messages_stay_private_after_the_game() {
    for app in apps().await {
        let (lobby, host, p) = game(&app, json!({"press": "full", "press_reveal": false})).await;
        send(&app, &lobby, &p[0].1, json!([p[1].0]), "Between us").await;
        send(&app, &lobby, &p[0].1, json!("all"), "Hello").await;
        end(&app, &lobby, &host).await;
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}/messages"), None)
            .await;
        assert_eq!(view.body["revealed"], false);
        assert_eq!(read(&app, &lobby, None).await, ["Hello"]);
        assert_eq!(read(&app, &lobby, Some(&p[2].1)).await, ["Hello"]);
        assert_eq!(
            read(&app, &lobby, Some(&p[1].1)).await,
            ["Between us", "Hello"]
        );
        let archive = app
            .get(&format!("/api/v1/lobbies/{lobby}/archive"), None)
            .await;
        assert!(!archive.text.contains("Between us"));
    }
}

#[tokio::test]
async fn bad_text_and_bad_recipients_are_refused_and_write_nothing() {
    for app in apps().await {
        let (lobby, _host, p) = game(&app, json!({"press": "full"})).await;
        let before = event_kinds(&app, &lobby).await.len();
        let long = "x".repeat(2_001);
        for text in [
            "",
            "   \n\t ",
            "\u{200B}\u{200B}",
            "evil \u{202E}txt.exe",
            "isolated \u{2066}left\u{2069}",
            "\u{FEFF}\u{2060}",
            "null\u{0}byte",
            "bell\u{7}",
            long.as_str(),
        ] {
            let (status, body) = send(&app, &lobby, &p[0].1, json!("all"), text).await;
            assert_eq!(
                (status, &body["error"]["code"]),
                (StatusCode::UNPROCESSABLE_ENTITY, &json!("invalid-text")),
                "{text:?}: {body}"
            );
            // The refusal says what is wrong, in words.
            let message = body["error"]["message"].as_str().unwrap_or_default();
            assert!(message.len() > 20, "{text:?}: {body}");
        }
        let unknown = uuid::Uuid::new_v4().to_string();
        for to in [
            json!([]),
            json!([p[0].0]),
            json!([p[1].0, p[1].0]),
            json!([unknown]),
        ] {
            let (status, body) = send(&app, &lobby, &p[0].1, to.clone(), "Hi").await;
            assert_eq!(
                (status, &body["error"]["code"]),
                (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    &json!("invalid-recipients")
                ),
                "{to}: {body}"
            );
        }
        for body in [
            json!({"to": "everyone", "text": "Hi"}),
            json!({"to": "all"}),
            json!({"to": "all", "text": "Hi", "x": 1}),
        ] {
            let reply = app
                .post(
                    &format!("/api/v1/lobbies/{lobby}/messages"),
                    Some(&p[0].1),
                    body,
                )
                .await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::BAD_REQUEST, "invalid-body")
            );
        }
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/messages"),
                Some("nope"),
                json!({"to": "all", "text": "Hi"}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        assert_eq!(
            event_kinds(&app, &lobby).await.len(),
            before,
            "{}",
            app.backend
        );
        assert!(read(&app, &lobby, Some(&p[0].1)).await.is_empty());

        // The longest text goes, trimmed, its lines kept.
        let longest = format!("  {}\nend  ", "y".repeat(1_996));
        let (status, _) = send(&app, &lobby, &p[0].1, json!("all"), &longest).await;
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(read(&app, &lobby, None).await, [longest.trim()]);
    }
}

#[tokio::test]
async fn a_player_past_the_allowance_waits_and_others_are_not_held_up() {
    for app in manual_apps(1_800_000_000_000).await {
        let (lobby, _host, p) = game(&app, json!({"press": "public"})).await;
        for n in 0..10 {
            let (status, body) = send(&app, &lobby, &p[0].1, json!("all"), &format!("m{n}")).await;
            assert_eq!(status, StatusCode::CREATED, "{body}");
        }
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/messages"),
                Some(&p[0].1),
                json!({"to": "all", "text": "one more"}),
            )
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::TOO_MANY_REQUESTS, "rate-limited"),
            "{}",
            reply.text
        );
        let (status, _) = send(&app, &lobby, &p[1].1, json!("all"), "Bob speaks").await;
        assert_eq!(status, StatusCode::CREATED);
        app.clock.advance(std::time::Duration::from_secs(60));
        let (status, _) = send(&app, &lobby, &p[0].1, json!("all"), "one more").await;
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(read(&app, &lobby, None).await.len(), 12);
    }
}

#[tokio::test]
async fn herald_verify_reads_archives_with_and_without_messages() {
    use herald::fairness::verify::{read as read_archive, verify};
    for app in apps().await {
        let (lobby, host, p) = game(&app, json!({"press": "full"})).await;
        send(&app, &lobby, &p[0].1, json!([p[1].0]), "Deal").await;
        end(&app, &lobby, &host).await;
        let archive = app
            .get(&format!("/api/v1/lobbies/{lobby}/archive"), None)
            .await;
        let v2 = archive.text.clone();
        let report = verify(&read_archive(&v2).unwrap()).unwrap();
        assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
        let mut v1 = archive.body.clone();
        v1["format"] = json!("herald-archive/1");
        v1.as_object_mut().unwrap().remove("messages");
        let report = verify(&read_archive(&v1.to_string()).unwrap()).unwrap();
        assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
        let mut v3 = archive.body.clone();
        v3["format"] = json!("herald-archive/3");
        assert!(read_archive(&v3.to_string()).is_err());
    }
}

#[tokio::test]
async fn a_profile_key_writes_and_reads_the_table_talk_of_its_seat() {
    for app in apps().await {
        let (key, _) = crate::api_profiles::profile(&app, "Talker").await;
        let (lobby, host) = app
            .create_lobby("crossing-swords", json!({"press": "full"}))
            .await;
        let (ann, _) = crate::api_profiles::join_as(&app, &lobby, &key, json!({})).await;
        let (bob, bob_token) = app.join(&lobby, json!({"name": "Bob"})).await;
        app.start(&lobby, &host).await;
        // The key stands in for the seat's token on the talk routes too.
        let (status, body) = send(&app, &lobby, &key, json!([bob]), "Truce?").await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        assert_eq!(read(&app, &lobby, Some(&key)).await, ["Truce?"]);
        assert_eq!(read(&app, &lobby, Some(&bob_token)).await, ["Truce?"]);
        let (status, _) = send(&app, &lobby, &bob_token, json!([ann]), "Agreed.").await;
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(read(&app, &lobby, Some(&key)).await, ["Truce?", "Agreed."]);
        // Nobody else reads a private word of it.
        assert!(read(&app, &lobby, None).await.is_empty());
    }
}
