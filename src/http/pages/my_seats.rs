//! A signed-in browser's games on the home page (`docs/web.md`, "My games on any device"):
//! the seats its profile holds join the games its my-games key remembers, with the same
//! badges, deadlines and order, so that a person on a second device sees and opens the seats
//! they owe without carrying any link. A seat's line links to its play page, which takes the
//! browser's session for a profile's seat (`seat_hold.rs`): no line holds a private link.

use axum::http::HeaderMap;

use super::PageError;
use super::my_games::{MyLine, in_order, my_line, turn_words};
use super::signed_in::session_of;
use crate::http::AppState;

/// `lines` (this browser's remembered games) with the seats of the signed-in profile added,
/// in the order of my games. A seat the browser remembers already keeps its one line, which
/// shows the turn if either way of knowing the seat sees one.
pub async fn with_my_seats(
    app: &AppState,
    headers: &HeaderMap,
    mut lines: Vec<MyLine>,
) -> Result<Vec<MyLine>, PageError> {
    let Some(session) = session_of(app, headers).await? else {
        return Ok(lines);
    };
    for (game, turn) in app.host.my_seats(session.profile.id).await? {
        let turn = turn.as_ref().map(turn_words);
        let seat = my_line(&game);
        match lines
            .iter_mut()
            .find(|line| line.lobby == seat.lobby && line.href == seat.href)
        {
            Some(line) => line.turn = line.turn.take().or(turn),
            None => lines.push(MyLine { turn, ..seat }),
        }
    }
    in_order(&mut lines);
    Ok(lines)
}
