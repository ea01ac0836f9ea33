//! Passkeys (docs/identity.md, "Passkeys"): a signed-in profile registers one; later a browser
//! signs in with it, starting the same server-side session a key's link does. WebAuthn's
//! checks are webauthn-rs's; the ceremony's state is kept in the database (its feature
//! `danger-allow-state-serialisation`), so that any process can finish what another began.
//! The relying party is the server's public URL: with none, passkeys are off.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use uuid::Uuid;
use webauthn_rs::prelude::{
    Passkey, PasskeyAuthentication, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, Url, Webauthn, WebauthnBuilder,
};

use super::Host;
use super::names::name_key;
use super::sign_in::Started;
use crate::error::AppError;
use crate::store::{CeremonyKind, PasskeyRow, ProfileRow};

/// How long a browser has to answer a challenge.
const CEREMONY_MILLIS: i64 = 5 * 60 * 1000;

/// The relying party: who passkeys are made for.
#[derive(Debug)]
pub struct Passkeys {
    webauthn: Webauthn,
}

impl Passkeys {
    /// The relying party of the server's public URL: its host is the RP id, the URL the only
    /// origin accepted. None without a public URL; an error for one WebAuthn cannot serve (an
    /// IP address, which no browser accepts as an RP id).
    pub fn for_public_url(url: Option<&str>) -> Result<Option<Passkeys>, String> {
        let Some(url) = url.filter(|u| !u.is_empty()) else {
            return Ok(None);
        };
        let origin = Url::parse(url).map_err(|e| format!("{url:?}: {e}"))?;
        let rp_id = origin
            .domain()
            .ok_or_else(|| format!("{url:?} names no domain, and passkeys need one"))?
            .to_owned();
        let webauthn = WebauthnBuilder::new(&rp_id, &origin)
            .and_then(|b| b.rp_name("Herald").build())
            .map_err(|e| format!("{url:?}: {e}"))?;
        Ok(Some(Passkeys { webauthn }))
    }
}

/// A ceremony begun: its id (the browser sends it back) and the options for
/// `navigator.credentials.create` or `.get`, as webauthn-rs writes them.
pub struct Begun {
    pub ceremony: Uuid,
    pub options: serde_json::Value,
}

/// webauthn-rs logs a ceremony's state and the browser's answer (credential ids, public keys)
/// at debug and trace: its calls run with no subscriber, so that no log line holds them
/// whatever level the operator chooses.
fn quiet<T>(f: impl FnOnce() -> T) -> T {
    tracing::subscriber::with_default(tracing::subscriber::NoSubscriber::default(), f)
}

fn refused(message: &str) -> AppError {
    AppError::rejected("passkey-refused", message)
}

fn no_ceremony() -> AppError {
    AppError::not_found(
        "unknown-ceremony",
        "This passkey request has expired or was used already: try again.",
    )
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, AppError> {
    serde_json::to_string(value).map_err(|e| AppError::Internal(format!("passkey state: {e}")))
}

fn parsed<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T, AppError> {
    serde_json::from_str(text)
        .map_err(|_| AppError::malformed("bad-credential", format!("The {what} did not parse.")))
}

fn stored<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, AppError> {
    serde_json::from_str(text).map_err(|e| AppError::Internal(format!("stored passkey: {e}")))
}

fn ceremony_id(text: &str) -> Result<Uuid, AppError> {
    Uuid::parse_str(text).map_err(|_| no_ceremony())
}

impl Host {
    /// The passkeys of `profile`, oldest first.
    pub async fn passkeys_of(&self, profile: Uuid) -> Result<Vec<PasskeyRow>, AppError> {
        Ok(self.store.passkeys_of(profile).await?)
    }

    /// Begins registering a passkey for signed-in `profile` (its passkeys excluded, so that
    /// one authenticator is not registered twice).
    pub async fn begin_passkey_registration(
        &self,
        rp: &Passkeys,
        profile: &ProfileRow,
    ) -> Result<Begun, AppError> {
        let mut held = Vec::new();
        for row in self.store.passkeys_of(profile.id).await? {
            let passkey: Passkey = stored(&row.passkey)?;
            held.push(passkey.cred_id().clone());
        }
        let (options, state) = quiet(|| {
            rp.webauthn.start_passkey_registration(
                profile.id,
                &profile.handle,
                &profile.handle,
                Some(held),
            )
        })
        .map_err(|e| AppError::Internal(format!("passkey registration: {e}")))?;
        self.begin(profile.id, CeremonyKind::Register, &json(&state)?, &options)
            .await
    }

    /// Finishes a registration: stores the passkey the browser made for `profile`.
    pub async fn finish_passkey_registration(
        &self,
        rp: &Passkeys,
        profile: Uuid,
        ceremony: &str,
        credential: &str,
    ) -> Result<(), AppError> {
        let now = self.store.clock().now_millis();
        let (owner, state) = self
            .store
            .take_ceremony(ceremony_id(ceremony)?, CeremonyKind::Register, now)
            .await?
            .filter(|(owner, _)| *owner == profile)
            .ok_or_else(no_ceremony)?;
        let state: PasskeyRegistration = stored(&state)?;
        let answer: RegisterPublicKeyCredential = parsed(credential, "new passkey")?;
        let passkey = quiet(|| rp.webauthn.finish_passkey_registration(&answer, &state))
            .map_err(|_| refused("The browser's passkey did not pass the checks."))?;
        let row = PasskeyRow {
            id: Uuid::new_v4(),
            profile: owner,
            credential_id: URL_SAFE_NO_PAD.encode(passkey.cred_id()),
            passkey: json(&passkey)?,
            created_at: now,
            used_at: None,
        };
        match self.store.add_passkey(&row).await? {
            true => Ok(()),
            false => Err(AppError::conflict(
                "passkey-taken",
                "This passkey is registered already.",
            )),
        }
    }

    /// Begins a sign-in with a passkey of the profile named `handle`.
    pub async fn begin_passkey_sign_in(
        &self,
        rp: &Passkeys,
        handle: &str,
    ) -> Result<Begun, AppError> {
        let none = || {
            AppError::not_found(
                "no-passkey",
                "No profile of that handle has a passkey here: sign in with your link.",
            )
        };
        let profile = self
            .store
            .profile_by_handle(&name_key(handle))
            .await?
            .ok_or_else(none)?;
        let mut held = Vec::new();
        for row in self.store.passkeys_of(profile.id).await? {
            held.push(stored::<Passkey>(&row.passkey)?);
        }
        if held.is_empty() {
            return Err(none());
        }
        let (options, state) = quiet(|| rp.webauthn.start_passkey_authentication(&held))
            .map_err(|e| AppError::Internal(format!("passkey sign-in: {e}")))?;
        self.begin(profile.id, CeremonyKind::SignIn, &json(&state)?, &options)
            .await
    }

    /// Finishes a sign-in: checks the browser's answer against the passkey it names and, if
    /// it passes, starts a session that lives as long as that passkey.
    pub async fn finish_passkey_sign_in(
        &self,
        rp: &Passkeys,
        ceremony: &str,
        credential: &str,
    ) -> Result<Started, AppError> {
        let now = self.store.clock().now_millis();
        let (profile, state) = self
            .store
            .take_ceremony(ceremony_id(ceremony)?, CeremonyKind::SignIn, now)
            .await?
            .ok_or_else(no_ceremony)?;
        let state: PasskeyAuthentication = stored(&state)?;
        let answer: PublicKeyCredential = parsed(credential, "passkey's answer")?;
        let failed = || refused("The passkey's answer did not pass the checks.");
        let row = self
            .store
            .passkey_by_credential(&URL_SAFE_NO_PAD.encode(answer.get_credential_id()))
            .await?
            .filter(|row| row.profile == profile)
            .ok_or_else(failed)?;
        let mut passkey: Passkey = stored(&row.passkey)?;
        let result = quiet(|| rp.webauthn.finish_passkey_authentication(&answer, &state))
            .map_err(|_| failed())?;
        passkey.update_credential(&result);
        self.store
            .passkey_used(row.id, &json(&passkey)?, now)
            .await?;
        let profile = self
            .store
            .profile_by_id(profile)
            .await?
            .ok_or_else(failed)?;
        self.start_session(profile, row.id).await
    }

    /// Removes passkey `id` of signed-in `profile`; the browsers it signed in are signed out.
    pub async fn remove_passkey(&self, profile: Uuid, id: &str) -> Result<(), AppError> {
        let not_found =
            || AppError::not_found("unknown-passkey", "This profile has no such passkey.");
        let id = Uuid::parse_str(id).map_err(|_| not_found())?;
        match self.store.remove_passkey(profile, id).await? {
            true => Ok(()),
            false => Err(not_found()),
        }
    }

    async fn begin(
        &self,
        profile: Uuid,
        kind: CeremonyKind,
        state: &str,
        options: &impl serde::Serialize,
    ) -> Result<Begun, AppError> {
        let now = self.store.clock().now_millis();
        let ceremony = Uuid::new_v4();
        self.store
            .start_ceremony(ceremony, profile, kind, state, now, now + CEREMONY_MILLIS)
            .await?;
        let options = serde_json::to_value(options)
            .map_err(|e| AppError::Internal(format!("passkey options: {e}")))?;
        Ok(Begun { ceremony, options })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_relying_party_is_the_public_urls_domain_or_none() {
        assert!(Passkeys::for_public_url(None).unwrap().is_none());
        assert!(Passkeys::for_public_url(Some("")).unwrap().is_none());
        assert!(
            Passkeys::for_public_url(Some("https://herald.example"))
                .unwrap()
                .is_some()
        );
        assert!(
            Passkeys::for_public_url(Some("http://localhost:3000"))
                .unwrap()
                .is_some()
        );
        // No browser accepts an IP address as a relying party.
        assert!(Passkeys::for_public_url(Some("http://127.0.0.1:3000")).is_err());
        assert!(Passkeys::for_public_url(Some("not a url")).is_err());
    }
}
