//! A BST duel's posts and pages in words, on every backend: a one-round duel that ends at its
//! round cap, the loser on points shown as losing, not as knocked out; the round's post with
//! its decisions named, real plurals and no bare rule ids; and, with a deadline, the round's
//! post and notice saying when the next plays are due, the notice without rule ids. All
//! matched to golden files.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::pages_bst::answer_decision;
use crate::pages_client::Visitor;
use crate::pages_exports::{golden, textarea};
use crate::support::{TestApp, apps, timed_apps};

/// A duel of Ann (a Sellsword) and Bob (a Sentinel) from the pages' opening with `extra`
/// settings, played through the pages to the end of round 1, its decisions answered: Ann's
/// Guard beats Bob's Standard Strike, and she gathers power with her pair of 3s.
async fn round_one(app: &TestApp, extra: Value) -> String {
    let mut settings = crate::pages_bst::opening();
    settings
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let (lobby, host_token) = app.create_lobby("bst", settings).await;
    let mut host = Visitor::new(app);
    host.get(&format!("/lobbies/{lobby}/as/{host_token}")).await;
    let (mut ann, mut bob) = (Visitor::new(app), Visitor::new(app));
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
    host.post(&format!("/lobbies/{lobby}/host/start"), &[])
        .await;
    let play = format!("/lobbies/{lobby}/play");
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
    for _ in 0..12 {
        let a = answer_decision(&mut ann, &lobby).await;
        let b = answer_decision(&mut bob, &lobby).await;
        if a.is_none() && b.is_none() {
            break;
        }
    }
    lobby
}

#[tokio::test]
async fn a_bst_duel_at_its_round_cap_reads_in_words_in_its_posts() {
    for app in apps().await {
        let lobby = round_one(&app, json!({"max_rounds": 1})).await;
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["status"], "finished", "{view}");

        let mut anyone = Visitor::new(&app);
        let page = anyone.get(&format!("/lobbies/{lobby}")).await;
        // Nobody was knocked out: the loser on points is not marked "out".
        assert!(
            !page.html.contains("<span class=\"tag\">out</span>"),
            "{}",
            page.html
        );
        let standings = textarea(&page, "standings-md");
        assert!(!standings.contains("out"), "{standings}");
        golden("bst-round-cap-standings.md", &standings, &lobby);

        let round = anyone.get(&format!("/lobbies/{lobby}/rounds/1")).await;
        assert!(
            !round.html.contains("<span class=\"tag\">out</span>"),
            "{}",
            round.html
        );
        let post = textarea(&round, "round-md");
        assert!(!post.contains("Alive"), "{post}");
        for bare in ["(s)", "(L", "(A", "(T", "rule "] {
            assert!(!post.contains(bare), "{bare} in {post}");
        }
        assert!(post.contains("Ann's gather power: "), "{post}");
        golden("bst-round-1-post.md", &post, &lobby);
    }
}

/// A round's news with a real deadline: the round's post and the "round is out" notice end
/// with the line every forum host adds ("Plays for round 2 of 3 are due by ..."), and the
/// notice (Discord, signed JSON, mail) quotes the log in words, without the rule ids the
/// pages link ("(Gather Power, L187)" reads "(Gather Power)").
#[tokio::test]
async fn a_round_post_and_notice_say_when_the_next_plays_are_due() {
    for app in timed_apps().await {
        let lobby = round_one(&app, json!({"max_rounds": 3, "deadline_seconds": 86_400})).await;
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(
            (view["round"].as_u64(), view["step"].as_str()),
            (Some(2), Some("play"))
        );
        let round = Visitor::new(&app)
            .get(&format!("/lobbies/{lobby}/rounds/1"))
            .await;
        let post = textarea(&round, "round-md");
        golden("bst-round-1-due-post.md", &post, &lobby);

        let id: uuid::Uuid = lobby.parse().unwrap();
        let event = herald::store::EventRow {
            seq: 1,
            kind: "round-resolved".into(),
            data: "{\"round\":1}".into(),
        };
        let notice = herald::notify::notice::build(&app.host, id, &event, None, None)
            .await
            .unwrap();
        let told = format!("{}\n\n{}\n", notice.title, notice.text);
        golden("bst-round-1-notice.txt", &told, &lobby);
        assert!(told.contains("(Gather Power)"), "{told}");
        for bare in ["L187", "L183", "A22", "T7", "(s)"] {
            assert!(!told.contains(bare), "{bare} in {told}");
        }
        // The notice read back from the store tells the same lines as the one kept in memory
        // from the round's resolution.
        let stored = app.host.stored_public_log(id, 1, 12).await.unwrap();
        let kept = app.host.kept_public_log(id, 1, 12);
        assert_eq!(kept.as_ref().map(|k| &k.first), Some(&stored.first));
    }
}
