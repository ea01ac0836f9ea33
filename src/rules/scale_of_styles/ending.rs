//! The end of the match (rulings §3.2, Rulings 18-23): who is out, the margins, the checks
//! in order, and the victor's XP award.

use std::cmp::Ordering;

use super::events::{Award, EndReason, Event, Exchange};
use super::round::Run;
use super::rulebook::{EndRule, Tiebreak};
use super::state::{End, Fighter, State, Step};
use crate::rules::{ROUND_LIMIT, Seat};

/// The most a Level rises to (T3, Ruling 21).
pub const TOP_LEVEL: u8 = 11;
/// XP per Level (T10).
pub const XP_PER_LEVEL: u32 = 12;

/// The victor's award (T10, Rulings 20 and 21): 1 XP per J, Q and K still in his deck; each
/// 12 XP gives a Level while he is below 11, and the remainder is kept.
pub fn award(f: &Fighter) -> Award {
    let earned = f.deck.iter().filter(|c| c.is_face()).count() as u32;
    let mut total = f.xp.saturating_add(earned);
    let mut level = f.level;
    while total >= XP_PER_LEVEL && level < TOP_LEVEL {
        level += 1;
        total -= XP_PER_LEVEL;
    }
    Award {
        earned,
        level,
        xp: total,
    }
}

/// The winner by margins, the higher winning; none when they are equal (Rulings 19, 22, 23).
fn by_margin(margins: [i64; 2]) -> Option<Seat> {
    match margins[0].cmp(&margins[1]) {
        Ordering::Greater => Some(Seat(0)),
        Ordering::Less => Some(Seat(1)),
        Ordering::Equal => None,
    }
}

/// Ends the match now with `winner` (none: a draw), awarding the victor (Ruling 20).
pub fn finish(
    state: &mut State,
    reason: EndReason,
    winner: Option<Seat>,
    margins: [i64; 2],
) -> Event {
    let award = winner.map(|w| award(&state.fighters[w.0]));
    state.end = Some(End {
        reason,
        winner,
        margins,
        award,
    });
    state.step = Step::Over;
    Event::MatchOver {
        reason,
        winner: winner.map(|w| state.fighters[w.0].who.clone()),
        margins,
        award,
    }
}

/// Each fighter's margin now (§3.2): with `end=deck` the cards left after the play minus
/// the damage received (his deck size if he is not out); with `end=stamina`, stamina minus
/// wounds.
pub fn margins(state: &State, exchange: Option<&Exchange>) -> [i64; 2] {
    [0, 1].map(|i| {
        let f = &state.fighters[i];
        match (state.rules.end, exchange) {
            (EndRule::Deck, Some(x)) => x.left[i] as i64 - i64::from(x.damage[i]),
            (EndRule::Deck, None) => f.deck.len() as i64,
            (EndRule::Stamina, _) => i64::from(f.stamina) - i64::from(f.wounds),
        }
    })
}

impl Run<'_> {
    /// R10: the checks of §3.2 in order, once per round.
    pub(super) fn end_check(&mut self, exchange: Exchange) {
        let rules = self.s.rules;
        let out = [0, 1].map(|i| {
            let f = &self.s.fighters[i];
            match rules.end {
                EndRule::Deck => f.deck.is_empty(),
                EndRule::Stamina => f.wounds >= f.stamina,
            }
        });
        let margins = margins(self.s, Some(&exchange));
        for i in (0..2).filter(|&i| out[i]) {
            self.log(Event::Out {
                player: self.who(Seat(i)),
                margin: margins[i],
            });
        }
        let cap = self.s.max_rounds.unwrap_or(ROUND_LIMIT);
        let decided = match out {
            // Check 1 (T9): exactly one is out, the other wins.
            [true, false] => Some((EndReason::KnockOut, Some(Seat(1)))),
            [false, true] => Some((EndReason::KnockOut, Some(Seat(0)))),
            // Check 2 (Ruling 19): both out.
            [true, true] => Some((
                EndReason::DoubleKnockOut,
                match rules.tiebreak {
                    Tiebreak::Margin => by_margin(margins),
                    Tiebreak::Draw => None,
                },
            )),
            [false, false] => {
                let exhausted = rules.end == EndRule::Stamina
                    && self.s.fighters.iter().any(|f| f.deck.is_empty());
                if exhausted {
                    // Check 3 (Ruling 22): nobody out but a deck ran out.
                    Some((EndReason::DecksExhausted, by_margin(margins)))
                } else if self.s.round >= cap {
                    // Check 4 (Ruling 23): the last round was played; points decide.
                    Some((EndReason::RoundCap, by_margin(margins)))
                } else {
                    None
                }
            }
        };
        if let Some((reason, winner)) = decided {
            let event = finish(self.s, reason, winner, margins);
            self.log(event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PlayerId;
    use crate::rules::scale_of_styles::events::PlayerRef;

    fn fighter(level: u8, xp: u32, deck: &[&str]) -> Fighter {
        Fighter {
            who: PlayerRef {
                id: PlayerId(uuid::Uuid::nil()),
                name: "A".into(),
            },
            level,
            xp,
            stamina: 12,
            wounds: 0,
            combat_dice: [6, 8],
            deck: deck.iter().map(|c| c.parse().unwrap()).collect(),
            discard: Vec::new(),
        }
    }

    #[test]
    fn ruling_20_only_j_q_k_left_in_the_deck_earn_xp() {
        let a = award(&fighter(0, 0, &["KC", "QH", "3S", "JD", "AS", "JK1"]));
        assert_eq!((a.earned, a.level, a.xp), (3, 0, 3));
    }

    #[test]
    fn ruling_21_each_twelve_xp_is_a_level_the_rest_is_kept_and_11_is_the_top() {
        let a = award(&fighter(2, 10, &["KC", "QH", "3S", "JD"]));
        assert_eq!((a.earned, a.level, a.xp), (3, 3, 1), "TC-06");
        let b = award(&fighter(10, 23, &["KC"]));
        assert_eq!(
            (b.level, b.xp),
            (11, 12),
            "the Level stops at 11, XP still accrues"
        );
    }
}
