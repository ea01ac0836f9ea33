//! One simulated game, through the pure rules: each seat's strategy answers the typed prompt
//! the host would send it, the rules judge the answer as they judge an order, and the game is
//! resolved step by step with the host's random streams (the deal on stream 0, the `n`-th
//! step on stream `n`), so that a game replays from its seed alone.

use super::plan::{Plan, strategy_name};
use super::tally::{SeatPlay, Tally, answer_word};
use crate::bots::seating::{self, Joined};
use crate::fairness::publish::rng_for;
use crate::games::GameUi;
use crate::rules::{Game, PlayerId, ROUND_LIMIT, Seat};

/// The stream of the bots' own choices (the rules' streams count up from 0).
const CHOICES: u64 = u64::MAX;
/// The stream the join choices are drawn from.
const JOINS: u64 = u64::MAX - 1;
/// More steps than any game can take before its round limit: a guard against a game that
/// never ends, which is a bug in its rules.
const STEP_LIMIT: u64 = ROUND_LIMIT as u64 * 64;

/// Why a simulated game could not be played to its end: the rules refused a strategy's
/// answer, or a strategy had none (a bug in that game's bot policy), or the game did not end.
#[derive(Debug, thiserror::Error)]
#[error("game {index} (seed {seed}), round {round}, step {step}, seat {seat}: {problem}")]
pub struct GameError {
    pub index: u64,
    pub seed: u64,
    pub round: u32,
    pub step: String,
    pub seat: usize,
    pub problem: String,
}

/// A run's settings, read once for all its games.
pub struct Table<G: Game> {
    pub settings: G::Settings,
    pub players: usize,
}

/// Plays game `index` of `plan` to its end and counts it into `tally`.
pub fn play<G: GameUi>(
    plan: &Plan,
    table: &Table<G>,
    index: u64,
    tally: &mut Tally,
) -> Result<(), GameError> {
    let seed = plan.game_seed(index);
    let fail = |round: u32, step: &str, seat: usize, problem: String| GameError {
        index,
        seed,
        round,
        step: step.to_owned(),
        seat,
        problem,
    };
    let mut join_rng = rng_for(seed, JOINS);
    let mut joins: Vec<Joined<G::Join>> = Vec::with_capacity(table.players);
    for seat in 0..table.players {
        let joined = match plan.join(seat) {
            Some(body) => seating::join::<G>(&table.settings, body),
            None => seating::random_join::<G>(&table.settings, &mut join_rng),
        };
        joins.push(joined.map_err(|why| fail(0, "join", seat, why))?);
    }
    let strategies: Vec<_> = (0..table.players)
        .map(|seat| plan.strategy(index, seat))
        .collect();
    let names: Vec<String> = (1..=table.players).map(|n| format!("Seat {n}")).collect();
    let choices: Vec<G::Join> = joins.iter().map(|j| j.join.clone()).collect();
    let entrants = seating::entrants(&names, &choices);
    let mut state = G::start(&table.settings, &entrants, &mut rng_for(seed, 0))
        .map_err(|r| fail(0, "start", 0, r.to_string()))?;
    let mut bots = rng_for(seed, CHOICES);
    let names: Vec<String> = strategies.iter().map(|s| strategy_name(*s)).collect();
    let mut stream = 0;
    loop {
        let owed = G::owes(&state);
        if owed.is_empty() && !G::unasked(&state) {
            break;
        }
        let (round, step) = (G::round(&state), G::step(&state));
        let mut orders = Vec::with_capacity(owed.len());
        for Seat(seat) in owed {
            let fail = |problem: String| fail(round, step, seat, problem);
            let prompt = G::prompt(&state, Seat(seat))
                .ok_or_else(|| fail("owes but has no prompt".into()))?;
            let body = G::bot(step, &prompt, strategies[seat], &mut bots)
                .ok_or_else(|| fail("the strategy found no answer".into()))?;
            tally.add_answer(step, &names[seat], answer_word(&body));
            let body: G::OrderBody =
                serde_json::from_value(body).map_err(|e| fail(format!("malformed answer: {e}")))?;
            let order = G::check_order(&state, Seat(seat), body)
                .map_err(|r| fail(format!("the rules refuse the answer: {r}")))?;
            orders.push((Seat(seat), order));
        }
        stream += 1;
        if stream > STEP_LIMIT {
            return Err(fail(round, step, 0, "the game did not end".into()));
        }
        state = G::resolve(&state, &orders, &mut rng_for(seed, stream)).state;
    }
    let ids: Vec<PlayerId> = entrants.iter().map(|e| e.id).collect();
    let results = seating::results::<G>(&state, &ids)
        .ok_or_else(|| fail(G::round(&state), "end", 0, "the game has no outcome".into()))?;
    let seats: Vec<SeatPlay> = results
        .into_iter()
        .zip(joins)
        .zip(names)
        .map(|((result, joined), strategy)| SeatPlay {
            strategy,
            join: joined.label,
            result,
        })
        .collect();
    tally.add_game(&seats, G::round(&state));
    Ok(())
}
