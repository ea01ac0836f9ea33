//! Bots: a client of the JSON API, the reference bot (`herald bot`) and the load generator
//! (`herald load`). They use only what any bot author can: the public API.

pub mod bot;
pub mod client;
pub mod drive;
pub mod duel;
pub mod load;
mod load_plan;
pub mod narrate;
pub mod policy;
mod receiver;
mod wire;
