//! A sign-in code by mail (docs/identity.md, "A sign-in code by mail"), on when the operator
//! has a relay (`HERALD_SMTP_URL`). A signed-in profile adds an address by typing back the
//! code sent to it; later, "send me a sign-in code" takes an address and answers the same
//! whether or not a profile has it: a code is made and stored (hashed) either way, and sent
//! only to an address a profile has. A code lives 10 minutes, takes 5 tries and is used once;
//! each address and each client may ask a few times a quarter of an hour. The address itself
//! is stored only as a hash, and the mail is the caller's to send (`notify::sign_in_mail`).

use rand::RngExt;
use uuid::Uuid;

use super::Host;
use super::auth::hash_token;
use super::sign_in::Started;
use crate::error::AppError;
use crate::store::{CodePurpose, MailCodeRow, ProfileMailRow};

/// How long a code works.
pub const CODE_MINUTES: i64 = 10;
const CODE_MILLIS: i64 = CODE_MINUTES * 60 * 1000;
/// Tries of one code, right or wrong.
const MAX_TRIES: i64 = 5;
/// The window the limits count codes in, and the limits.
const WINDOW_MILLIS: i64 = 15 * 60 * 1000;
const PER_ADDRESS: i64 = 3;
const PER_CLIENT: i64 = 10;
/// Codes are forgotten this long after they were asked for (past every window).
const FORGET_MILLIS: i64 = 60 * 60 * 1000;

/// A code to mail: to whom and what. Deliberately not `Debug`, so that it cannot be logged.
pub struct CodeMail {
    pub to: String,
    pub code: String,
}

/// A code asked for: the attempt the browser types the code against, and the mail to send
/// (None for an address no profile has: nothing is sent, and the answer is the same).
pub struct CodeAsked {
    pub attempt: Uuid,
    pub mail: Option<CodeMail>,
}

/// The stored form of an address: trimmed and lower-cased, then hashed.
fn address_hash(address: &str) -> String {
    hash_token(&format!("mail:{address}"))
}

fn code_hash(attempt: Uuid, code: &str) -> String {
    hash_token(&format!("{attempt}:{code}"))
}

/// `text` as an address to mail, normalised (trimmed, lower-cased); 400 if it is none.
fn normalised(text: &str) -> Result<String, AppError> {
    let address = text.trim().to_lowercase();
    match address.parse::<lettre::Address>() {
        Ok(_) if address.len() <= 254 => Ok(address),
        _ => Err(AppError::malformed(
            "bad-address",
            "That is not a mail address.",
        )),
    }
}

fn wrong_code() -> AppError {
    AppError::rejected(
        "wrong-code",
        "That code is not right, or it has expired or been used: ask for a new one.",
    )
}

impl Host {
    /// Whether codes by mail are on (the operator has a relay).
    pub fn mail_sign_in_on(&self) -> bool {
        self.notify.mail_on()
    }

    /// "Send me a sign-in code" for `address`, asked by `client` (its address, as the rate
    /// limits know it). The same answer whether or not a profile has the address.
    pub async fn ask_sign_in_code(
        &self,
        address: &str,
        client: &str,
    ) -> Result<CodeAsked, AppError> {
        let address = normalised(address)?;
        let owner = self
            .store
            .mail_by_hash(&address_hash(&address))
            .await?
            .map(|mail| mail.profile);
        self.ask_code(CodePurpose::SignIn, owner, address, client)
            .await
    }

    /// A code to confirm `address` for signed-in `profile`.
    pub async fn ask_confirm_code(
        &self,
        profile: Uuid,
        address: &str,
        client: &str,
    ) -> Result<CodeAsked, AppError> {
        let address = normalised(address)?;
        self.ask_code(CodePurpose::Confirm, Some(profile), address, client)
            .await
    }

    /// Signs a browser in with the code typed for `attempt`: a session that lives as long as
    /// the address stays on the profile.
    pub async fn sign_in_with_code(&self, attempt: &str, code: &str) -> Result<Started, AppError> {
        let row = self.take_code(CodePurpose::SignIn, attempt, code).await?;
        let profile = row.profile.ok_or_else(wrong_code)?;
        let mail = self
            .store
            .mail_by_hash(&row.address_hash)
            .await?
            .filter(|mail| mail.profile == profile)
            .ok_or_else(wrong_code)?;
        let profile = self
            .store
            .profile_by_id(profile)
            .await?
            .ok_or_else(wrong_code)?;
        self.start_session(profile, mail.id).await
    }

    /// Adds the address that the code typed for `attempt` was sent to, to `profile`.
    pub async fn confirm_mail(
        &self,
        profile: Uuid,
        attempt: &str,
        code: &str,
    ) -> Result<(), AppError> {
        let row = self.take_code(CodePurpose::Confirm, attempt, code).await?;
        if row.profile != Some(profile) {
            return Err(wrong_code());
        }
        if let Some(held) = self.store.mail_by_hash(&row.address_hash).await? {
            return match held.profile == profile {
                true => Ok(()),
                // Said only to the person who has just shown the mailbox is theirs.
                false => Err(AppError::conflict(
                    "mail-taken",
                    "This address signs another profile in: remove it there first.",
                )),
            };
        }
        let mail = ProfileMailRow {
            id: Uuid::new_v4(),
            profile,
            created_at: self.store.clock().now_millis(),
        };
        match self
            .store
            .add_profile_mail(&mail, &row.address_hash)
            .await?
        {
            true => Ok(()),
            false => Err(AppError::conflict(
                "mail-taken",
                "This address signs another profile in: remove it there first.",
            )),
        }
    }

    /// The confirmed addresses of `profile` (their ids and dates only).
    pub async fn mail_of(&self, profile: Uuid) -> Result<Vec<ProfileMailRow>, AppError> {
        Ok(self.store.mail_of(profile).await?)
    }

    /// Removes address `id` of signed-in `profile`; the browsers it signed in are signed out.
    pub async fn remove_mail(&self, profile: Uuid, id: &str) -> Result<(), AppError> {
        let not_found = || AppError::not_found("unknown-mail", "This profile has no such address.");
        let id = Uuid::parse_str(id).map_err(|_| not_found())?;
        match self.store.remove_profile_mail(profile, id).await? {
            true => Ok(()),
            false => Err(not_found()),
        }
    }

    async fn ask_code(
        &self,
        purpose: CodePurpose,
        profile: Option<Uuid>,
        address: String,
        client: &str,
    ) -> Result<CodeAsked, AppError> {
        if !self.mail_sign_in_on() {
            return Err(AppError::not_found(
                "mail-off",
                "This server sends no mail, so there are no codes by mail here.",
            ));
        }
        let now = self.store.clock().now_millis();
        let address_hash = address_hash(&address);
        let client_hash = hash_token(&format!("client:{client}"));
        let (by_address, by_client) = self
            .store
            .mail_codes_since(&address_hash, &client_hash, now - WINDOW_MILLIS)
            .await?;
        if by_address >= PER_ADDRESS || by_client >= PER_CLIENT {
            return Err(AppError::TooManyRequests {
                retry_after: (WINDOW_MILLIS / 1000) as u64,
            });
        }
        let attempt = Uuid::new_v4();
        let code = format!("{:06}", rand::rng().random_range(0..1_000_000u32));
        let row = MailCodeRow {
            id: attempt,
            purpose,
            address_hash,
            client_hash,
            profile,
            code_hash: code_hash(attempt, &code),
            created_at: now,
            expires_at: now + CODE_MILLIS,
        };
        self.store.add_mail_code(&row, now - FORGET_MILLIS).await?;
        Ok(CodeAsked {
            attempt,
            mail: profile.map(|_| CodeMail { to: address, code }),
        })
    }

    /// Counts a try of the code typed for `attempt` and, if it is right, uses it up.
    async fn take_code(
        &self,
        purpose: CodePurpose,
        attempt: &str,
        code: &str,
    ) -> Result<MailCodeRow, AppError> {
        let attempt = Uuid::parse_str(attempt.trim()).map_err(|_| wrong_code())?;
        let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        let now = self.store.clock().now_millis();
        let row = self
            .store
            .try_mail_code(attempt, purpose, now, MAX_TRIES)
            .await?
            .ok_or_else(wrong_code)?;
        if row.code_hash != code_hash(attempt, &code) || !self.store.use_mail_code(attempt).await? {
            return Err(wrong_code());
        }
        Ok(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_trimmed_and_lower_cased_before_it_is_hashed() {
        assert_eq!(
            normalised("  Ann.Mail@Example.ORG ").unwrap(),
            "ann.mail@example.org"
        );
        assert_eq!(
            address_hash(&normalised("ANN@example.org").unwrap()),
            address_hash(&normalised("ann@EXAMPLE.org").unwrap())
        );
        for bad in ["", "ann", "ann@", "@example.org", "a b@example.org"] {
            assert!(normalised(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_code_hash_binds_the_code_to_its_attempt() {
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        assert_ne!(code_hash(a, "123456"), code_hash(b, "123456"));
        assert_ne!(code_hash(a, "123456"), code_hash(a, "123457"));
    }
}
