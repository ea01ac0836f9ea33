//! A property test that walks every route of the OpenAPI document (the assembled document the
//! server serves, read at test time, so a new route is walked without a change here)
//! with malformed input: path parameters that are not UUIDs or numbers, percent-escapes that
//! are not UTF-8, huge segments, wrong query values, bodies that are not JSON, of the wrong
//! types or too large, methods a path does not serve, trailing segments. Every answer must be
//! a 4xx with Herald's JSON error and its content type, and one of the statuses the operation
//! documents when the request is still that operation's.

use axum::body::Body;
use axum::http::header::CONTENT_TYPE;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::support::{TestApp, sqlite_app};

/// One documented operation.
#[derive(Clone, Debug)]
struct Route {
    method: Method,
    path: String,
    /// Each declared query parameter and its schema type.
    query: Vec<(String, String)>,
    /// The body's properties and their schema types, if the operation takes a body.
    body: Option<Vec<(String, String)>>,
    /// Every method the path serves.
    served: Vec<Method>,
    /// The statuses the operation documents.
    responses: Vec<String>,
}

fn document() -> Value {
    herald::http::api::openapi::DOCUMENT.clone()
}

/// Follows a `$ref` within the document.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => resolve(
            doc,
            doc.pointer(r.trim_start_matches('#')).unwrap_or(schema),
        ),
        None => schema,
    }
}

fn type_of(doc: &Value, schema: &Value) -> String {
    let schema = resolve(doc, schema);
    match &schema["type"] {
        Value::String(t) => t.clone(),
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("")
            .to_owned(),
        _ => String::new(),
    }
}

/// The properties of a body schema, through `$ref`, `oneOf`, `anyOf` and `allOf`.
fn properties(doc: &Value, schema: &Value, out: &mut Vec<(String, String)>) {
    let schema = resolve(doc, schema);
    if let Some(props) = schema["properties"].as_object() {
        for (name, property) in props {
            out.push((name.clone(), type_of(doc, property)));
        }
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        for variant in schema[key].as_array().into_iter().flatten() {
            properties(doc, variant, out);
        }
    }
}

fn routes(doc: &Value) -> Vec<Route> {
    let mut routes = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        let served: Vec<Method> = item
            .as_object()
            .unwrap()
            .keys()
            .filter_map(|m| Method::from_bytes(m.to_uppercase().as_bytes()).ok())
            .collect();
        for (method, operation) in item.as_object().unwrap() {
            let Ok(method) = Method::from_bytes(method.to_uppercase().as_bytes()) else {
                continue;
            };
            let query = operation["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| resolve(doc, p))
                .filter(|p| p["in"] == "query")
                .map(|p| {
                    let name = p["name"].as_str().unwrap().to_owned();
                    (name, type_of(doc, &p["schema"]))
                })
                .collect();
            let body = operation["requestBody"]["content"]["application/json"]["schema"]
                .as_object()
                .map(|_| {
                    let mut found = Vec::new();
                    let schema = &operation["requestBody"]["content"]["application/json"]["schema"];
                    properties(doc, schema, &mut found);
                    found
                });
            let responses = operation["responses"]
                .as_object()
                .map(|r| r.keys().cloned().collect())
                .unwrap_or_default();
            routes.push(Route {
                method,
                path: path.clone(),
                query,
                body,
                served: served.clone(),
                responses,
            });
        }
    }
    routes
}

/// A path parameter no route can take.
fn bad_param() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z._~-][a-zA-Z0-9._~-]{0,40}",
        prop::collection::vec(0x80u8..=0xff, 1..12)
            .prop_map(|bytes| bytes.iter().map(|b| format!("%{b:02X}")).collect()),
        (1000usize..4000).prop_map(|n| "z".repeat(n)),
        Just("%ff%fe".to_owned()),
        Just("-1".to_owned()),
        Just("99999999999999999999999".to_owned()),
        Just("6f1c1c9e-0000-4000-8000-00000000000g".to_owned()),
    ]
}

/// A query value that is not of its parameter's type (any text with a letter is not an
/// integer; an unknown word is not an event kind).
fn bad_query_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{0,3}[g-z][a-z0-9.]{0,8}",
        Just("1.5".to_owned()),
        Just("99999999999999999999999".to_owned()),
        Just("%ff%fe".to_owned()),
    ]
}

#[derive(Clone, Debug)]
enum Sent {
    NotJson(Vec<u8>),
    NotAnObject(Value),
    WrongType(usize),
    Huge(usize),
}

fn bad_body() -> impl Strategy<Value = Sent> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..200).prop_map(Sent::NotJson),
        prop_oneof![
            Just(json!([])),
            Just(json!(null)),
            Just(json!(42)),
            Just(json!("lobby")),
            Just(json!([{"name": "Ann"}])),
        ]
        .prop_map(Sent::NotAnObject),
        any::<usize>().prop_map(Sent::WrongType),
        (65 * 1024usize..80 * 1024).prop_map(Sent::Huge),
    ]
}

/// A value of a type other than `kind`.
fn wrong(kind: &str) -> Value {
    match kind {
        "string" => json!(12345),
        "integer" | "number" => json!("seven"),
        "boolean" => json!("yes"),
        "array" => json!({"not": "a list"}),
        _ => json!([[["not", "this"]]]),
    }
}

#[derive(Clone, Debug)]
enum Mangle {
    Params(Vec<String>),
    Query(usize, String),
    Body(Sent),
    Method(usize),
    Trailing(String),
}

fn mangle() -> impl Strategy<Value = Mangle> {
    prop_oneof![
        prop::collection::vec(bad_param(), 2).prop_map(Mangle::Params),
        (any::<usize>(), bad_query_value()).prop_map(|(i, v)| Mangle::Query(i, v)),
        bad_body().prop_map(Mangle::Body),
        any::<usize>().prop_map(Mangle::Method),
        bad_param().prop_map(Mangle::Trailing),
    ]
}

/// Whether the mangled request is still the route's operation (so its answer must be one the
/// operation documents), not a path or method no route has.
fn keeps_route(route: &Route, mangle: &Mangle) -> bool {
    match mangle {
        Mangle::Params(_) => route.path.contains('{'),
        Mangle::Query(..) => !route.query.is_empty(),
        Mangle::Body(_) => route.body.is_some(),
        Mangle::Method(_) | Mangle::Trailing(_) => false,
    }
}

/// The request a mangling makes of a route: method, path, body. Parameters it does not mangle
/// name a real lobby (so that the malformed part is what the server must refuse).
fn request(route: &Route, mangle: &Mangle, lobby: &str) -> (Method, String, Option<Vec<u8>>) {
    let fill = |path: &str, values: &[String]| {
        let mut out = path.to_owned();
        let mut values = values.iter();
        while let (Some(start), Some(end)) = (out.find('{'), out.find('}')) {
            let value = values.next().cloned().unwrap_or_else(|| "x".into());
            out.replace_range(start..=end, &value);
        }
        out
    };
    let real = fill(&route.path, &[lobby.to_owned(), "1".to_owned()]);
    let mut method = route.method.clone();
    let mut path = real.clone();
    let mut body = None;
    match mangle {
        Mangle::Params(values) if route.path.contains('{') => {
            let mut values = values.clone();
            // Keep a real lobby sometimes, so that a bad second parameter is reached.
            if route.path.matches('{').count() > 1 && values[0].len() % 2 == 0 {
                values[0] = lobby.to_owned();
            }
            path = fill(&route.path, &values);
        }
        Mangle::Params(values) => path = format!("{real}/{}", values[0]),
        Mangle::Query(i, value) if !route.query.is_empty() => {
            let (name, _) = &route.query[i % route.query.len()];
            path = format!("{real}?{name}={value}");
        }
        Mangle::Body(kind) if route.body.is_some() => {
            let props = route.body.as_ref().unwrap();
            body = Some(match kind {
                Sent::NotJson(bytes) => {
                    let mut bytes = bytes.clone();
                    if serde_json::from_slice::<Value>(&bytes).is_ok_and(|v| v.is_object()) {
                        bytes.insert(0, b'!');
                    }
                    bytes
                }
                Sent::NotAnObject(value) => value.to_string().into_bytes(),
                Sent::WrongType(i) if !props.is_empty() => {
                    let (name, kind) = &props[i % props.len()];
                    json!({ name: wrong(kind) }).to_string().into_bytes()
                }
                Sent::WrongType(_) => b"[]".to_vec(),
                Sent::Huge(n) => {
                    let mut text = b"{\"name\":\"".to_vec();
                    text.resize(*n, b'a');
                    text.extend_from_slice(b"\"}");
                    text
                }
            });
        }
        Mangle::Method(i) => {
            let others: Vec<Method> = [Method::PUT, Method::DELETE, Method::PATCH]
                .into_iter()
                .filter(|m| !route.served.contains(m))
                .collect();
            method = others[i % others.len()].clone();
        }
        Mangle::Trailing(segment) => path = format!("{real}/{segment}"),
        // A mangling that does not apply to this route: a segment no route has.
        Mangle::Query(..) | Mangle::Body(_) => path = format!("{real}/%ff%fe"),
    }
    (method, path, body)
}

/// Sends a request to the app in-process; its status, content type and body text.
async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<Vec<u8>>,
) -> (StatusCode, String, String) {
    let mut request = Request::builder().method(method).uri(path);
    if body.is_some() {
        request = request.header(CONTENT_TYPE, "application/json");
    }
    let request = request
        .body(body.map(Body::from).unwrap_or_else(Body::empty))
        .expect("a valid request");
    let response = app.router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let content_type = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        content_type,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

async fn check(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<Vec<u8>>,
    documented: Option<&[String]>,
) -> Result<(), String> {
    let (status, content_type, text) = send(app, method.clone(), path, body).await;
    let what = format!("{method} {}", &path[..path.len().min(120)]);
    if !status.is_client_error() {
        return Err(format!("{what}: {status} {text}"));
    }
    if let Some(documented) = documented
        && !documented.contains(&status.as_u16().to_string())
    {
        return Err(format!(
            "{what}: {status} is not among the operation's documented {documented:?}: {text}"
        ));
    }
    let reply: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    let error = &reply["error"];
    let shaped = reply.as_object().is_some_and(|o| o.len() == 1)
        && error["code"].as_str().is_some_and(|c| {
            !c.is_empty() && c.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
        })
        && error["message"].as_str().is_some_and(|m| !m.is_empty());
    if !shaped {
        return Err(format!("{what}: not Herald's JSON error: {text}"));
    }
    if !content_type.starts_with("application/json") {
        return Err(format!("{what}: content type {content_type:?}"));
    }
    Ok(())
}

#[test]
fn every_documented_route_answers_malformed_input_with_a_4xx_json_error() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let doc = document();
    let routes = routes(&doc);
    assert!(routes.len() >= 10, "the document lists the routes");
    let app = runtime.block_on(sqlite_app());
    let lobby = runtime
        .block_on(app.create_lobby("crossing-swords", json!({})))
        .0;
    let mut runner = TestRunner::new(Config {
        cases: 400,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&(0..routes.len(), mangle()), |(index, mangle)| {
            let route = &routes[index];
            let (method, path, body) = request(route, &mangle, &lobby);
            let documented = keeps_route(route, &mangle).then_some(route.responses.as_slice());
            let checked = runtime.block_on(check(&app, method, &path, body, documented));
            prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
            Ok(())
        })
        .unwrap();
}
