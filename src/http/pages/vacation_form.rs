//! Vacations on the pages (docs/identity.md, "Vacations"): the form on `/me` that declares or
//! ends one, and the sentence the players and the host of a lobby read while one of its
//! players is away or soon will be. Forms POST and answer with a 303 or the page again; all
//! of it works with JavaScript off.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::{Map, Value};
use time::{Date, Month, OffsetDateTime, Time, format_description::well_known::Rfc3339};

use super::me_page::{MePage, me_page};
use super::session::CheckedForm;
use super::signed_in::session_of;
use super::{PageError, again, see_other};
use crate::error::AppError;
use crate::host::timing::rfc3339;
use crate::http::AppState;

/// A form's date (`YYYY-MM-DD`, midnight UTC) or RFC 3339 instant as RFC 3339; an empty
/// "from" is now.
fn instant(text: &str, field: &str, now: &str) -> Result<String, AppError> {
    let text = text.trim();
    if text.is_empty() && field == "from" {
        return Ok(now.to_owned());
    }
    if OffsetDateTime::parse(text, &Rfc3339).is_ok() {
        return Ok(text.to_owned());
    }
    let bad = || {
        AppError::rejected(
            "invalid-vacation",
            format!("The {field} date must be a date such as 2030-07-01."),
        )
    };
    let mut parts = text.splitn(3, '-').map(str::parse::<u16>);
    let (Some(Ok(year)), Some(Ok(month)), Some(Ok(day))) =
        (parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    let month = Month::try_from(u8::try_from(month).map_err(|_| bad())?).map_err(|_| bad())?;
    let day = u8::try_from(day).map_err(|_| bad())?;
    let date = Date::from_calendar_date(i32::from(year), month, day).map_err(|_| bad())?;
    let at = date.with_time(Time::MIDNIGHT).assume_utc();
    Ok(at.format(&Rfc3339).unwrap_or_default())
}

/// POST /me/vacation: declares the vacation the form names (dates are UTC days: away from
/// the start of the first, back at the start of the second).
pub async fn declare(
    State(app): State<AppState>,
    headers: HeaderMap,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    let now = rfc3339(app.host.clock().now_millis());
    let (from, until) = (form.get("from").to_owned(), form.get("until").to_owned());
    let declared = async {
        let mut body = Map::new();
        body.insert("from".into(), Value::String(instant(&from, "from", &now)?));
        body.insert(
            "until".into(),
            Value::String(instant(&until, "until", &now)?),
        );
        app.host.declare_vacation(session.profile.id, body).await
    };
    match declared.await {
        Ok(_) => Ok(see_other("/me#vacation", &[])),
        Err(error) => {
            let page = me_page(&app, &headers, form.get("csrf").to_owned(), None).await?;
            Ok(again(error, |message| {
                let mut vacation = page.vacation;
                if let Some(v) = vacation.as_mut() {
                    v.from = from;
                    v.until = until;
                }
                MePage {
                    vacation_error: Some(message),
                    vacation,
                    ..page
                }
            }))
        }
    }
}

/// POST /me/vacation/end: ends the vacation now (one not begun is dropped).
pub async fn end(
    State(app): State<AppState>,
    headers: HeaderMap,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    app.host.end_vacation(session.profile.id).await?;
    Ok(see_other("/me#vacation", &[]))
}

fn signed_out() -> PageError {
    PageError(AppError::unauthenticated(
        "signed-out",
        "This browser is not signed in: open your profile's sign-in link first.",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_is_midnight_utc_and_an_empty_start_is_now() {
        let now = "2026-12-01T10:00:00.000Z";
        assert_eq!(
            instant("2026-12-03", "until", now).unwrap(),
            "2026-12-03T00:00:00Z"
        );
        assert_eq!(instant("", "from", now).unwrap(), now);
        assert_eq!(instant(now, "from", now).unwrap(), now);
        assert!(instant("", "until", now).is_err());
        assert!(instant("next week", "until", now).is_err());
    }
}
