//! A delivery is sent once by the worker that holds it (docs/notifications.md, "Nothing lost,
//! nothing doubled"): its lease runs out on the store's clock while the receiver still holds
//! its request, the worker's next claim takes the row again, and no second request leaves.

use std::time::{Duration, Instant};

use serde_json::json;
use tokio::sync::watch;
use uuid::Uuid;

use crate::notify_receivers::{Behaviour, Receiver, settings, settle};
use crate::notify_webhooks::add_webhook;
use crate::support::{TestApp, notify_apps};
use herald::notify::worker::LEASE_MS;

/// The lease on the webhook's one delivery (unix ms), read from its outbox row.
async fn lease_until(app: &TestApp, hook: &str) -> Option<i64> {
    let pool = sqlx::AnyPool::connect(&app.url).await.expect("connect");
    let lease = sqlx::query_scalar("SELECT lease_until FROM notify_outbox WHERE target_id = $1")
        .bind(hook)
        .fetch_one(&pool)
        .await
        .expect("the delivery's row");
    pool.close().await;
    lease
}

/// Waits (at most 10 s of real time) until `done` holds of the webhook's row.
async fn wait_row(app: &TestApp, hook: &str, what: &str, done: impl Fn(Option<i64>) -> bool) {
    let start = Instant::now();
    loop {
        let lease = lease_until(app, hook).await;
        if done(lease) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{}: {what}; the lease reads {lease:?}",
            app.backend
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_delivery_whose_lease_runs_out_in_flight_is_claimed_again_but_sent_once() {
    // The receiver holds the request far longer than the tests' usual timeout allows.
    let settings = herald::notify::Settings {
        timeout: Duration::from_secs(30),
        ..settings()
    };
    for app in notify_apps(settings).await {
        let (open, gate) = watch::channel(false);
        let receiver = Receiver::start(Behaviour::Gate(gate)).await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (hook, _) = add_webhook(
            &app,
            &lobby,
            &host,
            &receiver.url,
            "standard",
            &["player-joined"],
        )
        .await;
        app.join(&lobby, json!({"name": "Ann"})).await;
        receiver.wait_for(1).await;
        let leased = lease_until(&app, &hook)
            .await
            .expect("leased while in flight");

        // The store's clock passes the lease while the request is in flight, and the worker
        // claims: it takes the row again, as it would take a stopped process's.
        app.clock.advance(Duration::from_millis(
            u64::try_from(LEASE_MS).unwrap() + 1_000,
        ));
        let renewed = app.clock.now_millis() + LEASE_MS;
        app.host.outbox_wake().notify_one();
        wait_row(&app, &hook, "the row is claimed again", |lease| {
            lease.is_some_and(|lease| lease > leased && lease <= renewed + 1_000)
        })
        .await;
        settle().await;
        assert_eq!(
            receiver.got().len(),
            1,
            "{}: the delivery in flight was sent again",
            app.backend
        );

        // The receiver answers the one request: the delivery is settled by it, once.
        open.send(true).unwrap();
        wait_row(&app, &hook, "the delivery is settled", |lease| {
            lease.is_none()
        })
        .await;
        let rows = app
            .store
            .deliveries(Uuid::parse_str(&hook).unwrap())
            .await
            .unwrap();
        let states: Vec<(&str, i64)> = rows.iter().map(|(_, s, a)| (s.as_str(), *a)).collect();
        assert_eq!(states, [("delivered", 1)], "{}", app.backend);
        settle().await;
        assert_eq!(receiver.got().len(), 1, "{}", app.backend);
    }
}
