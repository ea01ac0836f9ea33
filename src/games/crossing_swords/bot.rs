//! The Crossing Swords bots, read from the typed prompt: `random`, a random move among those
//! with a legal target and a random legal target for it; and `greedy`, the move with the best
//! expected one-turn VP margin against an opponent who plays any legal order uniformly, worked
//! out once by resolving every pair of orders of a fresh duel with the rules themselves (so it
//! follows any change to them), aimed at another player or at itself as the margin says.

use std::sync::OnceLock;

use rand::RngExt;
use rand::seq::IndexedRandom;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::rules::crossing_swords::resolve::resolve;
use crate::rules::crossing_swords::setup::start;
use crate::rules::crossing_swords::{Join, Move, MoveChoice, Order, Prompt, Settings};
use crate::rules::{Entrant, PlayerId, Seat};

/// A uniformly random move with a legal target, and a uniformly random legal target.
pub fn random(prompt: &Prompt, rng: &mut impl rand::Rng) -> Option<Value> {
    let moves: Vec<&MoveChoice> = prompt
        .moves
        .iter()
        .filter(|m| !m.targets.is_empty())
        .collect();
    let chosen = moves.choose(rng)?;
    let seat = chosen.targets[rng.random_range(0..chosen.targets.len())];
    let target = prompt.players.get(seat.0)?.id;
    Some(json!({"move": chosen.mv, "target": target}))
}

/// One order of the bot's, as the margin table reads it: a move, aimed at the other player
/// (true) or at oneself.
type Aim = (Move, bool);

/// The best-margin order this prompt allows (a random other player as its target).
pub fn greedy(prompt: &Prompt, rng: &mut impl rand::Rng) -> Option<Value> {
    let choice = |mv: Move| prompt.moves.iter().find(|m| m.mv == mv);
    // Oneself: the seat a move that may name oneself offers and one that may not leaves out.
    let own = choice(Move::Dodge).and_then(|dodge| {
        let others = &choice(Move::Strike)?.targets;
        dodge.targets.iter().copied().find(|s| !others.contains(s))
    });
    let mut best: Option<(f64, Seat, Move)> = None;
    for &((mv, at_other), margin) in margins() {
        let Some(choice) = choice(mv) else { continue };
        let others: Vec<Seat> = choice
            .targets
            .iter()
            .copied()
            .filter(|s| Some(*s) != own)
            .collect();
        let target = match at_other {
            true => others.choose(rng).copied(),
            false => own.filter(|s| choice.targets.contains(s)),
        };
        if let Some(target) = target
            && best.as_ref().is_none_or(|(b, _, _)| margin > *b)
        {
            best = Some((margin, target, mv));
        }
    }
    let Some((_, target, mv)) = best else {
        return random(prompt, rng);
    };
    let target = prompt.players.get(target.0)?.id;
    Some(json!({"move": mv, "target": target}))
}

/// Every order of the bot's in a fresh duel with its expected VP margin (its VP gained less the
/// opponent's) over the opponent's legal orders, each as likely.
fn margins() -> &'static [(Aim, f64)] {
    static MARGINS: OnceLock<Vec<(Aim, f64)>> = OnceLock::new();
    MARGINS.get_or_init(|| {
        let entrants: Vec<Entrant<Join>> = (1..=2)
            .map(|i| Entrant {
                id: PlayerId(Uuid::from_u128(i)),
                name: format!("P{i}"),
                join: Join,
            })
            .collect();
        let Ok(state) = start(&Settings::default(), &entrants) else {
            return Vec::new();
        };
        let aims = |seat: usize| -> Vec<Order> {
            let (me, other) = (state.players[seat].id, state.players[1 - seat].id);
            Move::ALL
                .into_iter()
                .flat_map(|mv| {
                    let own = mv.may_target_self().then_some(Order { mv, target: me });
                    [Some(Order { mv, target: other }), own]
                })
                .flatten()
                .collect()
        };
        let theirs = aims(1);
        aims(0)
            .into_iter()
            .map(|mine| {
                let total: f64 = theirs
                    .iter()
                    .map(|their| {
                        let after = resolve(&state, &[(Seat(0), mine), (Seat(1), *their)]).state;
                        f64::from(after.players[0].vp) - f64::from(after.players[1].vp)
                    })
                    .sum();
                let aim = (mine.mv, mine.target != state.players[0].id);
                (aim, total / theirs.len() as f64)
            })
            .collect()
    })
}
