//! How a browser holds its seat in a lobby (docs/identity.md, "Seats that belong to
//! someone"): the seat's private link from its cookie while the lobby knows it, else the seat
//! bound to the profile the browser is signed in as. Every player page and form asks here.

use axum::http::HeaderMap;
use uuid::Uuid;

use super::PageError;
use super::session::Tokens;
use super::signed_in::session_secret;
use crate::error::AppError;
use crate::host::pages::Viewer;
use crate::host::profiles::seat_credential;
use crate::http::AppState;

/// What this browser plays a lobby's seat with.
pub(super) enum SeatHold {
    /// The seat's private link, from this browser's cookie.
    Link(String),
    /// The signed-in profile the seat is bound to, as its seat credential
    /// (`host::profiles::seat_credential`): never shown, not even to its holder.
    Profile(String),
}

impl SeatHold {
    /// What the host's player routes are given.
    pub(super) fn credential(&self) -> &str {
        match self {
            SeatHold::Link(token) | SeatHold::Profile(token) => token,
        }
    }
}

/// The viewer of lobby `id` (host cookie, seat) and how this browser holds its seat: the seat's
/// private link while the lobby knows it, else the seat bound to the signed-in profile
/// (docs/identity.md, "Seats that belong to someone": a tournament's or a challenge's game has
/// no link anyone was given).
pub(super) async fn viewer_of(
    app: &AppState,
    id: Uuid,
    headers: &HeaderMap,
) -> Result<(Viewer, Option<SeatHold>), PageError> {
    let tokens = Tokens::of(headers, id);
    let viewer = app
        .host
        .viewer(id, tokens.host.as_deref(), tokens.player.as_deref())
        .await?;
    if viewer.player.is_some() {
        return Ok((viewer, tokens.player.map(SeatHold::Link)));
    }
    if let Some(secret) = session_secret(headers) {
        let credential = seat_credential(secret);
        let by_profile = app.host.viewer(id, None, Some(&credential)).await?;
        if by_profile.player.is_some() {
            let viewer = Viewer {
                is_host: viewer.is_host,
                player: by_profile.player,
            };
            return Ok((viewer, Some(SeatHold::Profile(credential))));
        }
    }
    Ok((viewer, None))
}

/// How this browser holds its seat in lobby `id`; 401 if it holds none.
pub(super) async fn seat_hold(
    app: &AppState,
    id: Uuid,
    headers: &HeaderMap,
) -> Result<SeatHold, PageError> {
    if let (_, Some(hold)) = viewer_of(app, id, headers).await? {
        return Ok(hold);
    }
    match Tokens::of(headers, id).player {
        // This browser held a seat here and its link stopped working: the host gave the seat
        // a new link, or to a substitute (`Host::replace_player`): say so, not "open the link
        // you were given", which is what the player did.
        Some(_) => Err(PageError(AppError::unauthenticated(
            "link-replaced",
            "The private link this browser used for this lobby no longer works: the host has given your seat a new private link, or given your seat to a substitute. If you still play, ask the host for your new link; the lobby page shows the game.",
        ))),
        None => Err(PageError(AppError::unauthenticated(
            "players-only",
            "This page is for a player of this lobby. Join from the lobby page, open the private link you were given when you joined, or sign in with the profile your seat belongs to.",
        ))),
    }
}

/// The credential the host's player routes are given for this browser's seat in lobby `id`
/// ([`seat_hold`]); 401 if it holds none.
pub(super) async fn player_token(
    app: &AppState,
    id: Uuid,
    headers: &HeaderMap,
) -> Result<String, PageError> {
    Ok(seat_hold(app, id, headers).await?.credential().to_owned())
}
