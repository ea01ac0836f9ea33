//! Delivery under trouble, against real local receivers: retries with backoff on the store's
//! clock (moved by the tests, never slept through), `Retry-After`, giving up, re-enabling,
//! a slow receiver beside a fast one, a restart in the middle of retries, and two servers on
//! one database delivering each notification once.

use std::collections::HashMap;
use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::notify_receivers::{Behaviour, Receiver, down_url, settings, settle};
use crate::notify_webhooks::add_webhook;
use crate::support::{TestApp, notify_apps};
use herald::notify::worker::{MAX_ATTEMPTS, MAX_DELAY_MS};

/// The deliveries of a webhook as (status, attempts), oldest first.
async fn deliveries(app: &TestApp, webhook: &str) -> Vec<(String, i64)> {
    app.store
        .deliveries(Uuid::parse_str(webhook).unwrap())
        .await
        .unwrap()
        .into_iter()
        .map(|(_, status, attempts)| (status, attempts))
        .collect()
}

/// Waits until the webhook's deliveries read `expected`.
async fn wait_deliveries(app: &TestApp, webhook: &str, expected: &[(&str, i64)]) {
    let start = std::time::Instant::now();
    loop {
        let now = deliveries(app, webhook).await;
        let now: Vec<(&str, i64)> = now.iter().map(|(s, a)| (s.as_str(), *a)).collect();
        if now == expected {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{}: deliveries {now:?}, waiting for {expected:?}",
            app.backend
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Each claimed delivery as finished by one attempt at `at` (answered `status`, failing with
/// `error` unless None), settled as `settled`.
fn finished_all(
    claimed: &[herald::store::Claimed],
    at: i64,
    status: Option<i64>,
    error: Option<&str>,
    settled: herald::store::Settled,
) -> Vec<herald::store::Finished> {
    claimed
        .iter()
        .map(|c| herald::store::Finished {
            claimed: c.clone(),
            attempt: herald::store::Attempt {
                at,
                status,
                error: error.map(str::to_string),
            },
            settled: settled.clone(),
        })
        .collect()
}

async fn lobby_with_hook(app: &TestApp, url: &str) -> (String, String, String) {
    let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
    let (hook, _) = add_webhook(app, &lobby, &host, url, "standard", &["player-joined"]).await;
    (lobby, host, hook)
}

#[tokio::test]
async fn a_receiver_failing_twice_gets_the_same_delivery_on_the_third_attempt() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::FailFirst(2)).await;
        let (lobby, host, hook) = lobby_with_hook(&app, &receiver.url).await;
        app.join(&lobby, json!({"name": "Ann"})).await;
        receiver.wait_for(1).await;
        wait_deliveries(&app, &hook, &[("pending", 1)]).await;
        settle().await;
        assert_eq!(receiver.got().len(), 1, "no retry before the backoff");
        // The first retry comes within 5 s, the second within 10 s (jitter only shortens).
        app.clock.advance(Duration::from_secs(5));
        receiver.wait_for(2).await;
        wait_deliveries(&app, &hook, &[("pending", 2)]).await;
        app.clock.advance(Duration::from_secs(10));
        receiver.wait_for(3).await;
        wait_deliveries(&app, &hook, &[("delivered", 3)]).await;
        app.clock.advance(Duration::from_secs(3600));
        settle().await;
        let got = receiver.got();
        assert_eq!(
            got.len(),
            3,
            "{}: delivered once, after two failures",
            app.backend
        );
        let ids: Vec<&str> = got.iter().map(|m| m.header("webhook-id")).collect();
        assert!(
            ids.iter().all(|id| *id == ids[0]),
            "one delivery id: {ids:?}"
        );
        // The host sees the three attempts, newest first: the success (recorded on the
        // delivery's own row) above the two failures (recorded apart).
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}/webhooks"), Some(&host))
            .await
            .body;
        let seen: Vec<(i64, Value, bool)> = view["webhooks"][0]["deliveries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                assert_eq!(d["delivery_id"], ids[0], "{}", app.backend);
                (
                    d["attempt"].as_i64().unwrap(),
                    d["status"].clone(),
                    d["error"].is_null(),
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                (3, json!(204), true),
                (2, json!(503), false),
                (1, json!(503), false)
            ],
            "{}",
            app.backend
        );
    }
}

#[tokio::test]
async fn retry_after_is_honoured() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::TooMany {
            first: 1,
            retry_after: 120,
        })
        .await;
        let (lobby, _, hook) = lobby_with_hook(&app, &receiver.url).await;
        app.join(&lobby, json!({"name": "Ann"})).await;
        wait_deliveries(&app, &hook, &[("pending", 1)]).await;
        // Well past any backoff of a first retry, short of the receiver's two minutes.
        app.clock.advance(Duration::from_secs(100));
        settle().await;
        assert_eq!(
            receiver.got().len(),
            1,
            "{}: not before Retry-After",
            app.backend
        );
        app.clock.advance(Duration::from_secs(20));
        receiver.wait_for(2).await;
        wait_deliveries(&app, &hook, &[("delivered", 2)]).await;
    }
}

#[tokio::test]
async fn a_dead_receiver_is_given_up_disabled_and_re_enabled_by_the_host() {
    for app in notify_apps(settings()).await {
        let url = down_url().await;
        let (lobby, host, hook) = lobby_with_hook(&app, &url).await;
        app.join(&lobby, json!({"name": "Ann"})).await;
        for attempt in 1..MAX_ATTEMPTS {
            wait_deliveries(&app, &hook, &[("pending", attempt)]).await;
            app.clock
                .advance(Duration::from_millis(MAX_DELAY_MS as u64));
        }
        wait_deliveries(&app, &hook, &[("dead", MAX_ATTEMPTS)]).await;
        let path = format!("/api/v1/lobbies/{lobby}/webhooks");
        let view = app.get(&path, Some(&host)).await.body;
        assert_eq!(view["webhooks"][0]["enabled"], false);
        let last = &view["webhooks"][0]["deliveries"][0];
        assert_eq!(last["status"], json!(null));
        assert!(
            last["error"].as_str().unwrap().contains("connect"),
            "{last}"
        );
        // Disabled: a new event owes it nothing.
        app.join(&lobby, json!({"name": "Bob"})).await;
        settle().await;
        assert_eq!(deliveries(&app, &hook).await.len(), 1);
        let enabled = app
            .post(&format!("{path}/{hook}/enable"), Some(&host), json!({}))
            .await;
        assert_eq!(enabled.status, StatusCode::OK, "{}", enabled.text);
        assert_eq!(enabled.body["enabled"], true);
        app.join(&lobby, json!({"name": "Cat"})).await;
        wait_deliveries(&app, &hook, &[("dead", MAX_ATTEMPTS), ("pending", 1)]).await;
    }
}

#[tokio::test]
async fn a_slow_receiver_slows_neither_orders_nor_another_receiver() {
    for app in notify_apps(settings()).await {
        let slow = Receiver::start(Behaviour::Hang).await;
        let fast = Receiver::start(Behaviour::Accept).await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let events = [
            "player-joined",
            "started",
            "round-resolved",
            "step-resolved",
        ];
        let (slow_hook, _) = add_webhook(&app, &lobby, &host, &slow.url, "standard", &events).await;
        add_webhook(&app, &lobby, &host, &fast.url, "standard", &events).await;
        let mut players = Vec::new();
        for name in ["Ann", "Bob"] {
            players.push(app.join(&lobby, json!({"name": name})).await);
        }
        app.start(&lobby, &host).await;
        // A round resolves while the slow receiver holds its requests.
        app.strike_each_other(&lobby, &players).await;
        // joined ×2, started, step-resolved, round-resolved: all at the fast one.
        let got = fast.wait_for(5).await;
        assert!(
            got.iter()
                .any(|m| m.json()["type"] == "lobby.round-resolved")
        );
        assert!(slow.got().len() <= herald::notify::worker::PER_TARGET);
        // The slow one's attempts time out (1 s) and are due again later.
        let start = std::time::Instant::now();
        loop {
            let rows = deliveries(&app, &slow_hook).await;
            if rows.len() == 5 && rows.iter().all(|(s, a)| s == "pending" && *a >= 1) {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(10), "{rows:?}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

#[tokio::test]
async fn a_restart_in_the_middle_of_retries_resumes_them() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::FailFirst(1)).await;
        let (lobby, _, hook) = lobby_with_hook(&app, &receiver.url).await;
        app.join(&lobby, json!({"name": "Ann"})).await;
        wait_deliveries(&app, &hook, &[("pending", 1)]).await;
        let app = app.restart().await;
        app.clock.advance(Duration::from_secs(5));
        receiver.wait_for(2).await;
        wait_deliveries(&app, &hook, &[("delivered", 2)]).await;
        settle().await;
        let got = receiver.got();
        assert_eq!(got.len(), 2, "{}", app.backend);
        assert_eq!(got[0].header("webhook-id"), got[1].header("webhook-id"));
    }
}

#[tokio::test]
async fn two_servers_on_one_database_deliver_each_notification_once() {
    for app in notify_apps(settings()).await {
        let second = app.second_server().await;
        let receiver = Receiver::start(Behaviour::Accept).await;
        let (lobby, host) = app
            .create_lobby("crossing-swords", json!({"max_players": 16}))
            .await;
        add_webhook(
            &app,
            &lobby,
            &host,
            &receiver.url,
            "standard",
            &["player-joined"],
        )
        .await;
        // Joins through both servers, so that both workers are woken.
        for n in 0..12 {
            let server = if n % 2 == 0 { &app } else { &second };
            server.join(&lobby, json!({"name": format!("P{n}")})).await;
        }
        receiver.wait_for(12).await;
        // Both workers look again (another process's rows are seen on the recheck).
        settle().await;
        tokio::time::sleep(herald::notify::worker::RECHECK).await;
        let got = receiver.got();
        let mut by_id: HashMap<String, usize> = HashMap::new();
        for message in &got {
            *by_id
                .entry(message.header("webhook-id").to_string())
                .or_default() += 1;
        }
        assert_eq!(by_id.len(), 12, "{}", app.backend);
        assert!(
            by_id.values().all(|&n| n == 1),
            "{}: {by_id:?}",
            app.backend
        );
    }
}

/// A worker that outlived its lease records nothing of its attempt: the process that took the
/// delivery over settles it. (The batch is settled by one statement whatever its size, so the
/// lease is checked row by row inside it.)
#[tokio::test]
async fn an_attempt_whose_lease_ran_out_is_not_recorded_and_the_new_owners_is() {
    use herald::notify::worker::LEASE_MS;
    use herald::store::Settled;
    for mut app in notify_apps(settings()).await {
        app.stop_worker();
        let (lobby, host, hook) = lobby_with_hook(&app, &down_url().await).await;
        app.join(&lobby, json!({"name": "Ann"})).await;
        app.join(&lobby, json!({"name": "Bob"})).await;
        let now = app.clock.now_millis();
        let first = app
            .store
            .claim_deliveries("first", now, now + LEASE_MS, 10)
            .await
            .unwrap();
        assert_eq!(first.len(), 2, "{}", app.backend);
        let later = now + LEASE_MS;
        let second = app
            .store
            .claim_deliveries("second", later, later + LEASE_MS, 10)
            .await
            .unwrap();
        assert_eq!(second.len(), 2, "{}: the leases ran out", app.backend);
        let finished = |claimed: &[herald::store::Claimed], owner_at: i64, settled: Settled| {
            let error = Some("the receiver answered 500");
            finished_all(claimed, owner_at, Some(500), error, settled)
        };
        let lost = app
            .store
            .finish_deliveries("first", &finished(&first, now + 1, Settled::Dead))
            .await
            .unwrap();
        assert_eq!(lost, 2, "{}", app.backend);
        assert_eq!(
            deliveries(&app, &hook).await,
            [("pending".to_string(), 0), ("pending".to_string(), 0)],
            "{}: nothing settled by the first owner",
            app.backend
        );
        let target = Uuid::parse_str(&hook).unwrap();
        assert!(app.store.attempts(target, 10).await.unwrap().is_empty());
        let lost = app
            .store
            .finish_deliveries(
                "second",
                &finished(&second, later + 1, Settled::Retry { at: later + 5_000 }),
            )
            .await
            .unwrap();
        assert_eq!(lost, 0, "{}", app.backend);
        assert_eq!(
            deliveries(&app, &hook).await,
            [("pending".to_string(), 1), ("pending".to_string(), 1)],
            "{}",
            app.backend
        );
        let attempts = app.store.attempts(target, 10).await.unwrap();
        assert_eq!(attempts.len(), 2, "{}", app.backend);
        assert!(attempts.iter().all(|a| a.attempt == 1
            && a.at == later + 1
            && a.status == Some(500)
            && a.error.as_deref() == Some("the receiver answered 500")));
        assert_eq!(
            app.store.next_delivery_at().await.unwrap(),
            Some(later + 5_000)
        );
        // The first owner's "dead" did not disable the destination; the owner's does.
        let path = format!("/api/v1/lobbies/{lobby}/webhooks");
        let view = app.get(&path, Some(&host)).await.body;
        assert_eq!(view["webhooks"][0]["enabled"], true, "{}", app.backend);
        let third = app
            .store
            .claim_deliveries("third", later + 5_000, later + 5_000 + LEASE_MS, 10)
            .await
            .unwrap();
        assert_eq!(third.len(), 2, "{}", app.backend);
        let lost = app
            .store
            .finish_deliveries(
                "third",
                &finished(&third[..1], later + 5_001, Settled::Dead),
            )
            .await
            .unwrap();
        assert_eq!(lost, 0, "{}", app.backend);
        let view = app.get(&path, Some(&host)).await.body;
        assert_eq!(view["webhooks"][0]["enabled"], false, "{}", app.backend);
        let mut states: Vec<(String, i64)> = deliveries(&app, &hook).await;
        states.sort();
        assert_eq!(
            states,
            [("dead".to_string(), 2), ("pending".to_string(), 1)],
            "{}",
            app.backend
        );
    }
}

/// On SQLite the worker's claims and settlements are commits of the lobbies' writer that
/// change no lobby (they share its group commit, and its write lock, instead of taking that
/// lock and an fsync beside it); on PostgreSQL they are transactions of their own.
#[tokio::test]
async fn sqlite_claims_and_settlements_ride_the_lobbies_writer() {
    use herald::notify::worker::LEASE_MS;
    use herald::store::Settled;
    for mut app in notify_apps(settings()).await {
        app.stop_worker();
        let (lobby, _, _) = lobby_with_hook(&app, &down_url().await).await;
        app.join(&lobby, json!({"name": "Ann"})).await;
        let now = app.clock.now_millis();
        let (commits, changes) = app.store.group_commits();
        let claimed = app
            .store
            .claim_deliveries("one", now, now + LEASE_MS, 10)
            .await
            .unwrap();
        assert_eq!(claimed.len(), 1, "{}", app.backend);
        let after_claim = app.store.group_commits();
        let finished = finished_all(&claimed, now + 1, Some(204), None, Settled::Delivered);
        let lost = app.store.finish_deliveries("one", &finished).await.unwrap();
        assert_eq!(lost, 0, "{}", app.backend);
        let after_settle = app.store.group_commits();
        let writer_commits = match app.backend {
            "sqlite" => 1,
            _ => 0,
        };
        assert_eq!(
            after_claim,
            (commits + writer_commits, changes),
            "{}: the claim",
            app.backend
        );
        assert_eq!(
            after_settle,
            (commits + 2 * writer_commits, changes),
            "{}: the settlement",
            app.backend
        );
        assert_eq!(
            app.store
                .deliveries(finished[0].claimed.target_id)
                .await
                .unwrap()[0]
                .1,
            "delivered",
            "{}",
            app.backend
        );
    }
}

/// Outbox work shares a batch with lobbies' changes on SQLite, in a savepoint of its own: a
/// settlement the database refuses (here a trigger refuses every failed attempt's record) is
/// undone alone and its caller told, and the join committed in the same transaction stands.
#[tokio::test]
async fn a_settlement_that_fails_in_a_shared_sqlite_batch_leaves_its_lobby_changes_standing() {
    use herald::notify::worker::LEASE_MS;
    use herald::store::Settled;
    use sqlx::{Connection, Executor, SqliteConnection};
    let mut app = notify_apps(settings()).await.remove(0);
    assert_eq!(app.backend, "sqlite");
    app.stop_worker();
    let (lobby, _, hook) = lobby_with_hook(&app, &down_url().await).await;
    app.join(&lobby, json!({"name": "Ann"})).await;
    let now = app.clock.now_millis();
    let claimed = app
        .store
        .claim_deliveries("one", now, now + LEASE_MS, 10)
        .await
        .unwrap();
    let error = Some("the receiver answered 500");
    let finished = finished_all(
        &claimed,
        now + 1,
        Some(500),
        error,
        Settled::Retry { at: now + 5_000 },
    );
    let (other, _) = app.create_lobby("crossing-swords", json!({})).await;
    let (commits, _) = app.store.group_commits();

    // Another connection holds the write lock (and adds the refusing trigger) while a first
    // join is queued, so the writer waits on that join's batch; the settlement and a second
    // join queued meanwhile then share the next one.
    let mut blocker = SqliteConnection::connect(&app.url).await.unwrap();
    blocker.execute("BEGIN IMMEDIATE").await.unwrap();
    blocker
        .execute(
            "CREATE TRIGGER refuse_attempts BEFORE INSERT ON notify_attempts \
             BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
        )
        .await
        .unwrap();
    let players = format!("/api/v1/lobbies/{other}/players");
    let join = |name: &'static str| app.post(&players, None, json!({"name": name}));
    let pause = || tokio::time::sleep(Duration::from_millis(300));
    let (first, settled, second, ()) = tokio::join!(
        join("Cat"),
        async {
            pause().await;
            app.store.finish_deliveries("one", &finished).await
        },
        async {
            pause().await;
            join("Dan").await
        },
        async {
            pause().await;
            pause().await;
            blocker.execute("COMMIT").await.unwrap();
        },
    );
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert_eq!(
        second.status,
        StatusCode::CREATED,
        "the join stands: {}",
        second.text
    );
    assert!(
        matches!(&settled, Err(e) if e.to_string().contains("refused by the test")),
        "the settlement's caller hears why: {settled:?}"
    );
    let (commits_after, _) = app.store.group_commits();
    assert!(
        commits_after - commits <= 2,
        "the settlement and the second join shared a commit: {} commits",
        commits_after - commits
    );
    assert_eq!(
        deliveries(&app, &hook).await,
        [("pending".to_string(), 0)],
        "nothing of the settlement was written"
    );
    let view = app
        .get(&format!("/api/v1/lobbies/{other}"), None)
        .await
        .body;
    assert_eq!(view["players"].as_array().unwrap().len(), 2);
}

/// On SQLite the writer hands each delivery it queues to the registered worker as the batch
/// commits, leased to it, with its destination and its event (no claim, no read back): no
/// claim finds it while the lease lives, it is not due before the lease's end, and a worker
/// that never settles it loses nothing, since the lease runs out and a claim takes the row.
/// The registration ends when its `Taking` is dropped. PostgreSQL hands nothing over: its
/// deliveries are claimed, several processes sharing its outbox.
#[tokio::test]
async fn sqlite_hands_each_queued_delivery_to_the_registered_worker_leased_to_it() {
    use herald::notify::worker::LEASE_MS;
    for mut app in notify_apps(settings()).await {
        app.stop_worker();
        let (lobby, _, hook) = lobby_with_hook(&app, &down_url().await).await;
        let Some((taking, mut handed)) = app.store.take_deliveries("taker", LEASE_MS) else {
            assert_eq!(app.backend, "postgres");
            assert!(!app.store.hands_deliveries_off());
            continue;
        };
        assert!(app.store.hands_deliveries_off());
        let now = app.clock.now_millis();
        app.join(&lobby, json!({"name": "Ann"})).await;
        let batch = handed.try_recv().expect("handed as the join committed");
        assert_eq!(batch.len(), 1);
        let delivery = &batch[0];
        let seq = delivery.event_seq.expect("an event's delivery");
        assert_eq!(delivery.id, format!("{hook}.{seq}"));
        assert_eq!(
            (delivery.kind.as_str(), delivery.attempts),
            ("player-joined", 0)
        );
        let target = delivery.target.as_ref().expect("its destination");
        assert_eq!(
            (target.id.to_string(), target.channel.as_str()),
            (hook.clone(), "standard")
        );
        let event = delivery.event.as_ref().expect("its event");
        assert_eq!((event.seq, event.kind.as_str()), (seq, "player-joined"));
        assert!(event.data.contains("Ann"), "{}", event.data);
        // Leased to the taker: no claim finds it, and it is due when the lease runs out.
        let other = app
            .store
            .claim_deliveries("other", now, now + LEASE_MS, 10)
            .await
            .unwrap();
        assert!(other.is_empty(), "{other:?}");
        assert_eq!(
            app.store.next_delivery_at().await.unwrap(),
            Some(now + LEASE_MS)
        );
        let later = now + LEASE_MS;
        let taken = app
            .store
            .claim_deliveries("other", later, later + LEASE_MS, 10)
            .await
            .unwrap();
        assert_eq!(taken.len(), 1, "the lease ran out");
        assert_eq!(taken[0].id, delivery.id);
        // Without a registration the next delivery is queued unclaimed, for any claim.
        drop(taking);
        assert!(!app.store.hands_deliveries_off());
        app.join(&lobby, json!({"name": "Bob"})).await;
        assert!(handed.try_recv().is_err(), "nothing handed");
        let claimed = app
            .store
            .claim_deliveries("other", now, now + LEASE_MS, 10)
            .await
            .unwrap();
        assert_eq!(claimed.len(), 1, "Bob's join, unleased");
        assert_ne!(claimed[0].id, delivery.id);
    }
}
