//! The routes of the two optional ways to sign in (docs/identity.md, "Passkeys" and "A
//! sign-in code by mail"), merged under the pages' CSRF layer.

use axum::Router;
use axum::routing::post;

use super::{mail_sign_in, passkeys};
use crate::http::AppState;

/// The routes of passkeys and codes by mail (under the pages' CSRF layer).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/me/passkeys/begin", post(passkeys::begin_registration))
        .route("/me/passkeys/finish", post(passkeys::finish_registration))
        .route("/me/passkeys/sign-in/begin", post(passkeys::begin_sign_in))
        .route(
            "/me/passkeys/sign-in/finish",
            post(passkeys::finish_sign_in),
        )
        .route("/me/passkeys/{id}/revoke", post(passkeys::revoke))
        .route("/me/code", post(mail_sign_in::ask_sign_in))
        .route("/me/code/sign-in", post(mail_sign_in::sign_in))
        .route("/me/mail", post(mail_sign_in::ask_confirm))
        .route("/me/mail/confirm", post(mail_sign_in::confirm))
        .route("/me/mail/{id}/remove", post(mail_sign_in::remove))
}
