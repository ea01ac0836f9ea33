//! `herald arena`: local bots against each other, in the process. A bot is a program that
//! reads prompts and writes orders as JSON lines on its standard input and output
//! ([`protocol`], docs/bots.md), or a built-in strategy; the rules adjudicate in the process
//! and each game's archive is written for `herald verify`. Generic over the registered games.

pub mod cli;
pub mod game;
pub mod process;
pub mod protocol;
pub mod results;
pub mod spec;

pub use cli::{ArenaArgs, arena};
