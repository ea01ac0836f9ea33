//! A Swiss of Contests duels through the API on every backend, played to its end by the
//! entrants' own keys (the reference bot answering each prompt), not ended by the director:
//! each duel's result as the lobby decided it (rulings §3.6) is the tournament's, and the
//! standings count a win 1, a draw ½ and a bye 1 (docs/tournaments.md, "Swiss").

use std::collections::{BTreeSet, HashMap};

use axum::http::StatusCode;
use rand::SeedableRng;
use serde_json::{Value, json};

use herald::bots::policy::{Strategy, answer};

use crate::api_tournaments::{create, current_round, entrants, next_round, players, points, view};
use crate::support::TestApp;

/// Plays the duel in `lobby` to its end, each seat answered with its entrant's key; the
/// lobby's final view.
async fn play_duel(
    app: &TestApp,
    lobby: &str,
    keys: &HashMap<String, String>,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Value {
    for _ in 0..500 {
        let now = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        if now["status"] == "finished" {
            return now;
        }
        for seat in now["players"].as_array().unwrap() {
            if seat["owes"] != true {
                continue;
            }
            let key = &keys[seat["name"].as_str().unwrap()];
            let me = app
                .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(key))
                .await
                .body;
            assert_eq!(me["prompt"]["game"], "contests", "{me}");
            let order = answer(&me, Strategy::Random, rng)
                .unwrap_or_else(|| panic!("no answer for {}", me["prompt"]));
            let reply = app
                .post(
                    &format!("/api/v1/lobbies/{lobby}/orders"),
                    Some(key),
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
        }
    }
    panic!("{}: the duel in {lobby} did not end", app.backend);
}

/// The tournament's record of a duel that ended as `lobby` says: a win by the winner's
/// handle, or a draw.
fn recorded(lobby: &Value) -> Value {
    let winners = lobby["result"]["winners"].as_array().unwrap();
    match winners.as_slice() {
        [winner] => {
            let handle = lobby["players"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["id"] == *winner)
                .unwrap()["name"]
                .clone();
            json!({"kind": "won", "winner": handle})
        }
        _ => json!({"kind": "drawn"}),
    }
}

#[tokio::test]
async fn a_swiss_of_contests_duels_is_played_to_its_end_by_its_entrants() {
    for app in crate::support::apps().await {
        // Short duels: no energy for spells, and the phase cap after two phases (Ruling 52),
        // so an Archery phase may decide one and a cap with equal HP draws another.
        let t = create(
            &app,
            json!({"game": "contests", "name": "Duels at the ford", "format": "swiss",
                   "rounds": 3, "settings": {"seed": 8, "energy": 0, "max_phases": 2}}),
        )
        .await;
        let keys = entrants(&app, &t, "ct", 5).await;
        let by_handle: HashMap<String, String> = keys
            .iter()
            .enumerate()
            .map(|(i, key)| (format!("ct{}", i + 1), key.clone()))
            .collect();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
        let mut expected: HashMap<String, f64> = HashMap::new();
        let (mut draws, mut wins) = (0, 0);
        for round in 1..=3 {
            let reply = next_round(&app, &t).await;
            assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
            let v = reply.body;
            assert_eq!(v["round"], round);
            let games = current_round(&v)["games"].as_array().unwrap().clone();
            assert_eq!(games.len(), 2, "five entrants: two duels and a bye");
            for bye in current_round(&v)["byes"].as_array().unwrap() {
                *expected
                    .entry(bye.as_str().unwrap().to_owned())
                    .or_default() += 1.0;
            }
            for game in &games {
                let lobby = game["lobby"].as_str().unwrap();
                let finished = play_duel(&app, lobby, &by_handle, &mut rng).await;
                let result = recorded(&finished);
                match result["kind"].as_str() {
                    Some("won") => {
                        wins += 1;
                        *expected
                            .entry(result["winner"].as_str().unwrap().to_owned())
                            .or_default() += 1.0;
                    }
                    _ => {
                        draws += 1;
                        for handle in players(game) {
                            *expected.entry(handle).or_default() += 0.5;
                        }
                    }
                }
                let v = view(&app, &t).await;
                let shown = current_round(&v)["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|g| g["lobby"] == lobby)
                    .unwrap()["result"]
                    .clone();
                assert_eq!(
                    shown, result,
                    "{}: the lobby's result is the round's",
                    app.backend
                );
            }
            assert_eq!(current_round(&view(&app, &t).await)["finished"], true);
        }
        let v = view(&app, &t).await;
        assert_eq!(v["status"], "finished", "{v}");
        assert!(
            draws >= 1 && wins >= 1,
            "{draws} draws, {wins} wins: both kinds met"
        );
        for handle in by_handle.keys() {
            let want = expected.get(handle).copied().unwrap_or(0.0);
            assert_eq!(
                points(&v, handle),
                want,
                "{}: {handle}'s points",
                app.backend
            );
        }
        let met: Vec<BTreeSet<String>> = v["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r["games"].as_array().unwrap().iter())
            .map(|g| players(g).into_iter().collect())
            .collect();
        let distinct: BTreeSet<_> = met.iter().cloned().collect();
        assert_eq!(distinct.len(), met.len(), "nobody met twice: {met:?}");
        let done = next_round(&app, &t).await;
        assert_eq!(
            (done.status, done.code()),
            (StatusCode::CONFLICT, "no-round-left")
        );
    }
}
