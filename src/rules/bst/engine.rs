//! The turn sequence runner: pops automatic phases (T1-T14) until a step needs an answer,
//! with the shared primitives every effect uses (draw, damage, heal, statuses, end checks).

use super::causes::{ChargeCause, DamageSource, HealSource, OffBalanceSource, PoisonSource};
use super::characters::Character;
use super::events::{BstEvent, DiscardWhy, Part};
use super::matrix::Verdict;
use super::moves::Move;
use super::state::{EndReason, Op, Pending, PlayerRef, State};
use super::tokens::Token;
use crate::rules::Seat;

/// The hand limit (L138).
pub const HAND_LIMIT: usize = 9;
/// The Charge cap (L139).
pub const CHARGE_CAP: u8 = 5;

/// A resolution in progress: the state being advanced and the events it has produced.
pub struct Run<'a> {
    /// The state, advanced in place.
    pub s: &'a mut State,
    /// The events so far.
    pub events: Vec<BstEvent>,
}

impl<'a> Run<'a> {
    /// Starts a run over `s`.
    pub fn new(s: &'a mut State) -> Run<'a> {
        Run {
            s,
            events: Vec::new(),
        }
    }

    /// The log reference of a seat.
    pub fn who(&self, seat: Seat) -> PlayerRef {
        self.s.players[seat.0].who.clone()
    }

    /// Records an event.
    pub fn log(&mut self, e: BstEvent) {
        self.events.push(e);
    }

    /// Puts `ops` at the front of the queue, keeping their order.
    pub fn push_front(&mut self, ops: impl IntoIterator<Item = Op, IntoIter: DoubleEndedIterator>) {
        for op in ops.into_iter().rev() {
            self.s.ops.push_front(op);
        }
    }

    /// Runs automatic phases until a step waits for answers or the game ends.
    pub fn advance(&mut self) {
        while self.s.pending.is_none() && self.s.finish.is_none() {
            let op = self.s.ops.pop_front().unwrap_or(Op::BeginTurn);
            self.exec(op);
        }
    }

    fn exec(&mut self, op: Op) {
        match op {
            Op::BeginTurn => {
                self.log(BstEvent::TurnBegan {
                    round: self.s.round,
                });
                self.push_front([
                    Op::Draw(Seat(0)),
                    Op::Draw(Seat(1)),
                    Op::CheckOverflow,
                    Op::Poison,
                    Op::KoCheck,
                    Op::PrePlay,
                    Op::AskPlay,
                ]);
            }
            Op::Draw(seat) => self.draw(seat),
            Op::EndExhausted => {
                self.log(BstEvent::PoolExhausted);
                self.finish_by_hp(EndReason::PoolExhausted);
            }
            Op::CheckOverflow => {
                let seats: Vec<Seat> = State::SEATS
                    .into_iter()
                    .filter(|p| self.s.players[p.0].hand.len() > HAND_LIMIT)
                    .collect();
                if !seats.is_empty() {
                    self.s.pending = Some(Pending::Overflow { seats });
                }
            }
            Op::Poison => self.poison_damage(),
            Op::KoCheck | Op::ReviveAndKo => {
                if op == Op::ReviveAndKo {
                    self.revive();
                }
                self.ko_check();
            }
            Op::PrePlay => self.pre_play(),
            Op::AskPlay => self.s.pending = Some(Pending::Play),
            Op::OfferBuyBack => self.offer_buy_back(),
            Op::RemoveOffBalance => {
                let players: Vec<PlayerRef> = State::SEATS
                    .into_iter()
                    .filter(|p| self.s.players[p.0].off_balance)
                    .map(|p| self.who(p))
                    .collect();
                for p in &mut self.s.players {
                    p.off_balance = false;
                }
                if !players.is_empty() {
                    self.log(BstEvent::OffBalanceRemoved { players });
                }
            }
            Op::Effects => self.effects(),
            Op::AskFollowUp(seat) => self.ask_follow_up(seat),
            Op::AskSurge(seat) => {
                if self.s.players[seat.0].can_afford(1) {
                    self.s.pending = Some(Pending::PowerSurge { seat });
                }
            }
            Op::AskFinishing(seat) => {
                if !self.s.players[seat.0].hand.is_empty() {
                    self.s.pending = Some(Pending::FinishingExtras { seat });
                }
            }
            Op::AskParry(seat) => self.ask_parry(seat),
            Op::AskEvasion(seat) => {
                if !self.s.discard.is_empty() {
                    self.s.pending = Some(Pending::EvasionPick { seat });
                }
            }
            Op::AskSteal => self.ask_steal(),
            Op::ClearTable => {
                let tokens: Vec<Token> = self
                    .s
                    .turn
                    .table
                    .iter_mut()
                    .filter_map(Option::take)
                    .collect();
                if !tokens.is_empty() {
                    self.s.discard.extend(tokens.iter().copied());
                    self.log(BstEvent::TableCleared { tokens });
                }
            }
            Op::AskGather => {
                let seats: Vec<Seat> = State::SEATS
                    .into_iter()
                    .filter(|p| has_pair(&self.s.players[p.0].hand))
                    .collect();
                if !seats.is_empty() {
                    self.s.pending = Some(Pending::GatherPower { seats });
                }
            }
            Op::EndTurn => self.end_turn(),
        }
    }

    /// Draws the pool's next token for `seat`; if that empties the pool, the game ends once
    /// any overflow the draw caused is settled (T1, A15).
    pub fn draw(&mut self, seat: Seat) {
        let Some(token) = self.s.pool.pop_front() else {
            return;
        };
        self.s.players[seat.0].hand.push(token);
        let player = self.who(seat);
        self.log(BstEvent::Drew {
            player: player.clone(),
            seat,
            token,
        });
        self.log(BstEvent::DrewCount {
            player,
            hand_size: self.s.players[seat.0].hand.len(),
            pool_size: self.s.pool.len(),
        });
        self.check_pool();
    }

    /// If the pool is empty, the game ends after any pending overflow (A15).
    pub fn check_pool(&mut self) {
        if self.s.pool.is_empty() {
            self.push_front([Op::CheckOverflow, Op::EndExhausted]);
        }
    }

    /// Deals damage as a sum of parts (never below 0), marking a Warpriest's pending revive
    /// when it takes him to 0 HP or less while he holds 5 Charges (A20).
    pub fn damage(&mut self, by: Seat, to: Seat, source: DamageSource, parts: Vec<Part>) {
        let total = parts.iter().map(|p| p.amount).sum::<i32>().max(0);
        self.hurt(to, total);
        self.log(BstEvent::Damage {
            by: self.who(by),
            to: self.who(to),
            source,
            parts,
            total,
            hp: self.s.players[to.0].hp,
        });
    }

    fn hurt(&mut self, to: Seat, amount: i32) {
        let p = &mut self.s.players[to.0];
        p.hp -= amount;
        if p.character == Character::Warpriest && p.hp <= 0 && p.charges == CHARGE_CAP {
            p.revive_pending = true;
        }
    }

    /// Heals up to the starting HP; every heal event removes one poison counter even when the
    /// cap absorbs it (A22, A23).
    pub fn heal(&mut self, seat: Seat, amount: i32, source: HealSource) {
        let p = &mut self.s.players[seat.0];
        let before = p.hp;
        p.hp = (p.hp + amount).min(p.character.start_hp()).max(before);
        let (gained, hp) = (p.hp - before, p.hp);
        self.log(BstEvent::Healed {
            player: self.who(seat),
            amount: gained,
            hp,
            source,
        });
        self.remove_poison(seat);
    }

    /// Removes one poison counter, if any (A23).
    pub fn remove_poison(&mut self, seat: Seat) {
        if self.s.players[seat.0].poison > 0 {
            self.s.players[seat.0].poison -= 1;
            let counters = self.s.players[seat.0].poison;
            self.log(BstEvent::PoisonRemoved {
                player: self.who(seat),
                counters,
            });
        }
    }

    /// Adds a poison counter (L300, L314).
    pub fn poison(&mut self, seat: Seat, source: PoisonSource) {
        self.s.players[seat.0].poison += 1;
        let counters = self.s.players[seat.0].poison;
        self.log(BstEvent::Poisoned {
            player: self.who(seat),
            counters,
            source,
        });
    }

    /// Sets Off-Balance; if both players are then Off-Balance, both are cleared (L188, A18).
    pub fn set_off_balance(&mut self, seat: Seat, source: OffBalanceSource) {
        self.s.players[seat.0].off_balance = true;
        self.log(BstEvent::OffBalanceSet {
            player: self.who(seat),
            source,
        });
        if self.s.players.iter().all(|p| p.off_balance) {
            for p in &mut self.s.players {
                p.off_balance = false;
            }
            self.log(BstEvent::OffBalanceCancelled);
        }
    }

    /// Changes Charges by `change` within 0-5 (L139); a gain returns a set-aside Piercing
    /// Strike at once (A28).
    pub fn charges(&mut self, seat: Seat, change: i32, why: ChargeCause) {
        let p = &mut self.s.players[seat.0];
        let before = i32::from(p.charges);
        p.charges = u8::try_from((before + change).clamp(0, i32::from(CHARGE_CAP))).unwrap_or(0);
        let (delta, now) = (i32::from(p.charges) - before, p.charges);
        self.log(BstEvent::Charges {
            player: self.who(seat),
            change: delta,
            charges: now,
            why,
        });
        if now >= 1 && self.s.players[seat.0].piercing_set_aside {
            self.s.players[seat.0].piercing_set_aside = false;
            self.log(BstEvent::PiercingReturned {
                player: self.who(seat),
            });
        }
    }

    /// Moves `tokens` from a hand to the discard pile, face up. The caller has checked that
    /// the hand holds them.
    pub fn discard_from_hand(&mut self, seat: Seat, tokens: &[Token], why: DiscardWhy) {
        super::tokens::take_all(&mut self.s.players[seat.0].hand, tokens);
        self.s.discard.extend(tokens.iter().copied());
        self.log(BstEvent::Discarded {
            player: self.who(seat),
            tokens: tokens.to_vec(),
            why,
        });
    }

    fn poison_damage(&mut self) {
        for seat in State::SEATS {
            let counters = self.s.players[seat.0].poison;
            if counters > 0 {
                let damage = 2 * i32::try_from(counters).unwrap_or(i32::MAX / 2);
                self.hurt(seat, damage);
                let hp = self.s.players[seat.0].hp;
                self.log(BstEvent::PoisonDamage {
                    player: self.who(seat),
                    counters,
                    damage,
                    hp,
                });
            }
        }
    }

    fn pre_play(&mut self) {
        for seat in State::SEATS {
            let p = &mut self.s.players[seat.0];
            if p.piercing_set_aside && p.charges >= 1 {
                p.piercing_set_aside = false;
                self.log(BstEvent::PiercingReturned {
                    player: self.who(seat),
                });
            }
        }
        let seats: Vec<Seat> = State::SEATS
            .into_iter()
            .filter(|&c| {
                let opp = &self.s.players[State::other(c).0];
                self.s.players[c.0].character == Character::Channeler
                    && opp.charges == 0
                    && !opp.piercing_set_aside
            })
            .collect();
        if !seats.is_empty() {
            self.s.pending = Some(Pending::SetAside { seats });
        }
    }

    fn offer_buy_back(&mut self) {
        let Some(j) = &self.s.turn.judgement else {
            return;
        };
        let Some(plays) = self.s.turn.plays else {
            return;
        };
        if let (Verdict::Won { winner }, super::matrix::Reason::LowerNumber { .. }) =
            (&j.verdict, &j.reason)
        {
            let loser = State::other(*winner);
            let sentinel = &self.s.players[loser.0];
            if sentinel.character == Character::Sentinel
                && buy_back_tokens(&sentinel.hand, plays[loser.0].token).len() >= 2
            {
                self.s.pending = Some(Pending::BuyTiebreak { seat: loser });
            }
        }
    }

    fn ask_follow_up(&mut self, seat: Seat) {
        let p = &self.s.players[seat.0];
        let pool_ok = p.character == Character::Assassin && !self.s.pool.is_empty();
        if p.character != Character::Sentinel && (!p.hand.is_empty() || pool_ok) {
            self.s.pending = Some(Pending::FollowUp { seat });
        }
    }

    fn ask_parry(&mut self, seat: Seat) {
        let loser = State::other(seat);
        let hand = self.s.players[loser.0].hand.clone();
        if !hand.is_empty() {
            self.log(BstEvent::HandRevealed {
                player: self.who(loser),
                hand,
            });
            self.s.pending = Some(Pending::ParryPick { seat });
        }
    }

    fn ask_steal(&mut self) {
        let seats: Vec<Seat> = State::SEATS
            .into_iter()
            .filter(|&c| self.can_steal(c))
            .collect();
        if !seats.is_empty() {
            self.s.pending = Some(Pending::ChannelerSteal { seats });
        }
    }

    /// Whether `seat` is a Channeler who won with Power-up this turn and whose opponent holds
    /// a Charge to take (A27).
    pub fn can_steal(&self, seat: Seat) -> bool {
        let won = match self.s.turn.judgement.as_ref().map(|j| j.verdict) {
            Some(Verdict::Won { winner }) => winner == seat,
            Some(Verdict::BothWon) => true,
            Some(Verdict::BothLost) | None => false,
        };
        let played_power_up = self
            .s
            .turn
            .plays
            .is_some_and(|p| p[seat.0].actual == Move::PowerUp);
        self.s.players[seat.0].character == Character::Channeler
            && won
            && played_power_up
            && self.s.players[State::other(seat).0].charges >= 1
    }
}

/// Whether a hand holds two tokens of the same number (Gather Power, L187).
pub fn has_pair(hand: &[Token]) -> bool {
    hand.iter()
        .enumerate()
        .any(|(i, a)| hand[i + 1..].iter().any(|b| b.number() == a.number()))
}

/// The hand tokens that may pay the Sentinel's buy-back for a played token: those matching its
/// colour, Wildcards matching any (A2, A39).
pub fn buy_back_tokens(hand: &[Token], played: Token) -> Vec<Token> {
    hand.iter()
        .copied()
        .filter(|t| t.matches_colour_of(played))
        .collect()
}
