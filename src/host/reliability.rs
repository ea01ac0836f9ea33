//! The reliability record (docs/identity.md, "Reliability"): what a profile's bound seats owed
//! over the last 365 days and how they answered, with the score and tier the contract defines.
//! Pure: the host passes the owed steps and the instant in. Each owed step is written by the
//! transaction that resolved it (`resolve.rs`, [`owed_records`]), so the record never waits
//! for a batch job; [`owed_from_steps`] recomputes the same rows from a lobby's stored steps.

use serde::Serialize;
use serde_json::Value;
use uuid::Uuid;

use crate::store::{Holding, Outcome, OwedRow, PlayerRow, ProfileRecord, StepRow};

const DAY_MILLIS: i64 = 24 * 60 * 60 * 1000;
/// The window the record counts: the last 365 days.
pub const WINDOW_MILLIS: i64 = 365 * DAY_MILLIS;
const RECENT_MILLIS: i64 = 30 * DAY_MILLIS;
/// Fewer owed steps than this and the tier is `new`.
const NEW_BELOW: u32 = 10;

/// A profile's reliability, as the API shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Reliability {
    pub owed: u32,
    pub on_time: u32,
    pub missed: u32,
    pub excused: u32,
    pub score: u32,
    pub tier: Tier,
}

/// The record's tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tier {
    New,
    Low,
    Medium,
    High,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::New => "new",
            Tier::Low => "low",
            Tier::Medium => "medium",
            Tier::High => "high",
        }
    }
}

/// The record of `owed` (any steps; those older than 365 days before `now` are left out):
/// `score = clamp(0, 100, round(100 × (1 − M / S) − 5 × U365 − 6 × U30))`, 100 when S = 0,
/// with S the owed steps, M = U365 the unexcused misses, U30 those of the last 30 days.
/// `round` rounds half away from zero (`f64::round`).
pub fn reliability(owed: &[OwedRow], now: i64) -> Reliability {
    let mut record = Reliability {
        owed: 0,
        on_time: 0,
        missed: 0,
        excused: 0,
        score: 100,
        tier: Tier::New,
    };
    let mut recent_misses = 0u32;
    for row in owed.iter().filter(|r| r.due_at > now - WINDOW_MILLIS) {
        record.owed += 1;
        match row.outcome {
            Outcome::OnTime => record.on_time += 1,
            Outcome::Excused => record.excused += 1,
            Outcome::Missed => {
                record.missed += 1;
                if row.due_at > now - RECENT_MILLIS {
                    recent_misses += 1;
                }
            }
        }
    }
    if record.owed > 0 {
        let (s, m) = (f64::from(record.owed), f64::from(record.missed));
        let raw = 100.0 * (1.0 - m / s) - 5.0 * m - 6.0 * f64::from(recent_misses);
        record.score = raw.round().clamp(0.0, 100.0) as u32;
    }
    record.tier = match (record.owed, record.score) {
        (owed, _) if owed < NEW_BELOW => Tier::New,
        (_, score) if score < 60 => Tier::Low,
        (_, score) if score >= 90 => Tier::High,
        _ => Tier::Medium,
    };
    record
}

/// How an owed seat's step was answered, as a step's reveal says: its own order or its
/// standing fallback is on time; a default the host filled in is a miss.
fn outcome_of(source: Option<&str>) -> Outcome {
    match source {
        Some("default") => Outcome::Missed,
        _ => Outcome::OnTime,
    }
}

/// The record rows a resolved step writes: one per owed seat that is bound (before the
/// start) to a profile. `sources` are the owed seats with where their order came from.
pub(super) fn owed_records<'a>(
    players: &'a [PlayerRow],
    owed: impl Iterator<Item = (usize, Option<&'a str>)>,
    (step_seq, round, step): (i64, u32, &str),
) -> Vec<ProfileRecord> {
    owed.filter_map(|(seat, source)| {
        let player = players.get(seat)?;
        let binding = player.binding.filter(|b| b.holding == Holding::Bound)?;
        Some(ProfileRecord::Owed {
            profile: binding.profile,
            player: player.id,
            step_seq,
            round,
            step: step.to_string(),
            outcome: outcome_of(source),
        })
    })
    .collect()
}

/// The rows of `player`'s record in `lobby` recomputed from the lobby's stored steps (each
/// step's reveal names every owed seat with the source of its order), as (step number,
/// round, step, outcome, resolved at). Excuses are the host's and are not in the steps:
/// the caller carries them over.
pub fn owed_from_steps(steps: &[StepRow], player: Uuid) -> Vec<(i64, u32, String, Outcome, i64)> {
    let id = player.to_string();
    let mut rows = Vec::new();
    for step in steps {
        let Ok(Value::Array(entries)) = serde_json::from_str::<Value>(&step.revealed) else {
            continue;
        };
        for entry in entries {
            if entry["player"]["id"].as_str() == Some(id.as_str()) {
                let outcome = outcome_of(entry["source"].as_str());
                rows.push((
                    step.seq,
                    step.round,
                    step.step.clone(),
                    outcome,
                    step.resolved_at,
                ));
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(outcome: Outcome, days_ago: i64, now: i64) -> OwedRow {
        OwedRow {
            lobby: Uuid::nil(),
            player: Uuid::nil(),
            step_seq: 0,
            round: 1,
            step: "orders".into(),
            due_at: now - days_ago * DAY_MILLIS,
            outcome,
            excused_by: None,
            reason: None,
        }
    }

    #[test]
    fn the_score_follows_the_contracts_formula_and_tiers() {
        let now = 1_000 * WINDOW_MILLIS;
        assert_eq!(reliability(&[], now).score, 100);
        assert_eq!(reliability(&[], now).tier, Tier::New);
        // 20 owed, 1 miss 100 days ago: 100 × 19/20 − 5 = 90: high.
        let mut rows: Vec<OwedRow> = (0..19).map(|_| row(Outcome::OnTime, 5, now)).collect();
        rows.push(row(Outcome::Missed, 100, now));
        let r = reliability(&rows, now);
        assert_eq!(
            (r.owed, r.on_time, r.missed, r.score, r.tier),
            (20, 19, 1, 90, Tier::High)
        );
        // The same miss 10 days ago also costs 6: 84, medium.
        rows[19] = row(Outcome::Missed, 10, now);
        assert_eq!(reliability(&rows, now).score, 84);
        assert_eq!(reliability(&rows, now).tier, Tier::Medium);
        // Excused, it costs nothing.
        rows[19] = row(Outcome::Excused, 10, now);
        let r = reliability(&rows, now);
        assert_eq!((r.excused, r.missed, r.score), (1, 0, 100));
        // Older than 365 days, it is not counted at all.
        rows[19] = row(Outcome::Missed, 400, now);
        assert_eq!(reliability(&rows, now).owed, 19);
        // 10 owed, 5 missed lately: 50 − 25 − 30 < 0, clamped to 0: low.
        let rows: Vec<OwedRow> = (0..10)
            .map(|i| row([Outcome::OnTime, Outcome::Missed][i % 2], 1, now))
            .collect();
        let r = reliability(&rows, now);
        assert_eq!((r.score, r.tier), (0, Tier::Low));
        // 9 owed: still new.
        assert_eq!(reliability(&rows[..9], now).tier, Tier::New);
    }
}
