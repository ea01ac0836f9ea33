//! Cross-process wake-up (PostgreSQL only): two servers on one database, each with its own
//! pool and listener as two processes would have. Every order goes to server B; the streams
//! are held by server A, which hears of B's commits only through LISTEN/NOTIFY. A bot's
//! stream on A gets each round's prompt in order, and A's public stream every event once and
//! in order, for hundreds of rounds, also while A's listener connection is killed again and
//! again. A deadline B sets wakes A's scheduler through the announcement, well before A's own
//! periodic re-check would find it.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::support::{POSTGRES_ENV, TestApp, announce_postgres_skip, postgres_app};

/// How long an event that must come may take: far beyond any delivery, so that a loaded
/// machine cannot fail the test, while a lost event still fails it rather than hanging.
const PATIENCE: Duration = Duration::from_secs(60);

/// An event as read off the wire.
#[derive(Debug)]
struct Heard {
    id: String,
    kind: String,
    data: Value,
}

/// An event stream held open on a server.
struct Stream {
    body: Body,
    buffer: String,
}

impl Stream {
    async fn open(app: &TestApp, path: &str, token: Option<&str>) -> Stream {
        let mut request = Request::get(path);
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let response = app
            .router
            .clone()
            .oneshot(request.body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        Stream {
            body: response.into_body(),
            buffer: String::new(),
        }
    }

    /// The next event; panics if none comes within [`PATIENCE`] (keep-alive comments do not
    /// count) or the stream ends.
    async fn next(&mut self) -> Heard {
        tokio::time::timeout(PATIENCE, self.next_event())
            .await
            .expect("an event within the patience")
    }

    async fn next_event(&mut self) -> Heard {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                // Keep-alive comments parse to nothing and are skipped.
                if let Some(event) = herald::bots::client::parse_block(&block) {
                    let data = event.data();
                    return Heard {
                        id: event.id,
                        kind: event.kind,
                        data,
                    };
                }
                continue;
            }
            let frame = self
                .body
                .frame()
                .await
                .expect("the stream goes on")
                .expect("a frame");
            if let Ok(data) = frame.into_data() {
                self.buffer.push_str(&String::from_utf8_lossy(&data));
            }
        }
    }
}

/// Server A (holding the streams) and server B (taking the orders) on one fresh PostgreSQL
/// database; None when PostgreSQL is not configured.
async fn two_servers() -> Option<(TestApp, TestApp)> {
    let url = match std::env::var(POSTGRES_ENV) {
        Ok(url) if !url.is_empty() => url,
        _ => {
            announce_postgres_skip();
            return None;
        }
    };
    let a = postgres_app(&url).await;
    let b = a.second_server().await;
    Some((a, b))
}

/// Waits until A's listener has started to LISTEN `sessions` times.
async fn listening(app: &TestApp, sessions: u64) {
    let wakes = app.store.wakes().clone();
    tokio::time::timeout(PATIENCE, async {
        while wakes.sessions() < sessions {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the listener (re)connects");
}

/// Ends A's listener connection from the database's side, as a failover or an administrator
/// would; only A's own listener (found by its application name) is touched.
async fn terminate_listener(app: &TestApp) {
    use sqlx::Row;
    let name = app.store.listener_name().expect("a PostgreSQL store");
    let admin = sqlx::AnyPool::connect(&app.url).await.unwrap();
    let ended: Vec<bool> = sqlx::query(
        "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity \
         WHERE application_name = $1 AND datname = current_database()",
    )
    .bind(name)
    .fetch_all(&admin)
    .await
    .unwrap()
    .iter()
    .map(|row| row.get("ended"))
    .collect();
    admin.close().await;
    assert_eq!(ended, [true], "exactly A's listener was ended");
}

/// Plays a 2-player Crossing Swords game of `rounds` rounds, every request on B, with a bot's
/// stream and a public stream on A; before the rounds in `drops`, A's listener connection is
/// ended. Checks that the bot got each round's prompt in order and the game's end, and the
/// public stream every stored event once, in order.
async fn play_across(a: &TestApp, b: &TestApp, rounds: u64, drops: &[u64]) {
    let (lobby, host) = b
        .create_lobby("crossing-swords", json!({"max_rounds": rounds}))
        .await;
    let players = [
        b.join(&lobby, json!({"name": "Ann"})).await,
        b.join(&lobby, json!({"name": "Bob"})).await,
    ];
    let mut public = Stream::open(a, &format!("/api/v1/lobbies/{lobby}/events"), None).await;
    let public = tokio::spawn(async move {
        let mut heard = Vec::new();
        loop {
            let event = public.next().await;
            let last = event.kind == "finished";
            heard.push((event.id, event.kind));
            if last {
                return heard;
            }
        }
    });
    let path = format!("/api/v1/lobbies/{lobby}/me/events?events=prompt,finished");
    let mut bot = Stream::open(a, &path, Some(&players[0].1)).await;
    b.start(&lobby, &host).await;
    let mut sessions = 1;
    for round in 1..=rounds {
        if drops.contains(&round) {
            listening(a, sessions).await;
            terminate_listener(a).await;
            sessions += 1;
        }
        let prompt = bot.next().await;
        assert_eq!(
            (prompt.kind.as_str(), &prompt.data["prompt"]["round"]),
            ("prompt", &json!(round)),
            "round {round}: the prompt, once and in order"
        );
        for (seat, (_, token)) in players.iter().enumerate() {
            let target = &players[1 - seat].0;
            let order =
                json!({"round": round, "step": "orders", "move": "block", "target": target});
            let sent = b
                .post(
                    &format!("/api/v1/lobbies/{lobby}/orders"),
                    Some(token),
                    order,
                )
                .await;
            assert_eq!(sent.status, StatusCode::ACCEPTED, "{}", sent.text);
        }
    }
    assert_eq!(
        bot.next().await.kind,
        "finished",
        "the end follows the last round"
    );

    let all = stored_events(a, &lobby).await;
    let heard = public.await.unwrap();
    assert_eq!(all.last().unwrap().1, "finished");
    assert_eq!(heard, all, "A's public stream: every event once, in order");
    listening(a, sessions).await;
    assert_eq!(
        a.store.wakes().sessions(),
        sessions,
        "the listener reconnected once per drop"
    );
}

/// Every event the lobby stored, as (id, kind), in order.
async fn stored_events(app: &TestApp, lobby: &str) -> Vec<(String, String)> {
    let id = lobby.parse().unwrap();
    let mut all = Vec::new();
    loop {
        let after = all.last().map_or(0, |(seq, _): &(i64, String)| *seq);
        let more = app.store.events_after(id, after).await.unwrap();
        if more.is_empty() {
            return all
                .into_iter()
                .map(|(seq, kind)| (seq.to_string(), kind))
                .collect();
        }
        all.extend(more.into_iter().map(|e| (e.seq, e.kind)));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_on_one_process_hears_every_prompt_of_orders_sent_to_another() {
    let Some((a, b)) = two_servers().await else {
        return;
    };
    play_across(&a, &b, 300, &[]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_lose_nothing_when_the_listener_connection_is_killed_again_and_again() {
    let Some((a, b)) = two_servers().await else {
        return;
    };
    play_across(&a, &b, 120, &[10, 40, 41, 80, 120]).await;
}

/// A deadline set by another process reaches this process's scheduler through the
/// announcement, not only through its periodic re-check: server B starts a game whose step
/// falls due in 10 s and stops (its scheduler with it); the shared clock moves 11 s, well short
/// of A's re-check 30 s after it last looked, and A's scheduler resolves the step.
#[tokio::test]
async fn a_deadline_set_by_another_process_wakes_this_ones_scheduler() {
    let Ok(admin) = std::env::var(POSTGRES_ENV) else {
        announce_postgres_skip();
        return;
    };
    let clock = herald::clock::Clock::manual(crate::support::T0);
    let a = crate::support::postgres_app_on(&admin, clock.clone()).await;
    let b = a.second_server().await;
    let (lobby, _, _) = crate::api_deadlines::seated(
        &b,
        json!({"deadline_seconds": 10, "reminder_seconds": []}),
        &["Ann", "Bob"],
    )
    .await;
    b.stop().await;
    // The re-check alone must not find it within the 11 s the clock moves.
    const { assert!(herald::host::RECHECK_MS > 11_000) };
    clock.advance(Duration::from_secs(11));
    let view = crate::api_deadlines::wait_for_round(&a, &lobby, 2).await;
    assert_eq!(view["round"], 2, "{view}");
}

/// A connection that LISTENs on Herald's channel under `name` (its `application_name`).
async fn watcher(app: &TestApp, name: &str) -> sqlx::postgres::PgListener {
    use std::str::FromStr;
    let options = sqlx::postgres::PgConnectOptions::from_str(&app.url)
        .unwrap()
        .application_name(name);
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap();
    let mut listener = sqlx::postgres::PgListener::connect_with(&pool)
        .await
        .unwrap();
    listener.listen("herald_commits").await.unwrap();
    listener
}

/// Sends `marker` on Herald's channel from a connection of its own: notifications arrive in
/// commit order, so whatever was announced before the marker is heard before it.
async fn mark(app: &TestApp, marker: &str) {
    let conn = sqlx::AnyPool::connect(&app.url).await.unwrap();
    sqlx::query("SELECT 1 FROM pg_notify('herald_commits', $1)")
        .bind(marker)
        .execute(&conn)
        .await
        .unwrap();
    conn.close().await;
}

/// The payloads `watching` hears up to `marker`, the marker left out.
async fn heard_before(watching: &mut sqlx::postgres::PgListener, marker: &str) -> Vec<String> {
    let mut heard = Vec::new();
    tokio::time::timeout(PATIENCE, async {
        loop {
            let payload = watching.recv().await.unwrap().payload().to_owned();
            if payload == marker {
                return;
            }
            heard.push(payload);
        }
    })
    .await
    .expect("the marker arrives");
    heard
}

/// One server on a fresh PostgreSQL database, its listener started; None when PostgreSQL is
/// not configured.
async fn one_listening_server() -> Option<TestApp> {
    let Ok(admin) = std::env::var(POSTGRES_ENV) else {
        announce_postgres_skip();
        return None;
    };
    let a = crate::support::postgres_app(&admin).await;
    listening(&a, 1).await;
    Some(a)
}

/// PostgreSQL commits transactions that NOTIFY one at a time, so a process alone on its
/// database announces nothing; as soon as another process's listener is registered (here one
/// connected and registered as Herald's listener does it), every batch is announced again.
#[tokio::test]
async fn a_lone_process_announces_nothing_and_a_peer_listening_hears_every_batch() {
    let Some(a) = one_listening_server().await else {
        return;
    };
    let mut watching = watcher(&a, "herald-test-watcher").await;
    let (lobby, _) = a.create_lobby("crossing-swords", json!({})).await;
    a.join(&lobby, json!({"name": "Ann"})).await;
    mark(&a, "alone").await;
    assert_eq!(
        heard_before(&mut watching, "alone").await,
        Vec::<String>::new(),
        "nobody else listens: nothing is announced"
    );

    let mut peer = watcher(&a, "herald-listen-peer").await;
    sqlx::query("INSERT INTO herald_listeners (process) VALUES ('peer')")
        .execute(&mut peer)
        .await
        .unwrap();
    a.join(&lobby, json!({"name": "Bob"})).await;
    mark(&a, "with a peer").await;
    let heard = heard_before(&mut watching, "with a peer").await;
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert!(heard[0].contains(&lobby), "the join's batch: {heard:?}");
}

/// A listener that (re)connects waits for every transaction that began before it listened:
/// such a batch may have looked for listeners before this one was there and not announced
/// itself, so the catch-up must come after its commit. A transaction held open here keeps A's
/// reconnected listener from catching up until it ends.
#[tokio::test]
async fn a_listener_catches_up_only_after_the_transactions_begun_before_it_listened() {
    let Some(a) = one_listening_server().await else {
        return;
    };
    let pool = sqlx::AnyPool::connect(&a.url).await.unwrap();
    // A killed process's registration, which A's listener removes when it starts again.
    sqlx::query("INSERT INTO herald_listeners (process) VALUES ('ghost')")
        .execute(&pool)
        .await
        .unwrap();
    let mut open = pool.begin().await.unwrap();
    sqlx::query("SELECT 1 FROM (SELECT txid_current()) AS x")
        .execute(&mut *open)
        .await
        .unwrap();
    terminate_listener(&a).await;
    // The listener reconnects after 50 ms; give a listener that did not wait ample time to
    // show it (the session count moves once the catch-up is done).
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        a.store.wakes().sessions(),
        1,
        "the listener caught up while an earlier transaction was open"
    );
    open.commit().await.unwrap();
    listening(&a, 2).await;
    let registered: Vec<String> = sqlx::query_scalar("SELECT process FROM herald_listeners")
        .fetch_all(&pool)
        .await
        .unwrap();
    let own = a.store.listener_name().unwrap();
    assert_eq!(
        registered
            .iter()
            .map(|p| format!("herald-listen-{p}"))
            .collect::<Vec<_>>(),
        [own],
        "A alone, the ghost's row removed"
    );
    pool.close().await;
}
