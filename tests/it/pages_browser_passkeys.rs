//! Passkeys in a real browser (docs/identity.md, "Passkeys"): headless Chromium with
//! chromedriver's virtual authenticator (the WebDriver WebAuthn extension) registers a passkey
//! on `/me`, signs in with it after signing out, and loses the session when the passkey is
//! revoked; with JavaScript off the page says passkeys need it. The server's public URL is
//! `http://localhost:<port>`: localhost is a secure context, and an RP id must be a domain.
//! The runtime has one thread, so that the server's log lines (at trace) are captured: no
//! credential id and no session secret may be in them, or in any page.

use std::time::Duration;

use fantoccini::Client;
use serde_json::{Value, json};

use crate::pages_browser::{
    Driver, Script, browser, browser_available, goto, start_driver, wait_for, wait_for_text,
};
use crate::store_errors::Captured;

/// chromedriver's WebAuthn extension, called directly on its loopback port.
struct Authenticator {
    base: String,
    http: reqwest::Client,
}

impl Authenticator {
    /// Adds a platform authenticator that holds discoverable credentials, verifies its user
    /// and always consents (the person who touches the fingerprint reader).
    async fn add(driver: &Driver, client: &Client) -> Authenticator {
        let session = client.session_id().await.unwrap().expect("a session id");
        let http = reqwest::Client::new();
        let session_url = format!("http://127.0.0.1:{}/session/{session}", driver.port);
        let reply: Value = http
            .post(format!("{session_url}/webauthn/authenticator"))
            .json(&json!({
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": true,
                "hasUserVerification": true,
                "isUserConsenting": true,
                "isUserVerified": true
            }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = reply["value"].as_str().expect("an authenticator id");
        Authenticator {
            base: format!("{session_url}/webauthn/authenticator/{id}"),
            http,
        }
    }

    /// The credentials the authenticator holds.
    async fn credentials(&self) -> Vec<Value> {
        let reply: Value = self
            .http
            .get(format!("{}/credentials", self.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        reply["value"].as_array().cloned().unwrap_or_default()
    }
}

async fn click(client: &Client, css: &str) {
    wait_for(client, css).await.click().await.unwrap();
}

async fn serve(dir: &std::path::Path) -> (String, tokio::sync::oneshot::Sender<()>) {
    let url = format!("sqlite://{}?mode=rwc", dir.join("herald.db").display());
    let store = herald::store::Store::connect(&url).await.expect("store");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://localhost:{}", listener.local_addr().unwrap().port());
    let mut options = herald::Options::default();
    options.exposure.public_url = Some(base.clone());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(herald::serve_with(
        listener,
        herald::host::Host::new(store),
        options,
        async move {
            let _ = stopped.await;
        },
    ));
    (base, stop)
}

#[tokio::test(flavor = "current_thread")]
async fn a_passkey_is_registered_signs_in_and_ends_its_sessions_when_revoked() {
    if !browser_available() {
        return;
    }
    let logs = Captured::default();
    let _guard = logs.install_trace();
    let dir = tempfile::tempdir().unwrap();
    let (base, stop) = serve(dir.path()).await;
    let driver = start_driver().await;
    let a = browser(&driver, &dir.path().join("profile-a"), Script::On).await;
    let off = browser(&driver, &dir.path().join("profile-off"), Script::Off).await;
    let result = tokio::time::timeout(Duration::from_secs(300), async {
        let authenticator = Authenticator::add(&driver, &a).await;
        let pages = passkey_round_trip(&base, &a, &authenticator).await;
        script_off_says_so(&base, &off).await;
        (pages, authenticator.credentials().await)
    })
    .await;
    let _ = a.close().await;
    let _ = off.close().await;
    let _ = stop.send(());
    drop(driver);
    let (pages, credentials) = result.expect("the passkey test took more than 5 minutes");
    // Secrecy: the credential's id (as WebDriver writes it, and in every base64 spelling)
    // is in no page and no log line.
    assert_eq!(credentials.len(), 1, "{credentials:?}");
    let id = credentials[0]["credentialId"].as_str().unwrap().to_string();
    let standard = id.replace('-', "+").replace('_', "/");
    let logged = logs.text();
    assert!(!logged.is_empty(), "the log was captured");
    for secret in [id.trim_end_matches('='), standard.trim_end_matches('=')] {
        assert!(!logged.contains(secret), "a credential id in the log");
        for page in &pages {
            assert!(!page.contains(secret), "a credential id in a page");
        }
    }
}

/// Makes a profile, adds a passkey, signs out, signs in with the passkey, revokes it. The
/// pages seen on the way, and the session secrets the browser held, checked against them.
async fn passkey_round_trip(base: &str, a: &Client, authenticator: &Authenticator) -> Vec<String> {
    let mut pages = Vec::new();
    goto(a, &format!("{base}/me")).await;
    wait_for(a, "#handle")
        .await
        .send_keys("Passkey Ann")
        .await
        .unwrap();
    click(a, "form[action='/me/profile'] button[type=submit]").await;
    wait_for_text(a, "Signed in as").await;
    pages.push(a.source().await.unwrap());
    assert!(authenticator.credentials().await.is_empty());
    click(a, "#passkey-register").await;
    wait_for(a, "#passkey-list li").await;
    wait_for_text(a, "Passkey made").await;
    pages.push(a.source().await.unwrap());
    let first_session = a.get_named_cookie("herald_session").await.unwrap();
    let credentials = authenticator.credentials().await;
    assert_eq!(credentials.len(), 1, "{credentials:?}");
    assert_eq!(credentials[0]["rpId"], "localhost");

    click(a, "#sign-out").await;
    // Signed out, the browser lands on the home page: wait for it before leaving.
    wait_for(a, "#lobby-name").await;
    goto(a, &format!("{base}/me")).await;
    wait_for_text(a, "Sign in with a passkey").await;
    wait_for(a, "#passkey-handle")
        .await
        .send_keys("passkey ann")
        .await
        .unwrap();
    click(a, "#passkey-sign-in").await;
    wait_for_text(a, "Signed in as Passkey Ann").await;
    wait_for_text(a, "last used").await;
    pages.push(a.source().await.unwrap());
    let second_session = a.get_named_cookie("herald_session").await.unwrap();
    assert_ne!(first_session.value(), second_session.value());
    let counted = authenticator.credentials().await;
    assert!(
        counted[0]["signCount"].as_u64().unwrap_or(0) >= 1,
        "{counted:?}"
    );

    // Revoking the passkey signs out the session it started: this browser's.
    click(a, "#passkey-list form button[type=submit]").await;
    wait_for_text(a, "Make this a profile").await;
    pages.push(a.source().await.unwrap());
    // And it signs in no more.
    wait_for(a, "#passkey-handle")
        .await
        .send_keys("Passkey Ann")
        .await
        .unwrap();
    click(a, "#passkey-sign-in").await;
    wait_for_text(a, "has a passkey here").await;
    pages.push(a.source().await.unwrap());
    for page in &pages {
        for session in [&first_session, &second_session] {
            assert!(
                !page.contains(session.value()),
                "a session secret in a page"
            );
        }
    }
    pages
}

/// With the pages' script off, the passkey section says it needs JavaScript and offers no
/// button that cannot work.
async fn script_off_says_so(base: &str, off: &Client) {
    goto(off, &format!("{base}/me")).await;
    wait_for_text(off, "Passkeys need JavaScript").await;
    let shown = wait_for(off, "#passkey-sign-in")
        .await
        .is_displayed()
        .await
        .unwrap();
    assert!(!shown, "a passkey button that cannot work");
}
