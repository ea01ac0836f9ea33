//! Every page and form on its own: statuses, 303s, cookies, bad input shown again with a
//! message and a 4xx, CSRF refusals, and who may see what.

use axum::http::StatusCode;

use crate::pages_client::{HOSTILE, Visitor, assert_escaped, escape};
use crate::support::apps;

#[tokio::test]
async fn the_home_page_offers_every_game_and_issues_a_csrf_cookie() {
    for app in apps().await {
        let mut visitor = Visitor::new(&app);
        let home = visitor.get("/").await;
        assert_eq!(home.status, StatusCode::OK);
        assert!(
            home.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
        assert!(
            home.html
                .contains("<option value=\"crossing-swords\">Crossing Swords</option>")
        );
        let cookie = home
            .set_cookies()
            .into_iter()
            .find(|c| c.starts_with("herald_csrf="))
            .unwrap();
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
        assert_eq!(
            home.input_value("csrf").as_deref(),
            Some(visitor.cookies["herald_csrf"].as_str())
        );
        assert_eq!(home.headers["cache-control"], "no-store");
        let csp = home.headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"));
        // The cookie is issued once, then reused.
        let again = visitor.get("/").await;
        assert!(again.set_cookies().is_empty());
        // Nothing is loaded from elsewhere.
        for needle in ["src=\"http", "href=\"http", "//fonts.", "cdn"] {
            assert!(!home.html.contains(needle), "{needle}");
        }
        let css = visitor.get("/static/herald.css").await;
        assert_eq!(
            (css.status, css.headers["content-type"].to_str().unwrap()),
            (StatusCode::OK, "text/css; charset=utf-8")
        );
        let list = visitor.get("/lobbies").await;
        assert_eq!((list.status, list.location()), (StatusCode::SEE_OTHER, "/"));
        let js = visitor.get("/static/herald.js").await;
        assert!(js.html.contains("EventSource"));
    }
}

#[tokio::test]
async fn creating_a_lobby_sets_the_host_cookie_and_bad_input_shows_the_form_again() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let empty = host
            .post("/lobbies", &[("game", "crossing-swords"), ("name", "  ")])
            .await;
        assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            empty.html.contains("The lobby name must not be empty."),
            "{}",
            empty.html
        );
        assert!(empty.html.contains("action=\"/lobbies\""), "the form again");
        let bad = host
            .post(
                "/lobbies",
                &[
                    ("game", "crossing-swords"),
                    ("name", HOSTILE),
                    ("crossing-swords.max_players", "many"),
                ],
            )
            .await;
        assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(bad.html.contains("whole number"));
        assert!(
            bad.html.contains(&format!("value=\"{}\"", escape(HOSTILE))),
            "the name is kept, escaped"
        );
        assert_escaped(&bad);
        let unknown = host
            .post("/lobbies", &[("game", "chess"), ("name", "x")])
            .await;
        assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
        let range = host
            .post(
                "/lobbies",
                &[
                    ("game", "crossing-swords"),
                    ("name", "x"),
                    ("crossing-swords.max_players", "99"),
                ],
            )
            .await;
        assert_eq!(
            range.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            range.html
        );

        let created = host
            .post(
                "/lobbies",
                &[
                    ("game", "crossing-swords"),
                    ("name", HOSTILE),
                    ("crossing-swords.max_players", "2"),
                ],
            )
            .await;
        assert_eq!(created.status, StatusCode::SEE_OTHER);
        let cookie = created
            .set_cookies()
            .into_iter()
            .find(|c| c.starts_with("herald_host_"))
            .unwrap();
        assert!(
            cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
            "{cookie}"
        );
        let panel = host.get(created.location()).await;
        assert_eq!(panel.status, StatusCode::OK);
        assert_escaped(&panel);
        assert!(panel.html.contains("Your lobby is ready"));
        assert!(panel.html.contains("Close sign-ups") && panel.html.contains("Start the game"));
        let home = Visitor::new(&app).get("/").await;
        assert_escaped(&home);
        assert!(home.html.contains(&escape(HOSTILE)));
    }
}

#[tokio::test]
async fn forms_without_the_csrf_token_or_from_another_site_are_refused() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Guarded").await;
        let mut player = Visitor::new(&app);
        player.get(&format!("/lobbies/{lobby}")).await;
        let join = format!("/lobbies/{lobby}/join");

        let missing = player.post_raw(&join, &[("name", "Mallory")]).await;
        assert_eq!(missing.status, StatusCode::FORBIDDEN, "{}", missing.html);
        assert!(missing.html.contains("Reload the page"), "{}", missing.html);
        let wrong = player
            .post_raw(&join, &[("csrf", &"0".repeat(64)), ("name", "Mallory")])
            .await;
        assert_eq!(wrong.status, StatusCode::FORBIDDEN);
        // A browser with no CSRF cookie at all (a cross-site form in a fresh session).
        let mut stranger = Visitor::new(&app);
        let csrf = player.cookies["herald_csrf"].clone();
        let foreign = stranger
            .post_raw(&join, &[("csrf", &csrf), ("name", "Mallory")])
            .await;
        assert_eq!(foreign.status, StatusCode::FORBIDDEN);

        player.extra = vec![("sec-fetch-site", "cross-site".into())];
        let cross = player.post(&join, &[("name", "Mallory")]).await;
        assert_eq!(cross.status, StatusCode::FORBIDDEN);
        player.extra = vec![("origin", "http://evil.example".into())];
        let evil = player.post(&join, &[("name", "Mallory")]).await;
        assert_eq!(evil.status, StatusCode::FORBIDDEN);
        player.extra = vec![
            ("origin", "http://herald.test".into()),
            ("sec-fetch-site", "same-origin".into()),
        ];
        let good = player.post(&join, &[("name", "Alice")]).await;
        assert_eq!(good.status, StatusCode::SEE_OTHER, "{}", good.html);

        host.extra = vec![("sec-fetch-site", "cross-site".into())];
        let start = host
            .post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        assert_eq!(start.status, StatusCode::FORBIDDEN);
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["status"], "signups", "nothing refused took effect");
        assert_eq!(
            view["players"].as_array().unwrap().len(),
            1,
            "only Alice joined"
        );
    }
}

#[tokio::test]
async fn joining_mistakes_and_host_mistakes_come_back_as_the_form_with_the_reason() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Careful").await;
        let mut ann = Visitor::new(&app);
        assert_eq!(ann.join(&lobby, "Ann").await.status, StatusCode::SEE_OTHER);
        let mut twin = Visitor::new(&app);
        let taken = twin.join(&lobby, "ann").await;
        assert_eq!(taken.status, StatusCode::CONFLICT);
        assert!(taken.html.contains("already called"), "{}", taken.html);
        assert!(taken.html.contains("value=\"ann\""), "the name is kept");
        let blank = twin.join(&lobby, "").await;
        assert_eq!(blank.status, StatusCode::UNPROCESSABLE_ENTITY);
        let join_page = twin.get(&format!("/lobbies/{lobby}/join")).await;
        assert_eq!(join_page.status, StatusCode::OK);
        assert!(join_page.html.contains("Your name"));

        let one = host
            .post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        assert_eq!(one.status, StatusCode::CONFLICT);
        assert!(one.html.contains("needs 2 to 16 players"), "{}", one.html);
        let close = host
            .post(&format!("/lobbies/{lobby}/host/close-signups"), &[])
            .await;
        assert_eq!(
            (close.status, close.location()),
            (
                StatusCode::SEE_OTHER,
                format!("/lobbies/{lobby}/host").as_str()
            )
        );
        let late = twin.join(&lobby, "Bob").await;
        assert_eq!(late.status, StatusCode::CONFLICT);
        assert!(late.html.contains("Sign-ups for this lobby are closed"));
        let twice = host
            .post(&format!("/lobbies/{lobby}/host/close-signups"), &[])
            .await;
        assert_eq!(twice.status, StatusCode::CONFLICT);
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(
            !panel.html.contains("Close sign-ups"),
            "no button for what cannot be done"
        );
    }
}

#[tokio::test]
async fn orders_are_checked_and_stale_or_illegal_ones_show_the_form_again() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Strict").await;
        let (mut ann, mut bob) = (Visitor::new(&app), Visitor::new(&app));
        ann.join(&lobby, "Ann").await;
        bob.join(&lobby, "Bob").await;
        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        let play = format!("/lobbies/{lobby}/play");
        let page = ann.get(&play).await;
        let me = page.option_for("f-target", "Ann");
        let bob_id = page.option_for("f-target", "Bob");

        let own = ann
            .post(
                &play,
                &[
                    ("round", "1"),
                    ("step", "orders"),
                    ("move", "strike"),
                    ("target", &me),
                ],
            )
            .await;
        assert_eq!(own.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", own.html);
        assert!(own.html.contains("id=\"order-error\""));
        assert!(
            own.html.contains("<option value=\"strike\" selected>"),
            "the choice is kept"
        );
        let missing = ann
            .post(
                &play,
                &[("round", "1"), ("step", "orders"), ("move", "strike")],
            )
            .await;
        assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(missing.html.contains("Choose a target before sending."));
        let stale = ann
            .post(
                &play,
                &[
                    ("round", "0"),
                    ("step", "orders"),
                    ("move", "strike"),
                    ("target", &bob_id),
                ],
            )
            .await;
        assert_eq!(stale.status, StatusCode::CONFLICT);
        assert!(
            stale.html.contains("the game is at round 1"),
            "{}",
            stale.html
        );

        let sent = ann
            .post(
                &play,
                &[
                    ("round", "1"),
                    ("step", "orders"),
                    ("move", "taunt"),
                    ("target", &bob_id),
                ],
            )
            .await;
        assert_eq!(sent.status, StatusCode::SEE_OTHER);
        let mine = ann.get(&play).await;
        assert!(
            mine.html
                .contains("Order sent: <strong>Taunt → Bob</strong>"),
            "{}",
            mine.html
        );
        assert!(mine.html.contains("Replace my order"));
        // Nobody else sees what Ann ordered: not Bob, not the host, not the public.
        for page in [
            bob.get(&play).await,
            host.get(&format!("/lobbies/{lobby}")).await,
            Visitor::new(&app).get(&format!("/lobbies/{lobby}")).await,
        ] {
            assert!(!page.html.contains("Taunt →"), "{}", page.html);
        }
        let round = host.get(&format!("/lobbies/{lobby}/rounds/1")).await;
        assert_eq!(
            round.status,
            StatusCode::NOT_FOUND,
            "no reveal before the round resolves"
        );
        assert!(round.html.contains("<h1>"), "an HTML error page");
    }
}

#[tokio::test]
async fn pages_show_each_visitor_only_what_is_theirs() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Private").await;
        let mut ann = Visitor::new(&app);
        ann.join(&lobby, "Ann").await;
        let mut stranger = Visitor::new(&app);
        let play = stranger.get(&format!("/lobbies/{lobby}/play")).await;
        assert_eq!(play.status, StatusCode::UNAUTHORIZED);
        assert!(play.html.contains("This page is for a player"));
        let panel = ann.get(&format!("/lobbies/{lobby}/host")).await;
        assert_eq!(
            panel.status,
            StatusCode::UNAUTHORIZED,
            "a player is not the host"
        );
        assert_eq!(
            host.get(&format!("/lobbies/{lobby}/play")).await.status,
            StatusCode::UNAUTHORIZED
        );

        // Ann's private link carries her to another device.
        let mine = ann.get(&format!("/lobbies/{lobby}/play")).await;
        let link = mine.input_value("private-link").or_else(|| {
            let at = mine.html.find("id=\"private-link\" readonly value=\"")? + 34;
            Some(mine.html[at..at + mine.html[at..].find('"')?].to_owned())
        });
        let link = link.expect("a private link");
        let path = link
            .strip_prefix("http://herald.test")
            .expect("an absolute link");
        let mut phone = Visitor::new(&app);
        let follow = phone.get(path).await;
        assert_eq!(
            (follow.status, follow.location()),
            (
                StatusCode::SEE_OTHER,
                format!("/lobbies/{lobby}/play").as_str()
            )
        );
        assert_eq!(follow.headers["referrer-policy"], "no-referrer");
        let there = phone.get(&format!("/lobbies/{lobby}/play")).await;
        assert_eq!(there.status, StatusCode::OK);
        assert!(there.html.contains("<h1>Ann <span"));
        let forged = phone
            .get(&format!("/lobbies/{lobby}/as/{}", "f".repeat(64)))
            .await;
        assert_eq!(forged.status, StatusCode::NOT_FOUND);

        // A lobby page says who you are, and only to you.
        let as_ann = ann.get(&format!("/lobbies/{lobby}")).await;
        assert!(as_ann.html.contains("You play as <strong>Ann</strong>"));
        let as_host = host.get(&format!("/lobbies/{lobby}")).await;
        assert!(as_host.html.contains("Host panel") && !as_host.html.contains("You play as"));
        let public = stranger.get(&format!("/lobbies/{lobby}")).await;
        assert!(!public.html.contains("You play as") && !public.html.contains("Host panel"));
        assert!(
            !public.html.contains("/as/"),
            "no private link on a public page"
        );

        let nowhere = stranger.get("/lobbies/not-a-lobby").await;
        assert_eq!(nowhere.status, StatusCode::NOT_FOUND);
        assert!(
            nowhere.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
        let unknown = stranger
            .get(&format!("/lobbies/{}", uuid::Uuid::new_v4()))
            .await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    }
}
