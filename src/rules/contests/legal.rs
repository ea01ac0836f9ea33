//! Who owes what, and what is legal now (W0, P1, K1-K6, A5): the one place the prompts,
//! the checks and the engine read the rules of timing and cost from.

use super::answers::Action;
use super::ids::{Ability, Card, Phase, Wish};
use super::refusal::Refusal;
use super::state::{ContestStage, Declaration, State, Step};
use crate::rules::Seat;

const BOTH: [Seat; 2] = [Seat(0), Seat(1)];

/// The phase the open window follows; none at the opening (or outside a window).
pub fn after(state: &State) -> Option<Phase> {
    state.window.as_ref().and_then(|w| w.after)
}

/// The seats that owe an answer now, in seat order (§3.7's "who" column).
pub fn owed(state: &State) -> Vec<Seat> {
    if state.unopened {
        return Vec::new();
    }
    match state.step {
        Step::Opening => BOTH
            .into_iter()
            .filter(|&s| has_opening_action(state, s))
            .collect(),
        Step::Next | Step::Set | Step::Tie => BOTH.to_vec(),
        Step::Declare => BOTH
            .into_iter()
            .filter(|&s| has_declare_choice(state, s))
            .collect(),
        Step::FaceUp => match &state.contest {
            Some(c) if c.stage == ContestStage::FaceUp => BOTH
                .into_iter()
                .filter(|&s| c.wants_face_up[s.0] && !state.fighters[s.0].hand.is_empty())
                .collect(),
            _ => Vec::new(),
        },
        Step::Discard => state.discard.iter().map(|d| d.seat).collect(),
        Step::Over => Vec::new(),
    }
}

/// The wishes a `next` order may hold (W0): after Magic or Archery `stay` or `advance`;
/// after Melee `stay`, `leave` or `end` (a monster may not `end`, Ruling 15).
pub fn wishes(state: &State, seat: Seat) -> Vec<Wish> {
    match after(state) {
        Some(Phase::Melee) => match state.fighters[seat.0].build.monster {
            true => vec![Wish::Stay, Wish::Leave],
            false => vec![Wish::Stay, Wish::Leave, Wish::End],
        },
        Some(_) => vec![Wish::Stay, Wish::Advance],
        None => Vec::new(),
    }
}

fn not_now(action: &Action, why: &str) -> Option<Refusal> {
    Some(Refusal::NotNow {
        what: action.words(),
        why: why.into(),
    })
}

/// Why `action` is not legal for `seat` in the open window (W0's table), if it is not: the
/// card must be in the hand, the ability in the build, the timing right, the cost paid.
pub fn action_problem(state: &State, seat: Seat, action: &Action) -> Option<Refusal> {
    let f = &state.fighters[seat.0];
    let after = after(state);
    let opening = state.step == Step::Opening;
    if let Some(card) = action.card()
        && !f.hand.contains(&card)
    {
        return Some(Refusal::NotInHand {
            card: card.to_string(),
        });
    }
    if let Some(ability) = action.ability()
        && !f.build.has(ability)
    {
        return Some(Refusal::NotInBuild {
            ability: ability.to_string(),
        });
    }
    match action {
        Action::Charge | Action::CaughtWithPantsDown | Action::Backstab { .. } if !opening => {
            not_now(action, "it is an opening action")
        }
        Action::Backstab { discard, .. } if !f.hand.contains(discard) => Some(Refusal::NotInHand {
            card: discard.to_string(),
        }),
        Action::NowYouSeeMe | Action::TeleportToMagic | Action::TeleportAway
            if after != Some(Phase::Melee) =>
        {
            not_now(action, "it is played after a Melee phase")
        }
        Action::RunLikeHell if f.build.monster => Some(Refusal::Monster { what: "flee" }),
        Action::TeleportAway if f.build.monster => Some(Refusal::Monster {
            what: "teleport away",
        }),
        Action::TeleportToMagic | Action::TeleportAway => {
            let base = match action {
                Action::TeleportAway => 2,
                _ => 1,
            };
            let cost = f.cost(base, state.round);
            (cost > f.energy).then_some(Refusal::CannotAfford {
                cost,
                energy: f.energy,
            })
        }
        _ => None,
    }
}

/// Whether `seat` has at least one legal opening action (W0: only they are prompted).
pub fn has_opening_action(state: &State, seat: Seat) -> bool {
    opening_actions(state, seat)
        .iter()
        .any(|a| action_problem(state, seat, a).is_none())
}

/// One instance of every window action `seat` could try now (Backstab! and Your Shoelace
/// with their first discard and the Magic phase): enough to know whether any is legal.
pub fn opening_actions(state: &State, seat: Seat) -> Vec<Action> {
    let f = &state.fighters[seat.0];
    let mut all = vec![
        Action::Charge,
        Action::CaughtWithPantsDown,
        Action::Shoelace {
            phase: Phase::Magic,
        },
        Action::NoWay,
        Action::RunLikeHell,
        Action::DisArm,
        Action::PointBlankShot,
        Action::NowYouSeeMe,
        Action::TeleportToMagic,
        Action::TeleportAway,
    ];
    if let Some(&discard) = f.hand.first() {
        all.push(Action::Backstab {
            discard,
            phase: Phase::Magic,
        });
    }
    all
}

/// The window actions legal for `seat` now, by kind (for the prompt).
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    opening_actions(state, seat)
        .into_iter()
        .filter(|a| action_problem(state, seat, a).is_none())
        .collect()
}

/// Whether `seat` fires in the Archery phase under way (0 attacks in a free phase that is
/// not his, P4).
fn fires(state: &State, seat: Seat) -> bool {
    state.phase.as_ref().is_some_and(|p| p.fires[seat.0])
}

/// Rapid Shot may be declared: the combat's first Archery phase, with the ability (Ruling 33).
pub fn rapid_shot_open(state: &State, seat: Seat) -> bool {
    state.archery_phases == 1
        && fires(state, seat)
        && state.fighters[seat.0].build.has(Ability::RapidShot)
}

/// Lucky Punk may be declared: unused, affordable (Ruling 34).
pub fn lucky_punk_open(state: &State, seat: Seat) -> bool {
    let f = &state.fighters[seat.0];
    fires(state, seat)
        && f.build.has(Ability::LuckyPunk)
        && !f.lucky_used
        && f.cost(1, state.round) <= f.energy
}

/// Berserk may be declared: at 2 HP or more (Ruling 36).
pub fn berserk_open(state: &State, seat: Seat) -> bool {
    let f = &state.fighters[seat.0];
    f.build.has(Ability::Berserk) && f.hp >= 2
}

/// Art of Killing may be declared: affordable, and not after his own Point Blank Shot (P1).
pub fn art_of_killing_open(state: &State, seat: Seat) -> bool {
    let f = &state.fighters[seat.0];
    let pbs = state.phase.as_ref().is_some_and(|p| p.no_attack[seat.0]);
    f.build.has(Ability::ArtOfKilling) && !pbs && f.cost(1, state.round) <= f.energy
}

/// The most Gift of Fury energy `seat` could spend now (Ruling 37).
pub fn fury_max(state: &State, seat: Seat) -> u32 {
    let f = &state.fighters[seat.0];
    match (f.build.has(Ability::GiftOfFury), f.surcharged(state.round)) {
        (false, _) => 0,
        (true, false) => f.energy,
        (true, true) => f.energy.saturating_sub(1),
    }
}

/// Whether a spell can be paid now (P1: only then is a Magic `declare` prompted).
pub fn can_cast(state: &State, seat: Seat) -> bool {
    let f = &state.fighters[seat.0];
    f.cost(1, state.round) <= f.energy
}

/// Whether `seat` has a choice at the open `declare` (P1's "who is prompted").
pub fn has_declare_choice(state: &State, seat: Seat) -> bool {
    match state.phase.as_ref().map(|p| p.phase) {
        Some(Phase::Magic) => can_cast(state, seat),
        Some(Phase::Archery) => rapid_shot_open(state, seat) || lucky_punk_open(state, seat),
        Some(Phase::Melee) => {
            berserk_open(state, seat)
                || art_of_killing_open(state, seat)
                || fury_max(state, seat) > 0
        }
        None => false,
    }
}

/// The energy a declaration costs (§2.2): each use +1 under a surcharge.
pub fn declaration_cost(state: &State, seat: Seat, d: &Declaration) -> u32 {
    let f = &state.fighters[seat.0];
    let mut cost = 0;
    if d.spell.is_some() {
        cost += f.cost(1, state.round);
    }
    if d.lucky_punk {
        cost += f.cost(1, state.round);
    }
    if d.fury > 0 {
        cost += f.cost(d.fury, state.round);
    }
    if d.art_of_killing {
        cost += f.cost(1, state.round);
    }
    cost
}

/// P1: every part of the declaration open to `seat`, and its total affordable.
pub fn check_declaration(state: &State, seat: Seat, d: &Declaration) -> Result<(), Refusal> {
    let f = &state.fighters[seat.0];
    let need = |ability: Ability| -> Result<(), Refusal> {
        match f.build.has(ability) {
            true => Ok(()),
            false => Err(Refusal::NotInBuild {
                ability: ability.to_string(),
            }),
        }
    };
    let not_now = |what: &str, why: &str| Refusal::NotNow {
        what: what.into(),
        why: why.into(),
    };
    if d.rapid_shot {
        need(Ability::RapidShot)?;
        if !rapid_shot_open(state, seat) {
            return Err(not_now(
                "rapid-shot",
                "only in the combat's first Archery phase, firing",
            ));
        }
    }
    if d.lucky_punk {
        need(Ability::LuckyPunk)?;
        if f.lucky_used {
            return Err(not_now("lucky-punk", "it is used once per combat"));
        }
        if !fires(state, seat) {
            return Err(not_now("lucky-punk", "you do not fire in this phase"));
        }
    }
    if d.berserk {
        need(Ability::Berserk)?;
        if f.hp < 2 {
            return Err(not_now("berserk", "it needs 2 HP or more"));
        }
    }
    if d.fury > 0 {
        need(Ability::GiftOfFury)?;
    }
    if d.art_of_killing {
        need(Ability::ArtOfKilling)?;
        if state.phase.as_ref().is_some_and(|p| p.no_attack[seat.0]) {
            return Err(not_now(
                "art-of-killing",
                "you make no attack after your Point Blank Shot",
            ));
        }
    }
    let cost = declaration_cost(state, seat, d);
    match cost > f.energy {
        true => Err(Refusal::CannotAfford {
            cost,
            energy: f.energy,
        }),
        false => Ok(()),
    }
}

/// Whether `card` is one a contest can use at all (for the prompt's hint); any card may be
/// played face down (L15).
pub const fn contest_card(card: Card) -> bool {
    !matches!(
        card,
        Card::Charge
            | Card::CaughtWithPantsDown
            | Card::DisArm
            | Card::NowYouSeeMe
            | Card::YourShoelaceIsUntied
    )
}
