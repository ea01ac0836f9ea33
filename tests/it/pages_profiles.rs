//! Profiles on the pages (docs/identity.md): the create form's gates in words, a join the
//! gates refuse shown again with the gate's words, and the host's panel naming the profile
//! and record beside each bound seat.

use axum::http::StatusCode;
use serde_json::json;

use crate::api_profiles::{join_as, profile};
use crate::pages_client::Visitor;
use crate::support::apps;

#[tokio::test]
async fn the_form_sets_the_gates_a_refused_join_says_why_and_the_panel_shows_profiles() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let home = host.get("/").await;
        for words in [
            "Who may join",
            "Only players with a profile",
            "Bots only",
            "Least reliability score",
            "Rated",
        ] {
            assert!(home.html.contains(words), "{words}");
        }
        let page = host
            .post(
                "/lobbies",
                &[
                    ("game", "crossing-swords"),
                    ("name", "Gated"),
                    ("min_reliability", "101"),
                ],
            )
            .await;
        assert_eq!(
            page.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            page.html
        );
        assert!(page.html.contains("0 to 100"), "said in words");
        assert_eq!(
            page.input_value("min_reliability").as_deref(),
            Some("101"),
            "kept"
        );
        let page = host
            .post(
                "/lobbies",
                &[
                    ("game", "crossing-swords"),
                    ("name", "Gated"),
                    ("profile_required", "true"),
                    ("bots", "forbidden"),
                ],
            )
            .await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        let lobby = page
            .location()
            .strip_prefix("/lobbies/")
            .unwrap()
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(
            (
                view["settings"]["profile_required"].clone(),
                view["settings"]["bots"].clone()
            ),
            (json!(true), json!("forbidden"))
        );

        // A join through the page, with no profile, is refused in the gate's words.
        let mut walk_in = Visitor::new(&app);
        let page = walk_in.join(&lobby, "Walk-in").await;
        assert_eq!(page.status, StatusCode::FORBIDDEN, "{}", page.html);
        assert!(
            page.html.contains("only players with a profile"),
            "{}",
            page.html
        );

        // The panel names the profile and its record beside the seat.
        let (key, _) = profile(&app, "Regular").await;
        join_as(&app, &lobby, &key, json!({})).await;
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert_eq!(panel.status, StatusCode::OK);
        assert!(
            panel.html.contains("Regular: reliability 100 (new)"),
            "{}",
            panel.html
        );
        assert!(!panel.html.contains(&key));
    }
}
