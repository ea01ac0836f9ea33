//! The ladder's page, `/ladder/{game}` (docs/bots.md, "The page"), without a browser: plain
//! HTML that reads the same with JavaScript off. The bots entered with their owners and
//! ratings, the games in progress linked, the results, the leaderboard linked; the home page
//! and the leaderboards link it while the ladder is on.

use axum::http::StatusCode;

use crate::api_ladder::{bot, enter, ladder_games, settings};
use crate::api_ladder_bosses::play_to_the_end;
use crate::api_profiles::profile;
use crate::support::timed_apps;

#[tokio::test]
async fn the_ladder_page_lists_the_bots_the_games_and_the_results_without_script() {
    for app in timed_apps().await {
        let app = app.with_ladder(settings(2));
        let bosses = app.host.ensure_bosses().await.unwrap();
        let _playing = herald::bots::bosses::spawn(&app.host, bosses);
        let empty = app.get("/ladder/bst", None).await;
        assert_eq!(empty.status, StatusCode::OK, "{}", empty.text);
        assert!(empty.text.contains("id=\"no-running\""));
        assert!(empty.text.contains("id=\"no-results\""));
        let (hana, _) = profile(&app, "Hana").await;
        let robo = bot(&app, &hana, "Robo").await;
        enter(&app, &robo, "bst").await;
        app.host.play_ladder_round().await.unwrap().unwrap();
        let lobby = ladder_games(&app, "bst").await[0]["lobby"]
            .as_str()
            .unwrap()
            .to_string();
        let page = app.get("/ladder/bst", None).await.text;
        for expected in [
            "href=\"/u/Robo\"",
            "href=\"/u/Hana\"",
            "href=\"/u/herald-greedy\"",
            "href=\"/u/herald-random\"",
            "href=\"/ratings/bst/bots\"",
            &format!("href=\"/lobbies/{lobby}\""),
            "in progress",
            "1500?",
        ] {
            assert!(page.contains(expected), "{expected} missing from:\n{page}");
        }
        assert!(page.contains("id=\"no-results\""));
        // Robo plays it to the end against the boss: it moves to the results.
        play_to_the_end(&app, &lobby, &robo).await;
        let page = app.get("/ladder/bst", None).await.text;
        assert!(page.contains("id=\"no-running\""), "{page}");
        assert!(page.contains(&format!("href=\"/lobbies/{lobby}\"")));
        assert!(page.contains(" won") || page.contains("drawn"), "{page}");
        for home in ["/", "/ratings/bst/bots"] {
            let text = app.get(home, None).await.text;
            assert!(text.contains("href=\"/ladder/bst\""), "{home}");
            assert!(text.contains("href=\"/ladder/contests\""), "{home}");
        }
        let unknown = app.get("/ladder/chess", None).await;
        assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
}
