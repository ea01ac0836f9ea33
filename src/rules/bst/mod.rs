//! Blood Sweat and Tears: the pure adjudicator (rulings: `docs/rules/bst/`; how this code
//! maps them, and every gap decided here: `docs/rules/bst.md`).
//!
//! The game is a queue of turn-sequence phases (T1-T14) run by [`engine::Run`] until a step
//! needs somebody's answer ([`state::Pending`]); `resolve` applies the answers and runs on.

pub mod causes;
pub mod characters;
pub mod decisions;
pub mod effects;
pub mod endings;
pub mod engine;
pub mod events;
pub mod fork;
pub mod host_acts;
pub mod legality;
pub mod log_lines;
pub mod log_words;
pub mod matrix;
pub mod moves;
pub mod orders;
pub mod prompts;
pub mod refusals;
pub mod setup;
pub mod state;
pub mod tokens;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::rules::{Entrant, ForkRefusal, Game, GameRng, HostAct, PlayerId, Resolution, Seat};
pub use characters::Character;
pub use events::BstEvent;
pub use moves::Move;
pub use orders::{Order, OrderBody};
pub use prompts::Prompt;
pub use refusals::Refusal;
pub use setup::{Settings, Setup, SetupPlayer};
pub use state::State;
pub use tokens::{Colour, Token};

/// The game, as the host sees it.
#[derive(Copy, Clone, Debug)]
pub struct Bst;

/// The join request's game fields: the character (api.md, default `sellsword`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    /// A character id.
    pub character: Option<String>,
}

/// What a BST player chooses at sign-up: their character (§3.5). Public from the moment they
/// join, so it is shown beside their name in the lobby.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Join {
    pub character: Character,
}

/// One player's public pools (A37).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pools {
    /// The character.
    pub character: Character,
    /// HP.
    pub hp: i32,
    /// Charges.
    pub charges: u8,
    /// Poison counters.
    pub poison: u32,
    /// Off-Balance.
    pub off_balance: bool,
    /// Tokens in hand.
    pub hand_size: usize,
    /// Whether the Channeler has set this player's Piercing Strike aside (A28).
    pub piercing_set_aside: bool,
    /// Whether this is a Warpriest's free turn (A21).
    pub free_turn: bool,
}

/// The public table: pool size, the face-up discard pile and the tokens on the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table {
    /// Tokens left in the pool (the order is secret).
    pub pool_size: usize,
    /// The discard pile, oldest first.
    pub discard: Vec<Token>,
    /// Tokens played this turn and not yet cleared (T11), seat order.
    pub in_play: Vec<Token>,
}

/// What only its owner sees: the hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Private {
    /// The hand.
    pub hand: Vec<Token>,
}

/// One line of the final standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// The player (named `player` as in every game's standings).
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// Their character.
    pub character: Character,
    /// Final HP.
    pub hp: i32,
    /// 1 for the winner, 2 for the loser; both 1 in a draw.
    pub place: u32,
}

/// The result (§2.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Winner ids (empty in a draw).
    pub winners: Vec<PlayerId>,
    /// Why it ended (§2.2): `knock-out`, `double-knock-out`, `pool-exhausted`, `round-cap`,
    /// `forfeit`, `ended-by-host`.
    pub reason: state::EndReason,
    /// Both players, the winner first (seat order in a draw).
    pub standings: Vec<Standing>,
}

impl Game for Bst {
    const ID: &'static str = "bst";
    type Settings = Settings;
    type JoinBody = JoinBody;
    type Join = Join;
    type State = State;
    type OrderBody = OrderBody;
    type Order = Order;
    type Event = BstEvent;
    type Refusal = Refusal;
    type Prompt = Prompt;
    type Pools = Pools;
    type Table = Table;
    type Private = Private;
    type Outcome = Outcome;
    type Ending = host_acts::Ending;

    /// The seed, the explicit pool and the setup (which holds hands and a pool) would reveal
    /// hands and draws, so they are shown only once the game is over (api.md v1 additions).
    fn public_settings(settings: &Settings, finished: bool) -> Settings {
        match finished {
            true => settings.clone(),
            false => Settings {
                seed: None,
                pool: None,
                setup: None,
                ..settings.clone()
            },
        }
    }

    fn check_settings(settings: &Settings) -> Result<(), Refusal> {
        setup::check_settings(settings)
    }

    fn capacity(_: &Settings) -> usize {
        2
    }

    fn min_players(_: &Settings) -> usize {
        2
    }

    fn check_join(_: &Settings, body: JoinBody) -> Result<Join, Refusal> {
        let character = match body.character {
            None => Ok(Character::Sellsword),
            Some(c) => c.parse().map_err(|got| Refusal::UnknownCharacter { got }),
        }?;
        Ok(Join { character })
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
        state
            .pending
            .as_ref()
            .map_or("finished", state::Pending::name)
    }

    fn owes(state: &State) -> Vec<Seat> {
        state
            .pending
            .as_ref()
            .map(state::Pending::seats)
            .unwrap_or_default()
    }

    fn prompt(state: &State, seat: Seat) -> Option<Prompt> {
        prompts::prompt(state, seat)
    }

    fn check_order(state: &State, seat: Seat, body: OrderBody) -> Result<Order, Refusal> {
        if seat.0 > 1 {
            return Err(Refusal::NothingOwed);
        }
        orders::check(state, seat, body)
    }

    /// Applies the answers and runs on to the next step that needs one. The host's per-step
    /// RNG is not used: the only randomness after the start is the pool's order, fixed by the
    /// shuffle at the start (the Assassin's "random" token is the pool's next one).
    const MAIN_STEP: &'static str = "play";

    /// A fallback is a play (`move` and `token`) naming a known tile and token; whether the
    /// token is in hand and the tile usable is judged when it is used (A9, T6).
    fn check_fallback(body: &OrderBody) -> Result<(), Refusal> {
        orders::check_play_form(body)
    }

    /// A36 and §2.3's default table (see `orders::default_order`).
    fn default_order(state: &State, seat: Seat, rng: &mut GameRng) -> Option<Order> {
        orders::default_order(state, seat, rng)
    }

    fn describe_order(_state: &State, order: Option<&Order>) -> String {
        orders::describe(order)
    }

    fn resolve(state: &State, orders: &[(Seat, Order)], _rng: &mut GameRng) -> Resolution<Bst> {
        let mut next = state.clone();
        let mut run = engine::Run::new(&mut next);
        if let Some(pending) = run.s.pending.take() {
            let mut answers: Vec<(Seat, Order)> = orders
                .iter()
                .filter(|(s, _)| pending.seats().contains(s))
                .cloned()
                .collect();
            // Seat order, whatever order the host passes them in.
            answers.sort_by_key(|(s, _)| *s);
            answers.dedup_by_key(|(s, _)| *s);
            if answers.len() == pending.seats().len() {
                run.apply(&pending, &answers);
            } else {
                // Not every owed seat answered: nothing changes.
                run.s.pending = Some(pending);
            }
            run.advance();
        }
        let events = run.events;
        Resolution {
            state: next,
            revealed: orders.to_vec(),
            events,
        }
    }

    fn alive(state: &State, seat: Seat) -> bool {
        match &state.finish {
            Some(f) => {
                f.winners.contains(&seat) || f.winners.is_empty() && state.players[seat.0].hp > 0
            }
            None => true,
        }
    }

    fn pools(state: &State, seat: Seat) -> Pools {
        let p = &state.players[seat.0.min(1)];
        Pools {
            character: p.character,
            hp: p.hp,
            charges: p.charges,
            poison: p.poison,
            off_balance: p.off_balance,
            hand_size: p.hand.len(),
            piercing_set_aside: p.piercing_set_aside,
            free_turn: p.free_turn,
        }
    }

    fn table(state: &State) -> Table {
        Table {
            pool_size: state.pool.len(),
            discard: state.discard.clone(),
            in_play: state.turn.table.iter().flatten().copied().collect(),
        }
    }

    fn private(state: &State, seat: Seat) -> Private {
        Private {
            hand: state.players[seat.0.min(1)].hand.clone(),
        }
    }

    /// A substitute keeps the seat's hand, HP and everything else.
    fn rename(state: &State, seat: Seat, name: &str) -> State {
        host_acts::rename(state, seat, name)
    }

    /// A kick is a forfeit: the opponent wins (`host_acts.rs`).
    fn kick(state: &State, seat: Seat) -> Result<HostAct<Self>, Refusal> {
        host_acts::kick(state, seat)
    }

    fn fork_settings(state: &State, settings: &Settings) -> Result<Settings, ForkRefusal> {
        fork::fork_settings(state, settings)
    }

    /// The host declares a draw or names the winner (`host_acts.rs`).
    fn end_by_host(state: &State, ending: host_acts::Ending) -> Result<HostAct<Self>, Refusal> {
        host_acts::end_by_host(state, ending)
    }

    fn end_by_draw_vote(state: &State) -> Result<HostAct<Self>, Refusal> {
        host_acts::end_by_draw_vote(state)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        let f = state.finish.as_ref()?;
        Some(Outcome {
            winners: f
                .winners
                .iter()
                .map(|w| state.players[w.0].who.id)
                .collect(),
            reason: f.reason,
            standings: state
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| Standing {
                    player: p.who.id,
                    name: p.who.name.clone(),
                    character: p.character,
                    hp: p.hp,
                    place: if f.winners.is_empty() || f.winners.contains(&Seat(i)) {
                        1
                    } else {
                        2
                    },
                })
                .collect(),
        })
        .map(|mut outcome: Outcome| {
            // The winner first; a stable sort keeps seat order in a draw.
            outcome.standings.sort_by_key(|s| s.place);
            outcome
        })
    }
}
