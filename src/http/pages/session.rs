//! Who a browser is, and proof that a form came from our own page.
//!
//! Identity: a lobby's host token and player token live in HttpOnly, SameSite=Lax cookies
//! scoped to that lobby's pages (`Path=/lobbies/<id>`), one per role, so that a host who also
//! plays keeps both.
//!
//! Forms (see `docs/web.md`): every page response carries a random `herald_csrf` cookie (set on
//! first visit), every form repeats it in a hidden `csrf` field, and a POST is accepted only if
//! the two agree and the browser's `Sec-Fetch-Site` / `Origin` headers, when sent, say the
//! request came from this site. Another site can make a browser send the cookie, but cannot
//! read it to fill in the field.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::header::{COOKIE, HOST, ORIGIN, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::Response;
use uuid::Uuid;

use super::error::PageError;
use crate::error::AppError;
use crate::host::auth::new_token;
use crate::http::AppState;
use crate::http::client::peer;

pub const CSRF_COOKIE: &str = "herald_csrf";
const FORWARDED_PROTO: &str = "x-forwarded-proto";
/// How long identity cookies live: a play-by-forum game can run for months.
const IDENTITY_MAX_AGE: u64 = 180 * 24 * 3600;

/// The value of cookie `name`, if the request carries it.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.trim())
        .filter(|v| !v.is_empty())
}

/// The role a token gives in a lobby, naming its cookie.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    Host,
    Player,
}

impl Role {
    pub fn cookie_name(self, lobby: Uuid) -> String {
        match self {
            Role::Host => format!("herald_host_{}", lobby.simple()),
            Role::Player => format!("herald_player_{}", lobby.simple()),
        }
    }
}

/// How the browser reached Herald: over HTTPS or not (then cookies are `Secure`, and shared
/// links say `https`). HTTPS is known from an `https://` public URL or a trusted proxy's
/// `X-Forwarded-Proto` ([`crate::http::client::Exposure::https_from`]).
#[derive(Copy, Clone, Debug)]
pub struct Transport {
    pub https: bool,
}

impl Transport {
    pub(super) fn cookie_attributes(self) -> &'static str {
        if self.https {
            "HttpOnly; SameSite=Lax; Secure"
        } else {
            "HttpOnly; SameSite=Lax"
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Transport {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Transport, PageError> {
        parts.extensions.get::<Transport>().copied().ok_or_else(|| {
            PageError(AppError::Internal(
                "page route without the session layer".into(),
            ))
        })
    }
}

/// The `Set-Cookie` header that remembers `token` for `role` in `lobby`. Tokens are hex and
/// lobby ids UUIDs, so the value needs no quoting.
pub fn identity_cookie(lobby: Uuid, role: Role, token: &str, transport: Transport) -> HeaderValue {
    let text = format!(
        "{}={token}; Path=/lobbies/{lobby}; Max-Age={IDENTITY_MAX_AGE}; {}",
        role.cookie_name(lobby),
        transport.cookie_attributes()
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The `Set-Cookie` header that makes the browser forget its `role` token for `lobby` (a
/// player who left).
pub fn forget_cookie(lobby: Uuid, role: Role) -> HeaderValue {
    let text = format!(
        "{}=; Path=/lobbies/{lobby}; Max-Age=0; HttpOnly; SameSite=Lax",
        role.cookie_name(lobby)
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The lobby tokens a request's cookies hold.
#[derive(Clone, Debug, Default)]
pub struct Tokens {
    pub host: Option<String>,
    pub player: Option<String>,
}

impl Tokens {
    pub fn of(headers: &HeaderMap, lobby: Uuid) -> Tokens {
        Tokens {
            host: cookie(headers, &Role::Host.cookie_name(lobby)).map(str::to_owned),
            player: cookie(headers, &Role::Player.cookie_name(lobby)).map(str::to_owned),
        }
    }
}

/// This browser's CSRF token, to put in every form of the page being rendered.
#[derive(Clone, Debug)]
pub struct Csrf(pub String);

/// Middleware for the pages: makes sure the browser has a CSRF cookie, issuing one on the
/// first visit, and makes the token available to handlers as [`Csrf`]. It also settles the
/// [`Transport`]: the request's `X-Forwarded-Proto` is replaced by what Herald believes
/// (`https`, or nothing), so that links built from the headers never trust a client's claim.
pub async fn issue_csrf(State(app): State<AppState>, mut request: Request, next: Next) -> Response {
    let transport = Transport {
        https: app
            .edge
            .exposure
            .https_from(request.headers(), peer(request.extensions())),
    };
    request.extensions_mut().insert(transport);
    if transport.https {
        request
            .headers_mut()
            .insert(FORWARDED_PROTO, HeaderValue::from_static("https"));
    } else {
        request.headers_mut().remove(FORWARDED_PROTO);
    }
    let existing = cookie(request.headers(), CSRF_COOKIE)
        .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_owned);
    let fresh = existing.is_none();
    let token = existing.unwrap_or_else(new_token);
    request.extensions_mut().insert(Csrf(token.clone()));
    let mut response = next.run(request).await;
    if fresh {
        let text = format!(
            "{CSRF_COOKIE}={token}; Path=/; {}",
            transport.cookie_attributes()
        );
        if let Ok(value) = HeaderValue::from_str(&text) {
            response.headers_mut().append(SET_COOKIE, value);
        }
    }
    response
}

impl<S: Send + Sync> FromRequestParts<S> for Csrf {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Csrf, PageError> {
        parts
            .extensions
            .get::<Csrf>()
            .cloned()
            .ok_or_else(|| PageError(AppError::Internal("page route without CSRF layer".into())))
    }
}

/// A form POSTed from one of our own pages: the fields, in order, once the request has passed
/// the same-site checks and the CSRF double-submit check.
#[derive(Debug)]
pub struct CheckedForm {
    pub fields: Vec<(String, String)>,
}

impl CheckedForm {
    /// The first value of field `name` (empty if absent).
    pub fn get(&self, name: &str) -> &str {
        self.fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or("")
    }

    /// Every value of field `name` (a group of checkboxes).
    pub fn all(&self, name: &str) -> Vec<String> {
        self.fields
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .collect()
    }
}

fn refused(message: &str) -> PageError {
    PageError(AppError::forbidden("cross-site-form", message))
}

/// Refuses a request a browser marks as coming from another site. `Origin` is compared with
/// the request's authority: the target URI's (HTTP/2 sends `:authority` and no `Host`; an
/// HTTP/1 absolute-form target carries one too), else the `Host` header.
fn check_same_site(uri: &Uri, headers: &HeaderMap) -> Result<(), PageError> {
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok())
        && !matches!(site, "same-origin" | "none")
    {
        return Err(refused(
            "This form was sent from another site, so Herald refused it. Open the page here and try again.",
        ));
    }
    if let Some(origin) = headers.get(ORIGIN).and_then(|v| v.to_str().ok()) {
        let origin_host = origin.split_once("://").map(|(_, rest)| rest);
        let host = uri
            .authority()
            .map(|authority| authority.as_str())
            .or_else(|| headers.get(HOST).and_then(|v| v.to_str().ok()));
        if origin_host.is_none() || origin_host != host {
            return Err(refused(
                "This form was sent from another site, so Herald refused it. Open the page here and try again.",
            ));
        }
    }
    Ok(())
}

/// Compares in time independent of where the strings differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

impl<S: Send + Sync> FromRequest<S> for CheckedForm {
    type Rejection = PageError;

    async fn from_request(req: Request, state: &S) -> Result<CheckedForm, PageError> {
        check_same_site(req.uri(), req.headers())?;
        let expected = cookie(req.headers(), CSRF_COOKIE).map(str::to_owned);
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                PageError(AppError::TooLarge {
                    limit: crate::http::extract::BODY_LIMIT,
                })
            } else {
                PageError(AppError::malformed(
                    "unreadable-body",
                    "The form could not be read.",
                ))
            }
        })?;
        let fields: Vec<(String, String)> = form_urlencoded::parse(&bytes).into_owned().collect();
        let sent = fields
            .iter()
            .find(|(k, _)| k == "csrf")
            .map(|(_, v)| v.as_str());
        match (expected.as_deref(), sent) {
            (Some(expected), Some(sent)) if same(expected, sent) => Ok(CheckedForm { fields }),
            _ => Err(refused(
                "This form has expired or did not come from Herald's own page. Reload the page and send it again.",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_found_by_exact_name() {
        let mut headers = HeaderMap::new();
        headers.insert(
            COOKIE,
            HeaderValue::from_static("herald_csrf_x=1; herald_csrf=abc; other=2"),
        );
        assert_eq!(cookie(&headers, "herald_csrf"), Some("abc"));
        assert_eq!(cookie(&headers, "other"), Some("2"));
        assert_eq!(cookie(&headers, "missing"), None);
    }

    #[test]
    fn a_cross_site_fetch_or_a_foreign_origin_is_refused() {
        let mut headers = HeaderMap::new();
        headers.insert(HOST, HeaderValue::from_static("herald.example:3000"));
        let uri = Uri::from_static("/lobbies");
        let check_same_site = |headers: &HeaderMap| check_same_site(&uri, headers);
        assert!(
            check_same_site(&headers).is_ok(),
            "old browsers send neither"
        );
        headers.insert(
            ORIGIN,
            HeaderValue::from_static("http://herald.example:3000"),
        );
        headers.insert("sec-fetch-site", HeaderValue::from_static("same-origin"));
        assert!(check_same_site(&headers).is_ok());
        headers.insert("sec-fetch-site", HeaderValue::from_static("cross-site"));
        assert!(check_same_site(&headers).is_err());
        headers.insert("sec-fetch-site", HeaderValue::from_static("same-origin"));
        headers.insert(ORIGIN, HeaderValue::from_static("http://evil.example"));
        assert!(check_same_site(&headers).is_err());
        headers.insert(ORIGIN, HeaderValue::from_static("null"));
        assert!(check_same_site(&headers).is_err());
    }

    #[test]
    fn over_http2_the_origin_is_compared_with_the_authority() {
        // No `Host`: the URI's authority is the request's.
        let uri = Uri::from_static("http://herald.example:3000/lobbies");
        let mut headers = HeaderMap::new();
        headers.insert(
            ORIGIN,
            HeaderValue::from_static("http://herald.example:3000"),
        );
        assert!(check_same_site(&uri, &headers).is_ok());
        headers.insert(ORIGIN, HeaderValue::from_static("http://evil.example"));
        assert!(check_same_site(&uri, &headers).is_err());
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(same("abcd", "abcd"));
        assert!(!same("abcd", "abce"));
        assert!(!same("abc", "abcd"));
    }
}
