//! The host panel's controls over people and the game's end, and a player leaving, through the
//! pages (no browser): forms, confirmations the server checks, and old links and cookies that
//! stop working after a substitute or a new link.

use axum::http::StatusCode;
use serde_json::Value;

use crate::pages_client::{Visitor, unescape};
use crate::support::{TestApp, apps};

async fn view(app: &TestApp, lobby: &str) -> Value {
    app.get(&format!("/api/v1/lobbies/{lobby}"), None)
        .await
        .body
}

fn player_id(view: &Value, name: &str) -> String {
    view["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .unwrap()
}

/// The private link a page shows in its `new-link` field.
fn shown_link(html: &str) -> String {
    link_in(html, "new-link")
}

/// The path of the private link a page shows in the input with this id.
fn link_in(html: &str, id: &str) -> String {
    let start = html.find(&format!("id=\"{id}\"")).expect("a link is shown");
    let value = &html[start..];
    let value = &value[value.find("value=\"").unwrap() + 7..];
    let link = unescape(&value[..value.find('"').unwrap()]);
    link.strip_prefix("http://herald.test").unwrap().to_owned()
}

#[tokio::test]
async fn before_the_start_the_host_removes_a_sign_up_reopens_sign_ups_and_a_player_leaves() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Friday melee").await;
        let (mut ann, mut bob) = (Visitor::new(&app), Visitor::new(&app));
        ann.join(&lobby, "Ann").await;
        bob.join(&lobby, "Bob").await;
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        let bob_id = player_id(&view(&app, &lobby).await, "Bob");
        assert!(
            panel
                .html
                .contains(&format!("/host/players/{bob_id}/remove")),
            "{}",
            panel.html
        );
        assert!(!panel.html.contains("Reopen sign-ups"));

        // A player cannot use the host's forms.
        let refused = ann
            .post(
                &format!("/lobbies/{lobby}/host/players/{bob_id}/remove"),
                &[],
            )
            .await;
        assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", app.backend);

        let removed = host
            .post(
                &format!("/lobbies/{lobby}/host/players/{bob_id}/remove"),
                &[],
            )
            .await;
        assert_eq!(
            (removed.status, removed.location()),
            (
                StatusCode::SEE_OTHER,
                format!("/lobbies/{lobby}/host").as_str()
            )
        );
        assert_eq!(
            view(&app, &lobby).await["players"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
        assert_eq!(
            bob.get(&format!("/lobbies/{lobby}/play")).await.status,
            StatusCode::UNAUTHORIZED
        );

        host.post(&format!("/lobbies/{lobby}/host/close-signups"), &[])
            .await;
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(panel.html.contains("Reopen sign-ups"));
        let reopened = host
            .post(&format!("/lobbies/{lobby}/host/reopen-signups"), &[])
            .await;
        assert_eq!(reopened.status, StatusCode::SEE_OTHER);
        assert_eq!(view(&app, &lobby).await["status"], "signups");

        let page = ann.get(&format!("/lobbies/{lobby}/play")).await;
        assert!(page.html.contains("Leave this lobby"));
        let left = ann.post(&format!("/lobbies/{lobby}/leave"), &[]).await;
        assert_eq!(
            (left.status, left.location()),
            (StatusCode::SEE_OTHER, format!("/lobbies/{lobby}").as_str())
        );
        assert!(
            left.set_cookies()
                .iter()
                .any(|c| c.starts_with("herald_player_") && c.contains("Max-Age=0"))
        );
        assert_eq!(
            ann.get(&format!("/lobbies/{lobby}/play")).await.status,
            StatusCode::UNAUTHORIZED
        );
        assert!(
            view(&app, &lobby).await["players"]
                .as_array()
                .unwrap()
                .is_empty()
        );
    }
}

#[tokio::test]
async fn a_new_link_is_shown_once_and_the_old_link_and_cookie_stop_working() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Friday melee").await;
        let (mut ann, mut bob) = (Visitor::new(&app), Visitor::new(&app));
        ann.join(&lobby, "Ann").await;
        bob.join(&lobby, "Bob").await;
        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        let bob_page = bob.get(&format!("/lobbies/{lobby}/play")).await;
        let old_link = link_in(&bob_page.html, "private-link");
        let bob_id = player_id(&view(&app, &lobby).await, "Bob");
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(
            panel
                .html
                .contains(&format!("/host/players/{bob_id}/reissue"))
        );
        assert!(panel.html.contains(&format!("/host/players/{bob_id}/kick")));
        assert!(panel.html.contains("/host/end"));

        let issued = host
            .post(
                &format!("/lobbies/{lobby}/host/players/{bob_id}/reissue"),
                &[],
            )
            .await;
        assert_eq!(issued.status, StatusCode::OK, "{}", issued.html);
        let link = shown_link(&issued.html);
        assert_ne!(link, old_link);
        assert_eq!(
            bob.get(&format!("/lobbies/{lobby}/play")).await.status,
            StatusCode::UNAUTHORIZED,
            "the old cookie"
        );
        assert_eq!(
            Visitor::new(&app).get(&old_link).await.status,
            StatusCode::NOT_FOUND,
            "the old link"
        );
        let mut device = Visitor::new(&app);
        let followed = device.get(&link).await;
        assert_eq!(followed.status, StatusCode::SEE_OTHER);
        let page = device.get(&format!("/lobbies/{lobby}/play")).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.html.contains("<h1>Bob <span"), "{}", page.html);

        // A substitute: a name, then the new link; the seat plays on under the new name.
        let refused = host
            .post(
                &format!("/lobbies/{lobby}/host/players/{bob_id}/replace"),
                &[("name", "ann")],
            )
            .await;
        assert_eq!(refused.status, StatusCode::CONFLICT);
        assert!(refused.html.contains("already called"), "{}", refused.html);
        let replaced = host
            .post(
                &format!("/lobbies/{lobby}/host/players/{bob_id}/replace"),
                &[("name", "Zed")],
            )
            .await;
        assert_eq!(replaced.status, StatusCode::OK, "{}", replaced.html);
        assert!(replaced.html.contains("Zed takes the seat"));
        let zed_link = shown_link(&replaced.html);
        // Bob's browser is told what happened, not to open the link he already opened.
        let gone = device.get(&format!("/lobbies/{lobby}/play")).await;
        assert_eq!(gone.status, StatusCode::UNAUTHORIZED);
        assert!(
            gone.html.contains("given your seat to a substitute")
                && !gone.html.contains("open the private link you were given"),
            "{}",
            gone.html
        );
        let mut zed = Visitor::new(&app);
        zed.get(&zed_link).await;
        assert!(
            zed.get(&format!("/lobbies/{lobby}/play"))
                .await
                .html
                .contains("<h1>Zed <span")
        );
    }
}

#[tokio::test]
async fn a_kick_and_an_end_need_the_host_to_be_sure() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby("Friday melee").await;
        for name in ["Ann", "Bob", "Cat"] {
            Visitor::new(&app).join(&lobby, name).await;
        }
        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        let cat = player_id(&view(&app, &lobby).await, "Cat");
        let kick = format!("/lobbies/{lobby}/host/players/{cat}/kick");
        let unsure = host.post(&kick, &[]).await;
        assert_eq!(
            unsure.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            app.backend
        );
        assert!(unsure.html.contains("I am sure"), "{}", unsure.html);
        assert!(
            view(&app, &lobby).await["players"][2]["alive"] == true,
            "nothing changed"
        );
        let kicked = host.post(&kick, &[("confirm", "yes")]).await;
        assert_eq!(kicked.status, StatusCode::SEE_OTHER, "{}", kicked.html);
        assert_eq!(view(&app, &lobby).await["players"][2]["alive"], false);

        let end = format!("/lobbies/{lobby}/host/end");
        let unsure = host.post(&end, &[]).await;
        assert_eq!(unsure.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(view(&app, &lobby).await["status"], "running");
        let ended = host.post(&end, &[("confirm", "yes")]).await;
        assert_eq!(ended.status, StatusCode::SEE_OTHER, "{}", ended.html);
        let finished = view(&app, &lobby).await;
        assert_eq!(
            (
                finished["status"].as_str(),
                finished["result"]["reason"].as_str()
            ),
            (Some("finished"), Some("ended-by-host"))
        );
        let page = Visitor::new(&app).get(&format!("/lobbies/{lobby}")).await;
        assert!(page.html.contains("Seed (to replay the game)"));
        let late = host.post(&end, &[("confirm", "yes")]).await;
        assert_eq!(late.status, StatusCode::CONFLICT);
    }
}

#[tokio::test]
async fn the_host_ends_a_duel_with_the_result_chosen_on_the_panel() {
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let created = host
            .post("/lobbies", &[("game", "bst"), ("name", "Duel")])
            .await;
        assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.html);
        let lobby = created.location().split('/').nth(2).unwrap().to_owned();
        for name in ["Ann", "Bob"] {
            let joined = Visitor::new(&app)
                .post(
                    &format!("/lobbies/{lobby}/join"),
                    &[("name", name), ("character", "sellsword")],
                )
                .await;
            assert_eq!(joined.status, StatusCode::SEE_OTHER, "{}", joined.html);
        }
        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        let panel = host.get(&format!("/lobbies/{lobby}/host")).await;
        assert!(panel.html.contains("name=\"result\" value=\"draw\""));
        let bob = player_id(&view(&app, &lobby).await, "Bob");
        let ended = host
            .post(
                &format!("/lobbies/{lobby}/host/end"),
                &[("result", bob.as_str()), ("confirm", "yes")],
            )
            .await;
        assert_eq!(ended.status, StatusCode::SEE_OTHER, "{}", ended.html);
        let finished = view(&app, &lobby).await;
        assert_eq!(finished["result"]["winners"][0], bob.as_str());
    }
}
