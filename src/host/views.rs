//! What the public and each player may see of a lobby. Secrets (orders before their step
//! resolves, hands, the pool order, the seed) never enter these types.

use std::collections::HashSet;

use serde::Serialize;
use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::engine::{self, merge, to_json};
use super::{GameKind, with_game};
use crate::error::AppError;
use crate::rules::{Game, Seat};
use crate::store::{LobbyRow, Snapshot, Status};

/// The public view of a lobby (api.md "Public lobby view").
#[derive(Clone, Debug, Serialize)]
pub struct LobbyView {
    pub id: Uuid,
    pub game: GameKind,
    pub name: String,
    pub status: Status,
    /// The current round (null before the start).
    pub round: Option<u32>,
    /// The step whose orders are being collected (null unless running).
    pub step: Option<String>,
    pub capacity: usize,
    pub max_rounds: Option<u64>,
    /// Every setting with its effective value (defaults filled in), minus what stays secret
    /// while the game runs (api.md v1 additions; [`Game::public_settings`]).
    pub settings: Value,
    pub created_at: i64,
    /// Each player: id, name, alive, submitted (an order for the current step is in), owes
    /// (an answer is due from them now), and the game's public pools.
    pub players: Vec<Value>,
    /// The game's public table (BST: `pool_size`, `discard`), flattened into the object.
    #[serde(flatten)]
    pub table: Map<String, Value>,
    /// What the current round has revealed so far (BST: the play step's reveal while its
    /// decision steps run): `{"round", "orders", "log"}`, public entries only; null if nothing.
    pub current_round: Option<Value>,
    /// Winners and standings, once finished.
    pub result: Option<Value>,
    /// When the open step resolves without the missing orders (RFC 3339 UTC), or null: no
    /// deadline, or the clock is paused.
    pub deadline_at: Option<String>,
    /// True while the host has paused the clock.
    pub paused: bool,
    /// The RNG seed, published only once the game is over, so anyone can replay it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// The commitment to the seed (hex SHA-256, docs/fairness.md), published from the lobby's
    /// creation; null for a lobby created before commitments existed.
    pub seed_commitment: Option<String>,
    /// The salt of the commitment, published with the seed once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_salt: Option<String>,
}

/// One line of the public lobby list.
#[derive(Clone, Debug, Serialize)]
pub struct LobbySummary {
    pub id: Uuid,
    pub game: GameKind,
    pub name: String,
    pub status: Status,
    pub round: Option<u32>,
    pub created_at: i64,
}

impl LobbySummary {
    pub fn of(row: &LobbyRow) -> Result<LobbySummary, AppError> {
        Ok(LobbySummary {
            id: row.id,
            game: row.game_kind()?,
            name: row.name.clone(),
            status: row.status,
            round: started(row).then_some(row.round),
            created_at: row.created_at,
        })
    }
}

fn started(row: &LobbyRow) -> bool {
    matches!(row.status, Status::Running | Status::Finished)
}

/// Builds the public view of a lobby from its snapshot.
pub fn lobby_view(snapshot: &Snapshot) -> Result<LobbyView, AppError> {
    let kind: GameKind = snapshot.lobby.game_kind()?;
    with_game!(kind, G => lobby_view_of::<G>(kind, snapshot))
}

fn lobby_view_of<G: Game>(kind: GameKind, snapshot: &Snapshot) -> Result<LobbyView, AppError> {
    let lobby = &snapshot.lobby;
    let settings = engine::settings::<G>(snapshot)?;
    let state = engine::state::<G>(snapshot)?;
    let submitted: HashSet<Uuid> = snapshot.orders.iter().map(|o| o.player_id).collect();
    let owes: Vec<Seat> = state.as_deref().map(G::owes).unwrap_or_default();
    let mut players = Vec::with_capacity(snapshot.players.len());
    for player in snapshot.players.iter() {
        let seat = Seat(player.seat);
        let mut entry = Map::new();
        entry.insert("id".into(), json!(player.id));
        entry.insert("name".into(), json!(player.name));
        if let Some(pseudonym) = super::anonymity::pseudonym_after_end(snapshot, player) {
            entry.insert("pseudonym".into(), json!(pseudonym));
        }
        entry.insert(
            "alive".into(),
            json!(state.as_ref().is_none_or(|s| G::alive(s, seat))),
        );
        entry.insert("submitted".into(), json!(submitted.contains(&player.id)));
        entry.insert("owes".into(), json!(owes.contains(&seat)));
        match &state {
            Some(state) => merge(&mut entry, to_json(&G::pools(state, seat))?),
            // Before the start only the join choice (BST: the character) is known.
            None => merge(&mut entry, engine::from_stored::<Value>(&player.join_data)?),
        }
        players.push(Value::Object(entry));
    }
    let mut table = Map::new();
    let mut result = None;
    if let Some(state) = &state {
        merge(&mut table, to_json(&G::table(state))?);
        result = G::outcome(state).map(|o| to_json(&o)).transpose()?;
    }
    let settings_json = to_json(&settings)?;
    Ok(LobbyView {
        id: lobby.id,
        game: kind,
        name: lobby.name.clone(),
        status: lobby.status,
        round: started(lobby).then_some(lobby.round),
        step: (lobby.status == Status::Running)
            .then(|| lobby.step.clone())
            .flatten(),
        capacity: G::capacity(&settings),
        max_rounds: settings_json.get("max_rounds").and_then(Value::as_u64),
        settings: public_settings::<G>(snapshot, &settings)?,
        created_at: lobby.created_at,
        players,
        table,
        current_round: None,
        result,
        deadline_at: deadline_at(lobby),
        paused: lobby.clock.paused_left.is_some(),
        seed: (lobby.status == Status::Finished).then(|| lobby.seed.to_string()),
        seed_commitment: super::chain::commitment_of(lobby),
        seed_salt: (lobby.status == Status::Finished)
            .then(|| lobby.seed_salt.clone())
            .flatten(),
    })
}

/// The game's public settings with the lobby's effective deadline settings beside them
/// (`Timing::effective`: `deadline_seconds`, `decision_deadline_seconds`, `reminder_seconds`,
/// `miss_limit`).
fn public_settings<G: Game>(
    snapshot: &Snapshot,
    settings: &G::Settings,
) -> Result<Value, AppError> {
    let lobby = &snapshot.lobby;
    let mut public = to_json(&G::public_settings(
        settings,
        lobby.status == Status::Finished,
    ))?;
    if let (Value::Object(map), Value::Object(timing)) = (
        &mut public,
        super::timing::Timing::parse(&lobby.timing)?.effective(),
    ) {
        map.extend(timing);
    }
    Ok(public)
}

/// The open step's deadline as shown: RFC 3339 UTC, or None.
pub fn deadline_at(lobby: &LobbyRow) -> Option<String> {
    lobby.clock.deadline_at.map(super::timing::rfc3339)
}
