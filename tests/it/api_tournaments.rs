//! Tournaments through the API on every backend (docs/tournaments.md, "How the server keeps
//! them"): a whole Swiss of 7 with a late entrant, a withdrawal and a forbidden pair; a round
//! robin of 5; a knockout of 6 with a drawn game replayed; a melee of 9 on boards of 5. The
//! director's token ends each game as the host of its lobby, as a director would.

use std::collections::BTreeSet;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::api_profiles::profile;
use crate::support::{TestApp, apps};

pub(crate) struct Tournament {
    pub id: String,
    pub director: String,
}

pub(crate) async fn create(app: &TestApp, body: Value) -> Tournament {
    let reply = app.post("/api/v1/tournaments", None, body).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    Tournament {
        id: reply.body["id"].as_str().unwrap().to_string(),
        director: reply.body["director_token"].as_str().unwrap().to_string(),
    }
}

/// Profiles `p1`.. entered in order: their keys.
pub(crate) async fn entrants(app: &TestApp, t: &Tournament, prefix: &str, n: usize) -> Vec<String> {
    let mut keys = Vec::new();
    for i in 1..=n {
        let (key, _) = profile(app, &format!("{prefix}{i}")).await;
        let reply = enter(app, t, &key).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        keys.push(key);
    }
    keys
}

async fn enter(app: &TestApp, t: &Tournament, key: &str) -> crate::support::Reply {
    app.post(
        &format!("/api/v1/tournaments/{}/entrants", t.id),
        Some(key),
        json!({}),
    )
    .await
}

pub(crate) async fn next_round(app: &TestApp, t: &Tournament) -> crate::support::Reply {
    app.post(
        &format!("/api/v1/tournaments/{}/rounds", t.id),
        Some(&t.director),
        json!({}),
    )
    .await
}

pub(crate) async fn view(app: &TestApp, t: &Tournament) -> Value {
    let reply = app
        .get(&format!("/api/v1/tournaments/{}", t.id), None)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

pub(crate) fn current_round(view: &Value) -> &Value {
    view["rounds"].as_array().unwrap().last().unwrap()
}

pub(crate) fn players(game: &Value) -> Vec<String> {
    game["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect()
}

/// Ends a running duel as its director: `winner` by handle, or a draw.
async fn end_duel(app: &TestApp, t: &Tournament, lobby: &str, winner: Option<&str>) {
    let body = match winner {
        Some(handle) => {
            let view = app
                .get(&format!("/api/v1/lobbies/{lobby}"), None)
                .await
                .body;
            let id = view["players"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == handle)
                .unwrap_or_else(|| panic!("{handle} seated in {view}"))["id"]
                .clone();
            json!({"winner": id})
        }
        None => json!({"result": "draw"}),
    };
    let reply = app
        .post(
            &format!("/api/v1/lobbies/{lobby}/end"),
            Some(&t.director),
            body,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

/// Ends every unfinished game of the current round, the first-named player winning.
pub(crate) async fn finish_round(app: &TestApp, t: &Tournament) {
    let v = view(app, t).await;
    for game in current_round(&v)["games"].as_array().unwrap() {
        if game["result"].is_null() {
            let first = players(game)[0].clone();
            end_duel(app, t, game["lobby"].as_str().unwrap(), Some(&first)).await;
        }
    }
}

pub(crate) fn points(view: &Value, handle: &str) -> f64 {
    view["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["handle"] == handle)
        .unwrap_or_else(|| panic!("{handle} in the standings"))["points"]
        .as_f64()
        .unwrap()
}

fn pairs(view: &Value) -> Vec<BTreeSet<String>> {
    view["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["games"].as_array().unwrap().iter())
        .map(|g| players(g).into_iter().collect())
        .collect()
}

#[tokio::test]
async fn a_swiss_of_seven_with_a_late_entrant_a_withdrawal_and_a_forbidden_pair() {
    for app in apps().await {
        let t = create(
            &app,
            json!({"game": "bst", "name": "Winter Swiss", "format": "swiss", "rounds": 4,
                   "forbidden_pairs": [["sw1", "sw2"]]}),
        )
        .await;
        let keys = entrants(&app, &t, "sw", 6).await;
        let again = enter(&app, &t, &keys[0]).await;
        assert_eq!(again.code(), "already-entered");
        let stranger = next_round_as(&app, &t, &keys[0]).await;
        assert_eq!(stranger.status, StatusCode::FORBIDDEN);

        let reply = next_round(&app, &t).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        let v = reply.body;
        assert_eq!(
            (v["status"].as_str(), v["round"].as_i64()),
            (Some("running"), Some(1))
        );
        let round = current_round(&v);
        assert_eq!(round["games"].as_array().unwrap().len(), 3);
        // Each game is a started lobby with the entrants seated under their handles, bound,
        // and the director its host.
        let game = &round["games"][0];
        let lobby = app
            .get(
                &format!("/api/v1/lobbies/{}", game["lobby"].as_str().unwrap()),
                None,
            )
            .await
            .body;
        assert_eq!(lobby["status"], "running");
        let seated: Vec<String> = lobby["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(seated, players(game));
        let me = app.get("/api/v1/me", Some(&keys[0])).await.body;
        assert_eq!(me["seats"].as_array().unwrap().len(), 1, "{me}");

        let busy = next_round(&app, &t).await;
        assert_eq!(
            (busy.status, busy.code()),
            (StatusCode::CONFLICT, "round-unfinished")
        );

        // A late entrant, while fewer than half the rounds have started: from round 2.
        let (late, _) = profile(&app, "sw7").await;
        assert_eq!(enter(&app, &t, &late).await.status, StatusCode::CREATED);
        finish_round(&app, &t).await;
        let v = view(&app, &t).await;
        assert_eq!(current_round(&v)["finished"], true);
        assert_eq!(points(&v, "sw7"), 0.5, "the late half point");

        let v = next_round(&app, &t).await.body;
        let round = current_round(&v);
        assert_eq!(round["games"].as_array().unwrap().len(), 3);
        assert_eq!(round["byes"].as_array().unwrap().len(), 1);
        // sw3 withdraws during his round-2 game: his opponent wins it by forfeit.
        let game = round["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| players(g).contains(&"sw3".to_string()))
            .cloned();
        let left = app
            .send(
                Method::DELETE,
                &format!("/api/v1/tournaments/{}/entrants/me", t.id),
                Some(&keys[2]),
                None,
            )
            .await;
        assert_eq!(left.status, StatusCode::OK, "{}", left.text);
        if let Some(game) = game {
            let opponent = players(&game).into_iter().find(|p| p != "sw3").unwrap();
            let v = view(&app, &t).await;
            let recorded = current_round(&v)["games"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["lobby"] == game["lobby"])
                .unwrap()["result"]
                .clone();
            assert_eq!(recorded, json!({"kind": "forfeited", "winner": opponent}));
            let lobby = app
                .get(
                    &format!("/api/v1/lobbies/{}", game["lobby"].as_str().unwrap()),
                    None,
                )
                .await
                .body;
            assert_eq!(lobby["status"], "finished");
        }
        finish_round(&app, &t).await;
        for _ in 3..=4 {
            let v = next_round(&app, &t).await.body;
            let playing: Vec<String> = current_round(&v)["games"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(players)
                .collect();
            assert!(
                !playing.contains(&"sw3".to_string()),
                "withdrawn: not paired"
            );
            finish_round(&app, &t).await;
            if v["round"] == 3 {
                // Three of four rounds started: no more late entries.
                let (later, _) = profile(&app, "sw8").await;
                let refused = enter(&app, &t, &later).await;
                assert_eq!(
                    (refused.status, refused.code()),
                    (StatusCode::CONFLICT, "entries-closed")
                );
            }
        }
        let v = view(&app, &t).await;
        assert_eq!(v["status"], "finished");
        let all = pairs(&v);
        let forbidden: BTreeSet<String> = ["sw1".to_string(), "sw2".to_string()].into();
        assert!(
            !all.contains(&forbidden),
            "a forbidden pair is never paired"
        );
        let distinct: BTreeSet<_> = all.iter().cloned().collect();
        assert_eq!(distinct.len(), all.len(), "nobody met twice: {all:?}");
        // Every round: one point per game, a bye's point, and the late half.
        let total: f64 = v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["points"].as_f64().unwrap())
            .sum();
        let byes: usize = v["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["byes"].as_array().unwrap().len())
            .sum();
        assert_eq!(total, (all.len() + byes) as f64 + 0.5);
        let tiebreaks = &v["standings"][0]["tiebreaks"];
        assert!(tiebreaks["sonneborn_berger"].is_number() && tiebreaks["buchholz"].is_number());
        let done = next_round(&app, &t).await;
        assert_eq!(
            (done.status, done.code()),
            (StatusCode::CONFLICT, "no-round-left")
        );
        // The page: every game linked to its lobby, the byes, the standings and their post.
        let page = app.get(&format!("/tournaments/{}", t.id), None).await;
        assert_eq!(page.status, StatusCode::OK);
        for game in v["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r["games"].as_array().unwrap())
        {
            let link = format!("href=\"/lobbies/{}\"", game["lobby"].as_str().unwrap());
            assert!(page.text.contains(&link), "{link}");
        }
        assert!(page.text.contains("Bye: "));
        assert!(page.text.contains("Winter Swiss: final standings"));
        assert!(page.text.contains("BBCode") && page.text.contains("Markdown"));
        let missing = app.get("/tournaments/nope", None).await;
        assert_eq!(missing.status, StatusCode::NOT_FOUND);
    }
}

async fn next_round_as(app: &TestApp, t: &Tournament, token: &str) -> crate::support::Reply {
    app.post(
        &format!("/api/v1/tournaments/{}/rounds", t.id),
        Some(token),
        json!({}),
    )
    .await
}

#[tokio::test]
async fn a_round_robin_of_five_meets_every_pair_once() {
    for app in apps().await {
        let t = create(
            &app,
            json!({"game": "bst", "name": "Round robin", "format": "round-robin"}),
        )
        .await;
        entrants(&app, &t, "rr", 5).await;
        for round in 1..=5 {
            let v = next_round(&app, &t).await.body;
            assert_eq!(v["rounds_total"], 5);
            let current = current_round(&v);
            assert_eq!(current["games"].as_array().unwrap().len(), 2);
            assert_eq!(current["byes"].as_array().unwrap().len(), 1);
            // Round 1's first game is drawn: half a point each.
            if round == 1 {
                let lobby = current["games"][0]["lobby"].as_str().unwrap().to_string();
                end_duel(&app, &t, &lobby, None).await;
            }
            finish_round(&app, &t).await;
        }
        let v = view(&app, &t).await;
        assert_eq!(v["status"], "finished");
        let all = pairs(&v);
        let distinct: BTreeSet<_> = all.iter().cloned().collect();
        assert_eq!((all.len(), distinct.len()), (10, 10), "every pair once");
        let total: f64 = v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["points"].as_f64().unwrap())
            .sum();
        assert_eq!(total, 15.0, "10 games and 5 byes");
        let keys: Vec<&String> = v["standings"][0]["tiebreaks"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(keys, ["sonneborn_berger"]);
    }
}

#[tokio::test]
async fn a_knockout_of_six_replays_a_drawn_game() {
    for app in apps().await {
        let t = create(
            &app,
            json!({"game": "bst", "name": "Cup", "format": "knockout"}),
        )
        .await;
        entrants(&app, &t, "ko", 6).await;
        let v = next_round(&app, &t).await.body;
        assert_eq!(v["rounds_total"], 3);
        let round = current_round(&v);
        let byes: BTreeSet<String> = round["byes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            byes,
            ["ko1".to_string(), "ko2".to_string()].into(),
            "byes to the top seeds"
        );
        let first = round["games"][0].clone();
        // Drawn, and drawn again: each time a new lobby for the same pair, in the same round.
        end_duel(&app, &t, first["lobby"].as_str().unwrap(), None).await;
        let v = view(&app, &t).await;
        let games = current_round(&v)["games"].as_array().unwrap().clone();
        assert_eq!(games.len(), 3, "a replay: {games:?}");
        assert_eq!(players(&games[2]), players(&first));
        let replay = app
            .get(
                &format!("/api/v1/lobbies/{}", games[2]["lobby"].as_str().unwrap()),
                None,
            )
            .await
            .body;
        assert_eq!(replay["status"], "running");
        let busy = next_round(&app, &t).await;
        assert_eq!(busy.code(), "round-unfinished");
        let loser = players(&first)[0].clone();
        let winner = players(&first)[1].clone();
        end_duel(&app, &t, games[2]["lobby"].as_str().unwrap(), Some(&winner)).await;
        finish_round(&app, &t).await;
        let v = view(&app, &t).await;
        assert_eq!(current_round(&v)["finished"], true);

        let v = next_round(&app, &t).await.body;
        let semis: Vec<String> = current_round(&v)["games"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(players)
            .collect();
        assert!(
            semis.contains(&winner) && !semis.contains(&loser),
            "{semis:?}"
        );
        finish_round(&app, &t).await;
        next_round(&app, &t).await;
        finish_round(&app, &t).await;
        let v = view(&app, &t).await;
        assert_eq!(v["status"], "finished");
        let champion = &v["standings"][0];
        assert_eq!(
            (champion["rank"].as_i64(), champion["points"].as_f64()),
            (Some(1), Some(3.0))
        );
        assert_eq!(v["standings"][1]["rank"], 2);
    }
}

#[tokio::test]
async fn a_melee_of_nine_on_boards_of_five() {
    for app in apps().await {
        let t = create(
            &app,
            json!({"game": "crossing-swords", "name": "Melee", "format": "melee", "rounds": 2,
                   "board_size": 5}),
        )
        .await;
        entrants(&app, &t, "me", 9).await;
        for _ in 1..=2 {
            let v = next_round(&app, &t).await.body;
            let round = current_round(&v);
            let mut sizes: Vec<usize> = round["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| players(g).len())
                .collect();
            sizes.sort_unstable();
            assert_eq!(sizes, [4, 5]);
            for game in round["games"].as_array().unwrap() {
                let lobby = game["lobby"].as_str().unwrap();
                let reply = app
                    .send(
                        Method::POST,
                        &format!("/api/v1/lobbies/{lobby}/end"),
                        Some(&t.director),
                        None,
                    )
                    .await;
                assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
            }
        }
        let v = view(&app, &t).await;
        assert_eq!(v["status"], "finished");
        let result = &current_round(&v)["games"][0]["result"];
        assert_eq!(result["kind"], "board");
        // Nobody has scored VP, so every seat shares each board's win: two boards each.
        for s in v["standings"].as_array().unwrap() {
            assert_eq!(s["tiebreaks"], json!({"boards_won": 2}), "{s}");
        }
    }
}

#[tokio::test]
async fn bad_tournaments_are_refused_clearly() {
    for app in apps().await {
        let cases = [
            (
                json!({"game": "bst", "name": "x", "format": "swiss"}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-rounds",
            ),
            (
                json!({"game": "bst", "name": "x", "format": "swiss", "rounds": 21}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-rounds",
            ),
            (
                json!({"game": "bst", "name": "x", "format": "knockout", "rounds": 3}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-rounds",
            ),
            (
                json!({"game": "bst", "name": "x", "format": "melee", "rounds": 2, "board_size": 4}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-board-size",
            ),
            (
                json!({"game": "crossing-swords", "name": "x", "format": "melee", "rounds": 2}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-board-size",
            ),
            (
                json!({"game": "bst", "name": "x", "format": "ladder"}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
            (
                json!({"game": "bst", "name": "x", "format": "swiss", "rounds": 2, "forbidden_pairs": [["a", "A"]]}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-forbidden-pair",
            ),
            (
                json!({"game": "bst", "name": "x", "format": "swiss", "rounds": 2, "settings": {"max_rounds": "many"}}),
                StatusCode::BAD_REQUEST,
                "invalid-body",
            ),
        ];
        for (body, status, code) in cases {
            let reply = app.post("/api/v1/tournaments", None, body.clone()).await;
            assert_eq!(
                (reply.status, reply.code()),
                (status, code),
                "{body}: {}",
                reply.text
            );
        }
        let listed = app.get("/api/v1/tournaments", None).await.body;
        assert_eq!(listed, json!([]), "a refused tournament is not stored");
        let t = create(
            &app,
            json!({"game": "bst", "name": "Two", "format": "swiss", "rounds": 1}),
        )
        .await;
        let alone = next_round(&app, &t).await;
        assert_eq!(alone.code(), "too-few-entrants");
        let unknown = app.get("/api/v1/tournaments/nope", None).await;
        assert_eq!(
            (unknown.status, unknown.code()),
            (StatusCode::NOT_FOUND, "unknown-tournament")
        );
        let anonymous = app
            .post(
                &format!("/api/v1/tournaments/{}/entrants", t.id),
                None,
                json!({}),
            )
            .await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    }
}
