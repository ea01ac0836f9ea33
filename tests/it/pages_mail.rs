//! The mail form on the player's page (docs/notifications.md), without JavaScript, on both backends:
//! an address given through the form brings the "your answer is due" mail through a real SMTP
//! conversation; the address is never shown back (not to the player, the host, anyone); a
//! mistake comes back as the form with a sentence; mail off is said plainly; stopping and
//! leaving delete the address's row.

use axum::http::StatusCode;
use sqlx::Connection;

use crate::notify_mail::with_smtp;
use crate::notify_receivers::{eventually, settings};
use crate::pages_client::{Page, Visitor};
use crate::support::{TestApp, notify_apps};

/// The player's mail rows in the database, whatever the store's own queries say.
async fn mail_rows(app: &TestApp, lobby: &str) -> Vec<String> {
    let mut conn = sqlx::AnyConnection::connect(&app.url).await.unwrap();
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT address FROM notify_targets WHERE lobby_id = $1 AND channel = 'mail'",
    )
    .bind(lobby)
    .fetch_all(&mut conn)
    .await
    .unwrap();
    rows.into_iter().map(|(a,)| a).collect()
}

/// The player's mail section of a page.
fn mail_section(page: &Page) -> &str {
    let start = page.html.find("id=\"mail\"").expect("the mail section");
    let rest = &page.html[start..];
    &rest[..rest.find("</section>").unwrap()]
}

fn assert_no_address(page: &Page, what: &str) {
    assert!(
        !page.html.contains("ann@example.org") && !page.html.contains("ann@"),
        "{what} shows the address"
    );
}

#[tokio::test]
async fn an_address_given_on_the_page_gets_the_answer_due_mail_and_is_shown_to_no_one() {
    let (with_mail, inbox) = with_smtp(settings());
    for app in notify_apps(with_mail).await {
        inbox.lock().unwrap().clear();
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Mail melee").await;
        let mut ann = Visitor::new(&app);
        ann.join(&lobby, "Ann").await;
        let mut bob = Visitor::new(&app);
        bob.join(&lobby, "Bob").await;
        let play = format!("/lobbies/{lobby}/play");
        let form = ann.get(&play).await;
        let section = mail_section(&form);
        assert!(section.contains("id=\"mail-form\""), "{section}");
        for label in [
            "Your answer is due",
            "The deadline is approaching",
            "A round is resolved",
            "The game is over",
        ] {
            assert!(section.contains(label), "{label}");
        }

        // Mistakes come back as the form with a sentence and a 4xx.
        let typo = ann
            .post(
                &format!("{play}/mail"),
                &[("email", "ann at example"), ("events", "due")],
            )
            .await;
        assert_eq!(typo.status, StatusCode::UNPROCESSABLE_ENTITY);
        let section = mail_section(&typo);
        assert!(
            section.contains("That is not an email address."),
            "{section}"
        );
        assert!(
            section.contains("value=\"ann at example\""),
            "a typo is shown again to be corrected"
        );
        let none_ticked = ann
            .post(&format!("{play}/mail"), &[("email", "ann@example.org")])
            .await;
        assert_eq!(none_ticked.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(mail_section(&none_ticked).contains("Tick at least one thing"));
        assert_no_address(&none_ticked, "a refused form");
        assert!(mail_rows(&app, &lobby).await.is_empty(), "nothing stored");

        // Without the CSRF field, or from the host's browser, nothing is stored.
        let forged = ann
            .post_raw(
                &format!("{play}/mail"),
                &[("email", "ann@example.org"), ("events", "due")],
            )
            .await;
        assert_eq!(forged.status, StatusCode::FORBIDDEN);
        let by_host = host
            .post(
                &format!("{play}/mail"),
                &[("email", "ann@example.org"), ("events", "due")],
            )
            .await;
        assert_eq!(by_host.status, StatusCode::UNAUTHORIZED);
        assert!(mail_rows(&app, &lobby).await.is_empty(), "nothing stored");

        let saved = ann
            .post(
                &format!("{play}/mail"),
                &[
                    ("email", "ann@example.org"),
                    ("events", "due"),
                    ("events", "round"),
                ],
            )
            .await;
        assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.html);
        assert_eq!(saved.location(), format!("{play}?mail=saved#mail"));
        assert_eq!(mail_rows(&app, &lobby).await, ["ann@example.org"]);
        let page = ann.get(&format!("{play}?mail=saved")).await;
        let section = mail_section(&page);
        assert!(
            section.contains("You get mail for: Your answer is due, A round is resolved."),
            "{section}"
        );
        assert!(section.contains("id=\"mail-done\""));
        assert_no_address(&page, "the player's own page");

        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        eventually("Ann's mail", || inbox.lock().unwrap().len() == 1).await;
        let mail = inbox.lock().unwrap()[0].clone();
        assert_eq!(mail.to, ["ann@example.org"]);
        assert!(
            mail.raw
                .contains("Subject: Your answer is due in Mail melee"),
            "{}",
            mail.raw
        );

        // No page shows the address: the host's, the public ones, another player's.
        for (who, path) in [
            ("host", format!("/lobbies/{lobby}/host")),
            ("host", format!("/lobbies/{lobby}")),
            ("bob", format!("/lobbies/{lobby}/play")),
            ("bob", format!("/lobbies/{lobby}/export")),
            ("bob", "/".to_string()),
            ("ann", format!("/lobbies/{lobby}/play")),
        ] {
            let visitor = match who {
                "host" => &mut host,
                "bob" => &mut bob,
                _ => &mut ann,
            };
            let page = visitor.get(&path).await;
            assert_eq!(page.status, StatusCode::OK, "{path}");
            assert_no_address(&page, &path);
        }

        // What to hear about changes without typing the address again; it stays the same.
        let fewer = ann
            .post(
                &format!("{play}/mail"),
                &[("email", ""), ("events", "over")],
            )
            .await;
        assert_eq!(fewer.status, StatusCode::SEE_OTHER, "{}", fewer.html);
        assert_eq!(mail_rows(&app, &lobby).await, ["ann@example.org"]);
        let page = ann.get(&play).await;
        assert!(mail_section(&page).contains("You get mail for: The game is over."));

        let stopped = ann.post(&format!("{play}/mail/stop"), &[]).await;
        assert_eq!(stopped.status, StatusCode::SEE_OTHER);
        assert_eq!(stopped.location(), format!("{play}?mail=stopped#mail"));
        assert!(mail_rows(&app, &lobby).await.is_empty(), "stop deletes it");
        let page = ann.get(&format!("{play}?mail=stopped")).await;
        assert!(mail_section(&page).contains("id=\"mail-none\""));
        let no_address = ann
            .post(&format!("{play}/mail"), &[("email", ""), ("events", "due")])
            .await;
        assert_eq!(no_address.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(mail_section(&no_address).contains("Give the email address"));
    }
}

#[tokio::test]
async fn leaving_the_lobby_deletes_the_address() {
    let (with_mail, _inbox) = with_smtp(settings());
    for app in notify_apps(with_mail).await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Leavers").await;
        let mut ann = Visitor::new(&app);
        ann.join(&lobby, "Ann").await;
        let saved = ann
            .post(
                &format!("/lobbies/{lobby}/play/mail"),
                &[("email", "ann@example.org"), ("events", "due")],
            )
            .await;
        assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.html);
        assert_eq!(mail_rows(&app, &lobby).await, ["ann@example.org"]);
        let left = ann.post(&format!("/lobbies/{lobby}/leave"), &[]).await;
        assert_eq!(left.status, StatusCode::SEE_OTHER);
        assert!(
            mail_rows(&app, &lobby).await.is_empty(),
            "{}: the row goes with the player",
            app.backend
        );
    }
}

#[tokio::test]
async fn without_a_relay_the_page_says_there_is_no_mail_and_shows_no_form() {
    for app in notify_apps(settings()).await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("No mail here").await;
        let mut ann = Visitor::new(&app);
        ann.join(&lobby, "Ann").await;
        let page = ann.get(&format!("/lobbies/{lobby}/play")).await;
        let section = mail_section(&page);
        assert!(
            section.contains("This server does not send mail"),
            "{section}"
        );
        assert!(!section.contains("<form"), "no form: {section}");
        let posted = ann
            .post(
                &format!("/lobbies/{lobby}/play/mail"),
                &[("email", "ann@example.org"), ("events", "due")],
            )
            .await;
        assert_eq!(posted.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(mail_section(&posted).contains("This server sends no mail"));
        assert!(mail_rows(&app, &lobby).await.is_empty());
    }
}
