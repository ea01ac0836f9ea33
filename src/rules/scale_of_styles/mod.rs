//! The Scale of Styles duel: the pure adjudicator (rulings: `docs/rules/scale-of-styles/`;
//! how they map to this code, and every gap decided here: `docs/rules/scale-of-styles.md`).
//!
//! Two fighters, each with his own ordered pack: the battle plan (T2). Before round 1 both
//! secretly order their decks (`plan`, S-3); every round each secretly plays one of the top
//! `window` cards (`play`, R2), the server rolls eight dice (R4), and the fighter with the
//! higher Initiative may shift his technique along the Scale (`shift`, R6). Damage strips the
//! victim's next planned cards (T7); the first deck emptied loses (T9), and the victor earns
//! XP for the face cards left in his deck (T10).

pub mod cards;
pub mod ending;
pub mod events;
pub mod fork;
pub mod host_acts;
pub mod orders;
pub mod prompts;
pub mod refusal;
pub mod round;
pub mod rulebook;
pub mod scale;
pub mod setup;
pub mod state;
pub mod views;

#[cfg(test)]
mod tests;

pub use cards::Card;
pub use events::{EndReason, Event};
pub use orders::{Order, OrderBody};
pub use prompts::Prompt;
pub use refusal::Refusal;
pub use rulebook::Rulebook;
pub use scale::Technique;
pub use setup::{Join, JoinBody, Settings, Setup, SetupPlayer};
pub use state::{State, Step};
pub use views::{Outcome, Pools, Private, Table};

use crate::rules::{Entrant, ForkRefusal, Game, GameRng, HostAct, Resolution, Seat, SettingsError};

/// The Scale of Styles rules, as the host drives them through [`Game`].
#[derive(Copy, Clone, Debug)]
pub struct ScaleOfStyles;

impl Game for ScaleOfStyles {
    const ID: &'static str = "scale-of-styles";
    type Settings = Settings;
    type JoinBody = JoinBody;
    type Join = Join;
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

    fn parse_settings(raw: serde_json::Value) -> Result<Settings, SettingsError<Refusal>> {
        setup::parse(raw)
    }

    /// The seed, the dice list and the setup (which holds the decks' order) would reveal
    /// plans and rolls, so they are shown only once the match is over (§3.4, api.md).
    fn public_settings(settings: &Settings, finished: bool) -> Settings {
        match finished {
            true => settings.clone(),
            false => Settings {
                seed: None,
                dice: None,
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

    fn check_join(_: &Settings, body: JoinBody) -> Result<Join, Refusal> {
        setup::check_join(body)
    }

    fn start(
        settings: &Settings,
        entrants: &[Entrant<Join>],
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
        state.owed()
    }

    /// R2, Ruling 30: a `play` step where every window holds one card.
    fn unasked(state: &State) -> bool {
        state.unasked()
    }

    fn prompt(state: &State, seat: Seat) -> Option<Prompt> {
        prompts::prompt(state, seat)
    }

    fn check_order(state: &State, seat: Seat, body: OrderBody) -> Result<Order, Refusal> {
        orders::check(state, seat, body)
    }

    const MAIN_STEP: &'static str = "play";

    fn check_fallback(body: &OrderBody) -> Result<(), Refusal> {
        orders::check_fallback(body)
    }

    /// Ruling 24 (see `orders::default_order`); no randomness.
    fn default_order(state: &State, seat: Seat, _rng: &mut GameRng) -> Option<Order> {
        orders::default_order(state, seat)
    }

    fn describe_order(_state: &State, order: Option<&Order>) -> String {
        orders::describe(order)
    }

    /// Applies the open step's answers (none at an [`Game::unasked`] play step, whose top
    /// cards the server plays) and stops at the next step. The dice and the plan shuffles
    /// come from `rng` (the host's seeded stream for this step), after the `dice` test list.
    /// A plan is never revealed (§3.4).
    fn resolve(state: &State, orders: &[(Seat, Order)], rng: &mut GameRng) -> Resolution<Self> {
        let mut next = state.clone();
        let mut run = round::Run::new(&mut next, rng);
        let revealed = match &state.step {
            Step::Plan => {
                run.plan(orders);
                Vec::new()
            }
            Step::Play => {
                run.play(orders);
                orders.to_vec()
            }
            Step::Shift(_) => {
                run.shift(orders);
                orders.to_vec()
            }
            Step::Over => Vec::new(),
        };
        let events = run.into_events();
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

    /// A substitute keeps the seat's deck, plan and values.
    fn rename(state: &State, seat: Seat, name: &str) -> State {
        host_acts::rename(state, seat, name)
    }

    /// A kick is a forfeit: the opponent wins (`host_acts.rs`).
    fn kick(state: &State, seat: Seat) -> Result<HostAct<Self>, Refusal> {
        host_acts::kick(state, seat)
    }

    /// The host declares a draw or names the winner (`host_acts.rs`).
    fn end_by_host(state: &State, ending: host_acts::Ending) -> Result<HostAct<Self>, Refusal> {
        host_acts::end_by_host(state, ending)
    }

    fn end_by_draw_vote(state: &State) -> Result<HostAct<Self>, Refusal> {
        host_acts::end_by_draw_vote(state)
    }

    /// The position as a setup, each deck's order shuffled again (`fork.rs`).
    fn fork_settings(state: &State, settings: &Settings) -> Result<Settings, ForkRefusal> {
        fork::fork_settings(state, settings)
    }
}
