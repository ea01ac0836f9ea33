//! Names in an anonymous lobby (docs/table-talk.md, "Anonymous games", "Names stay unique"):
//! a name that is a profile's handle is the profile's alone there, refused alike whether the
//! profile has joined or not, so that a sign-up cannot learn who sits in the game; a name
//! that is another seat's pseudonym is taken; a free name already given is taken, as in any
//! lobby.

use axum::http::StatusCode;
use serde_json::json;

use crate::api_profiles::profile;
use crate::support::apps;

#[tokio::test]
async fn a_sign_up_under_a_handle_cannot_tell_whether_its_profile_has_joined() {
    for app in apps().await {
        let (lobby, host) = app
            .create_lobby("crossing-swords", json!({"anonymous": true}))
            .await;
        let base = format!("/api/v1/lobbies/{lobby}");
        let (key, _) = profile(&app, "Probed-Q").await;
        let players = format!("{base}/players");
        let probe = || app.post(&players, None, json!({"name": "Probed-Q"}));
        let before = probe().await;
        assert_eq!(
            (before.status, before.code()),
            (StatusCode::CONFLICT, "handle-reserved"),
            "{}",
            before.text
        );
        let joined = app.post(&players, Some(&key), json!({})).await;
        assert_eq!(joined.status, StatusCode::CREATED, "{}", joined.text);
        let after = probe().await;
        assert_eq!(
            (after.status, after.text.as_str()),
            (before.status, before.text.as_str()),
            "the same answer, joined or not"
        );
        // Nor may the host name a substitute after it.
        let (ann, _) = app.join(&lobby, json!({"name": "Annis-Q"})).await;
        app.join(&lobby, json!({"name": "Berin-Q"})).await;
        app.start(&lobby, &host).await;
        let sub = app
            .post(
                &format!("{base}/players/{ann}/replace"),
                Some(&host),
                json!({"name": "probed-q"}),
            )
            .await;
        assert_eq!(sub.code(), "handle-reserved", "{}", sub.text);
    }
}

#[tokio::test]
async fn outside_an_anonymous_lobby_a_handle_is_a_name_like_any_other() {
    for app in apps().await {
        let (lobby, _) = app.create_lobby("crossing-swords", json!({})).await;
        profile(&app, "Plain-Q").await;
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/players"),
                None,
                json!({"name": "Plain-Q"}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    }
}

#[tokio::test]
async fn a_name_that_is_another_seat_s_pseudonym_is_taken() {
    for app in apps().await {
        let (lobby, _) = app
            .create_lobby("crossing-swords", json!({"anonymous": true}))
            .await;
        let base = format!("/api/v1/lobbies/{lobby}/players");
        app.join(&lobby, json!({"name": "Carys-Q"})).await;
        app.join(&lobby, json!({"name": "Dafydd-Q"})).await;
        for name in ["Player 2", "player 1", "PLAYER 2"] {
            let reply = app.post(&base, None, json!({"name": name})).await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::CONFLICT, "name-taken"),
                "{}: {name}: {}",
                app.backend,
                reply.text
            );
        }
    }
}
