//! The host's controls over a game under way: a substitute for a player, a new private link,
//! a kick, and ending the game now. Each is one transaction on the lobby, decided before it
//! writes, so a refused request changes nothing.

use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::anonymity;
use super::auth::{Presented, hash_token, new_token, require_host};
use super::engine::{self, to_json, to_text};
use super::lobby::Joined;
use super::names::{SeatName, seat_name};
use super::play::running_state;
use super::resolve::{Closing, KickReason, finish_by_host, resolve_step, write_kick};
use super::views::LobbyView;
use super::{GameKind, Host, with_game};
use crate::error::AppError;
use crate::events::{EventKind, Finished};
use crate::fairness::act::Act;
use crate::rules::{Game, HostAct, Seat};
use crate::store::{
    Change, LobbyPatch, NewEvent, PlayerRow, PlayerUpdate, ProfileRecord, Snapshot, Status,
};

/// The seated player `raw` names (their id), or 404.
pub(super) fn seated<'a>(snapshot: &'a Snapshot, raw: &str) -> Result<&'a PlayerRow, AppError> {
    Uuid::parse_str(raw)
        .ok()
        .and_then(|id| snapshot.players.iter().find(|p| p.id == id))
        .ok_or_else(|| {
            AppError::not_found(
                "unknown-player",
                format!("There is no player {raw:?} in this lobby."),
            )
        })
}

fn not_over(snapshot: &Snapshot) -> Result<(), AppError> {
    match snapshot.lobby.status {
        Status::Finished => Err(AppError::conflict("game-over", "The game is over.")),
        Status::Signups | Status::Closed | Status::Running => Ok(()),
    }
}

impl Host {
    /// A substitute takes `player_id`'s seat under `name` (host only): same id, seat, pools
    /// and history; a new token, the old one unknown from the commit on.
    pub async fn replace_player(
        &self,
        id: Uuid,
        token: Option<&str>,
        player_id: String,
        name: String,
    ) -> Result<Joined, AppError> {
        self.new_token_for(id, token, player_id, Some(name)).await
    }

    /// A new private link for `player_id` (host only), the old token unknown from now on.
    pub async fn reissue_token(
        &self,
        id: Uuid,
        token: Option<&str>,
        player_id: String,
    ) -> Result<Joined, AppError> {
        self.new_token_for(id, token, player_id, None).await
    }

    async fn new_token_for(
        &self,
        id: Uuid,
        token: Option<&str>,
        player_id: String,
        name: Option<String>,
    ) -> Result<Joined, AppError> {
        let presented = Presented::new(token);
        let fresh = new_token();
        let token_hash = hash_token(&fresh);
        let owner = match &name {
            Some(raw) => anonymity::handle_owner(self, raw).await?,
            None => None,
        };
        let player_id = self
            .change(id, move |snapshot| {
                require_host(snapshot, &presented)?;
                let player = seated(snapshot, &player_id)?;
                not_over(snapshot)?;
                let mut change = Change::default();
                let anonymous = anonymity::anonymous(snapshot)?;
                let (new_name, alias) = match &name {
                    // An anonymous seat keeps its pseudonym (the game's record does not
                    // change): the substitute's name is its new alias.
                    Some(raw) if anonymous => {
                        anonymity::check_handle_claim(anonymous, raw, owner, None)?;
                        let named = seat_name(raw, &snapshot.players, Some(player.id))?;
                        change.events.push(NewEvent {
                            kind: EventKind::PlayerReplaced,
                            data: json!({"player": {"id": player.id, "name": player.name}, "previous_name": player.name}).to_string(),
                        });
                        let alias = Some(named.name);
                        (SeatName { name: player.name.clone(), key: named.key }, alias)
                    }
                    Some(raw) => {
                        let named = seat_name(raw, &snapshot.players, Some(player.id))?;
                        let name = &named.name;
                        let kind: GameKind = snapshot.lobby.game_kind()?;
                        change.lobby.state = with_game!(kind, G => renamed::<G>(snapshot, player, name)?);
                        if change.lobby.state.is_some() {
                            change.acts.push(Act::Rename {
                                seat: player.seat,
                                name: name.clone(),
                                previous: player.name.clone(),
                            });
                        }
                        change.events.push(NewEvent {
                            kind: EventKind::PlayerReplaced,
                            data: json!({"player": {"id": player.id, "name": name}, "previous_name": player.name}).to_string(),
                        });
                        (named, None)
                    }
                    // A new link keeps the name, stored under the key the rule gives it.
                    None => (SeatName::held(player), player.alias.clone()),
                };
                // A new holding: the profile's binding ends with the old token (the update
                // clears the seat's), and its record of the game stops here.
                if let Some(binding) = player.binding {
                    change.records.push(ProfileRecord::Ended {
                        profile: binding.profile,
                        player: player.id,
                        step_seq: snapshot.lobby.step_seq,
                    });
                }
                change.player_update = Some(PlayerUpdate {
                    id: player.id,
                    name_key: new_name.key,
                    name: new_name.name,
                    token_hash,
                    alias,
                });
                Ok((change, player.id))
            })
            .await?;
        Ok(Joined {
            player_id,
            player_token: fresh,
        })
    }

    /// Kicks `player_id` out of the running game (host only), as the game's rulings treat it.
    /// If that leaves every owed answer in, the step resolves now with the orders that are in.
    pub async fn kick(
        &self,
        id: Uuid,
        token: Option<&str>,
        player_id: String,
    ) -> Result<LobbyView, AppError> {
        let presented = Presented::new(token);
        // The instant the next step's clock counts from, if the kick resolves the step.
        let now = self.store.clock().now_millis();
        self.change(id, move |snapshot| {
            require_host(snapshot, &presented)?;
            let player = seated(snapshot, &player_id)?;
            let kind: GameKind = snapshot.lobby.game_kind()?;
            let change = with_game!(kind, G => kick_player::<G>(snapshot, player, now)?);
            Ok((change, ()))
        })
        .await?;
        self.lobby(id).await
    }

    /// Ends the running game now (host only) with the host's decision (`body`: the game's
    /// [`Game::Ending`]).
    pub async fn end_game(
        &self,
        id: Uuid,
        token: Option<&str>,
        body: Map<String, Value>,
    ) -> Result<LobbyView, AppError> {
        let presented = Presented::new(token);
        self.change(id, move |snapshot| {
            require_host(snapshot, &presented)?;
            let kind: GameKind = snapshot.lobby.game_kind()?;
            let change = with_game!(kind, G => end_now::<G>(snapshot, body)?);
            Ok((change, ()))
        })
        .await?;
        self.lobby(id).await
    }
}

/// The game's state with the seat renamed, if the game has started.
fn renamed<G: Game>(
    snapshot: &Snapshot,
    player: &PlayerRow,
    name: &str,
) -> Result<Option<String>, AppError> {
    engine::state::<G>(snapshot)?
        .map(|state| to_text(&G::rename(&state, Seat(player.seat), name)))
        .transpose()
}

/// What the host's kick of `player` writes, decided inside the lobby's transaction: the
/// game's kick ([`write_kick`]), the kicked player's pending order dropped, and then either
/// the end (the kick finished the game), the step resolved (every owed answer is in), or the
/// new state.
pub(super) fn kick_player<G: Game>(
    snapshot: &Snapshot,
    player: &PlayerRow,
    now: i64,
) -> Result<Change, AppError> {
    let state = running_state::<G>(snapshot)?;
    let act = G::kick(&state, Seat(player.seat)).map_err(engine::refused)?;
    let mut change = Change::default();
    // The kicked player's order, if one is pending, goes unrevealed with them.
    if snapshot.orders.iter().any(|o| o.player_id == player.id) {
        change.order_dropped = Some(player.id);
    }
    let Some(next) = write_kick::<G>(snapshot, player, KickReason::Host, act, &mut change)? else {
        return Ok(change);
    };
    match answers_in::<G>(snapshot, &next, player)? {
        Some(orders) => resolve_step::<G>(
            snapshot,
            &next,
            &orders,
            (Closing::Answered, &[]),
            &super::receipts::seals(&snapshot.orders)?,
            now,
            &mut change,
        )?,
        None => {
            change.lobby = LobbyPatch {
                state: Some(to_text(&next)?),
                ..LobbyPatch::default()
            }
        }
    }
    Ok(change)
}

/// A step's orders, one per owed seat, in seat order.
type Answers<G> = Vec<(Seat, <G as Game>::Order)>;

/// Every owed seat's pending order, in seat order, if every owed seat has answered (the
/// kicked player's order left out): the step can resolve now.
fn answers_in<G: Game>(
    snapshot: &Snapshot,
    state: &G::State,
    kicked: &PlayerRow,
) -> Result<Option<Answers<G>>, AppError> {
    let mut orders = Vec::new();
    for seat in G::owes(state) {
        let Some(player) = snapshot.players.get(seat.0) else {
            return Ok(None);
        };
        let pending = snapshot
            .orders
            .iter()
            .find(|o| o.player_id == player.id && o.player_id != kicked.id);
        match pending {
            Some(order) => orders.push((seat, super::receipts::order_of::<G>(order)?)),
            None => return Ok(None),
        }
    }
    Ok(Some(orders))
}

fn end_now<G: Game>(snapshot: &Snapshot, body: Map<String, Value>) -> Result<Change, AppError> {
    let state = running_state::<G>(snapshot)?;
    let body = Value::Object(body);
    let ending: G::Ending = engine::from_client(body.clone(), "ending")?;
    let act: HostAct<G> = G::end_by_host(&state, ending).map_err(engine::refused)?;
    let result = G::outcome(&act.state).map(|o| to_json(&o)).transpose()?;
    let mut change = Change::default();
    change.acts.push(Act::End { ending: body });
    change.events.push(NewEvent {
        kind: EventKind::EndedByHost,
        data: to_text(&Finished { result })?,
    });
    finish_by_host::<G>(snapshot, &act, &mut change)?;
    Ok(change)
}
