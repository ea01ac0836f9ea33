//! The host panel as a host running a game reads it (no browser), on every backend: whom the
//! step waits for at the top, each seat's state and missed steps, a deadline set mid-game on a
//! lobby created without one, reminders on the create form (and a warning when none can fire),
//! the notifications folded with their events in words, a refused address said beside its
//! field and kept, and a test's "on its way".

use axum::http::StatusCode;

use crate::pages_client::Visitor;
use crate::pages_record::{create_capped, player_id, strike};
use crate::support::apps;

#[tokio::test]
async fn the_host_panel_says_who_is_owed_and_sets_a_deadline_mid_game() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = create_capped(&mut host, "Night watch", "8").await;
        let (mut ann, mut bob) = (Visitor::new(&app), Visitor::new(&app));
        ann.join(&lobby, "Ann").await;
        bob.join(&lobby, "Bob").await;
        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        strike(&mut ann, &lobby, "Bob").await;

        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        let html = &panel.html;
        let at = |what: &str| {
            html.find(what)
                .unwrap_or_else(|| panic!("no {what:?} in {html}"))
        };
        // The waiting line and who has answered come before the links, the clock and the
        // seats; the notifications are folded.
        assert!(
            html.contains("Waiting for Bob&#39;s orders.")
                || html.contains("Waiting for Bob's orders."),
            "{html}"
        );
        assert!(at("id=\"waiting\"") < at("Who has answered"));
        assert!(at("Who has answered") < at("id=\"clock\""));
        assert!(at("id=\"clock\"") < at("id=\"seats-h\""));
        assert!(
            html.contains("<details class=\"card\" id=\"notifications\">"),
            "{html}"
        );
        assert!(html.contains("Round 1 of 8: orders are due"), "{html}");
        let states: Vec<&str> = html
            .match_indices("<span class=\"tag")
            .map(|(i, _)| {
                let rest = &html[i..];
                let text = &rest[rest.find('>').unwrap() + 1..];
                &text[..text.find('<').unwrap()]
            })
            .filter(|s| ["answered", "waiting", "nothing owed", "out"].contains(s))
            .collect();
        assert!(states.starts_with(&["answered", "waiting"]), "{states:?}");
        // Only the short status and waiting lines are read out as they change: a screen
        // reader must not re-read the whole list or table at every submission.
        let live: Vec<&str> = html
            .match_indices("aria-live=")
            .map(|(i, _)| {
                let tag = &html[html[..i].rfind('<').unwrap()..i];
                tag.split_whitespace().next().unwrap()
            })
            .collect();
        assert_eq!(live, ["<p", "<p"], "{html}");

        // No deadline yet: the host sets one for this step, from now.
        assert!(html.contains("id=\"set-deadline-form\""), "{html}");
        let refused = host
            .post(
                &format!("/lobbies/{lobby}/host/set-deadline"),
                &[("hours", "x"), ("minutes", "")],
            )
            .await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.html
        );
        let set = host
            .post(
                &format!("/lobbies/{lobby}/host/set-deadline"),
                &[("hours", "2"), ("minutes", "30")],
            )
            .await;
        assert_eq!(set.status, StatusCode::SEE_OTHER, "{}", set.html);
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        let deadline = view["deadline_at"].as_str().expect("a deadline now");
        let now = app.clock.now_millis();
        let at_ms =
            time::OffsetDateTime::parse(deadline, &time::format_description::well_known::Rfc3339)
                .unwrap()
                .unix_timestamp()
                * 1000;
        assert!((at_ms - (now + 150 * 60_000)).abs() < 120_000, "{deadline}");
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(!panel.html.contains("id=\"set-deadline-form\""));
        assert!(panel.html.contains("id=\"deadline\""));

        // The default reminders (a day and an hour) never fire for a 2-hour-30 deadline
        // only when the lobby's own deadlines are shorter: here it has none, so no warning.
        assert!(!panel.html.contains("id=\"reminder-warning\""));
        let bob_id = player_id(&app, &lobby, "Bob").await;
        assert!(panel.html.contains(&format!("id=\"seat-{bob_id}\"")));
    }
}

#[tokio::test]
async fn reminders_on_the_create_form_and_a_warning_when_none_can_fire() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let create = |reminder_hours: &'static str, minutes: &'static str| {
            [
                ("game", "crossing-swords"),
                ("name", "Quick duel"),
                ("crossing-swords.max_players", ""),
                ("deadline_hours", ""),
                ("deadline_minutes", minutes),
                ("reminder_hours", reminder_hours),
                ("reminder_minutes", ""),
            ]
        };
        // A reminder as long as the deadline can never fire: said, nothing created.
        let refused = host.post("/lobbies", &create("1", "30")).await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.html
        );
        assert!(
            refused.html.contains(
                "The reminder (1 hour before) can never fire: the deadline is 30 minutes."
            ),
            "{}",
            refused.html
        );
        assert!(
            refused.html.contains("name=\"reminder_hours\" value=\"1\""),
            "{}",
            refused.html
        );

        // A 2-minute deadline with the default reminders: created, and the panel warns.
        let made = host.post("/lobbies", &create("", "2")).await;
        assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.html);
        let panel = host.get(made.location()).await;
        let lobby = made.location().split('/').nth(2).unwrap().to_owned();
        let (mut ann, mut bob) = (Visitor::new(&app), Visitor::new(&app));
        ann.join(&lobby, "Ann").await;
        bob.join(&lobby, "Bob").await;
        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        let panel_running = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(
            panel_running
                .html
                .contains("No reminder will reach the players: the deadline is 2 minutes"),
            "{}",
            panel.html
        );

        // A reminder that fits is kept with the lobby.
        let alone = host.post("/lobbies", &create("1", "")).await;
        assert_eq!(
            alone.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            alone.html
        );
        assert!(
            alone.html.contains("A reminder needs a deadline"),
            "{}",
            alone.html
        );
        let mut with_deadline = create("", "45").to_vec();
        with_deadline[5] = ("reminder_hours", "");
        with_deadline[6] = ("reminder_minutes", "10");
        let made = host.post("/lobbies", &with_deadline).await;
        assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.html);
        let id = made.location().split('/').nth(2).unwrap();
        let view = app.get(&format!("/api/v1/lobbies/{id}"), None).await.body;
        assert_eq!(
            view["settings"]["reminder_seconds"],
            serde_json::json!([600])
        );
    }
}

#[tokio::test]
async fn webhooks_read_in_words_and_a_refused_address_is_said_beside_its_field() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = create_capped(&mut host, "Signal fires", "8").await;
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(
            panel.html.contains("A round&#39;s results are out")
                || panel.html.contains("A round's results are out"),
            "{}",
            panel.html
        );
        assert!(
            !panel.html.contains("> round-resolved</label>"),
            "{}",
            panel.html
        );

        let url = "http://127.0.0.1:9/hook";
        let refused = host
            .post(
                &format!("/lobbies/{lobby}/host/webhooks"),
                &[("url", url), ("format", "standard"), ("events", "finished")],
            )
            .await;
        assert!(refused.status.is_client_error(), "{}", refused.html);
        let html = &refused.html;
        let error = html
            .find("id=\"webhook-error\"")
            .expect("the refusal beside the field");
        let field = html.find("id=\"webhook-url\"").unwrap();
        assert!(error < field, "{html}");
        assert!(
            html[field..].contains(&format!("value=\"{url}\"")),
            "{html}"
        );
        assert!(!html.contains("id=\"host-error\""), "{html}");
        assert!(
            html.contains("<details class=\"card\" id=\"notifications\" open>"),
            "{html}"
        );
    }
}

#[tokio::test]
async fn a_finished_game_shows_its_result_and_no_page_says_it_updates_itself() {
    const LIVE: &str = "This page updates itself";
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = create_capped(&mut host, "One-night watch", "1").await;
        let (mut ann, mut bob) = (Visitor::new(&app), Visitor::new(&app));
        ann.join(&lobby, "Ann").await;
        bob.join(&lobby, "Bob").await;
        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        // While the game runs the pages say they follow it.
        let running = ann.get(&format!("/lobbies/{lobby}/play")).await;
        assert!(running.html.contains(LIVE), "{}", running.html);
        strike(&mut ann, &lobby, "Bob").await;
        strike(&mut bob, &lobby, "Ann").await;
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["status"], "finished", "{view}");

        // The host panel of a finished game: the result first, the link as the game's
        // record, nothing left to run.
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        let html = &panel.html;
        let headline = html
            .find("<p id=\"result-headline\"><strong>")
            .unwrap_or_else(|| panic!("no result on the finished panel: {html}"));
        assert!(
            html[headline..].contains("(round cap)"),
            "the result says why the game ended: {html}"
        );
        assert!(
            headline < html.find("id=\"share-link\"").unwrap(),
            "the result comes before the links: {html}"
        );
        assert!(
            html.contains("Public link: the game&#39;s record, for the forum thread")
                || html.contains("Public link: the game's record, for the forum thread"),
            "{html}"
        );
        for stale in [
            "so players can join",
            "id=\"actions-h\"",
            "id=\"clock\"",
            "id=\"end-form\"",
            "Waiting for",
        ] {
            assert!(
                !html.contains(stale),
                "{stale:?} on a finished panel: {html}"
            );
        }

        // No finished page says it updates itself.
        let public = ["", "/rounds", "/rounds/1"].map(|end| format!("/lobbies/{lobby}{end}"));
        let mut pages = vec![
            (
                "the host panel".to_owned(),
                host.get(&format!("/lobbies/{lobby}/host")).await,
            ),
            (
                "the player page".to_owned(),
                ann.get(&format!("/lobbies/{lobby}/play")).await,
            ),
        ];
        for path in public {
            let page = bob.get(&path).await;
            pages.push((path, page));
        }
        for (path, page) in pages {
            assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.html);
            assert!(!page.html.contains(LIVE), "{path}: {}", page.html);
            assert!(!page.html.contains("id=\"live-note\""), "{path}");
        }
    }
}
