//! Who the game waits for, and the small things a person notices (docs/web.md),
//! with JavaScript off: in-process pages on every backend.

use axum::http::StatusCode;

use crate::pages_client::Visitor;
use crate::support::apps;

/// Sends a Strike on `target` (by name) from a player's page.
async fn strike(visitor: &mut Visitor<'_>, lobby: &str, target: &str) {
    let page = visitor.get(&format!("/lobbies/{lobby}/play")).await;
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

/// The text of the page's waiting line.
fn waiting(html: &str) -> String {
    let start = html.find("id=\"waiting\"").expect("a waiting line");
    let open = start + html[start..].find('>').unwrap() + 1;
    let end = open + html[open..].find("</p>").unwrap();
    html[open..end].replace("&#39;", "'")
}

#[tokio::test]
async fn every_page_says_whose_orders_the_round_waits_for() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Waiting room").await;
        let (mut ann, mut bob, mut cat) =
            (Visitor::new(&app), Visitor::new(&app), Visitor::new(&app));
        for (v, name) in [(&mut ann, "Ann"), (&mut bob, "Bob"), (&mut cat, "Cat")] {
            v.join(&lobby, name).await;
        }
        let before = ann.get(&format!("/lobbies/{lobby}")).await;
        assert_eq!(
            waiting(&before.html),
            "",
            "nothing to wait for before the start"
        );
        assert!(
            before
                .html
                .contains("<span>You play as <strong>Ann</strong>.</span>"),
            "no stray space before the full stop: {}",
            before.html
        );
        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;

        let public = Visitor::new(&app).get(&format!("/lobbies/{lobby}")).await;
        assert!(
            public.html.contains("Round 1: orders are due"),
            "{}",
            public.html
        );
        assert!(!public.html.contains("collecting orders"));
        assert_eq!(
            waiting(&public.html),
            "Waiting for Ann's, Bob's and Cat's orders."
        );

        strike(&mut ann, &lobby, "Bob").await;
        strike(&mut cat, &lobby, "Bob").await;
        let public = Visitor::new(&app).get(&format!("/lobbies/{lobby}")).await;
        assert_eq!(waiting(&public.html), "Waiting for Bob's orders.");
        // Ann owes nothing: her page says so, and what she waits for.
        let anns = ann.get(&format!("/lobbies/{lobby}/play")).await;
        assert_eq!(waiting(&anns.html), "Waiting for Bob's orders.");
        let bobs = bob.get(&format!("/lobbies/{lobby}/play")).await;
        assert_eq!(waiting(&bobs.html), "Waiting for your orders.");
        let bobs_lobby = bob.get(&format!("/lobbies/{lobby}")).await;
        assert_eq!(waiting(&bobs_lobby.html), "Waiting for your orders.");

        strike(&mut bob, &lobby, "Ann").await;
        let public = Visitor::new(&app).get(&format!("/lobbies/{lobby}")).await;
        assert!(public.html.contains("Round 2: orders are due"));
        // Round 1 resolved at a time the pages say.
        let summary = public
            .html
            .find("<h3 class=\"summary-h\">Round 1 ")
            .expect("round 1");
        assert!(
            public.html[summary..].starts_with(
                "<h3 class=\"summary-h\">Round 1 <span class=\"muted\">· <time datetime=\""
            ),
            "{}",
            &public.html[summary..summary + 200]
        );
        // The chart of HP and VP after each round: inline SVG with its numbers as a table.
        let chart = &public.html[public
            .html
            .find("<figure class=\"chart\" id=\"chart-hp\"")
            .expect("an HP chart")..];
        let chart = &chart[..chart.find("</figure>").unwrap()];
        assert!(chart.contains("role=\"img\" aria-labelledby=\"chart-hp-title\""));
        assert_eq!(chart.matches("<polyline").count(), 3, "a line per player");
        assert!(
            // From the start (20 HP) to after round 1.
            chart.contains("<th scope=\"row\">Bob</th><td>20</td><td>14</td>"),
            "{chart}"
        );
        assert_eq!(
            chart.matches("http").count(),
            1,
            "nothing but the SVG namespace: {chart}"
        );
        assert!(public.html.contains("id=\"chart-vp\""));
        let round = Visitor::new(&app)
            .get(&format!("/lobbies/{lobby}/rounds/1"))
            .await;
        assert!(
            round.html.contains("Resolved <time datetime=\""),
            "{}",
            round.html
        );
    }
}

#[tokio::test]
async fn a_full_lobby_says_so_and_the_host_is_told_to_start() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let created = host
            .post(
                "/lobbies",
                &[
                    ("game", "crossing-swords"),
                    ("name", "Two seats"),
                    ("crossing-swords.max_players", "2"),
                ],
            )
            .await;
        assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.html);
        let lobby = created.location().split('/').nth(2).unwrap().to_owned();
        let (mut ann, mut bob) = (Visitor::new(&app), Visitor::new(&app));
        ann.join(&lobby, "Ann").await;
        bob.join(&lobby, "Bob").await;

        let mut late = Visitor::new(&app);
        let page = late.get(&format!("/lobbies/{lobby}")).await;
        assert!(page.html.contains("This lobby is full"), "{}", page.html);
        assert!(!page.html.contains("Join this game"), "no join form");
        assert!(
            !page
                .html
                .contains(&format!("action=\"/lobbies/{lobby}/join\""))
        );
        let join = late.get(&format!("/lobbies/{lobby}/join")).await;
        assert!(join.html.contains("This lobby is full"), "{}", join.html);
        assert!(!join.html.contains("id=\"player-name\""));

        // The host's private link is folded away at the bottom of the panel, not at the top.
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        let link = panel.html.find("id=\"private-link\"").unwrap();
        assert!(
            link > panel.html.find("id=\"players-h\"").unwrap(),
            "{}",
            panel.html
        );
        assert!(panel.html[..link].contains("<details class=\"card\" id=\"host-link\">"));

        let closed = host
            .post(&format!("/lobbies/{lobby}/host/close-signups"), &[])
            .await;
        assert_eq!(closed.status, StatusCode::SEE_OTHER, "{}", closed.html);
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(
            panel
                .html
                .contains("Sign-ups closed: start the game when you are ready"),
            "{}",
            panel.html
        );
        assert!(panel.html.contains("id=\"start-hint\""));
        assert!(
            !panel.html.contains("waiting for the host"),
            "{}",
            panel.html
        );
    }
}

#[tokio::test]
async fn the_create_form_sends_each_games_settings_and_unlisted_lobbies_stay_off_the_lists() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let home = host.get("/").await;
        assert!(home.html.contains("name=\"crossing-swords.halt_cycle\""));
        assert!(home.html.contains("name=\"bst.seed\""));
        assert!(home.html.contains("name=\"decision_hours\""));
        assert!(home.html.contains("name=\"unlisted\""));
        assert!(
            !home.html.contains("name=\"bst.max_players\""),
            "no seats to choose in a duel"
        );
        let created = host
            .post(
                "/lobbies",
                &[
                    ("game", "crossing-swords"),
                    ("name", "Quiet corner"),
                    ("crossing-swords.max_rounds", "30"),
                    ("crossing-swords.halt_cycle", "all_fire"),
                    ("crossing-swords.self_attacks", "true"),
                    ("decision_hours", "2"),
                    ("unlisted", "true"),
                    // Another game's field is not this lobby's.
                    ("bst.seed", "not a number"),
                ],
            )
            .await;
        assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.html);
        let lobby = created.location().split('/').nth(2).unwrap().to_owned();
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        let settings = &view["settings"];
        assert_eq!(settings["max_rounds"], 30, "{view}");
        assert_eq!(settings["halt_cycle"], "all_fire");
        assert_eq!(settings["self_attacks"], true);
        assert_eq!(settings["decision_deadline_seconds"], 7200);
        // Unlisted: not on the home page nor in the API's list, but its page works.
        let listed = app.get("/api/v1/lobbies", None).await.body.to_string();
        assert!(!listed.contains(&lobby), "{listed}");
        assert!(
            !Visitor::new(&app)
                .get("/")
                .await
                .html
                .contains("Quiet corner")
        );
        let page = Visitor::new(&app).get(&format!("/lobbies/{lobby}")).await;
        assert!(page.html.contains("Join this game"));

        let bad = host
            .post(
                "/lobbies",
                &[("game", "bst"), ("name", "Duel"), ("bst.seed", "-3")],
            )
            .await;
        assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(bad.html.contains("“Seed (a whole number"), "{}", bad.html);
        assert!(
            bad.html.contains("value=\"-3\""),
            "the form comes back as sent"
        );
        let short = host
            .post(
                "/lobbies",
                &[("game", "bst"), ("name", "Duel"), ("bst.pool", "R3 Y3")],
            )
            .await;
        assert_eq!(
            short.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            short.html
        );
        assert!(!short.html.contains("settings.pool"), "{}", short.html);
        let listed = host
            .post(
                "/lobbies",
                &[("game", "bst"), ("name", "Open duel"), ("bst.seed", "7")],
            )
            .await;
        assert_eq!(listed.status, StatusCode::SEE_OTHER, "{}", listed.html);
        assert!(Visitor::new(&app).get("/").await.html.contains("Open duel"));
    }
}
