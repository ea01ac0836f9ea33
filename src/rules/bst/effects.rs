//! T10: the win effects of every move, colour bonuses and character changes (§3.2-§3.5,
//! A3-A6, A12, A26, A29-A31).

use super::causes::{ChargeCause, DamageSource, HealSource, OffBalanceSource, PoisonSource, Term};
use super::characters::Character;
use super::engine::Run;
use super::events::{BstEvent, Part};
use super::matrix::Verdict;
use super::moves::Move;
use super::state::{Op, State};
use super::tokens::Token;
use crate::rules::Seat;

fn part(label: Term, amount: i32) -> Part {
    Part { label, amount }
}

impl Run<'_> {
    /// T10: resolves the exchange's win effects: one winner in printed order, both winners in
    /// lockstep (A12), both losers nothing (L176).
    pub fn effects(&mut self) {
        let Some(judgement) = self.s.turn.judgement.clone() else {
            return;
        };
        match judgement.verdict {
            Verdict::Won { winner } => self.single_win(winner),
            Verdict::BothWon => self.mirror_win(),
            Verdict::BothLost => self.log(BstEvent::NothingHappens),
        }
    }

    /// The primary damage of a winning Strike, with its arithmetic: the base, the Red bonus
    /// (A3, A4) and the character changes (Sentinel Piercing +3, Channeler Dashing bonus A11,
    /// Channeler Standard -2 A29).
    pub fn strike_parts(&self, seat: Seat, strike: Move, token: Token) -> Vec<Part> {
        let ch = self.s.players[seat.0].character;
        let mut parts = match strike {
            Move::PiercingStrike => vec![part(Term::PiercingBase, 5)],
            Move::LightningStrike => vec![part(Term::LightningBase, 7)],
            Move::StandardStrike
            | Move::DashingStrike
            | Move::FinishingStrike
            | Move::Guard
            | Move::Parry
            | Move::CounterAttack
            | Move::Evasion
            | Move::PowerUp => vec![part(Term::Token { token }, token.value())],
        };
        if token.is_red() {
            parts.push(part(Term::RedBonus, 2));
        }
        if ch == Character::Sentinel && strike == Move::PiercingStrike {
            parts.push(part(Term::SentinelPiercing, 3));
        }
        if ch == Character::Channeler && strike == Move::DashingStrike {
            let held = i32::from(self.s.players[seat.0].charges);
            parts.push(part(Term::ChannelerCharges, held));
        }
        if ch == Character::Channeler && strike == Move::StandardStrike {
            parts.push(part(Term::ChannelerStandard, -2));
        }
        parts
    }

    /// The Strike's damage and statuses, without its optional parts (shared by single wins
    /// and ties, A6).
    fn strike_hits(&mut self, seat: Seat, strike: Move, token: Token) {
        let opp = State::other(seat);
        let parts = self.strike_parts(seat, strike, token);
        self.damage(seat, opp, DamageSource::Win { tile: strike }, parts);
        match strike {
            Move::PiercingStrike => self.set_off_balance(opp, OffBalanceSource::PiercingStrike),
            Move::DashingStrike => self.set_off_balance(opp, OffBalanceSource::DashingStrike),
            Move::LightningStrike => {
                if self.s.players[seat.0].character == Character::Razorbeast {
                    self.poison(opp, PoisonSource::RazorbeastLightning);
                }
            }
            Move::StandardStrike
            | Move::FinishingStrike
            | Move::Guard
            | Move::Parry
            | Move::CounterAttack
            | Move::Evasion
            | Move::PowerUp => {}
        }
    }

    /// A winning Defense's Blue heal (L183; the Razorbeast's Counter-Attack too, L315).
    fn blue_heal(&mut self, seat: Seat, token: Token, defense: Move) {
        if token.is_blue() {
            self.heal(seat, 1, HealSource::BlueDefense { tile: defense });
        }
    }

    fn single_win(&mut self, w: Seat) {
        let Some(plays) = self.s.turn.plays else {
            return;
        };
        let l = State::other(w);
        let (mv, token) = (plays[w.0].actual, plays[w.0].token);
        let ch = self.s.players[w.0].character;
        match mv {
            Move::StandardStrike => {
                self.strike_hits(w, mv, token);
                self.push_front([Op::Draw(w), Op::CheckOverflow, Op::AskFollowUp(w)]);
            }
            Move::PiercingStrike | Move::DashingStrike | Move::LightningStrike => {
                self.strike_hits(w, mv, token);
                self.push_front([Op::AskSurge(w)]);
            }
            Move::FinishingStrike => {
                self.strike_hits(w, mv, token);
                self.push_front([Op::AskFinishing(w)]);
            }
            Move::Guard => {
                self.blue_heal(w, token, mv);
                self.s.turn.table[w.0] = None;
                self.s.players[w.0].hand.push(token);
                self.log(BstEvent::TokenReturned {
                    player: self.who(w),
                    token,
                });
                if plays[l.0].actual == Move::CounterAttack {
                    // The special Follow-up comes after the draw and its overflow (A32).
                    self.push_front([Op::Draw(w), Op::CheckOverflow, Op::AskFollowUp(w)]);
                } else {
                    self.push_front([Op::Draw(w), Op::CheckOverflow]);
                }
            }
            Move::CounterAttack => {
                self.blue_heal(w, token, mv);
                let mut parts = vec![part(Term::HalfOf { token }, token.value() / 2)];
                match ch {
                    Character::Assassin => {
                        parts = vec![part(Term::AssassinCounter, 0)];
                    }
                    Character::Razorbeast if token.is_red() => {
                        parts.push(part(Term::RazorbeastRedBonus, 2));
                    }
                    Character::Razorbeast
                    | Character::Sellsword
                    | Character::Sentinel
                    | Character::Warpriest
                    | Character::Channeler => {}
                }
                self.damage(w, l, DamageSource::Win { tile: mv }, parts);
                match ch {
                    Character::Assassin => self.poison(l, PoisonSource::AssassinCounter),
                    Character::Razorbeast => self.poison(l, PoisonSource::RazorbeastCounter),
                    Character::Sellsword
                    | Character::Sentinel
                    | Character::Warpriest
                    | Character::Channeler => {}
                }
            }
            Move::Parry => {
                self.blue_heal(w, token, mv);
                self.damage(
                    w,
                    l,
                    DamageSource::Win { tile: mv },
                    vec![part(Term::Parry, 6)],
                );
                self.set_off_balance(l, OffBalanceSource::Parry);
                self.push_front([Op::AskParry(w)]);
            }
            Move::Evasion => {
                self.blue_heal(w, token, mv);
                let paid = i32::from(plays[w.0].paid);
                if paid > 0 {
                    self.charges(w, paid, ChargeCause::EvasionRefund);
                }
                self.push_front([Op::AskEvasion(w), Op::CheckOverflow]);
            }
            Move::PowerUp => {
                self.power_up_gain(w);
                let mut ops = vec![Op::AskSteal];
                if token.is_yellow() {
                    ops.extend([Op::Draw(w), Op::CheckOverflow]);
                }
                self.push_front(ops);
            }
        }
    }

    fn power_up_gain(&mut self, seat: Seat) {
        let gain = if self.s.players[seat.0].character == Character::Assassin {
            1
        } else {
            2
        };
        self.charges(seat, gain, ChargeCause::PowerUp);
    }

    /// Both players won with the same move: resolve in lockstep, with no optional effects in
    /// Strike ties (A5, A6, A12, A31).
    fn mirror_win(&mut self) {
        let Some(plays) = self.s.turn.plays else {
            return;
        };
        match plays[0].actual {
            Move::StandardStrike
            | Move::PiercingStrike
            | Move::DashingStrike
            | Move::LightningStrike
            | Move::FinishingStrike => {
                let mv = plays[0].actual;
                let parts = State::SEATS.map(|s| self.strike_parts(s, mv, plays[s.0].token));
                for (seat, parts) in State::SEATS.into_iter().zip(parts) {
                    self.damage(
                        seat,
                        State::other(seat),
                        DamageSource::Win { tile: mv },
                        parts,
                    );
                }
                for seat in State::SEATS {
                    let opp = State::other(seat);
                    match mv {
                        Move::PiercingStrike => {
                            self.set_off_balance(opp, OffBalanceSource::PiercingStrike)
                        }
                        Move::DashingStrike => {
                            self.set_off_balance(opp, OffBalanceSource::DashingStrike)
                        }
                        Move::LightningStrike
                            if self.s.players[seat.0].character == Character::Razorbeast =>
                        {
                            self.poison(opp, PoisonSource::RazorbeastLightning)
                        }
                        Move::LightningStrike
                        | Move::StandardStrike
                        | Move::FinishingStrike
                        | Move::Guard
                        | Move::Parry
                        | Move::CounterAttack
                        | Move::Evasion
                        | Move::PowerUp => {}
                    }
                }
                if mv == Move::StandardStrike {
                    self.push_front([Op::Draw(Seat(0)), Op::Draw(Seat(1)), Op::CheckOverflow]);
                }
            }
            Move::Guard => {
                for (seat, play) in State::SEATS.into_iter().zip(&plays) {
                    self.blue_heal(seat, play.token, Move::Guard);
                }
                for (seat, play) in State::SEATS.into_iter().zip(&plays) {
                    let token = play.token;
                    self.s.turn.table[seat.0] = None;
                    self.s.players[seat.0].hand.push(token);
                    self.log(BstEvent::TokenReturned {
                        player: self.who(seat),
                        token,
                    });
                }
                self.push_front([Op::Draw(Seat(0)), Op::Draw(Seat(1)), Op::CheckOverflow]);
            }
            Move::PowerUp => {
                for seat in State::SEATS {
                    self.power_up_gain(seat);
                }
                let mut ops = vec![Op::AskSteal];
                for (seat, play) in State::SEATS.into_iter().zip(&plays) {
                    if play.token.is_yellow() {
                        ops.push(Op::Draw(seat));
                    }
                }
                ops.push(Op::CheckOverflow);
                self.push_front(ops);
            }
            // No other move can win on both sides (§1.1: only TB, TB-S and W= cells).
            Move::Parry | Move::CounterAttack | Move::Evasion => {}
        }
    }
}
