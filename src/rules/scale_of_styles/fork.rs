//! A position between rounds as a `setup` (rulings §3.5; api.md "Starting from a position";
//! docs/fairness.md "Forking").

use super::rulebook::StrippedCards;
use super::setup::{Settings, Setup, SetupPlayer};
use super::state::{State, Step};
use crate::rules::ForkRefusal;

/// The settings of a duel that starts where `state` stands: the moment round `state.round`'s
/// `play` step opens, which is what a §3.5 `setup` describes. Every public value of each
/// fighter is kept exactly (§3.4): his Level, XP, stamina, wounds, combat dice and his face-up
/// discard in its order, and so his deck's size and composition.
///
/// The order of each deck is not kept: each fighter's remaining cards are shuffled again by
/// the new duel with its own secret seed (a setup entry without a `deck` gets the cards not in
/// its discard, shuffled: §3.5 and `docs/rules/scale-of-styles.md` gap 4). The order is the
/// one secret of the position (§3.4: "his plan"), and the finished duel's archive published
/// the seed and every plan order, so whoever holds it could read both plans to the last card.
/// Re-planning instead would let each fighter repair a plan damage disrupted (Ruling 13 lays
/// it once, before round 1; T7), while the shuffle leaves neither a choice, as a fighter who
/// lays no plan gets (Ruling 24). The `seed` and the `dice` list go for the same reason as the
/// old order: both are published.
///
/// A position whose discard holds a card stripped unseen (`stripped_cards=hidden`, Ruling 17)
/// is refused: a setup's discard is face up, so the fork would show the opponent cards the
/// duel kept from him.
pub fn fork_settings(state: &State, settings: &Settings) -> Result<Settings, ForkRefusal> {
    if state.end.is_some() {
        return Err(ForkRefusal::Finished { round: state.round });
    }
    match &state.step {
        Step::Play => {}
        Step::Plan | Step::Shift(_) | Step::Over => {
            return Err(ForkRefusal::NotASetup {
                why: format!(
                    "round {} waits for the {} step, not for the plays",
                    state.round,
                    state.step.name()
                ),
            });
        }
    }
    let hidden = state.rules.stripped_cards == StrippedCards::Hidden;
    if hidden
        && state
            .fighters
            .iter()
            .any(|f| f.discard.iter().any(|d| d.stripped))
    {
        return Err(ForkRefusal::NotASetup {
            why: "a setup's discard is face up, and with stripped_cards=hidden some of its \
                  cards were stripped unseen"
                .into(),
        });
    }
    let players = state
        .fighters
        .iter()
        .map(|f| SetupPlayer {
            deck: None,
            discard: Some(f.discard.iter().map(|d| d.card.to_string()).collect()),
            level: Some(i64::from(f.level)),
            xp: Some(i64::from(f.xp)),
            wounds: Some(i64::from(f.wounds)),
            stamina: Some(i64::from(f.stamina)),
            combat_dice: Some(f.combat_dice.iter().map(|&d| i64::from(d)).collect()),
        })
        .collect();
    Ok(Settings {
        seed: None,
        dice: None,
        setup: Some(Setup {
            round: Some(state.round),
            players: Some(players),
        }),
        ..settings.clone()
    })
}
