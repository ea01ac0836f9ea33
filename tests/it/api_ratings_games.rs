//! Ratings of every registered game through the API, on every backend (docs/ratings.md): a
//! rated game of each, played to the end its rules give it by the reference bots, moves that
//! game's own pool and no other, its first place above its last; the pool's leaderboard lists
//! both players, and a rebuild reaches the stored values. A new game is covered by its
//! registration.

use rand::SeedableRng;
use serde_json::{Value, json};

use herald::bots::load;
use herald::bots::policy::{Strategy, answer};
use herald::games::GameKind;

use crate::api_profiles::profile;
use crate::api_ratings::rated;
use crate::support::{TestApp, manual_apps};

/// Answers every owed prompt with the random reference bot until the game is over; its view.
async fn played_out(app: &TestApp, lobby: &str, players: &[(String, String)]) -> Value {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..2_000 {
        let now = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        if now["status"] == "finished" {
            return now;
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
            let order = answer(&me, Strategy::Random, &mut rng)
                .unwrap_or_else(|| panic!("no answer for {}", me["prompt"]));
            let path = format!("/api/v1/lobbies/{lobby}/orders");
            let sent = app.post(&path, Some(token), order.clone()).await;
            assert!(sent.status.is_success(), "{order}: {}", sent.text);
        }
    }
    panic!("{lobby} did not end");
}

#[tokio::test]
async fn a_rated_game_of_every_game_played_to_its_end_moves_its_own_pool() {
    for app in manual_apps(1_800_000_000_000).await {
        let (ann, _) = profile(&app, "Ann").await;
        let (bob, _) = profile(&app, "Bob").await;
        for kind in GameKind::ALL {
            let game = kind.id();
            let what = format!("{} {game}", app.backend);
            let pool = format!("{game}/humans");
            // The load generator's lobby of the game, two seats and a bounded length.
            let (_, settings) = load::lobby(kind, 2, 12);
            let (lobby, _, players) = rated(&app, game, settings, &[&ann, &bob]).await;
            let view = played_out(&app, &lobby, &players).await;
            let changes = view["result"]["rating_changes"].as_array().unwrap();
            assert_eq!(changes.len(), 2, "{what}: {view}");
            for (change, (player, _)) in changes.iter().zip(&players) {
                assert_eq!(change["player"], player.as_str(), "{what}: seat order");
                assert_eq!(change["before"]["pool"], pool.as_str(), "{what}");
                assert_eq!(change["before"]["games"], 0, "{what}: a pool of its own");
                assert_eq!(change["after"]["games"], 1, "{what}");
            }
            let rating = |i: usize| changes[i]["after"]["rating"].as_f64().unwrap();
            let winners = view["result"]["winners"].as_array().unwrap();
            match winners.as_slice() {
                [one] => {
                    let (won, lost) = match *one == players[0].0.as_str() {
                        true => (0, 1),
                        false => (1, 0),
                    };
                    assert!(rating(won) > rating(lost), "{what}: {view}");
                }
                _ => assert_eq!(rating(0), rating(1), "{what}: a draw: {view}"),
            }
            let board = app.get(&format!("/api/v1/ratings/{pool}"), None).await;
            let handles: Vec<&Value> = board.body["entries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| &e["handle"])
                .collect();
            assert_eq!(handles.len(), 2, "{what}: {}", board.text);
            assert!(handles.contains(&&json!("Ann")) && handles.contains(&&json!("Bob")));
        }
        let rebuilt = app.store.rebuild_ratings().await.unwrap();
        assert_eq!(rebuilt.results, GameKind::ALL.len(), "{}", app.backend);
        assert_eq!(rebuilt.differing, 0, "{}", app.backend);
    }
}
