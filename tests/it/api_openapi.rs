//! The OpenAPI document describes every route, and every documented route is served.

use axum::http::{Method, StatusCode};
use serde_json::Value;

use herald::games::GameKind;

use crate::api_openapi_strict::validator;
use crate::support::sqlite_app;

#[tokio::test]
async fn the_openapi_document_lists_every_route_and_each_is_served() {
    let app = sqlite_app().await;
    let reply = app.get("/api/v1/openapi.json", None).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["openapi"], "3.1.0");
    let paths = reply.body["paths"].as_object().expect("paths");
    let mut documented: Vec<(String, String)> = Vec::new();
    for (path, item) in paths {
        for method in item.as_object().unwrap().keys() {
            documented.push((method.to_uppercase(), path.clone()));
        }
    }
    documented.sort();
    let mut served: Vec<(String, String)> = herald::http::api::route_list()
        .into_iter()
        .map(|(method, path)| (method, path.to_string()))
        .collect();
    served.sort();
    assert_eq!(
        documented, served,
        "the document lists exactly the routes the API serves"
    );

    // Each documented operation reaches a handler: never the router's own 404 or 405.
    let some_lobby = "6f1c1c9e-0000-4000-8000-000000000000";
    for (method, path) in &documented {
        let path = path.replace("{id}", some_lobby).replace("{round}", "1");
        let method = Method::from_bytes(method.as_bytes()).unwrap();
        let body = (method == Method::POST).then(|| axum::body::Body::from("{}"));
        let reply = app.send(method.clone(), &path, None, body).await;
        assert_ne!(reply.code(), "not-found", "{method} {path} is routed");
        assert_ne!(
            reply.status,
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path} is routed"
        );
        assert_ne!(
            reply.status,
            StatusCode::INTERNAL_SERVER_ERROR,
            "{method} {path}: {}",
            reply.text
        );
    }

    // Every $ref points at something that exists.
    fn refs<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    match (key.as_str(), v) {
                        ("$ref", Value::String(r)) => out.push(r),
                        _ => refs(v, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    refs(&reply.body, &mut all);
    for r in all {
        let pointer = r.trim_start_matches('#');
        assert!(reply.body.pointer(pointer).is_some(), "dangling $ref {r}");
    }
}

/// Every request example in the document is accepted by the live server (a placeholder in
/// <angle brackets> is filled from the prompt, as the document says), and every registered
/// game has its examples: a create request, a join and an order for its first step, so a game
/// the document forgets fails here rather than being skipped.
#[tokio::test]
async fn every_documented_request_example_is_accepted_by_the_server() {
    let app = sqlite_app().await;
    let doc = app.get("/api/v1/openapi.json", None).await.body;
    let schemas = &doc["components"]["schemas"];
    let examples = |schema: &str| {
        schemas[schema]["examples"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    };
    // A union's members are listed in registration order, one per game.
    let games: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.id()).collect();
    let member = |union: &str, game: &str| {
        let at = games.iter().position(|g| *g == game).unwrap();
        let list = schemas[union]
            .get("oneOf")
            .or(schemas[union].get("anyOf"))
            .and_then(Value::as_array)
            .unwrap();
        list[at].clone()
    };
    let fits = |union: &str, game: &str, example: &Value| {
        validator(&doc, &member(union, game)).is_valid(example)
    };

    let mut lobbies = Vec::new();
    for example in examples("CreateLobbyRequest") {
        let reply = app.post("/api/v1/lobbies", None, example.clone()).await;
        assert_eq!(
            reply.status,
            StatusCode::CREATED,
            "{example}: {}",
            reply.text
        );
        // A game's first example is played on below; its others (a game that starts from a
        // position) are created only.
        let game = example["game"].as_str().unwrap().to_string();
        if lobbies.iter().all(|(g, _, _)| *g != game) {
            lobbies.push((
                game,
                reply.body["id"].as_str().unwrap().to_string(),
                reply.body["host_token"].as_str().unwrap().to_string(),
            ));
        }
    }
    let mut created: Vec<&str> = lobbies.iter().map(|(game, _, _)| game.as_str()).collect();
    created.sort();
    let mut registered = games.clone();
    registered.sort();
    assert_eq!(created, registered, "a create example for each game");

    let mut tokens = Vec::new();
    for example in examples("JoinRequest") {
        let mut joined = 0;
        for (game, lobby, _) in &lobbies {
            if !fits("JoinRequest", game, &example) {
                continue;
            }
            let reply = app
                .post(
                    &format!("/api/v1/lobbies/{lobby}/players"),
                    None,
                    example.clone(),
                )
                .await;
            assert_eq!(
                reply.status,
                StatusCode::CREATED,
                "{example} in {game}: {}",
                reply.text
            );
            joined += 1;
            tokens.push((
                game.clone(),
                lobby.clone(),
                reply.body["player_token"].as_str().unwrap().to_string(),
            ));
        }
        assert!(joined > 0, "{example} is a join some game takes");
    }
    for game in &games {
        let joins = examples("JoinRequest")
            .iter()
            .filter(|e| fits("JoinRequest", game, e))
            .count();
        assert!(joins > 0, "a join example for {game}");
    }
    // Every game starts with two players: a plain name fills the second seat where the
    // examples left one.
    for (_, lobby, host) in &lobbies {
        let seated = tokens.iter().filter(|(_, l, _)| l == lobby).count();
        for name in ["Cat", "Dan"]
            .into_iter()
            .take(2_usize.saturating_sub(seated))
        {
            app.join(lobby, serde_json::json!({"name": name})).await;
        }
        app.start(lobby, host).await;
    }
    let orders = examples("Order");
    for (game, lobby, token) in &tokens {
        let me = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(token))
            .await
            .body;
        // The example for this step of this game, its placeholders filled from the prompt.
        let filled = |example: &Value| {
            let mut order = example.clone();
            for (field, value) in example.as_object().unwrap() {
                if value.as_str().is_some_and(|v| v.starts_with('<')) {
                    order[field] = match field.as_str() {
                        "target" => {
                            let seat = &me["prompt"]["moves"][0]["targets"][0];
                            me["prompt"]["players"][seat.as_u64().unwrap() as usize]["id"].clone()
                        }
                        "token" => me["hand"][0].clone(),
                        other => panic!("no way to fill placeholder {other}"),
                    };
                }
            }
            order
        };
        let order = orders
            .iter()
            .filter(|o| o["step"] == me["step"])
            .map(filled)
            .find(|o| fits("Order", game, o))
            .unwrap_or_else(|| panic!("an order example for {game}'s step {}", me["step"]));
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/orders"),
                Some(token),
                order.clone(),
            )
            .await;
        assert_eq!(
            reply.status,
            StatusCode::ACCEPTED,
            "{order}: {}",
            reply.text
        );
    }
}
