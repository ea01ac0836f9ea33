//! Vacations as stored (docs/identity.md, "Vacations"): one row per vacation a profile
//! declared, kept after it ends because the allowance counts it. A profile has at most one
//! vacation not yet over: declaring another replaces it, and ending it early keeps the part
//! already taken. Like the other profile rows they belong to no lobby and are written here,
//! each declaration in one transaction that first takes the profile's row lock, so that two
//! at once cannot both spend the same allowance.

use uuid::Uuid;

use super::columns::Columns;
use super::{Store, StoreError};

/// A declared vacation: away from `from` until `until` (unix ms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VacationRow {
    pub id: Uuid,
    pub profile: Uuid,
    pub from: i64,
    pub until: i64,
    pub created_at: i64,
}

/// What declaring a vacation came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VacationSet {
    /// Stored; the profile's vacations (this one included) took `used` ms of the 365 days
    /// that end with it.
    Stored { used: i64 },
    /// Nothing stored: with this one, the vacations would take `used` ms, more than allowed.
    OverAllowance { used: i64 },
}

/// Takes the profile's row lock on both backends (a no-op update), so that declarations of
/// one profile run one after the other.
const LOCK_PROFILE: &str = "UPDATE profiles SET kind = kind WHERE id = $1";

/// A vacation that has not begun is dropped; one under way ends now.
const DROP_AHEAD: &str = "DELETE FROM vacations WHERE profile_id = $1 AND from_at >= $2";
const END_NOW: &str =
    "UPDATE vacations SET until_at = $1 WHERE profile_id = $2 AND from_at < $3 AND until_at > $4";

const SINCE: &str = "SELECT id, profile_id, from_at, until_at, created_at FROM vacations \
    WHERE profile_id = $1 AND until_at > $2 ORDER BY from_at";

const INSERT: &str = "INSERT INTO vacations (id, profile_id, from_at, until_at, created_at) \
    VALUES ($1, $2, $3, $4, $5)";

/// The vacations of the profiles bound to a seat of a lobby that end after an instant.
const OF_LOBBY: &str = "SELECT id, profile_id, from_at, until_at, created_at FROM vacations \
    WHERE until_at > $1 AND profile_id IN \
    (SELECT profile_id FROM players WHERE lobby_id = $2 AND profile_id IS NOT NULL) \
    ORDER BY from_at";

fn vacation_of(row: &sqlx::any::AnyRow) -> Result<VacationRow, StoreError> {
    let row = Columns::of("vacations", row);
    Ok(VacationRow {
        id: row.uuid("id")?,
        profile: row.uuid("profile_id")?,
        from: row.int("from_at")?,
        until: row.int("until_at")?,
        created_at: row.int("created_at")?,
    })
}

/// How much of `window` (start, end) the vacations `rows` take, in ms.
fn taken(rows: &[VacationRow], (start, end): (i64, i64)) -> i64 {
    rows.iter()
        .map(|v| (v.until.min(end) - v.from.max(start)).max(0))
        .sum()
}

async fn end_current(
    conn: &mut sqlx::AnyConnection,
    profile: Uuid,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(DROP_AHEAD)
        .bind(profile.to_string())
        .bind(now)
        .execute(&mut *conn)
        .await?;
    sqlx::query(END_NOW)
        .bind(now)
        .bind(profile.to_string())
        .bind(now)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

impl Store {
    /// Declares `vacation` at `now` in place of the profile's vacation not yet over, if the
    /// vacations within the `window` ms that end with it take at most `allowance` ms.
    pub async fn set_vacation(
        &self,
        vacation: &VacationRow,
        now: i64,
        (window, allowance): (i64, i64),
    ) -> Result<VacationSet, StoreError> {
        let profile = vacation.profile.to_string();
        let mut tx = self.pool.begin().await?;
        sqlx::query(LOCK_PROFILE)
            .bind(&profile)
            .execute(&mut *tx)
            .await?;
        end_current(&mut tx, vacation.profile, now).await?;
        let start = vacation.until - window;
        let rows = sqlx::query(SINCE)
            .bind(&profile)
            .bind(start)
            .fetch_all(&mut *tx)
            .await?;
        let rows = rows
            .iter()
            .map(vacation_of)
            .collect::<Result<Vec<_>, _>>()?;
        let used = taken(&rows, (start, vacation.until)) + (vacation.until - vacation.from);
        if used > allowance {
            // Dropped unapplied: the vacation under way stays as it was.
            return Ok(VacationSet::OverAllowance { used });
        }
        sqlx::query(INSERT)
            .bind(vacation.id.to_string())
            .bind(&profile)
            .bind(vacation.from)
            .bind(vacation.until)
            .bind(vacation.created_at)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(VacationSet::Stored { used })
    }

    /// Ends the profile's vacation not yet over at `now` (one not begun is dropped).
    pub async fn end_vacation(&self, profile: Uuid, now: i64) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(LOCK_PROFILE)
            .bind(profile.to_string())
            .execute(&mut *tx)
            .await?;
        end_current(&mut tx, profile, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The profile's vacations that end after `since`, earliest first.
    pub async fn vacations(
        &self,
        profile: Uuid,
        since: i64,
    ) -> Result<Vec<VacationRow>, StoreError> {
        let rows = sqlx::query(SINCE)
            .bind(profile.to_string())
            .bind(since)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(vacation_of).collect()
    }

    /// The vacations that end after `since` of the profiles bound to a seat of `lobby`.
    pub async fn lobby_vacations(
        &self,
        lobby: Uuid,
        since: i64,
    ) -> Result<Vec<VacationRow>, StoreError> {
        let rows = sqlx::query(OF_LOBBY)
            .bind(since)
            .bind(lobby.to_string())
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(vacation_of).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_part_inside_the_window_is_taken() {
        let row = |from, until| VacationRow {
            id: Uuid::nil(),
            profile: Uuid::nil(),
            from,
            until,
            created_at: 0,
        };
        let rows = [row(0, 10), row(20, 30), row(40, 45)];
        assert_eq!(taken(&rows, (5, 100)), 5 + 10 + 5);
        assert_eq!(taken(&rows, (25, 42)), 5 + 2);
        assert_eq!(taken(&rows, (50, 60)), 0);
    }
}
