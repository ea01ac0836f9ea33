//! Anonymous games (docs/table-talk.md, "Anonymous games"): until the game is over, every
//! player is named by the pseudonym of his seat ("Player 1", "Player 2", ... in seat order).
//!
//! The pseudonym is the seat's name as stored (`players.name`), so that everything that names
//! a player (the rules' state and logs, reveals, events, posts, notifications, the archive)
//! names him by it without knowing the game is anonymous; the name he joined under waits in
//! the seat's `alias`. The change that ends the game swaps the two (`keep_masks`): from then on
//! the seat's name is the real one, and its alias the pseudonym the record was written under.

use uuid::Uuid;

use super::timing::Timing;
use super::{Host, clean_name};
use crate::error::AppError;
use crate::store::{Change, PlayerPatch, PlayerRow, Snapshot, Status};

/// The pseudonym of the seat numbered `seat` (from 0).
pub fn pseudonym(seat: usize) -> String {
    format!("Player {}", seat + 1)
}

/// Whether the lobby names its players by pseudonyms until the end.
pub(super) fn anonymous(snapshot: &Snapshot) -> Result<bool, AppError> {
    Ok(Timing::parse(&snapshot.lobby.timing)?.is_anonymous())
}

/// The seat's pseudonym once an anonymous game is over (its alias then), for the views that
/// show it beside the real name; None in any other case.
pub fn pseudonym_after_end(snapshot: &Snapshot, player: &PlayerRow) -> Option<String> {
    match snapshot.lobby.status {
        Status::Finished => player.alias.clone(),
        Status::Signups | Status::Closed | Status::Running => None,
    }
}

/// Keeps the pseudonyms right in whatever `change` does to an anonymous lobby: the change that
/// ends the game gives every seat its real name back (the pseudonym becomes its alias), and a
/// sign-up withdrawn before the start moves the seats after it down one, each with the
/// pseudonym of its new seat. Every other change is left alone without reading the settings.
pub(super) fn keep_masks(snapshot: &Snapshot, change: &mut Change) -> Result<(), AppError> {
    let ends =
        change.lobby.status == Some(Status::Finished) && snapshot.lobby.status != Status::Finished;
    let removed = change.player_removed.as_ref().map(|r| r.seat);
    if !(ends || removed.is_some()) || !anonymous(snapshot)? {
        return Ok(());
    }
    for player in snapshot.players.iter() {
        let names = match removed {
            Some(gap) if player.seat > gap => (pseudonym(player.seat - 1), player.alias.clone()),
            Some(_) => continue,
            None => match &player.alias {
                Some(real) => (real.clone(), Some(player.name.clone())),
                None => continue,
            },
        };
        // One patch per player: each is written whole from the row it patches.
        match change.players.iter_mut().find(|p| p.id == player.id) {
            Some(patch) => patch.names = Some(names),
            None => change.players.push(PlayerPatch {
                names: Some(names),
                ..PlayerPatch::of(player.id)
            }),
        }
    }
    Ok(())
}

/// The profile whose handle a name given for a seat is (its id), if any: what
/// [`check_handle_claim`] judges. Read before the lobby's change, since the store is not
/// reachable inside it. A name that is no name has no owner: the seat's rule refuses it.
pub(super) async fn handle_owner(host: &Host, name: &str) -> Result<Option<Uuid>, AppError> {
    let Ok(name) = clean_name(name, "player name") else {
        return Ok(None);
    };
    let key = super::names::name_key(&name);
    Ok(host.store.profile_by_handle(&key).await?.map(|p| p.id))
}

/// In an anonymous lobby a name that is a profile's handle may be given only by that profile
/// (a join with its key), whether or not it has joined, so that the answer to a sign-up under
/// a handle never says whether the profile is seated (docs/table-talk.md, "Anonymous games":
/// the refusal of a taken name would). `owner` is the handle's profile, `claimant` the
/// profile signing up (None for a guest or a host's substitute). Judged before the name is
/// compared with the seats.
pub(super) fn check_handle_claim(
    anonymous: bool,
    name: &str,
    owner: Option<Uuid>,
    claimant: Option<Uuid>,
) -> Result<(), AppError> {
    match owner {
        Some(owner) if anonymous && Some(owner) != claimant => Err(AppError::conflict(
            "handle-reserved",
            format!(
                "{name:?} is a profile's handle: in an anonymous lobby only that profile may \
                 sign up under it, with its key. Pick another name."
            ),
        )),
        Some(_) | None => Ok(()),
    }
}

/// The name a joiner is seated under and the seat's alias: in an anonymous lobby, the
/// pseudonym of `seat` and the name he gave.
pub(super) fn seated_as(anonymous: bool, seat: usize, name: String) -> (String, Option<String>) {
    match anonymous {
        true => (pseudonym(seat), Some(name)),
        false => (name, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pseudonyms_count_seats_from_one() {
        assert_eq!(pseudonym(0), "Player 1");
        assert_eq!(pseudonym(11), "Player 12");
        assert_eq!(
            seated_as(true, 2, "Ann".into()),
            ("Player 3".into(), Some("Ann".into()))
        );
        assert_eq!(seated_as(false, 2, "Ann".into()), ("Ann".into(), None));
    }
}
