//! Vacations (docs/identity.md, "Vacations"): a profile declares ahead when it is away, within
//! an allowance of 14 days per rolling 365, and the players of its lobbies read it. What a
//! vacation does to a step (its deadline waits, its miss is excused) is `vacation_clock.rs`;
//! the store keeps them (`store/vacations.rs`).

use serde::Serialize;
use serde_json::{Map, Value};
use uuid::Uuid;

use super::Host;
use super::timing::{parse_rfc3339, rfc3339};
use crate::error::AppError;
use crate::store::{VacationRow, VacationSet};

const DAY_MILLIS: i64 = 24 * 60 * 60 * 1000;
/// Days of vacation per rolling 365 days.
pub const ALLOWANCE_DAYS: i64 = 14;
const ALLOWANCE_MILLIS: i64 = ALLOWANCE_DAYS * DAY_MILLIS;
const WINDOW_MILLIS: i64 = 365 * DAY_MILLIS;
/// How far ahead a vacation may begin.
const AHEAD_MILLIS: i64 = 30 * DAY_MILLIS;
/// A `from` this little in the past is taken as "now" (a client's clock, the time a request
/// takes): a form's "from now" must not be refused for arriving a second late.
const GRACE_MILLIS: i64 = 60 * 1000;

/// A vacation as the API shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct VacationView {
    pub from: String,
    pub until: String,
}

impl VacationView {
    pub fn of(row: &VacationRow) -> VacationView {
        VacationView {
            from: rfc3339(row.from),
            until: rfc3339(row.until),
        }
    }
}

/// `PUT /api/v1/me/vacation`'s answer; also what `/me` shows.
#[derive(Clone, Debug, Serialize)]
pub struct VacationDeclared {
    /// The vacation not yet over (None when there is none).
    pub vacation: Option<VacationView>,
    /// Days of the allowance left, counting this vacation (fractions of a day included).
    pub allowance_left_days: f64,
}

/// A player of a lobby who is away now or soon, as the lobby's players see it.
#[derive(Clone, Debug)]
pub struct Away {
    pub player: Uuid,
    pub name: String,
    pub from: i64,
    pub until: i64,
}

fn invalid(message: &str) -> AppError {
    AppError::rejected("invalid-vacation", message.to_owned())
}

fn days(ms: i64) -> f64 {
    // Three decimals: a thousandth of a day is under a minute and a half.
    ((ms as f64 / DAY_MILLIS as f64) * 1000.0).round() / 1000.0
}

/// The body `{"from", "until"}` read at `now`: (from, until) in unix ms, or 400/422.
fn read_body(mut body: Map<String, Value>, now: i64) -> Result<(i64, i64), AppError> {
    let mut instant = |field: &str| match body.remove(field) {
        Some(Value::String(text)) => parse_rfc3339(&text).ok_or_else(|| {
            invalid(&format!(
                "\"{field}\" must be an RFC 3339 instant, such as 2030-07-01T09:00:00Z."
            ))
        }),
        _ => Err(AppError::malformed(
            "invalid-body",
            format!(
                "A vacation needs \"from\" and \"until\" (RFC 3339 instants); \"{field}\" is missing."
            ),
        )),
    };
    let (from, until) = (instant("from")?, instant("until")?);
    if let Some(other) = body.keys().next() {
        return Err(AppError::malformed(
            "invalid-body",
            format!("Unknown field {other:?}: a vacation is {{\"from\", \"until\"}}."),
        ));
    }
    if from < now - GRACE_MILLIS {
        return Err(invalid(
            "A vacation is declared ahead: \"from\" is in the past.",
        ));
    }
    let from = from.max(now);
    if from - now > AHEAD_MILLIS {
        return Err(invalid("A vacation begins at most 30 days ahead."));
    }
    if until <= from {
        return Err(invalid("\"until\" must come after \"from\"."));
    }
    Ok((from, until))
}

impl Host {
    /// Declares the vacation `body` for the profile `key` names, in place of its vacation not
    /// yet over: 422 `vacation-allowance` when it would take more than the allowance left.
    pub async fn put_vacation(
        &self,
        key: Option<&str>,
        body: Map<String, Value>,
    ) -> Result<VacationDeclared, AppError> {
        let profile = self.signed(key).await?.profile.id;
        self.declare_vacation(profile, body).await
    }

    /// [`Host::put_vacation`] for a profile already known (a signed-in page).
    pub async fn declare_vacation(
        &self,
        profile: Uuid,
        body: Map<String, Value>,
    ) -> Result<VacationDeclared, AppError> {
        let now = self.store.clock().now_millis();
        let (from, until) = read_body(body, now)?;
        let row = VacationRow {
            id: Uuid::new_v4(),
            profile,
            from,
            until,
            created_at: now,
        };
        let limits = (WINDOW_MILLIS, ALLOWANCE_MILLIS);
        match self.store.set_vacation(&row, now, limits).await? {
            VacationSet::Stored { used } => Ok(VacationDeclared {
                vacation: Some(VacationView::of(&row)),
                allowance_left_days: days(ALLOWANCE_MILLIS - used),
            }),
            VacationSet::OverAllowance { used } => {
                let left = ALLOWANCE_MILLIS - (used - (until - from));
                Err(AppError::rejected(
                    "vacation-allowance",
                    format!(
                        "A vacation takes at most the allowance left: {} of {ALLOWANCE_DAYS} days in the 365 days up to its end, and this one is {} days.",
                        days(left.max(0)),
                        days(until - from)
                    ),
                ))
            }
        }
    }

    /// Ends the vacation of the profile `key` names now (one not begun is dropped).
    pub async fn delete_vacation(&self, key: Option<&str>) -> Result<(), AppError> {
        let profile = self.signed(key).await?.profile.id;
        self.end_vacation(profile).await
    }

    /// [`Host::delete_vacation`] for a profile already known.
    pub async fn end_vacation(&self, profile: Uuid) -> Result<(), AppError> {
        let now = self.store.clock().now_millis();
        Ok(self.store.end_vacation(profile, now).await?)
    }

    /// The profile's vacation not yet over, and the allowance left (counting it).
    pub async fn vacation_of(&self, profile: Uuid) -> Result<VacationDeclared, AppError> {
        let now = self.store.clock().now_millis();
        let rows = self.store.vacations(profile, now - WINDOW_MILLIS).await?;
        let current = rows.iter().find(|v| v.until > now);
        let end = current.map_or(now, |v| v.until);
        let used: i64 = rows
            .iter()
            .map(|v| (v.until.min(end) - v.from.max(end - WINDOW_MILLIS)).max(0))
            .sum();
        Ok(VacationDeclared {
            vacation: current.map(VacationView::of),
            allowance_left_days: days((ALLOWANCE_MILLIS - used).max(0)),
        })
    }

    /// [`Host::vacation_of`] the profile `handle` (matched as handles are), or 404.
    pub async fn vacation_of_handle(&self, handle: &str) -> Result<VacationDeclared, AppError> {
        let profile = self
            .store
            .profile_by_handle(&super::names::name_key(handle))
            .await?
            .ok_or_else(|| {
                AppError::not_found(
                    "unknown-profile",
                    format!("There is no profile {handle:?}."),
                )
            })?;
        self.vacation_of(profile.id).await
    }

    /// The vacations of lobby `id`'s bound players that are not over, by seat: what the
    /// lobby's players and host are shown. Nothing is read for a lobby with no bound seat.
    pub async fn lobby_aways(&self, id: Uuid) -> Result<Vec<Away>, AppError> {
        let snapshot = self.snapshot(id).await?;
        if snapshot.players.iter().all(|p| p.binding.is_none()) {
            return Ok(Vec::new());
        }
        let now = self.store.clock().now_millis();
        let rows = self.store.lobby_vacations(snapshot.lobby.id, now).await?;
        let mut aways = Vec::new();
        for player in snapshot.players.iter() {
            let Some(binding) = player.binding else {
                continue;
            };
            for row in rows.iter().filter(|v| v.profile == binding.profile) {
                aways.push(Away {
                    player: player.id,
                    name: player.name.clone(),
                    from: row.from,
                    until: row.until,
                });
            }
        }
        Ok(aways)
    }

    /// The vacations that may bear on lobby `id`'s open step at `now`: those of its bound
    /// profiles that had not ended a vacation's longest move before `now`.
    pub(super) async fn step_vacations(
        &self,
        id: Uuid,
        now: i64,
    ) -> Result<Vec<VacationRow>, AppError> {
        Ok(self
            .store
            .lobby_vacations(
                id,
                now - super::vacation_clock::MOVE_MILLIS - ALLOWANCE_MILLIS,
            )
            .await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vacation_is_declared_ahead_and_ends_after_it_begins() {
        let now = 1_000 * DAY_MILLIS;
        let body = |from: i64, until: i64| {
            let mut map = Map::new();
            map.insert("from".into(), rfc3339(from).into());
            map.insert("until".into(), rfc3339(until).into());
            map
        };
        assert_eq!(
            read_body(body(now, now + DAY_MILLIS), now).unwrap(),
            (now, now + DAY_MILLIS)
        );
        // A few seconds late is "now".
        assert_eq!(
            read_body(body(now - 5_000, now + DAY_MILLIS), now)
                .unwrap()
                .0,
            now
        );
        let refused = |from, until| read_body(body(from, until), now).unwrap_err().code();
        assert_eq!(
            refused(now - DAY_MILLIS, now + DAY_MILLIS),
            "invalid-vacation"
        );
        assert_eq!(
            refused(now + 31 * DAY_MILLIS, now + 32 * DAY_MILLIS),
            "invalid-vacation"
        );
        assert_eq!(
            refused(now + DAY_MILLIS, now + DAY_MILLIS),
            "invalid-vacation"
        );
        assert_eq!(days(ALLOWANCE_MILLIS / 2), 7.0);
    }
}
