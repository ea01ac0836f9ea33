//! Vacations (docs/identity.md, "Vacations"): declared ahead within the allowance, replaced
//! and ended; a deadline that falls in one waits for its end once per step (in lobbies that
//! allow it) and a miss that falls due in one is excused. Time is a manual clock the test
//! moves; the scheduler acts on its own task, so the test waits for what it does.

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::api_deadlines::{event_kinds, put};
use crate::api_profiles::{join_as, profile};
use crate::support::{T0, TestApp, timed_apps};

const DAY: i64 = 86_400_000;

fn at(millis: i64) -> String {
    herald::host::timing::rfc3339(millis)
}

async fn declare(app: &TestApp, key: Option<&str>, body: Value) -> crate::support::Reply {
    put(app, "/api/v1/me/vacation", key, body).await
}

async fn end(app: &TestApp, key: Option<&str>) -> crate::support::Reply {
    app.send(Method::DELETE, "/api/v1/me/vacation", key, None)
        .await
}

fn span(from: i64, until: i64) -> Value {
    json!({"from": at(from), "until": at(until)})
}

#[tokio::test]
async fn a_vacation_is_declared_ahead_within_the_allowance_replaced_and_ended() {
    for app in timed_apps().await {
        let (key, _) = profile(&app, "Traveller").await;
        let key = Some(key.as_str());
        // Who may: a profile key only.
        let seatless = declare(&app, None, span(T0 + DAY, T0 + 2 * DAY)).await;
        assert_eq!(seatless.status, StatusCode::UNAUTHORIZED);
        let forged = declare(
            &app,
            Some(&format!("hpk_{}", "0".repeat(64))),
            span(T0, T0 + DAY),
        )
        .await;
        assert_eq!(forged.status, StatusCode::UNAUTHORIZED);
        assert_eq!(end(&app, None).await.status, StatusCode::UNAUTHORIZED);
        // Malformed bodies are 400; instants out of bounds 422.
        for body in [
            json!({"from": at(T0 + DAY)}),
            json!({"from": at(T0 + DAY), "until": at(T0 + 2 * DAY), "why": "sun"}),
            json!({"from": 5, "until": at(T0 + 2 * DAY)}),
        ] {
            let reply = declare(&app, key, body).await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::BAD_REQUEST, "invalid-body"),
                "{}",
                reply.text
            );
        }
        for body in [
            json!({"from": "tomorrow", "until": at(T0 + 2 * DAY)}),
            span(T0 - DAY, T0 + DAY),
            span(T0 + 31 * DAY, T0 + 32 * DAY),
            span(T0 + 2 * DAY, T0 + 2 * DAY),
            span(T0 + 3 * DAY, T0 + 2 * DAY),
        ] {
            let reply = declare(&app, key, body).await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::UNPROCESSABLE_ENTITY, "invalid-vacation"),
                "{}",
                reply.text
            );
        }
        let long = declare(&app, key, span(T0 + DAY, T0 + 16 * DAY)).await;
        assert_eq!(
            (long.status, long.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "vacation-allowance")
        );
        // Five days from tomorrow: nine left.
        let reply = declare(&app, key, span(T0 + DAY, T0 + 6 * DAY)).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(
            reply.body,
            json!({"vacation": {"from": at(T0 + DAY), "until": at(T0 + 6 * DAY)}, "allowance_left_days": 9.0})
        );
        let me = app.get("/api/v1/me", key).await.body;
        assert_eq!(me["vacation"], reply.body["vacation"]);
        // Declared again before it began: it replaces the first, which took nothing.
        let reply = declare(&app, key, span(T0 + 2 * DAY, T0 + 12 * DAY)).await;
        assert_eq!(reply.body["allowance_left_days"], 4.0, "{}", reply.text);
        // Three days into it, it ends: those three stay taken.
        app.clock.advance(Duration::from_millis(5 * DAY as u64));
        assert_eq!(end(&app, key).await.status, StatusCode::NO_CONTENT);
        assert_eq!(
            app.get("/api/v1/me", key).await.body["vacation"],
            Value::Null
        );
        assert_eq!(
            end(&app, key).await.status,
            StatusCode::NO_CONTENT,
            "none left to end"
        );
        let now = T0 + 5 * DAY;
        let over = declare(&app, key, span(now, now + 12 * DAY)).await;
        assert_eq!(over.code(), "vacation-allowance", "3 + 12 > 14");
        let reply = declare(&app, key, span(now, now + 11 * DAY)).await;
        assert_eq!(reply.body["allowance_left_days"], 0.0, "{}", reply.text);
        // A "from" a few seconds late is now.
        app.clock.advance(Duration::from_millis(400 * DAY as u64));
        let now = T0 + 405 * DAY;
        let reply = declare(&app, key, span(now - 5_000, now + 14 * DAY)).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "a year on, the allowance is whole again"
        );
        assert_eq!(reply.body["vacation"]["from"], at(now));
        assert_eq!(reply.body["allowance_left_days"], 0.0);
    }
}

/// The lobby's view once `check` holds (the scheduler acts on its own task).
async fn wait_until(app: &TestApp, lobby: &str, check: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..500 {
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        if check(&view) {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{}: lobby {lobby} never got there", app.backend);
}

async fn record(app: &TestApp, handle: &str) -> Value {
    app.get(&format!("/api/v1/profiles/{handle}"), None)
        .await
        .body["reliability"]
        .clone()
}

async fn order(app: &TestApp, lobby: &str, token: &str, round: u64, target: &str) {
    let sent = json!({"round": round, "step": "orders", "move": "strike", "target": target});
    let reply = app
        .post(
            &format!("/api/v1/lobbies/{lobby}/orders"),
            Some(token),
            sent,
        )
        .await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
}

fn deadline_sets(events: &[(String, Value)]) -> Vec<Value> {
    events
        .iter()
        .filter(|(kind, _)| kind == "deadline-set")
        .map(|(_, data)| data["deadline_at"].clone())
        .collect()
}

#[tokio::test]
async fn a_deadline_in_a_vacation_waits_for_its_end_once_and_the_miss_is_excused() {
    for app in timed_apps().await {
        let (ann, _) = profile(&app, "AwayAnn").await;
        let (bob, _) = profile(&app, "HomeBob").await;
        let settings = json!({"deadline_seconds": 86_400, "max_rounds": 6});
        let (lobby, host) = app.create_lobby("crossing-swords", settings).await;
        let (_, _) = join_as(&app, &lobby, &ann, json!({})).await;
        let (b, _) = join_as(&app, &lobby, &bob, json!({})).await;
        let (c, cid) = app.join(&lobby, json!({"name": "Cid"})).await;
        app.start(&lobby, &host).await;
        let reply = declare(&app, Some(&ann), span(T0, T0 + 3 * DAY)).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        order(&app, &lobby, &bob, 1, &c).await;
        order(&app, &lobby, &cid, 1, &b).await;
        // The deadline falls while Ann, prompted and silent, is away: it waits for her return.
        app.clock.advance(Duration::from_millis(DAY as u64));
        let view = wait_until(&app, &lobby, |v| v["deadline_at"] == at(T0 + 3 * DAY)).await;
        assert_eq!(view["round"], 1, "{view}");
        assert_eq!(
            deadline_sets(&event_kinds(&app, &lobby).await).last(),
            Some(&json!(at(T0 + 3 * DAY)))
        );
        // At her return it resolves; her miss fell due in the vacation: excused.
        app.clock.advance(Duration::from_millis(2 * DAY as u64));
        wait_until(&app, &lobby, |v| v["round"] == 2).await;
        assert_eq!(
            record(&app, "awayann").await,
            json!({"owed": 1, "on_time": 0, "missed": 0, "excused": 1, "score": 100, "tier": "new"})
        );
        assert_eq!(record(&app, "homebob").await["on_time"], 1);

        // Round 2 (deadline T0 + 4 days): away again from now to T0 + 6 days.
        let now = T0 + 3 * DAY;
        let reply = declare(&app, Some(&ann), span(now, now + 3 * DAY)).await;
        assert_eq!(reply.body["allowance_left_days"], 8.0, "{}", reply.text);
        app.clock.advance(Duration::from_millis(DAY as u64));
        wait_until(&app, &lobby, |v| v["deadline_at"] == at(T0 + 6 * DAY)).await;
        // She stretches it to T0 + 8 days; the step's deadline has moved once: it stays.
        app.clock.advance(Duration::from_millis(DAY as u64));
        let now = T0 + 5 * DAY;
        let reply = declare(&app, Some(&ann), span(now, now + 3 * DAY)).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        app.clock.advance(Duration::from_millis(DAY as u64));
        let view = wait_until(&app, &lobby, |v| v["round"] == 3).await;
        assert_eq!(view["deadline_at"], at(T0 + 7 * DAY), "{view}");
        let sets = deadline_sets(&event_kinds(&app, &lobby).await);
        assert_eq!(
            sets.iter()
                .filter(|d| **d == json!(at(T0 + 6 * DAY)))
                .count(),
            1
        );
        assert!(!sets.contains(&json!(at(T0 + 8 * DAY))), "{sets:?}");
        let r = record(&app, "awayann").await;
        assert_eq!(
            (r["owed"].clone(), r["excused"].clone()),
            (json!(2), json!(2)),
            "{r}"
        );
        // Bob was silent in round 2 and not away: his miss counts.
        assert_eq!(record(&app, "homebob").await["missed"], 1);
        let check = app.host.check_record("AwayAnn").await.unwrap();
        assert_eq!(check.stored_rows, check.recomputed_rows);
        assert!(
            check
                .stored_rows
                .iter()
                .all(|r| r.excused_by == Some(herald::store::Excuse::Vacation))
        );
    }
}

#[tokio::test]
async fn a_lobby_that_turns_vacations_off_keeps_its_deadline_but_the_miss_is_excused() {
    for app in timed_apps().await {
        let (ann, _) = profile(&app, "AwayAgain").await;
        let settings = json!({"deadline_seconds": 86_400, "vacation": false});
        let (lobby, host) = app.create_lobby("crossing-swords", settings).await;
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}"), None)
            .await
            .body;
        assert_eq!(view["settings"]["vacation"], false, "{view}");
        let body = json!({"game": "crossing-swords", "name": "No", "settings": {"vacation": "no"}});
        let bad = app.post("/api/v1/lobbies", None, body).await;
        assert_eq!(
            (bad.status, bad.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid-setting")
        );
        join_as(&app, &lobby, &ann, json!({})).await;
        app.join(&lobby, json!({"name": "Cid"})).await;
        app.start(&lobby, &host).await;
        declare(&app, Some(&ann), span(T0, T0 + 3 * DAY)).await;
        app.clock.advance(Duration::from_millis(DAY as u64));
        let view = wait_until(&app, &lobby, |v| v["round"] == 2).await;
        assert_eq!(view["deadline_at"], at(T0 + 2 * DAY), "not moved: {view}");
        let r = record(&app, "awayagain").await;
        assert_eq!(
            (r["missed"].clone(), r["excused"].clone()),
            (json!(0), json!(1)),
            "{r}"
        );
        // The host's resolve-now inside the vacation excuses too; after it, a miss counts.
        let path = format!("/api/v1/lobbies/{lobby}/resolve-now");
        let reply = app.post(&path, Some(&host), json!({})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(record(&app, "awayagain").await["excused"], 2);
        assert_eq!(end(&app, Some(&ann)).await.status, StatusCode::NO_CONTENT);
        app.clock.advance(Duration::from_millis(1));
        let reply = app.post(&path, Some(&host), json!({})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let r = record(&app, "awayagain").await;
        assert_eq!(
            (r["missed"].clone(), r["excused"].clone()),
            (json!(1), json!(2)),
            "{r}"
        );
    }
}
