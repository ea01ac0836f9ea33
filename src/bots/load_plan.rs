//! What a load run is asked to do (its arguments, and how its bots learn what they owe) and
//! what its bots share as they play (the seated tables, the tally): read by the run
//! (`load.rs`) and by the bots it drives (`drive.rs`).

use std::collections::BTreeMap;

use super::policy::Strategy;
use crate::games::GameKind;

/// What to load the server with.
#[derive(Clone, Debug, clap::Args)]
pub struct LoadArgs {
    /// Herald's base URL.
    #[arg(long, default_value = "http://127.0.0.1:3000")]
    pub url: String,
    /// The game to play (by default the first registered).
    #[arg(long, default_value_t = GameKind::ALL[0].id().to_owned())]
    pub game: String,
    /// Lobbies played at once.
    #[arg(long, default_value_t = 100)]
    pub lobbies: usize,
    /// Players per lobby (BST is always 2).
    #[arg(long, default_value_t = 16)]
    pub players: usize,
    /// Round cap per game, so that every game ends.
    #[arg(long, default_value_t = 30)]
    pub max_rounds: u32,
    /// Requests in flight at once (the bots' connections).
    #[arg(long, default_value_t = 256)]
    pub connections: usize,
    /// How the bots choose.
    #[arg(long, value_enum, default_value = "random")]
    pub strategy: Strategy,
    /// How the bots learn what they owe. Polling is the default: on this project's two cores
    /// it costs the server less per order than a stream per bot (see the README).
    #[arg(long, value_enum, default_value = "poll")]
    pub drive: Drive,
    /// The server's process ids (comma-separated when several Herald processes serve behind a
    /// proxy), to report their CPU time and memory (Linux /proc).
    #[arg(long, value_delimiter = ',')]
    pub server_pid: Vec<u32>,
    /// Also count the CPU time of every process of these names (Linux /proc, comma-separated),
    /// such as `postgres` or `postgres,haproxy`: the database and a reverse proxy work for the
    /// server on the same machine.
    #[arg(long, value_delimiter = ',')]
    pub database_processes: Vec<String>,
    /// Seed for the bots' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Give every lobby a webhook (`standard`, for `--webhook-events`) delivered to a
    /// receiver in this process on 127.0.0.1; the server must allow private targets
    /// (HERALD_ALLOW_PRIVATE_TARGETS=1). The deliveries the seating owes (joins, starts) are
    /// let arrive before play begins, so that the play's figures carry the play's deliveries.
    #[arg(long)]
    pub webhooks: bool,
    /// The events each lobby's webhook asks for. The default is the channel events
    /// (docs/notifications.md) that a load run produces: joins, the start, each round with
    /// its summary, the end.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "player-joined,started,round-resolved,finished"
    )]
    pub webhook_events: Vec<String>,
    /// Table talk in every round: the lobbies are created with public press, and each bot
    /// says something to everyone before each answer it sends (docs/table-talk.md). A game
    /// of more than 10 rounds outruns a bot's allowance of 10 messages a minute: the refusals
    /// are counted as errors.
    #[arg(long)]
    pub messages: bool,
    /// Every seat bound to a profile: each bot gets a profile of its own (`POST
    /// /api/v1/profiles`) and joins with its key (docs/identity.md), so that every step also
    /// counts the seat's reliability. Their handles, `Bot {seed} {lobby} {seat}`, are taken
    /// for good: a second run against the same server takes another `--seed`.
    #[arg(long)]
    pub profiles: bool,
    /// Every lobby rated (`rated: true`, which needs every seat bound: implies `--profiles`),
    /// so that every finished game also updates its players' ratings (docs/ratings.md). The
    /// report counts the games whose result carried rating changes.
    #[arg(long)]
    pub rated: bool,
}

impl LoadArgs {
    /// Whether the bots join with profile keys.
    pub fn bound(&self) -> bool {
        self.profiles || self.rated || self.drive == Drive::Profiles
    }
}

/// How the bots learn that they owe an answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Drive {
    /// Each bot listens to its own stream, `me/events?events=prompt,finished`, and answers
    /// each prompt it is sent: one request per order.
    Streams,
    /// Each lobby is polled: its public view once per step, then, for each player who owes
    /// an answer, a `GET me` and the order: two requests per order.
    Poll,
    /// As a bot account plays (docs/bots.md, "One stream for all of a profile's seats"): one
    /// profile per seat of a lobby, `Load {seed} {seat}`, holding that seat in every lobby of
    /// the run, so that each profile's one stream, `/api/v1/me/events`, serves as many seats
    /// as there are lobbies; each prompt is answered with the profile's key. The handles are
    /// taken for good, as `--profiles`' are.
    Profiles,
}

/// What the bots saw, added up.
#[derive(Default)]
pub(super) struct Tally {
    pub latencies_us: Vec<u32>,
    pub orders: u64,
    /// Table-talk messages stored (`--messages`).
    pub messages: u64,
    pub steps: u64,
    pub rounds: u64,
    pub games: u64,
    pub errors: BTreeMap<String, u64>,
}

/// A seated lobby: its id and each player's (id, token).
pub(super) struct Table {
    pub id: String,
    pub players: Vec<(String, String)>,
}
