//! Bounded memory: a lobby's place in the in-memory feed lives only while someone listens, and
//! a stream asked to start after event n (a page rendered at n, or a reconnecting client)
//! replays nothing before it.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use futures_util::future::join_all;
use serde_json::json;
use tower::ServiceExt;

use crate::api_secrecy::EventReader;
use crate::support::{TestApp, apps};

const LOBBIES: usize = 10_000;

/// Creates `count` lobbies, a few hundred requests at a time.
async fn many_lobbies(app: &TestApp, count: usize) -> Vec<String> {
    let mut ids = Vec::with_capacity(count);
    while ids.len() < count {
        let wave = (count - ids.len()).min(250);
        let created = join_all((0..wave).map(|_| app.create_lobby("crossing-swords", json!({}))));
        ids.extend(created.await.into_iter().map(|(id, _)| id));
    }
    ids
}

/// Opens a lobby's public stream and returns it unread (the listener is subscribed as soon
/// as the response head is out; dropping the response is the client going away).
async fn open_stream(app: &TestApp, lobby: &str) -> axum::response::Response {
    let request = Request::get(format!("/api/v1/lobbies/{lobby}/events"))
        .body(Body::empty())
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_lobbies_whose_streams_closed_leave_nothing_in_the_feed() {
    for app in apps().await {
        let lobbies = many_lobbies(&app, LOBBIES).await;
        let feed = app.store.feed();
        assert_eq!(feed.lobbies_held(), 0, "{}", app.backend);
        let mut streams = Vec::with_capacity(LOBBIES);
        for lobby in &lobbies {
            streams.push(open_stream(&app, lobby).await);
        }
        assert_eq!(feed.lobbies_held(), LOBBIES, "{}", app.backend);
        // Half of them hear an event while open (the old feed freed an entry only when an
        // event found it unheard; now neither matters).
        for lobby in lobbies.iter().step_by(2).take(100) {
            app.join(lobby, json!({"name": "Ann"})).await;
        }
        drop(streams);
        assert_eq!(
            feed.lobbies_held(),
            0,
            "{}: every lobby's channels freed with its last stream",
            app.backend
        );
        // A lobby listened to again gets fresh channels and hears its events.
        let mut again = EventReader::open(&app, &lobbies[0], Some("1")).await;
        app.join(&lobbies[0], json!({"name": "Bob"})).await;
        let event = again.next().await.expect("Bob's join");
        assert_eq!(
            (event.id.as_str(), event.kind.as_str()),
            ("2", "player-joined")
        );
    }
}

/// Events 1-4 (four joins), then a stream opened after 2 by each means hears 3 and 4 only,
/// and then what happens next.
#[tokio::test]
async fn a_stream_opened_after_event_n_sends_only_the_events_after_it() {
    for app in apps().await {
        let (lobby, _) = app.create_lobby("crossing-swords", json!({})).await;
        for name in ["Ann", "Bob", "Cat", "Dan"] {
            app.join(&lobby, json!({"name": name})).await;
        }
        let by_query = format!("/api/v1/lobbies/{lobby}/events?after=2");
        let by_header = format!("/api/v1/lobbies/{lobby}/events");
        // The later of the two wins: a header at 2 with ?after=1 starts after 2 too.
        let both = format!("/api/v1/lobbies/{lobby}/events?after=1");
        let mut readers = vec![
            EventReader::open_path(&app, &by_query, None, None).await,
            EventReader::open_path(&app, &by_header, None, Some("2")).await,
            EventReader::open_path(&app, &both, None, Some("2")).await,
        ];
        app.join(&lobby, json!({"name": "Eve"})).await;
        for reader in &mut readers {
            let mut heard = Vec::new();
            while let Some(event) = reader.next().await {
                heard.push((event.id, event.data["player"]["name"].clone()));
            }
            assert_eq!(
                heard,
                [
                    ("3".to_string(), json!("Cat")),
                    ("4".to_string(), json!("Dan")),
                    ("5".to_string(), json!("Eve")),
                ],
                "{}",
                app.backend
            );
        }
        // A page rendered at the newest event replays nothing at all.
        let current = format!("/api/v1/lobbies/{lobby}/events?after=5");
        let mut page = EventReader::open_path(&app, &current, None, None).await;
        assert!(page.next().await.is_none(), "{}", app.backend);
    }
}
