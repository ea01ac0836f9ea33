//! The create form's "hide who is who" checkbox (docs/table-talk.md, "Anonymous games"), on
//! both backends and without JavaScript: ticked, it makes an anonymous lobby whose pages name
//! the players "Player 1", "Player 2", ...; a refused form comes back with it still ticked;
//! left alone, the lobby is not anonymous.

use axum::http::StatusCode;

use crate::pages_client::Visitor;
use crate::support::apps;

const TICKED: &str = "id=\"anonymous\" name=\"anonymous\" value=\"true\" checked";

#[tokio::test]
async fn the_create_form_s_anonymous_checkbox_makes_an_anonymous_lobby() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let form = host.get("/").await;
        assert!(
            form.html
                .contains("id=\"anonymous\" name=\"anonymous\" value=\"true\">"),
            "{}",
            form.html
        );
        // A refusal keeps the box ticked.
        let refused = host
            .post(
                "/lobbies",
                &[
                    ("game", "crossing-swords"),
                    ("name", " "),
                    ("anonymous", "true"),
                ],
            )
            .await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.html
        );
        assert!(refused.html.contains(TICKED), "{}", refused.html);

        let mut lobbies = Vec::new();
        for ticked in [true, false] {
            let mut fields = vec![("game", "crossing-swords"), ("name", "Masked melee")];
            if ticked {
                fields.push(("anonymous", "true"));
            }
            let created = host.post("/lobbies", &fields).await;
            assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.html);
            let lobby = created.location().split('/').nth(2).unwrap().to_owned();
            let view = app.get(&format!("/api/v1/lobbies/{lobby}"), None).await;
            assert_eq!(view.body["settings"]["anonymous"], ticked, "{}", view.text);
            lobbies.push(lobby);
        }
        let masked = &lobbies[0];
        let (mut ann, mut bob) = (Visitor::new(&app), Visitor::new(&app));
        assert_eq!(
            ann.join(masked, "Annest-Q").await.status,
            StatusCode::SEE_OTHER
        );
        assert_eq!(
            bob.join(masked, "Bertil-Q").await.status,
            StatusCode::SEE_OTHER
        );
        let page = Visitor::new(&app).get(&format!("/lobbies/{masked}")).await;
        assert!(page.html.contains("Player 2"), "{}", page.html);
        let mine = ann.get(&format!("/lobbies/{masked}/play")).await;
        for (what, html) in [
            ("the lobby page", &page.html),
            ("a player's page", &mine.html),
        ] {
            for name in ["Annest-Q", "Bertil-Q"] {
                assert!(!html.contains(name), "{}: {what} names {name}", app.backend);
            }
        }
    }
}
