//! Table talk on the pages, without JavaScript, on both backends (docs/table-talk.md, "Pages"):
//! the host picks the press mode on the create form; a player writes privately through the
//! conversation's form (POST, then 303 back to it); the recipient sees the unread count on their
//! page and in the conversation list until they open it; nobody else, the host included, sees a
//! word of it on any page until the game is over, when the lobby page shows every message.

use axum::http::StatusCode;

use crate::pages_client::{Visitor, escape};
use crate::support::apps;

#[tokio::test]
async fn a_private_conversation_on_the_pages_with_unread_counts_and_the_reveal() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let created = host
            .post(
                "/lobbies",
                &[
                    ("game", "crossing-swords"),
                    ("name", "Talkative melee"),
                    ("crossing-swords.max_players", ""),
                    ("press", "full"),
                ],
            )
            .await;
        assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.html);
        let lobby = created.location().split('/').nth(2).unwrap().to_owned();
        let (mut ann, mut bob, mut cat) =
            (Visitor::new(&app), Visitor::new(&app), Visitor::new(&app));
        ann.join(&lobby, "Ann").await;
        bob.join(&lobby, "Bob").await;
        cat.join(&lobby, "Cat").await;
        let started = host
            .post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        assert_eq!(started.status, StatusCode::SEE_OTHER, "{}", started.html);
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["settings"]["press"], "full");
        let id_of = |name: &str| {
            view["players"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == name)
                .unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        let (ann_id, bob_id) = (id_of("Ann"), id_of("Bob"));
        let talk = format!("/lobbies/{lobby}/play/talk");

        let list = ann.get(&talk).await;
        assert_eq!(list.status, StatusCode::OK, "{}", list.html);
        assert!(
            list.html.contains(&format!("id=\"talk-{bob_id}\"")),
            "{}",
            list.html
        );
        let secret = "Meet me at the ford <at dawn>";
        let sent = ann.post(&talk, &[("to", &bob_id), ("text", secret)]).await;
        assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.html);
        assert_eq!(sent.location(), format!("{talk}?with={bob_id}#latest"));
        let mine = ann.get(&format!("{talk}?with={bob_id}")).await;
        assert!(mine.html.contains(&escape(secret)), "{}", mine.html);

        // Bob has one unread message, on his page and in the list, until he opens it.
        let page = bob.get(&format!("/lobbies/{lobby}/play")).await;
        assert!(
            page.html.contains("id=\"talk-unread\">1 unread"),
            "{}",
            page.html
        );
        let list = bob.get(&talk).await;
        assert!(
            list.html
                .contains(&format!("id=\"unread-{ann_id}\">1 unread")),
            "{}",
            list.html
        );
        let opened = bob.get(&format!("{talk}?with={ann_id}")).await;
        assert!(opened.html.contains(&escape(secret)), "{}", opened.html);
        let page = bob.get(&format!("/lobbies/{lobby}/play")).await;
        assert!(!page.html.contains("talk-unread"), "{}", page.html);

        // Nobody else reads a word of it: Cat, the host, a visitor.
        let mut visitor = Visitor::new(&app);
        for (who, html) in [
            (
                "cat's talk",
                cat.get(&format!("{talk}?with={ann_id}")).await.html,
            ),
            (
                "cat's page",
                cat.get(&format!("/lobbies/{lobby}/play")).await.html,
            ),
            (
                "the host panel",
                host.get(&format!("/lobbies/{lobby}/host")).await.html,
            ),
            (
                "the lobby page",
                visitor.get(&format!("/lobbies/{lobby}")).await.html,
            ),
        ] {
            assert!(
                !html.contains("Meet me at the ford"),
                "{who} shows the message"
            );
        }

        // A refusal comes back as the form with the reason and what was typed.
        let refused = ann
            .post(&talk, &[("to", "all"), ("text", "\u{202E}evil")])
            .await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.html
        );
        assert!(
            refused.html.contains("id=\"talk-error\""),
            "{}",
            refused.html
        );
        let public = ann
            .post(&talk, &[("to", "all"), ("text", "Peace to all")])
            .await;
        assert_eq!(public.status, StatusCode::SEE_OTHER);
        let lobby_page = visitor.get(&format!("/lobbies/{lobby}")).await;
        assert!(
            lobby_page.html.contains("Peace to all"),
            "{}",
            lobby_page.html
        );

        // Over: the lobby page shows every message, the private one too.
        let ended = host
            .post(&format!("/lobbies/{lobby}/host/end"), &[("confirm", "yes")])
            .await;
        assert_eq!(ended.status, StatusCode::SEE_OTHER, "{}", ended.html);
        let lobby_page = visitor.get(&format!("/lobbies/{lobby}")).await;
        assert!(
            lobby_page.html.contains(&escape(secret)),
            "{}",
            lobby_page.html
        );
        assert!(
            lobby_page.html.contains("Ann to Bob"),
            "{}",
            lobby_page.html
        );
        let closed = ann.get(&format!("{talk}?with={bob_id}")).await;
        assert!(
            closed.html.contains("id=\"talk-closed\""),
            "{}",
            closed.html
        );
    }
}

#[tokio::test]
async fn a_game_without_press_has_no_talk_page_and_no_link() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Quiet melee").await;
        let mut ann = Visitor::new(&app);
        ann.join(&lobby, "Ann").await;
        let page = ann.get(&format!("/lobbies/{lobby}/play")).await;
        assert!(!page.html.contains("talk-link"));
        let talk = ann.get(&format!("/lobbies/{lobby}/play/talk")).await;
        assert_eq!(talk.status, StatusCode::NOT_FOUND, "{}", talk.html);
    }
}
