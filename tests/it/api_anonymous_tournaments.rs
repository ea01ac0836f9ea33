//! Anonymous tournaments and challenges (docs/tournaments.md, "Anonymous tournaments"): while a
//! game of an anonymous tournament runs, the tournament's view, page and director's panel name
//! its seats by their pseudonyms, as its lobby does, and its result and handles appear once it
//! is over; its seats are not in the pairing's public order; an anonymous challenge's lobby is
//! not named after its two handles.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::api_profiles::profile;
use crate::api_tournaments::{Tournament, create, view};
use crate::pages_client::Visitor;
use crate::support::{TestApp, apps};

const HANDLES: [&str; 4] = ["Masked-Ava", "Masked-Bo", "Masked-Cy", "Masked-Di"];

fn names(players: &Value) -> Vec<String> {
    players
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().or(p["name"].as_str()).unwrap().to_owned())
        .collect()
}

/// The part of a tournament page that lists the rounds' games.
fn games_lists(html: &str) -> String {
    html.match_indices("<ul class=\"games\">")
        .map(|(at, _)| {
            let rest = &html[at..];
            rest[..rest.find("</ul>").unwrap()].to_owned()
        })
        .collect()
}

async fn lobby(app: &TestApp, id: &str) -> Value {
    app.get(&format!("/api/v1/lobbies/{id}"), None).await.body
}

#[tokio::test]
async fn an_anonymous_tournament_ties_no_entrant_to_a_seat_until_the_game_is_over() {
    for app in apps().await {
        let t: Tournament = create(
            &app,
            json!({"game": "bst", "name": "Masked Swiss", "format": "swiss", "rounds": 1,
                   "settings": {"anonymous": true}}),
        )
        .await;
        let mut keys = Vec::new();
        for handle in HANDLES {
            let (key, _) = profile(&app, handle).await;
            let reply = app
                .post(
                    &format!("/api/v1/tournaments/{}/entrants", t.id),
                    Some(&key),
                    json!({}),
                )
                .await;
            assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
            keys.push(key);
        }
        let reply = app
            .post(
                &format!("/api/v1/tournaments/{}/rounds", t.id),
                Some(&t.director),
                json!({}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);

        // While the games run: pseudonyms, as each lobby names its seats, and no result.
        let v = view(&app, &t).await;
        let games = v["rounds"][0]["games"].as_array().unwrap().clone();
        assert_eq!(games.len(), 2, "{v}");
        for game in &games {
            assert_eq!(names(&game["players"]), ["Player 1", "Player 2"], "{v}");
            assert!(game["result"].is_null());
            let seated = lobby(&app, game["lobby"].as_str().unwrap()).await;
            assert_eq!(names(&seated["players"]), ["Player 1", "Player 2"]);
        }
        let rounds = v["rounds"].to_string();
        let mut visitor = Visitor::new(&app);
        let page = visitor.get(&format!("/tournaments/{}", t.id)).await;
        assert_eq!(page.status, StatusCode::OK);
        let listed = games_lists(&page.html);
        assert!(listed.contains("Player 1 v Player 2"), "{}", page.html);
        let mut director = Visitor::new(&app);
        director
            .get(&format!("/tournaments/{}/as/{}", t.id, t.director))
            .await;
        let panel = director
            .get(&format!("/tournaments/{}/director", t.id))
            .await;
        assert_eq!(panel.status, StatusCode::OK, "{}", panel.html);
        let paneled = games_lists(&panel.html);
        assert!(paneled.contains("Player 1 v Player 2"), "{}", panel.html);
        for handle in HANDLES {
            for (what, text) in [
                ("the view's rounds", &rounds),
                ("the page's games", &listed),
                ("the panel's games", &paneled),
            ] {
                assert!(
                    !text.contains(handle),
                    "{}: {what} tie {handle} to a game",
                    app.backend
                );
            }
        }
        // An entrant's own page still links to his game.
        let mut ava = Visitor::new(&app);
        ava.get(&format!("/me/as/{}", keys[0])).await;
        let page = ava.get(&format!("/tournaments/{}", t.id)).await;
        let linked = games
            .iter()
            .filter(|g| own_game_linked(&page.html, g["lobby"].as_str().unwrap()))
            .count();
        assert_eq!(linked, 1, "Ava's game is linked: {}", page.html);

        // Over: the first game's handles in seat order, as its lobby now names them.
        let first = games[0]["lobby"].as_str().unwrap();
        let seated = lobby(&app, first).await;
        let winner = seated["players"][0]["id"].clone();
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{first}/end"),
                Some(&t.director),
                json!({"winner": winner}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let real = names(&lobby(&app, first).await["players"]);
        assert!(
            real.iter().all(|n| HANDLES.contains(&n.as_str())),
            "{real:?}"
        );
        let v = view(&app, &t).await;
        let games = v["rounds"][0]["games"].as_array().unwrap();
        assert_eq!(names(&games[0]["players"]), real, "{v}");
        assert_eq!(games[0]["result"]["winner"], real[0].as_str(), "{v}");
        assert_eq!(names(&games[1]["players"]), ["Player 1", "Player 2"]);
        let page = visitor.get(&format!("/tournaments/{}", t.id)).await;
        assert!(
            games_lists(&page.html).contains(&format!("{} v {}", real[0], real[1])),
            "{}",
            page.html
        );
    }
}

/// Whether `html` links the signed-in entrant to lobby `lobby` as his own game.
fn own_game_linked(html: &str, lobby: &str) -> bool {
    html.contains(&format!(
        "Your game of round 1: <a href=\"/lobbies/{lobby}\">Player 1 v Player 2</a>"
    ))
}

#[tokio::test]
async fn an_anonymous_challenge_s_lobby_is_not_named_after_its_players() {
    for app in apps().await {
        let (challenger, _) = profile(&app, "Masked-Eda").await;
        let (opponent, _) = profile(&app, "Masked-Fen").await;
        let reply = app
            .post(
                "/api/v1/challenges",
                Some(&challenger),
                json!({"game": "bst", "opponent": "Masked-Fen", "settings": {"anonymous": true}}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        let id = reply.body["id"].as_str().unwrap();
        let reply = app
            .post(
                &format!("/api/v1/challenges/{id}/accept"),
                Some(&opponent),
                json!({}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let id = reply.body["lobby"].as_str().unwrap();
        let view = app.get(&format!("/api/v1/lobbies/{id}"), None).await;
        assert_eq!(view.body["name"], "Anonymous challenge", "{}", view.text);
        let page = Visitor::new(&app).get(&format!("/lobbies/{id}")).await;
        for (what, text) in [("the view", &view.text), ("the page", &page.html)] {
            for handle in ["Masked-Eda", "Masked-Fen"] {
                assert!(
                    !text.contains(handle),
                    "{}: {what} names {handle}",
                    app.backend
                );
            }
        }
    }
}

/// The pairing puts the better seed first (round one of a Swiss of unrated entrants: entry k
/// against entry k + 20, in that order); an anonymous tournament seats each game in an order
/// drawn at random instead, so that the public rules do not give the seats away. Twenty games
/// all seated in one order would happen by chance twice in about a million runs.
#[tokio::test]
async fn an_anonymous_tournament_does_not_seat_its_games_in_the_pairing_s_order() {
    for app in apps().await {
        let t = create(
            &app,
            json!({"game": "bst", "name": "Shuffled Swiss", "format": "swiss", "rounds": 1,
                   "settings": {"anonymous": true}}),
        )
        .await;
        for i in 0..40 {
            let (key, _) = profile(&app, &format!("Seed-{i:02}")).await;
            let reply = app
                .post(
                    &format!("/api/v1/tournaments/{}/entrants", t.id),
                    Some(&key),
                    json!({}),
                )
                .await;
            assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        }
        let reply = app
            .post(
                &format!("/api/v1/tournaments/{}/rounds", t.id),
                Some(&t.director),
                json!({}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        crate::api_tournaments::finish_round(&app, &t).await;
        let v = view(&app, &t).await;
        let games = v["rounds"][0]["games"].as_array().unwrap();
        assert_eq!(games.len(), 20, "{v}");
        let mut paired = Vec::new();
        for game in games {
            let seeds: Vec<u32> = names(&game["players"])
                .iter()
                .map(|h| h["Seed-".len()..].parse().unwrap())
                .collect();
            assert_eq!(seeds[0].abs_diff(seeds[1]), 20, "{v}");
            paired.push(seeds[0] < seeds[1]);
        }
        assert!(
            paired.contains(&false) && paired.contains(&true),
            "{}: every game seated the better seed first",
            app.backend
        );
    }
}
