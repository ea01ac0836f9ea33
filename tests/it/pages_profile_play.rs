//! A seat that belongs to a profile and has no link anyone holds (a challenge's game, a
//! tournament's) is played from the pages by a browser signed in as that profile
//! (docs/identity.md, "Seats that belong to someone"): the lobby page sends it to its seat,
//! the player's page takes its orders with JavaScript off, and nothing of the session's secret
//! reaches a page. Another profile, a browser signed out, or a session ended gets the
//! players-only refusal.

use axum::http::StatusCode;
use serde_json::json;

use crate::api_profiles::profile;
use crate::pages_client::Visitor;
use crate::support::{TestApp, apps};

/// A started one-round duel of Crossing Swords between `ann` and `bob` (profile keys), made
/// by a challenge that Bob accepts: both seats bound, no link given to anyone.
async fn challenged(app: &TestApp, ann: &str, bob_handle: &str, bob: &str) -> String {
    let reply = app
        .post(
            "/api/v1/challenges",
            Some(ann),
            json!({"game": "crossing-swords", "opponent": bob_handle,
                   "settings": {"max_players": 2, "max_rounds": 1}}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    let id = reply.body["id"].as_str().unwrap().to_owned();
    let reply = app
        .post(
            &format!("/api/v1/challenges/{id}/accept"),
            Some(bob),
            json!({}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["lobby"].as_str().unwrap().to_owned()
}

/// The session secret a browser holds, from its cookie.
fn session_secret(visitor: &Visitor<'_>) -> String {
    visitor.cookies["herald_session"].clone()
}

#[tokio::test]
async fn a_signed_in_browser_plays_its_profiles_bound_seat_without_a_link() {
    for app in apps().await {
        let (ann_key, _) = profile(&app, "Ann").await;
        let (bob_key, _) = profile(&app, "Bob").await;
        let (cat_key, _) = profile(&app, "Cat").await;
        let lobby = challenged(&app, &ann_key, "Bob", &bob_key).await;
        let play = format!("/lobbies/{lobby}/play");

        let mut ann = Visitor::new(&app);
        ann.get(&format!("/me/as/{ann_key}")).await;
        let secret = session_secret(&ann);
        let page = ann.get(&format!("/lobbies/{lobby}")).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.html);
        assert!(
            page.html.contains("You play as <strong>Ann</strong>"),
            "{}: {}",
            app.backend,
            page.html
        );
        let page = ann.get(&play).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.html);
        assert!(
            page.html.contains("id=\"seat-by-profile\""),
            "{}",
            page.html
        );
        assert!(
            !page.html.contains("id=\"private-link\""),
            "no link to show"
        );
        assert!(
            !page.html.contains(&secret) && !page.html.contains("hss_"),
            "the session's secret stays off the page"
        );

        // Her order from the page, with JavaScript off; Bob's through the API ends the game.
        let bob_id = page.option_for("f-target", "Bob");
        let fields = [
            ("round", "1"),
            ("step", "orders"),
            ("move", "block"),
            ("target", bob_id.as_str()),
        ];
        let sent = ann.post(&play, &fields).await;
        assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.html);
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&ann_key))
            .await;
        assert_eq!(me.body["pending"]["move"], "block", "{}", me.text);
        let page = ann.get(&play).await;
        assert!(page.html.contains("Block → Bob"), "{}", page.html);
        let ann_id = me.body["player"]["id"].as_str().unwrap().to_owned();
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/orders"),
                Some(&bob_key),
                json!({"round": 1, "step": "orders", "move": "dodge", "target": ann_id}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        let view = app.get(&format!("/api/v1/lobbies/{lobby}"), None).await;
        assert_eq!(view.body["status"], "finished", "{}", view.text);
        let round = ann.get(&format!("/lobbies/{lobby}/rounds/1")).await;
        assert_eq!(round.status, StatusCode::OK, "{}", round.html);
        assert!(round.html.contains("Block"), "{}", round.html);

        // Another profile, a browser signed in as nobody, and Ann once signed out: refused.
        let mut cat = Visitor::new(&app);
        cat.get(&format!("/me/as/{cat_key}")).await;
        let mut nobody = Visitor::new(&app);
        for visitor in [&mut cat, &mut nobody] {
            let page = visitor.get(&play).await;
            assert_eq!(page.status, StatusCode::UNAUTHORIZED, "{}", page.html);
            assert!(
                page.html.contains("sign in with the profile"),
                "{}",
                page.html
            );
        }
        let out = ann.post("/me/sign-out", &[]).await;
        assert_eq!(out.status, StatusCode::SEE_OTHER, "{}", out.html);
        ann.cookies
            .insert("herald_session".to_owned(), secret.clone());
        let page = ann.get(&play).await;
        assert_eq!(page.status, StatusCode::UNAUTHORIZED, "{}", page.html);

        // An ended session presented to the API as a seat's credential is refused too.
        let reply = app
            .get(
                &format!("/api/v1/lobbies/{lobby}/me"),
                Some(&format!("hss_{secret}")),
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{}", reply.text);
    }
}
