//! The two optional ways to sign in, as `/me` shows them (docs/identity.md, "Passkeys" and "A
//! sign-in code by mail"): signed in, the profile's passkeys and mail addresses to remove and
//! the forms to add one; signed out, "sign in with a passkey" and "send me a sign-in code".
//! Each shows only where the operator configured it (a public URL; a mail relay). A passkey
//! needs JavaScript, which the page says; the key's link stays the way that works without it.

use askama::Template;
use uuid::Uuid;

use super::PageError;
use crate::host::timing::rfc3339;
use crate::http::AppState;

/// A passkey or an address, as listed (never the credential or the address itself).
pub struct Way {
    pub id: String,
    pub since: String,
    pub used: Option<String>,
}

#[derive(Template)]
#[template(path = "sign_in_ways.html")]
pub struct Ways {
    pub csrf: String,
    pub signed_in: bool,
    pub passkeys_on: bool,
    pub mail_on: bool,
    pub passkeys: Vec<Way>,
    pub mail: Vec<Way>,
}

impl Ways {
    /// What `/me` shows of them, for `profile` if the browser is signed in.
    pub async fn for_page(
        app: &AppState,
        profile: Option<Uuid>,
        csrf: &str,
    ) -> Result<Ways, PageError> {
        let passkeys_on = app.edge.passkeys.is_some();
        let mail_on = app.host.mail_sign_in_on();
        let mut ways = Ways {
            csrf: csrf.to_owned(),
            signed_in: profile.is_some(),
            passkeys_on,
            mail_on,
            passkeys: Vec::new(),
            mail: Vec::new(),
        };
        let Some(profile) = profile else {
            return Ok(ways);
        };
        if passkeys_on {
            ways.passkeys = app
                .host
                .passkeys_of(profile)
                .await?
                .iter()
                .map(|p| Way {
                    id: p.id.to_string(),
                    since: rfc3339(p.created_at),
                    used: p.used_at.map(rfc3339),
                })
                .collect();
        }
        if mail_on {
            ways.mail = app
                .host
                .mail_of(profile)
                .await?
                .iter()
                .map(|m| Way {
                    id: m.id.to_string(),
                    since: rfc3339(m.created_at),
                    used: None,
                })
                .collect();
        }
        Ok(ways)
    }
}
