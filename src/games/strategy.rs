//! A bot's way of choosing. Each game's bot policy (`games::<game>::bot`) is written against
//! it, so it lives beside the games; the bots that play over the API (`crate::bots`) sit above
//! and pick one.

/// A bot's way of choosing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Strategy {
    /// A uniformly random legal answer.
    Random,
    /// The strongest-looking legal play (each game's `bot::greedy`).
    Greedy,
}
