//! Playing: a player's private view, submitting orders, and resolving a step the moment its
//! last owed order arrives (in the same transaction, so exactly once).

use std::borrow::Cow;

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::auth::require_player;
use super::engine::{self, from_stored, to_json};
use super::{GameKind, Host, with_game};
use crate::error::AppError;
use crate::events::{EventKind, Named, Submitted};
use crate::fairness::act::Vote;
use crate::rules::{Game, Seat};
use crate::store::{Change, NewEvent, NewOrder, PlayerRow, Snapshot, Status};

/// What only this player may see: the prompt they owe, their pending order, their secrets.
#[derive(Debug, Serialize)]
pub struct MeView {
    pub lobby: Uuid,
    /// The game played (its id), so that a client knows how to read the prompt.
    pub game: GameKind,
    pub player: Value,
    pub status: Status,
    pub round: Option<u32>,
    pub step: Option<String>,
    /// What you owe now: `{"round", "step", ...}`, or null. Kept as the JSON text it is sent
    /// as: a 16-player prompt is large, and building it as a `Value` tree only to serialize it
    /// again cost more than the rest of the request.
    pub prompt: Option<Box<RawValue>>,
    /// Your order for the current step, if you have sent one (you may replace it until the
    /// step resolves), as stored.
    pub pending: Option<Box<RawValue>>,
    /// When the open step resolves without the missing orders (RFC 3339 UTC), or null.
    pub deadline_at: Option<String>,
    /// True while the host has paused the clock.
    pub paused: bool,
    /// The vote sent with your pending order (docs/table-talk.md, "End votes"); absent when
    /// none. Only you see it until the reveal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vote: Option<Vote>,
    /// Your standing fallback order (as you set it), or null. Only you see it.
    pub fallback: Option<Box<RawValue>>,
    /// The game's private view (BST: your hand), flattened.
    #[serde(flatten)]
    pub private: Map<String, Value>,
}

impl MeView {
    /// The prompt as a JSON value (for the pages, which read it).
    pub fn prompt_value(&self) -> Result<Option<Value>, AppError> {
        self.prompt
            .as_deref()
            .map(|raw| from_stored(raw.get()))
            .transpose()
    }

    /// The pending order as a JSON value.
    pub fn pending_value(&self) -> Result<Option<Value>, AppError> {
        self.pending
            .as_deref()
            .map(|raw| from_stored(raw.get()))
            .transpose()
    }
}

use super::receipts::{Binding, Seal, sealed_order_of, stored};
use super::resolve::{Closing, resolve_step};

/// The acknowledgement of an order: it is durably stored when this is sent.
#[derive(Debug, Serialize)]
pub struct Receipt {
    pub round: u32,
    pub step: String,
    pub order: Value,
    /// True if this order replaced one you had sent for the same step.
    pub replaced: bool,
    /// True if this was the last order owed and the step has now resolved.
    pub resolved: bool,
    /// The commitment to this order (hex): the reveal's nonce and order hash to it.
    pub commitment: String,
    /// The vote sent with the order; absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vote: Option<Vote>,
    /// The commit's instant (what the stored order carries), so that of two replacements the
    /// later receipt is the one that stands, whichever process took them.
    pub submitted_at: i64,
}

/// A receipt before its commit: everything but the commit's instant.
struct Accepted {
    round: u32,
    step: String,
    order: Value,
    replaced: bool,
    resolved: bool,
    commitment: String,
    vote: Option<Vote>,
}

impl Accepted {
    fn committed_at(self, submitted_at: i64) -> Receipt {
        Receipt {
            round: self.round,
            step: self.step,
            order: self.order,
            replaced: self.replaced,
            resolved: self.resolved,
            commitment: self.commitment,
            vote: self.vote,
            submitted_at,
        }
    }
}

impl Host {
    /// The player's private view.
    pub async fn me(&self, id: Uuid, token: Option<&str>) -> Result<MeView, AppError> {
        let snapshot = self.snapshot(id).await?;
        let player = require_player(&snapshot, &self.presented(token).await?)?;
        let kind: GameKind = snapshot.lobby.game_kind()?;
        with_game!(kind, G => me_view::<G>(kind, &snapshot, player))
    }

    /// Stores `body` as the player's order for the current step; resolves the step if it was
    /// the last one owed.
    pub async fn submit(
        &self,
        id: Uuid,
        token: Option<&str>,
        body: Map<String, Value>,
    ) -> Result<Receipt, AppError> {
        let presented = self.presented(token).await?;
        // The instant the next step's clock counts from, if this order resolves the step.
        let now = self.store.clock().now_millis();
        let committed = self
            .commit(id, move |snapshot| {
                let player = require_player(snapshot, &presented)?;
                let kind: GameKind = snapshot.lobby.game_kind()?;
                with_game!(kind, G => submit_order::<G>(snapshot, player, body, now))
            })
            .await?;
        Ok(committed.value.committed_at(committed.at))
    }

    /// Stores `body` as the order of `profile`'s seat, as [`Host::submit`] does, unless an
    /// order of that seat already stands for the step: then 409 `already-answered` and nothing
    /// is stored. The boss bots answer this way (docs/bots.md, "The boss bots"): when two
    /// processes answer the same prompt, the lobby's compare-and-swap lets one order in and
    /// the other finds it there (or the step gone), so a step is answered once.
    pub async fn submit_once(
        &self,
        id: Uuid,
        profile: Uuid,
        body: Map<String, Value>,
    ) -> Result<Receipt, AppError> {
        let presented = super::auth::Presented::profile(profile);
        let now = self.store.clock().now_millis();
        let committed = self
            .commit(id, move |snapshot| {
                let player = require_player(snapshot, &presented)?;
                if snapshot.orders.iter().any(|o| o.player_id == player.id) {
                    return Err(AppError::conflict(
                        "already-answered",
                        "This seat's order for the step is already stored.",
                    ));
                }
                let kind: GameKind = snapshot.lobby.game_kind()?;
                with_game!(kind, G => submit_order::<G>(snapshot, player, body, now))
            })
            .await?;
        Ok(committed.value.committed_at(committed.at))
    }
}

pub(super) fn me_view<G: Game>(
    game: GameKind,
    snapshot: &Snapshot,
    player: &PlayerRow,
) -> Result<MeView, AppError> {
    let lobby = &snapshot.lobby;
    let state = engine::state::<G>(snapshot)?;
    let seat = Seat(player.seat);
    let mut private = Map::new();
    let mut prompt = None;
    if let Some(state) = &state {
        engine::merge(&mut private, to_json(&G::private(state, seat))?);
        if lobby.status == Status::Running {
            prompt = G::prompt(state, seat)
                .map(|body| {
                    to_raw(&Prompted {
                        game: G::ID,
                        round: G::round(state),
                        step: G::step(state),
                        body,
                    })
                })
                .transpose()?;
        }
    }
    let mut vote = None;
    let pending = snapshot
        .orders
        .iter()
        .find(|o| o.player_id == player.id)
        // The order alone: its nonce stays hidden until the reveal, even from its author.
        .map(|o| {
            let (order, seal) = super::receipts::unsealed(&o.body)?;
            vote = seal.and_then(|seal| seal.vote);
            RawValue::from_string(order.to_owned())
                .map_err(|e| AppError::Internal(format!("stored order: {e}")))
        })
        .transpose()?;
    Ok(MeView {
        lobby: lobby.id,
        game,
        player: json!({"id": player.id, "name": player.name, "seat": player.seat}),
        status: lobby.status,
        round: matches!(lobby.status, Status::Running | Status::Finished).then_some(lobby.round),
        step: (lobby.status == Status::Running)
            .then(|| lobby.step.clone())
            .flatten(),
        prompt,
        pending,
        deadline_at: super::views::deadline_at(lobby),
        paused: lobby.clock.paused_left.is_some(),
        vote,
        fallback: player
            .fallback
            .clone()
            .map(RawValue::from_string)
            .transpose()
            .map_err(|e| AppError::Internal(format!("stored fallback: {e}")))?,
        private,
    })
}

/// A prompt as sent: the game, the round and step it is for, then what the game asks.
#[derive(Serialize)]
struct Prompted<'a, P> {
    game: &'static str,
    round: u32,
    step: &'a str,
    #[serde(flatten)]
    body: P,
}

fn to_raw<T: Serialize>(value: &T) -> Result<Box<RawValue>, AppError> {
    serde_json::value::to_raw_value(value)
        .map_err(|e| AppError::Internal(format!("serialize: {e}")))
}

/// The `submitted` event's data (who, never what), written straight to text: it is made for
/// every order, inside the writer every change of a lobby passes through.
fn submitted_event(round: u32, step: &str, player: &PlayerRow) -> Result<String, AppError> {
    let event = Submitted {
        player: Named {
            id: player.id,
            name: Cow::Borrowed(&player.name),
        },
        round,
        step: Cow::Borrowed(step),
    };
    serde_json::to_string(&event).map_err(|e| AppError::Internal(format!("serialize: {e}")))
}

/// Checks the order against the state and either stores it or, if it completes the step,
/// resolves the step.
fn submit_order<G: Game>(
    snapshot: &Snapshot,
    player: &PlayerRow,
    mut body: Map<String, Value>,
    now: i64,
) -> Result<(Change, Accepted), AppError> {
    let state = running_state::<G>(snapshot)?;
    let (round, step) = (G::round(&state), G::step(&state));
    check_addressed(&mut body, round, step)?;
    let owed = G::owes(&state);
    let seat = owed_seat(&owed, player)?;
    let vote = super::votes::take_vote(&mut body, step == G::MAIN_STEP)?;
    let order = checked_order::<G>(&state, seat, body)?;
    let order_json = to_json(&order)?;
    // A fresh nonce for every order, a replacement too: its receipt binds this order alone.
    let binding = Binding::new(&order_json, (round, step), player.id, vote);
    let replaced = snapshot.orders.iter().any(|o| o.player_id == player.id);

    let mut change = Change::default();
    if !replaced {
        announce_submitted(&mut change, round, step, player)?;
    }
    let resolved = completes_step(snapshot, player, owed.len());
    if resolved {
        let (orders, seals) = orders_with::<G>(snapshot, player, &order, &binding)?;
        resolve_step::<G>(
            snapshot,
            &state,
            &orders,
            (Closing::Answered, &[]),
            &seals,
            now,
            &mut change,
        )?;
    } else {
        change.order = Some(NewOrder {
            player_id: player.id,
            body: stored(&order_json, &binding)?,
        });
    }
    let receipt = Accepted {
        round,
        step: step.to_string(),
        order: order_json,
        replaced,
        resolved,
        commitment: binding.commitment,
        vote,
    };
    Ok((change, receipt))
}

/// The player's seat, if it is among the seats `owed` an answer in the open step; a 409
/// otherwise.
fn owed_seat(owed: &[Seat], player: &PlayerRow) -> Result<Seat, AppError> {
    let seat = Seat(player.seat);
    if owed.contains(&seat) {
        Ok(seat)
    } else {
        Err(AppError::conflict(
            "nothing-owed",
            "You owe no answer in this step.",
        ))
    }
}

/// The order's body read into the game's type (400 when malformed) and judged by its rules
/// (422 or 409 with the rules' code).
fn checked_order<G: Game>(
    state: &G::State,
    seat: Seat,
    body: Map<String, Value>,
) -> Result<G::Order, AppError> {
    let order_body: G::OrderBody = engine::from_client(Value::Object(body), "order")?;
    G::check_order(state, seat, order_body).map_err(engine::refused)
}

/// Files the `submitted` event: who answered, never what. A replacement is the player's own
/// business: their receipt says so, but nobody else learns that they changed their mind (a
/// forum host would not tell either), so the caller files this only for a first order.
fn announce_submitted(
    change: &mut Change,
    round: u32,
    step: &str,
    player: &PlayerRow,
) -> Result<(), AppError> {
    change.events.push(NewEvent {
        kind: EventKind::Submitted,
        data: submitted_event(round, step, player)?,
    });
    Ok(())
}

/// Whether everyone owed has answered once `player`'s order is counted. Orders are stored
/// only for owed seats of this step, so counting distinct players is enough.
fn completes_step(snapshot: &Snapshot, player: &PlayerRow, owed: usize) -> bool {
    let answered = snapshot
        .orders
        .iter()
        .filter(|o| o.player_id != player.id)
        .count()
        + 1;
    answered >= owed
}

/// The game's state while it runs; a 409 before the start and after the end.
pub(super) fn running_state<G: Game>(
    snapshot: &Snapshot,
) -> Result<std::sync::Arc<G::State>, AppError> {
    match snapshot.lobby.status {
        Status::Running => {}
        Status::Signups | Status::Closed => {
            return Err(AppError::conflict(
                "not-started",
                "The game has not started yet.",
            ));
        }
        Status::Finished => return Err(AppError::conflict("game-over", "The game is over.")),
    }
    engine::state::<G>(snapshot)?
        .ok_or_else(|| AppError::Internal("running lobby without a state".into()))
}

/// Takes the order's `round` and `step` out of `body` and checks they name the open step: a
/// 400 when missing, a 409 when stale.
fn check_addressed(body: &mut Map<String, Value>, round: u32, step: &str) -> Result<(), AppError> {
    let sent_round = body.remove("round");
    let sent_step = body.remove("step");
    let sent_round = sent_round.as_ref().and_then(Value::as_u64).ok_or_else(|| {
        AppError::malformed(
            "invalid-body",
            "An order must name its \"round\" as a whole number.",
        )
    })?;
    let sent_step = sent_step.as_ref().and_then(Value::as_str).ok_or_else(|| {
        AppError::malformed(
            "invalid-body",
            "An order must name its \"step\" as a string.",
        )
    })?;
    if sent_round != u64::from(round) {
        return Err(AppError::conflict(
            "wrong-round",
            format!("That order is for round {sent_round}, but the game is at round {round}."),
        ));
    }
    if sent_step != step {
        return Err(AppError::conflict(
            "wrong-step",
            format!(
                "That order is for step {sent_step:?}, but round {round} is collecting {step:?}."
            ),
        ));
    }
    Ok(())
}

/// A step's orders in seat order, and their seals by player.
type StepOrders<G> = (Vec<(Seat, <G as Game>::Order)>, Vec<(Uuid, Seal)>);

/// The step's orders in seat order, and their seals by player: those stored, with `player`'s
/// new `order` and its `binding` in their place. Each stored body is read once for both.
fn orders_with<G: Game>(
    snapshot: &Snapshot,
    player: &PlayerRow,
    order: &G::Order,
    binding: &Binding,
) -> Result<StepOrders<G>, AppError> {
    let mut orders = Vec::with_capacity(snapshot.players.len());
    let mut seals = Vec::with_capacity(snapshot.players.len());
    for p in snapshot.players.iter() {
        let seat = Seat(p.seat);
        if p.id == player.id {
            orders.push((seat, order.clone()));
            seals.push((p.id, binding.seal()));
        } else if let Some(o) = snapshot.orders.iter().find(|o| o.player_id == p.id) {
            let (order, seal) = sealed_order_of::<G>(o)?;
            orders.push((seat, order));
            seals.extend(seal.map(|seal| (p.id, seal)));
        }
    }
    Ok((orders, seals))
}
