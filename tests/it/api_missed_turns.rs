//! The missed-turn policy: after `miss_limit` steps missed in a row a player is kicked, with
//! the host's kick's effects, in the transaction of the resolution that counted the miss.
//! Over HTTP on every backend, with the manual clock (no test sleeps for a deadline).

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::api_deadlines::{event_kinds, seated, wait_for_round};
use crate::support::{TestApp, timed_apps};

const MINUTE: Duration = Duration::from_secs(60);

fn player<'a>(view: &'a Value, id: &str) -> &'a Value {
    view["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap()
}

/// Player `who` dodges in `round` (Crossing Swords), aiming at Ann (Ann at Bob), who stay in.
async fn dodge(app: &TestApp, lobby: &str, p: &[(String, String)], who: usize, round: u64) {
    let target = &p[usize::from(who == 0)].0;
    let body = json!({"round": round, "step": "orders", "move": "dodge", "target": target});
    let reply = app
        .post(
            &format!("/api/v1/lobbies/{lobby}/orders"),
            Some(&p[who].1),
            body,
        )
        .await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
}

/// The `player-kicked` events so far.
async fn kicks(app: &TestApp, lobby: &str) -> Vec<Value> {
    event_kinds(app, lobby)
        .await
        .into_iter()
        .filter(|(kind, _)| kind == "player-kicked")
        .map(|(_, data)| data)
        .collect()
}

#[tokio::test]
async fn a_crossing_swords_player_who_misses_the_limit_in_a_row_is_kicked_and_the_game_goes_on() {
    for app in timed_apps().await {
        let settings = json!({"deadline_seconds": 60, "miss_limit": 2});
        let (lobby, _host, p) = seated(&app, settings, &["Ann", "Bob", "Dan"]).await;
        let path = format!("/api/v1/lobbies/{lobby}");
        // Round 1: Dan misses (1). Round 2: he answers (back to 0). Round 3: misses (1).
        for round in 1..=3u64 {
            dodge(&app, &lobby, &p, 0, round).await;
            dodge(&app, &lobby, &p, 1, round).await;
            if round == 2 {
                dodge(&app, &lobby, &p, 2, round).await;
            } else {
                app.clock.advance(MINUTE);
            }
            let view = wait_for_round(&app, &lobby, round + 1).await;
            let dan = player(&view, &p[2].0);
            assert_eq!(dan["alive"], true, "{}: round {round}: {view}", app.backend);
        }
        assert!(
            kicks(&app, &lobby).await.is_empty(),
            "an answer reset the count"
        );

        // Round 4: Dan's second miss in a row: the step resolves with his default, then he
        // is kicked, in the same commit.
        dodge(&app, &lobby, &p, 0, 4).await;
        dodge(&app, &lobby, &p, 1, 4).await;
        app.clock.advance(MINUTE);
        let view = wait_for_round(&app, &lobby, 5).await;
        assert_eq!(view["status"], "running", "{view}");
        assert_eq!(view["round"], 5);
        let dan = player(&view, &p[2].0);
        assert_eq!(
            (
                dan["alive"].as_bool(),
                dan["hp"].as_u64(),
                dan["owes"].as_bool()
            ),
            (Some(false), Some(0), Some(false)),
            "{}: {view}",
            app.backend
        );
        assert!(view["deadline_at"].is_string(), "round 5 has its clock");
        let kicked = kicks(&app, &lobby).await;
        assert_eq!(kicked.len(), 1, "exactly once: {kicked:?}");
        assert_eq!(kicked[0]["player"]["id"], p[2].0.as_str());
        assert_eq!(kicked[0]["reason"], "missed-turns");
        assert_eq!(kicked[0]["misses"], 2);
        let round = app.get(&format!("{path}/rounds/4"), None).await.body;
        assert_eq!(round["orders"][2]["source"], "default", "{round}");
        let line = round["log"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["kind"] == "missed-turns")
            .unwrap_or_else(|| panic!("the policy's line: {round}"));
        assert!(
            line["text"]
                .as_str()
                .unwrap()
                .contains("Dan missed 2 steps")
        );

        // The game goes on with two: their two answers resolve round 5 at once.
        dodge(&app, &lobby, &p, 0, 5).await;
        dodge(&app, &lobby, &p, 1, 5).await;
        let view = app.get(&path, None).await.body;
        assert_eq!(view["round"], 6, "{view}");
        assert_eq!(kicks(&app, &lobby).await.len(), 1);
    }
}

#[tokio::test]
async fn a_bst_player_who_misses_the_limit_forfeits_and_the_opponent_wins() {
    for app in timed_apps().await {
        let settings = json!({"seed": 7, "deadline_seconds": 30, "miss_limit": 1});
        let (lobby, host) = app.create_lobby("bst", settings).await;
        let a = app.join(&lobby, json!({"name": "Ann"})).await;
        let b = app.join(&lobby, json!({"name": "Bob"})).await;
        app.start(&lobby, &host).await;
        let path = format!("/api/v1/lobbies/{lobby}");
        let me = app.get(&format!("{path}/me"), Some(&a.1)).await.body;
        assert_eq!(me["prompt"]["step"], "play", "{me}");
        let token = me["hand"][0].clone();
        let body = json!({"round": 1, "step": "play", "move": "guard", "token": token});
        let reply = app.post(&format!("{path}/orders"), Some(&a.1), body).await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        app.clock.advance(Duration::from_secs(30));
        let view = wait_for_round(&app, &lobby, 99).await;
        assert_eq!(view["status"], "finished", "{}: {view}", app.backend);
        assert_eq!(view["result"]["reason"], "forfeit");
        assert_eq!(view["result"]["winners"], json!([a.0]));
        assert_eq!(
            view["deadline_at"],
            Value::Null,
            "a finished game has no clock"
        );
        let kicked = kicks(&app, &lobby).await;
        assert_eq!(kicked.len(), 1, "{kicked:?}");
        assert_eq!(
            (
                kicked[0]["player"]["id"].as_str(),
                kicked[0]["reason"].as_str()
            ),
            (Some(b.0.as_str()), Some("missed-turns"))
        );
        let round = app.get(&format!("{path}/rounds/1"), None).await.body;
        assert_eq!(round["orders"][1]["source"], "default", "{round}");
    }
}

#[tokio::test]
async fn without_a_miss_limit_nobody_is_ever_kicked() {
    for app in timed_apps().await {
        let settings = json!({"deadline_seconds": 60, "miss_limit": null});
        let (lobby, _host, p) = seated(&app, settings, &["Ann", "Bob", "Dan"]).await;
        for round in 1..=4u64 {
            app.clock.advance(MINUTE);
            wait_for_round(&app, &lobby, round + 1).await;
        }
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["round"], 5, "{view}");
        for (id, _) in &p {
            assert_eq!(player(&view, id)["alive"], true, "{view}");
        }
        assert!(kicks(&app, &lobby).await.is_empty());
        let snapshot = app.store.snapshot(lobby.parse().unwrap()).await.unwrap();
        let misses: Vec<i64> = snapshot.unwrap().players.iter().map(|p| p.misses).collect();
        assert_eq!(misses, [4, 4, 4], "the misses are counted all the same");
    }
}

/// When several players reach the limit in one step they are kicked in seat order, each from
/// the state the previous kick left, until one kick ends the game: Crossing Swords with three
/// silent players and a limit of 1 kicks Ann, then Bob, and Dan, last standing, wins (G6).
#[tokio::test]
async fn players_at_the_limit_together_are_kicked_in_seat_order_until_the_game_ends() {
    for app in timed_apps().await {
        let settings = json!({"deadline_seconds": 60, "miss_limit": 1});
        let (lobby, _host, p) = seated(&app, settings, &["Ann", "Bob", "Dan"]).await;
        app.clock.advance(MINUTE);
        let view = wait_for_round(&app, &lobby, 99).await;
        assert_eq!(view["status"], "finished", "{}: {view}", app.backend);
        assert_eq!(view["result"]["winners"], json!([p[2].0]), "{view}");
        assert_eq!(view["deadline_at"], Value::Null);
        let kicked: Vec<Value> = kicks(&app, &lobby)
            .await
            .iter()
            .map(|k| k["player"]["name"].clone())
            .collect();
        assert_eq!(kicked, [json!("Ann"), json!("Bob")]);
        let kinds: Vec<String> = event_kinds(&app, &lobby)
            .await
            .into_iter()
            .map(|(kind, _)| kind)
            .filter(|k| k != "deadline-approaching")
            .collect();
        let from = kinds.iter().position(|k| k == "step-resolved").unwrap();
        assert_eq!(
            kinds[from..],
            [
                "step-resolved",
                "round-resolved",
                "player-kicked",
                "player-kicked",
                "round-resolved",
                "finished",
            ],
            "one commit: the resolution, the kicks, the end (and no clock after)"
        );
    }
}
