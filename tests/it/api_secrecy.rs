//! Secrets: between a submission and the reveal, everything anyone else can read says who has
//! submitted and nothing of what.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::support::{TestApp, apps};

/// A server-sent event as read off the wire.
#[derive(Debug)]
pub struct SseEvent {
    pub id: String,
    pub kind: String,
    pub data: Value,
}

/// Reads a lobby's event stream in the background.
pub struct EventReader {
    body: Body,
    buffer: String,
}

impl EventReader {
    pub async fn open(app: &TestApp, lobby: &str, last_event_id: Option<&str>) -> EventReader {
        EventReader::open_path(
            app,
            &format!("/api/v1/lobbies/{lobby}/events"),
            None,
            last_event_id,
        )
        .await
    }

    pub async fn open_path(
        app: &TestApp,
        path: &str,
        token: Option<&str>,
        last_event_id: Option<&str>,
    ) -> EventReader {
        let mut request = Request::get(path);
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        if let Some(id) = last_event_id {
            request = request.header("last-event-id", id);
        }
        let response = app
            .router
            .clone()
            .oneshot(request.body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        EventReader {
            body: response.into_body(),
            buffer: String::new(),
        }
    }

    /// Whether the server ends the stream within a second, once its pending events are read
    /// (those are dropped).
    pub async fn ends(&mut self) -> bool {
        loop {
            match tokio::time::timeout(Duration::from_secs(1), self.body.frame()).await {
                Err(_) => return false,
                Ok(None) => return true,
                Ok(Some(Err(_))) => return true,
                Ok(Some(Ok(_))) => continue,
            }
        }
    }

    /// The next event, or None if none arrives within a second.
    pub async fn next(&mut self) -> Option<SseEvent> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                // Keep-alive comments parse to nothing and are skipped.
                if let Some(event) = herald::bots::client::parse_block(&block) {
                    let data = event.data();
                    return Some(SseEvent {
                        id: event.id,
                        kind: event.kind,
                        data,
                    });
                }
                continue;
            }
            let frame = tokio::time::timeout(Duration::from_secs(1), self.body.frame())
                .await
                .ok()??
                .ok()?;
            if let Ok(data) = frame.into_data() {
                self.buffer.push_str(&String::from_utf8_lossy(&data));
            }
        }
    }
}

/// The player objects without their `submitted` and `owes` flags.
fn without_flags(view: &Value) -> Value {
    let mut view = view.clone();
    for player in view["players"].as_array_mut().unwrap() {
        let player = player.as_object_mut().unwrap();
        player.remove("submitted");
        player.remove("owes");
    }
    view
}

#[tokio::test]
async fn before_the_reveal_others_see_who_submitted_and_nothing_of_what() {
    for app in apps().await {
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let mut players = Vec::new();
        for name in ["Ann", "Bob", "Cat"] {
            players.push(app.join(&lobby, json!({"name": name})).await);
        }
        app.start(&lobby, &host).await;
        let mut events = EventReader::open(&app, &lobby, None).await;
        let mut seen = Vec::new();
        while let Some(event) = events.next().await {
            seen.push(event.kind);
        }
        assert_eq!(
            seen,
            [
                "player-joined",
                "player-joined",
                "player-joined",
                "signups-closed",
                "started"
            ]
        );

        let lobby_path = format!("/api/v1/lobbies/{lobby}");
        let public_before = app.get(&lobby_path, None).await.body;
        let rounds_before = app.get(&format!("{lobby_path}/rounds"), None).await.text;
        let archive_before = app.get(&format!("{lobby_path}/archive"), None).await.text;
        // Everything anyone read before the reveal, to search for the nonces after it.
        let mut read_before = vec![archive_before.clone()];
        let me_before: Vec<Value> = {
            let mut views = Vec::new();
            for (_, token) in &players {
                views.push(app.get(&format!("{lobby_path}/me"), Some(token)).await.body);
            }
            views
        };
        // Distinctive secret orders: Ann Ripostes Cat, Bob Halts Ann.
        let secret = [("riposte", 2usize), ("halt", 0usize)];
        for (author, (mv, target)) in secret.iter().enumerate() {
            let body =
                json!({"round": 1, "step": "orders", "move": mv, "target": players[*target].0});
            let reply = app
                .post(
                    &format!("{lobby_path}/orders"),
                    Some(&players[author].1),
                    body,
                )
                .await;
            assert_eq!(reply.status, StatusCode::ACCEPTED);
            read_before.push(reply.text.clone());
            assert_eq!(
                app.get(&format!("{lobby_path}/archive"), None).await.text,
                archive_before,
                "{}: a running game's archive shows nothing of a pending order",
                app.backend
            );

            let public = app.get(&lobby_path, None).await.body;
            read_before.push(public.to_string());
            assert_eq!(
                without_flags(&public),
                without_flags(&public_before),
                "{}: the public view changes only in flags",
                app.backend
            );
            let flags: Vec<bool> = public["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["submitted"].as_bool().unwrap())
                .collect();
            let expected: Vec<bool> = (0..3).map(|seat| seat <= author).collect();
            assert_eq!(flags, expected, "who has submitted is public");
            assert_eq!(
                app.get(&format!("{lobby_path}/rounds"), None).await.text,
                rounds_before
            );
            assert_eq!(
                app.get(&format!("{lobby_path}/rounds/1"), None)
                    .await
                    .status,
                StatusCode::NOT_FOUND
            );
            for (reader, (_, token)) in players.iter().enumerate() {
                let me = app.get(&format!("{lobby_path}/me"), Some(token)).await.body;
                read_before.push(me.to_string());
                if reader <= author {
                    assert_eq!(
                        me["pending"]["move"], secret[reader].0,
                        "an author sees their own order"
                    );
                } else {
                    assert_eq!(
                        me, me_before[reader],
                        "{}: another player's view shows nothing new",
                        app.backend
                    );
                }
            }
            let event = events.next().await.expect("a submitted event");
            assert_eq!(event.kind, "submitted");
            read_before.push(event.data.to_string());
            let keys: Vec<&String> = event.data.as_object().unwrap().keys().collect();
            assert_eq!(
                keys,
                ["player", "round", "step"],
                "the event says who, never what"
            );
            assert_eq!(event.data["player"]["id"], players[author].0.as_str());
            assert!(
                events.next().await.is_none(),
                "nothing else is published before the reveal"
            );
        }

        // The last order reveals everything at once.
        let body = json!({"round": 1, "step": "orders", "move": "strike", "target": players[0].0});
        app.post(&format!("{lobby_path}/orders"), Some(&players[2].1), body)
            .await;
        let mut kinds = Vec::new();
        while let Some(event) = events.next().await {
            kinds.push(event.kind);
        }
        assert_eq!(kinds, ["submitted", "step-resolved", "round-resolved"]);
        let reveal = app.get(&format!("{lobby_path}/rounds/1"), None).await.body;
        let moves: Vec<&str> = reveal["orders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["order"]["move"].as_str().unwrap())
            .collect();
        assert_eq!(moves, ["riposte", "halt", "strike"]);
        // Each order's nonce is published with it, and was in nothing anyone read before.
        for order in reveal["orders"].as_array().unwrap() {
            let nonce = order["nonce"].as_str().expect("a sent order's nonce");
            assert_eq!(nonce.len(), 64);
            for text in &read_before {
                assert!(
                    !text.contains(nonce),
                    "{}: a nonce before the reveal: {text}",
                    app.backend
                );
            }
        }
        let archive = app.get(&format!("{lobby_path}/archive"), None).await.body;
        assert!(
            archive["seed"].is_null() && archive["seed_salt"].is_null(),
            "a running game's archive keeps the seed: {archive}"
        );
        assert!(archive["steps"][0]["acts"].is_null(), "and its acts");
    }
}

/// A client that reconnects with Last-Event-ID gets exactly the events it missed.
#[tokio::test]
async fn the_event_stream_resumes_from_last_event_id() {
    for app in apps().await {
        let (lobby, _host) = app.create_lobby("crossing-swords", json!({})).await;
        for name in ["Ann", "Bob", "Cat"] {
            app.join(&lobby, json!({"name": name})).await;
        }
        let mut events = EventReader::open(&app, &lobby, Some("2")).await;
        let event = events.next().await.expect("the third join");
        assert_eq!(
            (event.id.as_str(), event.kind.as_str()),
            ("3", "player-joined")
        );
        assert_eq!(event.data["player"]["name"], "Cat");
        assert!(events.next().await.is_none());
        let unknown = app
            .get(
                "/api/v1/lobbies/6f1c1c9e-0000-4000-8000-000000000000/events",
                None,
            )
            .await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    }
}

/// The player stream says when that player owes an answer, with the prompt in the event, and
/// carries nothing of anyone else's orders.
#[tokio::test]
async fn the_player_stream_carries_each_new_prompt_and_no_one_elses_secrets() {
    for app in apps().await {
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let mut players = Vec::new();
        for name in ["Ann", "Bob"] {
            players.push(app.join(&lobby, json!({"name": name})).await);
        }
        let path = format!("/api/v1/lobbies/{lobby}/me/events");
        assert_eq!(app.get(&path, None).await.status, StatusCode::UNAUTHORIZED);
        assert_eq!(
            app.get(&path, Some(&host)).await.status,
            StatusCode::FORBIDDEN
        );
        app.start(&lobby, &host).await;
        let mut ann = EventReader::open_path(&app, &path, Some(&players[0].1), None).await;
        let mut kinds = Vec::new();
        while let Some(event) = ann.next().await {
            if event.kind == "prompt" {
                assert_eq!(event.data["prompt"]["round"], 1);
                assert_eq!(event.data["prompt"]["step"], "orders");
            }
            kinds.push(event.kind);
        }
        assert_eq!(
            kinds,
            [
                "player-joined",
                "player-joined",
                "signups-closed",
                "started",
                "prompt"
            ]
        );

        let orders = format!("/api/v1/lobbies/{lobby}/orders");
        let bob_order =
            json!({"round": 1, "step": "orders", "move": "taunt", "target": players[0].0});
        app.post(&orders, Some(&players[1].1), bob_order).await;
        let event = ann.next().await.expect("Bob's submission");
        assert_eq!(event.kind, "submitted");
        assert!(
            !event.data.to_string().contains("taunt"),
            "nothing of what Bob ordered"
        );
        assert!(ann.next().await.is_none());

        app.post(
            &orders,
            Some(&players[0].1),
            json!({"round": 1, "step": "orders", "move": "strike", "target": players[1].0}),
        )
        .await;
        let mut kinds = Vec::new();
        let mut last_id = String::new();
        while let Some(event) = ann.next().await {
            if event.kind == "prompt" {
                assert_eq!(event.data["prompt"]["round"], 2, "the new round's prompt");
                assert_eq!(event.data["pending"], Value::Null);
            }
            last_id = event.id;
            kinds.push(event.kind);
        }
        assert_eq!(
            kinds,
            ["submitted", "step-resolved", "round-resolved", "prompt"]
        );

        // Reconnecting after the last event replays nothing but the standing prompt.
        let mut again =
            EventReader::open_path(&app, &path, Some(&players[0].1), Some(&last_id)).await;
        let event = again.next().await.expect("the standing prompt");
        assert_eq!(
            (event.kind.as_str(), event.data["prompt"]["round"].as_u64()),
            ("prompt", Some(2))
        );
        assert!(again.next().await.is_none());
    }
}

/// Replacing an order is the author's business: their receipt says `replaced`, but nothing
/// public changes: no second `submitted` event (streamed or stored), the same public view,
/// the same view for everyone else. Only the reveal shows the order that stood.
#[tokio::test]
async fn a_replaced_order_tells_no_one_but_its_author() {
    for app in apps().await {
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let mut players = Vec::new();
        for name in ["Ann", "Bob", "Cat"] {
            players.push(app.join(&lobby, json!({"name": name})).await);
        }
        app.start(&lobby, &host).await;
        let lobby_path = format!("/api/v1/lobbies/{lobby}");
        let orders = format!("{lobby_path}/orders");
        let id: uuid::Uuid = lobby.parse().unwrap();
        let (ann, bob, cat) = (&players[0], &players[1], &players[2]);
        let order = |mv: &str, target: &str| json!({"round": 1, "step": "orders", "move": mv, "target": target});
        let first = app
            .post(&orders, Some(&ann.1), order("strike", &bob.0))
            .await;
        assert_eq!(first.body["replaced"], false);
        let stored_before = app.store.events_after(id, 0).await.unwrap().len();
        let mut public = EventReader::open(&app, &lobby, Some(&stored_before.to_string())).await;
        let public_before = app.get(&lobby_path, None).await.body;
        let others_before = [
            app.get(&format!("{lobby_path}/me"), Some(&bob.1))
                .await
                .body,
            app.get(&format!("{lobby_path}/me"), Some(&cat.1))
                .await
                .body,
        ];

        let second = app
            .post(&orders, Some(&ann.1), order("lunge", &cat.0))
            .await;
        assert_eq!(second.status, StatusCode::ACCEPTED, "{}", second.text);
        assert_eq!(second.body["replaced"], true, "the author is told");
        assert!(
            public.next().await.is_none(),
            "{}: nothing streamed",
            app.backend
        );
        assert_eq!(
            app.store.events_after(id, 0).await.unwrap().len(),
            stored_before,
            "{}: nothing stored for later listeners either",
            app.backend
        );
        assert_eq!(app.get(&lobby_path, None).await.body, public_before);
        let others_after = [
            app.get(&format!("{lobby_path}/me"), Some(&bob.1))
                .await
                .body,
            app.get(&format!("{lobby_path}/me"), Some(&cat.1))
                .await
                .body,
        ];
        assert_eq!(others_after, others_before);
        let me = app
            .get(&format!("{lobby_path}/me"), Some(&ann.1))
            .await
            .body;
        assert_eq!(
            me["pending"]["move"], "lunge",
            "the author sees the order that stands"
        );

        app.post(&orders, Some(&bob.1), order("block", &ann.0))
            .await;
        app.post(&orders, Some(&cat.1), order("block", &ann.0))
            .await;
        let mut kinds = Vec::new();
        while let Some(event) = public.next().await {
            kinds.push(event.kind);
        }
        assert_eq!(
            kinds,
            ["submitted", "submitted", "step-resolved", "round-resolved"],
            "{}: one submitted per player",
            app.backend
        );
        let reveal = app.get(&format!("{lobby_path}/rounds/1"), None).await.body;
        assert_eq!(reveal["orders"][0]["order"]["move"], "lunge");
    }
}

/// A standing fallback order is as secret as an order: nobody else's view, no event and no
/// round shows it until a deadline uses it, and then the reveal says it was the fallback.
#[tokio::test]
async fn a_fallback_order_is_secret_until_a_deadline_uses_it() {
    for app in crate::support::timed_apps().await {
        let settings = json!({"deadline_seconds": 60});
        let (lobby, _host, players) =
            crate::api_deadlines::seated(&app, settings, &["Ann", "Bob", "Cat"]).await;
        let lobby_path = format!("/api/v1/lobbies/{lobby}");
        let mut events = EventReader::open(&app, &lobby, None).await;
        while events.next().await.is_some() {}
        let public_before = app.get(&lobby_path, None).await.text;
        let rounds_before = app.get(&format!("{lobby_path}/rounds"), None).await.text;
        let mut others_before = Vec::new();
        for (_, token) in &players[..2] {
            others_before.push(app.get(&format!("{lobby_path}/me"), Some(token)).await.text);
        }

        let taunt = json!({"move": "taunt", "target": players[1].0});
        let reply = crate::api_deadlines::put(
            &app,
            &format!("{lobby_path}/me/fallback"),
            Some(&players[2].1),
            taunt,
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK);

        assert_eq!(app.get(&lobby_path, None).await.text, public_before);
        assert_eq!(
            app.get(&format!("{lobby_path}/rounds"), None).await.text,
            rounds_before
        );
        for ((_, token), before) in players[..2].iter().zip(&others_before) {
            let me = app.get(&format!("{lobby_path}/me"), Some(token)).await.text;
            assert_eq!(
                &me, before,
                "{}: another player sees nothing of it",
                app.backend
            );
        }
        assert!(
            events.next().await.is_none(),
            "no event is published for it"
        );
        let own = app
            .get(&format!("{lobby_path}/me"), Some(&players[2].1))
            .await
            .body;
        assert_eq!(own["fallback"]["move"], "taunt", "its author sees it");

        app.clock.advance(Duration::from_secs(60));
        crate::api_deadlines::wait_for_round(&app, &lobby, 2).await;
        let reveal = app.get(&format!("{lobby_path}/rounds/1"), None).await.body;
        assert_eq!(reveal["orders"][2]["order"]["move"], "taunt", "{reveal}");
        assert_eq!(reveal["orders"][2]["source"], "fallback");
    }
}

/// Every notification body, webhook or player's own, of a game played from sign-ups to its
/// end: none carries a token, the seed, or an order before its reveal.
#[tokio::test]
async fn no_notification_carries_a_secret() {
    use crate::notify_receivers::{Behaviour, Receiver, settings, settle};
    use herald::store::outbox::NOTIFIABLE;
    for app in crate::support::notify_apps(settings()).await {
        let hook = Receiver::start(Behaviour::Accept).await;
        let own = Receiver::start(Behaviour::Accept).await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let seed = app
            .store
            .snapshot(lobby.parse().unwrap())
            .await
            .unwrap()
            .unwrap()
            .lobby
            .seed
            .to_string();
        let base = format!("/api/v1/lobbies/{lobby}");
        for format in ["standard", "discord"] {
            let reply = app
                .post(
                    &format!("{base}/webhooks"),
                    Some(&host),
                    json!({"url": hook.url, "format": format, "events": NOTIFIABLE}),
                )
                .await;
            assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        }
        let mut players = Vec::new();
        for name in ["Ann", "Bob", "Cat"] {
            players.push(app.join(&lobby, json!({"name": name})).await);
        }
        let mine = app
            .send(
                axum::http::Method::PUT,
                &format!("{base}/me/notifications"),
                Some(&players[0].1),
                Some(Body::from(
                    json!({"webhook_url": own.url, "events": NOTIFIABLE}).to_string(),
                )),
            )
            .await;
        assert_eq!(mine.status, StatusCode::OK, "{}", mine.text);
        app.start(&lobby, &host).await;
        // joined ×3, signups-closed, started: twice at the lobby's hook; closed and started
        // at Ann's own (she set it after the joins).
        hook.wait_for(10).await;
        own.wait_for(2).await;
        // Two of three orders in: distinctive moves no body may show before the reveal.
        let secret = [("riposte", 2usize), ("halt", 0usize)];
        for (author, (mv, target)) in secret.iter().enumerate() {
            let body =
                json!({"round": 1, "step": "orders", "move": mv, "target": players[*target].0});
            let reply = app
                .post(&format!("{base}/orders"), Some(&players[author].1), body)
                .await;
            assert_eq!(reply.status, StatusCode::ACCEPTED);
        }
        settle().await;
        let before: Vec<String> = hook
            .got()
            .iter()
            .chain(own.got().iter())
            .map(|m| String::from_utf8_lossy(&m.body).into_owned())
            .collect();
        assert_eq!(
            before.len(),
            12,
            "{}: an order is announced to no one",
            app.backend
        );
        for body in &before {
            for (mv, _) in secret {
                assert!(!body.contains(mv), "{mv} before the reveal: {body}");
            }
        }
        // The last order resolves the round; then the host ends the game.
        let body = json!({"round": 1, "step": "orders", "move": "strike", "target": players[0].0});
        app.post(&format!("{base}/orders"), Some(&players[2].1), body)
            .await;
        let end = app
            .post(&format!("{base}/end"), Some(&host), json!({}))
            .await;
        assert_eq!(end.status, StatusCode::OK, "{}", end.text);
        // The standard body names the event; the Discord one says the game is over.
        let ended = |m: &crate::notify_receivers::Received| {
            let body = String::from_utf8_lossy(&m.body).into_owned();
            body.contains("lobby.ended-by-host")
                || (body.contains("\"embeds\"") && body.contains("is over"))
        };
        crate::notify_receivers::eventually("the end announced in both formats", || {
            hook.got().iter().filter(|m| ended(m)).count() >= 2
        })
        .await;
        settle().await;
        let mut tokens: Vec<&str> = players.iter().map(|(_, t)| t.as_str()).collect();
        tokens.push(&host);
        for message in hook.got().iter().chain(own.got().iter()) {
            let body = String::from_utf8_lossy(&message.body);
            let headers = format!("{:?}", message.headers);
            for token in &tokens {
                assert!(
                    !body.contains(token) && !headers.contains(token),
                    "a token: {body}"
                );
            }
            assert!(!body.contains(&seed), "the seed: {body}");
        }
    }
}

/// §3.4: the plan, the deck order, pending orders, the seed and the dice list stay secret.
#[tokio::test]
async fn scale_of_styles_plans_deck_order_seed_and_dice_are_seen_by_no_one_else() {
    for app in apps().await {
        let (lobby, host, players) = crate::api_scale_of_styles::duel(
            &app,
            json!({"seed": 77, "dice": [1, 2, 3, 4, 5, 6, 7, 8]}),
            [json!({}), json!({})],
        )
        .await;
        app.start(&lobby, &host).await;
        let plan = ["JK1", "KS", "QH", "10D", "7C"];
        let sent = crate::api_scale_of_styles::send(
            &app,
            &lobby,
            &players[0].1,
            json!({"round": 1, "step": "plan", "cards": plan}),
        )
        .await;
        assert_eq!(sent.0, StatusCode::ACCEPTED);
        let public = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .text;
        let other = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&players[1].1))
            .await
            .text;
        // Every pack holds the same cards: only the plan's order is secret.
        let run = "\"JK1\",\"KS\",\"QH\"";
        for text in [&public, &other] {
            assert!(!text.contains(run), "the pending plan leaks: {text}");
        }
        for secret in ["\"seed\":77", "\"dice\""] {
            assert!(!public.contains(secret), "{secret} leaks: {public}");
        }
        assert_eq!(
            crate::api_scale_of_styles::send(
                &app,
                &lobby,
                &players[1].1,
                json!({"round": 1, "step": "plan", "decline": true})
            )
            .await
            .0,
            StatusCode::ACCEPTED
        );
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&players[0].1))
            .await
            .body;
        assert_eq!(
            me["deck"].as_array().unwrap()[..5],
            json!(plan).as_array().unwrap()[..],
            "the owner sees his plan"
        );
        let public = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .text;
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds"), None)
            .await
            .text;
        let bob = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&players[1].1))
            .await
            .body;
        let bob_text = bob.to_string();
        // Neither the public nor the opponent learns the order: no run of A's plan appears.
        for text in [&public, &round, &bob_text] {
            assert!(!text.contains(run), "the plan's order leaks: {text}");
        }
        assert!(
            !public.contains("\"deck\":"),
            "no deck in the public view: {public}"
        );
    }
}

/// Contests §3.8: each hand is its owner's alone; a set die and a face-down card stay
/// concealed until the contest's reveal (K4), though the guesses and the lost dice are public
/// after K2; the decks, the seed and the hooks are nobody's while the duel runs. Read by the
/// public, the opponent, the rounds, the archive, the event stream and the pages.
#[tokio::test]
async fn contests_hands_dice_face_down_cards_decks_and_hooks_are_seen_by_no_one_else() {
    use crate::api_contests::{deck, joins};
    use crate::pages_client::Visitor;
    for app in apps().await {
        // Ann's hand and Bob's are disjoint, and neither can open: Magic's declare comes
        // first, then a Mind contest for each bolt.
        let ann_hand = [
            "dwarven-ale",
            "illegal-doping",
            "check-out-my-diploma",
            "my-daddy-was-an-elf",
            "kick-below-the-waist",
        ];
        let bob_hand = [
            "vastly-superior-nerd",
            "a-swift-cup-of-coffee",
            "gimme-yer-lunch-money",
            "what-did-you-call-my-mom",
            "am-i-good-or-what",
        ];
        // Each deck's next card, never drawn while this test runs, is its order's tell.
        let settings = json!({"seed": 4242, "default_dice": [2, 3],
            "decks": {"p1": deck(&[&ann_hand[..], &["make-funny-faces"]].concat()),
                      "p2": deck(&[&bob_hand[..], &["now-you-see-me"]].concat())}});
        let (lobby, host) = app.create_lobby("contests", settings).await;
        let mut players = Vec::new();
        for join in joins() {
            players.push(app.join(&lobby, join).await);
        }
        let path = format!("/api/v1/lobbies/{lobby}");
        let mut events = EventReader::open(&app, &lobby, None).await;
        let (ann, bob) = (&players[0].1, &players[1].1);
        let mut bobs_events =
            EventReader::open_path(&app, &format!("{path}/me/events"), Some(bob), None).await;
        app.start(&lobby, &host).await;
        for token in [ann, bob] {
            let reply = app
                .post(
                    &format!("{path}/orders"),
                    Some(token),
                    json!({"round": 1, "step": "declare", "spell": "fire-bolt"}),
                )
                .await;
            assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        }
        let contest = app.get(&path, None).await.body["contest"]["contest"].clone();
        // Ann sets 5 with Dwarven Ale face down and asks for the face-up step; Bob guesses 6
        // and lays nothing, so her die survives K2 and the contest waits for her face-up.
        let set = json!({"round": 1, "step": "set", "contest": contest, "die": 5, "guesses": [1],
            "down": "dwarven-ale", "face_up": true});
        let reply = app.post(&format!("{path}/orders"), Some(ann), set).await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        let set = json!({"round": 1, "step": "set", "contest": contest, "die": 2, "guesses": [6],
            "down": null, "face_up": false});
        let reply = app.post(&format!("{path}/orders"), Some(bob), set).await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        let public = app.get(&path, None).await;
        assert_eq!(public.body["step"], "face-up", "{}", public.text);
        assert_eq!(public.body["contest"]["face_down"], json!([true, false]));
        assert_eq!(
            public.body["contest"]["lost"],
            json!([null, null]),
            "K2: no die lost"
        );

        let mut read = vec![
            ("the lobby", public.text.clone()),
            (
                "the rounds",
                app.get(&format!("{path}/rounds"), None).await.text,
            ),
            (
                "round 1",
                app.get(&format!("{path}/rounds/1"), None).await.text,
            ),
            (
                "the archive",
                app.get(&format!("{path}/archive"), None).await.text,
            ),
            (
                "Bob's view",
                app.get(&format!("{path}/me"), Some(bob)).await.text,
            ),
        ];
        while let Some(event) = events.next().await {
            read.push(("an event", event.data.to_string()));
        }
        let mut bobs = 0;
        while let Some(event) = bobs_events.next().await {
            read.push(("Bob's stream", event.data.to_string()));
            bobs += 1;
        }
        assert!(bobs >= 2, "Bob's stream carried his prompts");
        let mut visitor = Visitor::new(&app);
        for page in [
            format!("/lobbies/{lobby}"),
            format!("/lobbies/{lobby}/export"),
        ] {
            let shown = visitor.get(&page).await;
            assert!(shown.status.is_success(), "{page}: {}", shown.status);
            read.push(("a page", shown.html));
        }
        let mut bob_page = Visitor::new(&app);
        bob_page.get(&format!("/lobbies/{lobby}/as/{bob}")).await;
        let shown = bob_page.get(&format!("/lobbies/{lobby}/play")).await;
        assert!(shown.html.contains("Bob"), "Bob's own page: {}", shown.html);
        read.push(("Bob's page", shown.html));
        let mut host_page = Visitor::new(&app);
        host_page.get(&format!("/lobbies/{lobby}/as/{host}")).await;
        let shown = host_page.get(&format!("/lobbies/{lobby}/host")).await;
        assert_eq!(shown.status, StatusCode::OK);
        read.push(("the host's page", shown.html));
        for (what, text) in &read {
            let lower = text.to_lowercase();
            for card in ann_hand
                .iter()
                .chain(["make-funny-faces", "now-you-see-me"].iter())
            {
                assert!(!text.contains(card), "{}: {what} shows {card}", app.backend);
            }
            // The pages name a card in words ("Dwarven ale").
            for card in ann_hand {
                let words = card.replace('-', " ");
                assert!(
                    !lower.contains(&words),
                    "{}: {what} shows {words}",
                    app.backend
                );
            }
            for secret in [
                "\"die\":5",
                "\"die\": 5",
                "\"seed\":4242",
                "default_dice",
                "\"decks\"",
            ] {
                assert!(
                    !text.contains(secret),
                    "{}: {what} shows {secret}",
                    app.backend
                );
            }
        }
        // Bob's hand is his: the public never sees it.
        for (what, text) in &read[..4] {
            for card in bob_hand {
                assert!(!text.contains(card), "{what} shows Bob's {card}");
            }
        }
        let me = app.get(&format!("{path}/me"), Some(ann)).await.body;
        assert_eq!(
            me["hand"].as_array().unwrap().len(),
            4,
            "the owner sees his hand"
        );
        assert!(me.get("deck").is_none(), "no one sees a deck's order: {me}");

        // K4 reveals the face-down card and the die to everyone.
        let reply = app
            .post(
                &format!("{path}/orders"),
                Some(ann),
                json!({"round": 1, "step": "face-up", "contest": contest, "decline": true}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        let public = app.get(&path, None).await.text;
        assert!(
            public.contains("dwarven-ale"),
            "the reveal shows it: {public}"
        );
    }
}
