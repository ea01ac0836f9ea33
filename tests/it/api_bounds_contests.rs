//! Contests' settings at their edges, on every backend: every variant key of rulings §5.1 at
//! its lowest and highest value is a game (201), one below or above is refused by name (422
//! `invalid-setting`), every word of a choice key is a game and any other word is refused;
//! and the refusals of the `setup` hook that §3.9 lists (round, `after`, HP, energy, the
//! hand against `hand_limit`, the 17 cards once each, combat-long modifiers only). The keys
//! come from `Rulebook::RANGES` and `Rulebook::CHOICES`, so a key added there is covered here
//! without a word of this file changing.

use axum::http::StatusCode;
use serde_json::{Map, Value, json};

use herald::rules::contests::rulebook::Rulebook;

use crate::api_contests::deck;
use crate::support::{Reply, TestApp, apps};

async fn create(app: &TestApp, settings: &Value) -> Reply {
    app.post(
        "/api/v1/lobbies",
        None,
        json!({"game": "contests", "name": "Edges", "settings": settings}),
    )
    .await
}

/// Asserts that `settings` make a lobby.
async fn accepted(app: &TestApp, settings: &Value) {
    let reply = create(app, settings).await;
    assert_eq!(
        reply.status,
        StatusCode::CREATED,
        "{}: {settings}: {}",
        app.backend,
        reply.text
    );
}

/// Asserts that `settings` are refused with 422 `code`, the message naming `names`.
async fn refused(app: &TestApp, settings: &Value, code: &str, names: &str) {
    let reply = create(app, settings).await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, code),
        "{}: {settings}: {}",
        app.backend,
        reply.text
    );
    let message = reply.body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(names),
        "{settings}: {message:?} names {names}"
    );
}

/// Every numeric key at one end of its range. Both ends are one game each: `hand_limit` is
/// not below `opening_hand` at either (§5.1).
fn every_key_at(end: fn(u32, u32) -> u32) -> Value {
    let keys: Map<String, Value> = Rulebook::RANGES
        .iter()
        .map(|(key, lo, hi)| ((*key).to_owned(), json!(end(*lo, *hi))))
        .collect();
    Value::Object(keys)
}

#[tokio::test]
async fn every_variant_key_holds_at_its_bounds_and_is_refused_one_past_them() {
    for app in apps().await {
        accepted(&app, &every_key_at(|lo, _| lo)).await;
        accepted(&app, &every_key_at(|_, hi| hi)).await;
        for (key, lo, hi) in Rulebook::RANGES {
            for outside in [i64::from(lo) - 1, i64::from(hi) + 1] {
                refused(&app, &json!({ key: outside }), "invalid-setting", key).await;
            }
            refused(&app, &json!({ key: "many" }), "invalid-setting", key).await;
        }
        for (key, words) in Rulebook::CHOICES {
            for word in words {
                accepted(&app, &json!({ key: word })).await;
            }
            refused(&app, &json!({ key: "sometimes" }), "invalid-setting", key).await;
            refused(&app, &json!({ key: 1 }), "invalid-setting", key).await;
        }
        refused(
            &app,
            &json!({"opening_hand": 6, "hand_limit": 5}),
            "invalid-setting",
            "hand_limit",
        )
        .await;
        refused(&app, &json!({"wits": 4}), "unknown-setting", "wits").await;
    }
}

/// A setup at round 3, after an Archery phase, with `p1` as P1's entry.
fn setup(p1: Value) -> Value {
    json!({"setup": {"round": 3, "after": "archery", "archery_phases": 1, "players": [p1]}})
}

/// A hand of the first `n` cards of the canonical deck, the rest in the deck.
fn cards(n: usize) -> Value {
    let all = deck(&[]);
    json!({"hand": &all[..n], "deck": &all[n..]})
}

#[tokio::test]
async fn a_setup_the_rulings_forbid_is_refused_and_its_edges_are_games() {
    for app in apps().await {
        // §3.9: `after` is null exactly at round 1, and the round within max_phases.
        accepted(&app, &json!({"setup": {"round": 1, "after": null}})).await;
        for bad in [
            json!({"setup": {"round": 1, "after": "magic"}}),
            json!({"setup": {"round": 3, "after": null}}),
            json!({"setup": {"round": 0}}),
            json!({"max_phases": 5, "setup": {"round": 6, "after": "magic"}}),
            json!({"setup": {"round": 3, "after": "magic", "archery_phases": 3}}),
            json!({"setup": {"round": 3, "after": "magic", "players": [{}, {}, {}]}}),
        ] {
            refused(&app, &bad, "invalid-setup", "setup").await;
        }
        // HP 1 is the least; 0 is a defeated combatant, not a position (§3.9).
        accepted(&app, &setup(json!({"hp": 1}))).await;
        refused(&app, &setup(json!({"hp": 0})), "invalid-setup", "hp").await;
        // Energy 0 or more (§2.2).
        accepted(&app, &setup(json!({"energy": 0}))).await;
        refused(
            &app,
            &setup(json!({"energy": -1})),
            "invalid-setup",
            "energy",
        )
        .await;
        // The hand holds at most hand_limit cards (§2.6): the default 6, and 7 with 7.
        accepted(&app, &setup(cards(6))).await;
        refused(&app, &setup(cards(7)), "invalid-setup", "hand_limit").await;
        let mut seven = setup(cards(7));
        seven["hand_limit"] = json!(7);
        accepted(&app, &seven).await;
        // Hand + deck + discard are the 17 cards once each (§2.6: one copy of each).
        let all = deck(&[]);
        let twice = json!({"hand": [&all[0], &all[0]], "deck": &all[2..]});
        refused(&app, &setup(twice), "invalid-setup", "once each").await;
        let short = json!({"hand": [&all[0]], "deck": &all[2..]});
        refused(&app, &setup(short), "invalid-setup", "once each").await;
        let spank = json!({"hand": ["spank"], "deck": &all[1..]});
        refused(&app, &setup(spank), "invalid-setup", "spank").await;
        // A window has combat-long modifiers only (§2.5, §3.9).
        accepted(&app, &setup(json!({"mods": [["might", -2, "combat"]]}))).await;
        for (mods, names) in [
            (json!([["might", 3, "phase"]]), "phase"),
            (json!([["might", 3, "contest"]]), "contest"),
            (json!([["wits", -1, "combat"]]), "wits"),
        ] {
            refused(
                &app,
                &setup(json!({ "mods": mods })),
                "invalid-setup",
                names,
            )
            .await;
        }
    }
}

/// HP above the maximum depends on the builds, so it is refused at the start (§3.9): the
/// default build's maximum is 7 (§2.7), so 7 starts and 8 does not.
#[tokio::test]
async fn a_setup_above_a_combatants_maximum_hp_is_refused_at_the_start() {
    for app in apps().await {
        for (hp, status) in [(7, StatusCode::OK), (8, StatusCode::UNPROCESSABLE_ENTITY)] {
            let (lobby, host) = app
                .create_lobby("contests", setup(json!({ "hp": hp })))
                .await;
            app.join(&lobby, json!({"name": "Ann"})).await;
            app.join(&lobby, json!({"name": "Bob"})).await;
            let reply = app
                .post(
                    &format!("/api/v1/lobbies/{lobby}/start"),
                    Some(&host),
                    json!({}),
                )
                .await;
            assert_eq!(
                reply.status, status,
                "{}: hp {hp}: {}",
                app.backend, reply.text
            );
            if status != StatusCode::OK {
                assert_eq!(reply.code(), "invalid-setup", "{}", reply.text);
                let view = app.get(&format!("/api/v1/lobbies/{lobby}"), None).await;
                assert_eq!(
                    view.body["status"], "signups",
                    "a refused start changes nothing"
                );
            }
        }
    }
}
