//! Receipts and the seed's commitment (docs/fairness.md): a receipt binds the order the reveal later
//! shows, a replacement gets a new one, the nonce shows nowhere before the reveal, and the seed
//! published at the end opens the commitment made at the lobby's creation.

use axum::http::StatusCode;
use serde_json::json;

use herald::fairness::{order_commitment, seed_commitment};

use crate::api_fairness::{archive, clean, crossing_swords, seat, view};
use crate::support::apps;

#[tokio::test]
async fn a_receipt_binds_the_order_the_reveal_shows_and_hides_its_nonce_until_then() {
    for app in apps().await {
        let game = seat(
            &app,
            "crossing-swords",
            json!({"max_players": 2}),
            &crossing_swords(2),
        )
        .await;
        let lobby = &game.lobby;
        let (ann, ann_token) = &game.players[0];
        let (bob, bob_token) = &game.players[1];
        let orders = format!("/api/v1/lobbies/{lobby}/orders");
        let first = json!({"round": 1, "step": "orders", "move": "strike", "target": bob});
        let second = json!({"round": 1, "step": "orders", "move": "block", "target": bob});
        let one = app.post(&orders, Some(ann_token), first).await;
        let two = app.post(&orders, Some(ann_token), second).await;
        assert_eq!(
            (one.status, two.status),
            (StatusCode::ACCEPTED, StatusCode::ACCEPTED)
        );
        let (c1, c2) = (
            one.body["commitment"].as_str().unwrap(),
            two.body["commitment"].as_str().unwrap(),
        );
        assert_eq!((c1.len(), c2.len()), (64, 64));
        assert_ne!(c1, c2, "a replacement gets a new receipt");
        assert!(one.body.get("nonce").is_none() && two.body.get("nonce").is_none());

        // Everything anyone can read before the reveal.
        let mut before = vec![one.text.clone(), two.text.clone()];
        for (path, token) in [
            (format!("/api/v1/lobbies/{lobby}"), None),
            (
                format!("/api/v1/lobbies/{lobby}/me"),
                Some(ann_token.as_str()),
            ),
            (
                format!("/api/v1/lobbies/{lobby}/me"),
                Some(bob_token.as_str()),
            ),
            (format!("/api/v1/lobbies/{lobby}/archive"), None),
            (format!("/api/v1/lobbies/{lobby}/rounds"), None),
        ] {
            before.push(app.get(&path, token).await.text);
        }
        let running = archive(&app, lobby).await;
        assert!(running.seed.is_none() && running.seed_salt.is_none());
        assert!(running.seed_commitment.is_some());

        let bob_order = json!({"round": 1, "step": "orders", "move": "block", "target": ann});
        let three = app.post(&orders, Some(bob_token), bob_order).await;
        assert_eq!(three.body["resolved"], true, "{}", three.text);
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await
            .body;
        let mine = round["orders"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["player"]["id"] == ann.as_str())
            .unwrap()
            .clone();
        let nonce = mine["nonce"].as_str().unwrap();
        let player = uuid::Uuid::parse_str(ann).unwrap();
        assert_eq!(
            order_commitment(&mine["order"], 1, "orders", player, nonce),
            c2,
            "the revealed order and nonce hash to the last receipt: {mine}"
        );
        assert_ne!(
            order_commitment(&mine["order"], 1, "orders", player, nonce),
            c1
        );
        for text in &before {
            assert!(
                !text.contains(nonce),
                "the nonce showed before the reveal: {text}"
            );
        }
        // The last order, which resolved the step without being stored, is bound too.
        let theirs = round["orders"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["player"]["id"] == bob.as_str())
            .unwrap();
        let bob_id = uuid::Uuid::parse_str(bob).unwrap();
        assert_eq!(
            order_commitment(
                &theirs["order"],
                1,
                "orders",
                bob_id,
                theirs["nonce"].as_str().unwrap()
            ),
            three.body["commitment"].as_str().unwrap()
        );
    }
}

#[tokio::test]
async fn the_seed_commitment_is_public_from_the_start_and_the_seed_matches_it_at_the_end() {
    for app in apps().await {
        let (lobby, host) = app.create_lobby("bst", json!({})).await;
        let created = view(&app, &lobby).await;
        let page = app.get(&format!("/lobbies/{lobby}"), None).await.text;
        assert!(
            !page.contains("herald verify"),
            "only a finished game's page: {page}"
        );
        let commitment = created["seed_commitment"].as_str().unwrap().to_string();
        assert!(created.get("seed").is_none() && created.get("seed_salt").is_none());
        app.join(&lobby, json!({"name": "Ann", "character": "sellsword"}))
            .await;
        app.join(&lobby, json!({"name": "Bob", "character": "sentinel"}))
            .await;
        app.start(&lobby, &host).await;
        let end = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/end"),
                Some(&host),
                json!({"result": "draw"}),
            )
            .await;
        assert_eq!(end.status, StatusCode::OK, "{}", end.text);
        let over = view(&app, &lobby).await;
        assert_eq!(over["seed_commitment"], commitment.as_str());
        let seed: u64 = over["seed"].as_str().unwrap().parse().unwrap();
        assert_eq!(
            seed_commitment(seed, over["seed_salt"].as_str().unwrap()),
            commitment
        );
        clean(&archive(&app, &lobby).await, "ended at once");
        // The finished game's page says how to check it.
        let page = app.get(&format!("/lobbies/{lobby}"), None).await.text;
        assert!(
            page.contains(&format!("href=\"/api/v1/lobbies/{lobby}/archive\"")),
            "{page}"
        );
        assert!(
            page.contains("herald verify") && page.contains(&commitment),
            "{page}"
        );
    }
}
