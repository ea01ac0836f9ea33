//! A player's mail, through a real SMTP conversation with a local SMTP server started by the
//! test (mailin-embedded): what arrives, the unsubscribe link that works without a login, and
//! the address that no one is shown and that goes when the player does.

use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{Method, StatusCode};
use serde_json::json;

use crate::notify_receivers::{eventually, settings, settle};
use crate::support::{TestApp, notify_apps};

/// One mail as the SMTP server got it: recipients and the raw message.
#[derive(Clone, Debug)]
pub struct Mail {
    pub to: Vec<String>,
    pub raw: String,
}

#[derive(Clone)]
struct Inbox {
    mails: Arc<Mutex<Vec<Mail>>>,
    to: Vec<String>,
    data: Vec<u8>,
}

impl mailin_embedded::Handler for Inbox {
    fn data_start(
        &mut self,
        _domain: &str,
        _from: &str,
        _is8bit: bool,
        to: &[String],
    ) -> mailin_embedded::Response {
        self.to = to.to_vec();
        self.data.clear();
        mailin_embedded::response::OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.data.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> mailin_embedded::Response {
        self.mails.lock().unwrap().push(Mail {
            to: self.to.clone(),
            raw: String::from_utf8_lossy(&self.data).into_owned(),
        });
        mailin_embedded::response::OK
    }
}

/// `base` with mail sent to an SMTP server started on 127.0.0.1 ([`smtp_server`]), and that
/// server's inbox.
pub fn with_smtp(base: herald::notify::Settings) -> (herald::notify::Settings, Mails) {
    let (url, inbox) = smtp_server();
    let settings = herald::notify::Settings {
        smtp_url: Some(url),
        ..base
    };
    (settings, inbox)
}

/// The mails an SMTP server started by a test has received.
pub type Mails = Arc<Mutex<Vec<Mail>>>;

/// Starts an SMTP server on 127.0.0.1 in a thread of its own; its URL and inbox.
fn smtp_server() -> (String, Mails) {
    let mails = Arc::new(Mutex::new(Vec::new()));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("smtp://{}", listener.local_addr().unwrap());
    let mut server = mailin_embedded::Server::new(Inbox {
        mails: mails.clone(),
        to: Vec::new(),
        data: Vec::new(),
    });
    server
        .with_name("smtp.test")
        .with_ssl(mailin_embedded::SslConfig::None)
        .unwrap()
        .with_tcp_listener(listener);
    std::thread::spawn(move || {
        let _ = server.serve();
    });
    (url, mails)
}

async fn put_notifications(
    app: &TestApp,
    lobby: &str,
    token: &str,
    body: serde_json::Value,
) -> crate::support::Reply {
    app.send(
        Method::PUT,
        &format!("/api/v1/lobbies/{lobby}/me/notifications"),
        Some(token),
        Some(Body::from(body.to_string())),
    )
    .await
}

/// The unsubscribe token in a raw mail (headers unfolded, quoted-printable soft breaks joined).
fn unsubscribe_token(raw: &str) -> String {
    let joined = raw.replace("=\r\n", "").replace("\r\n ", " ");
    let at = joined.find("/unsubscribe/").expect("an unsubscribe link") + "/unsubscribe/".len();
    joined[at..]
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect()
}

#[tokio::test]
async fn without_a_relay_mail_is_off_and_said_so() {
    for app in notify_apps(settings()).await {
        let (lobby, _) = app.create_lobby("crossing-swords", json!({})).await;
        let (_, ann) = app.join(&lobby, json!({"name": "Ann"})).await;
        let reply =
            put_notifications(&app, &lobby, &ann, json!({"email": "ann@example.org"})).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(reply.code(), "mail-off");
    }
}

#[tokio::test]
async fn a_player_gets_mail_with_a_working_unsubscribe_link_and_no_one_sees_the_address() {
    let (with_mail, inbox) = with_smtp(settings());
    for app in notify_apps(with_mail).await {
        inbox.lock().unwrap().clear();
        let (lobby, host) = app.create_lobby("crossing-swords", json!({})).await;
        let (ann_id, ann) = app.join(&lobby, json!({"name": "Ann"})).await;
        let (bob_id, bob) = app.join(&lobby, json!({"name": "Bob"})).await;
        let (cat_id, cat) = app.join(&lobby, json!({"name": "Cat"})).await;
        let bad = put_notifications(&app, &lobby, &ann, json!({"email": "not an address"})).await;
        assert_eq!(bad.code(), "invalid-email");
        let set = put_notifications(&app, &lobby, &ann, json!({"email": "ann@example.org"})).await;
        assert_eq!(set.status, StatusCode::OK, "{}", set.text);
        assert_eq!(set.body["email"], true);
        assert!(
            !set.text.contains("ann@example.org"),
            "not even to its owner"
        );
        // Cat gives an address and leaves: the address goes with her.
        put_notifications(&app, &lobby, &cat, json!({"email": "cat@example.org"})).await;
        let cat_uuid = uuid::Uuid::parse_str(&cat_id).unwrap();
        assert_eq!(
            app.store
                .targets(lobby.parse().unwrap(), Some(cat_uuid))
                .await
                .unwrap()
                .len(),
            1
        );
        let left = app
            .send(
                Method::DELETE,
                &format!("/api/v1/lobbies/{lobby}/me"),
                Some(&cat),
                None,
            )
            .await;
        assert_eq!(left.status, StatusCode::NO_CONTENT);
        assert!(
            app.store
                .targets(lobby.parse().unwrap(), Some(cat_uuid))
                .await
                .unwrap()
                .is_empty()
        );

        app.start(&lobby, &host).await;
        eventually("Ann's mail", || inbox.lock().unwrap().len() == 1).await;
        let mail = inbox.lock().unwrap()[0].clone();
        assert_eq!(mail.to, ["ann@example.org"]);
        assert!(
            mail.raw
                .contains("Subject: Your answer is due in Test lobby"),
            "{}",
            mail.raw
        );
        assert!(
            mail.raw
                .contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click")
        );
        assert!(
            !mail.raw.contains(&ann) && !mail.raw.contains(&host),
            "no token in a mail"
        );

        // No one is shown the address: not the host, not the public, not another player.
        for (path, token) in [
            (format!("/api/v1/lobbies/{lobby}"), None),
            (
                format!("/api/v1/lobbies/{lobby}/webhooks"),
                Some(host.as_str()),
            ),
            (format!("/api/v1/lobbies/{lobby}/me"), Some(bob.as_str())),
            (format!("/api/v1/lobbies/{lobby}/me"), Some(ann.as_str())),
            (format!("/lobbies/{lobby}/host"), None),
        ] {
            let reply = app.get(&path, token).await;
            assert!(!reply.text.contains("ann@example.org"), "{path}");
        }

        // The link asks first (a scanner's GET changes nothing), then unsubscribes.
        let token = unsubscribe_token(&mail.raw);
        let page = app.get(&format!("/unsubscribe/{token}"), None).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.text.contains("Unsubscribe"));
        let ann_uuid = uuid::Uuid::parse_str(&ann_id).unwrap();
        assert_eq!(
            app.store
                .targets(lobby.parse().unwrap(), Some(ann_uuid))
                .await
                .unwrap()
                .len(),
            1
        );
        let done = app
            .send(Method::POST, &format!("/unsubscribe/{token}"), None, None)
            .await;
        assert_eq!(done.status, StatusCode::OK);
        assert!(done.text.contains("Done"), "{}", done.text);
        assert!(
            app.store
                .targets(lobby.parse().unwrap(), Some(ann_uuid))
                .await
                .unwrap()
                .is_empty()
        );
        let again = app
            .send(Method::POST, &format!("/unsubscribe/{token}"), None, None)
            .await;
        assert!(again.text.contains("unknown or was used"));

        // A round resolves: Ann owed an answer, but she unsubscribed.
        app.strike_each_other(
            &lobby,
            &[(ann_id.clone(), ann.clone()), (bob_id.clone(), bob.clone())],
        )
        .await;
        settle().await;
        assert_eq!(
            inbox.lock().unwrap().len(),
            1,
            "{}: no mail after unsubscribing",
            app.backend
        );
    }
}
