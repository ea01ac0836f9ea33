//! Contests, the Magic, Archery and Melee duel: the pure adjudicator (the rulings in the
//! project's words, how they map to this code, and every gap decided here:
//! `docs/rules/contests.md`).
//!
//! Two combatants with public builds fight a chain of rounds: a window, where the next
//! phase is wished for and window actions are played (§3.2), then a phase, Magic, Archery
//! or Melee, whose attacks are contests (§3.3-§3.5). Each contest is a face-down card, a
//! concealed die the opponent tries to guess, face-up cards, the reveal and the totals,
//! with tie-breaks (§3.4). The duel ends by a defeat, an escape, both ending combat or the
//! phase cap (§3.6).
//!
//! Topic by topic: [`ids`] (§4's names), [`rulebook`] (§5.1), [`setup`] (§2, S1-S5, §3.9),
//! [`legal`] (who owes what, W0 and P1's legality), [`orders`] (§3.7's answers, Ruling 50),
//! [`engine`] (W1-W9, P0-P5, K1-K7, A1-A7), [`events`] (the log, §3.8), [`prompts`],
//! [`views`] (§3.8) and [`host_acts`].

pub mod answers;
pub mod engine;
pub mod events;
pub mod fork;
pub mod host_acts;
pub mod ids;
pub mod legal;
pub mod orders;
pub mod prompts;
pub mod refusal;
pub mod rulebook;
pub mod setup;
pub mod state;
pub mod views;

#[cfg(test)]
mod tests;

pub use events::Event;
pub use ids::{Ability, Attribute, Card, Phase, Spell, Wish};
pub use orders::{Action, Order, OrderBody};
pub use prompts::Prompt;
pub use refusal::Refusal;
pub use rulebook::Rulebook;
pub use setup::{JoinBody, Settings, Setup, SetupPlayer};
pub use state::{Build, EndReason, State, Step};
pub use views::{Outcome, Pools, Private, Table};

use crate::rules::{Entrant, ForkRefusal, Game, GameRng, HostAct, Resolution, Seat, SettingsError};

/// The Contests rules, as the host drives them through [`Game`].
#[derive(Copy, Clone, Debug)]
pub struct Contests;

impl Game for Contests {
    const ID: &'static str = "contests";
    type Settings = Settings;
    type JoinBody = JoinBody;
    type Join = Build;
    type State = State;
    type OrderBody = OrderBody;
    type Order = Order;
    type Event = Event;
    type Refusal = Refusal;
    type Prompt = Prompt;
    type Pools = Pools;
    type Table = Table;
    type Private = Private;
    type Outcome = Outcome;
    type Ending = host_acts::Ending;

    /// §5.1: unknown keys and out-of-range values are refused by name.
    fn parse_settings(raw: serde_json::Value) -> Result<Settings, SettingsError<Refusal>> {
        setup::parse(raw)
    }

    /// §3.8: the seed and the hooks (decks, dice, setup) are nobody's while the duel runs.
    fn public_settings(settings: &Settings, finished: bool) -> Settings {
        match finished {
            true => settings.clone(),
            false => Settings {
                seed: None,
                decks: None,
                default_dice: None,
                setup: None,
                ..settings.clone()
            },
        }
    }

    fn check_settings(settings: &Settings) -> Result<(), Refusal> {
        setup::check(settings)
    }

    /// Exactly two (§1.3).
    fn capacity(_: &Settings) -> usize {
        2
    }

    fn min_players(_: &Settings) -> usize {
        2
    }

    /// S2: the build given, or §2.7's default.
    fn check_join(settings: &Settings, body: JoinBody) -> Result<Build, Refusal> {
        setup::check_join(settings, body)
    }

    /// S1-S5, then on to the first step somebody owes.
    fn start(
        settings: &Settings,
        entrants: &[Entrant<Build>],
        rng: &mut GameRng,
    ) -> Result<State, Refusal> {
        setup::start(settings, entrants, rng)
    }

    fn seed(settings: &Settings) -> Option<u64> {
        settings.seed
    }

    fn round(state: &State) -> u32 {
        state.round
    }

    fn step(state: &State) -> &'static str {
        state.step.name()
    }

    fn owes(state: &State) -> Vec<Seat> {
        legal::owed(state)
    }

    /// S5: the dealt duel before its first round begins; nobody is asked.
    fn unasked(state: &State) -> bool {
        state.unopened && state.end.is_none()
    }

    fn prompt(state: &State, seat: Seat) -> Option<Prompt> {
        prompts::prompt(state, seat)
    }

    fn check_order(state: &State, seat: Seat, body: OrderBody) -> Result<Order, Refusal> {
        orders::check(state, seat, body)
    }

    /// The step every window asks of both: the wish is the one standing decision a
    /// player can leave in advance (a standing die would be exploitable, Ruling 50).
    const MAIN_STEP: &'static str = "next";

    fn check_fallback(body: &OrderBody) -> Result<(), Refusal> {
        orders::check_fallback(body)
    }

    /// Ruling 50. A missing die is chosen at resolution from the step's stream, so that
    /// `default_dice` and the P1-then-P2 order of §3.9 hold; nothing is drawn here.
    fn default_order(state: &State, seat: Seat, _rng: &mut GameRng) -> Option<Order> {
        orders::default_order(state, seat)
    }

    fn describe_order(_state: &State, order: Option<&Order>) -> String {
        orders::describe(order)
    }

    /// Applies the open step's answers and plays on (`engine.rs`). The `set` orders are
    /// revealed only when their contest's reveal (K4) falls in this step; otherwise the
    /// die and the face-down card stay concealed (§3.8) and the reveal event shows them.
    fn resolve(state: &State, orders: &[(Seat, Order)], rng: &mut GameRng) -> Resolution<Self> {
        let mut next = state.clone();
        let step = next.step;
        let unopened = std::mem::take(&mut next.unopened);
        let mut run = engine::Run::new(&mut next, rng);
        match unopened {
            // S5: round 1 (or a setup's round) begins, and plays on to the first answer.
            true => run.begin_round(),
            false => run.apply(orders),
        }
        // Read after `advance`: with nobody asking for the face-up step, the contest's reveal
        // falls there, still in this step (K3, K4).
        run.advance();
        let revealed_contest = run.revealed_contest;
        let events = run.into_events();
        let revealed = match step {
            Step::Set if !revealed_contest => Vec::new(),
            Step::Over => Vec::new(),
            _ => orders.to_vec(),
        };
        Resolution {
            state: next,
            revealed,
            events,
        }
    }

    fn alive(state: &State, seat: Seat) -> bool {
        match &state.end {
            Some(end) => end.winner.is_none_or(|w| w == seat),
            None => true,
        }
    }

    fn pools(state: &State, seat: Seat) -> Pools {
        views::pools(state, seat)
    }

    fn table(state: &State) -> Table {
        views::table(state)
    }

    fn private(state: &State, seat: Seat) -> Private {
        views::private(state, seat)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        views::outcome(state)
    }

    fn rename(state: &State, seat: Seat, name: &str) -> State {
        host_acts::rename(state, seat, name)
    }

    fn kick(state: &State, seat: Seat) -> Result<HostAct<Self>, Refusal> {
        host_acts::kick(state, seat)
    }

    fn end_by_host(state: &State, ending: host_acts::Ending) -> Result<HostAct<Self>, Refusal> {
        host_acts::end_by_host(state, ending)
    }

    /// A window after a phase, as a §3.9 setup with the hands dealt again (`fork.rs`).
    fn fork_settings(state: &State, settings: &Settings) -> Result<Settings, ForkRefusal> {
        fork::fork_settings(state, settings)
    }

    fn end_by_draw_vote(state: &State) -> Result<HostAct<Self>, Refusal> {
        host_acts::end_by_draw_vote(state)
    }
}
