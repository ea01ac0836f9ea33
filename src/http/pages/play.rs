//! A player's own page: who they are, their private link and secrets, the form for the prompt
//! they owe (prefilled with the order they already sent), the pools and the latest reveal.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value};
use uuid::Uuid;

use super::chips::{Chip, cell_chips};
use super::deadline::DeadlineLine;
use super::mail_section::MailSection;
use super::ordered;
use super::prompt_form::{PromptForm, form_for, order_body};
use super::round::{collecting, latest};
use super::round_block::{RoundBlock, so_far};
use super::seat_hold::{SeatHold, player_token, seat_hold};
use super::session::{CheckedForm, Csrf, Role, forget_cookie};
use super::table::{PoolsTable, PublicPlayer, describe_order, heading, names, show};
use super::{Live, PageError, PagePath, again, base_url, lobby_id, see_other};
use crate::error::AppError;
use crate::host::pages::Removal;
use crate::http::AppState;
use crate::store::Status;

#[derive(Template, WebTemplate)]
#[template(path = "play.html")]
pub struct PlayPage {
    pub title: String,
    /// The leaderboards of a rated lobby (`leaderboard.rs`); none when unrated.
    pub boards: Vec<super::leaderboard::PoolLink>,
    pub live: Option<Live>,
    pub csrf: String,
    pub lobby_id: String,
    pub you: String,
    pub lobby_name: String,
    pub alive: bool,
    /// Why you are out, when the host or the missed-turn rule removed you.
    pub removed: Option<String>,
    pub status: &'static str,
    /// Who the game waits for, you included ("Waiting for your and Dan's orders.").
    pub waiting: Option<String>,
    /// The seat's private link, when this browser holds the seat by it.
    pub private_link: Option<String>,
    /// The game's private view (BST: the hand), one line each.
    pub secrets: Vec<Secret>,
    pub form: Option<PromptForm>,
    pub pending: Option<String>,
    pub table: PoolsTable,
    pub show_orders: bool,
    pub latest: Option<RoundBlock>,
    /// The running round's reveals so far.
    pub so_far: Option<RoundBlock>,
    pub error: Option<String>,
    pub deadline: Option<DeadlineLine>,
    /// Your standing fallback order in words, if you set one.
    pub fallback: Option<String>,
    /// The form to set it: the main step's order form, while you owe a main-step order.
    pub fallback_form: Option<PromptForm>,
    /// Just joined: tell the player to keep their private link.
    pub just_joined: bool,
    /// The mail form (or, without a mail relay, the sentence saying there is no mail).
    pub mail: MailSection,
    /// Unread table-talk messages, where the game has press (docs/table-talk.md).
    pub talk_unread: Option<usize>,
    /// An ordered list is being built: nothing was sent (the list is in the form).
    pub editing: bool,
    /// Players away now or soon (docs/identity.md, "Vacations").
    pub aways: Vec<String>,
    /// The handle a signed-in browser may claim this unbound seat for (`seat_claim.rs`).
    pub claim_as: Option<String>,
    /// The profile this seat is bound to, when it is this browser's.
    pub bound_to: Option<String>,
}

/// One line of the player's private view: its heading, its value, and the value as chips when
/// it lists only the game's codes (a BST hand).
pub struct Secret {
    pub heading: String,
    pub value: String,
    pub chips: Vec<Chip>,
}

/// Why a player is out, when the host's hand put them out.
fn removed_sentence(removal: Removal) -> String {
    match removal {
        Removal::ByHost => "The host removed you from the game.".to_owned(),
        Removal::MissedTurns(misses) => format!(
            "You were removed from the game after missing {misses} turns in a row, as this lobby's settings say."
        ),
    }
}

pub(super) async fn play_page(
    app: &AppState,
    id: Uuid,
    headers: &HeaderMap,
    csrf: String,
    posted: Option<&Map<String, Value>>,
) -> Result<PlayPage, PageError> {
    let hold = seat_hold(app, id, headers).await?;
    let token = hold.credential().to_owned();
    let after = app.host.last_event_seq(id).await?;
    let lobby = app.host.lobby(id).await?;
    let me = app.host.me(id, Some(&token)).await?;
    let names = names(&lobby.players);
    let my_id = me.player["id"].as_str().unwrap_or_default().to_owned();
    let alive = PublicPlayer::all(&lobby.players)
        .into_iter()
        .find(|p| p.id == my_id)
        .is_none_or(|p| p.alive);
    // After a refused POST, show what was sent rather than the stored order.
    let pending = me.pending_value()?;
    // The pending order's vote is sealed beside it, not in it: the form reads it from `me`.
    let with_vote = pending.clone().map(|mut order| {
        if let (Some(vote), Value::Object(map)) = (me.vote, &mut order) {
            map.insert("vote".into(), serde_json::json!(vote));
        }
        order
    });
    let preselect = posted.map(|m| Value::Object(m.clone())).or(with_vote);
    let form = me
        .prompt_value()?
        .as_ref()
        .map(|prompt| form_for(lobby.game, lobby.max_rounds, prompt, preselect.as_ref()))
        .transpose()?;
    let record = latest(app, &lobby, Some(&token), 1).await?;
    let (labels, latest) = (record.labels, record.blocks.into_iter().last());
    let fallback = me
        .fallback
        .as_deref()
        .map(|raw| crate::host::engine::from_stored::<Value>(raw.get()))
        .transpose()?;
    let fallback_form = match me.prompt_value()? {
        Some(prompt) if prompt["step"] == lobby.game.main_step() => Some(form_for(
            lobby.game,
            lobby.max_rounds,
            &prompt,
            fallback.as_ref(),
        )?),
        Some(_) | None => None,
    };
    let mail = MailSection::of(app, id, &token).await?;
    let talk_unread = app.host.talk(id, &token).await?.map(|talk| talk.unread());
    let removed = match alive {
        true => None,
        false => app.host.removal(id, &my_id).await?.map(removed_sentence),
    };
    let (claim_as, bound_to) = claim_offer(app, id, headers, &my_id).await?;
    // An order form (also one already answered: the order may be replaced) or the mail form
    // is being filled in; a reload would empty it.
    let refresh = form.is_none() && !mail.on;
    Ok(PlayPage {
        boards: super::leaderboard::lobby_boards(
            lobby.game,
            &lobby.settings,
            lobby.result.as_ref(),
        ),
        title: format!(
            "{}: {}",
            lobby.name,
            me.player["name"].as_str().unwrap_or("")
        ),
        // A finished game has no news to wait for.
        live: (lobby.status != Status::Finished).then_some(Live {
            lobby: id,
            after,
            refresh,
        }),
        csrf,
        lobby_id: id.to_string(),
        you: me.player["name"].as_str().unwrap_or_default().to_owned(),
        lobby_name: lobby.name.clone(),
        alive,
        removed,
        status: lobby.status.as_str(),
        waiting: super::waiting::waiting_line(&lobby, me.player["name"].as_str()),
        // A seat played through the profile has no link to show: the profile's sign-in is
        // how another device plays it.
        private_link: match &hold {
            SeatHold::Link(token) => Some(format!("{}/lobbies/{id}/as/{token}", base_url(headers))),
            SeatHold::Profile(_) => None,
        },
        secrets: me
            .private
            .iter()
            .map(|(k, v)| {
                let value = show(v, &names);
                Secret {
                    heading: heading(lobby.game, k),
                    chips: cell_chips(lobby.game, &value),
                    value,
                }
            })
            .collect(),
        pending: pending.as_ref().map(|p| describe_order(p, &names)),
        form,
        table: PoolsTable::of(lobby.game, &lobby.players, collecting(&lobby))
            .relabeled(&labels)
            .seen(Some(&my_id), lobby.status == Status::Finished),
        show_orders: collecting(&lobby) && lobby.status == Status::Running,
        latest,
        so_far: so_far(&lobby, &labels),
        error: None,
        deadline: DeadlineLine::of(&lobby),
        fallback: fallback.as_ref().map(|f| describe_order(f, &names)),
        fallback_form,
        just_joined: false,
        mail,
        talk_unread,
        editing: false,
        aways: super::vacation_shown::away_lines(&app.host.lobby_aways(id).await?),
        claim_as,
        bound_to,
    })
}

/// For a signed-in browser: the handle it may claim this seat for (an unbound seat), or the
/// handle the seat is bound to when that is its own profile. Nothing is read without a
/// session cookie.
async fn claim_offer(
    app: &AppState,
    id: Uuid,
    headers: &HeaderMap,
    my_id: &str,
) -> Result<(Option<String>, Option<String>), PageError> {
    let Some(session) = super::signed_in::session_of(app, headers).await? else {
        return Ok((None, None));
    };
    let bound = app.host.seat_profiles(id).await?;
    let mine = bound.iter().find(|(p, _)| p.to_string() == my_id);
    Ok(match mine {
        None => (Some(session.profile.handle), None),
        Some((_, b)) if b.profile == session.profile.id => (None, Some(session.profile.handle)),
        Some(_) => (None, None),
    })
}

/// `?joined=1`: the player has just joined (the page then says to keep the private link);
/// `?mail=saved` or `?mail=stopped`: the mail form was just sent.
#[derive(serde::Deserialize)]
pub struct JoinedFlag {
    joined: Option<String>,
    mail: Option<String>,
}

pub async fn show_play(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    flag: Result<Query<JoinedFlag>, QueryRejection>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
) -> Result<PlayPage, PageError> {
    let Query(flag) = flag.map_err(|e| AppError::malformed("invalid-query", e.body_text()))?;
    let id = lobby_id(&id)?;
    let page = play_page(&app, id, &headers, csrf, None).await?;
    Ok(PlayPage {
        just_joined: flag.joined.is_some(),
        mail: MailSection {
            done: MailSection::done_from(flag.mail.as_deref()),
            ..page.mail
        },
        ..page
    })
}

pub async fn submit_order(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    posted: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = player_token(&app, id, &headers).await?;
    let lobby = app.host.lobby(id).await?;
    let me = app.host.me(id, Some(&token)).await?;
    let form = me
        .prompt_value()?
        .map(|prompt| form_for(lobby.game, lobby.max_rounds, &prompt, None))
        .transpose()?;
    // A button of an ordered list (add, up, down, remove) changes the list and sends nothing:
    // the page comes back with the list as changed (`ordered.rs`).
    if let Some(form) = &form
        && let Some((name, edit)) = ordered::requested(form, &posted)?
    {
        let shown = ordered::edited(form, &posted, &name, &edit);
        let values = shown
            .as_ref()
            .map_or_else(|_| ordered::posted_values(form, &posted), Clone::clone);
        let page = play_page(&app, id, &headers, csrf, Some(&values)).await?;
        return Ok(match shown {
            Ok(_) => PlayPage {
                editing: true,
                ..page
            }
            .into_response(),
            Err(error) => again(error, |message| PlayPage {
                error: Some(message),
                ..page
            }),
        });
    }
    let attempt = match &form {
        Some(form) => order_body(form, &posted),
        None => Err(AppError::conflict(
            "nothing-owed",
            "You owe no order right now: the round may have resolved, or you are out of the game.",
        )),
    };
    let result = match attempt {
        Ok(body) => app.host.submit(id, Some(&token), body).await.map(|_| ()),
        Err(error) => Err(error),
    };
    match result {
        Ok(()) => Ok(see_other(&format!("/lobbies/{id}/play?sent=1"), &[])),
        Err(error) => {
            let sent = match &form {
                Some(form) => ordered::posted_values(form, &posted),
                None => Map::new(),
            };
            let page = play_page(&app, id, &headers, csrf, Some(&sent)).await?;
            Ok(again(error, |message| PlayPage {
                error: Some(message),
                ..page
            }))
        }
    }
}

/// What a player's form that changes nothing else on the page answers: on success, a 303 to
/// `to`; refused, the player's page again with the reason (in the status the refusal has).
pub(super) async fn after_action(
    app: &AppState,
    id: Uuid,
    headers: &HeaderMap,
    csrf: String,
    result: Result<(), AppError>,
    to: &str,
) -> Result<Response, PageError> {
    match result {
        Ok(()) => Ok(see_other(to, &[])),
        Err(error) => {
            let page = play_page(app, id, headers, csrf, None).await?;
            Ok(again(error, |message| PlayPage {
                error: Some(message),
                ..page
            }))
        }
    }
}

/// The player gives up their seat before the start; the browser forgets their token.
pub async fn leave_lobby(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = player_token(&app, id, &headers).await?;
    match app.host.leave(id, Some(&token)).await {
        Ok(()) => {
            super::my_games::forget_here(&app, &headers, id, crate::host::my_games::MyRole::Player)
                .await;
            Ok(see_other(
                &format!("/lobbies/{id}"),
                &[
                    forget_cookie(id, Role::Player),
                    super::my_games::forget_seat_mark_cookie(id),
                ],
            ))
        }
        Err(error) => {
            let page = play_page(&app, id, &headers, csrf, None).await?;
            Ok(again(error, |message| PlayPage {
                error: Some(message),
                ..page
            }))
        }
    }
}
