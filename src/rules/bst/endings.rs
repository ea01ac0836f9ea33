//! The end of a turn and of the game: revive (T12, A20), KO checks (§2.2, A13, A14), the end
//! of turn (T14, A21) and the HP comparison of pool exhaustion and the round cap (L138, A15).

use super::engine::Run;
use super::events::BstEvent;
use super::state::{EndReason, Finish, State};
use crate::rules::Seat;

impl Run<'_> {
    pub(super) fn revive(&mut self) {
        for seat in State::SEATS {
            let p = &mut self.s.players[seat.0];
            if p.revive_pending {
                p.revive_pending = false;
                p.hp = 5;
                p.charges = 0;
                p.revived_this_turn = true;
                self.log(BstEvent::Revived {
                    player: self.who(seat),
                });
            }
        }
    }

    pub(super) fn ko_check(&mut self) {
        let down: Vec<Seat> = State::SEATS
            .into_iter()
            .filter(|p| self.s.players[p.0].hp <= 0 && !self.s.players[p.0].revive_pending)
            .collect();
        for &p in &down {
            let hp = self.s.players[p.0].hp;
            self.log(BstEvent::KnockedOut {
                player: self.who(p),
                hp,
            });
        }
        match down.as_slice() {
            [] => {}
            [loser] => self.finish(vec![State::other(*loser)], EndReason::KnockOut),
            [_, _, ..] => self.finish(vec![], EndReason::DoubleKnockOut),
        }
    }

    pub(super) fn end_turn(&mut self) {
        for p in &mut self.s.players {
            p.free_turn = p.revived_this_turn;
            p.revived_this_turn = false;
        }
        self.s.turn = Default::default();
        // The host's stall cap, or ROUND_LIMIT when the host set none: the round counter
        // never runs on without end.
        if self.s.round >= self.s.max_rounds.unwrap_or(crate::rules::ROUND_LIMIT) {
            self.finish_by_hp(EndReason::RoundCap);
        } else {
            self.s.round += 1;
        }
    }

    /// Ends the game on current HP: the higher wins, equal is a tie (L138, A15).
    pub fn finish_by_hp(&mut self, reason: EndReason) {
        let [a, b] = [self.s.players[0].hp, self.s.players[1].hp];
        let winners = match a.cmp(&b) {
            std::cmp::Ordering::Greater => vec![Seat(0)],
            std::cmp::Ordering::Less => vec![Seat(1)],
            std::cmp::Ordering::Equal => vec![],
        };
        self.finish(winners, reason);
    }

    fn finish(&mut self, winners: Vec<Seat>, reason: EndReason) {
        self.log(BstEvent::GameOver {
            winners: winners.iter().map(|&w| self.who(w)).collect(),
            reason,
            hp: [self.s.players[0].hp, self.s.players[1].hp],
        });
        self.s.finish = Some(Finish { winners, reason });
        self.s.pending = None;
        self.s.ops.clear();
    }
}
