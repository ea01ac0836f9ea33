//! The lobby lifecycle: create, list, view, join, close sign-ups, start.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Map, Value};
use uuid::Uuid;

use super::anonymity;
use super::auth::{Presented, hash_token, new_token, require_host};
use super::engine::{self, rng_for, to_text};
use super::gates::{Gates, Joiner};
use super::names::{SeatName, seat_name};

use super::timing::Timing;
use super::views::{LobbySummary, LobbyView, lobby_view};
use super::{GameKind, Host, clean_name, with_game};
use crate::error::AppError;
use crate::events::{EventKind, Finished, Membership, Named, Started};
use crate::rules::Game;
use crate::store::{
    Change, Holding, LobbyPatch, NewEvent, NewLobby, NewPlayer, ProfileRow, SeatBinding, Snapshot,
    Status,
};

/// A lobby just created: its id, the host's token (shown this once) and its public view.
#[derive(Debug, Serialize)]
pub struct Created {
    pub id: Uuid,
    pub host_token: String,
    pub lobby: LobbyView,
}

/// A player just seated: their id and token (shown this once).
#[derive(Debug, Serialize)]
pub struct Joined {
    pub player_id: Uuid,
    pub player_token: String,
}

/// Takes `unlisted` (a boolean; null or absent is false) out of the settings: it is the
/// lobby's, not the game's, which parses its own settings strictly.
pub(super) fn take_unlisted(settings: &mut Value) -> Result<bool, AppError> {
    let Value::Object(map) = settings else {
        return Ok(false);
    };
    match map.remove("unlisted") {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(unlisted)) => Ok(unlisted),
        Some(_) => Err(AppError::rejected(
            "invalid-setting",
            "settings.unlisted must be true or false.",
        )),
    }
}

/// A create request's `settings` split and checked as [`Host::create_lobby`] does: the game's
/// settings (normalised for storage), the host's timing and gates, and `unlisted`.
pub(super) fn split_settings(
    kind: GameKind,
    mut settings: Value,
) -> Result<(String, Timing, bool), AppError> {
    let mut timing = Timing::split_from(&mut settings)?;
    timing.gates = Gates::split_from(&mut settings)?;
    let unlisted = take_unlisted(&mut settings)?;
    let settings = with_game!(kind, G => engine::check_settings::<G>(settings)?.1);
    Ok((settings, timing, unlisted))
}

impl Host {
    /// Creates a lobby for `game` with validated `settings`.
    pub async fn create_lobby(
        &self,
        game: &str,
        name: &str,
        settings: Value,
    ) -> Result<Created, AppError> {
        let kind: GameKind = game.parse()?;
        let name = clean_name(name, "lobby name")?;
        let mut settings = settings;
        let mut timing = Timing::split_from(&mut settings)?;
        timing.gates = Gates::split_from(&mut settings)?;
        let unlisted = take_unlisted(&mut settings)?;
        self.create_checked(kind, name, settings, timing, unlisted)
            .await
    }

    /// Whether `settings` would make a lobby of `game` (the same 400s and 422s as creating
    /// one), without making it: a challenge is checked when it is made, not when accepted.
    pub fn check_lobby_settings(game: &str, settings: &Value) -> Result<(), AppError> {
        let kind: GameKind = game.parse()?;
        let mut settings = settings.clone();
        Timing::split_from(&mut settings)?;
        Gates::split_from(&mut settings)?;
        take_unlisted(&mut settings)?;
        with_game!(kind, G => engine::check_settings::<G>(settings).map(|_| ()))
    }

    /// Creates a lobby for `game` at the position after `round` of an archived game of it
    /// (docs/fairness.md, "Forking"). `settings` may hold only the host's own keys
    /// (deadlines): the game's come from the archive, with its `setup` set to the position.
    pub async fn create_fork(
        &self,
        game: &str,
        name: &str,
        settings: Value,
        archive: Box<serde_json::value::RawValue>,
        round: u32,
    ) -> Result<Created, AppError> {
        let kind: GameKind = game.parse()?;
        let name = clean_name(name, "lobby name")?;
        let mut settings = settings;
        let mut timing = Timing::split_from(&mut settings)?;
        timing.gates = Gates::split_from(&mut settings)?;
        let unlisted = take_unlisted(&mut settings)?;
        if let Some(key) = settings.as_object().and_then(|map| map.keys().next()) {
            return Err(AppError::rejected(
                "fork-settings-conflict",
                format!(
                    "A fork takes the game's settings from its archive; settings.{key} cannot be given with it (only the deadline settings can)."
                ),
            ));
        }
        // Verifying and replaying an archive of up to 4 MiB is CPU work: off the async workers.
        let game_id = kind.id();
        let forked = tokio::task::spawn_blocking(move || {
            crate::fairness::fork::fork(archive.get(), game_id, round)
        })
        .await
        .map_err(|e| AppError::Internal(format!("fork: {e}")))?
        .map_err(|e| AppError::rejected(e.code(), e.message()))?;
        timing.forked_from = Some(forked.origin);
        self.create_checked(kind, name, forked.settings, timing, unlisted)
            .await
    }

    async fn create_checked(
        &self,
        kind: GameKind,
        name: String,
        settings: Value,
        timing: Timing,
        unlisted: bool,
    ) -> Result<Created, AppError> {
        let settings = with_game!(kind, G => engine::check_settings::<G>(settings)?.1);
        let host_token = new_token();
        let id = Uuid::new_v4();
        self.store_lobby(
            kind,
            id,
            name,
            settings,
            timing,
            unlisted,
            hash_token(&host_token),
        )
        .await?;
        let view = self.lobby(id).await?;
        Ok(Created {
            id,
            host_token,
            lobby: view,
        })
    }

    /// Stores a new lobby with id `id` and checked `settings`, whose host is the holder of the
    /// token hashed as `host_token_hash` (a tournament's lobbies: its director's).
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn store_lobby(
        &self,
        kind: GameKind,
        id: Uuid,
        name: String,
        settings: String,
        timing: Timing,
        unlisted: bool,
        host_token_hash: String,
    ) -> Result<(), AppError> {
        let seed = with_game!(kind, G => {
            let (settings, _) = engine::check_settings::<G>(engine::from_stored(&settings)?)?;
            G::seed(&settings)
        });
        let lobby = NewLobby {
            id,
            game: kind.id().to_string(),
            name,
            settings,
            host_token_hash,
            // A seed the settings do not fix is drawn here, in the shell, and kept secret.
            seed: seed.unwrap_or_else(rand::random),
            created_at: self.store.clock().now_millis(),
            timing: to_text(&timing)?,
            seed_salt: crate::fairness::fresh_secret(),
            unlisted,
        };
        self.store.create_lobby(&lobby).await?;
        Ok(())
    }

    /// The newest lobbies first.
    pub async fn list_lobbies(&self, limit: i64) -> Result<Vec<LobbySummary>, AppError> {
        let rows = self.store.list_lobbies(limit.clamp(1, 200)).await?;
        rows.iter().map(LobbySummary::of).collect()
    }

    /// The public view of a lobby.
    pub async fn lobby(&self, id: Uuid) -> Result<LobbyView, AppError> {
        let snapshot = self.snapshot(id).await?;
        let mut view = lobby_view(&snapshot)?;
        view.current_round = self.current_round(&snapshot).await?;
        // A finished rated lobby's result says what it did to the ratings (one read, once
        // the game is over; empty when it finished unrated).
        if let Some(serde_json::Value::Object(result)) = &mut view.result
            && snapshot.lobby.status == Status::Finished
            && Timing::parse(&snapshot.lobby.timing)?.gates.rated
        {
            let changes = self.rating_changes(id).await?;
            result.insert("rating_changes".into(), engine::to_json(&changes)?);
        }
        Ok(view)
    }

    /// Seats a new player while sign-ups are open and there is room.
    pub async fn join(
        &self,
        id: Uuid,
        name: &str,
        fields: Map<String, Value>,
    ) -> Result<Joined, AppError> {
        self.join_as(id, Some(name), fields, None).await
    }

    /// [`Host::join`], with a profile key if given (the seat is then bound to its profile, and
    /// named after its handle unless `name` is given), through the lobby's gates.
    pub async fn join_as(
        &self,
        id: Uuid,
        name: Option<&str>,
        fields: Map<String, Value>,
        key: Option<&str>,
    ) -> Result<Joined, AppError> {
        let profile = match key {
            Some(key) => Some(self.signed(Some(key)).await?.profile),
            None => None,
        };
        self.join_with(id, name, fields, profile).await
    }

    /// [`Host::join_as`] for a profile already known (a signed-in page's), or none.
    pub async fn join_with(
        &self,
        id: Uuid,
        name: Option<&str>,
        fields: Map<String, Value>,
        profile: Option<ProfileRow>,
    ) -> Result<Joined, AppError> {
        let joiner = match &profile {
            Some(profile) => Some(Joiner {
                kind: profile.kind,
                score: self.reliability_of(profile.id).await?.0.score,
            }),
            None => None,
        };
        let name = match (name, &profile) {
            (Some(name), _) => name,
            (None, Some(profile)) => profile.handle.as_str(),
            (None, None) => {
                return Err(AppError::malformed(
                    "invalid-body",
                    "A join needs a \"name\" (or a profile key, whose handle it then takes).",
                ));
            }
        };
        // Cleaned first, so that a bad name is refused as such whatever the lobby's state;
        // `seat_name` cleans it again (a no-op) and judges it against the seats.
        let name = clean_name(name, "player name")?;
        let owner = anonymity::handle_owner(self, &name).await?;
        let claimant = profile.as_ref().map(|p| p.id);
        let token = new_token();
        let token_hash = hash_token(&token);
        let player_id = Uuid::new_v4();
        self.change(id, move |snapshot| {
            let kind: GameKind = snapshot.lobby.game_kind()?;
            let (join_data, capacity) = with_game!(kind, G => {
                let settings = engine::settings::<G>(snapshot)?;
                (engine::check_join::<G>(&settings, fields)?, G::capacity(&settings))
            });
            match snapshot.lobby.status {
                Status::Signups => {}
                Status::Closed | Status::Running | Status::Finished => {
                    return Err(AppError::conflict(
                        "signups-closed",
                        "Sign-ups for this lobby are closed: no latecomers.",
                    ));
                }
            }
            if snapshot.players.len() >= capacity {
                return Err(AppError::conflict(
                    "lobby-full",
                    format!("This lobby is full ({capacity} players)."),
                ));
            }
            check_fork_seat(snapshot, &join_data)?;
            let timing = Timing::parse(&snapshot.lobby.timing)?;
            timing.gates.admit(joiner)?;
            anonymity::check_handle_claim(timing.is_anonymous(), &name, owner, claimant)?;
            let SeatName { name, key } = seat_name(&name, &snapshot.players, None)?;
            // The key stays the real name's, so that two players cannot join under one name.
            let seat = snapshot.players.len();
            let (name, alias) = anonymity::seated_as(timing.is_anonymous(), seat, name);
            let mut records = Vec::new();
            let binding = match &profile {
                Some(profile) => {
                    super::holdings::not_seated(snapshot, profile.id)?;
                    records.push(super::holdings::game_record(
                        snapshot,
                        profile.id,
                        player_id,
                        Holding::Bound,
                    ));
                    Some(SeatBinding {
                        profile: profile.id,
                        kind: profile.kind,
                        holding: Holding::Bound,
                    })
                }
                None => None,
            };
            let player = NewPlayer {
                id: player_id,
                seat,
                name: name.clone(),
                name_key: key,
                join_data,
                token_hash,
                binding,
                alias,
            };
            let event = Membership {
                player: Named {
                    id: player_id,
                    name: Cow::Borrowed(&name),
                },
                players: snapshot.players.len() + 1,
            };
            let event = NewEvent {
                kind: EventKind::PlayerJoined,
                data: engine::to_text(&event)?,
            };
            let change = Change {
                player: Some(player),
                events: vec![event],
                records,
                ..Change::default()
            };
            Ok((change, ()))
        })
        .await?;
        Ok(Joined {
            player_id,
            player_token: token,
        })
    }

    /// Closes sign-ups (host only): no latecomers from now on.
    pub async fn close_signups(
        &self,
        id: Uuid,
        token: Option<&str>,
    ) -> Result<LobbyView, AppError> {
        self.switch_signups(id, token, Status::Closed).await
    }

    /// Moves a lobby that has not started between open (`Signups`) and closed sign-ups (host
    /// only): closing them, or opening them again (`to` says which). A 409 when they already
    /// are so, or the game has started.
    pub(super) async fn switch_signups(
        &self,
        id: Uuid,
        token: Option<&str>,
        to: Status,
    ) -> Result<LobbyView, AppError> {
        let presented = Presented::new(token);
        self.change(id, move |snapshot| {
            require_host(snapshot, &presented)?;
            let status = snapshot.lobby.status;
            if matches!(status, Status::Running | Status::Finished) {
                return Err(AppError::conflict(
                    "already-started",
                    "The game has already started.",
                ));
            }
            let (kind, already) = match to {
                Status::Closed => (
                    EventKind::SignupsClosed,
                    AppError::conflict("signups-closed", "Sign-ups are already closed."),
                ),
                _ => (
                    EventKind::SignupsReopened,
                    AppError::conflict("signups-open", "Sign-ups are already open."),
                ),
            };
            if status == to {
                return Err(already);
            }
            let change = Change {
                lobby: LobbyPatch {
                    status: Some(to),
                    ..LobbyPatch::default()
                },
                events: vec![NewEvent {
                    kind,
                    data: "{}".into(),
                }],
                ..Change::default()
            };
            Ok((change, ()))
        })
        .await?;
        self.lobby(id).await
    }

    /// Starts the game (host only): closes sign-ups if open and deals round 1.
    pub async fn start(&self, id: Uuid, token: Option<&str>) -> Result<LobbyView, AppError> {
        let presented = Presented::new(token);
        let now = self.store.clock().now_millis();
        self.change(id, move |snapshot| {
            require_host(snapshot, &presented)?;
            let kind: GameKind = snapshot.lobby.game_kind()?;
            let change = with_game!(kind, G => start_game::<G>(snapshot, now)?);
            Ok((change, ()))
        })
        .await?;
        self.lobby(id).await
    }
}

pub(super) fn start_game<G: Game>(snapshot: &Snapshot, now: i64) -> Result<Change, AppError> {
    let lobby = &snapshot.lobby;
    match lobby.status {
        Status::Signups | Status::Closed => {}
        Status::Running | Status::Finished => {
            return Err(AppError::conflict(
                "already-started",
                "The game has already started.",
            ));
        }
    }
    let settings = engine::settings::<G>(snapshot)?;
    let (min, max) = (G::min_players(&settings), G::capacity(&settings));
    let count = snapshot.players.len();
    if count < min || count > max {
        return Err(AppError::conflict(
            "wrong-player-count",
            format!("This game needs {min} to {max} players to start; {count} have joined."),
        ));
    }
    Timing::parse(&lobby.timing)?.gates.check_start(snapshot)?;
    let entrants = engine::entrants::<G>(&snapshot.players)?;
    let state =
        G::start(&settings, &entrants, &mut rng_for(lobby.seed, 0)).map_err(engine::refused)?;
    let mut events = Vec::new();
    if lobby.status == Status::Signups {
        events.push(NewEvent {
            kind: EventKind::SignupsClosed,
            data: "{}".into(),
        });
    }
    let (round, step) = (G::round(&state), G::step(&state));
    events.push(NewEvent {
        kind: EventKind::Started,
        data: engine::to_text(&Started {
            round,
            step: Cow::Borrowed(step),
        })?,
    });
    // A setup may describe a position that is already over.
    if G::owes(&state).is_empty() && !G::unasked(&state) {
        let result = G::outcome(&state)
            .map(|o| engine::to_json(&o))
            .transpose()?;
        events.push(NewEvent {
            kind: EventKind::Finished,
            data: engine::to_text(&Finished { result })?,
        });
    }
    let mut change = Change {
        events,
        ..Change::default()
    };
    // The steps the rules play with nobody asked (Scale of Styles: every window holds one
    // card) are resolved and published now, as every resolution publishes them.
    let state = super::resolve::play_unasked::<G>(snapshot, state, &mut change)?;
    super::resolve::settle::<G>(snapshot, &state, now, &mut change)?;
    // A start that is not also the end opens the game.
    change.lobby.status.get_or_insert(Status::Running);
    Ok(change)
}

/// In a lobby forked from an archive, the player taking seat `n` must make the join choice
/// the archive's seat `n` made (BST: the same character), or the position would not be the
/// archive's; and the fork has exactly the archive's seats.
fn check_fork_seat(snapshot: &Snapshot, join_data: &str) -> Result<(), AppError> {
    let Some(origin) = Timing::parse(&snapshot.lobby.timing)?.forked_from else {
        return Ok(());
    };
    let seat = snapshot.players.len();
    let Some(expected) = origin.joins.get(seat) else {
        return Err(AppError::conflict(
            "lobby-full",
            format!(
                "This lobby is full: it continues a game of {} players.",
                origin.joins.len()
            ),
        ));
    };
    let chosen: Value = serde_json::from_str(join_data)
        .map_err(|e| AppError::Internal(format!("join data: {e}")))?;
    if chosen != *expected {
        return Err(AppError::rejected(
            "fork-seat-mismatch",
            format!(
                "Seat {} of the forked game was joined with {expected}; join with the same choice.",
                seat + 1
            ),
        ));
    }
    Ok(())
}
