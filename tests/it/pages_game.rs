//! A whole Crossing Swords game played through the pages in-process, three browsers and a
//! host, on every backend: redirects, cookies, forms, reveals, exports and escaping.

use axum::http::StatusCode;

use crate::pages_client::{HOSTILE, Page, Visitor, assert_escaped, escape};
use crate::pages_exports::{assert_safe_exports, golden, textarea};
use crate::support::apps;

/// Sends `mv` on `target` (by name) from a player's page and expects the 303 back to it.
async fn order(visitor: &mut Visitor<'_>, lobby: &str, mv: &str, target: &str) -> Page {
    let page = visitor.get(&format!("/lobbies/{lobby}/play")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.html);
    assert_escaped(&page);
    // Each move says what it does, its name a link to its row on the rules page.
    let strike = r#"<a class="rule" href="/rules/crossing-swords#strike">Strike</a>: Your target takes 3 damage."#;
    assert!(page.html.contains(strike), "{}", page.html);
    let round = page
        .input_value("round")
        .expect("the order form names its round");
    let target = page.option_for("f-target", target);
    let sent = visitor
        .post(
            &format!("/lobbies/{lobby}/play"),
            &[
                ("round", &round),
                ("step", "orders"),
                ("move", mv),
                ("target", &target),
            ],
        )
        .await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.html);
    assert_eq!(sent.location(), format!("/lobbies/{lobby}/play?sent=1"));
    sent
}

#[tokio::test]
async fn three_players_play_a_game_to_the_final_standings_through_the_pages() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Friday melee").await;
        let panel = host.get(&format!("/lobbies/{lobby}/host?created=1")).await;
        assert_eq!(panel.status, StatusCode::OK);
        assert!(
            panel
                .html
                .contains(&format!("http://herald.test/lobbies/{lobby}\""))
        );
        assert!(
            panel.html.contains(&format!("/lobbies/{lobby}/as/")),
            "the private host link"
        );

        let (mut ann, mut bob, mut cat) =
            (Visitor::new(&app), Visitor::new(&app), Visitor::new(&app));
        for (visitor, name) in [(&mut ann, "Ann"), (&mut bob, "Bob"), (&mut cat, HOSTILE)] {
            let lobby_page = visitor.get(&format!("/lobbies/{lobby}")).await;
            assert!(lobby_page.html.contains("Join this game"));
            let joined = visitor.join(&lobby, name).await;
            assert_eq!(joined.status, StatusCode::SEE_OTHER, "{}", joined.html);
            assert_eq!(joined.location(), format!("/lobbies/{lobby}/play?joined=1"));
            let cookie = joined
                .set_cookies()
                .into_iter()
                .find(|c| c.starts_with("herald_player_"))
                .expect("a player cookie");
            assert!(
                cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
                "{cookie}"
            );
            assert!(
                cookie.contains(&format!("Path=/lobbies/{lobby}")),
                "{cookie}"
            );
            let mine = visitor.get(&format!("/lobbies/{lobby}/play")).await;
            assert!(mine.html.contains("You are in."), "{}", mine.html);
        }

        let started = host
            .post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        assert_eq!(started.status, StatusCode::SEE_OTHER, "{}", started.html);
        assert_eq!(started.location(), format!("/lobbies/{lobby}/host"));

        // Ann and Bob strike Cat, Cat strikes Ann: Cat falls in round 4; then Ann and Bob
        // trade Strikes until Ann falls in round 7 (the same game as the API test).
        for round in 1..=4 {
            order(&mut ann, &lobby, "strike", HOSTILE).await;
            let page = host.get(&format!("/lobbies/{lobby}")).await;
            assert!(
                page.html.contains("✔ submitted"),
                "who has submitted is public"
            );
            if round == 1 {
                assert!(
                    !page.html.contains("Strike →"),
                    "but not what: {}",
                    page.html
                );
            }
            order(&mut bob, &lobby, "strike", HOSTILE).await;
            order(&mut cat, &lobby, "strike", "Ann").await;
            let round_page = host.get(&format!("/lobbies/{lobby}/rounds/{round}")).await;
            assert_eq!(round_page.status, StatusCode::OK);
            assert_escaped(&round_page);
        }
        let dead = cat.get(&format!("/lobbies/{lobby}/play")).await;
        assert!(
            dead.html.contains("You are out of the game"),
            "{}",
            dead.html
        );
        for _ in 5..=7 {
            order(&mut ann, &lobby, "strike", "Bob").await;
            order(&mut bob, &lobby, "strike", "Ann").await;
        }

        let end = ann.get(&format!("/lobbies/{lobby}")).await;
        assert_eq!(end.status, StatusCode::OK);
        assert_escaped(&end);
        assert!(end.html.contains("<strong>Winner: Bob ("), "{}", end.html);
        let standings = &end.html[end.html.find("class=\"standings\"").unwrap()..];
        let (b, a, c) = (
            standings.find(">Bob<").unwrap(),
            standings.find(">Ann<").unwrap(),
            standings.find("&#60;script&#62;").unwrap(),
        );
        assert!(b < a && a < c, "standings best first");
        assert!(end.html.contains("Round 7 in full"));

        let round4 = bob.get(&format!("/lobbies/{lobby}/rounds/4")).await;
        assert_escaped(&round4);
        let html = &round4.html;
        let shown = escape(HOSTILE);
        assert!(html.contains(&format!("Ann: Strike → {shown}")), "{html}");
        // BBCode: the brackets of the name are inert look-alikes; inside the textarea the
        // text is still HTML-escaped.
        assert!(html.contains("［b］x［/b］"), "{html}");
        assert!(!html.contains(&format!("[*][b]{}", escape("<script>alert(1)</script>[b]"))));
        // Markdown: only what would render as markup is escaped.
        assert!(
            html.contains(&escape("\\<script>alert(1)\\</script>")),
            "{html}"
        );
        assert!(html.contains("| Player | HP | VP |"), "{html}");
        assert!(html.contains("← round 3") && html.contains("round 5 →"));

        // The whole game as the thread gets it, hostile name included: golden files.
        let whole = bob.get(&format!("/lobbies/{lobby}/export")).await;
        assert_eq!(whole.status, StatusCode::OK);
        assert_escaped(&whole);
        let (bb, md) = assert_safe_exports(&whole, "game", &format!("/lobbies/{lobby}"));
        golden("whole-game.bbcode", &bb, &lobby);
        golden("whole-game.md", &md, &lobby);
        let round4 = textarea(&round4, "round-md");
        assert!(round4.contains("*Pools after round 4*"), "{round4}");

        let over = ann.get(&format!("/lobbies/{lobby}/play")).await;
        assert!(over.html.contains("The game is over"), "{}", over.html);
        let home = Visitor::new(&app).get("/").await.html;
        assert!(home.contains("Friday melee") && home.contains("finished after round 7"));
    }
}

/// The pages read every round in one pass (`Host::history`); it must agree with the API's
/// round-by-round view, private lines included only for their player.
#[tokio::test]
async fn the_history_the_pages_show_is_the_apis_rounds() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("History").await;
        let (mut ann, mut bob) = (Visitor::new(&app), Visitor::new(&app));
        ann.join(&lobby, "Ann").await;
        bob.join(&lobby, "Bob").await;
        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        for mv in ["focus", "strike", "mend"] {
            order(&mut ann, &lobby, mv, "Bob").await;
            order(&mut bob, &lobby, "block", "Ann").await;
        }
        order(&mut ann, &lobby, "lunge", "Bob").await;
        let id: uuid::Uuid = lobby.parse().unwrap();
        let herald = herald::host::Host::new(app.store.clone());
        let history = herald.history(id, None).await.unwrap().rounds;
        assert_eq!(history.len(), 3, "round 4 has not resolved");
        for view in &history {
            let api = app
                .get(
                    &format!("/api/v1/lobbies/{lobby}/rounds/{}", view.round),
                    None,
                )
                .await;
            assert_eq!(
                serde_json::to_value(view).unwrap(),
                api.body,
                "{}",
                app.backend
            );
        }
        let page = host.get(&format!("/lobbies/{lobby}")).await.html;
        let newest = page.find("<h3 class=\"summary-h\">Round 3 ").unwrap();
        assert!(
            newest < page.find("<h3 class=\"summary-h\">Round 1 ").unwrap(),
            "newest first"
        );
    }
}
