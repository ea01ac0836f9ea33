//! A ladder round happens once (docs/bots.md, "How the ladder pairs", "Exactly once"): two
//! server processes on one PostgreSQL racing the same tick, or two ticks of one process on
//! SQLite, pair each interval's round once and make each of its games once.

use std::collections::BTreeMap;

use serde_json::json;

use crate::api_ladder::{INTERVAL, bot, enter, ladder_games, settings};
use crate::api_profiles::profile;
use crate::support::timed_apps;

const ROUNDS: usize = 5;

#[tokio::test]
async fn each_round_is_paired_once_by_racing_processes_or_ticks() {
    for app in timed_apps().await {
        // A second process on PostgreSQL; on SQLite (one process per file) a second tick of
        // the same one.
        let other = match app.backend {
            "postgres" => Some(app.second_server().await.with_ladder(settings(100))),
            _ => None,
        };
        let app = app.with_ladder(settings(100));
        let (ann, _) = profile(&app, "Ann").await;
        let (bob, _) = profile(&app, "Bob").await;
        for (owner, handle) in [
            (&ann, "AnnBot"),
            (&bob, "BobBot"),
            (&ann, "AnnTwo"),
            (&bob, "BobTwo"),
        ] {
            let key = bot(&app, owner, handle).await;
            enter(&app, &key, "bst").await;
        }
        let second = other.as_ref().map_or(&app.host, |other| &other.host);
        for round in 0..ROUNDS {
            let (a, b) = tokio::join!(app.host.play_ladder_round(), second.play_ladder_round());
            let (a, b) = (a.unwrap(), b.unwrap());
            assert!(
                a.is_some() != b.is_some(),
                "round {round}: paired by exactly one"
            );
            let paired = a.or(b).unwrap();
            assert_eq!(paired.games.len(), 2, "round {round}");
            // Both write nothing more in the same interval.
            assert!(app.host.play_ladder_round().await.unwrap().is_none());
            assert!(second.play_ladder_round().await.unwrap().is_none());
            app.clock.advance(INTERVAL);
        }
        assert_eq!(app.store.ladder_rounds().await.unwrap(), ROUNDS as i64);
        let games = ladder_games(&app, "bst").await;
        assert_eq!(games.len(), 2 * ROUNDS);
        // Every game was made once: started, with its two bound seats.
        let mut seats: BTreeMap<String, usize> = BTreeMap::new();
        for game in &games {
            assert_eq!(game["status"], "running", "{game}");
            let lobby = app
                .get(
                    &format!("/api/v1/lobbies/{}", game["lobby"].as_str().unwrap()),
                    None,
                )
                .await;
            assert_eq!(
                lobby.body["players"].as_array().unwrap().len(),
                2,
                "{}",
                lobby.text
            );
            for player in game["players"].as_array().unwrap() {
                *seats
                    .entry(player.as_str().unwrap().to_string())
                    .or_default() += 1;
            }
        }
        assert_eq!(
            json!(seats),
            json!({"AnnBot": ROUNDS, "AnnTwo": ROUNDS, "BobBot": ROUNDS, "BobTwo": ROUNDS})
        );
    }
}
