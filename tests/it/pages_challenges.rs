//! Challenges on the pages with JavaScript off (docs/bots.md, "Challenges"): a person
//! challenges a bot from its profile page and plays the game at once when the bot accepts; a
//! person accepts another's challenge from `/me` and lands on the game's page, or declines it;
//! a refused challenge says why and writes nothing; a browser not signed in is offered no form.

use axum::http::StatusCode;
use serde_json::json;

use crate::api_profiles::profile;
use crate::pages_client::Visitor;
use crate::support::apps;

#[tokio::test]
async fn a_person_challenges_a_bot_from_its_page_and_plays_at_once() {
    for app in apps().await {
        let (owner, _) = profile(&app, "Owner").await;
        let reply = app
            .post("/api/v1/me/bots", Some(&owner), json!({"handle": "Robo"}))
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        let bot = reply.body["key"].as_str().unwrap().to_owned();
        let (ann_key, _) = profile(&app, "Ann").await;

        // Signed out: the page offers no challenge, and the form's address refuses.
        let mut nobody = Visitor::new(&app);
        let page = nobody.get("/u/robo").await;
        assert!(!page.html.contains("challenge-form"), "{}", page.html);
        let refused = nobody
            .post("/u/robo/challenge", &[("game", "crossing-swords")])
            .await;
        assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", refused.html);

        let mut ann = Visitor::new(&app);
        ann.get(&format!("/me/as/{ann_key}")).await;
        assert!(
            !ann.get("/u/ann").await.html.contains("challenge-form"),
            "no challenge of oneself"
        );
        let page = ann.get("/u/robo").await;
        assert!(page.html.contains("id=\"challenge-form\""), "{}", page.html);
        assert_eq!(
            page.option_for("challenge-game", "Crossing Swords"),
            "crossing-swords"
        );
        // A game Herald does not host is refused on the page again, and nothing is sent.
        let bad = ann.post("/u/robo/challenge", &[("game", "chess")]).await;
        assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.html);
        assert!(bad.html.contains("id=\"challenge-error\""), "{}", bad.html);
        let seen = app.get("/api/v1/me", Some(&bot)).await.body;
        assert!(seen["seats"].as_array().unwrap().is_empty(), "{seen}");

        let sent = ann
            .post("/u/robo/challenge", &[("game", "crossing-swords")])
            .await;
        assert_eq!(
            (sent.status, sent.location()),
            (StatusCode::SEE_OTHER, "/me#challenges"),
            "{}",
            sent.html
        );
        let me = ann.get("/me").await;
        assert!(
            me.html.contains(
                "Crossing Swords against <a href=\"/u/Robo\">Robo</a>: waiting for an answer"
            ),
            "{}: {}",
            app.backend,
            me.html
        );

        // The bot hears of it on its stream and accepts through the API.
        let mut stream =
            crate::api_profile_stream::Stream::open(&app, "/api/v1/me/events", &bot).await;
        assert_eq!(stream.next().await.kind, "seats");
        let heard = stream.next().await;
        assert_eq!(heard.kind, "challenge", "{}", heard.text);
        assert_eq!(heard.data["from"], "Ann");
        let id = heard.data["id"].as_str().unwrap();
        let accepted = app
            .post(
                &format!("/api/v1/challenges/{id}/accept"),
                Some(&bot),
                json!({}),
            )
            .await;
        assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.text);
        let lobby = accepted.body["lobby"].as_str().unwrap();

        // Ann's page links the game, and she plays her seat from the browser at once.
        let me = ann.get("/me").await;
        let play = format!("/lobbies/{lobby}/play");
        assert!(me.html.contains(&format!("href=\"{play}\"")), "{}", me.html);
        let page = ann.get(&play).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.html);
        let robo = page.option_for("f-target", "Robo");
        let fields = [
            ("round", "1"),
            ("step", "orders"),
            ("move", "block"),
            ("target", robo.as_str()),
        ];
        let order = ann.post(&play, &fields).await;
        assert_eq!(order.status, StatusCode::SEE_OTHER, "{}", order.html);
        let mine = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(&ann_key))
            .await;
        assert_eq!(mine.body["pending"]["move"], "block", "{}", mine.text);
    }
}

#[tokio::test]
async fn a_person_accepts_or_declines_a_challenge_from_the_me_page() {
    for app in apps().await {
        let (ann_key, _) = profile(&app, "Ann").await;
        let (bob_key, _) = profile(&app, "Bob").await;
        let mut ann = Visitor::new(&app);
        ann.get(&format!("/me/as/{ann_key}")).await;
        let mut bob = Visitor::new(&app);
        bob.get(&format!("/me/as/{bob_key}")).await;

        for game in ["bst", "scale-of-styles"] {
            let sent = ann.post("/u/bob/challenge", &[("game", game)]).await;
            assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.html);
        }
        let me = bob.get("/me").await;
        assert!(
            me.html.contains("id=\"challenges-received\""),
            "{}",
            me.html
        );
        let received = app.get("/api/v1/me", Some(&bob_key)).await.body;
        assert!(received["seats"].as_array().unwrap().is_empty());
        // The accept and decline forms, in the order the challenges came.
        let forms: Vec<&str> = me
            .html
            .split("action=\"/me/challenges/")
            .skip(1)
            .map(|rest| &rest[..rest.find('"').unwrap()])
            .collect();
        assert_eq!(forms.len(), 4, "{}", me.html);
        let (accept_bst, decline_sos) = (forms[0], forms[3]);
        assert!(accept_bst.ends_with("/accept") && decline_sos.ends_with("/decline"));

        let declined = bob
            .post(&format!("/me/challenges/{decline_sos}"), &[])
            .await;
        assert_eq!(declined.status, StatusCode::SEE_OTHER, "{}", declined.html);
        let accepted = bob.post(&format!("/me/challenges/{accept_bst}"), &[]).await;
        assert_eq!(accepted.status, StatusCode::SEE_OTHER, "{}", accepted.html);
        let play = accepted.location().to_owned();
        assert!(play.ends_with("/play"), "{play}");
        let page = bob.get(&play).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.html);
        assert!(
            page.html.contains("id=\"seat-by-profile\""),
            "{}",
            page.html
        );

        // Answering again is refused on the page, saying why.
        let again = bob.post(&format!("/me/challenges/{accept_bst}"), &[]).await;
        assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.html);
        assert!(
            again.html.contains("id=\"challenge-error\""),
            "{}",
            again.html
        );
        // Ann may not answer her own challenge.
        let hers = ann
            .post(&format!("/me/challenges/{decline_sos}"), &[])
            .await;
        assert_eq!(hers.status, StatusCode::FORBIDDEN, "{}", hers.html);

        let me = ann.get("/me").await;
        assert!(me.html.contains(": declined"), "{}", me.html);
        assert!(me.html.contains(": accepted"), "{}", me.html);
        assert!(me.html.contains(&format!("href=\"{play}\"")), "{}", me.html);
    }
}
