//! Rate limits on creating and joining lobbies and on making profiles, per client address,
//! over real sockets: 429 with `Retry-After` (JSON on the API, a page on the forms);
//! `X-Forwarded-For` counts only from a trusted proxy; an exempt address is never limited.
//! And cookies, a signed-in browser's session among them, are `Secure` when Herald is reached
//! over HTTPS (a public URL, or a trusted proxy's `X-Forwarded-Proto`).

use reqwest::StatusCode;
use reqwest::header::{RETRY_AFTER, SET_COOKIE};
use serde_json::{Value, json};

use crate::server_limits::{Served, relaxed, serve};
use herald::Options;
use herald::http::client::net;

fn client() -> reqwest::Client {
    herald::notify::install_crypto_provider();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

fn base(served: &Served) -> String {
    format!("http://{}", served.address)
}

async fn create(served: &Served, forwarded_for: Option<&str>) -> reqwest::Response {
    let mut request = client()
        .post(format!("{}/api/v1/lobbies", base(served)))
        .json(&json!({"game": "crossing-swords", "name": "Rate"}));
    if let Some(address) = forwarded_for {
        request = request.header("x-forwarded-for", address);
    }
    request.send().await.unwrap()
}

async fn expect_429_json(response: reqwest::Response) {
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = response.headers()[RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "Retry-After {wait}");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate-limited");
}

fn limited(per_minute: u32) -> Options {
    let mut options = relaxed();
    options.rates.lobbies_per_minute = per_minute;
    options.rates.joins_per_minute = per_minute;
    options
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_allowance() {
    let mut options = limited(2);
    options.exposure.trusted_proxies = vec![net("127.0.0.1").unwrap()];
    let served = serve(options).await;
    for _ in 0..2 {
        let response = create(&served, Some("203.0.113.5")).await;
        assert_eq!(response.status(), StatusCode::CREATED);
    }
    expect_429_json(create(&served, Some("203.0.113.5")).await).await;
    // The proxy appends the address it heard from; what the client wrote before it is not
    // believed past the trusted hop.
    expect_429_json(create(&served, Some("198.51.100.77, 203.0.113.5")).await).await;
    let other = create(&served, Some("203.0.113.6")).await;
    assert_eq!(other.status(), StatusCode::CREATED);
}

#[tokio::test]
async fn an_untrusted_peer_cannot_escape_its_limit_with_x_forwarded_for() {
    let served = serve(limited(2)).await;
    for n in 0..2 {
        let response = create(&served, Some(&format!("203.0.113.{n}"))).await;
        assert_eq!(response.status(), StatusCode::CREATED);
    }
    expect_429_json(create(&served, Some("203.0.113.99")).await).await;
    expect_429_json(create(&served, None).await).await;
}

#[tokio::test]
async fn joins_are_limited_and_an_exempt_address_is_not() {
    let served = serve(limited(1)).await;
    let created: Value = create(&served, None).await.json().await.unwrap();
    let lobby = created["id"].as_str().unwrap().to_owned();
    let join = |name: &'static str| {
        let url = format!("{}/api/v1/lobbies/{lobby}/players", base(&served));
        async move {
            client()
                .post(url)
                .json(&json!({"name": name}))
                .send()
                .await
                .unwrap()
        }
    };
    assert_eq!(join("Ann").await.status(), StatusCode::CREATED);
    expect_429_json(join("Bob").await).await;

    let mut options = limited(1);
    options.rates.rate_limit_exempt = vec![net("127.0.0.0/8").unwrap()];
    let exempt = serve(options).await;
    for _ in 0..5 {
        assert_eq!(create(&exempt, None).await.status(), StatusCode::CREATED);
    }
}

async fn make_profile(served: &Served, handle: &str) -> reqwest::Response {
    client()
        .post(format!("{}/api/v1/profiles", base(served)))
        .json(&json!({"handle": handle}))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn profiles_are_made_from_the_allowance_for_creating_lobbies() {
    let served = serve(limited(2)).await;
    for handle in ["First", "Second"] {
        let response = make_profile(&served, handle).await;
        assert_eq!(response.status(), StatusCode::CREATED, "{handle}");
    }
    expect_429_json(make_profile(&served, "Third").await).await;
    // One allowance: storage a client asks for, a lobby or a profile.
    expect_429_json(create(&served, None).await).await;
}

/// The CSRF cookie a page hands out, and the `Set-Cookie` header it came in.
async fn csrf(served: &Served, headers: &[(&str, &str)]) -> (String, String) {
    let mut request = client().get(format!("{}/", base(served)));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let cookie = response.headers()[SET_COOKIE].to_str().unwrap().to_owned();
    let token = cookie
        .strip_prefix("herald_csrf=")
        .and_then(|rest| rest.split(';').next())
        .unwrap()
        .to_owned();
    (token, cookie)
}

async fn create_by_form(served: &Served, token: &str) -> reqwest::Response {
    client()
        .post(format!("{}/lobbies", base(served)))
        .header("cookie", format!("herald_csrf={token}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(
            form_urlencoded::Serializer::new(String::new())
                .append_pair("csrf", token)
                .append_pair("game", "crossing-swords")
                .append_pair("name", "Form")
                .finish(),
        )
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_create_form_is_limited_too_with_an_html_429() {
    let served = serve(limited(1)).await;
    let (token, cookie) = csrf(&served, &[]).await;
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    let first = create_by_form(&served, &token).await;
    assert_eq!(first.status(), StatusCode::SEE_OTHER);
    let host_cookie = first.headers()[SET_COOKIE].to_str().unwrap().to_owned();
    assert!(!host_cookie.contains("Secure"), "{host_cookie}");
    let second = create_by_form(&served, &token).await;
    assert_eq!(second.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(second.headers().contains_key(RETRY_AFTER));
    let content_type = second.headers()["content-type"].to_str().unwrap();
    assert!(content_type.starts_with("text/html"), "{content_type}");
}

#[tokio::test]
async fn cookies_are_secure_over_https_by_public_url_or_trusted_proxy_only() {
    let mut options = relaxed();
    options.exposure.public_url = Some("https://herald.example".into());
    let public = serve(options).await;
    let (token, cookie) = csrf(&public, &[]).await;
    assert!(cookie.contains("; Secure"), "{cookie}");
    let created = create_by_form(&public, &token).await;
    assert_eq!(created.status(), StatusCode::SEE_OTHER);
    let host_cookie = created.headers()[SET_COOKIE].to_str().unwrap();
    assert!(host_cookie.contains("; Secure"), "{host_cookie}");

    let mut options = relaxed();
    options.exposure.trusted_proxies = vec![net("127.0.0.1").unwrap()];
    let proxied = serve(options).await;
    let (_, cookie) = csrf(&proxied, &[("x-forwarded-proto", "https")]).await;
    assert!(cookie.contains("; Secure"), "{cookie}");
    let (_, cookie) = csrf(&proxied, &[]).await;
    assert!(!cookie.contains("Secure"), "{cookie}");

    // The session cookie of a sign-in link, too.
    let made: Value = make_profile(&public, "Secure Ann")
        .await
        .json()
        .await
        .unwrap();
    let key = made["key"].as_str().unwrap();
    let signed_in = client()
        .get(format!("{}/me/as/{key}", base(&public)))
        .send()
        .await
        .unwrap();
    assert_eq!(signed_in.status(), StatusCode::SEE_OTHER);
    let session = signed_in
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("herald_session="))
        .expect("a session cookie");
    assert!(session.contains("; Secure"), "{session}");

    let untrusted = serve(relaxed()).await;
    let (_, cookie) = csrf(&untrusted, &[("x-forwarded-proto", "https")]).await;
    assert!(!cookie.contains("Secure"), "a client's own claim: {cookie}");
}
