//! The host panel's seats while the game runs: each seat's name (a substitute with whom they
//! replaced), where it stands in the open step (answered, still owes, owes nothing, out) and
//! how many steps in a row it has let time out, so the host sees at a glance whom to chase.

use uuid::Uuid;

use crate::host::reminders::ReminderMarks;
use crate::host::timing::rfc3339;
use crate::store::MissRow;

use super::seat_labels::SeatLabels;
use super::table::PublicPlayer;

/// Where a seat stands in the open step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatState {
    /// Its answer to the open step is in.
    Answered,
    /// An answer is due from it and not in.
    Waiting,
    /// Nothing is due from it in this step (another seat's decision, or no step open).
    NothingOwed,
    /// It is out of the game.
    Out,
}

impl SeatState {
    fn of(player: &PublicPlayer) -> SeatState {
        match (player.alive, player.submitted, player.owes) {
            (false, _, _) => SeatState::Out,
            (true, true, _) => SeatState::Answered,
            (true, false, true) => SeatState::Waiting,
            (true, false, false) => SeatState::NothingOwed,
        }
    }

    /// The state in words, as the seat's tag shows it.
    pub fn words(self) -> &'static str {
        match self {
            SeatState::Answered => "answered",
            SeatState::Waiting => "waiting",
            SeatState::NothingOwed => "nothing owed",
            SeatState::Out => "out",
        }
    }

    /// The tag's style class.
    pub fn class(self) -> &'static str {
        match self {
            SeatState::Answered => "tag ok",
            SeatState::Waiting => "tag due",
            SeatState::NothingOwed | SeatState::Out => "tag",
        }
    }
}

/// What a seat offers the host for a reminder of the open step (docs/notifications.md,
/// "Reminders"): only a seat the step waits for has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Remind {
    /// Nothing to remind it of.
    NotDue,
    /// The "Remind" button.
    Offer,
    /// Reminded of this step already.
    Reminded,
    /// The player has no notifications to carry one: the host reminds them in the thread.
    Unreachable,
}

impl Remind {
    /// The seat's reminder, from where it stands and the lobby's marks.
    pub fn of(seat: &SeatControl, marks: &ReminderMarks) -> Remind {
        let id = Uuid::parse_str(&seat.id).ok();
        let marked = |set: &std::collections::HashSet<Uuid>| id.is_some_and(|id| set.contains(&id));
        match (
            seat.state,
            marked(&marks.reminded),
            marked(&marks.reachable),
        ) {
            (SeatState::Answered | SeatState::NothingOwed | SeatState::Out, _, _) => Remind::NotDue,
            (SeatState::Waiting, true, _) => Remind::Reminded,
            (SeatState::Waiting, false, true) => Remind::Offer,
            (SeatState::Waiting, false, false) => Remind::Unreachable,
        }
    }
}

/// One seat, as its controls name it.
pub struct SeatControl {
    pub id: String,
    /// The name as the controls' buttons use it ("Replace Eve").
    pub name: String,
    /// The name as the record shows it ("Eve (for Bob)").
    pub label: String,
    pub alive: bool,
    pub state: SeatState,
    /// Steps in a row the seat let time out.
    pub misses: i64,
    /// The profile holding the seat, if any (docs/identity.md).
    pub profile: Option<super::seat_badge::SeatBadge>,
    /// Its misses the host may still excuse (the form posts to `host_excuse.rs`).
    pub excusable: Vec<ExcusableMiss>,
    /// Its reminder of the open step.
    pub remind: Remind,
}

impl SeatControl {
    /// Whether the seat shows the "Remind" button.
    pub fn remind_offered(&self) -> bool {
        self.remind == Remind::Offer
    }

    /// Whether the seat was reminded of the open step.
    pub fn reminded(&self) -> bool {
        self.remind == Remind::Reminded
    }

    /// Whether the seat waits with no notifications to remind it by.
    pub fn unreachable(&self) -> bool {
        self.remind == Remind::Unreachable
    }

    /// "missed 2 steps in a row", or nothing when it missed none.
    pub fn misses_in_words(&self) -> String {
        match self.misses {
            0 => String::new(),
            1 => "missed the last step".into(),
            n => format!("missed {n} steps in a row"),
        }
    }
}

/// The seats of `players` (the public view's), in seat order: a seat's controls stay where
/// the host last saw them (the waiting line at the top says whom the step waits for).
pub fn seats(
    players: &[PublicPlayer],
    misses: &[(Uuid, i64)],
    labels: &SeatLabels,
) -> Vec<SeatControl> {
    players
        .iter()
        .map(|p| SeatControl {
            label: labels.label(&p.id, &p.name),
            id: p.id.clone(),
            name: p.name.clone(),
            alive: p.alive,
            state: SeatState::of(p),
            misses: misses
                .iter()
                .find(|(id, _)| id.to_string() == p.id)
                .map_or(0, |(_, n)| *n),
            profile: None,
            excusable: Vec::new(),
            remind: Remind::NotDue,
        })
        .collect()
}

/// A miss the host may still excuse, as the seat's controls list it.
pub struct ExcusableMiss {
    pub round: u32,
    pub step: String,
    /// When it resolved.
    pub at: String,
}

/// The misses of `player` among a lobby's excusable ones, oldest first.
pub fn of_player(misses: &[MissRow], player: &str) -> Vec<ExcusableMiss> {
    let Ok(player) = Uuid::parse_str(player) else {
        return Vec::new();
    };
    misses
        .iter()
        .filter(|m| m.player == player)
        .map(|m| ExcusableMiss {
            round: m.round,
            step: m.step.clone(),
            at: rfc3339(m.due_at),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_seat_says_where_it_stands_and_what_it_missed() {
        let (a, b, c) = (Uuid::from_u128(1), Uuid::from_u128(2), Uuid::from_u128(3));
        let players = PublicPlayer::all(&[
            json!({"id": a, "name": "Ann", "alive": true, "submitted": true, "owes": true}),
            json!({"id": b, "name": "Bob", "alive": true, "submitted": false, "owes": true}),
            json!({"id": c, "name": "Cy", "alive": false, "submitted": false, "owes": false}),
        ]);
        let seats = seats(&players, &[(b, 2)], &SeatLabels::default());
        let shown: Vec<(&str, &str, String)> = seats
            .iter()
            .map(|s| (s.name.as_str(), s.state.words(), s.misses_in_words()))
            .collect();
        assert_eq!(
            shown,
            [
                ("Ann", "answered", String::new()),
                ("Bob", "waiting", "missed 2 steps in a row".to_owned()),
                ("Cy", "out", String::new()),
            ]
        );
    }
}
