//! The rules pages (`/rules/{game}`): served for both games, the BST matrix exactly the rules'
//! own, and every rule a BST text cites has an anchor there, so that a prompt or a log line on
//! the pages links each citation to its rule instead of showing a bare id.

use axum::http::StatusCode;

use crate::pages_bst;
use crate::pages_client::Visitor;
use crate::support::sqlite_app;
use herald::games::GameKind;
use herald::games::cite::{citations, cite};
use herald::rules::bst::Move;
use herald::rules::bst::matrix::{Cell, cell};

/// Every `(X123)` citation written in a string of the BST rules' code (prompts, log lines,
/// refusals): what a player can be shown. Comments cite the rulings for developers.
fn cited_in_bst_sources() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules/bst");
    let mut ids = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let source = std::fs::read_to_string(&path).unwrap();
        for line in source.lines() {
            let code = line.split("//").next().unwrap_or("");
            let strings: String = code.split('"').skip(1).step_by(2).collect();
            let mut rest = strings.as_str();
            while let Some(open) = rest.find('(') {
                rest = &rest[open + 1..];
                let Some(close) = rest.find(')') else { break };
                for rule in
                    citations(&rest[..close], GameKind::Bst.rule_series()).unwrap_or_default()
                {
                    if !ids.contains(&rule.anchor) {
                        ids.push(rule.anchor);
                    }
                }
            }
        }
    }
    ids
}

#[tokio::test]
async fn each_game_has_a_rules_page_and_an_unknown_game_has_none() {
    let app = sqlite_app().await;
    let mut visitor = Visitor::new(&app);
    let cs = visitor.get("/rules/crossing-swords").await;
    assert_eq!(cs.status, StatusCode::OK);
    for mv in [
        "Strike", "Lunge", "Assail", "Dodge", "Block", "Riposte", "Taunt", "Focus", "Mend", "Halt",
    ] {
        assert!(
            cs.html.contains(&format!("<th scope=\"row\">{mv}</th>")),
            "{mv}"
        );
    }
    assert!(
        cs.html
            .contains("Dodge, Block, Riposte, Focus and Mend may name yourself")
    );
    let bst = visitor.get("/rules/bst").await;
    assert_eq!(bst.status, StatusCode::OK);
    for heading in [
        "The six characters",
        "Off-Balance",
        "Poison",
        "Charges",
        "Colour bonuses",
    ] {
        assert!(bst.html.contains(heading), "{heading}");
    }
    let none = visitor.get("/rules/chess").await;
    assert_eq!(none.status, StatusCode::NOT_FOUND);
    assert!(none.html.contains("<!doctype html>"), "an HTML error page");
}

#[tokio::test]
async fn the_bst_matrix_on_the_rules_page_is_the_rules_own() {
    let app = sqlite_app().await;
    let page = Visitor::new(&app).get("/rules/bst").await;
    let table = &page.html[page.html.find("<table class=\"matrix\">").unwrap()..];
    let body = &table[table.find("<tbody>").unwrap()..table.find("</tbody>").unwrap()];
    let rows: Vec<&str> = body.split("<tr>").skip(1).collect();
    assert_eq!(rows.len(), 10);
    for (me, row) in Move::ALL.into_iter().zip(rows) {
        assert!(row.contains(&format!("<th scope=\"row\">{}</th>", me.name())));
        let marks: Vec<&str> = row
            .split("<span aria-hidden=\"true\">")
            .skip(1)
            .map(|cell| &cell[..cell.find("</span>").unwrap()])
            .collect();
        let expected: Vec<&str> = Move::ALL
            .into_iter()
            .map(|opp| match cell(me, opp) {
                Cell::Win => "W",
                Cell::Lose => "L",
                Cell::BothWin => "W=",
                Cell::BothLose => "L=",
                Cell::GuardSpecial => "W*",
                Cell::LoseToGuardSpecial => "L*",
                Cell::TieBreak | Cell::TieBreakStandard => "TB",
                Cell::StandardVsGuard => "C≠",
                Cell::GuardVsStandard => "C=",
            })
            .collect();
        assert_eq!(marks, expected, "the row of {}", me.name());
    }
}

#[tokio::test]
async fn every_rule_a_bst_text_cites_has_its_anchor_on_the_rules_page() {
    let cited = cited_in_bst_sources();
    assert!(cited.len() >= 10, "the citations were found: {cited:?}");
    let app = sqlite_app().await;
    let page = Visitor::new(&app).get("/rules/bst").await;
    let missing: Vec<&String> = cited
        .iter()
        .filter(|id| !page.html.contains(&format!("id=\"{id}\"")))
        .collect();
    assert!(
        missing.is_empty(),
        "no anchor on /rules/bst for {missing:?}"
    );
}

#[tokio::test]
async fn a_prompt_on_the_players_page_links_its_rule_instead_of_a_bare_id() {
    let app = sqlite_app().await;
    let (lobby, mut ann, _bob) = pages_bst::seat_two(&app).await;
    let page = ann.get(&format!("/lobbies/{lobby}/play")).await;
    assert!(
        page.html
            .contains("(<a class=\"rule\" href=\"/rules/bst#T6\">rule T6</a>)"),
        "{}",
        page.html
    );
    assert!(!page.html.contains("(T6)"), "no bare rule id");
}

/// The page's text as a reader sees it: the markup left out (a link's words stay).
fn visible_text(html: &str) -> String {
    let body = &html[html.find("<body").unwrap_or(0)..];
    let mut text = String::with_capacity(body.len());
    let mut in_tag = false;
    for c in body.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

#[tokio::test]
async fn no_rules_page_shows_a_bare_rule_id() {
    let app = sqlite_app().await;
    let mut visitor = Visitor::new(&app);
    for game in GameKind::ALL {
        let page = visitor.get(&format!("/rules/{}", game.id())).await;
        assert_eq!(page.status, StatusCode::OK);
        // A citation a reader meets is "rule A16", a link or the rule's own label: never a
        // bare "(A16)" or "(Gather Power, L187)".
        let bare: Vec<String> = cite(&visible_text(&page.html), game)
            .parts
            .iter()
            .filter_map(|part| part.rule.as_ref())
            .map(|rule| rule.label.clone())
            .collect();
        assert!(
            bare.is_empty(),
            "/rules/{} shows bare rule ids: {bare:?}",
            game.id()
        );
    }
    // The check finds one where there is one.
    let planted = cite(
        &visible_text("<body><p>Gather Power (<b>L187</b>)</p>"),
        GameKind::Bst,
    );
    assert!(planted.parts.iter().any(|p| p.rule.is_some()));
}
