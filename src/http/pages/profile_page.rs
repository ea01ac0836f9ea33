//! A profile's public page, `/u/{handle}` (docs/identity.md): who it is, its ratings with
//! their latest changes (docs/ratings.md), its reliability record with every miss and its
//! game, and its games.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;

use super::challenge_lines::ChallengeOffer;
use super::session::Csrf;
use super::{Live, PageError, PagePath};
use crate::host::timing::rfc3339;
use crate::http::AppState;
use crate::store::{Excuse, Holding, Outcome, ProfileKind};

/// A miss, or an excused step, with its game.
pub struct MissLine {
    pub lobby: String,
    pub name: String,
    pub round: u32,
    pub step: String,
    pub when: String,
    pub excused: bool,
    /// Who excused it, in words ("excused by the host", "on vacation").
    pub excused_by: Option<&'static str>,
    /// The host's reason, shown to the profile's own signed-in browser only.
    pub reason: Option<String>,
    /// The lobby still exists (its page can be linked).
    pub live: bool,
}

/// The profile's rating in one pool, with its latest changes.
pub struct RatingLine {
    /// The pool's name, its leaderboard's path (`bst/humans`).
    pub pool: String,
    /// The pool in words ("Blood Sweat and Tears, humans").
    pub title: String,
    /// The rating as shown (`1500?`, `1723`, `18.4`).
    pub shown: String,
    /// "1 rated game", "12 rated games".
    pub games: String,
    /// Still provisional (shown with a `?`).
    pub provisional: bool,
    pub changes: Vec<ChangeLine>,
}

/// One rated game's change: the game and the change in words (`1500? → 1662? (+162)`).
pub struct ChangeLine {
    pub lobby: String,
    pub name: String,
    pub live: bool,
    pub when: String,
    pub change: String,
}

/// How many of a pool's latest changes the page lists; the API lists them all.
const CHANGES_SHOWN: usize = 10;

/// A game the profile held a seat in.
pub struct GameLine {
    pub lobby: String,
    pub name: String,
    pub game: String,
    pub status: &'static str,
    pub retro: bool,
    pub live: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "profile.html")]
pub struct ProfilePage {
    pub title: String,
    pub live: Option<Live>,
    pub handle: String,
    pub bot: bool,
    pub owner: Option<String>,
    pub since: String,
    pub owed: u32,
    pub on_time: u32,
    pub missed: u32,
    pub excused: u32,
    pub score: u32,
    pub tier: &'static str,
    pub ratings: Vec<RatingLine>,
    pub misses: Vec<MissLine>,
    pub games: Vec<GameLine>,
    /// The vacation not yet over ("Away from … until …").
    pub away: Option<String>,
    pub csrf: String,
    /// The challenge form, for a browser signed in as another profile (`challenge_forms.rs`).
    pub challenge: Option<ChallengeOffer>,
}

/// GET /u/{handle}.
pub async fn show_profile(
    State(app): State<AppState>,
    PagePath(handle): PagePath<String>,
    headers: axum::http::HeaderMap,
    Csrf(csrf): Csrf,
) -> Result<ProfilePage, PageError> {
    profile_page(&app, &headers, &handle, csrf).await
}

/// The page of profile `handle`, as this browser sees it.
pub(super) async fn profile_page(
    app: &AppState,
    headers: &axum::http::HeaderMap,
    handle: &str,
    csrf: String,
) -> Result<ProfilePage, PageError> {
    let (view, owed) = app.host.profile_record(handle).await?;
    let (own, away, challenge) = {
        let session = super::signed_in::session_of(app, headers).await?;
        let vacation = app.host.vacation_of_handle(&view.handle).await?;
        let away = vacation
            .vacation
            .map(|v| format!("Away from {} until {}", v.from, v.until));
        let own = session
            .as_ref()
            .is_some_and(|s| s.profile.handle == view.handle);
        let challenge = (session.is_some() && !own).then(ChallengeOffer::new);
        (own, away, challenge)
    };
    let name_of = |lobby: uuid::Uuid| {
        view.games
            .iter()
            .find(|g| g.lobby == lobby)
            .map(|g| (g.name.clone(), g.status != "deleted"))
            .unwrap_or_default()
    };
    let misses = owed
        .iter()
        .rev()
        .filter(|o| o.outcome != Outcome::OnTime)
        .map(|o| {
            let (name, live) = name_of(o.lobby);
            MissLine {
                lobby: o.lobby.to_string(),
                name,
                round: o.round,
                step: o.step.clone(),
                when: rfc3339(o.due_at),
                excused: o.outcome == Outcome::Excused,
                excused_by: o.excused_by.map(|by| match by {
                    Excuse::Host => "excused by the host",
                    Excuse::Vacation => "on vacation",
                }),
                reason: o.reason.clone().filter(|r| own && !r.is_empty()),
                live,
            }
        })
        .collect();
    let ratings = view
        .ratings
        .iter()
        .map(|r| {
            let pool = r.entry.pool;
            RatingLine {
                pool: pool.to_string(),
                title: format!("{}, {}", pool.game.title(), pool.kind.as_str()),
                shown: r.shown.clone(),
                games: match r.entry.games {
                    1 => "1 rated game".into(),
                    n => format!("{n} rated games"),
                },
                provisional: r.entry.provisional,
                changes: r
                    .history
                    .iter()
                    .take(CHANGES_SHOWN)
                    .map(|h| {
                        let (name, live) = name_of(h.lobby);
                        ChangeLine {
                            lobby: h.lobby.to_string(),
                            name,
                            live,
                            when: h.ended_at.clone(),
                            change: h.change.in_words(),
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let games = view
        .games
        .iter()
        .map(|g| GameLine {
            lobby: g.lobby.to_string(),
            name: g.name.clone(),
            game: g.game.clone(),
            status: g.status,
            retro: g.holding == Holding::Retro,
            live: g.status != "deleted",
        })
        .collect();
    let r = view.reliability;
    Ok(ProfilePage {
        title: view.handle.clone(),
        live: None,
        bot: view.kind == ProfileKind::Bot,
        owner: view.owner.clone(),
        since: view.created_at.clone(),
        owed: r.owed,
        on_time: r.on_time,
        missed: r.missed,
        excused: r.excused,
        score: r.score,
        tier: r.tier.as_str(),
        handle: view.handle,
        ratings,
        misses,
        games,
        away,
        csrf,
        challenge,
    })
}
