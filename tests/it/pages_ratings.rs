//! Ratings on the pages, without a browser (docs/ratings.md, "What is shown"): a leaderboard
//! per pool with the settled entries first and the provisional ones after them marked `?`,
//! linked from the home page and from a rated lobby's pages (never from an unrated one); its
//! refusals as pages; and the final standings with each seat's rating change, on the lobby
//! page and in the forum post (golden files).

use axum::http::StatusCode;
use serde_json::json;

use crate::api_profiles::profile;
use crate::api_ratings::{end, rated};
use crate::pages_client::Visitor;
use crate::pages_exports::{assert_safe_exports, golden};
use crate::support::manual_apps;

/// The rows of the leaderboard table `id` as their cells' text.
fn board_rows(html: &str, id: &str) -> Vec<String> {
    let Some(start) = html.find(&format!("<table class=\"leaderboard\" id=\"{id}\"")) else {
        return Vec::new();
    };
    let end = start + html[start..].find("</table>").unwrap();
    html[start..end]
        .split("<tr>")
        .skip(2)
        .map(|row| {
            let mut text = String::new();
            let mut inside = false;
            for c in row.chars() {
                match c {
                    '<' => inside = true,
                    '>' => {
                        inside = false;
                        text.push(' ');
                    }
                    _ if !inside => text.push(c),
                    _ => {}
                }
            }
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect()
}

#[tokio::test]
async fn a_pool_has_a_leaderboard_page_linked_from_home_and_from_its_rated_lobbies() {
    for app in manual_apps(1_800_000_000_000).await {
        let mut visitor = Visitor::new(&app);
        let empty = visitor.get("/ratings/bst/humans").await;
        assert_eq!(empty.status, StatusCode::OK);
        assert!(empty.html.contains("id=\"no-settled\""), "{}", empty.html);
        assert!(empty.html.contains("id=\"no-provisional\""));
        let home = visitor.get("/").await;
        for pool in [
            "bst/humans",
            "bst/bots",
            "crossing-swords/humans",
            "contests/bots",
        ] {
            assert!(
                home.html.contains(&format!("href=\"/ratings/{pool}\"")),
                "home links {pool}"
            );
        }

        // Ann beats Bob three times and Cyd beats Bob once: all still provisional (deviation ≥ 110).
        let (ann, _) = profile(&app, "Ann").await;
        let (bob, _) = profile(&app, "Bob").await;
        let (cy, _) = profile(&app, "Cyd").await;
        let mut last = String::new();
        for _ in 0..3 {
            let (lobby, host, players) = rated(&app, "bst", json!({}), &[&ann, &bob]).await;
            end(&app, &lobby, &host, json!({"winner": players[0].0})).await;
            last = lobby;
        }
        let (lobby, host, players) = rated(&app, "bst", json!({}), &[&cy, &bob]).await;
        end(&app, &lobby, &host, json!({"winner": players[0].0})).await;
        let page = visitor.get("/ratings/bst/humans").await;
        assert_eq!(page.status, StatusCode::OK);
        let provisional = board_rows(&page.html, "provisional");
        assert_eq!(provisional.len(), 3, "{provisional:?}");
        assert!(provisional[0].starts_with("1 Ann "), "{provisional:?}");
        assert!(provisional[2].starts_with("3 Bob "), "{provisional:?}");
        assert!(
            provisional.iter().all(|row| row.contains("? ±")),
            "provisional ratings are marked: {provisional:?}"
        );
        assert!(page.html.contains("href=\"/u/Ann\""));
        assert!(page.html.contains("href=\"/api/v1/ratings/bst/humans\""));
        let limited = visitor.get("/ratings/bst/humans?limit=1").await;
        assert_eq!(board_rows(&limited.html, "provisional").len(), 1);

        // Each profile's page shows its rating, linked to its pool's board, with its latest
        // changes each linked to its game; a profile without rated games says so.
        let ann_page = visitor.get("/u/Ann").await;
        assert_eq!(ann_page.status, StatusCode::OK);
        let section = &ann_page.html[ann_page.html.find("id=\"ratings-h\"").unwrap()..];
        let section = &section[..section.find("</section>").unwrap()];
        assert!(
            section.contains("id=\"rating-bst/humans\"><a href=\"/ratings/bst/humans\">"),
            "{section}"
        );
        assert!(section.contains("3 rated games; provisional"), "{section}");
        assert_eq!(section.matches("<li>").count(), 3, "{section}");
        assert!(
            section.contains(&format!("href=\"/lobbies/{last}\"")),
            "{section}"
        );
        assert!(section.contains("1500? → "), "the first change: {section}");
        let (_, _) = profile(&app, "Dee").await;
        let dee = visitor.get("/u/Dee").await;
        assert!(dee.html.contains("No rated games yet."), "{}", dee.html);

        // Ann and Bob settle after 23 and 24 games: listed first, without the mark, above every
        // provisional rating however high.
        for game in 0..20 {
            let (lobby, host, players) = rated(&app, "bst", json!({}), &[&ann, &bob]).await;
            end(&app, &lobby, &host, json!({"winner": players[game % 2].0})).await;
        }
        let page = visitor.get("/ratings/bst/humans").await;
        let settled = board_rows(&page.html, "settled");
        let provisional = board_rows(&page.html, "provisional");
        assert_eq!(settled.len(), 2, "{settled:?} {provisional:?}");
        assert!(settled.iter().all(|row| !row.contains('?')), "{settled:?}");
        assert!(settled[0].starts_with("1 ") && settled[1].starts_with("2 "));
        assert_eq!(provisional.len(), 1);
        assert!(provisional[0].starts_with("3 Cyd "), "{provisional:?}");
        let bots = visitor.get("/ratings/bst/bots").await;
        assert!(!bots.html.contains("Ann"), "people and bots apart");

        // Refusals are pages: an unknown game or kind is a 404, a bad limit a 422.
        for (path, status) in [
            ("/ratings/chess/humans", StatusCode::NOT_FOUND),
            ("/ratings/bst/robots", StatusCode::NOT_FOUND),
            (
                "/ratings/bst/humans?limit=0",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                "/ratings/bst/humans?limit=201",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
        ] {
            let page = visitor.get(path).await;
            assert_eq!(page.status, status, "{path}");
            assert!(page.html.contains("<html"), "{path} is a page");
        }

        // A rated lobby's page links its pool; an unrated one's links none.
        let page = visitor.get(&format!("/lobbies/{last}")).await;
        assert!(
            page.html.contains("id=\"rated-boards\"")
                && page.html.contains("href=\"/ratings/bst/humans\""),
            "{}",
            page.html
        );
        let (open, _) = app
            .create_lobby("bst", json!({"rated": true, "bots": "only"}))
            .await;
        let page = visitor.get(&format!("/lobbies/{open}")).await;
        assert!(page.html.contains("href=\"/ratings/bst/bots\""));
        assert!(!page.html.contains("href=\"/ratings/bst/humans\""));
        let (unrated, _) = app.create_lobby("bst", json!({})).await;
        let page = visitor.get(&format!("/lobbies/{unrated}")).await;
        assert!(!page.html.contains("rated-boards"));
    }
}

#[tokio::test]
async fn the_final_standings_show_each_players_rating_change_in_both_posts() {
    for app in manual_apps(1_800_000_000_000).await {
        let (ann, _) = profile(&app, "Ann").await;
        let (bob, _) = profile(&app, "Bob").await;
        let (lobby, host, players) = rated(&app, "bst", json!({}), &[&ann, &bob]).await;
        end(&app, &lobby, &host, json!({"winner": players[0].0})).await;
        let mut visitor = Visitor::new(&app);
        let page = visitor.get(&format!("/lobbies/{lobby}")).await;
        assert!(page.html.contains("<th scope=\"col\">Rating</th>"));
        assert!(page.html.contains("1500? → 1662? (+162)"), "{}", page.html);
        assert!(page.html.contains("1500? → 1338? (-162)"));
        let (bb, md) = assert_safe_exports(&page, "standings", &format!("/lobbies/{lobby}"));
        golden("standings-rated.bbcode", &bb, &lobby);
        golden("standings-rated.md", &md, &lobby);

        // A melee: every seat's change, Weng-Lin's μ − 3σ to a tenth.
        let (cy, _) = profile(&app, "Cyd").await;
        let (lobby, host, players) =
            rated(&app, "crossing-swords", json!({}), &[&ann, &bob, &cy]).await;
        assert_eq!(players.len(), 3);
        end(&app, &lobby, &host, json!({})).await;
        let page = visitor.get(&format!("/lobbies/{lobby}")).await;
        let (_, md) = assert_safe_exports(&page, "standings", &format!("/lobbies/{lobby}"));
        assert_eq!(md.matches("0.0? → ").count(), 3, "{md}");

        // An unrated game has no rating column.
        let (lobby, host) = app.create_lobby("bst", json!({})).await;
        let a = app
            .join(&lobby, json!({"name": "Dee", "character": "sellsword"}))
            .await;
        app.join(&lobby, json!({"name": "Eve", "character": "sellsword"}))
            .await;
        app.start(&lobby, &host).await;
        end(&app, &lobby, &host, json!({"winner": a.0})).await;
        let page = visitor.get(&format!("/lobbies/{lobby}")).await;
        assert!(!page.html.contains("<th scope=\"col\">Rating</th>"));
    }
}
