//! A sign-in code by mail (docs/identity.md, "A sign-in code by mail"), on both backends,
//! through a real SMTP conversation: a profile adds an address by typing back the code mailed
//! to it; "send me a sign-in code" answers the same for a known and an unknown address and
//! mails only the known one; a code works once, for 10 minutes (the injectable clock), for 5
//! tries; each address and each client may ask 3 and 10 times a quarter of an hour; removing
//! the address signs out what it signed in; with no relay none of it is offered.

use std::time::Duration;

use axum::http::StatusCode;

use crate::notify_mail::{Mails, with_smtp};
use crate::notify_receivers::{eventually, settings};
use crate::pages_client::{Page, Visitor};
use crate::support::{TestApp, notify_apps};

pub const ANN: &str = "ann.mail@example.org";

/// The code in the last mail to `to`, once it has arrived.
pub async fn code_mailed_to(inbox: &Mails, to: &str, before: usize) -> String {
    let count = || {
        inbox
            .lock()
            .unwrap()
            .iter()
            .filter(|m| m.to.iter().any(|t| t == to))
            .count()
    };
    eventually("the code's mail", || count() > before).await;
    let mails = inbox.lock().unwrap();
    let raw = &mails
        .iter()
        .rev()
        .find(|m| m.to.iter().any(|t| t == to))
        .unwrap()
        .raw;
    let at = raw.find("Your code: ").expect("a code in the mail") + "Your code: ".len();
    raw[at..at + 6].to_string()
}

pub fn mails_to(inbox: &Mails, to: &str) -> usize {
    inbox
        .lock()
        .unwrap()
        .iter()
        .filter(|m| m.to.iter().any(|t| t == to))
        .count()
}

/// Waits until `count` mails to `to` have arrived: a code's mail goes out after its page
/// answers, so a backend's loop waits for its own before the next backend clears the inbox
/// (a late one would otherwise read as the next backend's code).
pub async fn all_mailed(inbox: &Mails, to: &str, count: usize) {
    eventually("every code's mail", || mails_to(inbox, to) == count).await;
}

/// A browser signed in to a new profile named `handle`.
pub async fn signed_in<'a>(app: &'a TestApp, handle: &str) -> Visitor<'a> {
    let mut browser = Visitor::new(app);
    let page = browser.post("/me/profile", &[("handle", handle)]).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.html);
    browser
}

/// Adds `address` to the signed-in `browser`'s profile by the code mailed to it.
pub async fn add_address(browser: &mut Visitor<'_>, inbox: &Mails, address: &str) -> Vec<Page> {
    let before = mails_to(inbox, address);
    let asked = browser.post("/me/mail", &[("address", address)]).await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.html);
    let attempt = asked.input_value("attempt").expect("the attempt");
    let code = code_mailed_to(inbox, address, before).await;
    let done = browser
        .post(
            "/me/mail/confirm",
            &[("attempt", &attempt), ("code", &code)],
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.html);
    vec![asked, done]
}

/// The page with what differs between two answers (the attempt, the CSRF token) blanked.
fn shape(page: &Page) -> String {
    let mut html = page.html.clone();
    for name in ["attempt", "csrf"] {
        if let Some(value) = page.input_value(name) {
            html = html.replace(&value, "");
        }
    }
    html
}

#[tokio::test]
async fn a_code_by_mail_signs_in_once_and_never_tells_whether_an_address_is_known() {
    let (with_mail, inbox) = with_smtp(settings());
    for app in notify_apps(with_mail).await {
        inbox.lock().unwrap().clear();
        let mut ann = signed_in(&app, "Mail Ann").await;
        let me = ann.get("/me").await;
        assert!(me.html.contains("Sign-in codes by mail"), "{}", me.html);
        // A wrong code confirms nothing.
        let asked = ann.post("/me/mail", &[("address", ANN)]).await;
        let attempt = asked.input_value("attempt").unwrap();
        let code = code_mailed_to(&inbox, ANN, 0).await;
        let wrong = if code == "000000" { "000001" } else { "000000" };
        let page = ann
            .post(
                "/me/mail/confirm",
                &[("attempt", &attempt), ("code", wrong)],
            )
            .await;
        assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(page.html.contains("id=\"code-error\""), "{}", page.html);
        let page = ann
            .post(
                "/me/mail/confirm",
                &[("attempt", &attempt), ("code", &code)],
            )
            .await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        let me = ann.get("/me").await;
        assert!(me.html.contains("Address added"), "{}", me.html);
        assert!(!me.html.contains(ANN), "not even its owner is shown it");

        // Another browser asks for a code: the same answer for a stranger's address, and a
        // mail only to the known one.
        let mut phone = Visitor::new(&app);
        let signed_out = phone.get("/me").await;
        assert!(signed_out.html.contains("Send me a sign-in code"));
        let unknown = phone
            .post("/me/code", &[("address", "nobody@example.org")])
            .await;
        let known = phone.post("/me/code", &[("address", ANN)]).await;
        assert_eq!(
            (unknown.status, known.status),
            (StatusCode::OK, StatusCode::OK)
        );
        assert_eq!(shape(&unknown), shape(&known), "one answer for both");
        let code = code_mailed_to(&inbox, ANN, 1).await;
        assert_eq!(mails_to(&inbox, "nobody@example.org"), 0);
        // The unknown address's attempt takes no code at all.
        let stranger = unknown.input_value("attempt").unwrap();
        let page = phone
            .post(
                "/me/code/sign-in",
                &[("attempt", &stranger), ("code", &code)],
            )
            .await;
        assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
        let attempt = known.input_value("attempt").unwrap();
        let page = phone
            .post(
                "/me/code/sign-in",
                &[("attempt", &attempt), ("code", &code)],
            )
            .await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        let me = phone.get("/me").await;
        assert!(me.html.contains("Signed in as"), "{}", me.html);
        // Used once: a second browser cannot use it again.
        let mut thief = Visitor::new(&app);
        let page = thief
            .post(
                "/me/code/sign-in",
                &[("attempt", &attempt), ("code", &code)],
            )
            .await;
        assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);

        // Short-lived: 10 minutes by the clock.
        app.clock.advance(Duration::from_secs(20 * 60));
        let asked = thief.post("/me/code", &[("address", ANN)]).await;
        let code = code_mailed_to(&inbox, ANN, 2).await;
        app.clock.advance(Duration::from_secs(10 * 60 + 1));
        let attempt = asked.input_value("attempt").unwrap();
        let page = thief
            .post(
                "/me/code/sign-in",
                &[("attempt", &attempt), ("code", &code)],
            )
            .await;
        assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY, "expired");

        // Five tries, then not even the right code.
        app.clock.advance(Duration::from_secs(20 * 60));
        let asked = thief.post("/me/code", &[("address", ANN)]).await;
        let code = code_mailed_to(&inbox, ANN, 3).await;
        let attempt = asked.input_value("attempt").unwrap();
        let wrong = if code == "000000" { "000001" } else { "000000" };
        for _ in 0..5 {
            let page = thief
                .post(
                    "/me/code/sign-in",
                    &[("attempt", &attempt), ("code", wrong)],
                )
                .await;
            assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
        }
        let page = thief
            .post(
                "/me/code/sign-in",
                &[("attempt", &attempt), ("code", &code)],
            )
            .await;
        assert_eq!(
            page.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "out of tries"
        );
        assert!(!thief.get("/me").await.html.contains("Signed in as"));

        // Removing the address signs out the browser it signed in.
        let me = ann.get("/me").await;
        let at = me.html.find("action=\"/me/mail/").unwrap() + "action=\"/me/mail/".len();
        let id = &me.html[at..at + 36];
        let page = ann.post(&format!("/me/mail/{id}/remove"), &[]).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        assert!(!phone.get("/me").await.html.contains("Signed in as"));
        assert!(ann.get("/me").await.html.contains("Signed in as"));
    }
}

#[tokio::test]
async fn codes_are_limited_per_address_and_per_client_alike_for_known_and_unknown() {
    let (with_mail, inbox) = with_smtp(settings());
    for app in notify_apps(with_mail).await {
        inbox.lock().unwrap().clear();
        let mut ann = signed_in(&app, "Limited Ann").await;
        add_address(&mut ann, &inbox, ANN).await;
        app.clock.advance(Duration::from_secs(20 * 60));
        let mut phone = Visitor::new(&app);
        for address in [ANN, "stranger@example.org"] {
            for _ in 0..3 {
                let page = phone.post("/me/code", &[("address", address)]).await;
                assert_eq!(page.status, StatusCode::OK, "{}", page.html);
            }
            let page = phone.post("/me/code", &[("address", address)]).await;
            assert_eq!(page.status, StatusCode::TOO_MANY_REQUESTS, "{address}");
        }
        // In-process requests are one client: 6 asked, 4 more, then that client is refused
        // whatever address it names.
        for n in 0..4 {
            let page = phone
                .post("/me/code", &[("address", &format!("other{n}@example.org"))])
                .await;
            assert_eq!(page.status, StatusCode::OK, "{}", page.html);
        }
        let page = phone
            .post("/me/code", &[("address", "fresh@example.org")])
            .await;
        assert_eq!(page.status, StatusCode::TOO_MANY_REQUESTS);
        // A quarter of an hour later, asking works again.
        app.clock.advance(Duration::from_secs(15 * 60 + 1));
        let page = phone.post("/me/code", &[("address", ANN)]).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.html);
        // Not an address: a clear 400, the same for anyone.
        let page = phone
            .post("/me/code", &[("address", "not an address")])
            .await;
        assert_eq!(page.status, StatusCode::BAD_REQUEST);
        // The confirmation, three codes, and the one a quarter of an hour later.
        all_mailed(&inbox, ANN, 5).await;
    }
}

#[tokio::test]
async fn without_a_relay_no_code_is_offered_or_sent() {
    for app in notify_apps(settings()).await {
        let mut ann = signed_in(&app, "No Mail Ann").await;
        assert!(!ann.get("/me").await.html.contains("Sign-in codes by mail"));
        let page = ann.post("/me/mail", &[("address", ANN)]).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND);
        let mut phone = Visitor::new(&app);
        assert!(
            !phone
                .get("/me")
                .await
                .html
                .contains("Send me a sign-in code")
        );
        let page = phone.post("/me/code", &[("address", ANN)]).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND);
    }
}
