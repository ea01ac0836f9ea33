//! Deadlines on the pages (without a browser): the deadline line on the lobby, player and host
//! pages, the host panel's clock controls (with the confirmation resolve-now asks for), and the
//! fallback order form on a player's page.

use axum::http::StatusCode;
use serde_json::json;

use crate::pages_client::Visitor;
use crate::support::{TestApp, timed_apps};

/// A running Crossing Swords lobby with a ten-minute deadline, a host browser and two player
/// browsers.
async fn running(app: &TestApp) -> (String, Visitor<'_>, Visitor<'_>, Visitor<'_>) {
    let (lobby, host_token) = app
        .create_lobby("crossing-swords", json!({"deadline_seconds": 600}))
        .await;
    let mut host = Visitor::new(app);
    host.get(&format!("/lobbies/{lobby}/as/{host_token}")).await;
    let (mut ann, mut bob) = (Visitor::new(app), Visitor::new(app));
    assert_eq!(ann.join(&lobby, "Ann").await.status, StatusCode::SEE_OTHER);
    assert_eq!(bob.join(&lobby, "Bob").await.status, StatusCode::SEE_OTHER);
    let started = host
        .post(&format!("/lobbies/{lobby}/host/start"), &[])
        .await;
    assert_eq!(started.status, StatusCode::SEE_OTHER, "{}", started.html);
    (lobby, host, ann, bob)
}

fn deadline_line(at: &str) -> String {
    let text = format!("{} {} UTC", &at[..10], &at[11..19]);
    format!("<time datetime=\"{at}\" data-countdown>{text}</time>")
}

#[tokio::test]
async fn the_pages_show_the_deadline_and_the_host_panel_works_the_clock() {
    for app in timed_apps().await {
        let (lobby, mut host, mut ann, _bob) = running(&app).await;
        let line = deadline_line("2026-12-01T00:10:00.000Z");
        for (who, path) in [
            (&mut host, format!("/lobbies/{lobby}")),
            (&mut ann, format!("/lobbies/{lobby}/play")),
        ] {
            let page = who.get(&path).await;
            assert!(page.html.contains(&line), "{path}: {}", page.html);
        }
        let panel_path = format!("/lobbies/{lobby}/host");
        let panel = host.get(&panel_path).await;
        assert!(panel.html.contains(&line) && panel.html.contains("id=\"resolve-now\""));

        let extended = host
            .post(&format!("{panel_path}/extend"), &[("minutes", "60")])
            .await;
        assert_eq!(
            (extended.status, extended.location()),
            (StatusCode::SEE_OTHER, panel_path.as_str())
        );
        assert!(
            host.get(&panel_path)
                .await
                .html
                .contains(&deadline_line("2026-12-01T01:10:00.000Z"))
        );
        let bad = host
            .post(&format!("{panel_path}/extend"), &[("minutes", "soon")])
            .await;
        assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(bad.html.contains("id=\"host-error\""), "{}", bad.html);

        assert_eq!(
            host.post(&format!("{panel_path}/pause"), &[]).await.status,
            StatusCode::SEE_OTHER
        );
        let public = host.get(&format!("/lobbies/{lobby}")).await;
        assert!(
            public.html.contains("The clock is paused"),
            "{}",
            public.html
        );
        assert!(host.get(&panel_path).await.html.contains("id=\"resume\""));
        let again = host.post(&format!("{panel_path}/pause"), &[]).await;
        assert_eq!(again.status, StatusCode::CONFLICT, "already paused");
        assert_eq!(
            host.post(&format!("{panel_path}/resume"), &[]).await.status,
            StatusCode::SEE_OTHER
        );

        let unconfirmed = host.post(&format!("{panel_path}/resolve-now"), &[]).await;
        assert_eq!(unconfirmed.status, StatusCode::BAD_REQUEST);
        assert!(
            unconfirmed.html.contains("Tick the box"),
            "{}",
            unconfirmed.html
        );
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["round"], 1, "nothing resolved without the tick");
        let not_host = ann
            .post(&format!("{panel_path}/resolve-now"), &[("confirm", "yes")])
            .await;
        assert_eq!(not_host.status, StatusCode::UNAUTHORIZED);
        let resolved = host
            .post(&format!("{panel_path}/resolve-now"), &[("confirm", "yes")])
            .await;
        assert_eq!(resolved.status, StatusCode::SEE_OTHER, "{}", resolved.html);
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["round"], 2);
        let round = host.get(&format!("/lobbies/{lobby}/rounds/1")).await;
        assert!(
            round.html.contains("Ann sent no order: Pass"),
            "{}",
            round.html
        );
    }
}

#[tokio::test]
async fn a_player_sets_replaces_and_removes_a_fallback_order_on_their_page() {
    for app in timed_apps().await {
        let (lobby, _host, mut ann, mut bob) = running(&app).await;
        let play = format!("/lobbies/{lobby}/play");
        let page = ann.get(&play).await;
        assert!(page.html.contains("id=\"fallback-form\""), "{}", page.html);
        assert!(page.html.contains("id=\"fb-f-move\"") && page.html.contains("id=\"f-move\""));
        let bob_id = page.option_for("fb-f-target", "Bob");
        let fields = [
            ("round", "1"),
            ("step", "orders"),
            ("move", "block"),
            ("target", bob_id.as_str()),
        ];
        let set = ann.post(&format!("{play}/fallback"), &fields).await;
        assert_eq!(
            (set.status, set.location()),
            (StatusCode::SEE_OTHER, format!("{play}#fallback").as_str())
        );
        let page = ann.get(&play).await;
        assert!(
            page.html
                .contains("Fallback order: <strong>Block → Bob</strong>"),
            "{}",
            page.html
        );
        assert!(page.html.contains("Replace my fallback order"));
        assert!(
            !bob.get(&play).await.html.contains("Block → Bob"),
            "Ann's alone"
        );

        let wrong = [
            ("round", "1"),
            ("step", "orders"),
            ("move", "shove"),
            ("target", bob_id.as_str()),
        ];
        let refused = ann.post(&format!("{play}/fallback"), &wrong).await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.html
        );
        assert!(refused.html.contains("id=\"order-error\""));

        let removed = ann.post(&format!("{play}/fallback/remove"), &[]).await;
        assert_eq!(removed.status, StatusCode::SEE_OTHER);
        assert!(!ann.get(&play).await.html.contains("id=\"fallback-now\""));
    }
}

/// The lobby view's `settings` holds the effective deadline settings, and the lobby page says
/// them in words next to the variants; a lobby without them says it waits.
#[tokio::test]
async fn the_lobby_shows_its_deadline_settings_in_the_view_and_in_words() {
    for app in timed_apps().await {
        let settings = json!({"deadline_seconds": 5400, "decision_deadline_seconds": 600,
                              "reminder_seconds": [3600], "miss_limit": 3, "heal_cap": 20});
        let (lobby, _) = app.create_lobby("crossing-swords", settings).await;
        let view = app.get(&format!("/api/v1/lobbies/{lobby}"), None).await;
        let shown = &view.body["settings"];
        assert_eq!(
            (
                &shown["deadline_seconds"],
                &shown["decision_deadline_seconds"],
                &shown["reminder_seconds"],
                &shown["miss_limit"],
                &shown["heal_cap"]
            ),
            (
                &json!(5400),
                &json!(600),
                &json!([3600]),
                &json!(3),
                &json!(20)
            ),
            "{}: {shown}",
            app.backend
        );
        let page = app.get(&format!("/lobbies/{lobby}"), None).await.text;
        assert!(page.contains("Variants: heal cap 20 (Ruling 28)"), "{page}");
        let words = "Deadline: 1 hour 30 minutes for orders, 10 minutes for decisions · \
                     reminders 1 hour before · a player who misses 3 steps in a row is kicked";
        assert!(page.contains(words), "{page}");

        let (plain, _) = app
            .create_lobby("bst", json!({"deadline_seconds": 60}))
            .await;
        let view = app.get(&format!("/api/v1/lobbies/{plain}"), None).await;
        let shown = &view.body["settings"];
        assert_eq!(
            shown["decision_deadline_seconds"], 60,
            "defaults to the main's"
        );
        assert_eq!(
            shown["reminder_seconds"],
            json!([86400, 3600]),
            "the defaults"
        );
        assert_eq!(shown["miss_limit"], serde_json::Value::Null, "off");
        let page = app.get(&format!("/lobbies/{plain}"), None).await.text;
        assert!(
            page.contains("Deadline: 1 minute for plays, 1 minute for decisions"),
            "{page}"
        );
        assert!(!page.contains("in a row"), "{page}");
        // The default reminders (a day and an hour before) never fire within a minute: the
        // page does not promise them.
        assert!(!page.contains("reminders"), "{page}");

        let (two_hours, _) = app
            .create_lobby("crossing-swords", json!({"deadline_seconds": 7200}))
            .await;
        let page = app.get(&format!("/lobbies/{two_hours}"), None).await.text;
        assert!(page.contains("reminders 1 hour before"), "{page}");
        assert!(!page.contains("1 day"), "{page}");

        let (none, _) = app.create_lobby("crossing-swords", json!({})).await;
        let page = app.get(&format!("/lobbies/{none}"), None).await.text;
        assert!(
            page.contains("No deadline: the game waits for every answer"),
            "{page}"
        );
    }
}

/// The home page's create form takes the deadline as hours and minutes and the missed-turn
/// limit; wrong values come back in words with the form kept, and nothing is created.
#[tokio::test]
async fn the_create_form_takes_a_deadline_and_a_miss_limit() {
    for app in timed_apps().await {
        let mut host = Visitor::new(&app);
        let home = host.get("/").await;
        for field in ["deadline-hours", "deadline-minutes", "miss-limit"] {
            assert!(home.html.contains(&format!("id=\"{field}\"")), "{field}");
        }
        let lobbies = || async { app.get("/api/v1/lobbies", None).await.body };
        let before = lobbies().await;
        for (fields, words) in [
            (
                [
                    ("deadline_hours", "soon"),
                    ("deadline_minutes", ""),
                    ("miss_limit", ""),
                ],
                "The deadline in hours and minutes must be given as whole numbers",
            ),
            (
                [
                    ("deadline_hours", "0"),
                    ("deadline_minutes", "0"),
                    ("miss_limit", ""),
                ],
                "The deadline must be from 1 minute to 30 days (720 hours).",
            ),
            (
                [
                    ("deadline_hours", "721"),
                    ("deadline_minutes", ""),
                    ("miss_limit", ""),
                ],
                "The deadline must be from 1 minute to 30 days (720 hours).",
            ),
            (
                [
                    ("deadline_hours", "1"),
                    ("deadline_minutes", ""),
                    ("miss_limit", "0"),
                ],
                "Missed turns before a kick must be a whole number from 1 to 1000",
            ),
        ] {
            let mut sent = vec![("game", "crossing-swords"), ("name", "Timed")];
            sent.extend(fields);
            let refused = host.post("/lobbies", &sent).await;
            assert_eq!(
                refused.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{fields:?}"
            );
            assert!(refused.html.contains(words), "{fields:?}: {}", refused.html);
            assert!(
                refused.html.contains(&format!("value=\"{}\"", fields[0].1)),
                "the form is kept"
            );
        }
        assert_eq!(lobbies().await, before, "nothing created");

        let created = host
            .post(
                "/lobbies",
                &[
                    ("game", "crossing-swords"),
                    ("name", "Timed"),
                    ("deadline_hours", "2"),
                    ("deadline_minutes", "30"),
                    ("miss_limit", "3"),
                ],
            )
            .await;
        assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.html);
        let id = created.location().split('/').nth(2).unwrap().to_owned();
        let view = app.get(&format!("/api/v1/lobbies/{id}"), None).await.body;
        assert_eq!(view["settings"]["deadline_seconds"], 9000, "{view}");
        assert_eq!(view["settings"]["miss_limit"], 3);
        let plain = host
            .post("/lobbies", &[("game", "bst"), ("name", "Untimed")])
            .await;
        let id = plain.location().split('/').nth(2).unwrap().to_owned();
        let view = app.get(&format!("/api/v1/lobbies/{id}"), None).await.body;
        assert_eq!(
            view["settings"]["deadline_seconds"],
            serde_json::Value::Null
        );
    }
}
