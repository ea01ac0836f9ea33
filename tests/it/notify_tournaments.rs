//! A tournament director's webhooks against real local receivers (docs/notifications.md,
//! "Tournament webhooks"): one signed delivery per round paired and one at the end, exactly
//! once when two requests race to pair a round and when the scheduler's deadline pairs it; a
//! Discord body in words; the routes' refusals.

use std::collections::HashSet;
use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::api_profiles::profile;
use crate::api_tournaments::{Tournament, create, finish_round, view};
use crate::notify_receivers::{Behaviour, Receiver, settings, settle};
use crate::notify_webhooks::verify;
use crate::support::{TestApp, notify_apps};

/// Adds a webhook to the tournament as its director: (its id, its secret or null).
pub async fn add_hook(app: &TestApp, t: &Tournament, url: &str, format: &str) -> (String, Value) {
    let reply = app
        .post(
            &format!("/api/v1/tournaments/{}/webhooks", t.id),
            Some(&t.director),
            json!({"url": url, "format": format, "events": ["round-started", "finished"]}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    (
        reply.body["id"].as_str().unwrap().to_string(),
        reply.body["secret"].clone(),
    )
}

/// Profiles `{prefix}1`.. entered in order.
async fn enter_all(app: &TestApp, t: &Tournament, prefix: &str, n: usize) {
    for i in 1..=n {
        let (key, _) = profile(app, &format!("{prefix}{i}")).await;
        let reply = app
            .post(
                &format!("/api/v1/tournaments/{}/entrants", t.id),
                Some(&key),
                json!({}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    }
}

async fn next_round(app: &TestApp, t: &Tournament) -> crate::support::Reply {
    app.post(
        &format!("/api/v1/tournaments/{}/rounds", t.id),
        Some(&t.director),
        json!({}),
    )
    .await
}

/// Checks every message's signature and that no delivery id repeats; their bodies in the
/// order of their events (each delivery is sent by a task of its own, so two may arrive in
/// either order).
fn signed_bodies(got: &[crate::notify_receivers::Received], secret: &str) -> Vec<Value> {
    let mut ids = HashSet::new();
    let mut bodies: Vec<Value> = got
        .iter()
        .map(|m| {
            let id = m.header("webhook-id");
            assert!(
                verify(
                    secret,
                    id,
                    m.header("webhook-timestamp"),
                    &m.body,
                    m.header("webhook-signature")
                ),
                "the signature of {id}"
            );
            assert!(ids.insert(id.to_string()), "delivery {id} came twice");
            m.json()
        })
        .collect();
    bodies.sort_by_key(|b| b["data"]["event"]["seq"].as_i64());
    bodies
}

#[tokio::test]
async fn a_swiss_announces_each_round_once_and_its_end_signed() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let t = create(
            &app,
            json!({"game": "bst", "name": "Winter Swiss", "format": "swiss", "rounds": 2,
                   "settings": {"deadline_seconds": 3600}}),
        )
        .await;
        let (_, secret) = add_hook(&app, &t, &receiver.url, "standard").await;
        let secret = secret.as_str().expect("a standard secret").to_string();
        enter_all(&app, &t, "ws", 3).await;

        // Two requests race to pair round 1: one pairs it, and it is announced once.
        let (a, b) = tokio::join!(next_round(&app, &t), next_round(&app, &t));
        let statuses = [a.status, b.status];
        assert!(statuses.contains(&StatusCode::CREATED), "{statuses:?}");
        receiver.wait_for(1).await;
        finish_round(&app, &t).await;
        let (a, b) = tokio::join!(next_round(&app, &t), next_round(&app, &t));
        assert!(
            [a.status, b.status].contains(&StatusCode::CREATED),
            "{} {}",
            a.text,
            b.text
        );
        finish_round(&app, &t).await;
        let v = view(&app, &t).await;
        assert_eq!(v["status"], "finished", "{v}");

        receiver.wait_for(3).await;
        settle().await;
        let bodies = signed_bodies(&receiver.got(), &secret);
        assert_eq!(
            bodies.len(),
            3,
            "{}: two rounds and the end, once each",
            app.backend
        );
        let types: Vec<&str> = bodies.iter().map(|b| b["type"].as_str().unwrap()).collect();
        assert_eq!(
            types,
            [
                "tournament.round-started",
                "tournament.round-started",
                "tournament.finished"
            ]
        );
        for (n, body) in bodies[..2].iter().enumerate() {
            let data = &body["data"]["event"]["data"];
            let round = &v["rounds"][n];
            assert_eq!(data["round"], n as i64 + 1);
            assert_eq!(data["rounds_total"], 2);
            assert_eq!(data["byes"], round["byes"], "{data}");
            let lobbies: Vec<&Value> = round["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| &g["lobby"])
                .collect();
            let announced: Vec<&Value> = data["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| &g["lobby"])
                .collect();
            assert_eq!(announced, lobbies);
            assert_eq!(data["games"][0]["players"], round["games"][0]["players"]);
            assert_eq!(body["data"]["tournament"]["id"], t.id.as_str());
            assert_eq!(
                body["data"]["tournament"]["url"],
                format!("http://herald.test/tournaments/{}", t.id)
            );
            let summary = body["data"]["summary"].as_str().unwrap();
            let lobby = round["games"][0]["lobby"].as_str().unwrap();
            assert!(
                summary.contains(&format!("(http://herald.test/lobbies/{lobby})")),
                "{summary}"
            );
            assert!(
                summary.contains("First answers are due by 2026-12-01 01:00 UTC."),
                "{summary}"
            );
        }
        let end = &bodies[2]["data"];
        assert_eq!(end["event"]["data"]["standings"], v["standings"]);
        let winner = v["standings"][0]["handle"].as_str().unwrap();
        assert_eq!(
            end["title"],
            format!("Winter Swiss is over. Winner: {winner}.")
        );

        // The director sees each delivery.
        let list = app
            .get(
                &format!("/api/v1/tournaments/{}/webhooks", t.id),
                Some(&t.director),
            )
            .await;
        assert_eq!(list.status, StatusCode::OK, "{}", list.text);
        let deliveries = list.body["webhooks"][0]["deliveries"].as_array().unwrap();
        assert_eq!(deliveries.len(), 3);
        assert!(deliveries.iter().all(|d| d["status"] == 204), "{list:?}");
        assert_eq!(list.body["webhooks"][0]["target"], {
            let url = url::Url::parse(&receiver.url).unwrap();
            format!("http://127.0.0.1:{}/…", url.port().unwrap())
        });
    }
}

#[tokio::test]
async fn the_scheduler_pairs_an_automatic_round_and_it_is_announced_once() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let t = create(
            &app,
            json!({"game": "bst", "name": "Night Swiss", "format": "swiss", "rounds": 2,
                   "auto_rounds": true,
                   "settings": {"seed": 3, "max_rounds": 1, "deadline_seconds": 60,
                                "decision_deadline_seconds": 5}}),
        )
        .await;
        let (_, secret) = add_hook(&app, &t, &receiver.url, "standard").await;
        enter_all(&app, &t, "ns", 2).await;
        assert_eq!(next_round(&app, &t).await.status, StatusCode::CREATED);
        // Nobody answers: each deadline plays the defaults, the one-round game ends, and
        // the scheduler's change that ends it pairs the next round, then the end.
        for round in 1..=2 {
            app.clock.advance(Duration::from_secs(60));
            for _ in 0..200 {
                let v = view(&app, &t).await;
                if v["round"].as_i64() > Some(round) || v["status"] == "finished" {
                    break;
                }
                app.clock.advance(Duration::from_secs(5));
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        let v = view(&app, &t).await;
        assert_eq!(v["status"], "finished", "{}: {v}", app.backend);
        receiver.wait_for(3).await;
        settle().await;
        let bodies = signed_bodies(&receiver.got(), secret.as_str().unwrap());
        let kinds: Vec<(&str, &Value)> = bodies
            .iter()
            .map(|b| {
                (
                    b["type"].as_str().unwrap(),
                    &b["data"]["event"]["data"]["round"],
                )
            })
            .collect();
        assert_eq!(
            kinds,
            [
                ("tournament.round-started", &json!(1)),
                ("tournament.round-started", &json!(2)),
                ("tournament.finished", &Value::Null),
            ],
            "{}",
            app.backend
        );
    }
}

#[tokio::test]
async fn a_discord_webhook_gets_the_pairings_and_the_standings_in_words() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let t = create(
            &app,
            json!({"game": "bst", "name": "Duel Cup", "format": "swiss", "rounds": 1}),
        )
        .await;
        let (_, secret) = add_hook(&app, &t, &receiver.url, "discord").await;
        assert_eq!(secret, Value::Null, "Discord's URL is its secret");
        enter_all(&app, &t, "dc", 3).await;
        assert_eq!(next_round(&app, &t).await.status, StatusCode::CREATED);
        let v = view(&app, &t).await;
        let game = &v["rounds"][0]["games"][0];
        let (a, b) = (&game["players"][0], &game["players"][1]);
        let bye = v["rounds"][0]["byes"][0].as_str().unwrap();
        let lobby = game["lobby"].as_str().unwrap();
        finish_round(&app, &t).await;
        receiver.wait_for(2).await;
        settle().await;
        // Each delivery is sent by a task of its own, so the two may arrive in either order:
        // the round's pairing is put first.
        let mut got: Vec<Value> = receiver.got().iter().map(|m| m.json()).collect();
        assert_eq!(got.len(), 2);
        got.sort_by_key(|body| !body["content"].as_str().unwrap().ends_with("is paired"));
        let round = &got[0];
        assert_eq!(round["content"], "Duel Cup: round 1 of 1 is paired");
        assert_eq!(
            round["embeds"][0]["description"],
            format!(
                "Pairings for round 1 of 1:\nGame 1: {} vs. {} (http://herald.test/lobbies/{lobby})\n\
                 Bye: {bye}.\nNo deadline: each game moves on once every answer is in.",
                a.as_str().unwrap(),
                b.as_str().unwrap()
            )
        );
        assert_eq!(round["allowed_mentions"]["parse"], json!([]));
        let end = &got[1];
        // The game's winner and the bye share first place, a point each.
        let v = view(&app, &t).await;
        let mut first = [a.as_str().unwrap(), bye];
        first.sort_unstable();
        let (one, two) = (first[0], first[1]);
        assert_eq!(
            end["content"],
            format!("Duel Cup is over. Winners: {one} and {two}.")
        );
        let text = end["embeds"][0]["description"].as_str().unwrap();
        assert!(
            text.starts_with(&format!(
                "Final standings:\n1. {one}, 1 point\n1. {two}, 1 point\n"
            )),
            "{text} {v}"
        );
        assert_eq!(end["embeds"][0]["footer"]["text"], "Herald · Duel Cup");
        assert_eq!(
            end["embeds"][0]["url"],
            format!("http://herald.test/tournaments/{}", t.id)
        );
    }
}

#[tokio::test]
async fn an_anonymous_tournament_names_seats_not_handles_in_its_pairings() {
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let t = create(
            &app,
            json!({"game": "bst", "name": "Masked", "format": "swiss", "rounds": 1,
                   "settings": {"anonymous": true}}),
        )
        .await;
        add_hook(&app, &t, &receiver.url, "standard").await;
        enter_all(&app, &t, "mask", 2).await;
        assert_eq!(next_round(&app, &t).await.status, StatusCode::CREATED);
        let got = receiver.wait_for(1).await;
        let text = String::from_utf8(got[0].body.to_vec()).unwrap();
        assert!(!text.contains("mask1") && !text.contains("mask2"), "{text}");
        assert_eq!(
            got[0].json()["data"]["event"]["data"]["games"][0]["players"],
            json!(["Player 1", "Player 2"])
        );
    }
}

#[tokio::test]
async fn only_the_director_sets_webhooks_and_refusals_say_why() {
    for app in notify_apps(settings()).await {
        let t = create(
            &app,
            json!({"game": "bst", "name": "Guarded", "format": "swiss", "rounds": 1}),
        )
        .await;
        let path = format!("/api/v1/tournaments/{}/webhooks", t.id);
        let body = json!({"url": "http://127.0.0.1:9/h", "format": "standard",
                          "events": ["round-started"]});
        let none = app.post(&path, None, body.clone()).await;
        assert_eq!(none.status, StatusCode::UNAUTHORIZED, "{}", none.text);
        let stranger = app
            .post(&path, Some("not-the-director"), body.clone())
            .await;
        assert_eq!(
            (stranger.status, stranger.code()),
            (StatusCode::FORBIDDEN, "director-only")
        );
        let listed = app.get(&path, Some("not-the-director")).await;
        assert_eq!(listed.status, StatusCode::FORBIDDEN);

        let bad_format = app
            .post(
                &path,
                Some(&t.director),
                json!({"url": "http://127.0.0.1:9/h", "format": "slack", "events": ["finished"]}),
            )
            .await;
        assert_eq!(
            (bad_format.status, bad_format.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid-format")
        );
        let lobby_event = app
            .post(
                &path,
                Some(&t.director),
                json!({"url": "http://127.0.0.1:9/h", "format": "standard",
                       "events": ["round-resolved"]}),
            )
            .await;
        assert_eq!(
            (lobby_event.status, lobby_event.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "unknown-event")
        );

        // A webhook of another tournament is no webhook of this one.
        let receiver = Receiver::start(Behaviour::Accept).await;
        let (hook, _) = add_hook(&app, &t, &receiver.url, "standard").await;
        let other = create(
            &app,
            json!({"game": "bst", "name": "Other", "format": "swiss", "rounds": 1}),
        )
        .await;
        let wrong = app
            .send(
                Method::POST,
                &format!("/api/v1/tournaments/{}/webhooks/{hook}/test", other.id),
                Some(&other.director),
                None,
            )
            .await;
        assert_eq!(
            (wrong.status, wrong.code()),
            (StatusCode::NOT_FOUND, "unknown-webhook")
        );
        // The director's test arrives, signed as any delivery.
        let test = app
            .send(
                Method::POST,
                &format!("{path}/{hook}/test"),
                Some(&t.director),
                None,
            )
            .await;
        assert_eq!(test.status, StatusCode::ACCEPTED, "{}", test.text);
        let got = receiver.wait_for(1).await;
        assert_eq!(got[0].json()["type"], "tournament.test");
        let deleted = app
            .send(
                Method::DELETE,
                &format!("{path}/{hook}"),
                Some(&t.director),
                None,
            )
            .await;
        assert_eq!(deleted.status, StatusCode::NO_CONTENT);
        let list = app.get(&path, Some(&t.director)).await;
        assert_eq!(list.body["webhooks"], json!([]));
    }
}

#[tokio::test]
async fn a_private_target_is_refused_without_allow_private_targets() {
    let refusing = herald::notify::Settings {
        allow_private: false,
        ..settings()
    };
    for app in notify_apps(refusing).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let t = create(
            &app,
            json!({"game": "bst", "name": "Closed", "format": "swiss", "rounds": 1}),
        )
        .await;
        let path = format!("/api/v1/tournaments/{}/webhooks", t.id);
        for url in [
            receiver.url.clone(),
            "http://169.254.169.254/latest/".into(),
        ] {
            let refused = app
                .post(
                    &path,
                    Some(&t.director),
                    json!({"url": url, "format": "standard", "events": ["finished"]}),
                )
                .await;
            assert_eq!(
                (refused.status, refused.code()),
                (StatusCode::UNPROCESSABLE_ENTITY, "forbidden-target"),
                "{url}"
            );
        }
        let list = app.get(&path, Some(&t.director)).await;
        assert_eq!(list.body["webhooks"], json!([]), "nothing stored");
        settle().await;
        assert!(receiver.got().is_empty());
    }
}

#[tokio::test]
async fn the_director_adds_tests_and_deletes_a_webhook_on_the_panel_without_javascript() {
    use crate::pages_client::{Visitor, unescape};
    use crate::pages_tournaments::{SWISS, create_from_form};
    for app in notify_apps(settings()).await {
        let receiver = Receiver::start(Behaviour::Accept).await;
        let mut director = Visitor::new(&app);
        let t = create_from_form(&mut director, SWISS).await;
        let panel_path = format!("/tournaments/{}/director", t.id);
        let panel = director.get(&panel_path).await;
        assert!(
            panel
                .html
                .contains("A round is paired (its games with their links"),
            "the events in words"
        );
        // A refused address is said beside the field, kept as typed, nothing stored.
        let refused = director
            .post(
                &format!("{panel_path}/webhooks"),
                &[
                    ("url", "ftp://example.org/x"),
                    ("format", "discord"),
                    ("events", "finished"),
                ],
            )
            .await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.html
        );
        assert!(
            refused.html.contains("id=\"webhook-error\""),
            "{}",
            refused.html
        );
        assert!(refused.html.contains("value=\"ftp://example.org/x\""));

        let added = director
            .post(
                &format!("{panel_path}/webhooks"),
                &[
                    ("url", &receiver.url),
                    ("format", "standard"),
                    ("events", "round-started"),
                    ("events", "finished"),
                ],
            )
            .await;
        assert_eq!(added.status, StatusCode::OK, "{}", added.html);
        assert!(added.html.contains("whsec_"), "the secret is shown once");
        let again = director.get(&panel_path).await;
        assert!(!again.html.contains("whsec_"), "and only once");
        assert!(!unescape(&again.html).contains("receiver-secret"));
        let id = {
            let at = again
                .html
                .find("id=\"webhook-")
                .expect("the webhook is listed")
                + 12;
            again.html[at..at + 36].to_string()
        };
        let test = director
            .post(&format!("{panel_path}/webhooks/{id}/test"), &[])
            .await;
        assert_eq!(test.status, StatusCode::SEE_OTHER);
        assert_eq!(
            test.location(),
            format!("{panel_path}?tested={id}#webhook-{id}")
        );
        let told = director.get(test.location()).await;
        assert!(
            told.html.contains("A test message is on its way"),
            "{}",
            told.html
        );
        let got = receiver.wait_for(1).await;
        assert_eq!(got[0].json()["type"], "tournament.test");

        // Nobody but the director reaches the forms.
        let mut stranger = Visitor::new(&app);
        let by_stranger = stranger
            .post(&format!("{panel_path}/webhooks/{id}/test"), &[])
            .await;
        assert_eq!(by_stranger.status, StatusCode::UNAUTHORIZED);

        let delete = director
            .post(&format!("{panel_path}/webhooks/{id}/delete"), &[])
            .await;
        assert_eq!(delete.status, StatusCode::SEE_OTHER);
        let after = director.get(&panel_path).await;
        assert!(!after.html.contains(&format!("webhook-{id}")));
    }
}
