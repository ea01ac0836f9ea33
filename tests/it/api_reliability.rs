//! The reliability record (docs/identity.md, "Reliability"): counted by the transaction that
//! resolves a step, excused by the host or a vacation, kept when the retention sweep deletes the lobby, and
//! equal to a recomputation from the stored steps whatever the game did (a property test over
//! the random games' seeds).

use std::time::Duration;

use axum::http::StatusCode;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

use herald::store::retention::Retention;
use proptest::prelude::any;
use proptest::test_runner::{Config, TestRunner};

use crate::api_deadlines::put;
use crate::api_profiles::{join_as, profile};
use crate::support::{TestApp, apps, manual_apps};

async fn record(app: &TestApp, handle: &str) -> Value {
    let reply = app.get(&format!("/api/v1/profiles/{handle}"), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["reliability"].clone()
}

async fn resolve_now(app: &TestApp, lobby: &str, host: &str) {
    let reply = app
        .post(
            &format!("/api/v1/lobbies/{lobby}/resolve-now"),
            Some(host),
            json!({}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

async fn excuse(
    app: &TestApp,
    lobby: &str,
    player: &str,
    token: &str,
    round: u64,
) -> crate::support::Reply {
    app.post(
        &format!("/api/v1/lobbies/{lobby}/players/{player}/excuse"),
        Some(token),
        json!({"round": round, "step": "orders"}),
    )
    .await
}

#[tokio::test]
async fn each_owed_step_is_counted_as_it_resolves_and_the_host_excuses_a_miss() {
    for app in apps().await {
        let (ann, _) = profile(&app, "Punctual").await;
        let (bob, _) = profile(&app, "Tardy").await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (a, _) = join_as(&app, &lobby, &ann, json!({})).await;
        let (b, _) = join_as(&app, &lobby, &bob, json!({})).await;
        let (c, c_token) = app.join(&lobby, json!({"name": "Nobody"})).await;
        app.start(&lobby, &host).await;
        // Round 1: Ann answers, Bob does not; the host resolves it.
        let order = json!({"round": 1, "step": "orders", "move": "strike", "target": c});
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/orders"),
                Some(&ann),
                order,
            )
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        resolve_now(&app, &lobby, &host).await;
        let r = record(&app, "punctual").await;
        assert_eq!(
            (r["owed"].clone(), r["on_time"].clone(), r["missed"].clone()),
            (json!(1), json!(1), json!(0))
        );
        let r = record(&app, "tardy").await;
        assert_eq!(
            (r["owed"].clone(), r["missed"].clone()),
            (json!(1), json!(1)),
            "{r}"
        );
        // 100 × 0 − 5 − 6 < 0: clamped to 0, still new.
        assert_eq!(
            (r["score"].clone(), r["tier"].clone()),
            (json!(0), json!("new"))
        );
        // Round 2: Bob's standing fallback counts as on time.
        let path = format!("/api/v1/lobbies/{lobby}/me/fallback");
        let reply = put(
            &app,
            &path,
            Some(&bob),
            json!({"move": "strike", "target": c}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        resolve_now(&app, &lobby, &host).await;
        let r = record(&app, "tardy").await;
        assert_eq!(
            (r["owed"].clone(), r["on_time"].clone(), r["missed"].clone()),
            (json!(2), json!(1), json!(1)),
            "{r}"
        );
        let r = record(&app, "punctual").await;
        assert_eq!(
            (r["owed"].clone(), r["missed"].clone()),
            (json!(2), json!(1))
        );

        // The host excuses Bob's round-1 miss; once only; a player may not.
        assert_eq!(
            excuse(&app, &lobby, &b, &c_token, 1).await.status,
            StatusCode::FORBIDDEN
        );
        let reply = excuse(&app, &lobby, &b, &host, 1).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.body["outcome"], "excused");
        let r = record(&app, "tardy").await;
        assert_eq!(
            r,
            json!({"owed": 2, "on_time": 1, "missed": 0, "excused": 1, "score": 100, "tier": "new"})
        );
        assert_eq!(
            excuse(&app, &lobby, &b, &host, 1).await.code(),
            "not-a-miss"
        );
        assert_eq!(
            excuse(&app, &lobby, &a, &host, 1).await.code(),
            "not-a-miss"
        );
        // Nobody's seat is bound to no profile: it has no record.
        assert_eq!(
            excuse(&app, &lobby, &c, &host, 1).await.code(),
            "nothing-to-excuse"
        );
        assert_eq!(
            excuse(&app, &lobby, &b, &host, 9).await.code(),
            "nothing-to-excuse"
        );
        let check = app.host.check_record("Tardy").await.unwrap();
        assert_eq!(check.stored_rows, check.recomputed_rows);
    }
}

#[tokio::test]
async fn records_and_games_survive_the_sweep_that_deletes_the_lobby() {
    const DAY: Duration = Duration::from_secs(24 * 3600);
    for app in manual_apps(1_800_000_000_000).await {
        let (key, _) = profile(&app, "Veteran").await;
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        join_as(&app, &lobby, &key, json!({})).await;
        app.join(&lobby, json!({"name": "Other"})).await;
        app.start(&lobby, &host).await;
        resolve_now(&app, &lobby, &host).await;
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/end"),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let before = record(&app, "veteran").await;
        assert_eq!(before["owed"], 1);
        app.clock.advance(40 * DAY);
        let policy = Retention {
            unstarted_days: Some(7),
            finished_days: Some(30),
            every: Duration::from_secs(3600),
        };
        let swept = app
            .store
            .sweep(&policy, app.clock.now_millis())
            .await
            .unwrap();
        assert_eq!(swept.finished, 1, "{}", app.backend);
        assert_eq!(
            app.get(&format!("/api/v1/lobbies/{lobby}"), None)
                .await
                .status,
            StatusCode::NOT_FOUND
        );
        let after = app.get("/api/v1/profiles/veteran", None).await.body;
        assert_eq!(after["reliability"], before, "{}", app.backend);
        assert_eq!(after["games"][0]["lobby"], lobby.as_str());
        assert_eq!(after["games"][0]["status"], "deleted");
        let check = app.host.check_record("veteran").await.unwrap();
        assert_eq!(check.stored, check.recomputed);
        assert_eq!(check.stored.owed, 1);
    }
}

/// What random games did to bindings, summed: the record must come out right through each.
#[derive(Copy, Clone, Debug, Default)]
struct Happened {
    /// Seats claimed before the start (bound, counted).
    bound_claims: usize,
    /// Seats claimed after the start (retro, history only).
    retro_claims: usize,
    /// Substitutes who took a seat a profile held, ending its holding.
    holdings_ended: usize,
}

/// One random game: seats bound by joining or by a claim before the start, claimed after it
/// (retro) or never; each round each seat answers, leaves a standing fallback or sends
/// nothing; the host resolves, substitutes a seat now and then and excuses some misses.
async fn random_game(app: &TestApp, seed: u64, keys: &[String], happened: &mut Happened) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (lobby, host) = app
        .create_lobby("crossing-swords", json!({"max_rounds": 8}))
        .await;
    let seats = rng.random_range(2..=4usize);
    let mut players: Vec<(String, String)> = Vec::new();
    // Whether each seat's holding is a profile's (bound or retro).
    let mut held = Vec::new();
    let mut later = Vec::new();
    for (n, key) in keys.iter().enumerate().take(seats) {
        match rng.random_range(0..4) {
            0 => {
                players.push(join_as(app, &lobby, key, json!({"name": format!("S{n}")})).await);
                held.push(true);
            }
            how => {
                let seat = app.join(&lobby, json!({"name": format!("S{n}")})).await;
                match how {
                    1 => {
                        claim(app, &lobby, key, &seat).await;
                        happened.bound_claims += 1;
                    }
                    2 => later.push((n, key.clone(), seat.clone())),
                    _ => {}
                }
                held.push(how == 1);
                players.push(seat);
            }
        }
    }
    app.start(&lobby, &host).await;
    for (n, key, seat) in &later {
        claim(app, &lobby, key, seat).await;
        held[*n] = true;
        happened.retro_claims += 1;
    }
    for round in 1..=8u64 {
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        if view["status"] == "finished" {
            break;
        }
        let alive: Vec<String> = view["players"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["alive"] == true)
            .map(|p| p["id"].as_str().unwrap().to_string())
            .collect();
        for (id, token) in &players {
            if !alive.contains(id) {
                continue;
            }
            let target = alive.iter().find(|t| *t != id).unwrap();
            match rng.random_range(0..3) {
                0 => {
                    let order = json!({"round": round, "step": "orders", "move": "strike", "target": target});
                    app.post(
                        &format!("/api/v1/lobbies/{lobby}/orders"),
                        Some(token),
                        order,
                    )
                    .await;
                }
                1 => {
                    let path = format!("/api/v1/lobbies/{lobby}/me/fallback");
                    put(
                        app,
                        &path,
                        Some(token),
                        json!({"move": "block", "target": target}),
                    )
                    .await;
                }
                _ => {}
            }
        }
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        if view["round"].as_u64() == Some(round) && view["status"] == "running" {
            resolve_now(app, &lobby, &host).await;
        }
        // Now and then a profile goes away for an hour or comes back: the misses that fall
        // due meanwhile are excused (docs/identity.md, "Vacations").
        for key in keys {
            match rng.random_range(0..4) {
                0 => vacation(app, key, true).await,
                1 => vacation(app, key, false).await,
                _ => {}
            }
        }
        // Excuse some misses (only bound seats have any to excuse).
        for (id, _) in &players {
            if rng.random_range(0..3) == 0 {
                let reply = excuse(app, &lobby, id, &host, round).await;
                assert!(
                    [StatusCode::OK, StatusCode::NOT_FOUND, StatusCode::CONFLICT]
                        .contains(&reply.status),
                    "{}",
                    reply.text
                );
            }
        }
        // Now and then a substitute takes a seat: its binding (if any) ends.
        if rng.random_range(0..5) == 0 {
            let at = rng.random_range(0..players.len());
            let reply = app
                .post(
                    &format!("/api/v1/lobbies/{lobby}/players/{}/replace", players[at].0),
                    Some(&host),
                    json!({"name": format!("Sub{round}")}),
                )
                .await;
            if reply.status == StatusCode::OK {
                players[at].1 = reply.body["player_token"].as_str().unwrap().to_string();
                happened.holdings_ended += usize::from(held[at]);
                held[at] = false;
            }
        }
    }
}

/// Declares a vacation of an hour from now for `key`'s profile, or ends it.
async fn vacation(app: &TestApp, key: &str, away: bool) {
    let reply = match away {
        true => {
            let now = app.clock.now_millis();
            let span = json!({
                "from": herald::host::timing::rfc3339(now),
                "until": herald::host::timing::rfc3339(now + 3_600_000),
            });
            put(app, "/api/v1/me/vacation", Some(key), span).await
        }
        false => {
            app.send(
                axum::http::Method::DELETE,
                "/api/v1/me/vacation",
                Some(key),
                None,
            )
            .await
        }
    };
    // Short vacations: the allowance lasts the whole test.
    assert!(reply.status.is_success(), "{}", reply.text);
}

async fn claim(app: &TestApp, lobby: &str, key: &str, (player, token): &(String, String)) {
    let reply = app
        .post(
            &format!("/api/v1/lobbies/{lobby}/players/{player}/claim"),
            Some(key),
            json!({"player_token": token}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

/// Plays the random games of `seeds` with four new profiles and checks that each profile's
/// stored record equals its recomputation from the stored steps; what the games did.
async fn play_and_check(
    app: &TestApp,
    seeds: &[u64],
    first_handle: usize,
) -> (Happened, [usize; 4]) {
    let handles: Vec<String> = (first_handle..first_handle + 4)
        .map(|n| format!("Random{n}"))
        .collect();
    let mut keys = Vec::new();
    for handle in &handles {
        keys.push(profile(app, handle).await.0);
    }
    let mut happened = Happened::default();
    for seed in seeds {
        random_game(app, *seed, &keys, &mut happened).await;
    }
    let (mut on_time, mut missed, mut excused, mut away) = (0, 0, 0, 0);
    for handle in &handles {
        let check = app.host.check_record(handle).await.unwrap();
        assert_eq!(
            check.stored_rows, check.recomputed_rows,
            "{} {handle} seeds {seeds:?}",
            app.backend
        );
        assert_eq!(check.stored, check.recomputed, "seeds {seeds:?}");
        on_time += check.stored.on_time;
        away += check
            .stored_rows
            .iter()
            .filter(|r| r.excused_by == Some(herald::store::Excuse::Vacation))
            .count();
        missed += check.stored.missed;
        excused += check.stored.excused;
    }
    (
        happened,
        [on_time as usize, missed as usize, excused as usize, away],
    )
}

#[tokio::test]
async fn the_record_equals_a_recomputation_from_the_stored_steps_after_random_games() {
    for app in apps().await {
        let seeds: Vec<u64> = (0..6).collect();
        let (happened, [on_time, missed, excused, away]) = play_and_check(&app, &seeds, 0).await;
        // The seeds are fixed: the games answered, missed and excused steps, and bound,
        // claimed (before and after the start) and substituted seats.
        assert!(
            on_time > 0 && missed > 0 && excused > 0 && away > 0,
            "{on_time} {missed} {excused} {away}"
        );
        assert!(
            happened.bound_claims > 0 && happened.retro_claims > 0 && happened.holdings_ended > 0,
            "{happened:?}"
        );
    }
}

#[test]
fn the_record_equals_a_recomputation_whatever_the_seeds() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let apps = runtime.block_on(apps());
    let mut runner = TestRunner::new(Config {
        cases: 3,
        failure_persistence: None,
        ..Config::default()
    });
    // Each case makes four new profiles on the same apps: handles must not repeat.
    let played = std::cell::Cell::new(0);
    runner
        .run(&proptest::collection::vec(any::<u64>(), 3), |seeds| {
            played.set(played.get() + 1);
            for app in &apps {
                runtime.block_on(play_and_check(app, &seeds, 4 * played.get()));
            }
            Ok(())
        })
        .unwrap();
}
