//! The host panel's notifications section, through the pages: adding a webhook (its secret
//! shown once), the attempts, a test message, the re-enable form and deleting; mail said to be
//! off.

use axum::http::StatusCode;

use crate::notify_receivers::{Behaviour, Receiver, settings};
use crate::pages_client::{Visitor, unescape};
use crate::support::notify_apps;

#[tokio::test]
async fn the_host_adds_tests_re_enables_and_deletes_a_webhook_on_the_panel() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Friday melee").await;
        let panel_path = format!("/lobbies/{lobby}/host");
        let panel = host.get(&panel_path).await;
        assert!(
            panel.html.contains("This server sends no mail"),
            "mail is off and said so"
        );

        let added = host
            .post(
                &format!("{panel_path}/webhooks"),
                &[
                    ("url", &receiver.url),
                    ("format", "standard"),
                    ("events", "player-joined"),
                    ("events", "started"),
                ],
            )
            .await;
        assert_eq!(added.status, StatusCode::OK, "{}", added.html);
        assert!(added.html.contains("whsec_"), "the secret is shown once");
        // With JavaScript off the page must stay: a reload would GET the form's address and
        // the secret would be gone.
        assert!(
            !added.html.contains("http-equiv=\"refresh\""),
            "the page with the secret reloads itself"
        );
        let again = host.get(&panel_path).await;
        assert!(!again.html.contains("whsec_"), "and only once");
        assert!(
            !unescape(&again.html).contains("receiver-secret"),
            "the URL's path is not shown"
        );

        let mut ann = Visitor::new(&app);
        ann.join(&lobby, "Ann").await;
        receiver.wait_for(1).await;
        let hook = app
            .get(&format!("/api/v1/lobbies/{lobby}/webhooks"), None)
            .await;
        assert_eq!(hook.status, StatusCode::UNAUTHORIZED);
        let id = {
            let html = host.get(&panel_path).await.html;
            let at = html.find("id=\"webhook-").expect("the webhook is listed") + 12;
            html[at..at + 36].to_string()
        };
        // The attempt shows (wait for the worker to record it).
        let start = std::time::Instant::now();
        while !host.get(&panel_path).await.html.contains("<td>204</td>") {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(10),
                "the attempt shows"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let test = host
            .post(&format!("{panel_path}/webhooks/{id}/test"), &[])
            .await;
        assert_eq!(test.status, StatusCode::SEE_OTHER);
        // Back on the panel, the section stays open and says beside that webhook that the
        // test is on its way.
        let back = test.location().split('#').next().unwrap().to_owned();
        let sent = host.get(&back).await;
        let html = &sent.html;
        let said = html
            .find("id=\"test-sent\"")
            .unwrap_or_else(|| panic!("no confirmation of the test: {html}"));
        assert!(
            html[said..].starts_with("id=\"test-sent\">A test message is on its way."),
            "{html}"
        );
        let hook_at = html
            .find(&format!(
                "<details class=\"webhook\" id=\"webhook-{id}\" open>"
            ))
            .unwrap_or_else(|| panic!("the tested webhook is unfolded: {html}"));
        assert!(
            hook_at < said,
            "the confirmation is beside its webhook: {html}"
        );
        assert!(
            html.contains("<details class=\"card\" id=\"notifications\" open>"),
            "{html}"
        );
        let panel = host.get(&panel_path).await;
        assert!(!panel.html.contains("id=\"test-sent\""), "said once");
        let got = receiver.wait_for(2).await;
        assert_eq!(got[1].json()["type"], "lobby.test");

        // The form re-enables (the API's test shows it on a webhook a dead delivery disabled).
        let enable = host
            .post(&format!("{panel_path}/webhooks/{id}/enable"), &[])
            .await;
        assert_eq!(enable.status, StatusCode::SEE_OTHER);
        let delete = host
            .post(&format!("{panel_path}/webhooks/{id}/delete"), &[])
            .await;
        assert_eq!(delete.status, StatusCode::SEE_OTHER);
        let after = host.get(&panel_path).await;
        assert!(!after.html.contains(&format!("webhook-{id}")));
        // A player cannot use these forms.
        let by_player = ann
            .post(&format!("{panel_path}/webhooks/{id}/test"), &[])
            .await;
        assert_eq!(by_player.status, StatusCode::UNAUTHORIZED);
    }
}
