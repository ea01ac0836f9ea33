//! The OpenAPI document describes every route, and every documented route is served.

use axum::http::{Method, StatusCode};
use serde_json::Value;

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
    let expected = [
        ("GET", "/api/v1/lobbies"),
        ("GET", "/api/v1/lobbies/{id}"),
        ("GET", "/api/v1/lobbies/{id}/events"),
        ("GET", "/api/v1/lobbies/{id}/me"),
        ("GET", "/api/v1/lobbies/{id}/me/events"),
        ("GET", "/api/v1/lobbies/{id}/rounds"),
        ("GET", "/api/v1/lobbies/{id}/rounds/{round}"),
        ("GET", "/api/v1/openapi.json"),
        ("POST", "/api/v1/lobbies"),
        ("POST", "/api/v1/lobbies/{id}/close-signups"),
        ("POST", "/api/v1/lobbies/{id}/orders"),
        ("POST", "/api/v1/lobbies/{id}/players"),
        ("POST", "/api/v1/lobbies/{id}/start"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    assert_eq!(
        documented, expected,
        "the document lists exactly the API's routes"
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
