//! Event streams fed from memory: every listener hears every committed event once and in
//! order, however the orders race, and a stream asked for some kinds carries only those. Where a
//! stream starts: a `Last-Event-ID` the lobby does not know (junk, or beyond its last event)
//! starts from now with the standing prompt, and a replay longer than its bound does too.

use futures_util::future::join_all;
use serde_json::json;

use crate::api_secrecy::{EventReader, SseEvent};
use crate::support::{TestApp, apps};

/// Reads a stream until it falls quiet (a second without an event).
async fn drain(reader: &mut EventReader) -> Vec<SseEvent> {
    let mut events = Vec::new();
    while let Some(event) = reader.next().await {
        events.push(event);
    }
    events
}

async fn player_stream(app: &TestApp, lobby: &str, token: &str, only: &str) -> EventReader {
    let path = format!("/api/v1/lobbies/{lobby}/me/events?events={only}");
    EventReader::open_path(app, &path, Some(token), None).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_listener_hears_every_event_once_and_in_order_while_orders_race() {
    const ROUNDS: u64 = 3;
    for app in apps().await {
        let (lobby, host) = app
            .create_lobby("crossing-swords", json!({"max_rounds": ROUNDS}))
            .await;
        let mut players = Vec::new();
        for seat in 0..6 {
            players.push(app.join(&lobby, json!({"name": format!("P{seat}")})).await);
        }
        // Public listeners, read as the game goes (so from the in-memory feed).
        let mut public = Vec::new();
        for _ in 0..3 {
            let mut reader = EventReader::open(&app, &lobby, None).await;
            public.push(tokio::spawn(async move { drain(&mut reader).await }));
        }
        let mut bot = player_stream(&app, &lobby, &players[0].1, "prompt,finished").await;
        app.start(&lobby, &host).await;
        for round in 1..=ROUNDS {
            // As a bot does: wait for the prompt, then answer. The prompt comes only once the
            // step has begun, and carries its round.
            let prompt = bot.next().await.expect("a prompt");
            assert_eq!(
                (prompt.kind.as_str(), &prompt.data["prompt"]["round"]),
                ("prompt", &json!(round)),
                "{}",
                app.backend
            );
            // Every player's order at once: they share group commits in any order.
            let sent = join_all(players.iter().enumerate().map(|(seat, (_, token))| {
                let target = &players[(seat + 1) % players.len()].0;
                let order =
                    json!({"round": round, "step": "orders", "move": "block", "target": target});
                let path = format!("/api/v1/lobbies/{lobby}/orders");
                let app = &app;
                async move { app.post(&path, Some(token), order).await }
            }))
            .await;
            assert!(sent.iter().all(|r| r.status == 202), "{}", app.backend);
        }
        let rest: Vec<String> = drain(&mut bot).await.into_iter().map(|e| e.kind).collect();
        assert_eq!(rest, ["finished"], "{}: only the end follows", app.backend);

        let id = lobby.parse().unwrap();
        let stored: Vec<(String, String)> = app
            .store
            .events_after(id, 0)
            .await
            .unwrap()
            .into_iter()
            .map(|e| (e.seq.to_string(), e.kind))
            .collect();
        assert_eq!(stored.last().unwrap().1, "finished", "{}", app.backend);
        for reader in public {
            let heard: Vec<(String, String)> = reader
                .await
                .unwrap()
                .into_iter()
                .map(|e| (e.id, e.kind))
                .collect();
            assert_eq!(heard, stored, "{}: each event once, in order", app.backend);
        }
    }
}

#[tokio::test]
async fn a_stream_refuses_an_event_kind_it_does_not_carry() {
    for app in apps().await {
        let (lobby, _) = app.create_lobby("crossing-swords", json!({})).await;
        let (_, token) = app.join(&lobby, json!({"name": "Ann"})).await;
        for (path, token) in [
            (
                format!("/api/v1/lobbies/{lobby}/events?events=prompt"),
                None,
            ),
            (
                format!("/api/v1/lobbies/{lobby}/events?events=orders"),
                None,
            ),
            (
                format!("/api/v1/lobbies/{lobby}/me/events?events=prompt,hands"),
                Some(token.as_str()),
            ),
        ] {
            let reply = app.get(&path, token).await;
            assert_eq!(reply.status, 400, "{}: {path}: {}", app.backend, reply.text);
            assert_eq!(reply.code(), "invalid-query", "{}", reply.text);
            assert!(
                reply.body["error"]["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("Unknown event kind")),
                "{}",
                reply.text
            );
        }
    }
}

/// The lobby's last event id, as its public stream replays it from the start.
async fn last_id(app: &TestApp, lobby: &str) -> u64 {
    let mut reader = EventReader::open(app, lobby, None).await;
    let events = drain(&mut reader).await;
    events.last().expect("some history").id.parse().unwrap()
}

#[tokio::test]
async fn an_unknown_last_event_id_resumes_from_now_with_the_standing_prompt() {
    for app in apps().await {
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let ann = app.join(&lobby, json!({"name": "Ann"})).await;
        let bob = app.join(&lobby, json!({"name": "Bob"})).await;
        app.start(&lobby, &host).await;
        let now = last_id(&app, &lobby).await;
        let path = format!("/api/v1/lobbies/{lobby}/me/events");
        // Junk (or negative), and an id past the lobby's last event (a bot whose server was
        // restored from an older backup): the standing prompt, numbered as the last event,
        // and no history.
        for id in ["junk", "-3", "999999"] {
            let mut bot = EventReader::open_path(&app, &path, Some(&ann.1), Some(id)).await;
            let first = bot.next().await.expect("the standing prompt");
            assert_eq!(first.kind, "prompt", "{}: Last-Event-ID {id}", app.backend);
            assert_eq!(first.id, now.to_string(), "{}: {id}", app.backend);
        }
        // The stream is not silenced: what happens next arrives, public stream as well.
        let mut bot = EventReader::open_path(&app, &path, Some(&ann.1), Some("999999")).await;
        let mut public = EventReader::open(&app, &lobby, Some("999999")).await;
        assert_eq!(bot.next().await.expect("the prompt").kind, "prompt");
        let order = json!({"round": 1, "step": "orders", "move": "block", "target": ann.0});
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/orders"),
                Some(&bob.1),
                order,
            )
            .await;
        assert_eq!(reply.status, 202, "{}", reply.text);
        for reader in [&mut bot, &mut public] {
            let next = reader.next().await.expect("the next event");
            assert_eq!(
                (next.kind.as_str(), next.id.as_str()),
                ("submitted", (now + 1).to_string().as_str()),
                "{}",
                app.backend
            );
        }
    }
}

#[tokio::test]
async fn a_replay_past_its_bound_starts_from_now_with_the_standing_prompt() {
    for app in apps().await {
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let ann = app.join(&lobby, json!({"name": "Ann"})).await;
        app.join(&lobby, json!({"name": "Bob"})).await;
        // A long history: each closing and reopening of sign-ups is two events.
        for _ in 0..140 {
            for control in ["close-signups", "reopen-signups"] {
                let reply = app
                    .post(
                        &format!("/api/v1/lobbies/{lobby}/{control}"),
                        Some(&host),
                        json!({}),
                    )
                    .await;
                assert_eq!(reply.status, 200, "{control}: {}", reply.text);
            }
        }
        app.start(&lobby, &host).await;
        let mut replayed = EventReader::open(&app, &lobby, Some("270")).await;
        let tail = drain(&mut replayed).await;
        let now: u64 = tail.last().unwrap().id.parse().unwrap();
        assert!(now > 280, "{}: {now} events", app.backend);

        // From the start, or from an early event: past the bound, so from now.
        let path = format!("/api/v1/lobbies/{lobby}/me/events");
        for id in [None, Some("0"), Some("2")] {
            let mut bot = EventReader::open_path(&app, &path, Some(&ann.1), id).await;
            let first = bot.next().await.expect("the standing prompt");
            assert_eq!(
                (first.kind.as_str(), first.id.as_str()),
                ("prompt", now.to_string().as_str()),
                "{}: Last-Event-ID {id:?}",
                app.backend
            );
        }
        let mut public = EventReader::open(&app, &lobby, None).await;
        assert!(public.next().await.is_none(), "{}: no history", app.backend);

        // Within the bound, the missed events are replayed and then the prompt.
        let recent = (now - 3).to_string();
        let mut bot = EventReader::open_path(&app, &path, Some(&ann.1), Some(&recent)).await;
        let seen: Vec<String> = drain(&mut bot).await.into_iter().map(|e| e.id).collect();
        let expected: Vec<String> = (now - 2..=now)
            .chain([now])
            .map(|n| n.to_string())
            .collect();
        assert_eq!(seen, expected, "{}", app.backend);
    }
}
