//! Profiles at the table, through the pages with no JavaScript (docs/identity.md): a
//! signed-in browser joins a gated lobby as its profile (a refusal names the gate), claims a
//! seat from the player's page, declares a vacation on `/me` that the lobby's players read,
//! and the host excuses a miss with a reason from the panel.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::json;

use crate::api_profiles::profile;
use crate::pages_client::Visitor;
use crate::support::timed_apps;

/// The id of the seat named `name`, from the lobby's public view.
async fn seat_of(app: &crate::support::TestApp, lobby: &str, name: &str) -> String {
    let view = app
        .get(&format!("/api/v1/lobbies/{lobby}"), None)
        .await
        .body;
    view["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .unwrap_or_else(|| panic!("no seat {name}: {view}"))
}

#[tokio::test]
async fn a_signed_in_browser_joins_as_its_profile_claims_and_goes_away() {
    for app in timed_apps().await {
        let (key, _) = profile(&app, "Pager").await;
        let mut ann = Visitor::new(&app);
        ann.get(&format!("/me/as/{key}")).await;
        // A lobby for bots only refuses her, naming the gate.
        let (bots, _) = app
            .create_lobby("crossing-swords", json!({"bots": "only"}))
            .await;
        let page = ann.get(&format!("/lobbies/{bots}")).await;
        assert!(
            page.html.contains("You join as <strong>Pager</strong>"),
            "{}",
            page.html
        );
        let page = ann.join(&bots, "").await;
        assert_eq!(page.status, StatusCode::FORBIDDEN, "{}", page.html);
        assert!(page.html.contains("for bots only"), "{}", page.html);
        assert!(
            page.html.contains("You join as"),
            "still signed in on the form again"
        );
        // A lobby that wants a profile takes her, named after her handle, the seat bound.
        let (gated, host) = app
            .create_lobby(
                "crossing-swords",
                json!({"profile_required": true, "deadline_seconds": 86_400}),
            )
            .await;
        let page = ann.join(&gated, "").await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        let me = app.get("/api/v1/me", Some(&key)).await.body;
        assert_eq!(me["seats"][0]["lobby"], gated.as_str(), "{me}");
        assert_eq!(me["seats"][0]["bound"], true);
        let play = ann.get(&format!("/lobbies/{gated}/play")).await;
        assert!(
            play.html.contains("This seat is bound to your profile"),
            "{}",
            play.html
        );
        assert!(!play.html.contains("claim-seat"));

        // Bob joins without signing in, then signs in and claims his seat from his page.
        let (bob_key, _) = profile(&app, "Claimer").await;
        let (open, _) = app.create_lobby("crossing-swords", json!({})).await;
        let mut bob = Visitor::new(&app);
        let page = bob.join(&open, "Bob").await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        let play = bob.get(&format!("/lobbies/{open}/play")).await;
        assert!(
            !play.html.contains("claim-seat"),
            "not signed in: nothing to claim for"
        );
        bob.get(&format!("/me/as/{bob_key}")).await;
        let play = bob.get(&format!("/lobbies/{open}/play")).await;
        assert!(
            play.html.contains("Claim this seat for Claimer"),
            "{}",
            play.html
        );
        let page = bob.post(&format!("/lobbies/{open}/play/claim"), &[]).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        let me = app.get("/api/v1/me", Some(&bob_key)).await.body;
        assert_eq!(
            (
                me["seats"][0]["lobby"].as_str(),
                me["seats"][0]["bound"].as_bool()
            ),
            (Some(open.as_str()), Some(true))
        );
        let signed_out = Visitor::new(&app)
            .post(&format!("/lobbies/{open}/play/claim"), &[])
            .await;
        assert_eq!(signed_out.status, StatusCode::UNAUTHORIZED);

        // Ann declares a vacation on /me; the form's refusals come back in words.
        let page = ann.get("/me").await;
        assert!(page.html.contains("14 of 14 days left"), "{}", page.html);
        let page = ann
            .post("/me/vacation", &[("from", ""), ("until", "2026-12-20")])
            .await;
        assert_eq!(
            page.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            page.html
        );
        assert!(page.html.contains("allowance left"), "{}", page.html);
        assert_eq!(
            page.input_value("until").as_deref(),
            Some("2026-12-20"),
            "kept"
        );
        let page = ann
            .post("/me/vacation", &[("from", ""), ("until", "2026-12-03")])
            .await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        let page = ann.get("/me").await;
        assert!(
            page.html
                .contains("Away from 2026-12-01T00:00:00.000Z until 2026-12-03T00:00:00.000Z"),
            "{}",
            page.html
        );
        assert!(page.html.contains("12 of 14 days left"), "{}", page.html);
        // The lobby's other players and its host read it.
        let (cid_key, _) = profile(&app, "Cidder").await;
        let mut cid = Visitor::new(&app);
        cid.get(&format!("/me/as/{cid_key}")).await;
        let page = cid.join(&gated, "Cid").await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        let bob_gated = seat_of(&app, &gated, "Pager").await;
        app.start(&gated, &host).await;
        let play = cid.get(&format!("/lobbies/{gated}/play")).await;
        assert!(
            play.html.contains(
                "Pager is away from 2026-12-01T00:00:00.000Z until 2026-12-03T00:00:00.000Z."
            ),
            "{}",
            play.html
        );
        let mut hosting = Visitor::new(&app);
        hosting.get(&format!("/lobbies/{gated}/as/{host}")).await;
        let panel = hosting.get(&format!("/lobbies/{gated}/host")).await;
        assert_eq!(panel.status, StatusCode::OK, "{}", panel.html);
        assert!(
            panel.html.contains(
                "Pager is away from 2026-12-01T00:00:00.000Z until 2026-12-03T00:00:00.000Z."
            ),
            "the host reads it on the panel: {}",
            panel.html
        );
        let public = Visitor::new(&app).get(&format!("/lobbies/{gated}")).await;
        assert!(
            !public.html.contains("is away"),
            "only the lobby's players and host"
        );
        // She ends the vacation early from /me.
        let page = ann.post("/me/vacation/end", &[]).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER);
        assert!(!ann.get("/me").await.html.contains("id=\"vacation-now\""));
        let _ = bob_gated;
    }
}

#[tokio::test]
async fn the_host_excuses_a_miss_from_the_panel_with_a_reason_the_player_reads() {
    for app in timed_apps().await {
        let (key, _) = profile(&app, "Sleeper").await;
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Excusing").await;
        let mut sleeper = Visitor::new(&app);
        sleeper.get(&format!("/me/as/{key}")).await;
        sleeper.join(&lobby, "").await;
        let mut other = Visitor::new(&app);
        other.join(&lobby, "Awake").await;
        let page = host
            .post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        let page = host
            .post(
                &format!("/lobbies/{lobby}/host/resolve-now"),
                &[("confirm", "yes")],
            )
            .await;
        assert!(page.status.is_redirection(), "{}", page.html);
        let player = seat_of(&app, &lobby, "Sleeper").await;
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(
            panel.html.contains("round 1 miss</button>"),
            "{}",
            panel.html
        );
        let path = format!("/lobbies/{lobby}/host/players/{player}/excuse");
        let long = "x".repeat(201);
        let page = host
            .post(
                &path,
                &[("round", "1"), ("step", "orders"), ("reason", &long)],
            )
            .await;
        assert_eq!(
            page.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            page.html
        );
        let page = host
            .post(
                &path,
                &[
                    ("round", "1"),
                    ("step", "orders"),
                    ("reason", "Storm took the power"),
                ],
            )
            .await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(!panel.html.contains("round 1 miss"), "excused once");
        // The player reads the reason on their own profile page; the public does not.
        let own = sleeper.get("/u/sleeper").await;
        assert!(own.html.contains("Storm took the power"), "{}", own.html);
        let public = Visitor::new(&app).get("/u/sleeper").await;
        assert!(public.html.contains("Excused"), "{}", public.html);
        assert!(!public.html.contains("Storm took the power"));
        // After 7 days a miss is no longer excused.
        host.post(
            &format!("/lobbies/{lobby}/host/resolve-now"),
            &[("confirm", "yes")],
        )
        .await;
        app.clock.advance(Duration::from_millis(8 * 86_400_000));
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(!panel.html.contains("round 2 miss"), "{}", panel.html);
        let page = host
            .post(&path, &[("round", "2"), ("step", "orders"), ("reason", "")])
            .await;
        assert_eq!(page.status, StatusCode::CONFLICT, "{}", page.html);
        assert!(page.html.contains("within 7 days"), "{}", page.html);
    }
}
