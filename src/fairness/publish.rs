//! What a step publishes, in the one shape that the host writes and the offline verifier
//! recomputes: the random stream of each step, a log entry, the public pools, and the names
//! under which the host files a round's opening and its own acts. Pure and generic over the
//! game, so that the replay (`replay.rs`) cannot drift from the host (`host::resolve`).

use rand::SeedableRng;
use serde::Serialize;
use serde_json::Value;

use crate::rules::{Audience, Event, Game, GameRng, Seat};

/// The name under which a round's opening (its events before any order falls due) is filed.
pub const ROUND_OPENING: &str = "opening";

/// The name under which the host's act that ended a game (a kick, an early end) is filed as
/// the round's last step.
pub const HOST_STEP: &str = "host";

/// The RNG for the step numbered `step_seq` (the deal uses stream 0): a game replays exactly
/// from its seed and its orders.
pub fn rng_for(seed: u64, stream: u64) -> GameRng {
    let mut rng = GameRng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// A log entry as published: the event's structured fields (its `kind` first), then its line
/// of text, then, for an event only one player may see, whose it is. Serialized straight to
/// text: building each entry as a `Value` first was a good part of resolving a step.
#[derive(Serialize)]
pub struct LogEntry<'a, E> {
    #[serde(flatten)]
    event: &'a E,
    text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    private_to_seat: Option<usize>,
}

impl<'a, E: Event> LogEntry<'a, E> {
    /// Its line of text, if everyone may read it.
    pub fn public_text(&self) -> Option<&str> {
        self.private_to_seat.is_none().then_some(self.text.as_str())
    }

    pub fn of(event: &'a E) -> LogEntry<'a, E> {
        LogEntry {
            event,
            text: event.to_string(),
            private_to_seat: match event.audience() {
                Audience::Only(Seat(seat)) => Some(seat),
                Audience::Everyone => None,
            },
        }
    }
}

/// Every player's public pools, plus the public table, as published after a step: each
/// player's id, name and whether he lives, his game's pools flattened in, then the table's
/// fields beside `players`. Serialized straight to the step's canonical text by the host, and
/// to a `Value` by the offline verifier ([`pools_of`]), from this one shape.
#[derive(Serialize)]
pub struct PublicPools<'a, P, T> {
    players: Vec<SeatPools<'a, P>>,
    #[serde(flatten)]
    table: T,
}

#[derive(Serialize)]
struct SeatPools<'a, P> {
    id: uuid::Uuid,
    name: &'a str,
    alive: bool,
    #[serde(flatten)]
    pools: P,
}

/// [`PublicPools`] of the given seats, each as (id, name, seat number).
pub fn public_pools_of<'a, G: Game>(
    state: &G::State,
    seats: impl Iterator<Item = (uuid::Uuid, &'a str, usize)>,
) -> PublicPools<'a, G::Pools, G::Table> {
    PublicPools {
        players: seats
            .map(|(id, name, seat)| SeatPools {
                id,
                name,
                alive: G::alive(state, Seat(seat)),
                pools: G::pools(state, Seat(seat)),
            })
            .collect(),
        table: G::table(state),
    }
}

/// The host's `public_pools` as a `Value`, from each seat's id, name and seat number (what the
/// offline verifier has).
pub fn pools_of<G: Game>(
    state: &G::State,
    seats: &[(uuid::Uuid, &str, usize)],
) -> serde_json::Result<Value> {
    serde_json::to_value(public_pools_of::<G>(state, seats.iter().copied()))
}
