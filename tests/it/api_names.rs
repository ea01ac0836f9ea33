//! Names read as what they are: stored in NFC with whitespace collapsed, refused when they hold
//! bidirectional controls, zero-width or other format characters, or nothing visible, and
//! unique in a lobby however they are cased or disguised with look-alike letters.

use axum::http::StatusCode;
use serde_json::json;

use crate::support::apps;

#[tokio::test]
async fn names_are_normalised_and_invisible_or_reordering_characters_refused() {
    for app in apps().await {
        let (lobby, _) = app.create_lobby("crossing-swords", json!({})).await;
        let players = format!("/api/v1/lobbies/{lobby}/players");
        let join = |name: &str| app.post(&players, None, json!({"name": name}));
        for (name, why) in [
            ("\u{200b}", "only a zero-width space"),
            ("A\u{200b}nn", "a zero-width space inside"),
            ("\u{2060}Ann", "a word joiner"),
            ("Ann\u{202e}ttam", "a right-to-left override"),
            ("\u{2066}Bob\u{2069}", "a bidi isolate"),
            ("\u{3164}", "a Hangul filler alone"),
            (" \u{2800} ", "a blank Braille cell"),
            ("Ann\u{7}", "a control character"),
            (&"x".repeat(41), "41 characters"),
        ] {
            let reply = join(name).await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::UNPROCESSABLE_ENTITY, "invalid-name"),
                "{}: {why}: {}",
                app.backend,
                reply.text
            );
            assert!(
                reply.body["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("player name")
            );
        }
        let reply = join("  Zoe\u{301}   la\tGrande ").await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(
            view["players"][0]["name"], "Zo\u{e9} la Grande",
            "NFC, collapsed"
        );
        // 40 decomposed é are 80 code points but 40 characters once composed.
        let reply = join(&"e\u{301}".repeat(40)).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);

        let reply = app
            .post(
                "/api/v1/lobbies",
                None,
                json!({"game": "crossing-swords", "name": "\u{202e}gnirts"}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            reply.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("lobby name")
        );
    }
}

#[tokio::test]
async fn case_nfd_and_confusable_twins_of_a_seated_name_are_taken() {
    for app in apps().await {
        let (lobby, _) = app
            .create_lobby("crossing-swords", json!({"max_players": 16}))
            .await;
        let players = format!("/api/v1/lobbies/{lobby}/players");
        for name in ["Ann", "Zo\u{e9}", "Il"] {
            app.join(&lobby, json!({"name": name})).await;
        }
        for (twin, of) in [
            ("ann", "Ann"),
            ("ANN", "Ann"),
            ("\u{410}nn", "Ann, with a Cyrillic A"),
            ("\u{430}nn", "Ann, with a Cyrillic a"),
            ("Zoe\u{301}", "Zoé, decomposed"),
            ("ZO\u{c9}", "Zoé, capitals"),
            ("lI", "Il, l and I swapped"),
            ("I1", "Il, a digit one for the l"),
        ] {
            let reply = app.post(&players, None, json!({"name": twin})).await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::CONFLICT, "name-taken"),
                "{}: {twin:?} is {of}: {}",
                app.backend,
                reply.text
            );
        }
        for other in ["Anne", "Zoë", "\u{410}\u{43d}\u{43d}"] {
            let reply = app.post(&players, None, json!({"name": other})).await;
            assert_eq!(
                reply.status,
                StatusCode::CREATED,
                "{other:?}: {}",
                reply.text
            );
        }
    }
}

/// A join compares the newcomer with each seat's name as it is now: a seat taken over by a
/// substitute during sign-ups frees its old name and holds the new one, even after earlier
/// joins have compared with the old (the writer keeps each seat's key between writes).
#[tokio::test]
async fn a_join_after_a_substitute_compares_with_the_seats_new_name() {
    for app in apps().await {
        let (lobby, host) = app
            .create_lobby("crossing-swords", json!({"max_players": 16}))
            .await;
        let players = format!("/api/v1/lobbies/{lobby}/players");
        app.join(&lobby, json!({"name": "Ann"})).await;
        let (bob, _) = app.join(&lobby, json!({"name": "Bob"})).await;
        // This join compares with Ann and Bob, so both keys are worked out before Bob goes.
        app.join(&lobby, json!({"name": "Cat"})).await;
        let replace = format!("{players}/{bob}/replace");
        let reply = app
            .post(&replace, Some(&host), json!({"name": "Zed"}))
            .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{}: {}",
            app.backend,
            reply.text
        );

        let reply = app.post(&players, None, json!({"name": "zed"})).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::CONFLICT, "name-taken"),
            "{}: the substitute's name is taken: {}",
            app.backend,
            reply.text
        );
        let reply = app.post(&players, None, json!({"name": "BOB"})).await;
        assert_eq!(
            reply.status,
            StatusCode::CREATED,
            "{}: the name the substitute replaced is free: {}",
            app.backend,
            reply.text
        );
    }
}

/// One rule names every seat, whoever names it: a join, a substitute's rename (and a new
/// link, which keeps the name) all compare the name's confusable key with every other seat's,
/// so a substitute called `Аnn` (a Cyrillic А) beside Ann is refused as a joiner would be.
#[tokio::test]
async fn a_substitutes_name_takes_the_same_confusable_rule_as_a_join() {
    for app in apps().await {
        let (lobby, host) = app
            .create_lobby("crossing-swords", json!({"max_players": 16}))
            .await;
        let players = format!("/api/v1/lobbies/{lobby}/players");
        let (ann, _) = app.join(&lobby, json!({"name": "Ann"})).await;
        let (bob, _) = app.join(&lobby, json!({"name": "Bob"})).await;
        app.join(&lobby, json!({"name": "Il"})).await;
        let replace = format!("{players}/{bob}/replace");
        let taken = |reply: &crate::support::Reply, what: &str| {
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::CONFLICT, "name-taken"),
                "{}: {what}: {}",
                app.backend,
                reply.text
            );
        };
        let accepted = |reply: &crate::support::Reply| {
            assert_eq!(
                reply.status,
                StatusCode::OK,
                "{}: {}",
                app.backend,
                reply.text
            );
        };
        for twin in ["\u{410}nn", "\u{430}NN", "ANN", "I1", "lI"] {
            let reply = app.post(&replace, Some(&host), json!({"name": twin})).await;
            taken(&reply, &format!("a substitute called {twin:?}"));
        }
        // The seat being renamed has no claim on its own name: a twin of Bob may take it.
        let reply = app
            .post(&replace, Some(&host), json!({"name": "\u{412}\u{43e}b"}))
            .await;
        accepted(&reply);
        // A join compares with the substitute's name by the same key.
        let reply = app.post(&players, None, json!({"name": "BOB"})).await;
        taken(&reply, "a joiner called BOB beside the substitute Вob");

        // A new link keeps the name, and the rule holds for it after.
        let reissue = format!("{players}/{ann}/reissue");
        let reply = app.post(&reissue, Some(&host), json!({})).await;
        accepted(&reply);
        let reply = app.post(&players, None, json!({"name": "\u{410}nn"})).await;
        taken(&reply, "a joiner called Аnn after Ann's new link");
        let reply = app
            .post(&replace, Some(&host), json!({"name": "ann"}))
            .await;
        taken(&reply, "a substitute called ann after Ann's new link");

        // The names as they are now, after the same rule cleaned them.
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        let names: Vec<&str> = view["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["Ann", "\u{412}\u{43e}b", "Il"], "{}", app.backend);
        // A substitute's name is cleaned as a joiner's is.
        let reply = app
            .post(
                &replace,
                Some(&host),
                json!({"name": "  Zo\u{65}\u{301}\t "}),
            )
            .await;
        accepted(&reply);
        let reply = app.post(&players, None, json!({"name": "ZO\u{c9}"})).await;
        taken(&reply, "a joiner called ZOÉ beside the substitute Zoé");
    }
}
