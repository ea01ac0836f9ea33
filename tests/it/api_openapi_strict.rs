//! The OpenAPI document tells the whole truth (docs/api-fuzz.md): what it forbids the server refuses,
//! what it allows the server accepts, and what the server sends fits it. Each test reads the
//! document rather than a list of its own, so a route or schema added later is checked too.

use std::time::Duration;

use axum::http::{Method, StatusCode};
use herald::bots::policy::{Strategy, answer};
use herald::clock::Clock;
use herald::games::GameKind;
use rand::SeedableRng;
use serde_json::{Map, Value, json};

use crate::api_deadlines::event_kinds;
use crate::api_secrecy::{EventReader, SseEvent};
use crate::support::{T0, TestApp, sqlite_app, sqlite_app_on};

pub(crate) async fn document(app: &TestApp) -> Value {
    app.get("/api/v1/openapi.json", None).await.body
}

/// A validator for `schema`, with the document's components beside it for `$ref`s, and
/// formats (`uuid`) asserted.
pub(crate) fn validator(doc: &Value, schema: &Value) -> jsonschema::Validator {
    let mut root = schema.clone();
    root["components"] = doc["components"].clone();
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&root)
        .unwrap_or_else(|e| panic!("{schema} is not a valid schema: {e}"))
}

pub(crate) fn component(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

pub(crate) fn assert_fits(doc: &Value, schema: &Value, instance: &Value, what: &str) {
    let errors: Vec<String> = validator(doc, schema)
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what}: {instance} does not fit {schema}: {errors:?}"
    );
}

/// Follows a `#/...` reference.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => resolve(doc, doc.pointer(&r[1..]).expect("a $ref that resolves")),
        None => schema,
    }
}

/// Every object schema a request body can reach, with where it was reached from.
fn request_objects(doc: &Value) -> Vec<(String, Value)> {
    fn walk(doc: &Value, schema: &Value, at: String, out: &mut Vec<(String, Value)>) {
        // A fork's archive is the one body part the server reads as `herald verify` does,
        // ignoring fields it does not know (a newer archive still forks); what it holds is
        // the archive route's response, checked there.
        if schema["$ref"] == "#/components/schemas/Archive" {
            return;
        }
        let schema = resolve(doc, schema);
        if out.iter().any(|(_, seen)| seen == schema) {
            return;
        }
        let is_object = schema["type"] == "object"
            || schema["type"]
                .as_array()
                .is_some_and(|t| t.contains(&json!("object")));
        if is_object {
            out.push((at.clone(), schema.clone()));
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            for (i, branch) in schema[key].as_array().into_iter().flatten().enumerate() {
                walk(doc, branch, format!("{at}/{key}/{i}"), out);
            }
        }
        for (name, property) in schema["properties"].as_object().into_iter().flatten() {
            walk(doc, property, format!("{at}.{name}"), out);
        }
        if schema["items"].is_object() {
            walk(doc, &schema["items"], format!("{at}[]"), out);
        }
    }
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let body = &operation["requestBody"]["content"]["application/json"]["schema"];
            if !body.is_null() {
                walk(doc, body, format!("{method} {path}"), &mut out);
            }
        }
    }
    out
}

#[tokio::test]
async fn every_object_a_request_can_send_is_closed_in_the_document() {
    let app = sqlite_app().await;
    let doc = document(&app).await;
    let objects = request_objects(&doc);
    assert!(
        objects.len() >= 10,
        "the walk reaches the settings and setups"
    );
    for (at, schema) in objects {
        // The server reads every body with serde's deny_unknown_fields (or an explicit check).
        assert_eq!(
            schema["additionalProperties"],
            json!(false),
            "{at}: the server refuses unknown fields, so the document must say so"
        );
    }
}

/// Each object inside `body` (itself, its settings, a setup, a setup's player), one at a time.
fn object_pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            out.push(at.clone());
            for (key, v) in map {
                object_pointers(v, format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                object_pointers(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// The document's lobby examples, which each game writes in its own fragment: every
/// registered game must give one that starts from a position, with an object at every depth
/// under its settings (a game without one fails here, rather than being skipped).
fn deep_bodies(doc: &Value) -> Vec<Value> {
    let bodies: Vec<Value> = doc["components"]["schemas"]["CreateLobbyRequest"]["examples"]
        .as_array()
        .unwrap()
        .clone();
    for kind in GameKind::ALL {
        let deep = bodies.iter().any(|body| {
            let mut pointers = Vec::new();
            object_pointers(&body["settings"], String::new(), &mut pointers);
            body["game"] == kind.id() && pointers.iter().any(|p| p.matches('/').count() >= 2)
        });
        assert!(
            deep,
            "{}: its OpenAPI fragment gives no create example that starts from a position",
            kind.id()
        );
    }
    bodies
}

/// Serde reads a struct from an array (its fields in order), so `"setup": []` was taken for
/// the default setup; the document says object at every depth, and so must the server.
#[tokio::test]
async fn an_array_where_the_document_says_object_is_refused_at_any_depth() {
    let app = sqlite_app().await;
    let doc = document(&app).await;
    let request = component("CreateLobbyRequest");
    let mut probes = 0;
    for body in deep_bodies(&doc) {
        let mut pointers = Vec::new();
        object_pointers(&body, String::new(), &mut pointers);
        for pointer in pointers.into_iter().filter(|p| !p.is_empty()) {
            let object = body.pointer(&pointer).unwrap().as_object().unwrap();
            // Empty (every field defaulted) and the object's values in order (read by position).
            let values: Vec<Value> = object.values().cloned().collect();
            for array in [json!([]), Value::Array(values)] {
                let mut probe = body.clone();
                *probe.pointer_mut(&pointer).unwrap() = array;
                assert!(
                    validator(&doc, &request).validate(&probe).is_err(),
                    "the document forbids {probe}"
                );
                let reply = app.post("/api/v1/lobbies", None, probe.clone()).await;
                assert_eq!(
                    (reply.status, reply.code()),
                    (StatusCode::BAD_REQUEST, "invalid-body"),
                    "{probe}: {}",
                    reply.text
                );
                probes += 1;
            }
        }
    }
    assert!(probes >= 10, "{probes} probes");
}

/// Whether `game`'s settings schema says an unknown key is refused by name, with
/// `x-unknown-key: unknown-setting`, rather than as a malformed body.
fn names_unknown_settings(doc: &Value, game: &str) -> bool {
    let at = |reference: Option<&str>| reference.and_then(|r| doc.pointer(r.strip_prefix('#')?));
    let create = doc["components"]["schemas"]["CreateLobbyRequest"]["discriminator"]["mapping"]
        [game]
        .as_str();
    at(create)
        .and_then(|member| at(member["properties"]["settings"]["$ref"].as_str()))
        .is_some_and(|settings| settings["x-unknown-key"] == "unknown-setting")
}

#[tokio::test]
async fn an_unknown_field_at_any_depth_of_a_body_is_refused_as_the_document_says() {
    let app = sqlite_app().await;
    let doc = document(&app).await;
    let request = component("CreateLobbyRequest");
    for body in deep_bodies(&doc) {
        assert_fits(&doc, &request, &body, "the probe itself");
        let reply = app.post("/api/v1/lobbies", None, body.clone()).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{body}: {}", reply.text);
        let mut pointers = Vec::new();
        object_pointers(&body, String::new(), &mut pointers);
        for pointer in pointers {
            let mut probe = body.clone();
            let target: &mut Map<String, Value> = probe
                .pointer_mut(&pointer)
                .unwrap()
                .as_object_mut()
                .unwrap();
            target.insert("surplus".into(), json!(1));
            assert!(
                validator(&doc, &request).validate(&probe).is_err(),
                "the document forbids {probe}"
            );
            let reply = app.post("/api/v1/lobbies", None, probe.clone()).await;
            // A settings key a game of variant keys does not know is a 422 naming it (the
            // variant keys of docs/api.md: "422 for an unknown key"), as its settings schema
            // says (`x-unknown-key`); any other unknown field is a malformed body.
            let flat_settings = names_unknown_settings(&doc, body["game"].as_str().unwrap_or(""));
            let expected = if flat_settings && pointer == "/settings" {
                (StatusCode::UNPROCESSABLE_ENTITY, "unknown-setting")
            } else {
                (StatusCode::BAD_REQUEST, "invalid-body")
            };
            assert_eq!(
                (reply.status, reply.code()),
                expected,
                "{probe}: {}",
                reply.text
            );
        }
    }
}

#[tokio::test]
async fn the_list_takes_exactly_the_limits_the_document_allows() {
    let app = sqlite_app().await;
    let doc = document(&app).await;
    let limit = doc["paths"]["/api/v1/lobbies"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "limit")
        .unwrap()["schema"]
        .clone();
    let (min, max) = (
        limit["minimum"].as_i64().unwrap(),
        limit["maximum"].as_i64().unwrap(),
    );
    for (value, ok) in [(min, true), (max, true), (min - 1, false), (max + 1, false)] {
        let reply = app
            .get(&format!("/api/v1/lobbies?limit={value}"), None)
            .await;
        if ok {
            assert_eq!(reply.status, StatusCode::OK, "limit={value}");
        } else {
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::BAD_REQUEST, "invalid-query"),
                "limit={value}: {}",
                reply.text
            );
        }
    }
}

/// The event kinds a stream's schema documents (each branch's `event` constant).
fn documented_kinds(doc: &Value, stream: &str) -> Vec<String> {
    doc["components"]["schemas"][stream]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|branch| {
            resolve(doc, branch)["properties"]["event"]["const"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

fn events_parameter(doc: &Value, path: &str) -> Value {
    doc["paths"][path]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "events")
        .unwrap()["schema"]
        .clone()
}

#[tokio::test]
async fn every_documented_enum_value_is_accepted() {
    let app = sqlite_app().await;
    let doc = document(&app).await;
    let schemas = &doc["components"]["schemas"];
    let values = |name: &str| -> Vec<String> {
        schemas[name]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    for game in values("GameId") {
        let reply = app
            .post("/api/v1/lobbies", None, json!({"game": game, "name": "G"}))
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{game}: {}", reply.text);
    }
    for character in values("BstCharacter") {
        let (lobby, _) = app.create_lobby("bst", json!({})).await;
        app.join(&lobby, json!({"name": "A", "character": character}))
            .await;
    }

    // Every move of each game is taken as an order (Crossing Swords: on oneself where the
    // move allows it, else on the other player; BST replaces an illegal tile at the reveal).
    let (cs, host) = app.create_lobby("crossing-swords", json!({})).await;
    let (me, token) = app.join(&cs, json!({"name": "A"})).await;
    let (other, _) = app.join(&cs, json!({"name": "B"})).await;
    app.start(&cs, &host).await;
    for mv in values("CrossingSwordsMove") {
        let mut reply = StatusCode::UNPROCESSABLE_ENTITY;
        for target in [&me, &other] {
            let order = json!({"round": 1, "step": "orders", "move": mv, "target": target});
            assert_fits(&doc, &component("Order"), &order, "a Crossing Swords order");
            let sent = app
                .post(&format!("/api/v1/lobbies/{cs}/orders"), Some(&token), order)
                .await;
            if sent.status == StatusCode::ACCEPTED {
                reply = sent.status;
            }
        }
        assert_eq!(reply, StatusCode::ACCEPTED, "{mv} is taken on some target");
    }
    let (bst, host) = app.create_lobby("bst", json!({})).await;
    let (_, token) = app.join(&bst, json!({"name": "A"})).await;
    app.join(&bst, json!({"name": "B"})).await;
    app.start(&bst, &host).await;
    let hand = app
        .get(&format!("/api/v1/lobbies/{bst}/me"), Some(&token))
        .await
        .body["hand"][0]
        .clone();
    for mv in values("BstMove") {
        let order = json!({"round": 1, "step": "play", "move": mv, "token": hand});
        assert_fits(&doc, &component("Order"), &order, "a BST play");
        let sent = app
            .post(
                &format!("/api/v1/lobbies/{bst}/orders"),
                Some(&token),
                order,
            )
            .await;
        assert_eq!(sent.status, StatusCode::ACCEPTED, "{mv}: {}", sent.text);
    }

    // Each stream takes each kind its schema documents, alone and all together, exactly as
    // the parameter's pattern says; and refuses what the pattern refuses.
    for (path, stream, token) in [
        ("/api/v1/lobbies/{id}/events", "LobbyEvent", None),
        (
            "/api/v1/lobbies/{id}/me/events",
            "PlayerEvent",
            Some(token.as_str()),
        ),
    ] {
        let parameter = events_parameter(&doc, path);
        let kinds = documented_kinds(&doc, stream);
        let mut lists: Vec<String> = kinds.clone();
        lists.push(kinds.join(","));
        for list in lists {
            assert_fits(&doc, &parameter, &json!(list), "a documented kind");
            let url = path.replace("{id}", &bst) + "?events=" + &list;
            EventReader::open_path(&app, &url, token, None).await;
        }
        for list in ["orders", "prompt,", "started, finished", "", "Started"] {
            if stream == "PlayerEvent" || list != "orders" {
                assert!(validator(&doc, &parameter).validate(&json!(list)).is_err());
            }
            let url = path.replace("{id}", &bst) + "?events=" + &list.replace(' ', "%20");
            let reply = app.get(&url, token).await;
            assert_eq!(reply.code(), "invalid-query", "{url}");
        }
    }
}

/// Checks a stream's events against the branch of its documented schema that names their kind,
/// and their `data` against that branch's `contentSchema`; returns the kinds seen.
fn check_events(doc: &Value, stream: &str, events: &[SseEvent]) -> Vec<String> {
    let schema = component(stream);
    for event in events {
        let wire = json!({"event": event.kind, "id": event.id, "data": event.data.to_string()});
        assert_fits(doc, &schema, &wire, "an event as sent");
        let branch = doc["components"]["schemas"][stream]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| resolve(doc, b))
            .find(|b| b["properties"]["event"]["const"] == event.kind.as_str())
            .unwrap_or_else(|| panic!("{} is not documented on {stream}", event.kind));
        let data = &branch["properties"]["data"]["contentSchema"];
        assert_fits(doc, data, &event.data, &event.kind);
    }
    events.iter().map(|e| e.kind.clone()).collect()
}

async fn drain(mut reader: EventReader) -> Vec<SseEvent> {
    let mut events = Vec::new();
    while let Some(event) = reader.next().await {
        events.push(event);
    }
    events
}

#[tokio::test]
async fn every_event_and_view_sent_fits_its_documented_schema() {
    let app = sqlite_app().await;
    let doc = document(&app).await;
    let mut seen = Vec::new();
    // Every registered game, with its first order as its reference bot answers its prompt.
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for kind in GameKind::ALL {
        let game = kind.id();
        let (lobby, host) = app.create_lobby(game, json!({})).await;
        let (_, a) = app.join(&lobby, json!({"name": "A"})).await;
        let (_, b) = app.join(&lobby, json!({"name": "B"})).await;
        let base = format!("/api/v1/lobbies/{lobby}");
        app.post(&format!("{base}/close-signups"), Some(&host), json!({}))
            .await;
        app.start(&lobby, &host).await;
        // Whoever the dealt opening asks first answers (in some games it may be either seat).
        let mut owed = None;
        for token in [a, b] {
            let me = app.get(&format!("{base}/me"), Some(&token)).await.body;
            assert_fits(&doc, &component("MeView"), &me, "me");
            if owed.is_none() && !me["prompt"].is_null() {
                owed = Some((token, me));
            }
        }
        let (token, me) = owed.unwrap_or_else(|| panic!("{game}: nobody owes an answer"));
        let order = answer(&me, Strategy::Random, &mut rng).expect("a prompt to answer");
        assert_fits(&doc, &component("Order"), &order, game);
        let receipt = app
            .post(&format!("{base}/orders"), Some(&token), order)
            .await;
        assert_eq!(
            receipt.status,
            StatusCode::ACCEPTED,
            "{game}: {}",
            receipt.text
        );
        assert_fits(&doc, &component("Receipt"), &receipt.body, "a receipt");
        let lobby_view = app.get(&base, None).await.body;
        assert_fits(&doc, &component("LobbyView"), &lobby_view, "the lobby");
        let archive = app.get(&format!("{base}/archive"), None).await.body;
        assert_fits(
            &doc,
            &component("Archive"),
            &archive,
            "a running game's archive",
        );
        let public = EventReader::open_path(&app, &format!("{base}/events"), None, None).await;
        seen.extend(check_events(&doc, "LobbyEvent", &drain(public).await));
        let mine =
            EventReader::open_path(&app, &format!("{base}/me/events"), Some(&token), None).await;
        seen.extend(check_events(&doc, "PlayerEvent", &drain(mine).await));
    }
    // A Crossing Swords round played to its end, for the kinds that come with resolving.
    let (lobby, host) = app
        .create_lobby("crossing-swords", json!({"max_rounds": 1}))
        .await;
    let players = [
        app.join(&lobby, json!({"name": "A"})).await,
        app.join(&lobby, json!({"name": "B"})).await,
    ];
    app.start(&lobby, &host).await;
    let base = format!("/api/v1/lobbies/{lobby}");
    for (id, token) in &players {
        let order = json!({"round": 1, "step": "orders", "move": "mend", "target": id});
        app.post(&format!("{base}/orders"), Some(token), order)
            .await;
    }
    let finished = app.get(&base, None).await.body;
    assert_eq!(finished["status"], "finished");
    assert_fits(&doc, &component("LobbyView"), &finished, "a finished lobby");
    let round = app.get(&format!("{base}/rounds/1"), None).await.body;
    assert_fits(&doc, &component("RoundView"), &round, "a round");
    let archive = app.get(&format!("{base}/archive"), None).await.body;
    assert_fits(
        &doc,
        &component("Archive"),
        &archive,
        "a finished game's archive",
    );
    let public = EventReader::open_path(&app, &format!("{base}/events"), None, None).await;
    seen.extend(check_events(&doc, "LobbyEvent", &drain(public).await));
    seen.extend(host_and_clock_events(&doc).await);
    for kind in documented_kinds(&doc, "PlayerEvent") {
        assert!(seen.contains(&kind), "{kind} was sent and checked");
    }
}

/// The kinds the host's controls and a step's clock publish, checked on both streams: a lobby
/// with a deadline (on a clock the test moves) whose host uses every control.
async fn host_and_clock_events(doc: &Value) -> Vec<String> {
    let app = sqlite_app_on(Clock::manual(T0)).await;
    let settings = json!({"deadline_seconds": 7200, "reminder_seconds": [3600], "press": "full"});
    let (lobby, host) = app.create_lobby("crossing-swords", settings).await;
    let base = format!("/api/v1/lobbies/{lobby}");
    let (_, token) = app.join(&lobby, json!({"name": "A"})).await;
    let (b, _) = app.join(&lobby, json!({"name": "B"})).await;
    let (c, _) = app.join(&lobby, json!({"name": "C"})).await;
    let (_, leaving) = app.join(&lobby, json!({"name": "D"})).await;
    let host_acts = async |path: &str, body: Value| {
        let reply = app.post(&format!("{base}/{path}"), Some(&host), body).await;
        assert!(reply.status.is_success(), "{path}: {}", reply.text);
    };
    let left = app
        .send(Method::DELETE, &format!("{base}/me"), Some(&leaving), None)
        .await;
    assert_eq!(left.status, StatusCode::NO_CONTENT, "{}", left.text);
    host_acts("close-signups", json!({})).await;
    host_acts("reopen-signups", json!({})).await;
    app.start(&lobby, &host).await;
    // Table talk: a message to everyone and a private one, each sent and read as documented.
    for to in [json!("all"), json!([b])] {
        let body = json!({"to": to, "text": "Peace?"});
        let sent = app
            .post(&format!("{base}/messages"), Some(&token), body)
            .await;
        assert_fits(doc, &component("Sent"), &sent.body, "a sent message");
    }
    let read = app.get(&format!("{base}/messages"), Some(&token)).await;
    assert_fits(doc, &component("Messages"), &read.body, "the messages");
    host_acts(&format!("players/{b}/replace"), json!({"name": "B2"})).await;
    host_acts("pause", json!({})).await;
    host_acts("resume", json!({})).await;
    // The hour's reminder, published by the scheduler once the clock reaches it.
    app.clock.advance(Duration::from_secs(3600));
    for _ in 0..100 {
        let kinds = event_kinds(&app, &lobby).await;
        if kinds.iter().any(|(kind, _)| kind == "deadline-approaching") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    host_acts(&format!("players/{c}/kick"), json!({})).await;
    host_acts("end", json!({})).await;
    let archive = app.get(&format!("{base}/archive"), None).await.body;
    assert_eq!(archive["messages"].as_array().map(Vec::len), Some(2));
    assert_fits(
        doc,
        &component("Archive"),
        &archive,
        "an archive with messages",
    );
    let public = EventReader::open_path(&app, &format!("{base}/events"), None, None).await;
    let mut seen = check_events(doc, "LobbyEvent", &drain(public).await);
    let mine = EventReader::open_path(&app, &format!("{base}/me/events"), Some(&token), None).await;
    seen.extend(check_events(doc, "PlayerEvent", &drain(mine).await));
    seen
}
