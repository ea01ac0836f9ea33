//! Applying the answers of a step: the reveal (T5-T8) after `play`, and every decision of
//! §2.3 (overflow, set-aside, buy-back, Follow-up, Surge, Finishing extras, Parry and Evasion
//! picks, Channeler steal, Gather Power).

use super::causes::{ChargeCause, DamageSource, HealSource, OffBalanceSource, Term};
use super::characters::Character;
use super::engine::Run;
use super::events::{BstEvent, DiscardWhy, Part};
use super::legality::illegal_reason;
use super::matrix::{Judgement, Reason, Verdict, judge};
use super::moves::Move;
use super::orders::Order;
use super::state::{Op, Pending, Play, State};
use super::tokens::Token;
use crate::rules::Seat;

impl Run<'_> {
    /// Applies the answers to `pending` (one per owed seat, seat order).
    pub fn apply(&mut self, pending: &Pending, orders: &[(Seat, Order)]) {
        for (seat, order) in orders {
            if *order == Order::Decline {
                self.log(BstEvent::Declined {
                    player: self.who(*seat),
                    step: pending.step(),
                });
            }
        }
        match pending {
            Pending::Play => self.reveal(orders),
            Pending::Overflow { .. } => {
                for (seat, order) in orders {
                    if let Order::Tokens { tokens } = order {
                        self.discard_from_hand(*seat, tokens, DiscardWhy::Overflow);
                    }
                }
            }
            Pending::SetAside { .. } => {
                for (seat, order) in orders {
                    let opp = State::other(*seat);
                    if *order == Order::Accept && !self.s.players[opp.0].piercing_set_aside {
                        self.s.players[opp.0].piercing_set_aside = true;
                        self.log(BstEvent::PiercingSetAside {
                            by: self.who(*seat),
                            player: self.who(opp),
                        });
                    }
                }
            }
            Pending::BuyTiebreak { seat } => {
                if let Some((_, Order::Tokens { tokens })) = orders.first() {
                    self.discard_from_hand(*seat, tokens, DiscardWhy::BuyBack);
                    let judgement = Judgement {
                        verdict: Verdict::Won { winner: *seat },
                        reason: Reason::BuyBack { sentinel: *seat },
                    };
                    self.log(BstEvent::Exchange {
                        verdict: judgement.verdict,
                        winners: vec![self.who(*seat)],
                        reason: judgement.reason.clone(),
                    });
                    self.s.turn.judgement = Some(judgement);
                }
            }
            Pending::FollowUp { seat } => match orders.first().map(|o| &o.1) {
                Some(Order::Token { token }) => {
                    self.discard_from_hand(*seat, &[*token], DiscardWhy::FollowUp);
                    self.follow_up_hit(*seat, *token);
                }
                Some(Order::RandomPool) => {
                    if let Some(token) = self.s.pool.pop_front() {
                        self.log(BstEvent::PoolTokenRevealed {
                            player: self.who(*seat),
                            token,
                        });
                        self.s.discard.push(token);
                        self.follow_up_hit(*seat, token);
                        self.check_pool();
                    }
                }
                Some(
                    Order::Play { .. } | Order::Accept | Order::Decline | Order::Tokens { .. },
                )
                | None => {}
            },
            Pending::PowerSurge { seat } => {
                if matches!(orders.first(), Some((_, Order::Accept))) {
                    self.surge(*seat);
                }
            }
            Pending::FinishingExtras { seat } => {
                if let Some((_, Order::Tokens { tokens })) = orders.first() {
                    self.discard_from_hand(*seat, tokens, DiscardWhy::FinishingExtras);
                    let parts = tokens
                        .iter()
                        .map(|&token| Part {
                            label: Term::Extra { token },
                            amount: token.value(),
                        })
                        .collect();
                    self.damage(
                        *seat,
                        State::other(*seat),
                        DamageSource::FinishingExtras,
                        parts,
                    );
                }
            }
            Pending::ParryPick { seat } => {
                if let Some((_, Order::Token { token })) = orders.first() {
                    self.discard_from_hand(State::other(*seat), &[*token], DiscardWhy::Parry);
                }
            }
            Pending::EvasionPick { seat } => {
                if let Some((_, Order::Token { token })) = orders.first()
                    && let Some(i) = self.s.discard.iter().position(|t| t == token)
                {
                    self.s.discard.remove(i);
                    self.s.players[seat.0].hand.push(*token);
                    self.log(BstEvent::TookFromDiscard {
                        player: self.who(*seat),
                        token: *token,
                    });
                }
            }
            Pending::ChannelerSteal { .. } => {
                // Both gains were applied before any steal (A27).
                for (seat, order) in orders {
                    if *order == Order::Accept {
                        self.charges(State::other(*seat), -1, ChargeCause::ChannelerSteal);
                    }
                }
            }
            Pending::GatherPower { .. } => {
                for (seat, order) in orders {
                    if let Order::Tokens { tokens } = order {
                        self.gather(*seat, tokens);
                    }
                }
            }
        }
    }

    /// T5-T8: reveal, replace illegal moves, pay costs, judge; then queue T8-T14.
    fn reveal(&mut self, orders: &[(Seat, Order)]) {
        let mut submitted = [(Move::Guard, None::<Token>); 2];
        for (seat, order) in orders {
            if let Order::Play { tile, token } = order {
                submitted[seat.0] = (*tile, Some(*token));
            }
        }
        let mut plays = [None::<Play>; 2];
        for (seat, (tile, token)) in State::SEATS.into_iter().zip(submitted) {
            let Some(token) = token else { continue };
            super::tokens::take_all(&mut self.s.players[seat.0].hand, &[token]);
            self.s.turn.table[seat.0] = Some(token);
            self.log(BstEvent::Revealed {
                player: self.who(seat),
                chosen: tile,
                token,
            });
            plays[seat.0] = Some(Play {
                chosen: tile,
                actual: tile,
                token,
                paid: 0,
            });
        }
        let [Some(mut a), Some(mut b)] = plays else {
            return;
        };
        for (seat, play) in [(Seat(0), &mut a), (Seat(1), &mut b)] {
            if let Some(reason) = illegal_reason(self.s, seat, play.chosen) {
                play.actual = play.chosen.replacement();
                self.log(BstEvent::Replaced {
                    player: self.who(seat),
                    from: play.chosen,
                    to: play.actual,
                    reason,
                });
            }
        }
        for (seat, play) in [(Seat(0), &mut a), (Seat(1), &mut b)] {
            let cost = self.s.players[seat.0].character.cost(play.actual);
            if cost > 0 {
                play.paid = self.s.players[seat.0].spend(cost);
                let charges = self.s.players[seat.0].charges;
                self.log(BstEvent::Paid {
                    player: self.who(seat),
                    paid_for: play.actual,
                    cost: play.paid,
                    charges,
                });
            }
        }
        let off_balance = [self.s.players[0].off_balance, self.s.players[1].off_balance];
        let judgement = judge([a.actual, b.actual], [a.token, b.token], off_balance);
        let winners = match judgement.verdict {
            Verdict::Won { winner } => vec![self.who(winner)],
            Verdict::BothWon => vec![self.who(Seat(0)), self.who(Seat(1))],
            Verdict::BothLost => vec![],
        };
        self.log(BstEvent::Exchange {
            verdict: judgement.verdict,
            winners,
            reason: judgement.reason.clone(),
        });
        self.s.turn.plays = Some([a, b]);
        self.s.turn.judgement = Some(judgement);
        self.push_front([
            Op::OfferBuyBack,
            Op::RemoveOffBalance,
            Op::Effects,
            Op::ClearTable,
            Op::ReviveAndKo,
            Op::AskGather,
            Op::EndTurn,
        ]);
    }

    /// A Follow-up: half the token, rounded down, with no colour bonus (L209, A4); an
    /// Assassin's Red/Wild Follow-up sets Off-Balance (L299, A39).
    fn follow_up_hit(&mut self, seat: Seat, token: Token) {
        let opp = State::other(seat);
        let parts = vec![Part {
            label: Term::HalfOf { token },
            amount: token.value() / 2,
        }];
        self.damage(seat, opp, DamageSource::FollowUp, parts);
        if self.s.players[seat.0].character == Character::Assassin && token.is_red() {
            self.set_off_balance(opp, OffBalanceSource::AssassinRedFollowUp);
        }
    }

    /// A Power Surge: 1 Charge (free on a free turn) for +4 Piercing, +6 Dashing, or +3 and
    /// Off-Balance for Lightning (L215, L222, L230, A10, A21).
    fn surge(&mut self, seat: Seat) {
        let Some(plays) = self.s.turn.plays else {
            return;
        };
        let paid = self.s.players[seat.0].spend(1);
        let charges = self.s.players[seat.0].charges;
        let why = if paid == 0 {
            ChargeCause::FreePowerSurge
        } else {
            ChargeCause::PowerSurge
        };
        self.log(BstEvent::Charges {
            player: self.who(seat),
            change: -i32::from(paid),
            charges,
            why,
        });
        let opp = State::other(seat);
        let bonus = match plays[seat.0].actual {
            Move::PiercingStrike => 4,
            Move::DashingStrike => 6,
            Move::LightningStrike => 3,
            Move::StandardStrike
            | Move::FinishingStrike
            | Move::Guard
            | Move::Parry
            | Move::CounterAttack
            | Move::Evasion
            | Move::PowerUp => 0,
        };
        self.damage(
            seat,
            opp,
            DamageSource::PowerSurge,
            vec![Part {
                label: Term::Surge,
                amount: bonus,
            }],
        );
        if plays[seat.0].actual == Move::LightningStrike {
            self.set_off_balance(opp, OffBalanceSource::SurgedLightning);
        }
    }

    /// Gather Power: discard a pair, gain 1 Charge, remove 1 poison; a Warpriest also heals
    /// 2, +1 if either token is Blue/Wild, and that heal is the same poison removal (L187,
    /// L194, L291, A23, A38).
    fn gather(&mut self, seat: Seat, tokens: &[Token]) {
        self.discard_from_hand(seat, tokens, DiscardWhy::GatherPower);
        self.charges(seat, 1, ChargeCause::GatherPower);
        if self.s.players[seat.0].character == Character::Warpriest {
            let amount = if tokens.iter().any(|t| t.is_blue()) {
                3
            } else {
                2
            };
            self.heal(seat, amount, HealSource::WarpriestGather);
        } else {
            self.remove_poison(seat);
        }
    }
}
