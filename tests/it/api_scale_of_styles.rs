//! The Scale of Styles over HTTP, on every backend: whole duels played by the reference bots,
//! TC-02 from a `setup` and a `dice` list step by step, the refusals of §3.3 with their
//! statuses, and the checks of join fields and dice (its secrets: `api_secrecy.rs`).

use axum::http::StatusCode;
use rand::SeedableRng;
use serde_json::{Value, json};

use herald::bots::policy::{Strategy, answer};
use herald::rules::scale_of_styles::Card;

use crate::support::{TestApp, apps};

/// A whole pack as a setup deck: `top` first, the rest in canonical order.
fn full_deck(top: &[&str]) -> Vec<String> {
    let mut deck: Vec<String> = top.iter().map(|c| (*c).to_owned()).collect();
    let rest: Vec<String> = Card::pack(2)
        .iter()
        .map(Card::to_string)
        .filter(|c| !deck.contains(c))
        .collect();
    deck.extend(rest);
    deck
}

pub(crate) async fn duel(
    app: &TestApp,
    settings: Value,
    joins: [Value; 2],
) -> (String, String, Vec<(String, String)>) {
    let (lobby, host) = app.create_lobby("scale-of-styles", settings).await;
    let mut players = Vec::new();
    for (name, mut join) in ["Ann", "Bob"].into_iter().zip(joins) {
        join["name"] = json!(name);
        players.push(app.join(&lobby, join).await);
    }
    (lobby, host, players)
}

/// Plays the duel to the end with `strategy` for both seats; returns the answers sent.
async fn play_out(
    app: &TestApp,
    lobby: &str,
    players: &[(String, String)],
    strategy: Strategy,
    seed: u64,
) -> usize {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut answered = 0;
    for _ in 0..1_000 {
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        if view["status"] == "finished" {
            return answered;
        }
        for (id, token) in players {
            let owes = view["players"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["id"] == id.as_str() && p["owes"] == true);
            if !owes {
                continue;
            }
            let me = app
                .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(token))
                .await
                .body;
            assert_eq!(me["prompt"]["game"], "scale-of-styles");
            let order = answer(&me, strategy, &mut rng)
                .unwrap_or_else(|| panic!("no answer for {}", me["prompt"]));
            let reply = app
                .post(
                    &format!("/api/v1/lobbies/{lobby}/orders"),
                    Some(token),
                    order.clone(),
                )
                .await;
            assert_eq!(
                reply.status,
                StatusCode::ACCEPTED,
                "{}: {order}: {}",
                app.backend,
                reply.text
            );
            answered += 1;
        }
    }
    panic!("the duel did not end");
}

/// Every card of each pack is in its owner's deck or discard (§3.6), as the public sees it.
fn cards_accounted(view: &Value, pack: usize) {
    for p in view["players"].as_array().unwrap() {
        let discard = p["discard"].as_array().unwrap().len();
        let hidden = p["hidden_stripped"].as_u64().unwrap_or(0) as usize;
        assert_eq!(
            p["deck_size"].as_u64().unwrap() as usize + discard + hidden,
            pack,
            "{p}"
        );
    }
}

#[tokio::test]
async fn whole_duels_are_played_over_http_by_random_and_greedy_bots() {
    for app in apps().await {
        let variants = [
            (json!({"seed": 41}), Strategy::Random, 54),
            (json!({"seed": 42}), Strategy::Greedy, 54),
            (
                json!({"seed": 43, "window": 1, "deck_order": "shuffled", "jokers": 0, "stripped_cards": "hidden"}),
                Strategy::Random,
                52,
            ),
            (
                json!({"seed": 44, "end": "stamina", "max_rounds": 30}),
                Strategy::Greedy,
                54,
            ),
        ];
        for (i, (settings, strategy, pack)) in variants.into_iter().enumerate() {
            let joins = [
                json!({"level": 3, "combat_dice": [6, 8]}),
                json!({"level": "5", "combat_dice": "4 12", "xp": 7}),
            ];
            let (lobby, host, players) = duel(&app, settings, joins).await;
            let started = app.start(&lobby, &host).await.body;
            assert_eq!(started["players"][1]["combat_dice"], json!([4, 12]));
            assert_eq!(
                (
                    started["players"][1]["level"].as_u64(),
                    started["players"][1]["xp"].as_u64()
                ),
                (Some(5), Some(7))
            );
            let answered = play_out(&app, &lobby, &players, strategy, i as u64).await;
            assert!(answered >= 1, "{}: at least one answer", app.backend);
            let view = app
                .get(&format!("/api/v1/lobbies/{lobby}"), None)
                .await
                .body;
            assert_eq!(view["status"], "finished");
            cards_accounted(&view, pack);
            let result = &view["result"];
            assert!(result["reason"].is_string(), "{result}");
            let standings = result["standings"].as_array().unwrap();
            assert_eq!(standings.len(), 2);
            for s in standings {
                assert!(
                    s["level"].as_u64().unwrap() <= 11 && s["xp_earned"].as_u64().unwrap() <= 12,
                    "{s}"
                );
            }
            let rounds = app
                .get(&format!("/api/v1/lobbies/{lobby}/rounds"), None)
                .await
                .body;
            assert!(!rounds.as_array().unwrap().is_empty());
            let first = app
                .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
                .await
                .body;
            let text = first.to_string();
            assert!(
                first["log"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["kind"] == "rolled"),
                "{}: the dice are logged",
                app.backend
            );
            for order in first["orders"].as_array().unwrap() {
                assert_ne!(order["step"], "plan", "a plan is never revealed: {text}");
            }
        }
    }
}

pub(crate) async fn send(
    app: &TestApp,
    lobby: &str,
    token: &str,
    body: Value,
) -> (StatusCode, Value) {
    let reply = app
        .post(
            &format!("/api/v1/lobbies/{lobby}/orders"),
            Some(token),
            body,
        )
        .await;
    (reply.status, reply.body)
}

/// TC-02 (§6) from a setup and a dice list, step by step, with the refusals of §3.3.
#[tokio::test]
async fn tc_02_plays_over_http_with_its_shift_and_its_refusals() {
    for app in apps().await {
        let settings = json!({
            "dice": [3, 8, 10, 7, 5, 4, 2, 9],
            "setup": {"players": [{"deck": full_deck(&["10D", "4S", "7C", "KH", "JS", "2H", "9C", "AD"])},
                                  {"deck": full_deck(&["6C", "AH", "5S", "7D", "QC", "3D", "10S", "8H", "2C", "4H"])}]},
        });
        let (lobby, host, players) = duel(&app, settings, [json!({}), json!({})]).await;
        let view = app.start(&lobby, &host).await.body;
        assert_eq!(view["step"], "play");
        assert!(
            view["settings"].get("dice").is_none() && view["settings"].get("setup").is_none(),
            "{}",
            view["settings"]
        );
        let (ann, bob) = (&players[0].1, &players[1].1);
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(ann))
            .await
            .body;
        assert_eq!(
            me["deck"].as_array().unwrap()[..3],
            json!(["10D", "4S", "7C"]).as_array().unwrap()[..]
        );
        assert_eq!(me["prompt"]["window"][0]["card"], "10D");
        let (status, body) = send(
            &app,
            &lobby,
            ann,
            json!({"round": 1, "step": "play", "card": "KH"}),
        )
        .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("not-in-window"))
        );
        let (status, _) = send(
            &app,
            &lobby,
            ann,
            json!({"round": 1, "step": "shift", "technique": "all-out-attack"}),
        )
        .await;
        assert_eq!(status, StatusCode::CONFLICT, "no shift step is open");
        assert_eq!(
            send(
                &app,
                &lobby,
                ann,
                json!({"round": 1, "step": "play", "card": "10D"})
            )
            .await
            .0,
            StatusCode::ACCEPTED
        );
        assert_eq!(
            send(
                &app,
                &lobby,
                bob,
                json!({"round": 1, "step": "play", "card": "6C"})
            )
            .await
            .0,
            StatusCode::ACCEPTED
        );
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(
            (view["step"].as_str(), view["round"].as_u64()),
            (Some("shift"), Some(1))
        );
        assert_eq!(
            view["round_cards"][0]["card"], "10D",
            "the revealed cards are on the table"
        );
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(ann))
            .await
            .body;
        assert_eq!(
            me["prompt"]["choices"][0],
            json!({"technique": "all-out-attack", "attack": 11, "defense": 0, "deals": 6, "takes": 4})
        );
        let bob_me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(bob))
            .await
            .body;
        assert!(bob_me["prompt"].is_null(), "B owes nothing at the shift");
        let (status, body) = send(
            &app,
            &lobby,
            ann,
            json!({"round": 1, "step": "shift", "technique": "iron-defense"}),
        )
        .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("out-of-reach"))
        );
        let (status, _) = send(
            &app,
            &lobby,
            bob,
            json!({"round": 1, "step": "shift", "technique": "mixed-defense"}),
        )
        .await;
        assert_eq!(status, StatusCode::CONFLICT, "B is not the reactor");
        assert_eq!(
            send(
                &app,
                &lobby,
                ann,
                json!({"round": 1, "step": "shift", "technique": "all-out-attack"})
            )
            .await
            .0,
            StatusCode::ACCEPTED
        );
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["round"], 2);
        let (a, b) = (&view["players"][0], &view["players"][1]);
        assert_eq!(
            (a["deck_size"].as_u64(), b["deck_size"].as_u64()),
            (Some(49), Some(47)),
            "{}",
            app.backend
        );
        assert_eq!(
            b["discard"],
            json!(["AH", "5S", "7D", "QC", "3D", "10S", "6C"])
        );
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(bob))
            .await
            .body;
        assert_eq!(
            me["deck"].as_array().unwrap()[..3],
            json!(["8H", "2C", "4H"]).as_array().unwrap()[..]
        );
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await
            .body;
        let steps: Vec<&str> = round["orders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["step"].as_str().unwrap())
            .collect();
        assert_eq!(steps, ["play", "play", "shift"], "{round}");
    }
}

#[tokio::test]
async fn join_fields_and_dice_are_checked_with_clear_errors() {
    for app in apps().await {
        let (lobby, _host) = app.create_lobby("scale-of-styles", json!({})).await;
        for (body, code) in [
            (json!({"name": "A", "level": 12}), "invalid-fighter"),
            (
                json!({"name": "A", "combat_dice": [6, 7]}),
                "invalid-fighter",
            ),
            (
                json!({"name": "A", "character": "sellsword"}),
                "no-characters",
            ),
        ] {
            let reply = app
                .post(&format!("/api/v1/lobbies/{lobby}/players"), None, body)
                .await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::UNPROCESSABLE_ENTITY, code),
                "{}",
                reply.text
            );
        }
        let reply = app
            .post(
                "/api/v1/lobbies",
                None,
                json!({"game": "scale-of-styles", "name": "x", "settings": {"window": 9}}),
            )
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid-setting")
        );
        // A d6 cannot show 7: known only once the fighters have joined, so refused at the start.
        let (lobby, host, _) = duel(
            &app,
            json!({"dice": [7, 1, 1, 1, 1, 1, 1, 1]}),
            [json!({}), json!({})],
        )
        .await;
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/start"),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid-dice"),
            "{}",
            reply.text
        );
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_ne!(view["status"], "running", "a refused start changes nothing");
    }
}

#[tokio::test]
async fn the_rules_page_explains_the_scale_with_an_anchor_per_technique() {
    let app = crate::support::sqlite_app().await;
    let page = app.get("/rules/scale-of-styles", None).await;
    assert_eq!(page.status, StatusCode::OK);
    for anchor in [
        "all-out-attack",
        "mixed-offense",
        "mixed-defense",
        "iron-defense",
        "T7",
    ] {
        assert!(page.text.contains(&format!("id=\"{anchor}\"")), "{anchor}");
    }
}

/// Every round from `first` to the lobby's last is listed and published whole: its log
/// (each fighter's card played, drawn or chosen, Ruling 30), its pools and its digests;
/// and the archive re-adjudicates clean, every step where the replay publishes it.
async fn every_round_is_published(app: &TestApp, lobby: &str, first: u32) {
    let view = app
        .get(&format!("/api/v1/lobbies/{lobby}"), None)
        .await
        .body;
    assert_eq!(view["status"], "finished", "{}: {view}", app.backend);
    let last = view["round"].as_u64().unwrap() as u32;
    let rounds = app
        .get(&format!("/api/v1/lobbies/{lobby}/rounds"), None)
        .await
        .body;
    let listed: Vec<u64> = rounds
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["round"].as_u64().unwrap())
        .collect();
    let expected: Vec<u64> = (u64::from(first)..=u64::from(last)).collect();
    assert_eq!(listed, expected, "{}: the rounds listed", app.backend);
    for round in first..=last {
        let reply = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/{round}"), None)
            .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{}: round {round}",
            app.backend
        );
        let body = &reply.body;
        let played = body["log"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "played")
            .count();
        assert_eq!(played, 2, "{}: round {round}'s plays: {body}", app.backend);
        assert!(body["pools"].is_object(), "{body}");
        let digests = body["digests"].as_array().unwrap();
        assert!(!digests.is_empty(), "{body}");
        assert!(digests.iter().all(|d| d["digest"].is_string()), "{body}");
    }
    let archive = crate::api_fairness::archive(app, lobby).await;
    crate::api_fairness::clean(&archive, app.backend);
}

/// R2, Ruling 30: a round the server plays because every window holds one card is published
/// as any round. Here both fighters hold one card at round 54 of a setup: the start plays
/// it (two Jokers, Initiative 2 each, no shift), both decks are empty, the match is over,
/// and round 54 is listed with its reveal, its log and its digest.
#[tokio::test]
async fn a_round_the_start_plays_with_nobody_asked_is_published() {
    for app in apps().await {
        let rest = |keep: &str| -> Vec<String> {
            full_deck(&[]).into_iter().filter(|c| c != keep).collect()
        };
        let setup = json!({
            "round": 54,
            "players": [
                {"deck": ["JK1"], "discard": rest("JK1")},
                {"deck": ["JK2"], "discard": rest("JK2")},
            ],
        });
        let settings = json!({"seed": 5, "dice": [1, 2, 3, 4, 5, 6, 1, 2], "setup": setup});
        let (lobby, host, _) = duel(&app, settings, [json!({}), json!({})]).await;
        let started = app.start(&lobby, &host).await;
        assert_eq!(started.status, StatusCode::OK, "{}", started.text);
        every_round_is_published(&app, &lobby, 54).await;
    }
}

/// Ruling 14: with `window = 1` nobody is asked to play, so from a setup the server plays
/// every round (the start its first ones, each resolution the ones after it), and only the
/// shift steps are asked. Every one of those rounds is published, each on its own.
#[tokio::test]
async fn every_round_of_a_window_1_duel_from_a_setup_is_published() {
    for app in apps().await {
        for seed in [3u64, 4] {
            let settings = json!({
                "seed": seed, "window": 1, "jokers": 0,
                "setup": {"round": 5, "players": [{}, {}]},
            });
            let (lobby, host, players) = duel(&app, settings, [json!({}), json!({})]).await;
            let started = app.start(&lobby, &host).await;
            assert_eq!(started.status, StatusCode::OK, "{}", started.text);
            play_out(&app, &lobby, &players, Strategy::Random, seed).await;
            every_round_is_published(&app, &lobby, 5).await;
        }
    }
}
