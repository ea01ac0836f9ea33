//! Tournaments with the host as director: the pure core (`docs/tournaments.md`). Functions of
//! values only, with no I/O, clock, database or ambient RNG: where a choice is random (the melee
//! seating's starts), the caller passes a seeded RNG. The server keeps the entrants and the
//! rounds' records and asks this module, each time, for the next round's pairing, a knockout
//! match's decision, the standings and their forum post.
//!
//! - [`Entrant`]s are named by an opaque [`EntrantId`] the caller chooses; handles are supplied
//!   only when standings are shown ([`StandingRow`]).
//! - A round's record is a [`DuelRound`] (Swiss, round robin, knockout) or a [`MeleeRound`].
//! - Pairings: [`pair_swiss`] (maximum-weight matching), [`round_robin_schedule`] (Berger
//!   tables), [`Knockout`] (a seeded bracket), [`seat_melee`] (boards).
//! - Standings: [`swiss_standings`], [`round_robin_standings`], [`Knockout::standings`],
//!   [`melee_standings`]; their post: [`standings_post`].

mod entrants;
mod knockout;
mod melee;
mod points;
mod post;
mod record;
mod round_robin;
mod standings;
mod swiss;

pub use entrants::{Entrant, EntrantId, Format, late_entry_allowed};
pub use knockout::{Advance, Knockout, KnockoutError, MatchDecision, REPLAYS};
pub use melee::{MeleeError, MeleeSeating, board_sizes, seat_melee};
pub use points::Points;
pub use post::{StandingsPost, standings_bbcode, standings_markdown, standings_post};
pub use record::{
    DuelGame, DuelPairing, DuelResult, DuelRound, Meetings, MeleeBoard, MeleeRound, MeleeSeat,
    RecordError,
};
pub use round_robin::{round_robin_round, round_robin_schedule};
pub use standings::{
    Standing, StandingRow, Tiebreaks, melee_standings, named, round_robin_standings,
    swiss_standings,
};
pub use swiss::{PairingError, pair_swiss};
