//! Contests over HTTP, on every backend: whole duels played by the reference bots (with
//! defaults, a substitute and the host's resolve-now), the refusals of §3.7 and §5.1 with
//! their statuses (422 for what the step does not allow, 409 for another contest), the
//! hooks hidden while the duel runs, the archive that `herald verify` re-adjudicates and a
//! tampered one it does not, and a fork that deals the hands again (its secrets:
//! `api_secrecy.rs`).

use axum::http::StatusCode;
use rand::SeedableRng;
use serde_json::{Value, json};

use herald::bots::policy::{Strategy, answer};
use herald::fairness::archive::Archive;
use herald::fairness::verify::verify;
use herald::rules::contests::Card;

use crate::api_fairness::{Game, HostMove, archive, clean, play_out, seat, view};
use crate::api_fairness_tamper::reseal;
use crate::support::{TestApp, apps};

/// A deck hook: `top` first, then the rest in canonical order.
pub(crate) fn deck(top: &[&str]) -> Vec<String> {
    let mut deck: Vec<String> = top.iter().map(|c| (*c).to_owned()).collect();
    let rest: Vec<String> = Card::ALL
        .iter()
        .map(|c| c.to_string())
        .filter(|c| !deck.contains(c))
        .collect();
    deck.extend(rest);
    deck
}

/// Two combatants' joins: a brute and the default build.
pub(crate) fn joins() -> [Value; 2] {
    [
        json!({"name": "Ann", "build": {"might": 6, "skill": 3, "mind": 3,
            "abilities": ["berserk", "crush-to-mush", "art-of-killing"]}}),
        json!({"name": "Bob"}),
    ]
}

/// Plays the duel to the end with `strategy` for both seats; the answers sent.
async fn bots(
    app: &TestApp,
    lobby: &str,
    players: &[(String, String)],
    strategy: Strategy,
) -> usize {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut answered = 0;
    for _ in 0..2_000 {
        let now = view(app, lobby).await;
        if now["status"] == "finished" {
            return answered;
        }
        for (id, token) in players {
            let owes = now["players"]
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
            assert_eq!(me["prompt"]["game"], "contests");
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

#[tokio::test]
async fn whole_duels_are_played_over_http_by_both_bots_to_a_result_of_section_3_6() {
    for app in apps().await {
        let variants = [
            (json!({"seed": 11}), Strategy::Random),
            (json!({"seed": 12}), Strategy::Greedy),
            (
                json!({"seed": 13, "hp": 3, "base_guesses": 2, "max_phases": 6, "cap_result": "draw", "initiator": "p2"}),
                Strategy::Random,
            ),
        ];
        for (settings, strategy) in variants {
            let (lobby, host) = app.create_lobby("contests", settings.clone()).await;
            let mut players = Vec::new();
            for join in joins() {
                players.push(app.join(&lobby, join).await);
            }
            let started = app.start(&lobby, &host).await.body;
            // The public entry (api.md): the build, max_hp, hp, energy, the ratings, the
            // modifiers, the card counts and the discard; never a hand or a deck.
            let ann = &started["players"][0];
            assert_eq!(ann["build"]["abilities"][0], "berserk", "{started}");
            assert_eq!(ann["ratings"], json!({"might": 6, "skill": 3, "mind": 3}));
            for key in [
                "max_hp",
                "hp",
                "energy",
                "hand_size",
                "deck_size",
                "discard",
                "modifiers",
            ] {
                assert!(ann.get(key).is_some(), "{key}: {ann}");
            }
            for secret in ["hand", "deck"] {
                assert!(ann.get(secret).is_none(), "{secret}: {ann}");
            }
            assert!(
                started["settings"].get("seed").is_none(),
                "{}",
                started["settings"]
            );
            let answered = bots(&app, &lobby, &players, strategy).await;
            assert!(answered >= 2, "{}: {answered} answers", app.backend);
            let done = view(&app, &lobby).await;
            let reason = done["result"]["reason"].as_str().unwrap();
            assert!(
                ["defeated", "escaped", "ended", "phase-cap"].contains(&reason),
                "{reason}"
            );
            assert_eq!(
                done["settings"]["seed"], settings["seed"],
                "published once over"
            );
            clean(
                &archive(&app, &lobby).await,
                &format!("{} {settings}", app.backend),
            );
        }
    }
}

#[tokio::test]
async fn defaults_a_substitute_and_resolve_now_play_on_and_the_archive_replays() {
    for app in apps().await {
        let mut game = seat(
            &app,
            "contests",
            json!({"seed": 21, "default_dice": [6, 1, 5]}),
            &joins(),
        )
        .await;
        let script: &[(usize, HostMove)] = &[
            (1, HostMove::ResolveNow),
            (3, HostMove::Replace),
            (4, HostMove::ResolveNow),
            (7, HostMove::ResolveNow),
        ];
        play_out(&app, &mut game, 3, script).await;
        let archived = archive(&app, &game.lobby).await;
        clean(&archived, &format!("{}: defaults", app.backend));
        let sources: Vec<&str> = archived
            .steps
            .iter()
            .flat_map(|s| s.revealed.as_array().unwrap())
            .filter_map(|e| e["source"].as_str())
            .collect();
        assert!(sources.contains(&"default"), "{sources:?}");
    }
}

#[tokio::test]
async fn a_tampered_contests_archive_is_named_at_its_step() {
    for app in apps().await {
        let mut game = seat(&app, "contests", json!({"seed": 31}), &joins()).await;
        play_out(&app, &mut game, 8, &[]).await;
        let honest = archive(&app, &game.lobby).await;
        clean(&honest, "honest");
        let k = honest
            .steps
            .iter()
            .position(|s| {
                s.revealed
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["source"] == "order")
            })
            .expect("a step with a sent order");
        let at = (honest.steps[k].round, honest.steps[k].step.clone());
        let tamperings: [Tampering<'_>; 2] = [
            ("a changed pool", &|a: &mut Archive| {
                a.steps[k].pools["players"][0]["hp"] = json!(99);
            }),
            ("a dropped log line", &|a: &mut Archive| {
                a.steps[k].log.as_array_mut().unwrap().pop();
            }),
        ];
        for (what, tamper) in tamperings {
            let mut forged = honest.clone();
            tamper(&mut forged);
            for resealed in [false, true] {
                if resealed {
                    reseal(&mut forged);
                }
                let report = verify(&forged).unwrap();
                let found = report
                    .mismatches
                    .first()
                    .unwrap_or_else(|| panic!("{what} went unnoticed"));
                assert_eq!(
                    (found.round, found.step.clone()),
                    at,
                    "{what} ({resealed}): {found}"
                );
            }
        }
    }
}

/// A tampering: its name and what it does to the archive.
type Tampering<'a> = (&'a str, &'a dyn Fn(&mut Archive));

/// A round whose next round opens with a window, in the middle of the duel.
fn window_round(archived: &Archive) -> u32 {
    let last = archived.steps.iter().map(|s| s.round).max().unwrap();
    (1..last)
        .rev()
        .find(|r| {
            archived
                .steps
                .iter()
                .any(|s| s.round == r + 1 && s.step == "next")
                && r * 2 <= last + 1
        })
        .or_else(|| {
            (1..last).find(|r| {
                archived
                    .steps
                    .iter()
                    .any(|s| s.round == r + 1 && s.step == "next")
            })
        })
        .expect("a window after a phase")
}

#[tokio::test]
async fn a_fork_keeps_the_public_position_and_deals_the_hands_again_in_secret() {
    for app in apps().await {
        let settings = json!({"seed": 41, "hp": 12, "max_phases": 12});
        let mut game = seat(&app, "contests", settings, &joins()).await;
        play_out(&app, &mut game, 4, &[]).await;
        let archived = archive(&app, &game.lobby).await;
        let round = window_round(&archived);
        let reply = app
            .post(
                "/api/v1/lobbies",
                None,
                json!({"game": "contests", "name": "Forked", "fork": {"archive": archived, "round": round}}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "fork: {}", reply.text);
        assert!(
            reply.body["lobby"]["settings"].get("setup").is_none(),
            "{}",
            reply.text
        );
        let lobby = reply.body["id"].as_str().unwrap().to_owned();
        let host = reply.body["host_token"].as_str().unwrap().to_owned();
        // The seat keeps its build: another one is refused.
        let wrong =
            json!({"name": "Ann", "build": {"might": 4, "skill": 4, "mind": 4, "abilities": []}});
        let refused = app
            .post(&format!("/api/v1/lobbies/{lobby}/players"), None, wrong)
            .await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.text
        );
        let mut players = Vec::new();
        for join in joins() {
            players.push(app.join(&lobby, join).await);
        }
        app.start(&lobby, &host).await;
        let now = view(&app, &lobby).await;
        assert_eq!(now["round"], round + 1, "{now}");
        assert_eq!(now["step"], "next", "{now}");
        let before = archived
            .steps
            .iter()
            .rev()
            .find(|s| s.round == round)
            .unwrap()
            .pools
            .clone();
        for (was, is) in before["players"]
            .as_array()
            .unwrap()
            .iter()
            .zip(now["players"].as_array().unwrap())
        {
            for key in [
                "hp",
                "max_hp",
                "energy",
                "ratings",
                "hand_size",
                "deck_size",
                "discard",
                "build",
            ] {
                assert_eq!(is[key], was[key], "{key}: {was} against {is}");
            }
        }
        // Each owner sees a hand of the size he held, of the cards not in his discard.
        for (i, (_, token)) in players.iter().enumerate() {
            let me = app
                .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(token))
                .await
                .body;
            let hand = me["hand"].as_array().unwrap();
            assert_eq!(
                hand.len() as u64,
                now["players"][i]["hand_size"].as_u64().unwrap()
            );
            let discard = now["players"][i]["discard"].as_array().unwrap();
            assert!(hand.iter().all(|c| !discard.contains(c)), "{me}");
        }
        let mut forked = Game {
            lobby: lobby.clone(),
            host,
            players,
        };
        play_out(&app, &mut forked, 99, &[]).await;
        clean(
            &archive(&app, &lobby).await,
            &format!("{} fork", app.backend),
        );
    }
}

#[tokio::test]
async fn settings_builds_and_answers_outside_the_rules_are_refused_with_their_status() {
    for app in apps().await {
        for (settings, code) in [
            (json!({"hp": 0}), "invalid-setting"),
            (json!({"max_phases": 201}), "invalid-setting"),
            (json!({"base_guesses": 4}), "invalid-setting"),
            (
                json!({"opening_hand": 7, "hand_limit": 6}),
                "invalid-setting",
            ),
            (json!({"escape_result": "win"}), "invalid-setting"),
            (json!({"wits": 4}), "unknown-setting"),
            (json!({"default_dice": [7]}), "invalid-default-dice"),
            (
                json!({"decks": {"p1": ["charge"], "p2": deck(&[])}}),
                "invalid-decks",
            ),
        ] {
            let reply = app
                .post(
                    "/api/v1/lobbies",
                    None,
                    json!({"game": "contests", "name": "Bad", "settings": settings}),
                )
                .await;
            assert_eq!(
                reply.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{settings}: {}",
                reply.text
            );
            assert_eq!(reply.code(), code, "{settings}: {}", reply.text);
        }
        // Both hands hold contest cards only: nobody opens, Magic's declare comes first.
        let hand = [
            "illegal-doping",
            "dwarven-ale",
            "am-i-good-or-what",
            "kick-below-the-waist",
            "my-daddy-was-an-elf",
        ];
        let decks = json!({"p1": deck(&hand), "p2": deck(&hand)});
        let (lobby, host) = app.create_lobby("contests", json!({"decks": decks})).await;
        let build =
            json!({"name": "Cy", "build": {"might": 6, "skill": 6, "mind": 6, "abilities": []}});
        let refused = app
            .post(&format!("/api/v1/lobbies/{lobby}/players"), None, build)
            .await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.text
        );
        assert_eq!(refused.code(), "invalid-build");
        let (_, ann) = app.join(&lobby, joins()[0].clone()).await;
        let (_, bob) = app.join(&lobby, joins()[1].clone()).await;
        let started = app.start(&lobby, &host).await.body;
        assert_eq!(started["step"], "declare", "{started}");
        let orders = format!("/api/v1/lobbies/{lobby}/orders");
        let send = |token: &str, body: Value| {
            let token = token.to_owned();
            let orders = orders.clone();
            let app = &app;
            async move { app.post(&orders, Some(&token), body).await }
        };
        let bad = send(
            &ann,
            json!({"round": 1, "step": "declare", "spell": "lightning"}),
        )
        .await;
        assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
        for token in [&ann, &bob] {
            let ok = send(
                token,
                json!({"round": 1, "step": "declare", "spell": "fire-bolt"}),
            )
            .await;
            assert_eq!(ok.status, StatusCode::ACCEPTED, "{}", ok.text);
        }
        let now = view(&app, &lobby).await;
        assert_eq!(now["step"], "set", "{now}");
        let contest = now["contest"]["contest"].as_u64().unwrap();
        for (body, status) in [
            (
                json!({"die": 7, "guesses": [1]}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                json!({"die": 3, "guesses": [2, 2]}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                json!({"die": 3, "guesses": [1, 2]}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                json!({"die": 3, "guesses": [7]}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                json!({"die": 3, "guesses": [1], "down": "charge"}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                json!({"die": 3, "guesses": [1], "contest": contest + 1}),
                StatusCode::CONFLICT,
            ),
        ] {
            let mut order =
                json!({"round": 1, "step": "set", "contest": contest, "face_up": false});
            for (k, v) in body.as_object().unwrap() {
                order[k] = v.clone();
            }
            let reply = send(&ann, order.clone()).await;
            assert_eq!(reply.status, status, "{order}: {}", reply.text);
        }
        let wrong_step = send(&ann, json!({"round": 1, "step": "tie", "contest": contest, "tie": 1, "die": 3, "guesses": []})).await;
        assert_eq!(
            wrong_step.status,
            StatusCode::CONFLICT,
            "{}",
            wrong_step.text
        );
        // A refused order changed nothing: nobody has submitted.
        let now = view(&app, &lobby).await;
        assert!(
            now["players"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["submitted"] == false),
            "{now}"
        );
    }
}

#[tokio::test]
async fn every_view_of_a_duel_fits_the_documented_schemas() {
    use crate::api_openapi_strict::{assert_fits, component, document};
    let app = crate::support::sqlite_app().await;
    let doc = document(&app).await;
    let mut game = seat(&app, "contests", json!({"seed": 51}), &joins()).await;
    let lobby = game.lobby.clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(51);
    let mut steps = std::collections::BTreeSet::new();
    for _ in 0..2_000 {
        let now = view(&app, &lobby).await;
        assert_fits(&doc, &component("LobbyView"), &now, "the lobby");
        if now["status"] == "finished" {
            break;
        }
        steps.insert(now["step"].as_str().unwrap().to_owned());
        for (_, token) in &game.players {
            let me = app
                .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(token))
                .await
                .body;
            assert_fits(&doc, &component("MeView"), &me, "me");
            let Some(order) = answer(&me, Strategy::Random, &mut rng) else {
                continue;
            };
            assert_fits(&doc, &component("Order"), &order, "an order");
            let reply = app
                .post(
                    &format!("/api/v1/lobbies/{lobby}/orders"),
                    Some(token),
                    order,
                )
                .await;
            assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
            assert_fits(&doc, &component("Receipt"), &reply.body, "a receipt");
        }
    }
    assert!(steps.contains("set") && steps.contains("next"), "{steps:?}");
    let archived = app
        .get(&format!("/api/v1/lobbies/{lobby}/archive"), None)
        .await
        .body;
    assert_fits(&doc, &component("Archive"), &archived, "the archive");
    let rounds = app
        .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
        .await
        .body;
    assert_fits(&doc, &component("RoundView"), &rounds, "round 1");
    game.players.clear();
}
