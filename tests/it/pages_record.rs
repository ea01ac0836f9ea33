//! The public record through the pages (no browser), on every backend: a substitute is logged
//! in the round they took the seat and named "Eve (for Bob)" in the tables, order lines,
//! standings, posts and charts (one line per seat); the result is told in words, the same in
//! the "Final standings" post and the game-over notice; rounds are named with the cap, and a
//! round's post says when the next round's orders are due.

use axum::http::StatusCode;
use serde_json::Value;

use crate::pages_client::{Page, Visitor, unescape};
use crate::pages_exports::{golden, textarea};
use crate::support::{TestApp, apps};

/// Creates a three-round Crossing Swords lobby through the home page; returns its id.
pub async fn create_capped(host: &mut Visitor<'_>, name: &str, rounds: &str) -> String {
    let page = host
        .post(
            "/lobbies",
            &[
                ("game", "crossing-swords"),
                ("name", name),
                ("crossing-swords.max_players", "3"),
                ("crossing-swords.max_rounds", rounds),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
    page.location()
        .strip_prefix("/lobbies/")
        .and_then(|rest| rest.split('/').next())
        .expect("redirect to the host panel")
        .to_owned()
}

/// Sends a strike on `target` (by name) from a player's page.
pub async fn strike(visitor: &mut Visitor<'_>, lobby: &str, target: &str) {
    let page = visitor.get(&format!("/lobbies/{lobby}/play")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.html);
    let round = page.input_value("round").expect("an order form");
    let target = page.option_for("f-target", target);
    let sent = visitor
        .post(
            &format!("/lobbies/{lobby}/play"),
            &[
                ("round", &round),
                ("step", "orders"),
                ("move", "strike"),
                ("target", &target),
            ],
        )
        .await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.html);
}

pub async fn player_id(app: &TestApp, lobby: &str, name: &str) -> String {
    let view = app
        .get(&format!("/api/v1/lobbies/{lobby}"), None)
        .await
        .body;
    view["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .unwrap()
}

/// The path of the private link the substitute page shows once.
fn new_link(page: &Page) -> String {
    let start = page.html.find("id=\"new-link\"").expect("a new link");
    let rest = &page.html[start..];
    let rest = &rest[rest.find("value=\"").unwrap() + 7..];
    let link = unescape(&rest[..rest.find('"').unwrap()]);
    link.strip_prefix("http://herald.test").unwrap().to_owned()
}

/// How many players a page's charts draw, chart by chart (legend entries).
fn chart_lines(page: &Page) -> Vec<usize> {
    page.html
        .split("<ul class=\"legend\">")
        .skip(1)
        .map(|legend| {
            legend[..legend.find("</ul>").unwrap()]
                .matches("<li>")
                .count()
        })
        .collect()
}

#[tokio::test]
async fn a_substitute_stays_on_the_public_record_and_the_result_is_told_in_words() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = create_capped(&mut host, "Harbour melee", "3").await;
        let (mut ann, mut bob, mut cat) =
            (Visitor::new(&app), Visitor::new(&app), Visitor::new(&app));
        ann.join(&lobby, "Ann").await;
        bob.join(&lobby, "Bob").await;
        cat.join(&lobby, "Cat").await;

        // The announcement says how long the game lasts, and that every seat is taken.
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        let announcement = textarea(&panel, "announce-md");
        golden("announcement-full.md", &announcement, &lobby);
        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;

        strike(&mut ann, &lobby, "Bob").await;
        strike(&mut bob, &lobby, "Cat").await;
        strike(&mut cat, &lobby, "Ann").await;

        // Eve takes Bob's seat in round 2.
        let bob_id = player_id(&app, &lobby, "Bob").await;
        let replaced = host
            .post(
                &format!("/lobbies/{lobby}/host/players/{bob_id}/replace"),
                &[("name", "Eve")],
            )
            .await;
        assert_eq!(replaced.status, StatusCode::OK, "{}", replaced.html);
        let mut eve = Visitor::new(&app);
        eve.get(&new_link(&replaced)).await;
        let page = app.get(&format!("/lobbies/{lobby}"), None).await;
        assert_eq!(page.status, StatusCode::OK);
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(panel.html.contains("Eve (for Bob)"), "{}", panel.html);

        strike(&mut ann, &lobby, "Eve").await;
        strike(&mut eve, &lobby, "Cat").await;
        strike(&mut cat, &lobby, "Eve").await;

        // Round 2's page logs the substitution and names Eve with whom she replaced; round 1
        // still shows Bob as he was.
        let round2 = ann.get(&format!("/lobbies/{lobby}/rounds/2")).await;
        assert!(
            round2.html.contains("<h1>Round 2 of 3</h1>"),
            "{}",
            round2.html
        );
        assert!(
            round2.html.contains("Eve replaces Bob as a substitute."),
            "{}",
            round2.html
        );
        assert!(
            round2.html.contains("Eve (for Bob): Strike"),
            "{}",
            round2.html
        );
        let round1 = ann.get(&format!("/lobbies/{lobby}/rounds/1")).await;
        assert!(!round1.html.contains("(for Bob)"), "{}", round1.html);
        // The round's post ends with the line every forum host adds.
        golden("round-2-post.md", &textarea(&round2, "round-md"), &lobby);
        // The API's round log carries the line too, as a kick's is carried.
        let api = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/2"), None)
            .await
            .body;
        let substituted: Vec<&Value> = api["log"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "substituted")
            .collect();
        assert_eq!(substituted.len(), 1, "{api}");
        assert_eq!(
            (&substituted[0]["name"], &substituted[0]["previous_name"]),
            (&Value::from("Eve"), &Value::from("Bob"))
        );

        strike(&mut ann, &lobby, "Eve").await;
        strike(&mut eve, &lobby, "Cat").await;
        strike(&mut cat, &lobby, "Ann").await;

        // The lobby page: one chart line per seat, Eve named for Bob in the tables and the
        // standings, the result in words; the whole game as a post.
        let page = ann.get(&format!("/lobbies/{lobby}")).await;
        assert_eq!(chart_lines(&page), [3, 3], "one line per seat");
        assert!(page.html.contains("Eve (for Bob)"), "{}", page.html);
        assert!(
            page.html
                .contains("<p id=\"result-headline\"><strong>Winner"),
            "{}",
            page.html
        );
        let standings = textarea(&page, "standings-md");
        assert!(standings.contains("| Eve (for Bob) |"), "{standings}");
        let whole = ann.get(&format!("/lobbies/{lobby}/export")).await;
        golden(
            "whole-game-substitute.md",
            &textarea(&whole, "game-md"),
            &lobby,
        );

        // The game-over notice names the winner in words, as the post's headline does, and
        // never a player's id or a JSON object.
        let id: uuid::Uuid = lobby.parse().unwrap();
        let event = herald::store::EventRow {
            seq: 1,
            kind: "finished".into(),
            data: "{\"result\":null}".into(),
        };
        let notice = herald::notify::notice::build(&app.host, id, &event, None, None)
            .await
            .unwrap();
        let told = format!("{}\n\n{}\n", notice.title, notice.text);
        golden("game-over-notice.txt", &told, &lobby);
        for id in [&bob_id, &player_id(&app, &lobby, "Ann").await] {
            assert!(!told.contains(id.as_str()), "{told}");
        }
        assert!(!told.contains('{'), "{told}");
        let headline = standings
            .lines()
            .find(|l| l.starts_with("Winner") || l.starts_with("A draw"))
            .unwrap();
        assert!(
            notice.text.starts_with(headline),
            "{headline} / {}",
            notice.text
        );
    }
}
