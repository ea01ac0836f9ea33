//! Bots: a client of the JSON API, the reference bot (`herald bot`) and the load generator
//! (`herald load`), which use only what any bot author can: the public API; and the bot
//! author's and game designer's tools at home, `herald arena` and `herald simulate`, which
//! play in the process.

pub mod arena;
pub mod bosses;
pub mod bot;
pub mod client;
pub mod drive;
pub mod duel;
pub mod load;
mod load_plan;
pub mod narrate;
pub mod policy;
pub mod profile_bot;
mod receiver;
pub mod seating;
pub mod simulate;
mod wire;
