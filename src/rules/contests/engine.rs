//! The driver: applies one step's answers and plays on, through windows (W1-W9), phases
//! (P0-P5), contests (K1-K7) and attacks (A1-A7), until somebody owes an answer or the duel
//! is over (§3.6). The only randomness is the absent players' dice, after `default_dice`
//! (§3.9 item 2).

use rand::RngExt;

use super::events::{CardsPlayed, Event};
use super::ids::{Ability, Attribute, Card, Counted, Phase, Spell, Wish};
use super::legal;
use super::orders::{Action, Order};
use super::rulebook::{CapResult, EscapeResult};
use super::state::{
    Contest, ContestStage, Declaration, Die, DiscardOwed, End, EndReason, Lasts, Modifier,
    PhaseState, PlayerRef, Purpose, Queued, Source, State, Step, Window, WindowStage,
};
use crate::rules::{GameRng, Seat};

const BOTH: [Seat; 2] = [Seat(0), Seat(1)];

/// One resolution in progress: the state being changed, the seeded stream, the log so far.
pub struct Run<'a> {
    s: &'a mut State,
    rng: &'a mut GameRng,
    events: Vec<Event>,
    /// Set when a contest's reveal (K4) happened in this resolution.
    pub revealed_contest: bool,
}

fn other(seat: Seat) -> Seat {
    State::other(seat)
}

impl<'a> Run<'a> {
    /// A run over `state`, drawing from `rng`.
    pub fn new(s: &'a mut State, rng: &'a mut GameRng) -> Run<'a> {
        Run {
            s,
            rng,
            events: Vec::new(),
            revealed_contest: false,
        }
    }

    /// The events logged.
    pub fn into_events(self) -> Vec<Event> {
        self.events
    }

    fn who(&self, seat: Seat) -> PlayerRef {
        self.s.fighters[seat.0].who.clone()
    }

    /// Both combatants, in seat order, as a contest's events name them.
    fn combatants(&self) -> [PlayerRef; 2] {
        BOTH.map(|seat| self.who(seat))
    }

    fn log(&mut self, e: Event) {
        self.events.push(e);
    }

    /// §3.1: a new round; its contests are numbered from 1.
    pub fn begin_round(&mut self) {
        self.s.contests = 0;
        let round = self.s.round;
        self.log(Event::RoundBegan { round });
    }

    /// W0: the window after `after` (none: the opening).
    pub fn open_window(&mut self, after: Option<Phase>) {
        let order = self.window_order();
        self.s.window = Some(Window {
            after,
            stage: WindowStage::Asking,
            wishes: [None, None],
            actions: [None, None],
            next: Phase::Magic,
            insert_archery: false,
            caught: [false; 2],
            point_blank: [false; 2],
            order,
        });
        self.s.step = match after {
            None => Step::Opening,
            Some(_) => Step::Next,
        };
    }

    /// Orders two seats by the keys given (higher first), then the initiator (L3, L7, L9).
    fn ordered(&self, keys: &[Attribute]) -> [Seat; 2] {
        let [a, b] = &self.s.fighters;
        for k in keys {
            let (x, y) = (a.rating(*k, 0), b.rating(*k, 0));
            if x != y {
                return if x > y { BOTH } else { [Seat(1), Seat(0)] };
            }
        }
        let first = self.s.initiator();
        [first, other(first)]
    }

    /// Window order: the Magic order of L3 (§3.2).
    fn window_order(&self) -> [Seat; 2] {
        self.ordered(&[Attribute::Skill, Attribute::Mind])
    }

    /// Plays on until somebody owes an answer or the duel is over.
    pub fn advance(&mut self) {
        loop {
            if self.s.end.is_some() {
                self.s.step = Step::Over;
                return;
            }
            if let Some(c) = &self.s.contest {
                match c.stage {
                    ContestStage::Set => {
                        self.s.step = Step::Set;
                        return;
                    }
                    ContestStage::Tie(_) => {
                        self.s.step = Step::Tie;
                        return;
                    }
                    ContestStage::FaceUp => {
                        self.s.step = Step::FaceUp;
                        if !legal::owed(self.s).is_empty() {
                            return;
                        }
                        self.reveal();
                        continue;
                    }
                }
            }
            if self.s.discard.is_some() {
                self.s.step = Step::Discard;
                return;
            }
            if let Some(p) = &self.s.phase {
                if p.declaring {
                    self.s.step = Step::Declare;
                    if !legal::owed(self.s).is_empty() {
                        return;
                    }
                    self.declare(&[]);
                    continue;
                }
                self.next_attack();
                continue;
            }
            if let Some(w) = &self.s.window {
                if w.stage == WindowStage::Asking {
                    self.s.step = match w.after {
                        None => Step::Opening,
                        Some(_) => Step::Next,
                    };
                    if !legal::owed(self.s).is_empty() {
                        return;
                    }
                    self.window_orders(&[]);
                    continue;
                }
                self.window_continue();
                continue;
            }
            // Neither window nor phase: only after a host act; open the next window.
            self.open_window(None);
        }
    }

    /// Applies the open step's answers (a missing one takes Ruling 50's default).
    pub fn apply(&mut self, orders: &[(Seat, Order)]) {
        match self.s.step {
            Step::Opening | Step::Next => self.window_orders(orders),
            Step::Declare => self.declare(orders),
            Step::Set => self.set_dice(orders),
            Step::FaceUp => self.face_up(orders),
            Step::Tie => self.tie(orders),
            Step::Discard => self.discard(orders),
            Step::Over => {}
        }
    }

    fn order_of(orders: &[(Seat, Order)], seat: Seat) -> Option<&Order> {
        orders.iter().find(|(s, _)| *s == seat).map(|(_, o)| o)
    }

    // ---- the end (§3.6) ----

    fn end(&mut self, reason: EndReason, winner: Option<Seat>) {
        for f in &mut self.s.fighters {
            let table = std::mem::take(&mut f.table);
            f.discard.extend(table);
            f.mods.retain(|m| m.lasts == Lasts::Combat);
        }
        self.s.contest = None;
        self.s.discard = None;
        self.s.phase = None;
        self.s.window = None;
        self.s.queue.clear();
        self.s.end = Some(End { reason, winner });
        self.s.step = Step::Over;
        let winner = winner.map(|w| self.who(w));
        let hp = [self.s.fighters[0].hp, self.s.fighters[1].hp];
        self.log(Event::DuelOver { reason, winner, hp });
    }

    /// E3: an escape by `seat` (none: both at once) ends the duel.
    fn escape(&mut self, seat: Option<Seat>) {
        let player = seat.map(|s| self.who(s));
        self.log(Event::Escaped { player });
        let winner = match (seat, self.s.rules.escape_result) {
            (Some(s), EscapeResult::Loss) => Some(other(s)),
            _ => None,
        };
        self.end(EndReason::Escaped, winner);
    }

    /// Takes `amount` HP from `seat` (damage, Berserk's price or a failed flight), never
    /// below 0; at 0 he is defeated (E1).
    fn lose_hp(&mut self, seat: Seat, amount: u32) -> bool {
        let f = &mut self.s.fighters[seat.0];
        f.hp = f.hp.saturating_sub(amount);
        f.hp == 0
    }

    fn pay(&mut self, seat: Seat, cost: u32) {
        let round = self.s.round;
        let f = &mut self.s.fighters[seat.0];
        f.energy = f.energy.saturating_sub(cost);
        if cost > 0 {
            f.spent_round = round;
        }
    }

    fn add_mod(
        &mut self,
        seat: Seat,
        attribute: Attribute,
        amount: i32,
        lasts: Lasts,
        source: Source,
    ) {
        self.s.fighters[seat.0].mods.push(Modifier {
            attribute,
            amount,
            lasts,
            source,
        });
        let source = match source {
            Source::Card(c) => c.id(),
            Source::Ability(a) => a.id(),
            Source::Spell(s) => s.id(),
            Source::Setup => "the setup",
        };
        let player = self.who(seat);
        self.log(Event::Modified {
            player,
            attribute,
            amount,
            lasts,
            source: source.into(),
        });
    }

    fn table_to_discard(&mut self, seat: Seat, card: Card) {
        let f = &mut self.s.fighters[seat.0];
        if let Some(i) = f.table.iter().position(|c| *c == card) {
            f.table.remove(i);
            f.discard.push(card);
        }
    }

    fn hand_to(&mut self, seat: Seat, card: Card, table: bool) {
        let f = &mut self.s.fighters[seat.0];
        if let Some(i) = f.hand.iter().position(|c| *c == card) {
            f.hand.remove(i);
            match table {
                true => f.table.push(card),
                false => f.discard.push(card),
            }
        }
    }

    // ---- the window (§3.2) ----

    fn window_orders(&mut self, orders: &[(Seat, Order)]) {
        let owed = legal::owed(self.s);
        // A stale or illegal action (a standing order gone wrong) is no action; judged
        // while the window is still open.
        let legal_now: Vec<Option<Action>> = BOTH
            .iter()
            .map(|&seat| match Self::order_of(orders, seat) {
                Some(Order::Window {
                    action: Some(a), ..
                }) if legal::action_problem(self.s, seat, a).is_none() => Some(a.clone()),
                _ => None,
            })
            .collect();
        let Some(mut w) = self.s.window.take() else {
            return;
        };
        for seat in BOTH {
            let given = Self::order_of(orders, seat);
            let (wish, action) = match given {
                Some(Order::Window { wish, .. }) => (*wish, legal_now[seat.0].clone()),
                _ => (
                    w.after.map(|p| match p {
                        Phase::Melee => Wish::Stay,
                        _ => Wish::Advance,
                    }),
                    None,
                ),
            };
            w.wishes[seat.0] = wish;
            w.actions[seat.0] = action.clone();
            if owed.contains(&seat) {
                let player = self.who(seat);
                self.log(Event::WindowOrder {
                    player,
                    wish,
                    action,
                });
            }
        }
        // W2: both end combat after a Melee phase; the actions are not used.
        if w.after == Some(Phase::Melee) && w.wishes == [Some(Wish::End), Some(Wish::End)] {
            self.end(EndReason::Ended, None);
            return;
        }
        // W3: cards leave the hands; No Way! cancels the other's card action.
        for seat in BOTH {
            match w.actions[seat.0].clone() {
                Some(Action::Backstab { discard, .. }) => {
                    self.hand_to(seat, discard, false);
                    let player = self.who(seat);
                    self.log(Event::BackstabDiscard {
                        player,
                        card: discard,
                    });
                }
                Some(a) => {
                    if let Some(card) = a.card() {
                        self.hand_to(seat, card, true);
                    }
                }
                None => {}
            }
        }
        let cancels: Vec<Seat> = BOTH
            .into_iter()
            .filter(|s| w.actions[s.0] == Some(Action::NoWay))
            .filter(|s| {
                w.actions[other(*s).0]
                    .as_ref()
                    .and_then(Action::card)
                    .is_some_and(|c| c != Card::NoWay)
            })
            .map(other)
            .collect();
        for seat in BOTH {
            if w.actions[seat.0] == Some(Action::NoWay) {
                w.actions[seat.0] = None;
                self.table_to_discard(seat, Card::NoWay);
            }
        }
        for seat in cancels {
            if let Some(card) = w.actions[seat.0].take().and_then(|a| a.card()) {
                self.table_to_discard(seat, card);
                let player = self.who(seat);
                self.log(Event::ActionCancelled { player, card });
            }
        }
        w.order = self.window_order();
        // W4: escapes.
        let flees =
            |a: &Option<Action>| matches!(a, Some(Action::RunLikeHell | Action::TeleportAway));
        let fleeing: Vec<Seat> = BOTH
            .into_iter()
            .filter(|s| flees(&w.actions[s.0]))
            .collect();
        let away = |s: Seat| w.actions[s.0] == Some(Action::TeleportAway);
        if fleeing.len() == 2 {
            for seat in BOTH {
                if away(seat) {
                    let cost = self.s.fighters[seat.0].cost(2, self.s.round);
                    self.pay(seat, cost);
                }
            }
            self.s.window = Some(w);
            self.escape(None);
            return;
        }
        if let Some(&seat) = fleeing.first() {
            if away(seat) {
                let cost = self.s.fighters[seat.0].cost(2, self.s.round);
                self.pay(seat, cost);
                self.s.window = Some(w);
                self.escape(Some(seat));
                return;
            }
            w.stage = WindowStage::Escape;
            self.s.window = Some(w);
            self.open_contest(Purpose::RunLikeHell, seat);
            return;
        }
        self.s.window = Some(w);
        self.natural_next();
    }

    /// W5 and W6: the natural next phase N and the phase-setting actions without a contest.
    fn natural_next(&mut self) {
        let round = self.s.round;
        let Some(w) = self.s.window.as_mut() else {
            return;
        };
        let any = |wish: Wish| w.wishes.contains(&Some(wish));
        w.next = match w.after {
            None => Phase::Magic,
            Some(Phase::Magic) if any(Wish::Advance) => Phase::Archery,
            Some(Phase::Magic) => Phase::Magic,
            Some(Phase::Archery) if any(Wish::Advance) => Phase::Melee,
            Some(Phase::Archery) => Phase::Archery,
            Some(Phase::Melee) if any(Wish::Stay) => Phase::Melee,
            Some(Phase::Melee) => Phase::Magic,
        };
        let mut teleports = Vec::new();
        for seat in BOTH {
            match w.actions[seat.0] {
                Some(Action::Charge) => w.next = Phase::Melee,
                Some(Action::TeleportToMagic) => {
                    w.next = Phase::Magic;
                    teleports.push(seat);
                }
                Some(Action::CaughtWithPantsDown) => w.caught[seat.0] = true,
                _ => {}
            }
        }
        w.stage = WindowStage::Contested(0);
        for seat in teleports {
            let cost = self.s.fighters[seat.0].cost(1, round);
            self.pay(seat, cost);
        }
    }

    /// W7-W9 from the window's stage on.
    fn window_continue(&mut self) {
        let Some(w) = self.s.window.clone() else {
            return;
        };
        match w.stage {
            WindowStage::Asking | WindowStage::Escape => {}
            WindowStage::Contested(from) => {
                for i in from..2 {
                    let seat = w.order[i];
                    let purpose = match &w.actions[seat.0] {
                        Some(Action::Backstab { phase, .. }) => Purpose::Backstab { phase: *phase },
                        Some(Action::Shoelace { phase }) => Purpose::Shoelace { phase: *phase },
                        Some(Action::NowYouSeeMe) => Purpose::NowYouSeeMe,
                        _ => continue,
                    };
                    self.set_stage(WindowStage::Contested(i + 1));
                    self.open_contest(purpose, seat);
                    return;
                }
                self.set_stage(WindowStage::BeforeMelee(0));
            }
            WindowStage::BeforeMelee(from) => {
                for i in from..2 {
                    let seat = w.order[i];
                    let action = match &w.actions[seat.0] {
                        Some(a @ (Action::PointBlankShot | Action::DisArm)) => a.clone(),
                        _ => continue,
                    };
                    let player = self.who(seat);
                    if w.next != Phase::Melee {
                        self.log(Event::ActionVoid { player, action });
                        continue;
                    }
                    if action == Action::PointBlankShot {
                        if let Some(w) = self.s.window.as_mut() {
                            w.point_blank[seat.0] = true;
                            w.insert_archery = true;
                        }
                        self.log(Event::ActionTook { player, action });
                        continue;
                    }
                    self.set_stage(WindowStage::BeforeMelee(i + 1));
                    self.open_contest(Purpose::DisArm, seat);
                    return;
                }
                self.finish_window();
            }
        }
    }

    fn set_stage(&mut self, stage: WindowStage) {
        if let Some(w) = self.s.window.as_mut() {
            w.stage = stage;
        }
    }

    /// W9: the queue, then its first phase (in this round).
    fn finish_window(&mut self) {
        let Some(w) = self.s.window.take() else {
            return;
        };
        if w.caught.contains(&true) {
            self.s.queue.push_back(Queued {
                phase: Phase::Archery,
                fires: w.caught,
                no_attack: [false; 2],
            });
        }
        if w.insert_archery {
            self.s.queue.push_back(Queued {
                phase: Phase::Archery,
                fires: [true; 2],
                no_attack: [false; 2],
            });
        }
        self.s.queue.push_back(Queued {
            phase: w.next,
            fires: [true; 2],
            no_attack: match w.next {
                Phase::Melee => w.point_blank,
                _ => [false; 2],
            },
        });
        for f in &mut self.s.fighters {
            let table = std::mem::take(&mut f.table);
            f.discard.extend(table);
        }
        let phases = self.s.queue.iter().map(|q| q.phase).collect();
        self.log(Event::PhasesQueued { phases });
        if let Some(q) = self.s.queue.pop_front() {
            self.start_phase(q);
        }
    }

    // ---- the phase (§3.3) ----

    /// P0: the phase count rises, the draws, Right where it hurts ends at a Melee phase.
    fn start_phase(&mut self, q: Queued) {
        self.s.phases += 1;
        self.s.round = self.s.phases;
        if q.phase == Phase::Archery {
            self.s.archery_phases += 1;
        }
        let first = self.s.phases == 1;
        self.log(Event::PhaseBegan {
            round: self.s.round,
            phase: q.phase,
            phase_count: self.s.phases,
        });
        if !first {
            for seat in BOTH {
                let limit = self.s.rules.hand_limit as usize;
                let f = &mut self.s.fighters[seat.0];
                if f.hand.len() < limit && !f.deck.is_empty() {
                    let card = f.deck.remove(0);
                    f.hand.push(card);
                    let hand_size = f.hand.len();
                    let player = self.who(seat);
                    self.log(Event::Drew {
                        player: player.clone(),
                        hand_size,
                    });
                    self.log(Event::DrewCard { player, seat, card });
                }
            }
        }
        if q.phase == Phase::Melee {
            for f in &mut self.s.fighters {
                f.rwih = false;
            }
        }
        self.s.phase = Some(PhaseState {
            phase: q.phase,
            first,
            fires: q.fires,
            no_attack: q.no_attack,
            declaring: true,
            declared: [Declaration::default(), Declaration::default()],
            order: BOTH,
            left: [0; 2],
            made: [0; 2],
            last: None,
            lucky: [false; 2],
        });
    }

    /// P1-P4: the declarations take effect, then the order and the attacks.
    fn declare(&mut self, orders: &[(Seat, Order)]) {
        let owed = legal::owed(self.s);
        let mut declared = [Declaration::default(), Declaration::default()];
        for seat in owed {
            if let Some(Order::Declare(d)) = Self::order_of(orders, seat)
                && legal::check_declaration(self.s, seat, d).is_ok()
            {
                declared[seat.0] = d.clone();
            }
        }
        let Some(phase) = self.s.phase.clone() else {
            return;
        };
        // P2: all costs together.
        for seat in BOTH {
            let d = &declared[seat.0];
            let cost = legal::declaration_cost(self.s, seat, d);
            let words = super::orders::describe(Some(&Order::Declare(d.clone())));
            let any = cost > 0 || d.berserk || d.rapid_shot;
            self.pay(seat, cost);
            if d.berserk {
                self.lose_hp(seat, 1);
                self.add_mod(
                    seat,
                    Attribute::Might,
                    3,
                    Lasts::Phase,
                    Source::Ability(Ability::Berserk),
                );
            }
            if d.fury > 0 {
                self.add_mod(
                    seat,
                    Attribute::Might,
                    2 * d.fury as i32,
                    Lasts::Phase,
                    Source::Ability(Ability::GiftOfFury),
                );
            }
            if d.lucky_punk {
                self.s.fighters[seat.0].lucky_used = true;
            }
            if any {
                let player = self.who(seat);
                self.log(Event::Declared {
                    player,
                    what: words,
                    energy_paid: cost,
                    hp_paid: u32::from(d.berserk),
                });
            }
        }
        // P3: the order, from the effective ratings after P2.
        let order = match phase.phase {
            Phase::Magic => self.ordered(&[Attribute::Skill, Attribute::Mind]),
            Phase::Archery => self.ordered(&[Attribute::Skill]),
            Phase::Melee => self.ordered(&[Attribute::Skill, Attribute::Might]),
        };
        // P4: each one's attacks.
        let mut left = [0; 2];
        for seat in BOTH {
            let d = &declared[seat.0];
            left[seat.0] = match phase.phase {
                Phase::Magic => u32::from(d.spell.is_some()),
                Phase::Archery if !phase.fires[seat.0] => 0,
                Phase::Archery => 1 + u32::from(d.rapid_shot),
                Phase::Melee if phase.no_attack[seat.0] => 0,
                Phase::Melee => 1 + u32::from(d.art_of_killing),
            };
        }
        let lucky = [declared[0].lucky_punk, declared[1].lucky_punk];
        let first = self.who(order[0]);
        self.log(Event::AttackOrder {
            first,
            attacks: left,
        });
        if let Some(p) = self.s.phase.as_mut() {
            p.declared = declared;
            p.order = order;
            p.left = left;
            p.lucky = lucky;
            p.declaring = false;
        }
    }

    /// P4: the next attack in turn, or P5 when none is left.
    fn next_attack(&mut self) {
        let Some(p) = self.s.phase.clone() else {
            return;
        };
        let pick = match p.last {
            None => p.order.into_iter().find(|s| p.left[s.0] > 0),
            Some(last) => [other(last), last].into_iter().find(|s| p.left[s.0] > 0),
        };
        let Some(a) = pick else {
            self.end_phase();
            return;
        };
        if let Some(p) = self.s.phase.as_mut() {
            p.left[a.0] -= 1;
            p.made[a.0] += 1;
            p.last = Some(a);
        }
        let made = p.made[a.0] + 1;
        match p.phase {
            Phase::Magic => {
                let spell = p.declared[a.0].spell.unwrap_or(Spell::Mend);
                if made > 1 {
                    // A7: the extra spell is paid when it comes.
                    let f = &self.s.fighters[a.0];
                    let cost = f.cost(1, self.s.round);
                    if cost > f.energy {
                        let player = self.who(a);
                        self.log(Event::SpellLost { player });
                        return;
                    }
                    self.pay(a, cost);
                }
                match spell {
                    Spell::Mend | Spell::None => {
                        let f = &mut self.s.fighters[a.0];
                        let healed = 2.min(f.max_hp - f.hp);
                        f.hp += healed;
                        let hp = f.hp;
                        let player = self.who(a);
                        self.log(Event::Healed { player, healed, hp });
                    }
                    s => self.open_contest(Purpose::Spell { spell: s }, a),
                }
            }
            Phase::Archery if p.lucky[a.0] => {
                if let Some(p) = self.s.phase.as_mut() {
                    p.lucky[a.0] = false;
                }
                self.hit(a, Purpose::Shot, false);
                self.s.fighters[a.0].backstab = false;
            }
            Phase::Archery => self.open_contest(Purpose::Shot, a),
            Phase::Melee => self.open_contest(Purpose::Blow, a),
        }
    }

    /// P5: phase modifiers end; the cap; the next queued phase or the next window.
    fn end_phase(&mut self) {
        let Some(p) = self.s.phase.take() else {
            return;
        };
        for f in &mut self.s.fighters {
            f.mods.retain(|m| m.lasts == Lasts::Combat);
        }
        if self.s.phases >= self.s.rules.max_phases {
            let [a, b] = [self.s.fighters[0].hp, self.s.fighters[1].hp];
            let winner = match self.s.rules.cap_result {
                CapResult::Draw => None,
                CapResult::Hp if a > b => Some(Seat(0)),
                CapResult::Hp if b > a => Some(Seat(1)),
                CapResult::Hp => None,
            };
            self.end(EndReason::PhaseCap, winner);
            return;
        }
        self.s.round = self.s.phases + 1;
        self.begin_round();
        match self.s.queue.pop_front() {
            Some(q) => self.start_phase(q),
            None => self.open_window(Some(p.phase)),
        }
    }

    // ---- attacks (§3.5) ----

    /// A4: a winning attack's damage and what follows it; true if the target fell.
    fn hit(&mut self, a: Seat, purpose: Purpose, encore: bool) -> bool {
        let t = other(a);
        let berserk = self
            .s
            .phase
            .as_ref()
            .is_some_and(|p| p.declared[a.0].berserk);
        let attacker = &self.s.fighters[a.0];
        let target = &self.s.fighters[t.0];
        let mut d: i32 = match purpose {
            Purpose::Spell {
                spell: Spell::FireBolt,
            } => 3,
            _ => 2,
        };
        if purpose == Purpose::Blow {
            if attacker.build.has(Ability::CrushToMush) {
                d += 1;
            }
            if berserk {
                d += 2;
            }
        }
        if attacker.backstab {
            d *= 2;
        }
        match purpose {
            Purpose::Spell {
                spell: Spell::FireBolt,
            } if target.build.has(Ability::Cool) => d -= 1,
            Purpose::Spell {
                spell: Spell::FrostBolt,
            } if target.build.has(Ability::ReallyHot) => d -= 1,
            _ => {}
        }
        let damage = (d.max(0) as u32).min(target.hp);
        let cruelty = attacker.build.has(Ability::UnnecessaryCruelty);
        let hurts = attacker.build.has(Ability::RightWhereItHurts);
        let crippling = attacker.build.has(Ability::CripplingShot);
        let fell = self.lose_hp(t, damage);
        let what = purpose.id().to_owned();
        let (attacker_ref, target_ref) = (self.who(a), self.who(t));
        let hp = self.s.fighters[t.0].hp;
        self.log(Event::Hit {
            attacker: attacker_ref.clone(),
            target: target_ref,
            what,
            damage,
            hp,
        });
        if purpose
            == (Purpose::Spell {
                spell: Spell::FrostBolt,
            })
        {
            self.add_mod(
                t,
                Attribute::Skill,
                -1,
                Lasts::Combat,
                Source::Spell(Spell::FrostBolt),
            );
        }
        if purpose == Purpose::Shot && crippling {
            self.add_mod(
                t,
                Attribute::Might,
                -2,
                Lasts::Combat,
                Source::Ability(Ability::CripplingShot),
            );
        }
        if damage >= 1 {
            if cruelty {
                for attribute in Attribute::ALL {
                    self.add_mod(
                        t,
                        *attribute,
                        -1,
                        Lasts::Combat,
                        Source::Ability(Ability::UnnecessaryCruelty),
                    );
                }
            }
            if hurts {
                self.s.fighters[t.0].rwih = true;
            }
            if encore {
                if let Some(p) = self.s.phase.as_mut() {
                    p.left[a.0] += 1;
                }
                self.log(Event::Encore {
                    player: attacker_ref,
                });
            }
        }
        if fell {
            self.end(EndReason::Defeated, Some(a));
        }
        fell
    }

    // ---- the contest (§3.4) ----

    fn open_contest(&mut self, purpose: Purpose, challenger: Seat) {
        self.s.contests += 1;
        let number = self.s.contests;
        let defender = other(challenger);
        let base = self.s.rules.base_guesses;
        let mut guesses = [base; 2];
        if matches!(purpose, Purpose::Spell { spell } if spell.offensive())
            && self.s.fighters[defender.0]
                .build
                .has(Ability::ThereAreNoFairies)
        {
            guesses[defender.0] += 1;
        }
        let guesses = guesses.map(|g| g.min(5));
        let (c, d) = (self.who(challenger), self.who(defender));
        self.log(Event::ContestOpened {
            contest: number,
            what: purpose.id().into(),
            challenger: c,
            defender: d,
            counted: purpose.counted(),
            guesses,
        });
        self.s.contest = Some(Contest {
            number,
            purpose,
            challenger,
            stage: ContestStage::Set,
            guesses,
            dice: [None, None],
            down: [None, None],
            wants_face_up: [false; 2],
            up: [Vec::new(), Vec::new()],
            set_orders: Vec::new(),
            totals: [0; 2],
            kick: false,
            encore: false,
            bonus: [[0; 3]; 2],
        });
    }

    /// §3.9 item 2: the next value for an absent player, `default_dice` first.
    fn draw_value(&mut self) -> u8 {
        match self.s.scripted.pop_front() {
            Some(v) => v,
            None => self.rng.random_range(1..=6),
        }
    }

    /// The die and guesses of an absent player: the die first, then each guess, a repeated
    /// guess drawn again (§3.9).
    fn chosen(&mut self, allowed: u32) -> (u8, Vec<u8>) {
        let face = self.draw_value();
        let mut guesses: Vec<u8> = Vec::new();
        while guesses.len() < allowed.min(6) as usize {
            let g = self.draw_value();
            if !guesses.contains(&g) {
                guesses.push(g);
            }
        }
        (face, guesses)
    }

    /// The dice of a `set` or `tie`, P1's before P2's, with the lost ones marked (K2, K6).
    fn dice(&mut self, orders: &[(Seat, Order)], allowed: [u32; 2]) -> [Die; 2] {
        let mut dice: Vec<Die> = Vec::with_capacity(2);
        for seat in BOTH {
            let (face, guesses) = match Self::order_of(orders, seat) {
                Some(Order::Set { die, guesses, .. } | Order::Tie { die, guesses, .. }) => {
                    (*die, guesses.clone())
                }
                _ => self.chosen(allowed[seat.0]),
            };
            dice.push(Die {
                face,
                guesses,
                lost: false,
            });
        }
        let lost = [
            dice[1].guesses.contains(&dice[0].face),
            dice[0].guesses.contains(&dice[1].face),
        ];
        for (d, l) in dice.iter_mut().zip(lost) {
            d.lost = l;
        }
        [dice[0].clone(), dice[1].clone()]
    }

    /// K1-K2: the dice, the guesses, the face-down cards.
    fn set_dice(&mut self, orders: &[(Seat, Order)]) {
        let Some(c) = self.s.contest.clone() else {
            return;
        };
        let dice = self.dice(orders, c.guesses);
        let mut down = [None, None];
        let mut wants = [false; 2];
        for seat in BOTH {
            if let Some(Order::Set {
                down: card,
                face_up,
                ..
            }) = Self::order_of(orders, seat)
            {
                wants[seat.0] = *face_up;
                if let Some(card) = card
                    && self.s.fighters[seat.0].hand.contains(card)
                {
                    down[seat.0] = Some(*card);
                    self.hand_to(seat, *card, true);
                }
            }
        }
        self.log(Event::GuessesRevealed {
            contest: c.number,
            players: self.combatants(),
            guesses: [dice[0].guesses.clone(), dice[1].guesses.clone()],
            lost: [
                dice[0].lost.then_some(dice[0].face),
                dice[1].lost.then_some(dice[1].face),
            ],
            face_down: [down[0].is_some(), down[1].is_some()],
        });
        if let Some(c) = self.s.contest.as_mut() {
            c.dice = [Some(dice[0].clone()), Some(dice[1].clone())];
            c.down = down;
            c.wants_face_up = wants;
            c.set_orders = orders.to_vec();
            c.stage = ContestStage::FaceUp;
        }
    }

    /// K3: the face-up cards leave the hands, then the reveal.
    fn face_up(&mut self, orders: &[(Seat, Order)]) {
        let owed = legal::owed(self.s);
        let mut up = [Vec::new(), Vec::new()];
        for seat in owed {
            if let Some(Order::FaceUp { cards, .. }) = Self::order_of(orders, seat) {
                for card in cards {
                    if self.s.fighters[seat.0].hand.contains(card) {
                        self.hand_to(seat, *card, true);
                        up[seat.0].push(*card);
                    }
                }
            }
        }
        if let Some(c) = self.s.contest.as_mut() {
            c.up = up;
        }
        self.reveal();
    }

    /// Whether `card`, played by `seat`, takes effect in contest `c` (§4.2's relevance).
    fn relevant(&self, c: &Contest, seat: Seat, card: Card) -> bool {
        let counted = c.purpose.counted();
        let own_attack = c.purpose.is_attack() && c.challenger == seat;
        match card {
            Card::NoWay => true,
            Card::MyDaddyWasAnElf => counted.counts(Attribute::Skill),
            Card::MakeFunnyFaces => self.s.fighters[other(seat).0].spent_round == self.s.round,
            Card::KickBelowTheWaist => own_attack && c.purpose == Purpose::Blow,
            Card::AmIGoodOrWhat => own_attack,
            c2 if c2.is_might() => counted.counts(Attribute::Might),
            c2 if c2.is_mind() => counted.counts(Attribute::Mind),
            _ => false,
        }
    }

    /// K4-K5: No Way!, relevance, the cards' effects, the totals; then K6 or the winner.
    fn reveal(&mut self) {
        self.revealed_contest = true;
        let Some(mut c) = self.s.contest.clone() else {
            return;
        };
        let played: [Vec<Card>; 2] = [0, 1].map(|i| {
            let mut all: Vec<Card> = c.down[i].into_iter().collect();
            all.extend(&c.up[i]);
            all
        });
        let mut cancelled: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
        for seat in BOTH {
            let o = other(seat);
            if played[seat.0].contains(&Card::NoWay)
                && let Some(target) = played[o.0].iter().find(|c| **c != Card::NoWay)
            {
                cancelled[o.0].push(*target);
            }
        }
        let mut irrelevant: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
        let in_phase = c.purpose.is_attack();
        let phase = self.s.phase.as_ref().map(|p| p.phase);
        for seat in BOTH {
            for &card in &played[seat.0] {
                if cancelled[seat.0].contains(&card) {
                    continue;
                }
                if !self.relevant(&c, seat, card) {
                    irrelevant[seat.0].push(card);
                    continue;
                }
                match card {
                    Card::MyDaddyWasAnElf => c.bonus[seat.0][1] += 3,
                    Card::MakeFunnyFaces => {
                        let until = self.s.round + 1;
                        let o = other(seat);
                        let f = &mut self.s.fighters[o.0];
                        f.surcharge_until = f.surcharge_until.max(until);
                        let player = self.who(o);
                        self.log(Event::Surcharged { player, until });
                    }
                    Card::KickBelowTheWaist => c.kick = true,
                    Card::AmIGoodOrWhat => c.encore = true,
                    m if m.is_might() => match (in_phase, phase) {
                        (true, Some(Phase::Melee)) => {
                            self.add_mod(seat, Attribute::Might, 3, Lasts::Phase, Source::Card(m))
                        }
                        _ => c.bonus[seat.0][0] += 3,
                    },
                    m if m.is_mind() => match (in_phase, phase) {
                        (true, Some(Phase::Magic)) => {
                            self.add_mod(seat, Attribute::Mind, 3, Lasts::Phase, Source::Card(m))
                        }
                        _ => c.bonus[seat.0][2] += 3,
                    },
                    _ => {}
                }
            }
        }
        let rapid = c.purpose == Purpose::Shot
            && self
                .s
                .phase
                .as_ref()
                .is_some_and(|p| p.declared[c.challenger.0].rapid_shot);
        if rapid {
            c.bonus[c.challenger.0][1] -= 3;
        }
        let ratings = BOTH.map(|s| self.contest_rating(&c, s));
        let dice = [
            c.dice[0].clone().unwrap_or(Die {
                face: 1,
                guesses: Vec::new(),
                lost: true,
            }),
            c.dice[1].clone().unwrap_or(Die {
                face: 1,
                guesses: Vec::new(),
                lost: true,
            }),
        ];
        let totals = [ratings[0] + dice[0].value(), ratings[1] + dice[1].value()];
        let cards = [0, 1].map(|i| CardsPlayed {
            down: c.down[i],
            up: c.up[i].clone(),
            cancelled: cancelled[i].clone(),
            irrelevant: irrelevant[i].clone(),
        });
        self.log(Event::ContestRevealed {
            contest: c.number,
            players: self.combatants(),
            dice: [dice[0].face, dice[1].face],
            lost: [dice[0].lost, dice[1].lost],
            cards,
            ratings,
            totals,
        });
        c.totals = totals;
        if totals[0] == totals[1] {
            c.stage = ContestStage::Tie(1);
            self.s.contest = Some(c);
        } else {
            let winner = if totals[0] > totals[1] {
                Seat(0)
            } else {
                Seat(1)
            };
            self.s.contest = Some(c);
            self.finish_contest(winner);
        }
    }

    /// K5: the effective rating of the contest's attribute, with its card bonuses.
    fn contest_rating(&self, c: &Contest, seat: Seat) -> u32 {
        let f = &self.s.fighters[seat.0];
        let b = c.bonus[seat.0];
        match c.purpose.counted() {
            Counted::Might => f.rating(Attribute::Might, b[0]),
            Counted::Skill => f.rating(Attribute::Skill, b[1]),
            Counted::Mind => f.rating(Attribute::Mind, b[2]),
            Counted::MightSkill => {
                f.rating(Attribute::Might, b[0]) + f.rating(Attribute::Skill, b[1])
            }
        }
    }

    /// K6: a tie-break; the higher die wins; after `max_ties` the defender wins.
    fn tie(&mut self, orders: &[(Seat, Order)]) {
        let Some(c) = self.s.contest.clone() else {
            return;
        };
        let ContestStage::Tie(t) = c.stage else {
            return;
        };
        let dice = self.dice(orders, c.guesses);
        self.log(Event::TieBreak {
            contest: c.number,
            players: self.combatants(),
            tie: t,
            dice: [dice[0].face, dice[1].face],
            guesses: [dice[0].guesses.clone(), dice[1].guesses.clone()],
            lost: [dice[0].lost, dice[1].lost],
        });
        let (x, y) = (dice[0].value(), dice[1].value());
        if x != y {
            self.finish_contest(if x > y { Seat(0) } else { Seat(1) });
        } else if t >= self.s.rules.max_ties {
            self.finish_contest(other(c.challenger));
        } else if let Some(c) = self.s.contest.as_mut() {
            c.stage = ContestStage::Tie(t + 1);
        }
    }

    /// K7 and what the contest decided.
    fn finish_contest(&mut self, winner: Seat) {
        let Some(c) = self.s.contest.take() else {
            return;
        };
        let challenger_won = winner == c.challenger;
        let player = self.who(winner);
        self.log(Event::ContestWon {
            contest: c.number,
            winner: player,
            challenger_won,
        });
        for seat in BOTH {
            let mut cards: Vec<Card> = c.down[seat.0].into_iter().collect();
            cards.extend(&c.up[seat.0]);
            for card in cards {
                self.table_to_discard(seat, card);
            }
        }
        let a = c.challenger;
        let player = self.who(a);
        match c.purpose {
            Purpose::Spell { .. } | Purpose::Shot | Purpose::Blow => {
                let fell = match challenger_won {
                    true => self.hit(a, c.purpose, c.encore),
                    false => {
                        self.log(Event::Missed {
                            attacker: player,
                            what: c.purpose.id().into(),
                        });
                        false
                    }
                };
                self.s.fighters[a.0].backstab = false;
                if challenger_won && c.kick && !fell {
                    self.kick(c.number, other(a));
                }
            }
            Purpose::RunLikeHell => {
                if challenger_won {
                    self.escape(Some(a));
                    return;
                }
                let fell = self.lose_hp(a, 1);
                let hp = self.s.fighters[a.0].hp;
                self.log(Event::FlightFailed { player, hp });
                if fell {
                    self.end(EndReason::Defeated, Some(other(a)));
                    return;
                }
                self.natural_next();
            }
            purpose => {
                let action = self.s.window.as_ref().and_then(|w| w.actions[a.0].clone());
                if challenger_won {
                    if let Some(w) = self.s.window.as_mut() {
                        match purpose {
                            Purpose::Backstab { phase } | Purpose::Shoelace { phase } => {
                                w.next = phase
                            }
                            Purpose::NowYouSeeMe => w.insert_archery = true,
                            _ => {}
                        }
                    }
                    match purpose {
                        Purpose::Backstab { .. } => self.s.fighters[a.0].backstab = true,
                        Purpose::DisArm => self.add_mod(
                            other(a),
                            Attribute::Might,
                            -3,
                            Lasts::Combat,
                            Source::Card(Card::DisArm),
                        ),
                        _ => {}
                    }
                    if let Some(action) = action {
                        self.log(Event::ActionTook { player, action });
                    }
                }
            }
        }
    }

    /// A5: the victim of a Kick discards two cards, or all of two or fewer unprompted.
    fn kick(&mut self, contest: u32, victim: Seat) {
        let hand = self.s.fighters[victim.0].hand.clone();
        if hand.len() >= 3 {
            self.s.discard = Some(DiscardOwed {
                contest,
                seat: victim,
            });
            return;
        }
        for card in &hand {
            self.hand_to(victim, *card, false);
        }
        let player = self.who(victim);
        self.log(Event::KickDiscard {
            player,
            cards: hand,
        });
    }

    /// The `discard` step's answer (A5).
    fn discard(&mut self, orders: &[(Seat, Order)]) {
        let Some(owed) = self.s.discard.take() else {
            return;
        };
        let hand = self.s.fighters[owed.seat.0].hand.clone();
        let cards = match Self::order_of(orders, owed.seat) {
            Some(Order::Discard { cards, .. })
                if cards.len() == 2 && cards.iter().all(|c| hand.contains(c)) =>
            {
                cards.clone()
            }
            _ => hand.iter().take(2).copied().collect(),
        };
        for card in &cards {
            self.hand_to(owed.seat, *card, false);
        }
        let player = self.who(owed.seat);
        self.log(Event::KickDiscard { player, cards });
    }
}
