//! A BST duel's posts and pages in words, on every backend: a one-round duel that ends at its
//! round cap, the loser on points shown as losing, not as knocked out; the round's post with
//! its decisions named, real plurals and no bare rule ids; both matched to golden files.

use axum::http::StatusCode;
use serde_json::json;

use crate::pages_bst::answer_decision;
use crate::pages_client::Visitor;
use crate::pages_exports::{golden, textarea};
use crate::support::apps;

#[tokio::test]
async fn a_bst_duel_at_its_round_cap_reads_in_words_in_its_posts() {
    for app in apps().await {
        let mut settings = crate::pages_bst::opening();
        settings["max_rounds"] = json!(1);
        let (lobby, host_token) = app.create_lobby("bst", settings).await;
        let mut host = Visitor::new(&app);
        host.get(&format!("/lobbies/{lobby}/as/{host_token}")).await;
        let (mut ann, mut bob) = (Visitor::new(&app), Visitor::new(&app));
        for (visitor, name, character) in [
            (&mut ann, "Ann", "sellsword"),
            (&mut bob, "Bob", "sentinel"),
        ] {
            let joined = visitor
                .post(
                    &format!("/lobbies/{lobby}/join"),
                    &[("name", name), ("character", character)],
                )
                .await;
            assert_eq!(joined.status, StatusCode::SEE_OTHER, "{}", joined.html);
        }
        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        let play = format!("/lobbies/{lobby}/play");
        for (visitor, mv, token) in [
            (&mut ann, "guard", "B5"),
            (&mut bob, "standard-strike", "B4"),
        ] {
            let sent = visitor
                .post(
                    &play,
                    &[
                        ("round", "1"),
                        ("step", "play"),
                        ("move", mv),
                        ("token", token),
                    ],
                )
                .await;
            assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.html);
        }
        for _ in 0..12 {
            let a = answer_decision(&mut ann, &lobby).await;
            let b = answer_decision(&mut bob, &lobby).await;
            if a.is_none() && b.is_none() {
                break;
            }
        }
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["status"], "finished", "{view}");

        let mut anyone = Visitor::new(&app);
        let page = anyone.get(&format!("/lobbies/{lobby}")).await;
        // Nobody was knocked out: the loser on points is not marked "out".
        assert!(
            !page.html.contains("<span class=\"tag\">out</span>"),
            "{}",
            page.html
        );
        let standings = textarea(&page, "standings-md");
        assert!(!standings.contains("out"), "{standings}");
        golden("bst-round-cap-standings.md", &standings, &lobby);

        let round = anyone.get(&format!("/lobbies/{lobby}/rounds/1")).await;
        assert!(
            !round.html.contains("<span class=\"tag\">out</span>"),
            "{}",
            round.html
        );
        let post = textarea(&round, "round-md");
        assert!(!post.contains("Alive"), "{post}");
        for bare in ["(s)", "(L", "(A", "(T", "rule "] {
            assert!(!post.contains(bare), "{bare} in {post}");
        }
        assert!(post.contains("Ann's gather power: "), "{post}");
        golden("bst-round-1-post.md", &post, &lobby);
    }
}
