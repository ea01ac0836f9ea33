//! The profile's stream (docs/bots.md, "One stream for all of a profile's seats"): one bot
//! profile plays seats in three lobbies of three games to their end from one stream, which
//! opens with the seats, sends each owed prompt once, `finished` for each game, and every
//! standing prompt again on a new connection. On PostgreSQL also across two processes: the
//! stream on server A, every order on server B.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use rand::SeedableRng;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::api_profiles::{join_as, profile};
use crate::support::{POSTGRES_ENV, TestApp, announce_postgres_skip, apps, postgres_app};
use herald::bots::policy::{Strategy, answer};

/// How long an event that must come may take: far beyond any delivery, so that a loaded
/// machine cannot fail the test, while a lost event still fails it rather than hanging.
const PATIENCE: Duration = Duration::from_secs(60);

/// An event as read off the wire.
#[derive(Debug)]
pub struct Heard {
    pub kind: String,
    pub data: Value,
    /// The data as sent.
    pub text: String,
}

/// A Server-Sent Events stream held open on a server.
pub struct Stream {
    body: Body,
    buffer: String,
}

impl Stream {
    pub async fn open(app: &TestApp, path: &str, token: &str) -> Stream {
        let request = Request::get(path)
            .header("authorization", format!("Bearer {token}"))
            .body(Body::empty())
            .unwrap();
        let response = app.router.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        Stream {
            body: response.into_body(),
            buffer: String::new(),
        }
    }

    /// The next event; panics if none comes within [`PATIENCE`] or the stream ends.
    pub async fn next(&mut self) -> Heard {
        self.within(PATIENCE)
            .await
            .expect("an event within the patience")
    }

    /// The next event if one comes within `wait`; panics if the stream ends. (Reading a frame
    /// is cancel-safe: a frame is taken off the body only when the read completes.)
    pub async fn within(&mut self, wait: Duration) -> Option<Heard> {
        tokio::time::timeout(wait, async {
            loop {
                if let Some(end) = self.buffer.find("\n\n") {
                    let block: String = self.buffer.drain(..end + 2).collect();
                    if let Some(event) = herald::bots::client::parse_block(&block) {
                        let data = event.data();
                        return Heard {
                            kind: event.kind,
                            text: data.to_string(),
                            data,
                        };
                    }
                    continue;
                }
                let frame = self.body.frame().await.expect("the stream goes on");
                if let Ok(data) = frame.expect("a frame").into_data() {
                    self.buffer.push_str(&String::from_utf8_lossy(&data));
                }
            }
        })
        .await
        .ok()
    }
}

/// A lobby of the test: its game, and its other seat's token.
struct Table {
    game: &'static str,
    opponent: String,
}

/// Makes a bot profile (owned by a human) and seats it in a lobby of each of three games
/// against a seat joined with a plain link, all on `app`; every lobby is started.
async fn three_tables(app: &TestApp) -> (String, HashMap<String, Table>) {
    let (owner, _) = profile(app, "Owner").await;
    let reply = app
        .post("/api/v1/me/bots", Some(&owner), json!({"handle": "Robo"}))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    let bot = reply.body["key"].as_str().unwrap().to_string();
    let mut tables = HashMap::new();
    for (game, settings) in [
        (
            "crossing-swords",
            json!({"max_players": 2, "max_rounds": 3}),
        ),
        ("bst", json!({"max_rounds": 3, "seed": 7})),
        ("scale-of-styles", json!({"max_rounds": 3})),
    ] {
        let (lobby, host) = app.create_lobby(game, settings).await;
        join_as(app, &lobby, &bot, json!({})).await;
        let (_, opponent) = app.join(&lobby, json!({"name": "Other"})).await;
        app.start(&lobby, &host).await;
        tables.insert(lobby, Table { game, opponent });
    }
    (bot, tables)
}

/// How often the opponents look for a prompt while the bot's stream is silent.
const OPPONENTS_LOOK: Duration = Duration::from_millis(100);

/// The bot's next event, while the opponents of the unfinished `tables` answer whatever they
/// owe. A step may ask the opponent alone (a duel's opening, a decision), and then the bot's
/// stream stays silent until the opponent answers: so the opponents answer as often as they
/// owe, not once per event. Panics if nothing comes within [`PATIENCE`].
async fn next_while_opponents_play(
    stream: &mut Stream,
    orders: &TestApp,
    tables: &HashMap<String, Table>,
    finished: &HashSet<String>,
    rng: &mut rand::rngs::StdRng,
) -> Heard {
    let given_up = tokio::time::Instant::now() + PATIENCE;
    loop {
        for (lobby, table) in tables {
            if !finished.contains(lobby) {
                answer_if_owed(orders, lobby, &table.opponent, rng).await;
            }
        }
        if let Some(event) = stream.within(OPPONENTS_LOOK).await {
            return event;
        }
        assert!(
            tokio::time::Instant::now() < given_up,
            "an event within the patience"
        );
    }
}

/// Answers `token`'s prompt in `lobby` on `app` if it owes one and has sent nothing yet.
async fn answer_if_owed(app: &TestApp, lobby: &str, token: &str, rng: &mut rand::rngs::StdRng) {
    let me = app
        .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(token))
        .await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text);
    if me.body["prompt"].is_null() || !me.body["pending"].is_null() {
        return;
    }
    submit(app, lobby, token, &me.body, rng).await;
}

async fn submit(app: &TestApp, lobby: &str, token: &str, me: &Value, rng: &mut rand::rngs::StdRng) {
    let order = answer(me, Strategy::Random, rng).expect("the random strategy answers");
    let reply = app
        .post(
            &format!("/api/v1/lobbies/{lobby}/orders"),
            Some(token),
            order,
        )
        .await;
    // 409: the step resolved meanwhile (a prompt sent again on reconnection, answered late).
    assert!(
        matches!(reply.status, StatusCode::ACCEPTED | StatusCode::CONFLICT),
        "{}",
        reply.text
    );
}

/// Plays every seat of the bot from its one stream on `streams` while the orders (the bot's
/// and its opponents') go to `orders`, until all three games are over; reconnects once, after
/// `reconnect_after` prompts.
async fn play_out(streams: &TestApp, orders: &TestApp, bot: &str, tables: &HashMap<String, Table>) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(42);
    let mut stream = Stream::open(streams, "/api/v1/me/events", bot).await;
    let seats = stream.next().await;
    assert_eq!(seats.kind, "seats");
    let listed: HashSet<String> = seats
        .data
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["lobby"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        listed,
        tables.keys().cloned().collect(),
        "the opening lists every seat"
    );
    let mut finished = HashSet::new();
    let mut prompts = 0;
    let mut reconnected = false;
    // What each lobby's last prompt was, to check none comes twice on one connection.
    let mut sent: HashSet<(String, String)> = HashSet::new();
    while finished.len() < tables.len() {
        let event =
            next_while_opponents_play(&mut stream, orders, tables, &finished, &mut rng).await;
        match event.kind.as_str() {
            "prompt" => {
                let lobby = event.data["lobby"].as_str().unwrap().to_string();
                let table = &tables[&lobby];
                assert_eq!(event.data["game"], table.game);
                assert!(!event.data["prompt"].is_null(), "a prompt owes an answer");
                let once = (lobby.clone(), event.data["prompt"].to_string());
                assert!(sent.insert(once), "a prompt is sent once per connection");
                submit(orders, &lobby, bot, &event.data, &mut rng).await;
                prompts += 1;
                if prompts == 4 && !reconnected {
                    reconnected = true;
                    stream = reconnect(streams, orders, bot, tables, &finished, &mut rng).await;
                    sent.clear();
                }
            }
            "finished" => {
                let lobby = event.data["lobby"].as_str().unwrap().to_string();
                assert!(tables.contains_key(&lobby));
                assert!(event.data["result"].is_object(), "{}", event.data);
                assert!(finished.insert(lobby), "finished once");
            }
            other => panic!("unexpected event {other}: {}", event.data),
        }
    }
    assert!(reconnected && prompts > 6, "{prompts} prompts");
    for lobby in tables.keys() {
        let view = orders.get(&format!("/api/v1/lobbies/{lobby}"), None).await;
        assert_eq!(view.body["status"], "finished");
    }
}

/// Drops the stream and opens a new one: it lists the seats again, then sends the prompt of
/// every seat that owes one now (answered or not), each once.
async fn reconnect(
    streams: &TestApp,
    orders: &TestApp,
    bot: &str,
    tables: &HashMap<String, Table>,
    finished: &HashSet<String>,
    rng: &mut rand::rngs::StdRng,
) -> Stream {
    let mut owed = HashSet::new();
    for lobby in tables.keys().filter(|lobby| !finished.contains(*lobby)) {
        let me = orders
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(bot))
            .await;
        if !me.body["prompt"].is_null() {
            owed.insert(lobby.clone());
        }
    }
    assert!(!owed.is_empty(), "the bot owes somewhere");
    let mut stream = Stream::open(streams, "/api/v1/me/events", bot).await;
    let seats = stream.next().await;
    assert_eq!(seats.kind, "seats");
    assert_eq!(seats.data.as_array().unwrap().len(), tables.len());
    let mut standing = HashSet::new();
    while standing.len() < owed.len() {
        let event = stream.next().await;
        assert_eq!(event.kind, "prompt", "{}", event.data);
        let lobby = event.data["lobby"].as_str().unwrap().to_string();
        assert!(owed.contains(&lobby), "only standing prompts");
        if event.data["pending"].is_null() {
            submit(orders, &lobby, bot, &event.data, rng).await;
        }
        assert!(standing.insert(lobby), "each once");
    }
    stream
}

#[tokio::test]
async fn one_profile_stream_plays_three_games_to_their_end_across_a_reconnection() {
    for app in apps().await {
        let (bot, tables) = three_tables(&app).await;
        play_out(&app, &app, &bot, &tables).await;
    }
}

#[tokio::test]
async fn the_profile_stream_on_one_process_hears_the_orders_sent_to_another() {
    let url = match std::env::var(POSTGRES_ENV) {
        Ok(url) if !url.is_empty() => url,
        _ => {
            announce_postgres_skip();
            return;
        }
    };
    let a = postgres_app(&url).await;
    let b = a.second_server().await;
    let (bot, tables) = three_tables(&b).await;
    play_out(&a, &b, &bot, &tables).await;
    // A seat taken on B while the stream is open on A: A's stream hears of it (the bell).
    let mut stream = Stream::open(&a, "/api/v1/me/events", &bot).await;
    assert_eq!(stream.next().await.kind, "seats");
    let (lobby, host) = b.create_lobby("bst", json!({"max_rounds": 1})).await;
    join_as(&b, &lobby, &bot, json!({})).await;
    let (_, opponent) = b.join(&lobby, json!({"name": "Late"})).await;
    b.start(&lobby, &host).await;
    // The dealt opening may ask the other seat first: it answers, and the bot's turn comes.
    let late = HashMap::from([(
        lobby.clone(),
        Table {
            game: "bst",
            opponent,
        },
    )]);
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let prompt = next_while_opponents_play(&mut stream, &b, &late, &HashSet::new(), &mut rng).await;
    assert_eq!(prompt.kind, "prompt");
    assert_eq!(prompt.data["lobby"], lobby.as_str());
}

#[tokio::test]
async fn the_profile_stream_needs_a_profile_key() {
    for app in apps().await {
        let reply = app.get("/api/v1/me/events", None).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        let reply = app.get("/api/v1/me/events", Some("hpk_nonsense")).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
}
