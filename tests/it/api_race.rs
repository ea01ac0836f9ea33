//! Exactly once: sixteen players whose orders arrive at the same moment, round after round.
//! Every round resolves once, every acknowledged order is revealed as sent.

use std::collections::HashMap;

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::support::{TestApp, apps};

const PLAYERS: usize = 16;
const ROUNDS: u64 = 100;

/// A harmless order that varies by round and seat, so that a lost or swapped order shows.
fn order_for(round: u64, seat: usize, ids: &[String]) -> (String, String) {
    let moves = ["dodge", "block", "riposte", "focus", "mend"];
    let mv = moves[(round as usize + seat) % moves.len()];
    let target = &ids[(seat + 1 + round as usize % (PLAYERS - 1)) % PLAYERS];
    (mv.to_string(), target.clone())
}

async fn sixteen_seated(app: &TestApp) -> (String, Vec<String>, Vec<String>) {
    let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
    let (mut ids, mut tokens) = (Vec::new(), Vec::new());
    for seat in 0..PLAYERS {
        let (id, token) = app.join(&lobby, json!({"name": format!("P{seat}")})).await;
        ids.push(id);
        tokens.push(token);
    }
    app.start(&lobby, &host).await;
    (lobby, ids, tokens)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_last_orders_resolve_each_round_exactly_once_and_lose_nothing() {
    for app in apps().await {
        let (lobby, ids, tokens) = sixteen_seated(&app).await;
        let app = std::sync::Arc::new(app);
        for round in 1..=ROUNDS {
            let mut tasks = Vec::new();
            for (seat, token) in tokens.iter().enumerate() {
                let (app, lobby, token) = (app.clone(), lobby.clone(), token.clone());
                let (mv, target) = order_for(round, seat, &ids);
                tasks.push(tokio::spawn(async move {
                    let body =
                        json!({"round": round, "step": "orders", "move": mv, "target": target});
                    app.post(
                        &format!("/api/v1/lobbies/{lobby}/orders"),
                        Some(&token),
                        body,
                    )
                    .await
                }));
            }
            let mut resolved = 0;
            for task in tasks {
                let reply = task.await.expect("task");
                assert_eq!(
                    reply.status,
                    StatusCode::ACCEPTED,
                    "{} round {round}: {}",
                    app.backend,
                    reply.text
                );
                resolved += usize::from(reply.body["resolved"] == true);
            }
            assert_eq!(
                resolved, 1,
                "{} round {round}: exactly one order resolves the round",
                app.backend
            );
        }

        let rounds = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds"), None)
            .await
            .body;
        let numbers: Vec<u64> = rounds
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["round"].as_u64().unwrap())
            .collect();
        assert_eq!(
            numbers,
            (1..=ROUNDS).collect::<Vec<_>>(),
            "{}: each round once",
            app.backend
        );
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["round"], ROUNDS + 1);

        let seat_of: HashMap<&str, usize> = ids
            .iter()
            .enumerate()
            .map(|(s, id)| (id.as_str(), s))
            .collect();
        for round in [1, ROUNDS / 2, ROUNDS] {
            let reveal = app
                .get(&format!("/api/v1/lobbies/{lobby}/rounds/{round}"), None)
                .await
                .body;
            let orders = reveal["orders"].as_array().unwrap();
            assert_eq!(
                orders.len(),
                PLAYERS,
                "{} round {round}: every order revealed",
                app.backend
            );
            for entry in orders {
                let seat = seat_of[entry["player"]["id"].as_str().unwrap()];
                let (mv, target) = order_for(round, seat, &ids);
                assert_eq!(entry["order"]["move"], Value::String(mv));
                assert_eq!(entry["order"]["target"], Value::String(target));
            }
        }

        let lobby_id = uuid::Uuid::parse_str(&lobby).unwrap();
        let mut events = Vec::new();
        loop {
            let after = events.last().map_or(0, |e: &herald::store::EventRow| e.seq);
            let page = app.store.events_after(lobby_id, after).await.unwrap();
            if page.is_empty() {
                break;
            }
            events.extend(page);
        }
        let resolved = events.iter().filter(|e| e.kind == "round-resolved").count();
        let submitted = events.iter().filter(|e| e.kind == "submitted").count();
        assert_eq!(
            resolved, ROUNDS as usize,
            "{}: one round-resolved event per round",
            app.backend
        );
        assert_eq!(submitted, PLAYERS * ROUNDS as usize);
    }
}

/// Many lobbies changed at the same moment share batches: each batch locks and reads all of
/// its lobbies in one statement and writes their events in a few. Every lobby must still get
/// every change once, and its events numbered 1, 2, 3… with none lost or doubled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changes_to_many_lobbies_at_once_each_land_once() {
    const LOBBIES: usize = 24;
    const SEATS: usize = 3;
    for app in apps().await {
        let app = &app;
        let mut lobbies = Vec::new();
        for _ in 0..LOBBIES {
            lobbies.push(app.create_lobby("crossing-swords", json!({})).await);
        }
        let joins = futures_util::future::join_all(lobbies.iter().flat_map(|(lobby, _)| {
            (0..SEATS).map(move |seat| {
                let path = format!("/api/v1/lobbies/{lobby}/players");
                async move {
                    let reply = app
                        .post(&path, None, json!({"name": format!("P{seat}")}))
                        .await;
                    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
                    (
                        reply.body["player_id"].as_str().unwrap().to_string(),
                        reply.body["player_token"].as_str().unwrap().to_string(),
                    )
                }
            })
        }))
        .await;
        for (lobby, host) in &lobbies {
            app.start(lobby, host).await;
        }
        let orders = futures_util::future::join_all(lobbies.iter().enumerate().flat_map(
            |(l, (lobby, _))| {
                let seated = &joins[l * SEATS..(l + 1) * SEATS];
                seated.iter().enumerate().map(move |(seat, (_, token))| {
                    let target = &seated[(seat + 1) % SEATS].0;
                    let order =
                        json!({"round": 1, "step": "orders", "move": "block", "target": target});
                    let path = format!("/api/v1/lobbies/{lobby}/orders");
                    async move { app.post(&path, Some(token), order).await }
                })
            },
        ))
        .await;
        assert!(
            orders.iter().all(|r| r.status == StatusCode::ACCEPTED),
            "{}",
            app.backend
        );
        let resolved = orders.iter().filter(|r| r.body["resolved"] == true).count();
        assert_eq!(
            resolved, LOBBIES,
            "{}: one resolution per lobby",
            app.backend
        );
        for (lobby, _) in &lobbies {
            let id = lobby.parse().unwrap();
            let seqs: Vec<i64> = app
                .store
                .events_after(id, 0)
                .await
                .unwrap()
                .iter()
                .map(|e| e.seq)
                .collect();
            // Three joins, sign-ups closing, the start, three submissions, the step and the
            // round resolving.
            assert_eq!(
                seqs,
                (1..=10).collect::<Vec<i64>>(),
                "{}: {lobby}",
                app.backend
            );
            let view = app.get(&format!("/api/v1/lobbies/{lobby}"), None).await;
            assert_eq!(view.body["round"], 2, "{}: {}", app.backend, view.text);
        }
    }
}

/// Two server processes on one database, each with its deadline scheduler, and the last order
/// racing the deadline round after round: each step resolves once, and an order acknowledged
/// with 202 is in that resolution; one refused with 409 came after it (and a default stands in).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_last_order_racing_the_deadline_on_two_servers_resolves_each_round_once() {
    const RACED: u64 = 200;
    for one in crate::support::timed_apps().await {
        let two = one.second_server().await;
        let settings = json!({"deadline_seconds": 10});
        let (lobby, _host, p) = crate::api_deadlines::seated(&one, settings, &["Ann", "Bob"]).await;
        let orders = format!("/api/v1/lobbies/{lobby}/orders");
        let mut bob_in = Vec::new();
        for round in 1..=RACED {
            // The race is against this round's deadline exactly: a clock moved by a fixed
            // amount could pass the next round's too when the order wins.
            let view = one
                .get(&format!("/api/v1/lobbies/{lobby}"), None)
                .await
                .body;
            let deadline_at = view["deadline_at"].as_str().unwrap();
            let deadline = herald::host::timing::parse_rfc3339(deadline_at).unwrap();
            let ann = json!({"round": round, "step": "orders", "move": "dodge", "target": p[1].0});
            let reply = one.post(&orders, Some(&p[0].1), ann).await;
            assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
            // A second into the round, so that a round Bob's order opens falls due after this
            // one's deadline.
            one.clock.advance(std::time::Duration::from_secs(1));
            let bob = json!({"round": round, "step": "orders", "move": "block", "target": p[0].0});
            let (reply, ()) = tokio::join!(two.post(&orders, Some(&p[1].1), bob), async {
                one.clock.set(deadline);
            });
            match reply.status {
                StatusCode::ACCEPTED => bob_in.push(true),
                StatusCode::CONFLICT => {
                    assert_eq!(reply.code(), "wrong-round", "{}", reply.text);
                    bob_in.push(false);
                }
                other => panic!("{}: round {round}: {other} {}", one.backend, reply.text),
            }
            crate::api_deadlines::wait_for_round(&one, &lobby, round + 1).await;
        }
        let listed = one
            .get(&format!("/api/v1/lobbies/{lobby}/rounds"), None)
            .await
            .body;
        let numbers: Vec<u64> = listed
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["round"].as_u64().unwrap())
            .collect();
        assert_eq!(numbers, (1..=RACED).collect::<Vec<_>>(), "{}", one.backend);
        let events = crate::api_deadlines::event_kinds(&one, &lobby).await;
        let resolved = events.iter().filter(|(k, _)| k == "step-resolved").count();
        assert_eq!(
            resolved, RACED as usize,
            "{}: one resolution per round",
            one.backend
        );
        for (round, bob_in) in (1..=RACED).zip(&bob_in) {
            let reveal = one
                .get(&format!("/api/v1/lobbies/{lobby}/rounds/{round}"), None)
                .await
                .body;
            let entries = reveal["orders"].as_array().unwrap();
            assert_eq!(
                entries[0]["source"], "order",
                "Ann's acknowledged order: {reveal}"
            );
            assert_eq!(entries[0]["order"]["move"], "dodge");
            let expected = if *bob_in { "order" } else { "default" };
            assert_eq!(
                entries[1]["source"], expected,
                "{} round {round}: {reveal}",
                one.backend
            );
            if *bob_in {
                assert_eq!(entries[1]["order"]["move"], "block");
            }
        }
        let won = bob_in.iter().filter(|b| **b).count();
        eprintln!(
            "{}: the last order beat the deadline in {won} of {RACED} rounds",
            one.backend
        );
    }
}
