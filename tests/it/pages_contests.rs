//! Contests on the pages, without a script: the rules page holds an anchor for every rule
//! its texts cite; the join form offers ready builds, sent as the `build` object; a whole
//! duel is played through the play page's forms as a browser without JavaScript posts them
//! (numbers and flags as the order holds them, the contest a hidden field); a value that is
//! not one of the form's is refused with a page, and a form of an earlier contest with a 409.

use axum::http::StatusCode;
use serde_json::Value;

use herald::games::cite::citations;
use herald::host::GameKind;

use crate::pages_client::{Visitor, unescape};
use crate::support::sqlite_app;

/// Every rule the Contests texts cite in a string: its rules, its forms and its bot.
fn cited_in_contests_sources() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut ids = Vec::new();
    for dir in ["src/rules/contests", "src/games/contests"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            for line in source.lines() {
                let code = line.split("//").next().unwrap_or("");
                let strings: String = code.split('"').skip(1).step_by(2).collect();
                let mut rest = strings.as_str();
                while let Some(open) = rest.find('(') {
                    rest = &rest[open + 1..];
                    let Some(close) = rest.find(')') else { break };
                    for rule in citations(&rest[..close], GameKind::Contests.rule_series())
                        .unwrap_or_default()
                    {
                        if !ids.contains(&rule.anchor) {
                            ids.push(rule.anchor);
                        }
                    }
                }
            }
        }
    }
    ids
}

#[tokio::test]
async fn every_rule_a_contests_text_cites_has_its_anchor_on_the_rules_page() {
    let mut cited = cited_in_contests_sources();
    assert!(cited.len() >= 4, "the citations were found: {cited:?}");
    // Every step of the turn sequence, which the log and the forms' help name.
    for (series, numbers) in [
        ("S", 1..=5),
        ("W", 0..=9),
        ("P", 0..=5),
        ("K", 1..=7),
        ("A", 1..=7),
        ("E", 1..=4),
    ] {
        cited.extend(numbers.map(|n| format!("{series}{n}")));
    }
    let app = sqlite_app().await;
    let page = Visitor::new(&app).get("/rules/contests").await;
    assert_eq!(page.status, StatusCode::OK);
    let missing: Vec<&String> = cited
        .iter()
        .filter(|id| !page.html.contains(&format!("id=\"{id}\"")))
        .collect();
    assert!(
        missing.is_empty(),
        "no anchor on /rules/contests for {missing:?}"
    );
}

/// A select's options as a browser posts them (values unescaped).
pub(crate) fn options(page: &crate::pages_client::Page, id: &str) -> Vec<(String, String)> {
    page.options(id)
        .into_iter()
        .map(|(value, label)| (unescape(&value), label))
        .collect()
}

/// The value of the hidden field `name` in the order form, if the form has it.
pub(crate) fn hidden(html: &str, name: &str) -> Option<String> {
    let at = html.find(&format!("type=\"hidden\" name=\"{name}\" value=\""))?;
    let rest = &html[at..];
    let start = rest.find("value=\"")? + 7;
    let end = rest[start..].find('"')?;
    Some(unescape(&rest[start..start + end]))
}

/// Answers the play page's form as a person would; the step answered, or None if nothing
/// is owed.
async fn answer(visitor: &mut Visitor<'_>, lobby: &str, turn: usize) -> Option<String> {
    let page = visitor.get(&format!("/lobbies/{lobby}/play")).await;
    assert_eq!(page.status, StatusCode::OK);
    if !page.html.contains("id=\"order-form\"") {
        return None;
    }
    let round = hidden(&page.html, "round").unwrap();
    let step = hidden(&page.html, "step").unwrap();
    let contest = hidden(&page.html, "contest");
    let mut fields: Vec<(String, String)> =
        vec![("round".into(), round), ("step".into(), step.clone())];
    if let Some(c) = &contest {
        fields.push(("contest".into(), c.clone()));
    }
    if let Some(t) = hidden(&page.html, "tie") {
        fields.push(("tie".into(), t));
    }
    let die = ["4", "5", "6", "3"][turn % 4];
    match step.as_str() {
        "opening" | "declare" | "face-up" => fields.push(("decline".into(), "true".into())),
        "next" => {
            let wish = options(&page, "f-wish");
            assert!(!wish.is_empty(), "the wishes are offered");
            let chosen = wish
                .iter()
                .find(|(v, _)| v.contains("advance") || v.contains("leave"))
                .unwrap_or(&wish[0]);
            fields.push(("wish".into(), chosen.0.clone()));
            fields.push(("action".into(), "null".into()));
        }
        "set" => {
            fields.push(("die".into(), die.into()));
            fields.push(("guesses".into(), "5".into()));
            let down = options(&page, "f-down");
            assert_eq!(down[0].0, "null", "no card is a choice: {down:?}");
            // Now and then a card face down, as the form offers it (a JSON string).
            let card = down
                .get(1 + turn % 2)
                .filter(|_| turn.is_multiple_of(3))
                .unwrap_or(&down[0]);
            fields.push(("down".into(), card.0.clone()));
            fields.push(("face_up".into(), "false".into()));
        }
        "tie" => {
            fields.push(("die".into(), die.into()));
            fields.push(("guesses".into(), "6".into()));
        }
        "discard" => {
            let html = &page.html;
            let mut cards = Vec::new();
            let mut rest = html.as_str();
            while let Some(at) = rest.find("type=\"checkbox\" name=\"cards\" value=\"") {
                rest = &rest[at + 37..];
                let end = rest.find('"').unwrap();
                cards.push(rest[..end].to_owned());
            }
            for card in cards.into_iter().take(2) {
                fields.push(("cards".into(), card));
            }
        }
        other => panic!("unexpected step {other}"),
    }
    let sent: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let reply = visitor.post(&format!("/lobbies/{lobby}/play"), &sent).await;
    assert_eq!(
        reply.status,
        StatusCode::SEE_OTHER,
        "{step} {sent:?}: {}",
        reply.html
    );
    Some(step)
}

#[tokio::test]
async fn a_whole_duel_is_played_through_the_pages_without_a_script() {
    let app = sqlite_app().await;
    let (lobby, host) = app
        .create_lobby("contests", serde_json::json!({"seed": 5, "max_phases": 8}))
        .await;
    let mut ann = Visitor::new(&app);
    let mut bob = Visitor::new(&app);
    let join = ann.get(&format!("/lobbies/{lobby}/join")).await;
    let builds = options(&join, "f-build");
    assert_eq!(builds.len(), 6, "{builds:?}");
    let brute = builds
        .iter()
        .find(|(_, label)| label.starts_with("Brute"))
        .unwrap();
    let joined = ann
        .post(
            &format!("/lobbies/{lobby}/join"),
            &[("name", "Ann"), ("build", &brute.0)],
        )
        .await;
    assert_eq!(joined.status, StatusCode::SEE_OTHER, "{}", joined.html);
    let joined = bob
        .post(
            &format!("/lobbies/{lobby}/join"),
            &[("name", "Bob"), ("build", &builds[0].0)],
        )
        .await;
    assert_eq!(joined.status, StatusCode::SEE_OTHER, "{}", joined.html);
    // A build that is not JSON is refused with the join page again, not a 500.
    let mut cy = Visitor::new(&app);
    let refused = cy
        .post(
            &format!("/lobbies/{lobby}/join"),
            &[("name", "Cy"), ("build", "brute")],
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.html
    );
    let view = app.start(&lobby, &host).await.body;
    assert_eq!(
        view["players"][0]["build"]["abilities"][0], "berserk",
        "{view}"
    );

    let page = ann.get(&format!("/lobbies/{lobby}/play")).await;
    let step = hidden(&page.html, "step").unwrap();
    // A value the form does not offer is refused with the page, and nothing is sent.
    if step == "set" || step == "next" {
        let round = hidden(&page.html, "round").unwrap();
        let contest = hidden(&page.html, "contest").unwrap_or_default();
        let bad = ann
            .post(
                &format!("/lobbies/{lobby}/play"),
                &[
                    ("round", &round),
                    ("step", &step),
                    ("contest", &contest),
                    ("wish", "advance"),
                    ("die", "six"),
                ],
            )
            .await;
        assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.html);
    }
    let mut steps = Vec::new();
    for turn in 0..400 {
        let view: Value = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        if view["status"] == "finished" {
            break;
        }
        let a = answer(&mut ann, &lobby, turn).await;
        let b = answer(&mut bob, &lobby, turn + 1).await;
        assert!(a.is_some() || b.is_some(), "somebody owes: {view}");
        steps.extend(a.into_iter().chain(b));
    }
    let view: Value = app
        .get(&format!("/api/v1/lobbies/{lobby}"), None)
        .await
        .body;
    assert_eq!(view["status"], "finished", "{steps:?}");
    for step in ["next", "set"] {
        assert!(
            steps.iter().any(|s| s == step),
            "no {step} step in {steps:?}"
        );
    }
    let finished = ann.get(&format!("/lobbies/{lobby}")).await;
    assert!(finished.html.contains("standings"), "{}", finished.html);
}

/// Waits until the lobby's step is `step` (the deadline scheduler runs beside the test).
async fn wait_for_step(app: &crate::support::TestApp, lobby: &str, step: &str) -> Value {
    let mut view = Value::Null;
    for _ in 0..500 {
        view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        if view["step"] == step {
            return view;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("{}: the lobby never reached {step}: {view}", app.backend);
}

#[tokio::test]
async fn deadlines_play_a_fallback_wish_and_the_defaults_and_the_host_ends_the_duel() {
    use std::time::Duration;
    for app in crate::support::timed_apps().await {
        // Neither hand holds an opening action: Magic's declare is the first step.
        let hand = [
            "illegal-doping",
            "dwarven-ale",
            "am-i-good-or-what",
            "kick-below-the-waist",
            "my-daddy-was-an-elf",
        ];
        let deck = crate::api_contests::deck(&hand);
        let settings = serde_json::json!({"seed": 3, "deadline_seconds": 60, "decision_deadline_seconds": 30,
            "decks": {"p1": deck, "p2": deck}});
        let (lobby, host_token) = app.create_lobby("contests", settings).await;
        let (mut ann, mut bob, mut host) =
            (Visitor::new(&app), Visitor::new(&app), Visitor::new(&app));
        host.get(&format!("/lobbies/{lobby}/as/{host_token}")).await;
        for (who, name) in [(&mut ann, "Ann"), (&mut bob, "Bob")] {
            assert_eq!(who.join(&lobby, name).await.status, StatusCode::SEE_OTHER);
        }
        let started = host
            .post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        assert_eq!(started.status, StatusCode::SEE_OTHER, "{}", started.html);
        let view = wait_for_step(&app, &lobby, "declare").await;
        assert_eq!(
            view["deadline_at"], "2026-12-01T00:00:30.000Z",
            "a decision step's deadline"
        );

        // Nobody declares: the defaults cast no spell, and round 2's window opens.
        app.clock.advance(Duration::from_secs(30));
        let view = wait_for_step(&app, &lobby, "next").await;
        assert_eq!(view["round"], 2, "{view}");
        let play = format!("/lobbies/{lobby}/play");
        let page = ann.get(&play).await;
        assert!(page.html.contains("id=\"fallback-form\""), "{}", page.html);
        let stay = options(&page, "fb-f-wish")
            .into_iter()
            .find(|(_, label)| label == "Stay")
            .expect("a stay wish")
            .0;
        let fields = [
            ("round", "2"),
            ("step", "next"),
            ("wish", stay.as_str()),
            ("action", "null"),
        ];
        let set = ann.post(&format!("{play}/fallback"), &fields).await;
        assert_eq!(set.status, StatusCode::SEE_OTHER, "{}", set.html);
        assert!(ann.get(&play).await.html.contains("id=\"fallback-now\""));
        assert!(
            !bob.get(&play).await.html.contains("id=\"fallback-now\""),
            "Ann's alone"
        );

        app.clock.advance(Duration::from_secs(60));
        // Round 2 goes on with its phase: Archery, whose first shot is a contest.
        let view = wait_for_step(&app, &lobby, "set").await;
        assert_eq!(view["round"], 2, "{view}");
        let round = &view["current_round"];
        let sources: Vec<(&str, &str, &str)> = round["orders"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["step"] == "next")
            .map(|o| {
                (
                    o["player"]["name"].as_str().unwrap(),
                    o["source"].as_str().unwrap(),
                    o["order"]["wish"].as_str().unwrap_or(""),
                )
            })
            .collect();
        assert_eq!(
            sources,
            [("Ann", "fallback", "stay"), ("Bob", "default", "advance")],
            "{round}"
        );
        // W5: one advance is enough after Magic.
        assert_eq!(view["phase"], "archery", "{view}");

        // The host ends the duel naming Ann the winner, from the host panel.
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(panel.html.contains("id=\"end-form\""), "{}", panel.html);
        let ann_id = view["players"][0]["id"].as_str().unwrap().to_owned();
        let ended = host
            .post(
                &format!("/lobbies/{lobby}/host/end"),
                &[("result", ann_id.as_str()), ("confirm", "yes")],
            )
            .await;
        assert_eq!(ended.status, StatusCode::SEE_OTHER, "{}", ended.html);
        let done: Value = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(done["status"], "finished", "{done}");
        assert_eq!(done["result"]["winners"], serde_json::json!([ann_id]));
        assert_eq!(done["result"]["reason"], "ended-by-host");
        let public = ann.get(&format!("/lobbies/{lobby}")).await;
        assert!(public.html.contains("standings"), "{}", public.html);
    }
}
