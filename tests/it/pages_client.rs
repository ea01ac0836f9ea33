//! A tiny in-process browser for page tests: a cookie jar, form posts with the CSRF field
//! filled in from the page, and helpers to read what a page shows.

use std::collections::BTreeMap;

use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use tower::ServiceExt;

use crate::support::TestApp;

/// The name every page test gives its most hostile player.
pub const HOSTILE: &str = "<script>alert(1)</script>[b]x[/b]";

/// One response as a browser sees it.
#[derive(Debug)]
pub struct Page {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub html: String,
}

impl Page {
    pub fn location(&self) -> &str {
        self.headers
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    /// The `Set-Cookie` headers of this response.
    pub fn set_cookies(&self) -> Vec<String> {
        self.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok().map(str::to_owned))
            .collect()
    }

    /// The value of the first `name="..." value="..."` hidden input, as rendered.
    pub fn input_value(&self, name: &str) -> Option<String> {
        let marker = format!("name=\"{name}\" value=\"");
        let start = self.html.find(&marker)? + marker.len();
        let end = self.html[start..].find('"')?;
        Some(self.html[start..start + end].to_owned())
    }

    /// Option values of a select, with their labels as rendered.
    pub fn options(&self, select_id: &str) -> Vec<(String, String)> {
        let Some(start) = self.html.find(&format!("<select id=\"{select_id}\"")) else {
            return Vec::new();
        };
        let end = start + self.html[start..].find("</select>").unwrap_or(0);
        let mut found = Vec::new();
        let mut rest = &self.html[start..end];
        while let Some(at) = rest.find("<option value=\"") {
            rest = &rest[at + 15..];
            let value = &rest[..rest.find('"').unwrap()];
            let label_start = rest.find('>').unwrap() + 1;
            let label = &rest[label_start..label_start + rest[label_start..].find('<').unwrap()];
            if !value.is_empty() {
                found.push((value.to_owned(), unescape(label)));
            }
        }
        found
    }

    /// The value of the option labelled `label` in a select.
    pub fn option_for(&self, select_id: &str, label: &str) -> String {
        self.options(select_id)
            .into_iter()
            .find(|(_, l)| l == label)
            .unwrap_or_else(|| panic!("no option {label:?} in #{select_id}: {}", self.html))
            .0
    }
}

/// A browser: a cookie jar (paths ignored: each test stays within one lobby or tracks it).
pub struct Visitor<'a> {
    pub app: &'a TestApp,
    pub cookies: BTreeMap<String, String>,
    /// Extra headers sent with every request (e.g. a hostile `Origin`).
    pub extra: Vec<(&'static str, String)>,
}

impl<'a> Visitor<'a> {
    pub fn new(app: &'a TestApp) -> Visitor<'a> {
        Visitor {
            app,
            cookies: BTreeMap::new(),
            extra: Vec::new(),
        }
    }

    pub async fn request(&mut self, method: Method, path: &str, body: Option<String>) -> Page {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, "herald.test");
        if !self.cookies.is_empty() {
            let jar: Vec<String> = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            request = request.header(header::COOKIE, jar.join("; "));
        }
        for (name, value) in &self.extra {
            request = request.header(*name, value);
        }
        if body.is_some() {
            request = request.header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        }
        let request = request
            .body(body.map(Body::from).unwrap_or_else(Body::empty))
            .unwrap();
        let response = self.app.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let page = Page {
            status,
            headers,
            html: String::from_utf8_lossy(&bytes).into_owned(),
        };
        for cookie in page.set_cookies() {
            let pair = cookie.split(';').next().unwrap_or("");
            if let Some((name, value)) = pair.split_once('=') {
                self.cookies.insert(name.to_owned(), value.to_owned());
            }
        }
        page
    }

    pub async fn get(&mut self, path: &str) -> Page {
        self.request(Method::GET, path, None).await
    }

    /// Posts `fields` as a form, adding the CSRF field from this browser's cookie (fetching a
    /// page first if it has none yet).
    pub async fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Page {
        if !self.cookies.contains_key("herald_csrf") {
            self.get("/").await;
        }
        let csrf = self.cookies["herald_csrf"].clone();
        let mut all: Vec<(&str, &str)> = vec![("csrf", csrf.as_str())];
        all.extend_from_slice(fields);
        self.post_raw(path, &all).await
    }

    /// Posts exactly `fields`, with no CSRF field added.
    pub async fn post_raw(&mut self, path: &str, fields: &[(&str, &str)]) -> Page {
        let body = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(fields)
            .finish();
        self.request(Method::POST, path, Some(body)).await
    }

    /// Creates a Crossing Swords lobby through the home page; returns its id.
    pub async fn create_lobby(&mut self, name: &str) -> String {
        let page = self
            .post(
                "/lobbies",
                &[
                    ("game", "crossing-swords"),
                    ("name", name),
                    ("crossing-swords.max_players", ""),
                ],
            )
            .await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        let location = page.location().to_owned();
        location
            .strip_prefix("/lobbies/")
            .and_then(|rest| rest.split('/').next())
            .expect("redirect to the host panel")
            .to_owned()
    }

    /// Joins a lobby through its join form.
    pub async fn join(&mut self, lobby: &str, name: &str) -> Page {
        self.post(&format!("/lobbies/{lobby}/join"), &[("name", name)])
            .await
    }
}

/// Checks that no page shows the hostile name unescaped (as markup).
pub fn assert_escaped(page: &Page) {
    assert!(
        !page.html.contains("<script>alert(1)</script>"),
        "the hostile name is rendered as markup: {}",
        page.html
    );
}

/// Undoes HTML escaping of text (what a person reads on the page).
pub fn unescape(html: &str) -> String {
    html.replace("&#60;", "<")
        .replace("&#62;", ">")
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&#38;", "&")
}

/// Text as the templates escape it.
pub fn escape(text: &str) -> String {
    text.replace('&', "&#38;")
        .replace('<', "&#60;")
        .replace('>', "&#62;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;")
}
