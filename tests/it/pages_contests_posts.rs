//! A Contests duel's forum posts, on every backend: a round of a window and a Melee phase
//! whose one blow, helped by a card played face down, defeats the defender (rulings W5, K1-K5,
//! A3, E1), posted as BBCode and Markdown for the round and for the final standings, each
//! matched to its golden file.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::api_contests::deck;
use crate::pages_client::Visitor;
use crate::pages_exports::{golden, textarea};
use crate::support::{TestApp, apps};

/// Sends `order` for `token`, which must be accepted.
async fn send(app: &TestApp, lobby: &str, token: &str, order: Value) {
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
        "{order}: {}",
        reply.text
    );
}

#[tokio::test]
async fn a_contests_round_and_its_final_standings_read_as_their_golden_posts() {
    for app in apps().await {
        // Round 3 opens after an Archery phase; Bob has 2 HP left. Both hands hold contest
        // cards only, so the window offers no action worth taking.
        let hand = [
            "dwarven-ale",
            "illegal-doping",
            "am-i-good-or-what",
            "kick-below-the-waist",
            "my-daddy-was-an-elf",
        ];
        let settings = json!({
            "decks": {"p1": deck(&hand), "p2": deck(&hand)},
            "setup": {"round": 3, "after": "archery", "archery_phases": 2,
                      "players": [{}, {"hp": 2}]},
        });
        let game = crate::api_fairness::seat(
            &app,
            "contests",
            settings,
            &[json!({"name": "Ann"}), json!({"name": "Bob"})],
        )
        .await;
        let lobby = game.lobby.as_str();
        let (ann, bob) = (&game.players[0].1, &game.players[1].1);
        // W5: one advance after Archery is enough: Melee. The default builds have no Melee
        // choice, so no declare; Skill and Might tied, the initiator Ann strikes first (P3).
        send(
            &app,
            lobby,
            ann,
            json!({"round": 3, "step": "next", "wish": "advance", "action": null}),
        )
        .await;
        send(
            &app,
            lobby,
            bob,
            json!({"round": 3, "step": "next", "wish": "stay", "action": null}),
        )
        .await;
        let now = crate::api_fairness::view(&app, lobby).await;
        assert_eq!(
            (now["step"].as_str(), now["phase"].as_str()),
            (Some("set"), Some("melee")),
            "{now}"
        );
        let contest = now["contest"]["contest"].clone();
        send(
            &app,
            lobby,
            ann,
            json!({"round": 3, "step": "set", "contest": contest,
            "die": 5, "guesses": [6], "down": "dwarven-ale", "face_up": false}),
        )
        .await;
        send(
            &app,
            lobby,
            bob,
            json!({"round": 3, "step": "set", "contest": contest,
            "die": 2, "guesses": [3], "face_up": false}),
        )
        .await;
        // Ann 4 + 3 + 5 = 12 against Bob 4 + 2 = 6: the blow deals 2, Bob falls (E1).
        let over = crate::api_fairness::view(&app, lobby).await;
        assert_eq!(over["status"], "finished", "{over}");
        assert_eq!(over["result"]["reason"], "defeated", "{over}");

        let mut anyone = Visitor::new(&app);
        let round = anyone.get(&format!("/lobbies/{lobby}/rounds/3")).await;
        assert_eq!(round.status, StatusCode::OK);
        let (bb, md) = (textarea(&round, "round-bb"), textarea(&round, "round-md"));
        for post in [&bb, &md] {
            for line in [
                "Ann has a card face down",
                "Ann played dwarven-ale",
                "Ann wins (defeated)",
            ] {
                assert!(post.contains(line), "{line:?} in {post}");
            }
        }
        golden("contests-round-3-post.bbcode", &bb, lobby);
        golden("contests-round-3-post.md", &md, lobby);
        let page = anyone.get(&format!("/lobbies/{lobby}")).await;
        golden(
            "contests-standings.bbcode",
            &textarea(&page, "standings-bb"),
            lobby,
        );
        golden(
            "contests-standings.md",
            &textarea(&page, "standings-md"),
            lobby,
        );
    }
}
