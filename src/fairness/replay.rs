//! Re-adjudicating an archive with the same pure rules the host ran: generic over
//! [`Game`], so every game the host dispatches through `with_game!` is replayable.
//!
//! The replay mirrors what the host does with each act (`host::resolve`, `host::controls`):
//! the same random streams (the deal on stream 0, the step recorded `n`-th on stream `n`),
//! the same split of a resolution's events into the step and the next round's opening, the
//! same host step when a kick or an early end finishes the game.

use serde_json::Value;
use uuid::Uuid;

use super::act::Act;
use super::archive::Archive;
use super::publish::{HOST_STEP, LogEntry, ROUND_OPENING, pools_of, rng_for};
use crate::rules::{Entrant, Event as _, Game, HostAct, PlayerId, Seat};

/// A step as the replay publishes it: what the archive's step must show.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    pub round: u32,
    pub step: String,
    /// The revealed orders, by seat, in seat order.
    pub orders: Vec<(usize, Value)>,
    /// The game's public log entries (the host's own lines are not the rules' to replay).
    pub log: Vec<Value>,
    pub pools: Value,
}

/// A game being replayed.
pub struct Replay<G: Game> {
    state: G::State,
    seed: u64,
    /// Each seat's id and current name (a substitute's name after a rename).
    seats: Vec<(Uuid, String)>,
    /// Steps published so far: the next resolution draws from stream `produced + 1`.
    produced: u64,
}

fn json<T: serde::Serialize>(value: &T) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|e| e.to_string())
}

impl<G: Game> Replay<G> {
    /// Deals the opening position from the archive's settings, entrants and seed.
    pub fn start(archive: &Archive, seed: u64) -> Result<Replay<G>, String> {
        let settings: G::Settings = serde_json::from_value(archive.settings.clone())
            .map_err(|e| format!("the settings are not {}'s: {e}", G::ID))?;
        let mut entrants = Vec::with_capacity(archive.entrants.len());
        for e in &archive.entrants {
            entrants.push(Entrant {
                id: PlayerId(e.id),
                name: e.name.clone(),
                join: serde_json::from_value::<G::Join>(e.join.clone())
                    .map_err(|err| format!("the join choice of {} is unreadable: {err}", e.name))?,
            });
        }
        let state = G::start(&settings, &entrants, &mut rng_for(seed, 0))
            .map_err(|r| format!("the rules refuse to start this game: {r}"))?;
        let seats = archive
            .entrants
            .iter()
            .map(|e| (e.id, e.name.clone()))
            .collect();
        Ok(Replay {
            state,
            seed,
            seats,
            produced: 0,
        })
    }

    /// The position the replay has reached.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// The player id at `seat`.
    pub fn seat_of(&self, id: Uuid) -> Option<usize> {
        self.seats.iter().position(|(seat_id, _)| *seat_id == id)
    }

    fn pools(&self, state: &G::State) -> Result<Value, String> {
        let seats: Vec<(Uuid, &str, usize)> = self
            .seats
            .iter()
            .enumerate()
            .map(|(seat, (id, name))| (*id, name.as_str(), seat))
            .collect();
        pools_of::<G>(state, &seats).map_err(|e| format!("serialize: {e}"))
    }

    fn log(events: &[G::Event]) -> Result<Vec<Value>, String> {
        let mut log = Vec::with_capacity(events.len());
        for event in events {
            let entry = json(&LogEntry::of(event))?;
            if entry.get("private_to_seat").is_none() {
                log.push(entry);
            }
        }
        Ok(log)
    }

    fn publish(&mut self, expected: Expected, out: &mut Vec<Expected>) {
        self.produced += 1;
        out.push(expected);
    }

    /// Applies one act; returns the steps it publishes (none, one, or two when a resolution
    /// opens the next round; a host step when a kick or an end finishes the game).
    pub fn apply(&mut self, act: &Act) -> Result<Vec<Expected>, String> {
        let mut out = Vec::new();
        match act {
            Act::Resolve { orders } => self.resolve(orders, &mut out)?,
            Act::Kick { seat } => {
                let act = G::kick(&self.state, Seat(*seat))
                    .map_err(|r| format!("the rules refuse the kick of seat {seat}: {r}"))?;
                self.host_act(act, false, &mut out)?;
            }
            Act::End { ending } => {
                let ending: G::Ending = serde_json::from_value(ending.clone())
                    .map_err(|e| format!("the ending is unreadable: {e}"))?;
                let act = G::end_by_host(&self.state, ending)
                    .map_err(|r| format!("the rules refuse the ending: {r}"))?;
                self.host_act(act, true, &mut out)?;
            }
            Act::DrawVote => {
                let act = G::end_by_draw_vote(&self.state)
                    .map_err(|r| format!("the rules refuse the draw vote's end: {r}"))?;
                self.host_act(act, true, &mut out)?;
            }
            Act::Rename { seat, name, .. } => {
                let Some(held) = self.seats.get_mut(*seat) else {
                    return Err(format!("there is no seat {seat}"));
                };
                held.1 = name.clone();
                self.state = G::rename(&self.state, Seat(*seat), name);
            }
        }
        Ok(out)
    }

    fn resolve(
        &mut self,
        orders: &[super::act::SeatOrder],
        out: &mut Vec<Expected>,
    ) -> Result<(), String> {
        let mut typed = Vec::with_capacity(orders.len());
        for o in orders {
            let order: G::Order = serde_json::from_value(o.order.clone())
                .map_err(|e| format!("the order of seat {} is unreadable: {e}", o.seat))?;
            typed.push((Seat(o.seat), order));
        }
        let (round, step) = (G::round(&self.state), G::step(&self.state));
        let mut rng = rng_for(self.seed, self.produced + 1);
        let resolution = G::resolve(&self.state, &typed, &mut rng);
        let pools = self.pools(&resolution.state)?;
        let split = resolution
            .events
            .iter()
            .position(|e| e.opens_round().is_some_and(|r| r > round))
            .unwrap_or(resolution.events.len());
        let (this_step, opening) = resolution.events.split_at(split);
        let mut revealed = Vec::with_capacity(resolution.revealed.len());
        for (seat, order) in &resolution.revealed {
            revealed.push((seat.0, json(order)?));
        }
        revealed.sort_by_key(|(seat, _)| *seat);
        let expected = Expected {
            round,
            step: step.to_string(),
            orders: revealed,
            log: Self::log(this_step)?,
            pools: pools.clone(),
        };
        self.publish(expected, out);
        if let Some(opened) = opening.first().and_then(|e| e.opens_round()) {
            let expected = Expected {
                round: opened,
                step: ROUND_OPENING.to_string(),
                orders: Vec::new(),
                log: Self::log(opening)?,
                pools,
            };
            self.publish(expected, out);
        }
        self.state = resolution.state;
        Ok(())
    }

    /// A kick (`ends`: false) files a host step only when it finishes the game; an early end
    /// always does.
    fn host_act(
        &mut self,
        act: HostAct<G>,
        ends: bool,
        out: &mut Vec<Expected>,
    ) -> Result<(), String> {
        if ends || G::owes(&act.state).is_empty() {
            let expected = Expected {
                round: G::round(&act.state),
                step: HOST_STEP.to_string(),
                orders: Vec::new(),
                log: Self::log(&act.log)?,
                pools: self.pools(&act.state)?,
            };
            self.publish(expected, out);
        }
        self.state = act.state;
        Ok(())
    }
}
