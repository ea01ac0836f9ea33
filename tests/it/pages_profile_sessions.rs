//! Signed-in browsers on the pages (docs/identity.md, "Signing in" and "Passkeys"): the
//! session cookie is sent again each time the server slides the session, so that the browser
//! keeps it as long as the server does; one browser signs another out from `/me`; and with no
//! public URL the passkey ceremonies are 404 `passkeys-off` and `/me` offers no passkeys.

use std::time::Duration;

use axum::http::StatusCode;

use crate::api_profiles::profile;
use crate::pages_client::{Page, Visitor};
use crate::support::{apps, timed_apps};

const HOUR: Duration = Duration::from_secs(3600);
const DAY: Duration = Duration::from_secs(24 * 3600);

/// The `herald_session` cookie a response sets, if any.
fn session_cookie(page: &Page) -> Option<String> {
    let mut set = page
        .set_cookies()
        .into_iter()
        .filter(|c| c.starts_with("herald_session="));
    let first = set.next();
    assert_eq!(set.next(), None, "one session cookie per response");
    first
}

#[tokio::test]
async fn the_session_cookie_is_sent_again_each_time_the_server_slides_the_session() {
    for app in timed_apps().await {
        let (key, _) = profile(&app, "Slider").await;
        let mut ann = Visitor::new(&app);
        let signed_in = session_cookie(&ann.get(&format!("/me/as/{key}")).await).unwrap();
        assert!(signed_in.contains("Max-Age=7776000"), "{signed_in}");
        // Within the hour the session does not slide, and no page sends the cookie.
        app.clock.advance(HOUR / 2);
        assert_eq!(session_cookie(&ann.get("/").await), None);
        // Past it, the server slides the session and the page sends the cookie again whole:
        // the same secret, attributes and full age.
        app.clock.advance(HOUR);
        let again = session_cookie(&ann.get("/").await);
        assert_eq!(
            again.as_deref(),
            Some(signed_in.as_str()),
            "{}",
            app.backend
        );
        assert_eq!(session_cookie(&ann.get("/me").await), None, "slid just now");
        // A browser used every 60 days stays signed in past 90 days from its sign-in, its
        // cookie renewed each time.
        for _ in 0..2 {
            app.clock.advance(60 * DAY);
            let page = ann.get("/me").await;
            assert!(page.html.contains("Signed in as"), "{}", page.html);
            assert_eq!(session_cookie(&page).as_deref(), Some(signed_in.as_str()));
        }
        // Signing out when a slide is due clears the cookie and does not send it again.
        app.clock.advance(2 * HOUR);
        let page = ann.post("/me/sign-out", &[]).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER);
        let cleared = session_cookie(&page).unwrap();
        assert!(cleared.contains("Max-Age=0"), "{cleared}");

        // A session left unused for 90 days ends, and nothing sends its cookie again.
        let mut bob = Visitor::new(&app);
        bob.get(&format!("/me/as/{key}")).await;
        app.clock.advance(90 * DAY);
        let page = bob.get("/me").await;
        assert!(page.html.contains("Make this a profile"), "{}", page.html);
        assert_eq!(session_cookie(&page), None);
    }
}

/// The id of the one signed-in browser on a `/me` page that is not this one.
fn other_session(me: &Page) -> String {
    let marker = "action=\"/me/sessions/";
    let others: Vec<String> = me
        .html
        .split("<li>")
        .filter(|line| line.contains(marker) && !line.contains("(this browser)"))
        .map(|line| {
            line.split(marker)
                .nth(1)
                .unwrap()
                .split('/')
                .next()
                .unwrap()
        })
        .map(str::to_owned)
        .collect();
    assert_eq!(others.len(), 1, "{}", me.html);
    others[0].clone()
}

#[tokio::test]
async fn a_browser_signs_another_out_from_me_and_only_its_own_profiles() {
    for app in apps().await {
        let (key, _) = profile(&app, "Two Screens").await;
        let mut desk = Visitor::new(&app);
        let mut phone = Visitor::new(&app);
        desk.get(&format!("/me/as/{key}")).await;
        phone.get(&format!("/me/as/{key}")).await;
        let phones = other_session(&desk.get("/me").await);
        let revoke = format!("/me/sessions/{phones}/revoke");

        // Another profile's browser cannot sign the phone out, nor can a made-up id.
        let (stranger_key, _) = profile(&app, "Stranger").await;
        let mut stranger = Visitor::new(&app);
        stranger.get(&format!("/me/as/{stranger_key}")).await;
        assert_eq!(
            stranger.post(&revoke, &[]).await.status,
            StatusCode::NOT_FOUND
        );
        let page = desk.post("/me/sessions/not-a-session/revoke", &[]).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND);
        assert!(phone.get("/me").await.html.contains("Signed in as"));

        let page = desk.post(&revoke, &[]).await;
        assert_eq!(
            (page.status, page.location()),
            (StatusCode::SEE_OTHER, "/me")
        );
        assert!(phone.get("/me").await.html.contains("Make this a profile"));
        let me = desk.get("/me").await;
        assert!(me.html.contains("Signed in as"), "{}", me.html);
        assert_eq!(
            me.html.matches("action=\"/me/sessions/").count(),
            1,
            "this browser only"
        );
        // Signed out, the phone revokes nothing.
        let page = phone.post(&revoke, &[]).await;
        assert_eq!(page.status, StatusCode::UNAUTHORIZED);
    }
}

/// What a `/me` page would show of passkeys.
const PASSKEY_MARKS: [&str; 5] = [
    "passkeys.js",
    "passkey-register",
    "passkey-sign-in",
    "Passkeys",
    "Sign in with a passkey",
];

#[tokio::test]
async fn with_no_public_url_the_passkey_routes_are_404_and_me_offers_none() {
    for app in apps().await {
        let (key, _) = profile(&app, "No Passkey").await;
        let mut ann = Visitor::new(&app);
        let signed_out = ann.get("/me").await;
        for path in ["/me/passkeys/sign-in/begin", "/me/passkeys/sign-in/finish"] {
            let page = ann.post(path, &[("handle", "No Passkey")]).await;
            assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}");
            assert!(page.html.contains("offers no passkeys"), "{}", page.html);
        }
        ann.get(&format!("/me/as/{key}")).await;
        let signed_in = ann.get("/me").await;
        assert!(signed_in.html.contains("Signed in as"));
        for path in ["/me/passkeys/begin", "/me/passkeys/finish"] {
            let page = ann.post(path, &[]).await;
            assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}");
            assert!(page.html.contains("offers no passkeys"), "{}", page.html);
        }
        for page in [&signed_out, &signed_in] {
            for mark in PASSKEY_MARKS {
                assert!(!page.html.contains(mark), "{mark}: {}", page.html);
            }
        }
    }
}
