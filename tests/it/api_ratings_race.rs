//! Exactly once for ratings (docs/ratings.md, "How the server stores them"): a rated game is
//! rated in the transaction that finishes it, so two server processes on one database that
//! race to finish it (the last order on one, the deadline on both) rate it once; and two games
//! with a player in common that finish at the same moment on two processes rate him one after
//! the other, the second from the first's result.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::api_deadlines::wait_for_round;
use crate::api_profiles::profile;
use crate::api_ratings::rated;
use crate::support::{TestApp, timed_apps};

/// Pairs of games raced.
const RACES: usize = 8;

/// The order that `player` sends in a one-round duel against `other`.
fn order(other: &str) -> Value {
    json!({"round": 1, "step": "orders", "move": "dodge", "target": other})
}

/// When the lobby's step falls due, as the server set it.
async fn deadline(app: &TestApp, lobby: &str) -> i64 {
    let view = app
        .get(&format!("/api/v1/lobbies/{lobby}"), None)
        .await
        .body;
    let at = view["deadline_at"].as_str().expect("a deadline");
    herald::host::timing::parse_rfc3339(at).unwrap()
}

/// A pool's history of the profile `handle`, oldest first.
async fn history(app: &TestApp, handle: &str) -> (Value, Vec<Value>) {
    let profile = app.get(&format!("/api/v1/profiles/{handle}"), None).await;
    assert_eq!(profile.status, StatusCode::OK, "{}", profile.text);
    let ratings = profile.body["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 1, "one pool: {}", profile.text);
    let mut changes = ratings[0]["history"].as_array().unwrap().clone();
    changes.reverse();
    (ratings[0].clone(), changes)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rated_games_finished_in_races_on_two_servers_are_rated_once_in_one_chain() {
    for one in timed_apps().await {
        let two = one.second_server().await;
        let (ann, _) = profile(&one, "Ann").await;
        let (bob, _) = profile(&two, "Bob").await;
        let (cat, _) = profile(&one, "Cat").await;
        let settings = json!({"max_players": 2, "max_rounds": 1, "deadline_seconds": 10});
        let mut lobbies = Vec::new();
        for race in 0..RACES {
            // Ann plays Bob on one table and Cat on another; both tables fall due at once.
            let (with_bob, _, b) =
                rated(&one, "crossing-swords", settings.clone(), &[&ann, &bob]).await;
            let (with_cat, _, c) =
                rated(&two, "crossing-swords", settings.clone(), &[&ann, &cat]).await;
            let due = deadline(&one, &with_bob)
                .await
                .max(deadline(&one, &with_cat).await);
            for (app, lobby, seats) in [(&one, &with_bob, &b), (&two, &with_cat, &c)] {
                let path = format!("/api/v1/lobbies/{lobby}/orders");
                let reply = app.post(&path, Some(&seats[0].1), order(&seats[1].0)).await;
                assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
            }
            // Bob's last order on server two, Cat's on server one, and the deadline passing
            // for both servers' schedulers, all at the same moment; in every other race the
            // servers swap.
            let (bob_app, cat_app) = if race % 2 == 0 {
                (&two, &one)
            } else {
                (&one, &two)
            };
            let bob_path = format!("/api/v1/lobbies/{with_bob}/orders");
            let cat_path = format!("/api/v1/lobbies/{with_cat}/orders");
            let (bob_reply, cat_reply, ()) = tokio::join!(
                bob_app.post(&bob_path, Some(&b[1].1), order(&b[0].0)),
                cat_app.post(&cat_path, Some(&c[1].1), order(&c[0].0)),
                async { one.clock.set(due) },
            );
            for reply in [bob_reply, cat_reply] {
                // Accepted, or refused because the deadline resolved the step first.
                assert!(
                    matches!(reply.status, StatusCode::ACCEPTED | StatusCode::CONFLICT),
                    "{}: {}",
                    one.backend,
                    reply.text
                );
            }
            for lobby in [&with_bob, &with_cat] {
                let view = wait_for_round(&one, lobby, 2).await;
                assert_eq!(view["status"], "finished", "{}: {view}", one.backend);
            }
            lobbies.push(with_bob);
            lobbies.push(with_cat);
        }
        for lobby in &lobbies {
            let view = two
                .get(&format!("/api/v1/lobbies/{lobby}"), None)
                .await
                .body;
            let changes = view["result"]["rating_changes"].as_array().unwrap();
            assert_eq!(changes.len(), 2, "{}: rated once: {view}", one.backend);
        }
        // Ann's chain: every game once, each change starting where the one before ended.
        let (rating, changes) = history(&one, "ann").await;
        assert_eq!(rating["games"], 2 * RACES, "{}", one.backend);
        assert_eq!(changes.len(), 2 * RACES, "{}", one.backend);
        let mut rated_lobbies: Vec<&str> = changes
            .iter()
            .map(|c| c["lobby"].as_str().unwrap())
            .collect();
        rated_lobbies.sort_unstable();
        rated_lobbies.dedup();
        assert_eq!(rated_lobbies.len(), 2 * RACES, "each game once");
        for pair in changes.windows(2) {
            assert_eq!(
                pair[1]["before"], pair[0]["after"],
                "{}: a change starts where the last ended",
                one.backend
            );
        }
        assert_eq!(changes.last().unwrap()["after"]["rating"], rating["rating"]);
        for handle in ["bob", "cat"] {
            let (rating, changes) = history(&two, handle).await;
            assert_eq!(rating["games"], RACES, "{}: {handle}", one.backend);
            assert_eq!(changes.len(), RACES);
        }
    }
}
