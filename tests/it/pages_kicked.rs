//! A kicked player in the results the pages show. In a duel a kick is a forfeit (BST, the
//! Scale of Styles, Contests: docs/rules/), so the kicked player is never the winner: the host
//! panel's and the lobby page's "Result" headline name the opponent alone. (In Crossing Swords
//! a kick is a death that keeps the seat's VP, and Ruling 30 lets a kicked player win on VP:
//! docs/rules/crossing-swords.md, "The host's hand".)

use axum::http::StatusCode;
use herald::games::GameKind;
use serde_json::json;

use crate::pages_client::Visitor;
use crate::support::apps;

/// The text of a page's result headline (`#result-headline`).
fn headline(html: &str) -> &str {
    let start = html
        .find("id=\"result-headline\"><strong>")
        .expect("a result headline")
        + "id=\"result-headline\"><strong>".len();
    let rest = &html[start..];
    &rest[..rest.find("</strong>").unwrap()]
}

#[tokio::test]
async fn a_kicked_duellist_is_never_the_winner_on_the_panel_or_the_lobby_page() {
    for app in apps().await {
        for game in GameKind::ALL.map(GameKind::id) {
            if game == "crossing-swords" {
                continue;
            }
            let (lobby, host_token) = app.create_lobby(game, json!({})).await;
            let (_ann, _) = app.join(&lobby, json!({"name": "Ann"})).await;
            let (bob, _) = app.join(&lobby, json!({"name": "Bob"})).await;
            app.start(&lobby, &host_token).await;
            let kicked = app
                .post(
                    &format!("/api/v1/lobbies/{lobby}/players/{bob}/kick"),
                    Some(&host_token),
                    json!({}),
                )
                .await;
            assert_eq!(kicked.status, StatusCode::OK, "{game}: {}", kicked.text);
            assert_eq!(kicked.body["status"], "finished", "{game}");
            assert!(
                !kicked.body["result"]["winners"]
                    .as_array()
                    .unwrap()
                    .contains(&json!(bob)),
                "{game}: the kicked player is among the winners: {}",
                kicked.body["result"]
            );

            let mut host = Visitor::new(&app);
            host.get(&format!("/lobbies/{lobby}/as/{host_token}")).await;
            let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
            assert_eq!(panel.status, StatusCode::OK, "{game}");
            let page = Visitor::new(&app).get(&format!("/lobbies/{lobby}")).await;
            for (what, html) in [
                ("the host panel", &panel.html),
                ("the lobby page", &page.html),
            ] {
                let said = headline(html);
                assert!(said.starts_with("Winner: Ann"), "{game}, {what}: {said}");
                assert!(!said.contains("Bob"), "{game}, {what}: {said}");
            }
        }
    }
}
