//! The variant keys of the Crossing Swords rulings (§3.1) over HTTP: a lobby plays by the
//! variants it was created with and shows them; an unknown key or value is a 422 naming it.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::support::apps;

/// Every key of §3.1 (besides `max_rounds`) with its default, as the public view shows it.
fn defaults() -> Value {
    json!({
        "missing_move": "pass", "self_attacks": false, "halt_cycle": "void",
        "halt_keeps_taunt_penalty": false, "focus_assail": "declared",
        "taunt_before_focus": false, "assail_self": false, "assail_targets_all": false,
        "assail_cap": "discard", "taunt_snapshot": "start", "heal_cap": "none",
        "overkill": "proportional", "convert_at_cap": false, "tiebreak": "share"
    })
}

/// Ruling 7 with `halt_cycle = all_fire`: a three-player Halt cycle deals 3 to everyone, the
/// counters to each Halter; the view lists the effective settings and the page the variants.
#[tokio::test]
async fn a_lobby_created_with_variants_plays_by_them_and_shows_them() {
    for app in apps().await {
        let (lobby, host) = app
            .create_lobby(
                "crossing-swords",
                json!({"max_players": 3, "halt_cycle": "all_fire", "heal_cap": 20}),
            )
            .await;
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        let mut want = defaults();
        want["halt_cycle"] = json!("all_fire");
        want["heal_cap"] = json!(20);
        for (key, value) in want.as_object().unwrap() {
            assert_eq!(
                &view["settings"][key], value,
                "{}: settings.{key}",
                app.backend
            );
        }
        assert_eq!(view["settings"]["max_players"], 3);
        assert_eq!(view["settings"]["max_rounds"], Value::Null);

        let mut seats = Vec::new();
        for name in ["Ann", "Bob", "Cid"] {
            seats.push(app.join(&lobby, json!({"name": name})).await);
        }
        assert_eq!(app.start(&lobby, &host).await.status, StatusCode::OK);
        for (i, (_, token)) in seats.iter().enumerate() {
            let target = &seats[(i + 1) % 3].0;
            let reply = app
                .post(
                    &format!("/api/v1/lobbies/{lobby}/orders"),
                    Some(token),
                    json!({"round": 1, "step": "orders", "move": "halt", "target": target}),
                )
                .await;
            assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        }
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        for p in view["players"].as_array().unwrap() {
            assert_eq!((&p["hp"], &p["vp"]), (&json!(17), &json!(3)), "{p}");
        }
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await
            .body;
        let fates: Vec<&Value> = round["log"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "halt-resolved")
            .map(|e| &e["fate"])
            .collect();
        assert_eq!(fates, [&json!("cycle-fired"); 3], "{}", round["log"]);

        let page = app.get(&format!("/lobbies/{lobby}"), None).await;
        assert!(
            page.text
                .contains("Variants: Halt cycles all fire (Ruling 7) · heal cap 20 (Ruling 28)"),
            "{}",
            page.text
        );
    }
}

/// A default lobby shows every default and its page lists no variants.
#[tokio::test]
async fn a_default_lobby_shows_the_default_settings_and_no_variants() {
    for app in apps().await {
        let (lobby, _) = app.create_lobby("crossing-swords", json!({})).await;
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        for (key, value) in defaults().as_object().unwrap() {
            assert_eq!(&view["settings"][key], value, "settings.{key}");
        }
        assert_eq!(view["settings"]["max_players"], 16);
        let page = app.get(&format!("/lobbies/{lobby}"), None).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(!page.text.contains("Variants:"), "{}", page.text);
    }
}

/// Unknown keys and values outside §3.1's lists are 422s naming the key; nothing is created.
#[tokio::test]
async fn an_unknown_setting_or_variant_value_is_a_422_naming_it() {
    for app in apps().await {
        let count = || async {
            let list = app.get("/api/v1/lobbies", None).await.body;
            list.as_array().expect("the lobby list is an array").len()
        };
        let before = count().await;
        for (settings, code, key) in [
            (
                json!({"halt_cycles": "all_fire"}),
                "unknown-setting",
                "halt_cycles",
            ),
            (json!({"seed": 3}), "unknown-setting", "seed"),
            (
                json!({"halt_cycle": "sometimes"}),
                "invalid-setting",
                "halt_cycle",
            ),
            (json!({"heal_cap": 25}), "invalid-setting", "heal_cap"),
            (
                json!({"missing_move": "strike"}),
                "invalid-setting",
                "missing_move",
            ),
            (
                json!({"self_attacks": "yes"}),
                "invalid-setting",
                "self_attacks",
            ),
            (json!({"tiebreak": null}), "invalid-setting", "tiebreak"),
        ] {
            let reply = app
                .post(
                    "/api/v1/lobbies",
                    None,
                    json!({"game": "crossing-swords", "name": "x", "settings": settings}),
                )
                .await;
            assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{settings}");
            assert_eq!(reply.code(), code, "{settings}");
            let message = reply.body["error"]["message"].as_str().unwrap();
            assert!(message.contains(key), "{settings}: {message}");
        }
        assert_eq!(count().await, before, "a refused lobby was created");
    }
}

/// BST's seed stays out of the public settings until the game is over (api.md v1 additions).
#[tokio::test]
async fn a_bst_seed_is_not_shown_in_the_settings_while_the_game_runs() {
    for app in apps().await {
        let (lobby, _) = app.create_lobby("bst", json!({"seed": 42})).await;
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert!(view["settings"].is_object(), "{view}");
        assert!(view["settings"].get("seed").is_none(), "{view}");
    }
}
