//! Every page route answers its errors as an HTML page, and every response (pages, their
//! errors, the catch-all 404, the static files, the API and its errors) carries the security
//! headers: no sniffing, no framing, no referrer, a content security policy, and `no-store`
//! unless it is a static file.

use axum::body::Body;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, Method, Request, StatusCode};
use serde_json::json;
use tower::ServiceExt;

use crate::support::{TestApp, sqlite_app};

/// Every page route (as `pages::routes` declares them), with the methods it serves.
const PAGES: &[(&str, &[Method])] = &[
    ("/", &[Method::GET]),
    ("/lobbies", &[Method::GET, Method::POST]),
    ("/lobbies/{id}", &[Method::GET]),
    ("/lobbies/{id}/join", &[Method::GET, Method::POST]),
    ("/lobbies/{id}/as/{token}", &[Method::GET]),
    ("/lobbies/{id}/host", &[Method::GET]),
    ("/lobbies/{id}/host/close-signups", &[Method::POST]),
    ("/lobbies/{id}/host/start", &[Method::POST]),
    ("/lobbies/{id}/play", &[Method::GET, Method::POST]),
    ("/lobbies/{id}/rounds/{round}", &[Method::GET]),
    ("/tournaments", &[Method::GET, Method::POST]),
    ("/tournaments/new", &[Method::GET]),
    ("/tournaments/{id}", &[Method::GET]),
    ("/tournaments/{id}/stamp", &[Method::GET]),
    ("/tournaments/{id}/enter", &[Method::POST]),
    ("/tournaments/{id}/withdraw", &[Method::POST]),
    ("/tournaments/{id}/as/{token}", &[Method::GET]),
    ("/tournaments/{id}/director", &[Method::GET]),
    ("/tournaments/{id}/director/next-round", &[Method::POST]),
];

/// Parameters that name nothing: not UUIDs, not UTF-8, unknown.
const BAD: &[&str] = &[
    "not-a-lobby",
    "%ff%fe",
    "6f1c1c9e-0000-4000-8000-000000000000",
    "%00",
];

async fn send(app: &TestApp, method: Method, path: &str) -> (StatusCode, HeaderMap) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from("name=Ann"))
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    (response.status(), response.headers().clone())
}

fn header<'a>(headers: &'a HeaderMap, name: &axum::http::HeaderName) -> &'a str {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

fn assert_secured(what: &str, headers: &HeaderMap, cached: bool) {
    assert_eq!(
        header(headers, &X_CONTENT_TYPE_OPTIONS),
        "nosniff",
        "{what}"
    );
    assert_eq!(header(headers, &X_FRAME_OPTIONS), "DENY", "{what}");
    assert_eq!(header(headers, &REFERRER_POLICY), "no-referrer", "{what}");
    assert!(
        header(headers, &CONTENT_SECURITY_POLICY).contains("frame-ancestors 'none'"),
        "{what}"
    );
    if !cached {
        assert_eq!(header(headers, &CACHE_CONTROL), "no-store", "{what}");
    }
}

fn assert_html_error(what: &str, status: StatusCode, headers: &HeaderMap) {
    assert!(status.is_client_error(), "{what}: {status}");
    assert!(
        header(headers, &CONTENT_TYPE).starts_with("text/html"),
        "{what}: {status} {:?}",
        headers.get(CONTENT_TYPE)
    );
    assert!(
        header(headers, &CONTENT_SECURITY_POLICY).contains("default-src 'self'"),
        "{what}: a page's policy"
    );
    assert_secured(what, headers, false);
}

#[tokio::test]
async fn every_page_route_answers_errors_as_html_with_the_security_headers() {
    let app = sqlite_app().await;
    let (lobby, _) = app.create_lobby("crossing-swords", json!({})).await;
    for (route, methods) in PAGES {
        for bad in BAD {
            if !route.contains('{') {
                continue;
            }
            let path = route.replace("{id}", bad).replace("{token}", bad);
            let path = path.replace("{round}", "1");
            for method in *methods {
                let (status, headers) = send(&app, method.clone(), &path).await;
                assert_html_error(&format!("{method} {path}"), status, &headers);
            }
            if route.contains("{round}") || route.contains("{token}") {
                let path = route
                    .replace("{id}", &lobby)
                    .replace("{round}", bad)
                    .replace("{token}", bad);
                let (status, headers) = send(&app, Method::GET, &path).await;
                assert_html_error(&format!("GET {path}"), status, &headers);
            }
        }
        let path = route
            .replace("{id}", &lobby)
            .replace("{token}", "0")
            .replace("{round}", "1");
        // A method the route does not serve: an HTML 405.
        let (status, headers) = send(&app, Method::PUT, &path).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "PUT {path}");
        assert_html_error(&format!("PUT {path}"), status, &headers);
        // A form posted without the CSRF token: an HTML 403.
        if methods.contains(&Method::POST) {
            let (status, headers) = send(&app, Method::POST, &path).await;
            assert_html_error(&format!("POST {path}"), status, &headers);
        }
    }
}

#[tokio::test]
async fn every_kind_of_response_carries_the_security_headers() {
    let app = sqlite_app().await;
    let (lobby, _) = app.create_lobby("crossing-swords", json!({})).await;
    let (status, headers) = send(&app, Method::GET, "/no/such/page").await;
    assert_html_error("the catch-all 404", status, &headers);

    let (status, headers) = send(&app, Method::GET, "/").await;
    assert_eq!(status, StatusCode::OK);
    assert_secured("the home page", &headers, false);
    let (status, headers) = send(&app, Method::GET, &format!("/lobbies/{lobby}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_secured("a lobby page", &headers, false);

    for file in ["/static/herald.css", "/static/herald.js"] {
        let (status, headers) = send(&app, Method::GET, file).await;
        assert_eq!(status, StatusCode::OK);
        assert_secured(file, &headers, true);
        assert!(
            header(&headers, &CACHE_CONTROL).starts_with("public"),
            "{file}"
        );
    }

    for path in [
        "/api/v1/lobbies".to_owned(),
        format!("/api/v1/lobbies/{lobby}"),
        "/api/v1/lobbies/%ff%fe".to_owned(),
        "/api/v1/nothing".to_owned(),
    ] {
        let (_, headers) = send(&app, Method::GET, &path).await;
        assert_secured(&path, &headers, false);
        assert_eq!(
            header(&headers, &CONTENT_SECURITY_POLICY),
            "default-src 'none'; frame-ancestors 'none'",
            "{path}"
        );
        assert!(header(&headers, &CONTENT_TYPE).starts_with("application/json"));
    }

    // An event stream too (its own cache rule, which the boundary keeps).
    let (status, headers) = send(
        &app,
        Method::GET,
        &format!("/api/v1/lobbies/{lobby}/events"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(header(&headers, &CONTENT_TYPE).starts_with("text/event-stream"));
    assert_secured("an event stream", &headers, true);
}
