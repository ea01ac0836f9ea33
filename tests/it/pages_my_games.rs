//! My games across lobbies on the home page, carried to another device by a link
//! (docs/web.md), with JavaScript off: in-process pages on every backend.

use std::time::Duration;

use axum::http::StatusCode;
use sqlx::Connection;

use herald::host::auth::hash_token;
use herald::store::retention::Retention;

use crate::pages_client::{Page, Visitor};
use crate::support::{TestApp, manual_apps};

const T0: i64 = 1_800_000_000_000;

/// The "My games" section of a home page ("" if it has none).
fn my_games(page: &Page) -> String {
    let Some(start) = page.html.find("id=\"my-games\"") else {
        return String::new();
    };
    let rest = &page.html[start..];
    rest[..rest.find("</section>").unwrap()].to_owned()
}

/// Rows of my_games that hold `text` in any column.
async fn my_game_rows(app: &TestApp, text: &str) -> i64 {
    let mut conn = sqlx::AnyConnection::connect(&app.url).await.unwrap();
    let (n,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM my_games WHERE key_hash = $1 OR lobby_id = $1 OR role = $1",
    )
    .bind(text)
    .fetch_one(&mut conn)
    .await
    .unwrap();
    n
}

#[tokio::test]
async fn my_games_are_listed_across_lobbies_and_carried_to_another_device() {
    for app in manual_apps(T0).await {
        let mut ann = Visitor::new(&app);
        let mut cleo = Visitor::new(&app);
        assert_eq!(my_games(&ann.get("/").await), "", "no games, no section");
        let hosted = ann.create_lobby("Ann hosts").await;
        let other = cleo.create_lobby("Cleo hosts").await;
        assert_eq!(ann.join(&other, "Ann").await.status, StatusCode::SEE_OTHER);
        let key = ann.cookies["herald_me"].clone();
        assert_eq!(key.len(), 64);

        let home = ann.get("/").await;
        let mine = my_games(&home);
        assert!(
            mine.contains("Ann hosts") && mine.contains("Cleo hosts"),
            "{mine}"
        );
        assert!(
            mine.contains(&format!("href=\"/lobbies/{hosted}/host\"")),
            "{mine}"
        );
        assert!(
            mine.contains(&format!("href=\"/lobbies/{other}/play\"")),
            "{mine}"
        );
        assert!(mine.contains("you host") && mine.contains("you play"));
        assert!(
            !home.html.contains(&key),
            "the key is never on the home page"
        );
        // Cleo's own list has only her lobby; a stranger has none.
        let cleos = my_games(&cleo.get("/").await);
        assert!(
            cleos.contains("Cleo hosts") && !cleos.contains("Ann hosts"),
            "{cleos}"
        );
        assert_eq!(my_games(&Visitor::new(&app).get("/").await), "");

        // The key is stored hashed, never in clear, with no lobby token.
        assert_eq!(my_game_rows(&app, &key).await, 0);
        assert_eq!(my_game_rows(&app, &hash_token(&key)).await, 2);

        // The carry link: only from our own form, and only for a browser with games.
        let forged = ann.post_raw("/my-games/carry", &[]).await;
        assert_eq!(forged.status, StatusCode::FORBIDDEN);
        assert!(!forged.html.contains(&key));
        let none = Visitor::new(&app).post("/my-games/carry", &[]).await;
        assert_eq!(none.status, StatusCode::NOT_FOUND);
        let carry = ann.post("/my-games/carry", &[]).await;
        assert_eq!(carry.status, StatusCode::OK, "{}", carry.html);
        let link = carry.input_value("carry-link").expect("the carry link");
        assert_eq!(link, format!("http://herald.test/my-games/as/{key}"));
        for page in [
            format!("/lobbies/{hosted}"),
            format!("/lobbies/{hosted}/host"),
            format!("/lobbies/{other}/play"),
        ] {
            assert!(!ann.get(&page).await.html.contains(&key), "{page}");
        }

        // Another device that already had a game keeps it and gains Ann's.
        let mut phone = Visitor::new(&app);
        let own = phone.create_lobby("Phone's own").await;
        let arrived = phone.get(&format!("/my-games/as/{key}")).await;
        assert_eq!(arrived.status, StatusCode::SEE_OTHER);
        assert_eq!(arrived.location(), "/?carried=1#my-games");
        assert_eq!(phone.cookies["herald_me"], key);
        let home = phone.get("/?carried=1").await;
        let mine = my_games(&home);
        for name in ["Ann hosts", "Cleo hosts", "Phone's own"] {
            assert!(
                mine.contains(&crate::pages_client::escape(name)),
                "{name}: {mine}"
            );
        }
        assert!(mine.contains("carried-notice"));
        assert!(my_games(&ann.get("/").await).contains(&format!("/lobbies/{own}/host")));
        // The list is carried, not the lobbies' tokens: acting still takes the private link.
        let panel = phone.get(&format!("/lobbies/{hosted}/host")).await;
        assert_eq!(panel.status, StatusCode::UNAUTHORIZED, "{}", panel.html);

        // Mistyped or unknown keys carry nothing.
        for bad in ["abc", &"0".repeat(64), &format!("{}x", &key[..63])] {
            let mut stranger = Visitor::new(&app);
            let page = stranger.get(&format!("/my-games/as/{bad}")).await;
            assert_eq!(page.status, StatusCode::NOT_FOUND, "{bad}");
            assert!(!stranger.cookies.contains_key("herald_me"));
        }

        // A player who leaves the lobby no longer lists it.
        let mut dan = Visitor::new(&app);
        dan.join(&hosted, "Dan").await;
        assert!(my_games(&dan.get("/").await).contains("Ann hosts"));
        let left = dan.post(&format!("/lobbies/{hosted}/leave"), &[]).await;
        assert_eq!(left.status, StatusCode::SEE_OTHER, "{}", left.html);
        assert_eq!(my_games(&dan.get("/").await), "");

        // Forgetting clears this device only.
        let forgot = phone.post("/my-games/forget", &[]).await;
        assert_eq!(forgot.status, StatusCode::SEE_OTHER);
        assert_eq!(my_games(&phone.get("/").await), "");
        assert!(my_games(&ann.get("/").await).contains("Ann hosts"));
    }
}

#[tokio::test]
async fn my_games_go_with_their_lobby_when_retention_deletes_it() {
    for app in manual_apps(T0).await {
        let mut ann = Visitor::new(&app);
        let lobby = ann.create_lobby("Never started").await;
        assert_eq!(my_game_rows(&app, &lobby).await, 1);
        app.clock.advance(Duration::from_secs(8 * 24 * 3600));
        let policy = Retention {
            unstarted_days: Some(7),
            finished_days: None,
            every: Duration::from_secs(3600),
        };
        let swept = app
            .store
            .sweep(&policy, app.clock.now_millis())
            .await
            .unwrap();
        assert_eq!(swept.unstarted, 1);
        assert_eq!(my_game_rows(&app, &lobby).await, 0);
        assert_eq!(my_games(&ann.get("/").await), "");
    }
}
