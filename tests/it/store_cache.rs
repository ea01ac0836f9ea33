//! The store's cache of committed lobbies: what it serves is exactly what the database holds,
//! and a second server writing the same database never leaves this one showing a stale lobby.

use serde_json::json;

use crate::support::{TestApp, apps};

/// The cached snapshot of `lobby` on `app` equals one read afresh by another store (whose cache
/// is empty for it). Pending orders are compared as a set: the database returns them in no
/// particular order.
/// It also checks that the copy was served from the cache: the write that preceded this call
/// left its result there.
async fn assert_cache_matches_database(app: &TestApp, fresh: &TestApp, lobby: &str, when: &str) {
    let id = lobby.parse().unwrap();
    let misses = app.store.cache_misses();
    let cached = app.store.snapshot(id).await.unwrap().unwrap();
    assert_eq!(
        app.store.cache_misses(),
        misses,
        "{}: {when}: served from the cache",
        app.backend
    );
    let read = fresh.store.snapshot(id).await.unwrap().unwrap();
    // The current round's steps, where the cached copy knows them, are the database's.
    if let Some(steps) = cached.round_steps.known() {
        let stored = fresh.store.steps(id, Some(read.lobby.round)).await.unwrap();
        assert_eq!(
            steps,
            &stored[..],
            "{}: {when}: the round's steps",
            app.backend
        );
    }
    let (mut cached, mut read) = ((*cached).clone(), (*read).clone());
    cached.orders.sort_by_key(|o| o.player_id);
    read.orders.sort_by_key(|o| o.player_id);
    assert_eq!(cached, read, "{}: {when}", app.backend);
}

/// BST files steps under the current round (its opening, then the play step while decision
/// steps follow), which the lobby view shows from the cached copy: they must be the stored ones.
#[tokio::test]
async fn a_bst_rounds_steps_known_in_memory_are_the_stored_ones() {
    use herald::bots::policy::{Strategy, answer};
    use rand::SeedableRng;
    for app in apps().await {
        let (lobby, host) = app.create_lobby("bst", json!({"seed": 7})).await;
        let players = [
            app.join(&lobby, json!({"name": "Ann"})).await,
            app.join(&lobby, json!({"name": "Bob"})).await,
        ];
        app.start(&lobby, &host).await;
        let fresh = app.second_server().await;
        assert_cache_matches_database(&app, &fresh, &lobby, "after the start").await;
        let id = lobby.parse().unwrap();
        let known = app.store.snapshot(id).await.unwrap().unwrap();
        assert!(
            known.round_steps.known().is_some(),
            "{}: the start's own write knows round 1's steps",
            app.backend
        );
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut answered = 0;
        while answered < 12 {
            let mut sent = false;
            for (_, token) in &players {
                let me = app
                    .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(token))
                    .await;
                let Some(order) = answer(&me.body, Strategy::Random, &mut rng) else {
                    continue;
                };
                let reply = app
                    .post(
                        &format!("/api/v1/lobbies/{lobby}/orders"),
                        Some(token),
                        order,
                    )
                    .await;
                assert_eq!(reply.status, 202, "{}", reply.text);
                let fresh = app.second_server().await;
                let when = format!("after answer {answered}");
                assert_cache_matches_database(&app, &fresh, &lobby, &when).await;
                answered += 1;
                sent = true;
            }
            if !sent {
                break; // the game is over
            }
        }
        assert!(
            answered >= 4,
            "{}: the game went on for a while",
            app.backend
        );
        let view = app.get(&format!("/api/v1/lobbies/{lobby}"), None).await;
        let again = fresh_view(&app, &lobby).await;
        assert_eq!(
            view.body, again,
            "{}: the lobby view from memory and from a fresh read",
            app.backend
        );
    }
}

/// The lobby view as a server that has never cached the lobby shows it.
async fn fresh_view(app: &TestApp, lobby: &str) -> serde_json::Value {
    app.second_server()
        .await
        .get(&format!("/api/v1/lobbies/{lobby}"), None)
        .await
        .body
}

#[tokio::test]
async fn the_cached_lobby_is_always_what_the_database_holds() {
    for app in apps().await {
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let mut players = Vec::new();
        for seat in 0..4 {
            players.push(app.join(&lobby, json!({"name": format!("P{seat}")})).await);
            let fresh = app.second_server().await;
            assert_cache_matches_database(&app, &fresh, &lobby, &format!("after join {seat}"))
                .await;
        }
        app.start(&lobby, &host).await;
        for round in 1..=3u64 {
            for (seat, (_, token)) in players.iter().enumerate() {
                let target = &players[(seat + 1) % players.len()].0;
                let path = format!("/api/v1/lobbies/{lobby}/orders");
                let order =
                    json!({"round": round, "step": "orders", "move": "block", "target": target});
                if seat == 0 {
                    // An order replaced before the step resolves.
                    let sent = app.post(&path, Some(token), order.clone()).await;
                    assert_eq!(sent.status, 202, "{}", sent.text);
                    let fresh = app.second_server().await;
                    assert_cache_matches_database(&app, &fresh, &lobby, "before a replacement")
                        .await;
                }
                let sent = app.post(&path, Some(token), order).await;
                assert_eq!(sent.status, 202, "{}", sent.text);
                let fresh = app.second_server().await;
                let when = format!("round {round}, seat {seat} answered");
                assert_cache_matches_database(&app, &fresh, &lobby, &when).await;
            }
        }
    }
}

#[tokio::test]
async fn a_second_server_writing_the_database_never_leaves_this_one_stale() {
    for first in apps().await {
        let second = first.second_server().await;
        let (lobby, host) = first.create_lobby("crossing-swords", json!({})).await;
        let view = format!("/api/v1/lobbies/{lobby}");
        let a = first.join(&lobby, json!({"name": "A"})).await;
        // The first server reads (and caches) the lobby; the second changes it.
        assert_eq!(
            first.get(&view, None).await.body["players"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
        let b = second.join(&lobby, json!({"name": "B"})).await;
        assert_eq!(
            first.get(&view, None).await.body["players"]
                .as_array()
                .unwrap()
                .len(),
            2,
            "{}: the first server sees the second's join",
            first.backend
        );
        // And the first server's writes start from the second's state, not its cached copy.
        assert_eq!(first.start(&lobby, &host).await.status, 200);
        let me = second.get(&format!("{view}/me"), Some(&b.1)).await;
        assert_eq!(
            me.body["status"], "running",
            "{}: {}",
            second.backend, me.text
        );
        let order =
            |target: &str| json!({"round": 1, "step": "orders", "move": "block", "target": target});
        let sent = second
            .post(&format!("{view}/orders"), Some(&a.1), order(&b.0))
            .await;
        assert_eq!(sent.status, 202, "{}", sent.text);
        let sent = first
            .post(&format!("{view}/orders"), Some(&b.1), order(&a.0))
            .await;
        assert_eq!(sent.status, 202, "{}", sent.text);
        assert_eq!(
            sent.body["resolved"], true,
            "{}: the first server counted the second's order",
            first.backend
        );
        let rounds = first.get(&format!("{view}/rounds"), None).await;
        assert_eq!(rounds.body.as_array().unwrap().len(), 1, "{}", rounds.text);
    }
}

/// The host's controls change players (a new name or token, a removed sign-up and the seats
/// after it, a kicked player's dropped order): the cached lobby stays what the database holds.
#[tokio::test]
async fn the_cache_follows_the_hosts_controls() {
    use axum::http::Method;
    for app in apps().await {
        let fresh = app.second_server().await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let mut players = Vec::new();
        for name in ["Ann", "Bob", "Cat", "Dan", "Eve"] {
            players.push(app.join(&lobby, json!({"name": name})).await);
        }
        let path = |rest: &str| format!("/api/v1/lobbies/{lobby}/{rest}");
        app.send(
            Method::DELETE,
            &path(&format!("players/{}", players[1].0)),
            Some(&host),
            None,
        )
        .await;
        assert_cache_matches_database(&app, &fresh, &lobby, "after a removal").await;
        app.send(Method::DELETE, &path("me"), Some(&players[0].1), None)
            .await;
        assert_cache_matches_database(&app, &fresh, &lobby, "after a player left").await;
        app.start(&lobby, &host).await;
        let reply = app
            .post(
                &path(&format!("players/{}/replace", players[2].0)),
                Some(&host),
                json!({"name": "Zed"}),
            )
            .await;
        assert_eq!(reply.status, axum::http::StatusCode::OK, "{}", reply.text);
        assert_cache_matches_database(&app, &fresh, &lobby, "after a substitute").await;
        let order = json!({"round": 1, "step": "orders", "move": "block", "target": players[2].0});
        app.post(&path("orders"), Some(&players[3].1), order).await;
        app.post(
            &path(&format!("players/{}/kick", players[3].0)),
            Some(&host),
            json!({}),
        )
        .await;
        assert_cache_matches_database(&app, &fresh, &lobby, "after a kick").await;
        app.post(&path("end"), Some(&host), json!({})).await;
        assert_cache_matches_database(&app, &fresh, &lobby, "after the end").await;
    }
}
