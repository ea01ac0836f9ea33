//! BST through the pages, in-process on every backend: the character select at sign-up, the
//! play form (tile and token from the hand), and the decision steps' forms, answered until the
//! next round's play step.

use axum::http::StatusCode;
use serde_json::json;

use crate::pages_client::{Page, Visitor, assert_escaped};
use crate::pages_exports::textarea;
use crate::support::{TestApp, apps};

/// Ann holds a pair of 3s that she does not play, so at the end of the turn (T13) she is asked
/// whether to Gather Power with it: a decision step every such opening reaches.
pub fn opening() -> serde_json::Value {
    json!({"seed": 7, "setup": {"players": [
        {"hand": ["R3", "Y3", "B5", "R6", "Y7"]},
        {"hand": ["B4", "R8", "Y9", "B10", "W6"]}
    ]}})
}

/// The value of every checkbox of a group, in page order.
/// A BST token as the pages draw it (`templates/chip.html`).
fn chip(colour: &str, shape: &str, code: &str, words: &str) -> String {
    format!(
        "<span class=\"chip chip-{colour}\" title=\"{code}: {words}\"><span class=\"chip-shape\" aria-hidden=\"true\">{shape}</span>{code}<span class=\"visually-hidden\"> ({words})</span></span>"
    )
}

fn checkboxes(page: &Page, name: &str) -> Vec<String> {
    let marker = format!("type=\"checkbox\" name=\"{name}\" value=\"");
    page.html
        .match_indices(&marker)
        .map(|(at, _)| {
            let rest = &page.html[at + marker.len()..];
            rest[..rest.find('"').unwrap()].to_owned()
        })
        .collect()
}

/// How many boxes the hint asks for ("Tick exactly 2." / "Tick 1 to 2.").
fn at_least(page: &Page) -> usize {
    let at = page.html.find("Tick ").expect("a hint") + 5;
    let rest = page.html[at..].trim_start_matches("exactly ");
    rest[..rest.find(|c: char| !c.is_ascii_digit()).unwrap()]
        .parse()
        .unwrap()
}

/// Answers whatever decision form the player's page shows, through that form: a pair for
/// Gather Power, otherwise "No"/"Decline" where allowed, else the first legal choice(s).
/// Returns the step answered, or None if the page shows no decision form.
pub async fn answer_decision(visitor: &mut Visitor<'_>, lobby: &str) -> Option<String> {
    let play = format!("/lobbies/{lobby}/play");
    let page = visitor.get(&play).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.html);
    if !page.html.contains("id=\"order-form\"") || page.html.contains("id=\"f-move\"") {
        return None;
    }
    let round = page.input_value("round").unwrap();
    let step = page.input_value("step").unwrap();
    let mut fields: Vec<(String, String)> =
        vec![("round".into(), round), ("step".into(), step.clone())];
    if step == "gather-power" {
        let (pair, _) = page.options("f-tokens").into_iter().next().expect("a pair");
        fields.push(("tokens".into(), pair));
    } else if page.html.contains("name=\"decline\" value=\"true\"") {
        fields.push(("decline".into(), "true".into()));
    } else if page.html.contains("id=\"f-token\"") {
        let (token, _) = page.options("f-token").into_iter().next().expect("a token");
        fields.push(("token".into(), token));
    } else if page.html.contains("type=\"checkbox\"") {
        let need = at_least(&page);
        for token in checkboxes(&page, "tokens").into_iter().take(need) {
            fields.push(("tokens".into(), token));
        }
    } else {
        fields.push(("accept".into(), "true".into()));
    }
    let borrowed: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let sent = visitor.post(&play, &borrowed).await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{step}: {}", sent.html);
    Some(step)
}

pub async fn seat_two(app: &TestApp) -> (String, Visitor<'_>, Visitor<'_>) {
    let (lobby, host_token) = app.create_lobby("bst", opening()).await;
    let mut host = Visitor::new(app);
    let link = host.get(&format!("/lobbies/{lobby}/as/{host_token}")).await;
    assert_eq!(link.location(), format!("/lobbies/{lobby}/host"));
    let (mut ann, mut bob) = (Visitor::new(app), Visitor::new(app));
    let join = ann.get(&format!("/lobbies/{lobby}/join")).await;
    assert!(
        join.html
            .contains("<label for=\"f-character\">Character</label>")
    );
    assert_eq!(join.option_for("f-character", "Sellsword"), "sellsword");
    let wrong = ann
        .post(
            &format!("/lobbies/{lobby}/join"),
            &[("name", "Ann"), ("character", "wizard")],
        )
        .await;
    assert_eq!(
        wrong.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        wrong.html
    );
    assert!(wrong.html.contains("id=\"join-error\""));
    for (visitor, name, character) in [
        (&mut ann, "Ann", "sellsword"),
        (&mut bob, "Bob", "sentinel"),
    ] {
        let joined = visitor
            .post(
                &format!("/lobbies/{lobby}/join"),
                &[("name", name), ("character", character)],
            )
            .await;
        assert_eq!(joined.status, StatusCode::SEE_OTHER, "{}", joined.html);
    }
    let lobby_page = host.get(&format!("/lobbies/{lobby}")).await;
    assert!(
        lobby_page.html.contains("\"Character\">Sentinel</td>"),
        "{}",
        lobby_page.html
    );
    let started = host
        .post(&format!("/lobbies/{lobby}/host/start"), &[])
        .await;
    assert_eq!(started.status, StatusCode::SEE_OTHER, "{}", started.html);
    (lobby, ann, bob)
}

#[tokio::test]
async fn a_bst_opening_is_played_through_its_forms_including_a_decision_step() {
    for app in apps().await {
        let (lobby, mut ann, mut bob) = seat_two(&app).await;
        let play = format!("/lobbies/{lobby}/play");

        let page = ann.get(&play).await;
        assert_eq!(page.status, StatusCode::OK);
        assert_escaped(&page);
        assert!(page.html.contains("Only you can see this"));
        assert_eq!(
            hand_chips(&page.html),
            ["R3", "Y3", "B5", "R6", "Y7"],
            "the hand shows as chips, in its order"
        );
        let tokens: Vec<String> = page
            .options("f-token")
            .into_iter()
            .map(|(v, _)| v)
            .collect();
        assert_eq!(
            tokens,
            vec!["R3", "Y3", "B5", "R6", "Y7"],
            "the hand is the token list"
        );
        assert!(
            page.options("f-move")
                .iter()
                .any(|(v, l)| v == "guard" && l.starts_with("Guard (cost"))
        );
        let secret = bob.get(&play).await;
        let bobs = hand_chips(&secret.html);
        assert!(
            !bobs.is_empty() && bobs != ["R3", "Y3", "B5", "R6", "Y7"],
            "Bob sees his own hand, not Ann's: {bobs:?}"
        );

        // A token not in the hand is refused and the form comes back.
        let bad = ann
            .post(
                &play,
                &[
                    ("round", "1"),
                    ("step", "play"),
                    ("move", "guard"),
                    ("token", "W10"),
                ],
            )
            .await;
        assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.html);
        assert!(bad.html.contains("id=\"order-error\""));

        for (visitor, mv, token) in [
            (&mut ann, "guard", "B5"),
            (&mut bob, "standard-strike", "B4"),
        ] {
            let sent = visitor
                .post(
                    &play,
                    &[
                        ("round", "1"),
                        ("step", "play"),
                        ("move", mv),
                        ("token", token),
                    ],
                )
                .await;
            assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.html);
        }

        // The play step is revealed while the decision steps run.
        let deciding = ann.get(&play).await;
        assert!(
            deciding.html.contains("Round 1 so far"),
            "{}",
            deciding.html
        );
        // Revealed tokens are chips: colour, a shape, the code, and the colour in words.
        assert!(
            deciding.html.contains(&format!(
                "Bob: Standard strike token {}",
                chip("blue", "■", "B4", "blue")
            )),
            "{}",
            deciding.html
        );
        let public = Visitor::new(&app).get(&format!("/lobbies/{lobby}")).await;
        assert!(
            public.html.contains(&format!(
                "Ann: Guard token {}",
                chip("blue", "■", "B5", "blue")
            )),
            "{}",
            public.html
        );

        // The status line names the decision step, and the waiting line who owes it.
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        let step = view["step"].as_str().unwrap();
        assert_ne!(step, "play");
        let noun = match step {
            "follow-up" => step.to_string(),
            other => other.replace('-', " "),
        };
        assert!(
            public
                .html
                .contains(&format!("Round 1: decision step: {noun}")),
            "{}",
            public.html
        );
        let owing: Vec<&str> = view["players"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["owes"] == true)
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        let waiting = match owing.as_slice() {
            [one] => format!("Waiting for {one}&#39;s {noun}."),
            _ => format!("Waiting for Ann&#39;s and Bob&#39;s {noun}."),
        };
        assert!(public.html.contains(&waiting), "{waiting}: {}", public.html);

        // Answer the decision steps, whoever owes them, until round 2's play step.
        let mut answered = Vec::new();
        for _ in 0..12 {
            let a = answer_decision(&mut ann, &lobby).await;
            let b = answer_decision(&mut bob, &lobby).await;
            if a.is_none() && b.is_none() {
                break;
            }
            answered.extend(a.into_iter().chain(b));
        }
        assert!(
            answered.contains(&"gather-power".to_string()),
            "{answered:?} ({})",
            app.backend
        );
        let next = ann.get(&play).await;
        assert!(next.html.contains("Round 2: Play"), "{}", next.html);
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(
            (view["round"].as_u64(), view["step"].as_str()),
            (Some(2), Some("play"))
        );

        let round = ann.get(&format!("/lobbies/{lobby}/rounds/1")).await;
        assert_eq!(round.status, StatusCode::OK);
        // The posts for the thread carry no one's private lines: the same whoever asks.
        let mut anyone = Visitor::new(&app);
        let public = anyone.get(&format!("/lobbies/{lobby}/rounds/1")).await;
        for id in ["round-bb", "round-md"] {
            assert_eq!(textarea(&round, id), textarea(&public, id), "{id}");
        }
        let whole = ann.get(&format!("/lobbies/{lobby}/export")).await;
        let whole_public = anyone.get(&format!("/lobbies/{lobby}/export")).await;
        assert_eq!(
            textarea(&whole, "game-md"),
            textarea(&whole_public, "game-md")
        );
        assert!(textarea(&whole, "game-md").contains("*Pools after round 1*"));
        assert!(
            round.html.contains(&format!(
                "Ann: Guard token {}",
                chip("blue", "■", "B5", "blue")
            )),
            "{}",
            round.html
        );
        assert!(
            round.html.contains(&format!(
                "Ann&#39;s gather power: tokens {}, {}",
                chip("red", "●", "R3", "red"),
                chip("yellow", "▲", "Y3", "yellow")
            )),
            "the pair, face up, named as Ann's decision: {}",
            round.html
        );
        // The log reads in words on the pages and in the posts: a real plural, the rule
        // linked on the page and left out of the post.
        assert!(
            round.html.contains("Ann gains 1 Charge (Gather Power, <a class=\"rule\" href=\"/rules/bst#L187\">rule L187</a>): "),
            "{}",
            round.html
        );
        let post = textarea(&public, "round-md");
        assert!(
            post.contains("Ann gains 1 Charge (Gather Power): "),
            "{post}"
        );
        assert!(post.contains("Ann's gather power: tokens R3, Y3"), "{post}");
        for bare in ["(s)", "(L187)", "rule L187"] {
            assert!(!post.contains(bare), "{bare} in {post}");
        }
        // A draw Ann made reads once on her page, with her token and the count together,
        // not as her token and then "Ann draws a token" with the same count.
        let api = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await
            .body;
        assert!(
            api.to_string().contains("Charge(s)"),
            "the API's log is the record: {api}"
        );
        let mine = ann.get(&play).await;
        let draws: Vec<&str> = mine
            .html
            .match_indices("Ann draws ")
            .map(|(i, _)| &mine.html[i..i + mine.html[i..].find(").").unwrap()])
            .collect();
        let counts: Vec<&str> = draws.iter().map(|d| &d[d.find('(').unwrap()..]).collect();
        assert!(
            draws.iter().any(|d| !d.starts_with("Ann draws a token")),
            "Ann reads her own token: {draws:?}"
        );
        for count in &counts {
            assert_eq!(
                counts.iter().filter(|c| *c == count).count(),
                1,
                "one line per draw: {draws:?}"
            );
        }
    }
}

/// The codes of the chips in a player page's "Only you can see this" section, in order.
fn hand_chips(html: &str) -> Vec<String> {
    let Some(start) = html.find("id=\"secrets\"") else {
        return Vec::new();
    };
    let section = &html[start..start + html[start..].find("</section>").unwrap_or(0)];
    section
        .split("<span class=\"chip chip-")
        .skip(1)
        .filter_map(|chip| {
            let title = chip.split("title=\"").nth(1)?;
            Some(title[..title.find(':')?].to_owned())
        })
        .collect()
}
