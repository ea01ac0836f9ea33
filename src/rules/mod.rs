//! The pure rules core: one adjudicator per game, behind the [`Game`] trait.
//!
//! Nothing in this module tree does I/O, reads a clock, touches a database or uses an ambient
//! random number generator. A game is a function of values: the host hands in the settings, the
//! entrants, the current state, the orders and a seeded [`GameRng`], and gets back a new state,
//! the orders to reveal and a log of events. Replaying the same seed and orders gives the same
//! game, bit for bit.

pub mod bst;
pub mod contests;
pub mod crossing_swords;
pub mod scale_of_styles;

use std::fmt::{Debug, Display};

use serde::{Serialize, de::DeserializeOwned};
use uuid::Uuid;

/// The most rounds a game runs, and the largest `max_rounds` or setup round a host may ask
/// for. Neither ruleset has a turn limit of its own (the seeds play until someone wins); the
/// rulings give the host a stall guard (`max_rounds`: Crossing Swords Ruling 31, BST's cap),
/// and a game the host left uncapped is held to this one: it ends after round 10,000 exactly
/// as if `max_rounds` were 10,000. So the round counter never nears its type's limit.
pub const ROUND_LIMIT: u32 = 10_000;

/// The random number generator every game draws from. The host seeds it; a game never seeds one
/// of its own from the environment.
pub type GameRng = rand_chacha::ChaCha20Rng;

/// A player's public identity, stable for the life of a lobby (a UUID on the wire).
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct PlayerId(pub Uuid);

impl Display for PlayerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Display::fmt(&self.0, f)
    }
}

/// A seat: a player's place in sign-up order, counted from 0 and fixed when the game starts.
/// Seat order is used only for tie-breaks and for who acts "first".
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct Seat(pub usize);

/// A player as the host seats them: identity, the name shown to others, and what the game asked
/// for at join time (BST: the character).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Entrant<J> {
    pub id: PlayerId,
    pub name: String,
    pub join: J,
}

/// Who may read a log event. Most events are public once their step resolves; a few (a BST
/// draw's token) are for one player's eyes only.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "seat")]
pub enum Audience {
    Everyone,
    Only(Seat),
}

/// A refusal from the rules: a reason enum that knows its machine-readable code. The host turns
/// it into a 422 (or a 409 where [`Refusal::is_conflict`] says the state, not the input, is
/// wrong) with `code()` and the `Display` text as the message.
pub trait Refusal: Debug + Display {
    /// A kebab-case code, e.g. `illegal-target`.
    fn code(&self) -> &'static str;
    /// True when the refusal is about timing or state (e.g. "signups are closed") rather than
    /// about the content of the request.
    fn is_conflict(&self) -> bool {
        false
    }
}

/// A log event: typed data (serialized as the structured entry, with a `kind` tag) and one
/// line of text a person can follow (its `Display`).
pub trait Event: Debug + Display + Serialize + Clone {
    /// Who may see this event once its step has resolved.
    fn audience(&self) -> Audience {
        Audience::Everyone
    }

    /// If this event begins a new round (e.g. a turn's draw phase, before its orders fall due),
    /// that round's number: the host files it, and the events after it, under that round's log.
    fn opens_round(&self) -> Option<u32> {
        None
    }

    /// The line as people read it on the pages, in the forum posts and in the notices. The
    /// stored line (`Display`) is the record: it is hashed into its step's digest, and `herald
    /// verify` recomputes it from archives made before, so its wording never changes; a game
    /// whose stored lines read badly ("1 Charge(s)") words them better here.
    fn words(&self) -> String {
        self.to_string()
    }
}

/// Why a position cannot be the opening of a forked game ([`Game::fork_settings`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForkRefusal {
    /// The game does not (yet) say how a position reads as its `setup`.
    Unsupported { game: &'static str },
    /// The game was over at that point: there is nothing left to play.
    Finished { round: u32 },
    /// The position holds something a `setup` cannot say (e.g. a choice still owed).
    NotASetup { why: String },
}

impl Display for ForkRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ForkRefusal::Unsupported { game } => {
                write!(f, "{game} games cannot be forked yet")
            }
            ForkRefusal::Finished { round } => write!(
                f,
                "the game was over after round {round}: fork at an earlier round"
            ),
            ForkRefusal::NotASetup { why } => {
                write!(f, "that position cannot be written as a setup: {why}")
            }
        }
    }
}

/// Why a client's settings object was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsError<R> {
    /// Not the shape the settings have (the host answers 400 with this text).
    Malformed(String),
    /// Well-formed but refused by the rules: an unknown key, a value the rules do not list
    /// (the host answers with the refusal, a 422).
    Refused(R),
}

/// Reads a settings object into its type; a shape it cannot take is `Malformed` with the path
/// of the field at fault (`setup.round: invalid value: integer ...`), which serde's own
/// message leaves out.
///
/// Serde reads a struct from an array as readily as from an object (`"setup": []` is the
/// default setup, `[3]` sets its first field): the document says object, so an array where the
/// settings hold an object, at any depth, is malformed too.
pub fn read_settings<T: DeserializeOwned + Serialize, R>(
    raw: serde_json::Value,
) -> Result<T, SettingsError<R>> {
    let settings: T = serde_path_to_error::deserialize(raw.clone()).map_err(|e| {
        let at = e.path().to_string();
        let error = e.into_inner();
        SettingsError::Malformed(match at.as_str() {
            "." => error.to_string(),
            _ => format!("{at}: {error}"),
        })
    })?;
    // What was read, written back: every struct is an object there.
    let read = serde_json::to_value(&settings).unwrap_or_default();
    match array_read_as_object(&raw, &read, String::new()) {
        Some(at) => Err(SettingsError::Malformed(format!(
            "{at}: invalid type: sequence, expected an object"
        ))),
        None => Ok(settings),
    }
}

/// The path of the first place where `raw` holds an array and `read` (the same value read into
/// its type and written back) an object: a struct serde took from a sequence.
fn array_read_as_object(
    raw: &serde_json::Value,
    read: &serde_json::Value,
    at: String,
) -> Option<String> {
    use serde_json::Value;
    let join = |key: &str| match at.as_str() {
        "" => key.to_owned(),
        _ => format!("{at}.{key}"),
    };
    match (raw, read) {
        (Value::Array(_), Value::Object(_)) => Some(match at.as_str() {
            "" => ".".to_owned(),
            _ => at,
        }),
        (Value::Object(raw), Value::Object(read)) => raw.iter().find_map(|(key, value)| {
            read.get(key)
                .and_then(|written| array_read_as_object(value, written, join(key)))
        }),
        (Value::Array(raw), Value::Array(read)) => {
            raw.iter()
                .zip(read)
                .enumerate()
                .find_map(|(i, (value, written))| {
                    array_read_as_object(value, written, format!("{at}[{i}]"))
                })
        }
        _ => None,
    }
}

/// The outcome of resolving one step.
#[derive(Clone, Debug)]
pub struct Resolution<G: Game> {
    /// The state after the step, positioned at the next step (or finished).
    pub state: G::State,
    /// The orders this step reveals to everyone, in seat order.
    pub revealed: Vec<(Seat, G::Order)>,
    /// What happened, in order. A round's log is the concatenation of its steps' events.
    pub events: Vec<G::Event>,
}

/// What the host's own hand did to a game (a kick, an early end): the state after, and the
/// lines the host files in the round's log now.
///
/// A game that goes on after the act may instead keep the act's lines in its state and put
/// them at the head of the next [`Game::resolve`]'s events, so that they lead the log of the
/// step they affected (Crossing Swords does, `log` is then empty); a game that is over has no
/// resolution to come, so every line is in `log`.
#[derive(Clone, Debug)]
pub struct HostAct<G: Game> {
    /// The state after the act (finished, if the act ended the game).
    pub state: G::State,
    /// The act's lines for the round's log, to be filed by the host now.
    pub log: Vec<G::Event>,
}

/// One game's rules, as the host sees them. Every method is a pure function of its arguments.
///
/// The lifecycle: the host validates [`Game::Settings`] at lobby creation, each join's
/// [`Game::JoinBody`] at sign-up, calls [`Game::start`] once with the seated entrants, and from
/// then on repeatedly asks who [`Game::owes`] an answer, collects orders checked by
/// [`Game::check_order`], and calls [`Game::resolve`] once every owed seat has answered.
/// Between steps the host may act with its own hand: a substitute takes a seat
/// ([`Game::rename`]), a player is removed ([`Game::kick`]) or the game ends now
/// ([`Game::end_by_host`]), each as the game's rulings treat it.
pub trait Game: Sized + 'static {
    /// The game's identifier on the wire (`crossing-swords`, `bst`).
    const ID: &'static str;
    /// Host-chosen settings (the lobby's `settings` object), deserialized by serde.
    type Settings: Serialize + DeserializeOwned + Clone + Debug + Default + Send + Sync;
    /// The join request's game-specific fields (e.g. `character`), as sent.
    type JoinBody: DeserializeOwned + Send;
    /// The validated join choice stored with the player.
    type Join: Serialize + DeserializeOwned + Clone + Debug + Send + Sync;
    /// The whole game state, secrets included. Stored by the host, never shown as is.
    type State: Serialize + DeserializeOwned + Clone + Debug + Send + Sync;
    /// An order's body as sent (besides `round` and `step`), before the rules judge it.
    type OrderBody: DeserializeOwned + Send;
    /// A checked order, stored secretly until its step resolves, then revealed.
    type Order: Serialize + DeserializeOwned + Clone + Debug + Send + Sync;
    /// A log event.
    type Event: Event + DeserializeOwned + Send + Sync;
    /// Why the rules refuse something.
    type Refusal: Refusal + Send + Sync;
    /// What a player owes now (without `round` and `step`, which the host adds). Read back
    /// by the game's presentation and bot (`crate::games`), so it deserializes too.
    type Prompt: Serialize + DeserializeOwned + Send;
    /// One player's public pools, flattened into the public player object.
    type Pools: Serialize + Send;
    /// Public table state, flattened into the public lobby object (BST: `pool_size`, `discard`).
    type Table: Serialize + Send;
    /// What only this player may see (BST: the hand), flattened into `me`.
    type Private: Serialize + Send;
    /// The final result (winners and standings).
    type Outcome: Serialize + Send;
    /// What the host decides when ending the game early, as sent (Crossing Swords: nothing,
    /// the standings decide; BST: a draw or a winner).
    type Ending: DeserializeOwned + Send;

    /// Reads a client's settings object. By default serde decides alone, so any failure is
    /// malformed; a game whose settings name rule variants refuses unknown keys and values
    /// itself, naming them.
    fn parse_settings(
        raw: serde_json::Value,
    ) -> Result<Self::Settings, SettingsError<Self::Refusal>> {
        read_settings(raw)
    }
    /// The settings as everyone may see them now: every setting with its effective value,
    /// without what stays secret while the game runs (a seed, a pool). `finished`: the game
    /// is over, so nothing is secret any more.
    fn public_settings(settings: &Self::Settings, finished: bool) -> Self::Settings;
    /// Checks settings at lobby creation (ranges, a `setup` that could not happen).
    fn check_settings(settings: &Self::Settings) -> Result<(), Self::Refusal>;
    /// How many players may sign up.
    fn capacity(settings: &Self::Settings) -> usize;
    /// The fewest players the game can start with.
    fn min_players(settings: &Self::Settings) -> usize;
    /// Checks a join request's game-specific fields.
    fn check_join(
        settings: &Self::Settings,
        body: Self::JoinBody,
    ) -> Result<Self::Join, Self::Refusal>;
    /// Deals the opening position. `rng` is seeded by the host (from `settings` where the game
    /// takes a seed there).
    fn start(
        settings: &Self::Settings,
        entrants: &[Entrant<Self::Join>],
        rng: &mut GameRng,
    ) -> Result<Self::State, Self::Refusal>;
    /// A seed the settings fix, if any (BST `seed`); otherwise the host draws one.
    fn seed(settings: &Self::Settings) -> Option<u64> {
        let _ = settings;
        None
    }

    /// The current round, counted from 1.
    fn round(state: &Self::State) -> u32;
    /// The current step's name (`orders`, `play`, `follow-up`, ...).
    fn step(state: &Self::State) -> &'static str;
    /// The seats that owe an answer in the current step, in seat order. Empty once finished,
    /// and at a step the rules play with nobody asked ([`Game::unasked`]).
    fn owes(state: &Self::State) -> Vec<Seat>;
    /// Whether the open step is one the rules play with nobody asked (Scale of Styles R2: every
    /// window holds one card): nobody owes an answer, yet the game is not over. The host
    /// resolves such a step at once with no orders, and publishes it as it publishes any
    /// step, so that every resolved round has its reveal, its log and its digest whatever
    /// resolved it. By default no step is.
    fn unasked(state: &Self::State) -> bool {
        let _ = state;
        false
    }
    /// The prompt for `seat`, if it owes an answer now.
    fn prompt(state: &Self::State, seat: Seat) -> Option<Self::Prompt>;
    /// Judges an order for the current step from `seat` (which owes one).
    fn check_order(
        state: &Self::State,
        seat: Seat,
        body: Self::OrderBody,
    ) -> Result<Self::Order, Self::Refusal>;
    /// The name of a round's main step (Crossing Swords `orders`, BST `play`): the step a
    /// standing fallback order answers and `deadline_seconds` bounds. Every other step is a
    /// decision step.
    const MAIN_STEP: &'static str;

    /// Checks what can be checked of a standing fallback order (a main-step answer) before the
    /// position it will answer is known: its form (known move and token names, a well-formed
    /// target). Whether it is legal is judged by [`Game::check_order`] when it is used.
    fn check_fallback(body: &Self::OrderBody) -> Result<(), Self::Refusal>;

    /// What `seat`, which owes an answer, plays when it sent none in time and has no usable
    /// fallback order: the rulings' default (Crossing Swords Ruling 2, BST A36). `None`: the
    /// seat sends nothing, and [`Game::resolve`] treats the missing order as the rules say
    /// (Crossing Swords: a Pass). `rng` is the host's seeded stream for defaults, so that a
    /// replay draws the same.
    fn default_order(state: &Self::State, seat: Seat, rng: &mut GameRng) -> Option<Self::Order>;

    /// An order in words for the log (`block on Ann`); `None` is no order at all (Crossing
    /// Swords: `Pass`).
    fn describe_order(state: &Self::State, order: Option<&Self::Order>) -> String;

    /// Resolves the current step once every owed seat has answered, or once its deadline has
    /// passed. `orders` holds at most one checked order per owed seat (one for each, except where
    /// [`Game::default_order`] gives none), in seat order. The result must not depend on the order in
    /// which the orders arrived.
    fn resolve(
        state: &Self::State,
        orders: &[(Seat, Self::Order)],
        rng: &mut GameRng,
    ) -> Resolution<Self>;

    /// Whether `seat` is still in the game.
    fn alive(state: &Self::State, seat: Seat) -> bool;
    /// `seat`'s public pools.
    fn pools(state: &Self::State, seat: Seat) -> Self::Pools;
    /// The public table.
    fn table(state: &Self::State) -> Self::Table;
    /// What `seat` alone may see.
    fn private(state: &Self::State, seat: Seat) -> Self::Private;
    /// The result, once the game is over.
    fn outcome(state: &Self::State) -> Option<Self::Outcome>;

    /// The state with the player at `seat` playing on under a new `name` (a substitute takes
    /// the seat): pools, carry-overs, hand and everything else stay.
    fn rename(state: &Self::State, seat: Seat, name: &str) -> Self::State;
    /// Removes the player at `seat` from play by the host's hand, as the game's rulings treat
    /// it; may end the game.
    fn kick(state: &Self::State, seat: Seat) -> Result<HostAct<Self>, Self::Refusal>;
    /// Ends the game now, as the host decides within the rulings.
    fn end_by_host(
        state: &Self::State,
        ending: Self::Ending,
    ) -> Result<HostAct<Self>, Self::Refusal>;
    /// Ends the game after a round in which every living player's main-step order carried a
    /// vote for a draw (docs/table-talk.md, "End votes"): a game of many players with the
    /// living players sharing the win, a duel as a draw; the result's reason is `draw-vote`.
    /// The host counts the votes (they are no part of an order); the rules only end.
    fn end_by_draw_vote(state: &Self::State) -> Result<HostAct<Self>, Self::Refusal>;

    /// The settings of a new game that starts at `state`, a position between rounds (the
    /// moment the next round's orders fall due): `settings` with its `setup` (api.md
    /// "Starting from a position") set to that position: forking from an archive
    /// (docs/fairness.md, "Forking"). By default a game cannot be forked: it must say how its state reads as a
    /// setup first.
    fn fork_settings(
        state: &Self::State,
        settings: &Self::Settings,
    ) -> Result<Self::Settings, ForkRefusal> {
        let _ = (state, settings);
        Err(ForkRefusal::Unsupported { game: Self::ID })
    }
}
