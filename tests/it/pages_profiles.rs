//! Profiles on the pages (docs/identity.md): the create form's gates in words, a join the
//! gates refuse shown again with the gate's words (a profile required, a least reliability
//! score), and the host's panel naming the profile and record beside each bound seat.

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

#[tokio::test]
async fn a_profile_made_from_my_games_signs_in_elsewhere_by_its_link_and_keys_end_sessions() {
    for app in apps().await {
        let mut ann = Visitor::new(&app);
        let lobby = ann.create_lobby("Ann's game").await;
        let my_key = ann.cookies["herald_me"].clone();
        let page = ann.get("/me").await;
        assert!(page.html.contains("Make this a profile"), "{}", page.html);
        let page = ann.post("/me/profile", &[("handle", "ab")]).await;
        assert_eq!(
            page.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            page.html
        );
        assert_eq!(page.input_value("handle").as_deref(), Some("ab"));
        let page = ann.post("/me/profile", &[("handle", "Ann Page")]).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.html);
        // The first key is the my-games key; its link is shown this once.
        let link = page.input_value("sign-in-link").expect("the sign-in link");
        assert_eq!(link, format!("http://herald.test/me/as/hpk_{my_key}"));
        let cookie = page
            .set_cookies()
            .into_iter()
            .find(|c| c.starts_with("herald_session="))
            .expect("a session cookie");
        for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=7776000"] {
            assert!(cookie.contains(attribute), "{cookie}");
        }
        assert!(
            !cookie.contains(&my_key),
            "the cookie holds a session, not the key"
        );
        assert!(ann.get("/me").await.html.contains("Signed in as"));

        // A second browser signs in by the link.
        let mut phone = Visitor::new(&app);
        let path = link.trim_start_matches("http://herald.test");
        let page = phone.get(path).await;
        assert_eq!(
            (page.status, page.location()),
            (StatusCode::SEE_OTHER, "/me")
        );
        let me = phone.get("/me").await;
        assert!(
            me.html
                .contains("Signed in as <a href=\"/u/Ann Page\">Ann Page</a>"),
            "{}",
            me.html
        );
        assert_eq!(
            me.html.matches("/revoke\"").count(),
            1 + 2,
            "one key, two sessions"
        );
        assert!(!me.html.contains(&my_key), "no page shows a key again");
        // A wrong link signs nobody in.
        let page = Visitor::new(&app)
            .get(&format!("/me/as/hpk_{}", "0".repeat(64)))
            .await;
        assert_eq!(page.status, StatusCode::NOT_FOUND);

        // The profile page shows the games and the record.
        let (key, _) = crate::api_profiles::profile(&app, "Page Friend").await;
        let (other, host) = app.create_lobby("crossing-swords", json!({})).await;
        join_as(&app, &other, &key, json!({})).await;
        app.join(&other, json!({"name": "Third"})).await;
        app.start(&other, &host).await;
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{other}/resolve-now"),
                Some(&host),
                json!({}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK);
        let page = phone.get("/u/page%20friend").await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.html);
        assert!(
            page.html.contains(
                "On time 0 of 1 steps over the last year (1 missed, 0 excused): score 0, new."
            ),
            "{}",
            page.html
        );
        assert!(
            page.html.contains(&format!(
                "Missed: round 1 (orders) of <a href=\"/lobbies/{other}\">Test lobby</a>"
            )),
            "{}",
            page.html
        );
        assert_eq!(
            phone.get("/u/nobody-here").await.status,
            StatusCode::NOT_FOUND
        );
        let _ = lobby;

        // Revoking the key signs out every browser signed in with it.
        let me = ann.get("/me").await;
        let revoke = me
            .html
            .split("action=\"/me/keys/")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap()
            .to_owned();
        let page = ann.post(&format!("/me/keys/{revoke}"), &[]).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        assert!(phone.get("/me").await.html.contains("Make this a profile"));
        assert!(ann.get("/me").await.html.contains("Make this a profile"));
        assert_eq!(
            phone.get(path).await.status,
            StatusCode::NOT_FOUND,
            "the link is dead"
        );
    }
}

#[tokio::test]
async fn signing_out_ends_this_browsers_session_only() {
    for app in apps().await {
        let (key, _) = crate::api_profiles::profile(&app, "Two Browsers").await;
        let mut desk = Visitor::new(&app);
        let mut phone = Visitor::new(&app);
        desk.get(&format!("/me/as/{key}")).await;
        phone.get(&format!("/me/as/{key}")).await;
        let page = desk.post("/me/sign-out", &[]).await;
        assert_eq!((page.status, page.location()), (StatusCode::SEE_OTHER, "/"));
        assert!(desk.get("/me").await.html.contains("Make this a profile"));
        assert!(phone.get("/me").await.html.contains("Signed in as"));
        // A new link for another device, shown once.
        let page = phone.post("/me/link", &[]).await;
        let link = page.input_value("sign-in-link").unwrap();
        assert!(link.contains("/me/as/hpk_") && !link.contains(&key));
        let page = desk.post("/me/link", &[]).await;
        assert_eq!(page.status, StatusCode::UNAUTHORIZED);
    }
}

#[tokio::test]
async fn a_signed_in_join_below_the_least_reliability_score_is_refused_in_words() {
    for app in apps().await {
        let key = crate::api_profile_refusals::unreliable(&app, "Latecomer").await;
        let (lobby, _) = app
            .create_lobby("crossing-swords", json!({"min_reliability": 50}))
            .await;
        let mut ann = Visitor::new(&app);
        ann.get(&format!("/me/as/{key}")).await;
        let page = ann.join(&lobby, "").await;
        assert_eq!(page.status, StatusCode::FORBIDDEN, "{}", page.html);
        assert!(
            page.html
                .contains("asks for a reliability score of at least 50; yours is 0"),
            "{}",
            page.html
        );
        assert!(page.html.contains("You join as"), "the form again");
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["players"], json!([]), "nobody joined");
    }
}
