//! End votes (docs/table-talk.md, "End votes"): a draw vote sent with a main-step order is
//! secret until the reveal, revealed with its order, and ends the game after a round in which
//! every living player cast it; the archive of a game so ended verifies, a forged vote does not.

use axum::http::StatusCode;
use rand::SeedableRng;
use serde_json::{Value, json};

use herald::bots::policy::{Strategy, answer};
use herald::fairness::verify::verify;

use crate::api_fairness::{archive, bst, clean, crossing_swords, seat, view};
use crate::api_fairness_tamper::reseal;
use crate::api_secrecy::EventReader;
use crate::support::{TestApp, apps};

/// Sends `token`'s answer to its prompt, with `vote` added when given.
async fn send(app: &TestApp, lobby: &str, token: &str, vote: Option<&str>) -> Value {
    let me = app
        .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(token))
        .await
        .body;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut order = answer(&me, Strategy::Random, &mut rng).expect("an answer");
    if let Some(vote) = vote {
        order["vote"] = json!(vote);
    }
    let path = format!("/api/v1/lobbies/{lobby}/orders");
    let reply = app.post(&path, Some(token), order).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
    reply.body
}

/// Everything someone other than the voter can read while the vote is pending.
async fn what_others_see(app: &TestApp, lobby: &str, other: &str) -> Vec<(String, String)> {
    let base = format!("/api/v1/lobbies/{lobby}");
    let mut seen = Vec::new();
    for (what, path, token) in [
        ("the lobby view", base.clone(), None),
        ("the other's me", format!("{base}/me"), Some(other)),
        ("the rounds", format!("{base}/rounds"), None),
        ("the archive", format!("{base}/archive"), None),
        ("the lobby page", format!("/lobbies/{lobby}"), None),
    ] {
        seen.push((what.to_owned(), app.get(&path, token).await.text));
    }
    for (what, mut reader) in [
        (
            "the lobby stream",
            EventReader::open(app, lobby, Some("0")).await,
        ),
        (
            "the other's stream",
            EventReader::open_path(app, &format!("{base}/me/events"), Some(other), Some("0")).await,
        ),
    ] {
        let mut text = String::new();
        while let Some(event) = reader.next().await {
            text.push_str(&format!("{} {}\n", event.kind, event.data));
        }
        seen.push((what.to_owned(), text));
    }
    seen
}

#[tokio::test]
async fn a_unanimous_vote_ends_crossing_swords_with_the_living_sharing_the_win() {
    for app in apps().await {
        let game = seat(&app, "crossing-swords", json!({}), &crossing_swords(3)).await;
        let (lobby, players) = (&game.lobby, &game.players);

        // Round 1: two of three vote. Secret until the reveal, even from the other players.
        let receipt = send(&app, lobby, &players[0].1, Some("draw")).await;
        assert_eq!(receipt["vote"], "draw");
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&players[0].1))
            .await;
        assert_eq!(me.body["vote"], "draw", "the voter sees her own vote");
        for (what, text) in what_others_see(&app, lobby, &players[1].1).await {
            assert!(
                !text.contains("\"vote\"") && !text.contains("voted"),
                "{what} shows the vote before the reveal: {text}"
            );
        }
        send(&app, lobby, &players[1].1, Some("draw")).await;
        let last = send(&app, lobby, &players[2].1, None).await;
        assert_eq!(last["resolved"], true);
        assert!(last.get("vote").is_none(), "no vote, no member: {last}");

        // Revealed with the orders; the game goes on.
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await;
        let votes: Vec<Value> = round.body["orders"]
            .as_array()
            .unwrap_or_else(|| panic!("a reveal: {}", round.text))
            .iter()
            .map(|e| e["vote"].clone())
            .collect();
        assert_eq!(votes, [json!("draw"), json!("draw"), Value::Null]);
        assert_eq!(view(&app, lobby).await["status"], "running");
        let post = app
            .get(&format!("/lobbies/{lobby}/rounds/1"), None)
            .await
            .text;
        assert!(
            post.contains("Voted for a draw in round 1: Ann, Bob."),
            "{post}"
        );

        // Round 2: all three vote; the game ends after it, the living sharing the win.
        let now = view(&app, lobby).await;
        for (id, token) in players {
            let owes = now["players"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["id"] == id.as_str() && p["owes"] == true);
            if owes {
                send(&app, lobby, token, Some("draw")).await;
            }
        }
        let lobby_view = view(&app, lobby).await;
        assert_eq!(lobby_view["status"], "finished", "{lobby_view}");
        let result = &lobby_view["result"];
        assert_eq!(result["reason"], "draw-vote", "{result}");
        let mut winners: Vec<&str> = result["winners"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap())
            .collect();
        winners.sort_unstable();
        // The living players after the round, whatever their VP; a fallen one is no winner.
        let mut living: Vec<&str> = lobby_view["players"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["alive"] == true)
            .map(|p| p["id"].as_str().unwrap())
            .collect();
        living.sort_unstable();
        assert!(living.len() >= 2, "{lobby_view}");
        assert_eq!(winners, living);

        // The archive replays the voted end bit for bit; a forged vote is caught.
        let honest = archive(&app, lobby).await;
        clean(&honest, "a game ended by a vote");
        let mut forged = honest.clone();
        let main = forged
            .steps
            .iter()
            .rposition(|s| s.step == "orders")
            .unwrap();
        forged.steps[main].revealed[2]["vote"] = Value::Null;
        reseal(&mut forged);
        let report = verify(&forged).unwrap();
        assert!(
            report.mismatches.iter().any(|m| m.field == "acts"),
            "a forged vote verified: {:#?}",
            report.mismatches
        );
    }
}

#[tokio::test]
async fn a_duel_ends_as_a_draw_after_the_round_both_voted_in() {
    for app in apps().await {
        let game = seat(
            &app,
            "bst",
            json!({"seed": 11}),
            &bst(["sellsword", "sentinel"]),
        )
        .await;
        let lobby = &game.lobby;
        let mut voted_round = None;
        for _ in 0..200 {
            let now = view(&app, lobby).await;
            if now["status"] == "finished" {
                break;
            }
            let (round, step) = (now["round"].as_u64().unwrap(), now["step"].clone());
            for (id, token) in &game.players {
                let owes = now["players"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|p| p["id"] == id.as_str() && p["owes"] == true);
                if !owes {
                    continue;
                }
                if step == "play" {
                    voted_round.get_or_insert(round);
                    send(&app, lobby, token, Some("draw")).await;
                } else {
                    // A decision carries no vote.
                    let me = app
                        .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(token))
                        .await
                        .body;
                    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
                    let mut order = answer(&me, Strategy::Random, &mut rng).unwrap();
                    order["vote"] = json!("draw");
                    let path = format!("/api/v1/lobbies/{lobby}/orders");
                    let refused = app.post(&path, Some(token), order).await;
                    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
                    assert_eq!(refused.body["error"]["code"], "vote-not-here");
                    send(&app, lobby, token, None).await;
                }
            }
        }
        let finished = view(&app, lobby).await;
        assert_eq!(finished["status"], "finished", "{finished}");
        assert_eq!(finished["result"]["reason"], "draw-vote");
        assert_eq!(finished["result"]["winners"], json!([]));
        let honest = archive(&app, lobby).await;
        let voted_round = u32::try_from(voted_round.unwrap()).unwrap();
        assert!(
            honest
                .steps
                .iter()
                .filter(|s| s.step == "play")
                .all(|s| s.round == voted_round),
            "the duel ended after the round of the vote"
        );
        clean(&honest, "a duel ended by a vote");
    }
}

#[tokio::test]
async fn a_vote_that_is_not_draw_or_sits_in_a_fallback_is_refused() {
    for app in apps().await {
        let game = seat(&app, "crossing-swords", json!({}), &crossing_swords(2)).await;
        let (lobby, (_, token)) = (&game.lobby, &game.players[0]);
        let target = &game.players[1].0;
        let path = format!("/api/v1/lobbies/{lobby}/orders");
        let order = |vote: Value| json!({"round": 1, "step": "orders", "move": "block", "target": target, "vote": vote});
        let reply = app.post(&path, Some(token), order(json!("peace"))).await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            reply.text
        );
        assert_eq!(reply.body["error"]["code"], "invalid-vote");
        let reply = app.post(&path, Some(token), order(json!(true))).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
        let reply = app.post(&path, Some(token), order(Value::Null)).await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        assert!(reply.body.get("vote").is_none());
        let fallback = json!({"move": "block", "target": target, "vote": "draw"}).to_string();
        let reply = app
            .send(
                axum::http::Method::PUT,
                &format!("/api/v1/lobbies/{lobby}/me/fallback"),
                Some(token),
                Some(axum::body::Body::from(fallback)),
            )
            .await;
        assert!(reply.status.is_client_error(), "{}", reply.text);
    }
}

#[tokio::test]
async fn the_order_form_offers_the_vote_as_a_checkbox_that_works_without_javascript() {
    for app in apps().await {
        let mut host = crate::pages_client::Visitor::new(&app);
        let lobby = host.create_lobby("Votes").await;
        let (mut ann, mut bob) = (
            crate::pages_client::Visitor::new(&app),
            crate::pages_client::Visitor::new(&app),
        );
        ann.join(&lobby, "Ann").await;
        bob.join(&lobby, "Bob").await;
        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        let play = format!("/lobbies/{lobby}/play");
        let page = ann.get(&play).await;
        assert!(page.html.contains("Vote to end the game as a draw"));
        assert!(!page.html.contains("value=\"draw\" checked"));
        let bob_id = page.option_for("f-target", "Bob");
        let fields = [
            ("round", "1"),
            ("step", "orders"),
            ("move", "strike"),
            ("target", bob_id.as_str()),
            ("vote", "draw"),
        ];
        let sent = ann.post(&play, &fields).await;
        assert!(sent.status.is_redirection(), "{}", sent.html);
        let again = ann.get(&play).await;
        assert!(
            again.html.contains("name=\"vote\" value=\"draw\" checked"),
            "the pending order's vote ticks the box"
        );
        let others = bob.get(&play).await;
        assert!(!others.html.contains("value=\"draw\" checked"));
    }
}
