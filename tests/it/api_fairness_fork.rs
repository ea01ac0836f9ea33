//! Forking from an archive (docs/fairness.md), on every backend: a game of each game played
//! over HTTP is forked at a middle round; the new game opens with the archive's pools after
//! that round and plays on to an end that re-adjudicates cleanly. A Scale of Styles fork keeps
//! each deck's cards but not their order, which the archive published, and shows that order
//! to no one but its owner. Refusals: a tampered archive, rounds it did not resolve, the wrong
//! game, a running game's archive, a seat joined with another character; the create route's
//! larger body limit.

use axum::body::Body;
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use herald::fairness::archive::Archive;
use herald::fairness::replay::Replay;
use herald::rules::scale_of_styles::{Card, ScaleOfStyles};

use crate::api_fairness::{Game, archive, bst, clean, crossing_swords, play_out, seat, view};
use crate::api_fairness_tamper::reseal;
use crate::support::{Reply, TestApp, apps};

async fn fork(app: &TestApp, game: &str, archived: &Archive, round: u32) -> Reply {
    let body =
        json!({"game": game, "name": "Forked", "fork": {"archive": archived, "round": round}});
    app.post("/api/v1/lobbies", None, body).await
}

/// The public pools after `round`: those of the next round's opening where the rules
/// publish one (BST's draw and poison), else those of the round's last step.
fn pools_after(archived: &Archive, round: u32) -> Value {
    let opening = archived
        .steps
        .iter()
        .find(|s| s.round == round + 1 && s.step == "opening");
    let last = archived.steps.iter().rev().find(|s| s.round == round);
    opening
        .or(last)
        .expect("the round was resolved")
        .pools
        .clone()
}

/// Every public pool of every archived player (all but id and name) and of the table, as
/// the forked game shows them; a pool naming a player (a Focus or Dodge target) names the
/// player at the same seat.
fn assert_opens_with(forked: &Value, pools: &Value) {
    let archived = pools["players"].as_array().unwrap();
    let now = forked["players"].as_array().unwrap();
    assert_eq!(archived.len(), now.len());
    let seat = |players: &[Value], id: &Value| players.iter().position(|p| p["id"] == *id);
    for (was, is) in archived.iter().zip(now) {
        for (key, value) in was.as_object().unwrap() {
            match key.as_str() {
                "id" | "name" => {}
                "focus" | "dodge" => assert_eq!(
                    seat(now, &is[key]),
                    seat(archived, value),
                    "{key}: {was} against {is}"
                ),
                _ => assert_eq!(is[key], *value, "{key}: {was} against {is}"),
            }
        }
    }
    for (key, value) in pools.as_object().unwrap() {
        if key != "players" {
            assert_eq!(forked[key], *value, "table {key}");
        }
    }
}

/// Forks `archived` after `round`, seats `joins`, starts it; returns the running fork.
async fn forked_game(
    app: &TestApp,
    game: &str,
    archived: &Archive,
    round: u32,
    joins: &[Value],
) -> Game {
    let reply = fork(app, game, archived, round).await;
    assert_eq!(reply.status, StatusCode::CREATED, "fork: {}", reply.text);
    let origin = &reply.body["lobby"]["settings"]["forked_from"];
    assert_eq!(origin["lobby"], archived.lobby.id.to_string());
    assert_eq!(origin["round"], round);
    if game != "crossing-swords" {
        // A BST setup holds the hands, a Scale of Styles one the fighters: secret until the
        // game is over, like any setup of theirs.
        assert!(
            reply.body["lobby"]["settings"].get("setup").is_none(),
            "{}",
            reply.text
        );
    }
    let lobby = reply.body["id"].as_str().unwrap().to_string();
    let host = reply.body["host_token"].as_str().unwrap().to_string();
    let mut players = Vec::new();
    for join in joins {
        players.push(app.join(&lobby, join.clone()).await);
    }
    app.start(&lobby, &host).await;
    Game {
        lobby,
        host,
        players,
    }
}

/// The middle round of a finished game, where a fork starts.
fn middle(game: &str, archived: &Archive) -> u32 {
    let last = archived.steps.iter().map(|s| s.round).max().unwrap();
    assert!(
        last >= 3,
        "{game}: a game of {last} rounds is too short to fork"
    );
    last / 2
}

async fn fork_and_play_on(app: &TestApp, game: &str, archived: &Archive, joins: &[Value]) {
    let round = middle(game, archived);
    let mut forked = forked_game(app, game, archived, round, joins).await;
    let now = view(app, &forked.lobby).await;
    assert_eq!(now["round"], round + 1, "{now}");
    assert_opens_with(&now, &pools_after(archived, round));
    if game == "scale-of-styles" {
        decks_are_shuffled_again_and_secret(app, &forked, archived, round).await;
    }
    play_out(app, &mut forked, 99, &[]).await;
    clean(
        &archive(app, &forked.lobby).await,
        &format!("{} fork of {game}", app.backend),
    );
}

#[tokio::test]
async fn forks_of_both_games_open_at_the_archived_position_and_play_on() {
    for app in apps().await {
        let cs = json!({"max_players": 4, "max_rounds": 12});
        let mut game = seat(&app, "crossing-swords", cs, &crossing_swords(4)).await;
        play_out(&app, &mut game, 31, &[]).await;
        let archived = archive(&app, &game.lobby).await;
        fork_and_play_on(&app, "crossing-swords", &archived, &crossing_swords(4)).await;

        let characters = ["sellsword", "razorbeast"];
        let mut game = seat(&app, "bst", json!({"seed": 9001}), &bst(characters)).await;
        play_out(&app, &mut game, 32, &[]).await;
        let archived = archive(&app, &game.lobby).await;
        fork_and_play_on(&app, "bst", &archived, &bst(characters)).await;

        // The player who takes a BST seat takes its character too.
        let round = archived.steps.iter().map(|s| s.round).max().unwrap() / 2;
        let reply = fork(&app, "bst", &archived, round).await;
        let lobby = reply.body["id"].as_str().unwrap();
        let wrong = json!({"name": "Ann", "character": "warpriest"});
        let reply = app
            .post(&format!("/api/v1/lobbies/{lobby}/players"), None, wrong)
            .await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            reply.text
        );
        assert_eq!(reply.code(), "fork-seat-mismatch");
    }
}

#[tokio::test]
async fn a_scale_of_styles_fork_keeps_the_position_and_shuffles_each_deck_again_in_secret() {
    for app in apps().await {
        // Ann's fighter is not the rulings' default: the fork keeps his values, and whoever
        // takes his seat joins with them.
        let sos = [
            json!({"name": "Ann", "level": 4, "xp": 5, "combat_dice": [6, 6]}),
            json!({"name": "Bob"}),
        ];
        let mut game = seat(&app, "scale-of-styles", json!({"seed": 31337}), &sos).await;
        play_out(&app, &mut game, 33, &[]).await;
        let archived = archive(&app, &game.lobby).await;
        let planned = archived.steps.iter().any(|s| s.step == "plan");
        assert!(planned, "the archived duel laid its plans");
        fork_and_play_on(&app, "scale-of-styles", &archived, &sos).await;

        let reply = fork(&app, "scale-of-styles", &archived, middle("sos", &archived)).await;
        let lobby = reply.body["id"].as_str().unwrap();
        let path = format!("/api/v1/lobbies/{lobby}/players");
        let reply = app.post(&path, None, json!({"name": "Bob"})).await;
        assert_eq!(reply.code(), "fork-seat-mismatch", "{}", reply.text);
    }
}

/// Each forked fighter's deck holds the cards his deck held after `round` in the archived
/// game, in another order (the archive published the old one: its seed and every plan), and
/// that order is seen by its owner alone: not in the public view, the settings, the running
/// game's archive or the opponent's `me`.
async fn decks_are_shuffled_again_and_secret(
    app: &TestApp,
    forked: &Game,
    archived: &Archive,
    round: u32,
) {
    let seed = archived.seed.as_deref().unwrap().parse().unwrap();
    let mut replay = Replay::<ScaleOfStyles>::start(archived, seed).unwrap();
    for step in archived.steps.iter().filter(|s| s.round <= round) {
        for act in step.acts.iter().flatten() {
            replay.apply(act).unwrap();
        }
    }
    let lobby = &forked.lobby;
    let public = app
        .get(&format!("/api/v1/lobbies/{lobby}"), None)
        .await
        .text;
    let running = app
        .get(&format!("/api/v1/lobbies/{lobby}/archive"), None)
        .await
        .text;
    for secret in ["\"deck\":", "\"setup\"", "\"seed\":", "\"dice\""] {
        assert!(!public.contains(secret), "{secret} shown: {public}");
    }
    let mut long_decks = 0;
    for (seat, (_, token)) in forked.players.iter().enumerate() {
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(token))
            .await
            .body;
        let deck: Vec<Card> = serde_json::from_value(me["deck"].clone()).unwrap();
        let old = &replay.state().fighters[seat].deck;
        let sorted = |cards: &[Card]| {
            let mut cards = cards.to_vec();
            cards.sort();
            cards
        };
        assert_eq!(sorted(&deck), sorted(old), "seat {seat}: the same cards");
        // A deck of 10 cards or more comes out in its old order once in 3.6 million shuffles.
        if deck.len() >= 10 {
            long_decks += 1;
            assert_ne!(deck, *old, "seat {seat}: the published order is kept");
        }
        let (_, opponent) = &forked.players[1 - seat];
        let theirs = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(opponent))
            .await
            .text;
        // Five cards in their order: a pack's cards appear elsewhere, never in this run.
        let top = serde_json::to_string(&deck[..5.min(deck.len())]).unwrap();
        let run = top.trim_start_matches('[').trim_end_matches(']');
        for text in [&public, &running, &theirs] {
            assert!(
                !text.contains(run),
                "seat {seat}'s order {run} leaks: {text}"
            );
        }
    }
    assert!(long_decks > 0, "no deck was long enough to tell its order");
}

#[tokio::test]
async fn a_fork_refuses_forged_archives_rounds_not_resolved_and_the_wrong_game() {
    for app in apps().await {
        let cs = json!({"max_players": 3, "max_rounds": 8});
        let mut game = seat(&app, "crossing-swords", cs, &crossing_swords(3)).await;
        // A running game's archive: the seed and acts the replay needs are not out yet.
        let running = archive(&app, &game.lobby).await;
        play_out(&app, &mut game, 41, &[]).await;
        let archived = archive(&app, &game.lobby).await;
        let last = archived.steps.iter().map(|s| s.round).max().unwrap();
        let refusals = [
            ("crossing-swords", running.clone(), 1, "archive-not-final"),
            ("bst", archived.clone(), 1, "fork-game-mismatch"),
            (
                "crossing-swords",
                archived.clone(),
                0,
                "fork-round-unavailable",
            ),
            (
                "crossing-swords",
                archived.clone(),
                last + 1,
                "fork-round-unavailable",
            ),
            ("crossing-swords", archived.clone(), last, "fork-game-over"),
        ];
        for (game, archive, round, code) in refusals {
            let reply = fork(&app, game, &archive, round).await;
            assert_eq!(
                reply.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{code}: {}",
                reply.text
            );
            assert_eq!(reply.code(), code, "{}", reply.text);
        }
        // A pool changed in round 1 and the chain sealed again over it: the digests hold, the
        // re-adjudication does not.
        let mut forged = archived.clone();
        forged.steps[0].pools["players"][0]["hp"] = json!(19);
        reseal(&mut forged);
        let reply = fork(&app, "crossing-swords", &forged, 1).await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            reply.text
        );
        assert_eq!(reply.code(), "archive-forged", "{}", reply.text);
        // ... and without sealing, the chain itself breaks.
        let mut broken = archived.clone();
        broken.steps[0].pools["players"][0]["vp"] = json!(7);
        let reply = fork(&app, "crossing-swords", &broken, 1).await;
        assert_eq!(reply.code(), "archive-forged", "{}", reply.text);
        // Not an archive at all.
        let body = json!({"game": "crossing-swords", "name": "F", "fork": {"archive": {"format": "x"}, "round": 1}});
        let reply = app.post("/api/v1/lobbies", None, body).await;
        assert_eq!(reply.code(), "archive-unreadable", "{}", reply.text);
        // Only the deadline settings may come with a fork.
        let body = json!({"game": "crossing-swords", "name": "F", "settings": {"max_rounds": 3},
            "fork": {"archive": archived, "round": 1}});
        let reply = app.post("/api/v1/lobbies", None, body).await;
        assert_eq!(reply.code(), "fork-settings-conflict", "{}", reply.text);
        // Nothing was created by any of these.
        let listed = app.get("/api/v1/lobbies", None).await.body;
        assert!(!listed.to_string().contains("\"F\""), "{listed}");
    }
}

#[tokio::test]
async fn the_create_route_takes_a_large_archive_and_only_it() {
    for app in apps().await {
        let cs = json!({"max_players": 2, "max_rounds": 6});
        let mut game = seat(&app, "crossing-swords", cs, &crossing_swords(2)).await;
        play_out(&app, &mut game, 51, &[]).await;
        let archived = archive(&app, &game.lobby).await;
        let body = json!({"game": "crossing-swords", "name": "Big", "fork": {"archive": archived, "round": 1}});
        // Padded with JSON whitespace past the usual 64 KiB: still one valid body.
        let padded = |bytes: usize| format!("{}{}", " ".repeat(bytes), body);
        let send = |text: String| {
            app.send(
                Method::POST,
                "/api/v1/lobbies",
                None,
                Some(Body::from(text)),
            )
        };
        let reply = send(padded(1024 * 1024)).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        let reply = send(padded(4 * 1024 * 1024)).await;
        assert_eq!(
            reply.status,
            StatusCode::PAYLOAD_TOO_LARGE,
            "{}",
            reply.text
        );
        assert_eq!(reply.code(), "body-too-large");
        // Every other route keeps the 64 KiB limit.
        let join = format!("{}{}", " ".repeat(100 * 1024), json!({"name": "Zed"}));
        let path = format!("/api/v1/lobbies/{}/players", reply_id(&app).await);
        let reply = app
            .send(Method::POST, &path, None, Some(Body::from(join)))
            .await;
        assert_eq!(
            reply.status,
            StatusCode::PAYLOAD_TOO_LARGE,
            "{}",
            reply.text
        );
    }
}

async fn reply_id(app: &TestApp) -> String {
    app.create_lobby("crossing-swords", json!({})).await.0
}
