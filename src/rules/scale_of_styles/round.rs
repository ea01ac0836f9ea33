//! One round, R1-R10 (rulings §3.1): the plan's completion, the play and its reveal, the roll,
//! the card values, the reaction, the scores, the damage and its simultaneous application.

use rand::RngExt;

use super::cards::{Card, plan_deck, reaction_speed};
use super::events::{Event, Exchange, PlayerRef};
use super::orders::Order;
use super::rulebook::{EndRule, InitiativeRule, StrippedCards};
use super::scale::Technique;
use super::state::{Clash, Discarded, Fighter, Side, State, Step};
use crate::rules::{GameRng, Seat};

/// The sides of the 8 dice of a round in R4 order: P1's combat dice, d10, d12, then P2's.
pub fn die_order(fighters: &[Fighter; 2]) -> [u8; 8] {
    let [a, b] = [fighters[0].combat_dice, fighters[1].combat_dice];
    [a[0], a[1], 10, 12, b[0], b[1], 10, 12]
}

/// A fighter's combat values, higher first (R7, Rulings 3 and 10): his two combat dice, or
/// for a Joker the two highest of all four results, by value.
pub fn combat_values(card: Card, dice: [u8; 4]) -> (u8, u8) {
    let mut values: Vec<u8> = match card {
        Card::Joker(_) => dice.to_vec(),
        Card::Suited { .. } => dice[..2].to_vec(),
    };
    values.sort_unstable_by(|a, b| b.cmp(a));
    (values[0], values[1])
}

/// The round's resolver over a state: applies a step's answers and runs on until someone
/// owes an answer or the match is over, logging as it goes.
pub struct Run<'a> {
    pub(super) s: &'a mut State,
    rng: &'a mut GameRng,
    pub(super) events: Vec<Event>,
}

impl<'a> Run<'a> {
    pub fn new(s: &'a mut State, rng: &'a mut GameRng) -> Run<'a> {
        Run {
            s,
            rng,
            events: Vec::new(),
        }
    }

    /// The log so far.
    pub fn into_events(self) -> Vec<Event> {
        self.events
    }

    pub(super) fn who(&self, seat: Seat) -> PlayerRef {
        self.s.fighters[seat.0].who.clone()
    }

    pub(super) fn log(&mut self, event: Event) {
        self.events.push(event);
    }

    /// S-3: each deck becomes its listed cards, then the rest shuffled, P1's first.
    pub fn plan(&mut self, orders: &[(Seat, Order)]) {
        let pack = Card::pack(self.s.rules.jokers.count());
        for seat in [Seat(0), Seat(1)] {
            let listed: &[Card] = orders
                .iter()
                .find_map(|(s, o)| match o {
                    Order::Plan { cards } if *s == seat => Some(cards.as_slice()),
                    Order::Plan { .. } | Order::Play { .. } | Order::Shift { .. } => None,
                })
                .unwrap_or_default();
            self.s.fighters[seat.0].deck = plan_deck(&pack, listed, self.rng);
        }
        self.log(Event::PlansLaid);
        self.s.step = Step::Play;
    }

    /// R2-R6: the played cards (an owed fighter's order, else his top card), the reveal, the
    /// roll and the card values; then the shift step, or with equal Initiatives the scores.
    pub fn play(&mut self, orders: &[(Seat, Order)]) {
        let owed = self.s.owed();
        let played = [Seat(0), Seat(1)].map(|seat| self.played_card(seat, orders));
        for seat in [Seat(0), Seat(1)] {
            let card = played[seat.0];
            let deck = &mut self.s.fighters[seat.0].deck;
            if let Some(at) = deck.iter().position(|c| *c == card) {
                deck.remove(at);
            }
            self.log(Event::Played {
                player: self.who(seat),
                card,
                technique: card.starting_technique(),
                speed: reaction_speed(card, self.s.fighters[seat.0].level, self.s.rules.ace_speed),
                chosen: owed.contains(&seat),
            });
        }
        let dice = self.roll();
        let sides = [0, 1].map(|i| self.side(i, played[i], dice[i]));
        for (i, side) in sides.iter().enumerate() {
            self.log(Event::Rolled {
                player: self.who(Seat(i)),
                dice: side.dice,
                combat_dice: self.s.fighters[i].combat_dice,
                initiative: side.initiative,
            });
        }
        let [a, b] = [sides[0].initiative, sides[1].initiative];
        if a == b {
            self.log(Event::EqualInitiative { initiative: a });
            let finals = [sides[0].start, sides[1].start];
            self.finish_round(&sides, finals);
            return;
        }
        let reactor = if a > b { Seat(0) } else { Seat(1) };
        let clash = Clash {
            sides,
            reactor,
            diff: a.abs_diff(b),
        };
        self.log(Event::Reacts {
            player: self.who(reactor),
            diff: clash.diff,
            from: clash.sides[reactor.0].start,
            legal: clash.legal(),
        });
        self.s.step = Step::Shift(clash);
    }

    /// R2: the card `seat` plays: his order's card if it is in his window, else his top
    /// card (Ruling 24; the only card of a one-card window).
    fn played_card(&self, seat: Seat, orders: &[(Seat, Order)]) -> Card {
        let window = self.s.window(seat);
        let chosen = orders.iter().find_map(|(s, o)| match o {
            Order::Play { card } if *s == seat && window.contains(card) => Some(*card),
            Order::Play { .. } | Order::Plan { .. } | Order::Shift { .. } => None,
        });
        chosen.unwrap_or(window[0])
    }

    /// R6's answer: the reactor's final technique (a missing answer keeps his start).
    pub fn shift(&mut self, orders: &[(Seat, Order)]) {
        let Step::Shift(clash) = self.s.step.clone() else {
            return;
        };
        let reactor = clash.reactor;
        let from = clash.sides[reactor.0].start;
        let to = orders
            .iter()
            .find_map(|(s, o)| match o {
                Order::Shift { technique }
                    if *s == reactor && clash.legal().contains(technique) =>
                {
                    Some(*technique)
                }
                Order::Shift { .. } | Order::Plan { .. } | Order::Play { .. } => None,
            })
            .unwrap_or(from);
        self.log(Event::Shifted {
            player: self.who(reactor),
            from,
            to,
        });
        let mut finals = [clash.sides[0].start, clash.sides[1].start];
        finals[reactor.0] = to;
        self.finish_round(&clash.sides, finals);
    }

    /// R4: 8 dice in fixed order, from the `dice` test list while it lasts, then the RNG.
    fn roll(&mut self) -> [[u8; 4]; 2] {
        let order = die_order(&self.s.fighters);
        let mut values = [0u8; 8];
        for (value, sides) in values.iter_mut().zip(order) {
            *value = match self.s.scripted_dice.pop_front() {
                Some(v) => v,
                None => self.rng.random_range(1..=sides),
            };
        }
        [
            [values[0], values[1], values[2], values[3]],
            [values[4], values[5], values[6], values[7]],
        ]
    }

    /// R5: a played card's values: starting technique, Reaction Speed and Initiative.
    fn side(&self, seat: usize, card: Card, dice: [u8; 4]) -> Side {
        let speed = reaction_speed(card, self.s.fighters[seat].level, self.s.rules.ace_speed);
        let initiative = match (card, self.s.rules.initiative, speed) {
            // T8, Rulings 9 and 28: a Joker's Initiative is 2 whatever the dice.
            (Card::Joker(_), _, _) | (_, _, None) => 2,
            (Card::Suited { .. }, InitiativeRule::Speed, Some(rs)) => {
                u8::from(dice[2] <= rs) + u8::from(dice[3] <= rs)
            }
            (Card::Suited { .. }, InitiativeRule::Even, Some(_)) => {
                u8::from(dice[0].is_multiple_of(2)) + u8::from(dice[1].is_multiple_of(2))
            }
        };
        Side {
            card,
            dice,
            speed,
            initiative,
            start: card.starting_technique(),
        }
    }

    /// R7-R10: scores, damage, the simultaneous strips (or wounds), the played cards to the
    /// discards, and the end check; then the next round, or the end.
    fn finish_round(&mut self, sides: &[Side; 2], finals: [Technique; 2]) {
        let values = [0, 1].map(|i| combat_values(sides[i].card, sides[i].dice));
        let scores = [0, 1].map(|i| finals[i].scores(values[i].0, values[i].1));
        // R8: each receives max(0, the opponent's Attack − his own Defense).
        let damage = [0, 1].map(|i| scores[1 - i].attack.saturating_sub(scores[i].defense));
        for i in 0..2 {
            self.log(Event::Scored {
                player: self.who(Seat(i)),
                technique: finals[i],
                hi: values[i].0,
                lo: values[i].1,
                attack: scores[i].attack,
                defense: scores[i].defense,
            });
        }
        let left = [0, 1].map(|i| self.s.fighters[i].deck.len());
        for i in 0..2 {
            self.apply(Seat(i), damage[i], sides[i].card);
        }
        self.end_check(Exchange { left, damage });
        if self.s.end.is_none() {
            self.s.round += 1;
            self.log(Event::RoundBegan {
                round: self.s.round,
            });
            self.s.step = Step::Play;
        }
    }

    /// R9 for one fighter: strips (Ruling 15) or wounds (Ruling 22), then his played card
    /// onto his discard after the stripped cards (S12, Ruling 17).
    fn apply(&mut self, seat: Seat, damage: u32, played: Card) {
        let who = self.who(seat);
        let rules = self.s.rules;
        let f = &mut self.s.fighters[seat.0];
        match rules.end {
            EndRule::Deck => {
                let n = f.deck.len().min(damage as usize);
                let stripped: Vec<Card> = f.deck.drain(..n).collect();
                f.discard.extend(stripped.iter().map(|&card| Discarded {
                    card,
                    stripped: true,
                }));
                let deck_size = f.deck.len();
                let shown = match rules.stripped_cards {
                    StrippedCards::Public => Some(stripped.clone()),
                    StrippedCards::Hidden => None,
                };
                self.log(Event::Struck {
                    player: who.clone(),
                    damage,
                    stripped: shown,
                    count: n,
                    deck_size,
                });
                if rules.stripped_cards == StrippedCards::Hidden && n > 0 {
                    self.log(Event::StrippedUnseen {
                        player: who,
                        seat,
                        cards: stripped,
                    });
                }
            }
            EndRule::Stamina => {
                f.wounds = f.wounds.saturating_add(damage);
                let (wounds, stamina) = (f.wounds, f.stamina);
                self.log(Event::Wounded {
                    player: who,
                    damage,
                    wounds,
                    stamina,
                });
            }
        }
        self.s.fighters[seat.0].discard.push(Discarded {
            card: played,
            stripped: false,
        });
    }
}
