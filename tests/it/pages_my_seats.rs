//! A signed-in browser's games on the home page (docs/web.md, "My games, on any device"), with
//! JavaScript off: the seats its profile holds are listed with the your-turn badge, deadline
//! and order of my games, open to be played through the session, and no line holds a private
//! link; a seat the browser also remembers keeps one line.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::json;

use crate::api_profiles::{join_as, profile};
use crate::pages_client::{Page, Visitor};
use crate::support::timed_apps;

/// The "My games" section of a home page ("" if it has none).
fn my_games(page: &Page) -> String {
    let Some(start) = page.html.find("id=\"my-games\"") else {
        return String::new();
    };
    let rest = &page.html[start..];
    rest[..rest.find("</section>").unwrap()].to_owned()
}

#[tokio::test]
async fn a_signed_in_browser_lists_and_opens_the_seats_its_profile_owes() {
    for app in timed_apps().await {
        let (key, _) = profile(&app, "Second Device").await;
        // A game that waits for her answer, with a deadline; a newer one that waits for nobody.
        let settings = json!({"deadline_seconds": 86_400});
        let (owed, host) = app.create_lobby("crossing-swords", settings).await;
        let (_, owed_token) = join_as(&app, &owed, &key, json!({})).await;
        let (_, rival_token) = app.join(&owed, json!({"name": "Rival"})).await;
        app.start(&owed, &host).await;
        app.clock.advance(Duration::from_secs(60));
        let (quiet, _) = app.create_lobby("crossing-swords", json!({})).await;
        let (_, quiet_token) = join_as(&app, &quiet, &key, json!({})).await;

        // A second device holds no game of its own: signed out, no section at all.
        let mut phone = Visitor::new(&app);
        assert_eq!(my_games(&phone.get("/").await), "");
        phone.get(&format!("/me/as/{key}")).await;
        let home = phone.get("/").await;
        let mine = my_games(&home);
        let play = format!("/lobbies/{owed}/play");
        let at_owed = mine.find(&format!("href=\"{play}\"")).expect(&mine);
        let at_quiet = mine
            .find(&format!("href=\"/lobbies/{quiet}/play\""))
            .expect(&mine);
        assert!(at_owed < at_quiet, "its turn first, though older: {mine}");
        assert_eq!(mine.matches("your turn, due ").count(), 1, "{mine}");
        assert!(home.html.contains("(1) Your turn in 1 game"), "the tab");
        for secret in [&key, &owed_token, &rival_token, &quiet_token] {
            assert!(!home.html.contains(secret.as_str()), "a secret on the page");
        }

        // The line opens the seat, played through the session.
        let page = phone.get(&play).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.html);
        assert!(
            page.html.contains("id=\"seat-by-profile\""),
            "{}",
            page.html
        );
        let rival = page.option_for("f-target", "Rival");
        let fields = [
            ("round", "1"),
            ("step", "orders"),
            ("move", "block"),
            ("target", rival.as_str()),
        ];
        let sent = phone.post(&play, &fields).await;
        assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.html);
        let mine = my_games(&phone.get("/").await);
        assert!(!mine.contains("your turn"), "answered: {mine}");
        assert!(mine.contains(&play), "{mine}");

        // A seat the browser remembers too (joined here, signed in) keeps one line.
        let (third, _) = app.create_lobby("crossing-swords", json!({})).await;
        let page = phone.join(&third, "").await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        let mine = my_games(&phone.get("/").await);
        assert_eq!(
            mine.matches(&format!("/lobbies/{third}/")).count(),
            1,
            "{mine}"
        );

        // A substitute takes her seat: it leaves her list.
        let seat = app
            .get(&format!("/api/v1/lobbies/{owed}/me"), Some(&key))
            .await;
        let seat = seat.body["player"]["id"].as_str().unwrap().to_owned();
        let path = format!("/api/v1/lobbies/{owed}/players/{seat}/replace");
        let reply = app.post(&path, Some(&host), json!({"name": "Sub"})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let mine = my_games(&phone.get("/").await);
        assert!(!mine.contains(&owed), "{mine}");
    }
}
