//! The whole game state, secrets included: players, pool, discard, the turn in progress and the
//! queue of turn-sequence operations still to run (§2, T1-T14).

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::characters::Character;
use super::matrix::Judgement;
use super::moves::Move;
use super::tokens::Token;
use crate::rules::{PlayerId, Seat};

/// A player as named in the log: id and display name, so each line stands alone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRef {
    /// The player's id.
    pub id: PlayerId,
    /// The name shown to others.
    pub name: String,
}

/// One player's resources (§3.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// Who this is.
    pub who: PlayerRef,
    /// The character (§3.5).
    pub character: Character,
    /// Current HP; may go to zero or below until the KO check (A13).
    pub hp: i32,
    /// Charge Counters, 0-5 (L139).
    pub charges: u8,
    /// Poison Counters, no cap (A24).
    pub poison: u32,
    /// Off-Balance (L188).
    pub off_balance: bool,
    /// The hand, at most 9 tokens after every overflow discard (L138). Secret.
    pub hand: Vec<Token>,
    /// The Channeler has set this player's Piercing Strike aside (L307, A28).
    pub piercing_set_aside: bool,
    /// A Warpriest's free turn is this turn (A21).
    pub free_turn: bool,
    /// A Warpriest reached 0 HP or less holding 5 Charges this turn (A20).
    pub revive_pending: bool,
    /// A Warpriest revived this turn, so the next turn is free (A21).
    pub revived_this_turn: bool,
}

impl PlayerState {
    /// Spends `n` Charges, or nothing on a Warpriest free turn (A21); answers what was paid.
    pub fn spend(&mut self, n: u8) -> u8 {
        if self.free_turn {
            0
        } else {
            self.charges = self.charges.saturating_sub(n);
            n
        }
    }

    /// Whether the player can afford `n` Charges now (T6 (iv), A10, A21).
    pub fn can_afford(&self, n: u8) -> bool {
        self.free_turn || self.charges >= n
    }
}

/// One player's play this turn: what was submitted and what it became (T4-T7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Play {
    /// The tile submitted.
    pub chosen: Move,
    /// The tile after illegal-move replacement (T6).
    pub actual: Move,
    /// The token played (unchanged by replacement, A8).
    pub token: Token,
    /// Charges paid at T7 (for Evasion's refund, A21).
    pub paid: u8,
}

/// The turn in progress.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Both plays, once revealed.
    pub plays: Option<[Play; 2]>,
    /// The tokens on the table, until T11 clears them (A17).
    pub table: [Option<Token>; 2],
    /// The exchange's result (T8), once judged.
    pub judgement: Option<Judgement>,
}

/// A decision the game waits for: the current step (§2.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "step")]
pub enum Pending {
    /// T4: both players submit a tile and a token, secretly.
    Play,
    /// T1/T10: these players hold more than 9 tokens and discard down to 9 (A16).
    Overflow {
        /// Who must discard.
        seats: Vec<Seat>,
    },
    /// T3: these Channelers may set their opponent's Piercing Strike aside (A28).
    SetAside {
        /// The Channelers asked.
        seats: Vec<Seat>,
    },
    /// T8: a Sentinel may buy a lost tie-break (A2).
    BuyTiebreak {
        /// The Sentinel.
        seat: Seat,
    },
    /// T10: an optional Follow-up after a Standard win or a Guard win against Counter-Attack.
    FollowUp {
        /// The winner.
        seat: Seat,
    },
    /// T10: an optional Power Surge after a Piercing, Dashing or Lightning win (A10).
    PowerSurge {
        /// The winner.
        seat: Seat,
    },
    /// T10: up to 2 (Warpriest 1) extra tokens for a Finishing win (A40).
    FinishingExtras {
        /// The winner.
        seat: Seat,
    },
    /// T10: the Parry winner picks a token from the loser's revealed hand (A33).
    ParryPick {
        /// The Parry winner.
        seat: Seat,
    },
    /// T10: the Evasion winner takes a token from the discard pile (A34).
    EvasionPick {
        /// The Evasion winner.
        seat: Seat,
    },
    /// T10: Channelers who won with Power-up may take a Charge from the opponent (A27).
    ChannelerSteal {
        /// The Channelers asked.
        seats: Vec<Seat>,
    },
    /// T13: players holding a same-number pair may Gather Power, secretly (A38).
    GatherPower {
        /// The players asked.
        seats: Vec<Seat>,
    },
}

/// The name of a step, as prompts, orders and the log spell it (§2.3): [`Pending`] without
/// the seats it asks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// T4: the play.
    Play,
    /// T1/T10: the discard down to 9 (A16).
    Overflow,
    /// T3: the Channeler's set-aside (A28).
    SetAside,
    /// T8: the Sentinel's buy-back (A2).
    BuyTiebreak,
    /// T10: the Follow-up.
    FollowUp,
    /// T10: the Power Surge (A10).
    PowerSurge,
    /// T10: the Finishing Strike's extra tokens (A40).
    FinishingExtras,
    /// T10: the Parry pick (A33).
    ParryPick,
    /// T10: the Evasion pick (A34).
    EvasionPick,
    /// T10: the Channeler's steal (A27).
    ChannelerSteal,
    /// T13: Gather Power (A38).
    GatherPower,
}

impl Step {
    /// The step's wire name.
    pub fn name(self) -> &'static str {
        match self {
            Step::Play => "play",
            Step::Overflow => "overflow",
            Step::SetAside => "set-aside",
            Step::BuyTiebreak => "buy-tiebreak",
            Step::FollowUp => "follow-up",
            Step::PowerSurge => "power-surge",
            Step::FinishingExtras => "finishing-extras",
            Step::ParryPick => "parry-pick",
            Step::EvasionPick => "evasion-pick",
            Step::ChannelerSteal => "channeler-steal",
            Step::GatherPower => "gather-power",
        }
    }
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Pending {
    /// Which step this is.
    pub fn step(&self) -> Step {
        match self {
            Pending::Play => Step::Play,
            Pending::Overflow { .. } => Step::Overflow,
            Pending::SetAside { .. } => Step::SetAside,
            Pending::BuyTiebreak { .. } => Step::BuyTiebreak,
            Pending::FollowUp { .. } => Step::FollowUp,
            Pending::PowerSurge { .. } => Step::PowerSurge,
            Pending::FinishingExtras { .. } => Step::FinishingExtras,
            Pending::ParryPick { .. } => Step::ParryPick,
            Pending::EvasionPick { .. } => Step::EvasionPick,
            Pending::ChannelerSteal { .. } => Step::ChannelerSteal,
            Pending::GatherPower { .. } => Step::GatherPower,
        }
    }

    /// The step's wire name.
    pub fn name(&self) -> &'static str {
        self.step().name()
    }

    /// The seats that owe an answer, in seat order.
    pub fn seats(&self) -> Vec<Seat> {
        match self {
            Pending::Play => State::SEATS.to_vec(),
            Pending::Overflow { seats }
            | Pending::SetAside { seats }
            | Pending::ChannelerSteal { seats }
            | Pending::GatherPower { seats } => seats.clone(),
            Pending::BuyTiebreak { seat }
            | Pending::FollowUp { seat }
            | Pending::PowerSurge { seat }
            | Pending::FinishingExtras { seat }
            | Pending::ParryPick { seat }
            | Pending::EvasionPick { seat } => vec![*seat],
        }
    }
}

/// One automatic phase of the turn sequence still to run (§2.1). The engine pops these in
/// order; an `Ask*` operation stops at a [`Pending`] step when someone has a choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "op", content = "seat")]
pub enum Op {
    /// Start a turn: T1 draws (not on turn 1, S4), T2 poison, then T3.
    BeginTurn,
    /// Draw one token for a seat (T1, STD win, GRD win, Yellow Power-up).
    Draw(Seat),
    /// The pool is empty: end the game on HP (A15).
    EndExhausted,
    /// Ask every player over 9 tokens to discard (A16).
    CheckOverflow,
    /// T2: poison damage for both players.
    Poison,
    /// T2's KO check.
    KoCheck,
    /// T3: Piercing returns and the Channeler's set-aside offer.
    PrePlay,
    /// T4: ask both players for their plays.
    AskPlay,
    /// T8: offer a Sentinel who lost a tie-break on numbers the buy-back.
    OfferBuyBack,
    /// T9: clear Off-Balance.
    RemoveOffBalance,
    /// T10: resolve the win effects.
    Effects,
    /// T10: offer a Follow-up to a seat.
    AskFollowUp(Seat),
    /// T10: offer a Power Surge to a seat.
    AskSurge(Seat),
    /// T10: offer Finishing extras to a seat.
    AskFinishing(Seat),
    /// T10: the Parry reveal and pick.
    AskParry(Seat),
    /// T10: the Evasion pick.
    AskEvasion(Seat),
    /// T10: the Channeler's steal after Power-up wins.
    AskSteal,
    /// T11: played tokens to the discard.
    ClearTable,
    /// T12: revive, then the KO check.
    ReviveAndKo,
    /// T13: ask players holding a pair about Gather Power.
    AskGather,
    /// T14: end of turn, round cap, next turn.
    EndTurn,
}

/// Why the game ended (§2.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// One player at 0 HP or less at a KO check (L136).
    KnockOut,
    /// Both at 0 HP or less at the same check: a draw (A14).
    DoubleKnockOut,
    /// The pool reached 0: higher current HP wins (L138, A15).
    PoolExhausted,
    /// The host's `max_rounds` stall cap was reached: higher HP wins, as at pool exhaustion.
    RoundCap,
    /// The host kicked a player: a forfeit, the opponent wins (`host_acts.rs`).
    Forfeit,
    /// The host ended the duel as a draw or with a winner named (`host_acts.rs`).
    EndedByHost,
    /// Both players voted for a draw with their orders (`host_acts.rs`).
    DrawVote,
}

impl EndReason {
    /// The wire name.
    pub fn id(self) -> &'static str {
        match self {
            EndReason::KnockOut => "knock-out",
            EndReason::DoubleKnockOut => "double-knock-out",
            EndReason::PoolExhausted => "pool-exhausted",
            EndReason::RoundCap => "round-cap",
            EndReason::Forfeit => "forfeit",
            EndReason::EndedByHost => "ended-by-host",
            EndReason::DrawVote => "draw-vote",
        }
    }
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// The finished game's result, kept in the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finish {
    /// Winner seats (empty for a draw or tie).
    pub winners: Vec<Seat>,
    /// Why it ended.
    pub reason: EndReason,
}

/// The whole game: everything the host stores. The pool order is a secret and is never shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The turn number, from 1.
    pub round: u32,
    /// The stall cap, if any.
    pub max_rounds: Option<u32>,
    /// P1 and P2.
    pub players: [PlayerState; 2],
    /// The face-down pool; the front is the next draw (secret).
    pub pool: VecDeque<Token>,
    /// The face-up discard pile, oldest first.
    pub discard: Vec<Token>,
    /// The turn in progress.
    pub turn: Turn,
    /// Automatic phases still to run, front first.
    pub ops: VecDeque<Op>,
    /// The step waiting for answers; `None` only once finished.
    pub pending: Option<Pending>,
    /// Set once the game is over.
    pub finish: Option<Finish>,
}

impl State {
    /// Both seats of the duel, P1 first.
    pub const SEATS: [Seat; 2] = [Seat(0), Seat(1)];

    /// The other seat of the duel.
    pub const fn other(seat: Seat) -> Seat {
        Seat(1 - seat.0)
    }

    /// Every token the state holds somewhere, for the conservation invariant (pool + hands +
    /// discard + table = the 80-token set).
    pub fn all_tokens(&self) -> Vec<Token> {
        let mut all: Vec<Token> = self.pool.iter().copied().collect();
        all.extend(self.discard.iter().copied());
        for p in &self.players {
            all.extend(p.hand.iter().copied());
        }
        all.extend(self.turn.table.iter().flatten().copied());
        all.sort();
        all
    }
}
