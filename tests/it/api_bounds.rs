//! Every number a host may put in a lobby's settings is bounded and checked: out of bounds is a
//! 422 whose message names the field (a number no field type can hold at all is a 400 that
//! names it), and nothing wraps.

use axum::http::StatusCode;
use serde_json::{Value, json};

use herald::games::create::Input;
use herald::host::GameKind;

use crate::support::{TestApp, apps};

async fn create(app: &TestApp, game: &str, settings: Value) -> crate::support::Reply {
    app.post(
        "/api/v1/lobbies",
        None,
        json!({"game": game, "name": "Bounds", "settings": settings}),
    )
    .await
}

/// Each case: settings, and the field its refusal must name (None: accepted).
async fn check(app: &TestApp, game: &str, cases: &[(Value, Option<&str>)]) {
    for (settings, field) in cases {
        let reply = create(app, game, settings.clone()).await;
        match field {
            None => assert_eq!(
                reply.status,
                StatusCode::CREATED,
                "{}: {game} {settings}: {}",
                app.backend,
                reply.text
            ),
            Some(field) => {
                assert_eq!(
                    reply.status,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "{}: {game} {settings}: {}",
                    app.backend,
                    reply.text
                );
                let message = reply.body["error"]["message"].as_str().unwrap();
                assert!(
                    message.contains(field),
                    "{game} {settings}: {message:?} names {field}"
                );
            }
        }
    }
}

#[tokio::test]
async fn crossing_swords_settings_are_bounded_and_refusals_name_the_field() {
    let cs_player = |p: Value| json!({"setup": {"players": [p, {}]}});
    let cases = [
        (json!({"max_rounds": 10000}), None),
        (json!({"max_rounds": 10001}), Some("max_rounds")),
        (json!({"max_rounds": 0}), Some("max_rounds")),
        (json!({"max_rounds": 4294967295u32}), Some("max_rounds")),
        (json!({"setup": {"round": 10000}}), None),
        (json!({"setup": {"round": 10001}}), Some("setup.round")),
        (
            json!({"setup": {"round": 4294967295u32}}),
            Some("setup.round"),
        ),
        (json!({"setup": {"round": 0}}), Some("setup.round")),
        (
            json!({"max_rounds": 5, "setup": {"round": 6}}),
            Some("setup.round"),
        ),
        (json!({"max_players": 16}), None),
        (json!({"max_players": 17}), Some("max_players")),
        (json!({"max_players": 1}), Some("max_players")),
        (json!({"max_players": 4294967295u32}), Some("max_players")),
        (cs_player(json!({"hp": 1000000, "vp": 1000000})), None),
        (
            cs_player(json!({"hp": 1000001})),
            Some("setup.players[0].hp"),
        ),
        (
            cs_player(json!({"vp": 9223372036854775807i64})),
            Some("setup.players[0].hp and .vp"),
        ),
        (cs_player(json!({"hp": -1})), Some("setup.players[0].hp")),
        (cs_player(json!({"vp": -1})), Some(".vp")),
        (cs_player(json!({"focus": 1, "dodge": 0})), None),
        (
            cs_player(json!({"focus": 2})),
            Some("setup.players[0].focus"),
        ),
        (
            cs_player(json!({"dodge": 18446744073709551615u64})),
            Some(".dodge"),
        ),
        (
            json!({"max_players": 2, "setup": {"players": [{}, {}, {}]}}),
            Some("setup.players"),
        ),
    ];
    for app in apps().await {
        check(&app, "crossing-swords", &cases).await;
    }
}

#[tokio::test]
async fn bst_settings_are_bounded_and_refusals_name_the_field() {
    let bst_player = |p: Value| json!({"setup": {"players": [p]}});
    let full: Vec<String> = (0..81).map(|_| "R3".to_string()).collect();
    let cases = [
        (json!({"max_rounds": 10000}), None),
        (json!({"max_rounds": 10001}), Some("max_rounds")),
        (json!({"max_rounds": 0}), Some("max_rounds")),
        (json!({"setup": {"round": 10000}}), None),
        (
            json!({"setup": {"round": 4294967295u32}}),
            Some("setup.round"),
        ),
        (json!({"setup": {"round": 0}}), Some("setup.round")),
        (
            json!({"max_rounds": 3, "setup": {"round": 4}}),
            Some("setup.round"),
        ),
        (json!({"max_players": 3}), Some("max_players")),
        (json!({"seed": 18446744073709551615u64}), None),
        (bst_player(json!({"hp": 85})), None),
        (bst_player(json!({"hp": 86})), Some("setup.players[0].hp")),
        (bst_player(json!({"hp": 0})), Some("setup.players[0].hp")),
        (
            bst_player(json!({"hp": 9223372036854775807i64})),
            Some("setup.players[0].hp"),
        ),
        (bst_player(json!({"charges": 5})), None),
        (
            bst_player(json!({"charges": 6})),
            Some("setup.players[0].charges"),
        ),
        (
            bst_player(json!({"charges": -1})),
            Some("setup.players[0].charges"),
        ),
        (bst_player(json!({"poison": 1000})), None),
        (
            bst_player(json!({"poison": 1001})),
            Some("setup.players[0].poison"),
        ),
        (
            bst_player(json!({"poison": -1})),
            Some("setup.players[0].poison"),
        ),
        (
            bst_player(
                json!({"hand": ["R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "Y3", "Y4"]}),
            ),
            Some("setup.players[0].hand"),
        ),
        (
            bst_player(json!({"hand": []})),
            Some("setup.players[0].hand"),
        ),
        (
            json!({"setup": {"players": [{}, {}, {}]}}),
            Some("setup.players"),
        ),
        (json!({"pool": full}), Some("pool")),
        (json!({"setup": {"pool": full}}), Some("setup.pool")),
        (json!({"setup": {"discard": full}}), Some("setup.discard")),
    ];
    for app in apps().await {
        check(&app, "bst", &cases).await;
    }
}

/// What a game's create form offers, the API accepts (the form never offers a game the API
/// refuses): every whole number at its lowest together, and at its highest; every choice and
/// every flag alone. Read from each registered game's create settings, so a new game or key
/// is covered as it is registered (each game's refusals past its bounds: `api_bounds_*.rs`).
#[tokio::test]
async fn every_games_create_form_offers_only_settings_the_api_accepts() {
    for app in apps().await {
        for kind in GameKind::ALL {
            let offered = kind.create_settings();
            let at = |end: fn(u64, u64) -> u64| -> Value {
                offered
                    .iter()
                    .filter_map(|s| match s.input {
                        Input::Whole { min, max } => Some((s.key.to_owned(), json!(end(min, max)))),
                        Input::Choice(_) | Input::Flag | Input::Words | Input::Json => None,
                    })
                    .collect::<serde_json::Map<_, _>>()
                    .into()
            };
            let mut cases = vec![(at(|lo, _| lo), None), (at(|_, hi| hi), None)];
            for setting in offered {
                match setting.input {
                    Input::Choice(options) => cases.extend(options.iter().map(|(value, _)| {
                        let value = value.parse::<u64>().map_or(json!(value), Value::from);
                        (json!({ setting.key: value }), None)
                    })),
                    Input::Flag => cases.push((json!({ setting.key: true }), None)),
                    Input::Whole { .. } | Input::Words | Input::Json => {}
                }
            }
            check(&app, kind.id(), &cases).await;
        }
    }
}

/// Numbers no field can hold at all (negative for a count, past 2^64, fractions) are malformed
/// input: 400, with the field's path in the message.
#[tokio::test]
async fn a_number_its_field_cannot_hold_is_a_400_naming_the_field() {
    for app in apps().await {
        for (game, settings, path) in [
            (
                "crossing-swords",
                json!({"setup": {"round": 4294967296u64}}),
                "setup.round",
            ),
            ("crossing-swords", json!({"max_rounds": -1}), "max_rounds"),
            (
                "crossing-swords",
                json!({"max_players": 2.5}),
                "max_players",
            ),
            (
                "crossing-swords",
                json!({"setup": {"players": [{"hp": 1e30}]}}),
                "setup.players[0].hp",
            ),
            ("bst", json!({"seed": -1}), "seed"),
            ("bst", json!({"seed": 18446744073709551616.0}), "seed"),
            (
                "bst",
                json!({"setup": {"round": 4294967296u64}}),
                "setup.round",
            ),
        ] {
            let reply = create(&app, game, settings.clone()).await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::BAD_REQUEST, "invalid-body"),
                "{game} {settings}: {}",
                reply.text
            );
            let message = reply.body["error"]["message"].as_str().unwrap();
            assert!(message.contains(path), "{message:?} names {path}");
        }
    }
}
