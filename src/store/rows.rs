//! The store's row types, the one mapping from stored rows to them (by column name, for
//! either kind of connection: `columns.rs`), and the [`Change`] a transaction applies.
//!
//! A new kind of row is added here (its type, its `read`, and a field of [`Change`]), in
//! `sql.rs` (its statements), in `load.rs` if a snapshot holds it, and in the two engines'
//! `apply` (`sqlite_engine.rs`, `pg_writes.rs`).

use std::any::Any;
use std::sync::{Arc, OnceLock};

use uuid::Uuid;

use super::StoreError;
use super::columns::{Columns, Stored};
use super::profile_rows::{ProfileRecord, SeatBinding};
use crate::events::EventKind;

/// A lobby's lifecycle.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Players may join.
    Signups,
    /// No latecomers; the host has not started yet.
    Closed,
    /// The game is being played.
    Running,
    /// The game is over.
    Finished,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Signups => "signups",
            Status::Closed => "closed",
            Status::Running => "running",
            Status::Finished => "finished",
        }
    }

    pub(super) fn parse(text: &str) -> Option<Status> {
        match text {
            "signups" => Some(Status::Signups),
            "closed" => Some(Status::Closed),
            "running" => Some(Status::Running),
            "finished" => Some(Status::Finished),
            _ => None,
        }
    }
}

/// A lobby as stored. `settings`, `state` and `seed` may hold secrets: never render them as is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyRow {
    pub id: Uuid,
    pub game: String,
    pub name: String,
    pub settings: String,
    pub status: Status,
    pub host_token_hash: String,
    pub seed: u64,
    pub state: Option<String>,
    pub round: u32,
    pub step: Option<String>,
    pub step_seq: i64,
    pub event_seq: i64,
    pub version: i64,
    pub created_at: i64,
    /// The deadline settings as validated at creation (JSON; see `host::timing`).
    pub timing: String,
    /// The open step's clock.
    pub clock: StepClock,
    /// The secret salt of the seed's commitment (hex); None for lobbies from before it.
    pub seed_salt: Option<String>,
    /// The chain's head and the acts not yet filed (JSON, `fairness::act::Ledger`).
    pub fairness: String,
}

/// The open step's clock, as stored (migration 0003 explains each column). All `None` when
/// the step has no deadline.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct StepClock {
    /// When the step resolves without the missing orders (unix ms); None while paused.
    pub deadline_at: Option<i64>,
    /// The milliseconds that were left when the host paused the clock.
    pub paused_left: Option<i64>,
    /// A reminder of r seconds is still to fire while r * 1000 < this.
    pub remind_below: Option<i64>,
    /// The earliest instant the scheduler must act on this lobby.
    pub wake_at: Option<i64>,
    /// The step's deadline before a player's vacation moved it (migration 0018); a step's
    /// deadline moves once at most.
    pub moved_from: Option<i64>,
}

impl LobbyRow {
    pub(super) fn read(row: &(impl Stored + ?Sized)) -> Result<LobbyRow, StoreError> {
        let row = Columns::of("lobbies", row);
        Ok(LobbyRow {
            id: row.uuid("id")?,
            game: row.text("game")?,
            name: row.text("name")?,
            settings: row.text("settings")?,
            status: row.word("status", Status::parse)?,
            host_token_hash: row.text("host_token_hash")?,
            // The seed is stored as the i64 of the same 64 bits.
            seed: row.int("seed")? as u64,
            state: row.text_or_null("state")?,
            round: row.count("round")?,
            step: row.text_or_null("step")?,
            step_seq: row.int("step_seq")?,
            event_seq: row.int("event_seq")?,
            version: row.int("version")?,
            created_at: row.int("created_at")?,
            timing: row.text("timing")?,
            clock: StepClock {
                deadline_at: row.int_or_null("deadline_at")?,
                paused_left: row.int_or_null("paused_left")?,
                remind_below: row.int_or_null("remind_below")?,
                wake_at: row.int_or_null("wake_at")?,
                moved_from: row.int_or_null("deadline_moved_from")?,
            },
            seed_salt: row.text_or_null("seed_salt")?,
            fairness: row.text("fairness")?,
        })
    }
}

/// A seated player. `token_hash` is for authentication only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub id: Uuid,
    pub seat: usize,
    pub name: String,
    pub join_data: String,
    pub token_hash: String,
    /// The player's standing fallback order (a checked main-step order, JSON), secret.
    pub fallback: Option<String>,
    /// Steps in a row the player let time out.
    pub misses: i64,
    /// The profile this seat's holding is bound to, if any (docs/identity.md).
    pub binding: Option<SeatBinding>,
    /// An anonymous seat's other name (migration 0026): the name its player joined under while
    /// the game runs and `name` is the pseudonym; the pseudonym once it is over.
    pub alias: Option<String>,
    /// The name's key as the host's rule for taken names reads it (`host::names::name_key`),
    /// worked out on first need and kept by the snapshots that follow: a join compares the
    /// newcomer with every seated player, so without it a lobby of n players works out about
    /// n²/2 keys, each a Unicode skeleton.
    pub name_rule_key: Derived<String>,
}

/// A value worked out from a row on first need and kept by the row's copies. It is not part of
/// what the row says, so two rows are equal whatever each has worked out so far.
#[derive(Clone, Debug)]
pub struct Derived<T>(OnceLock<T>);

impl<T> Default for Derived<T> {
    fn default() -> Self {
        Derived(OnceLock::new())
    }
}

impl<T> Derived<T> {
    pub fn get_or_init(&self, work_out: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(work_out)
    }
}

impl<T> PartialEq for Derived<T> {
    fn eq(&self, _: &Derived<T>) -> bool {
        true
    }
}

impl<T> Eq for Derived<T> {}

impl PlayerRow {
    pub(super) fn read(row: &(impl Stored + ?Sized)) -> Result<PlayerRow, StoreError> {
        let row = Columns::of("players", row);
        Ok(PlayerRow {
            id: row.uuid("id")?,
            seat: row.count("seat")?,
            name: row.text("name")?,
            join_data: row.text("join_data")?,
            token_hash: row.text("token_hash")?,
            fallback: row.text_or_null("fallback")?,
            misses: row.int("misses")?,
            binding: SeatBinding::read(&row)?,
            alias: row.text_or_null("alias")?,
            name_rule_key: Derived::default(),
        })
    }
}

/// A pending (secret) order for the lobby's current step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderRow {
    pub player_id: Uuid,
    /// Shared with the snapshots that follow: each order's write makes a new snapshot, which
    /// holds every pending order again.
    pub body: Arc<str>,
    pub submitted_at: i64,
}

impl OrderRow {
    pub(super) fn read(row: &(impl Stored + ?Sized)) -> Result<OrderRow, StoreError> {
        let row = Columns::of("orders", row);
        Ok(OrderRow {
            player_id: row.uuid("player_id")?,
            body: row.text("body")?.into(),
            submitted_at: row.int("submitted_at")?,
        })
    }
}

/// A resolved step, as published.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRow {
    pub seq: i64,
    pub round: u32,
    pub step: String,
    pub revealed: String,
    pub log: String,
    pub pools: String,
    pub resolved_at: i64,
    /// The acts since the step before (JSON list of `fairness::act::Act`).
    pub acts: String,
    pub digest: String,
    pub previous_digest: String,
}

impl StepRow {
    pub(super) fn read(row: &(impl Stored + ?Sized)) -> Result<StepRow, StoreError> {
        let row = Columns::of("steps", row);
        Ok(StepRow {
            seq: row.int("seq")?,
            round: row.count("round")?,
            step: row.text("step")?,
            revealed: row.text("revealed")?,
            log: row.text("log")?,
            pools: row.text("pools")?,
            resolved_at: row.int("resolved_at")?,
            acts: row.text("acts")?,
            digest: row.text("digest")?,
            previous_digest: row.text("previous_digest")?,
        })
    }
}

/// A published event.
#[derive(Clone, Debug)]
pub struct EventRow {
    pub seq: i64,
    pub kind: String,
    pub data: String,
}

impl EventRow {
    pub(super) fn read(row: &(impl Stored + ?Sized)) -> Result<EventRow, StoreError> {
        let row = Columns::of("events", row);
        Ok(EventRow {
            seq: row.int("seq")?,
            kind: row.text("kind")?,
            data: row.text("data")?,
        })
    }
}

/// Everything a decision about a lobby needs, read in one go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub lobby: LobbyRow,
    /// Shared with the snapshots that follow until a write changes a player (a join, a
    /// substitute, a missed deadline): an order's write leaves them as they are.
    pub players: Arc<Vec<PlayerRow>>,
    /// Orders pending for `lobby.step_seq`.
    pub orders: Vec<OrderRow>,
    /// `lobby.state` as parsed by whoever read it first.
    pub parsed: ParsedState,
    /// The steps resolved so far in `lobby.round`, when known without a query.
    pub round_steps: RoundSteps,
}

/// The current round's resolved steps, as this process's own writes left them: what a lobby
/// view shows as the round so far. A snapshot read from the database does not know them (the
/// view then queries the steps); one written here does, since a round's steps are all written
/// by the changes that resolve its steps (`Snapshot::after`). Steps are never changed once
/// written, so these stay true for as long as the snapshot is current.
#[derive(Clone, Default)]
pub struct RoundSteps(Option<Arc<Vec<StepRow>>>);

impl RoundSteps {
    /// The steps, in order, if known.
    pub fn known(&self) -> Option<&[StepRow]> {
        self.0.as_deref().map(Vec::as_slice)
    }
}

/// Whether the steps are known is not part of what a snapshot says (a fresh read and a cached
/// copy of the same commit are equal).
impl PartialEq for RoundSteps {
    fn eq(&self, _: &RoundSteps) -> bool {
        true
    }
}

impl Eq for RoundSteps {}

impl std::fmt::Debug for RoundSteps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.known() {
            Some(steps) => write!(f, "RoundSteps({} known)", steps.len()),
            None => f.write_str("RoundSteps(unknown)"),
        }
    }
}

/// The lobby's state, parsed once per snapshot: a cached snapshot serves many requests, and
/// parsing a 16-player state on each was a good part of their cost. It holds whatever type
/// the reader parsed the text into (the host's typed game state).
#[derive(Clone, Default)]
pub struct ParsedState(Arc<OnceLock<Arc<dyn Any + Send + Sync>>>);

impl ParsedState {
    /// The parsed state, parsing it with `parse` the first time.
    pub fn get_or_parse<T: Any + Send + Sync, E>(
        &self,
        parse: impl FnOnce() -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        if let Some(held) = self.0.get()
            && let Ok(typed) = held.clone().downcast::<T>()
        {
            return Ok(typed);
        }
        let parsed = Arc::new(parse()?);
        // Two first readers may race; either result is the same state.
        let _ = self.0.set(parsed.clone());
        Ok(parsed)
    }
}

/// Derived from `lobby.state`, so it never makes two snapshots differ.
impl PartialEq for ParsedState {
    fn eq(&self, _: &ParsedState) -> bool {
        true
    }
}

impl Eq for ParsedState {}

impl std::fmt::Debug for ParsedState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ParsedState")
    }
}

impl Snapshot {
    /// The snapshot as it is once `change` is committed: what `transact::apply` writes, done to
    /// the copy in memory (the version and counters move exactly as the UPDATE moves them),
    /// by a batch stamped `at`.
    pub(super) fn after(&self, change: Change, at: i64) -> Snapshot {
        let mut next = self.clone();
        let lobby = &mut next.lobby;
        let patch = change.lobby;
        if let Some(status) = patch.status {
            lobby.status = status;
        }
        if patch.state.is_some() {
            lobby.state = patch.state;
            next.parsed = ParsedState::default();
        }
        if let Some(round) = patch.round {
            lobby.round = round;
        }
        if patch.step.is_some() {
            lobby.step = patch.step;
        }
        if let Some(clock) = patch.clock {
            lobby.clock = clock;
        }
        if let Some(fairness) = patch.fairness {
            lobby.fairness = fairness;
        }
        for update in change.players {
            if let Some(player) = Arc::make_mut(&mut next.players)
                .iter_mut()
                .find(|p| p.id == update.id)
            {
                update.apply_to(player);
            }
        }
        lobby.step_seq += change.resolved.len() as i64;
        lobby.event_seq += change.events.len() as i64;
        lobby.version += 1;
        if let Some(player) = change.player {
            let players = Arc::make_mut(&mut next.players);
            players.push(PlayerRow {
                id: player.id,
                seat: player.seat,
                name: player.name,
                join_data: player.join_data,
                token_hash: player.token_hash,
                fallback: None,
                misses: 0,
                binding: player.binding,
                alias: player.alias,
                name_rule_key: Derived::default(),
            });
            players.sort_by_key(|p| p.seat);
        }
        if let Some(update) = change.player_update
            && let Some(held) = Arc::make_mut(&mut next.players)
                .iter_mut()
                .find(|p| p.id == update.id)
        {
            held.name = update.name;
            held.alias = update.alias;
            held.name_rule_key = Derived::default();
            held.token_hash = update.token_hash;
            // A new holding of the seat: the old one's binding ends with its token.
            held.binding = None;
        }
        if let Some(removed) = change.player_removed {
            let players = Arc::make_mut(&mut next.players);
            players.retain(|p| p.id != removed.id);
            for p in players.iter_mut() {
                if p.seat > removed.seat {
                    p.seat -= 1;
                }
            }
        }
        if let Some(dropped) = change.order_dropped {
            next.orders.retain(|o| o.player_id != dropped);
        }
        if let Some(order) = change.order {
            let row = OrderRow {
                player_id: order.player_id,
                body: order.body.into(),
                submitted_at: at,
            };
            match next
                .orders
                .iter_mut()
                .find(|o| o.player_id == row.player_id)
            {
                Some(held) => *held = row,
                None => next.orders.push(row),
            }
        }
        if !change.resolved.is_empty() {
            // Resolving deletes the step's pending orders.
            next.orders.clear();
        }
        // A new round has no steps but those this change files under it; in the same round,
        // the steps known so far (if any) plus this change's.
        let mut round_steps = match next.lobby.round == self.lobby.round {
            true => self.round_steps.0.as_deref().cloned(),
            false => Some(Vec::new()),
        };
        if let Some(steps) = &mut round_steps {
            for (offset, step) in change.resolved.iter().enumerate() {
                if step.round == next.lobby.round {
                    steps.push(StepRow {
                        seq: self.lobby.step_seq + offset as i64,
                        round: step.round,
                        step: step.step.clone(),
                        revealed: step.revealed.clone(),
                        log: step.log.clone(),
                        pools: step.pools.clone(),
                        resolved_at: at,
                        acts: step.acts.clone(),
                        digest: step.digest.clone(),
                        previous_digest: step.previous_digest.clone(),
                    });
                }
            }
        }
        if next.lobby.round != self.lobby.round || !change.resolved.is_empty() {
            next.round_steps = RoundSteps(round_steps.map(Arc::new));
        }
        next
    }
}

/// A new lobby.
#[derive(Clone, Debug)]
pub struct NewLobby {
    pub id: Uuid,
    pub game: String,
    pub name: String,
    pub settings: String,
    pub host_token_hash: String,
    pub seed: u64,
    pub created_at: i64,
    /// The deadline settings (JSON).
    pub timing: String,
    /// The secret salt of the seed's commitment (hex).
    pub seed_salt: String,
    /// Kept off the public lists (the host's choice at creation).
    pub unlisted: bool,
}

/// A new player.
#[derive(Clone, Debug)]
pub struct NewPlayer {
    pub id: Uuid,
    pub seat: usize,
    pub name: String,
    pub name_key: String,
    pub join_data: String,
    pub token_hash: String,
    /// The profile the seat is bound to, when joined with a profile key.
    pub binding: Option<SeatBinding>,
    /// An anonymous seat's real name (`name` is then its pseudonym).
    pub alias: Option<String>,
}

/// A pending order (inserted, or replacing the player's earlier one for the same step). Its
/// time is the commit's: the writer stamps it.
#[derive(Clone, Debug)]
pub struct NewOrder {
    pub player_id: Uuid,
    pub body: String,
}

/// A resolved step to record. Recording steps also clears the pending orders. Its time is
/// the commit's: the writer stamps it.
#[derive(Clone, Debug, Default)]
pub struct NewStep {
    pub round: u32,
    pub step: String,
    /// The reveal and the pools after the step as canonical JSON (`fairness::jcs::canonical`):
    /// the step's digest hashes them as they are.
    pub revealed: String,
    pub log: String,
    /// The log's public entries as canonical JSON, when some entry is private: what the
    /// step's digest hashes, written with the log so that the digest need not read it back
    /// (not stored). None when the whole log is public, or when the writer did not say.
    pub digested_log: Option<String>,
    pub pools: String,
    /// The acts since the step before (JSON list), and the step's chained digest; filled in by
    /// `fairness::seal` once the change is decided.
    pub acts: String,
    pub digest: String,
    pub previous_digest: String,
    /// The log's public lines as a notice quotes them, when the host built the log (not
    /// written as such: the log holds them). The host keeps them for the round's summary
    /// (`host/round_logs.rs`), so that a notice need not parse the stored log back.
    pub public: Option<PublicLog>,
    /// A step of the game's, which a `step-resolved` event announces (and carries the digests
    /// of); not a round's opening or the host's closing step. Told by this mark, not by the
    /// step's name: a game may name a step of its own as the host names a round's opening.
    /// Not written as such.
    pub announced: bool,
}

/// A log's public lines (those without `private_to_seat`), as a summary quotes them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PublicLog {
    /// Its first lines, at most as many as asked for.
    pub first: Vec<String>,
    /// How many public lines it has in all.
    pub lines: usize,
}

impl PublicLog {
    /// Adds a public line, quoting it if every line so far is quoted and fewer than `quoted`
    /// are.
    pub fn push(&mut self, text: &str, quoted: usize) {
        self.push_with(quoted, || text.to_string());
    }

    /// [`PublicLog::push`] of a line made only if it is quoted.
    pub fn push_with(&mut self, quoted: usize, text: impl FnOnce() -> String) {
        if self.first.len() == self.lines && self.first.len() < quoted {
            self.first.push(text());
        }
        self.lines += 1;
    }

    /// This log followed by `more`, quoting at most `quoted` lines (and none past a line left
    /// unquoted, so the quoted ones are always the first).
    pub fn extend(&mut self, more: &PublicLog, quoted: usize) {
        if self.first.len() == self.lines {
            let room = quoted.saturating_sub(self.first.len());
            self.first.extend(more.first.iter().take(room).cloned());
        }
        self.lines += more.lines;
    }
}

/// A table-talk message to record (docs/table-talk.md). Its number is the change's first
/// event's (the writer stamps it); its time is the one its event states.
#[derive(Clone, Debug)]
pub struct NewMessage {
    pub id: Uuid,
    pub sender: Uuid,
    /// The private recipients as a JSON list of player ids; None for a message to everyone.
    pub recipients: Option<String>,
    pub text: String,
    pub sent_at: i64,
}

/// A stored table-talk message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageRow {
    pub seq: i64,
    pub id: Uuid,
    pub sender: Uuid,
    /// JSON list of player ids; None for a message to everyone.
    pub recipients: Option<String>,
    pub text: String,
    pub sent_at: i64,
}

impl MessageRow {
    pub(super) fn read(row: &(impl Stored + ?Sized)) -> Result<MessageRow, StoreError> {
        let row = Columns::of("messages", row);
        Ok(MessageRow {
            seq: row.int("seq")?,
            id: row.uuid("id")?,
            sender: row.uuid("sender")?,
            recipients: row.text_or_null("recipients")?,
            text: row.text("text")?,
            sent_at: row.int("sent_at")?,
        })
    }
}

/// An event to publish.
#[derive(Clone, Debug)]
pub struct NewEvent {
    pub kind: EventKind,
    pub data: String,
}

/// New values for the lobby's columns; `None` leaves a column as it is.
#[derive(Clone, Debug, Default)]
pub struct LobbyPatch {
    pub status: Option<Status>,
    pub state: Option<String>,
    pub round: Option<u32>,
    pub step: Option<String>,
    /// The open step's clock, replaced whole.
    pub clock: Option<StepClock>,
    /// The fairness ledger (`fairness::act::Ledger` as JSON), replaced whole.
    pub fairness: Option<String>,
}

/// New values for a seated player's columns; `None` leaves a column as it is.
#[derive(Clone, Debug)]
pub struct PlayerPatch {
    pub id: Uuid,
    /// `Some(None)` clears the fallback order.
    pub fallback: Option<Option<String>>,
    pub misses: Option<i64>,
    /// `Some(None)` ends the seat's binding; `Some(Some(..))` binds it (a claim).
    pub binding: Option<Option<SeatBinding>>,
    /// A new shown name and other name (an anonymous seat's pseudonym and real name trade
    /// places at the end).
    pub names: Option<(String, Option<String>)>,
}

impl PlayerPatch {
    /// A patch of `id` that changes nothing yet.
    pub fn of(id: Uuid) -> PlayerPatch {
        PlayerPatch {
            id,
            fallback: None,
            misses: None,
            binding: None,
            names: None,
        }
    }

    /// The player as this patch leaves them.
    pub fn apply_to(&self, player: &mut PlayerRow) {
        if let Some(fallback) = &self.fallback {
            player.fallback = fallback.clone();
        }
        if let Some(misses) = self.misses {
            player.misses = misses;
        }
        if let Some(binding) = self.binding {
            player.binding = binding;
        }
        if let Some((name, alias)) = &self.names {
            player.name = name.clone();
            player.alias = alias.clone();
            player.name_rule_key = Derived::default();
        }
    }
}

/// A seated player's new name and token: a substitute takes the seat, or the host reissues
/// the private link. The old token's hash is gone with the write, so the old token is unknown
/// from the commit on.
#[derive(Clone, Debug)]
pub struct PlayerUpdate {
    pub id: Uuid,
    pub name: String,
    pub name_key: String,
    pub token_hash: String,
    /// An anonymous seat's real name (`name` stays its pseudonym).
    pub alias: Option<String>,
}

/// A sign-up withdrawn before the start. The players seated after it move down one seat, so
/// that seats stay 0..n in sign-up order (the start deals them by seat).
#[derive(Clone, Debug)]
pub struct RemovedPlayer {
    pub id: Uuid,
    pub seat: usize,
}

/// What one transaction writes. Applied atomically, or not at all.
#[derive(Clone, Debug, Default)]
pub struct Change {
    pub lobby: LobbyPatch,
    pub player: Option<NewPlayer>,
    pub player_update: Option<PlayerUpdate>,
    pub player_removed: Option<RemovedPlayer>,
    /// Changes to seated players (fallback orders, missed-turn counts).
    pub players: Vec<PlayerPatch>,
    pub order: Option<NewOrder>,
    /// A pending order of the current step withdrawn (a kicked player's).
    pub order_dropped: Option<Uuid>,
    /// A table-talk message, written with the change's event that announces it (its `seq` is
    /// that event's number: the change's first event).
    pub message: Option<NewMessage>,
    /// Records the step being collected as resolved (and, where its events open the next round,
    /// that round's opening as a step of its own), moving the lobby past them.
    pub resolved: Vec<NewStep>,
    pub events: Vec<NewEvent>,
    /// The acts this change applies to the game's state (not written as such: the host's
    /// `fairness::seal` files them with the change's first step, or in the lobby's ledger).
    pub acts: Vec<crate::fairness::act::Act>,
    /// Rows about profiles written with this change (`profile_rows.rs`).
    pub records: Vec<ProfileRecord>,
    /// A round whose main step every living player voted a draw in, while it goes on: kept in
    /// the lobby's ledger by `fairness::seal` (docs/table-talk.md, "End votes").
    pub draw_vote: Option<u32>,
    /// The change finishes a rated lobby: the store rates it in the same transaction
    /// (`rating_rows.rs`).
    pub rated: Option<super::rating_rows::RatedFinish>,
}

impl Change {
    /// Whether writing this change may meet a UNIQUE constraint (a player's name or token),
    /// so that it runs in a savepoint of its own and a refusal rolls back this change alone.
    pub(super) fn touches_players(&self) -> bool {
        self.player.is_some() || self.player_update.is_some()
    }
}
