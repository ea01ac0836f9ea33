//! The reveal log: one typed event per thing that happens, each with a line a person can
//! follow (A37 for what is public).

use serde::{Deserialize, Serialize};

use super::causes::{ChargeCause, DamageSource, HealSource, OffBalanceSource, PoisonSource, Term};
use super::legality::Illegal;
use super::matrix::{Reason, Verdict};
use super::moves::Move;
use super::state::{EndReason, PlayerRef, Step};
use super::tokens::Token;
use crate::rules::Seat;

/// One term of a damage sum, e.g. `{"term": "red-bonus", "amount": 2}` or
/// `{"term": "token", "token": "B7", "amount": 7}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// What the term is.
    #[serde(flatten)]
    pub label: Term,
    /// Its amount (may be negative: Channeler Standard -2).
    pub amount: i32,
}

/// Why tokens went to the discard pile (all face up, A37).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiscardWhy {
    /// Hand over 9 (A16).
    Overflow,
    /// A Gather Power pair (L187).
    GatherPower,
    /// The Sentinel's tie-break buy-back (A2).
    BuyBack,
    /// A Follow-up token (L209).
    FollowUp,
    /// Finishing Strike extras (L237).
    FinishingExtras,
    /// Chosen by the Parry winner (L259).
    Parry,
}

/// A log event. Serialized with a `kind` tag; `Display` is the log line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum BstEvent {
    /// A turn starts.
    TurnBegan {
        /// The turn number.
        round: u32,
    },
    /// A draw, token named: for the drawer's eyes only.
    Drew {
        /// Who drew.
        player: PlayerRef,
        /// The drawer's seat (the audience).
        seat: Seat,
        /// The token drawn.
        token: Token,
    },
    /// A draw as everyone sees it: a count only.
    DrewCount {
        /// Who drew.
        player: PlayerRef,
        /// Hand size after the draw.
        hand_size: usize,
        /// Pool size after the draw.
        pool_size: usize,
    },
    /// Tokens discarded face up from a hand.
    Discarded {
        /// Whose hand.
        player: PlayerRef,
        /// The tokens.
        tokens: Vec<Token>,
        /// Why.
        why: DiscardWhy,
    },
    /// T2 poison damage.
    PoisonDamage {
        /// Who.
        player: PlayerRef,
        /// Counters held.
        counters: u32,
        /// 2 per counter.
        damage: i32,
        /// HP after.
        hp: i32,
    },
    /// The Channeler set the opponent's Piercing Strike aside (A28).
    PiercingSetAside {
        /// The Channeler.
        by: PlayerRef,
        /// The opponent.
        player: PlayerRef,
    },
    /// A set-aside Piercing Strike returned because its owner holds Charges again (A28).
    PiercingReturned {
        /// The owner.
        player: PlayerRef,
    },
    /// T5: a tile and token revealed.
    Revealed {
        /// Who.
        player: PlayerRef,
        /// The tile submitted.
        #[serde(rename = "move")]
        chosen: Move,
        /// The token.
        token: Token,
    },
    /// T6: an illegal move replaced, and why.
    Replaced {
        /// Who.
        player: PlayerRef,
        /// The submitted tile.
        from: Move,
        /// Standard Strike or Guard.
        to: Move,
        /// The reason (T6 (i)-(iv)).
        reason: Illegal,
    },
    /// T7: a cost paid.
    Paid {
        /// Who.
        player: PlayerRef,
        /// For what.
        #[serde(rename = "move")]
        paid_for: Move,
        /// Charges paid.
        cost: u8,
        /// Charges left.
        charges: u8,
    },
    /// T8: the exchange's result and its reason.
    Exchange {
        /// Win, both win or both lose.
        verdict: Verdict,
        /// The winners, by name.
        winners: Vec<PlayerRef>,
        /// The matrix cell class, numbers, colour rule or OB rule.
        reason: Reason,
    },
    /// T9: Off-Balance cleared.
    OffBalanceRemoved {
        /// Who lost the status.
        players: Vec<PlayerRef>,
    },
    /// Damage dealt, with its arithmetic.
    Damage {
        /// The dealer.
        by: PlayerRef,
        /// The target.
        to: PlayerRef,
        /// The effect that dealt it.
        source: DamageSource,
        /// The terms of the sum.
        parts: Vec<Part>,
        /// The total.
        total: i32,
        /// The target's HP after.
        hp: i32,
    },
    /// A heal, capped at the starting HP (A22).
    Healed {
        /// Who.
        player: PlayerRef,
        /// HP actually gained.
        amount: i32,
        /// HP after.
        hp: i32,
        /// Why.
        source: HealSource,
    },
    /// Off-Balance set.
    OffBalanceSet {
        /// Who.
        player: PlayerRef,
        /// By what.
        source: OffBalanceSource,
    },
    /// Both players Off-Balance: both cleared (L188, A18).
    OffBalanceCancelled,
    /// A poison counter added.
    Poisoned {
        /// Who.
        player: PlayerRef,
        /// Counters now.
        counters: u32,
        /// By what.
        source: PoisonSource,
    },
    /// A poison counter removed by a heal or Gather Power (A23).
    PoisonRemoved {
        /// Who.
        player: PlayerRef,
        /// Counters now.
        counters: u32,
    },
    /// Charges changed.
    Charges {
        /// Who.
        player: PlayerRef,
        /// The change (+/-).
        change: i32,
        /// Charges now.
        charges: u8,
        /// Why.
        why: ChargeCause,
    },
    /// A winning Guard's token returns to its hand (L245).
    TokenReturned {
        /// Who.
        player: PlayerRef,
        /// The token.
        token: Token,
    },
    /// The Assassin's Follow-up took a pool token, revealed (A25).
    PoolTokenRevealed {
        /// The Assassin.
        player: PlayerRef,
        /// The token.
        token: Token,
    },
    /// The Parry loser's hand, shown (A33: public in this round's log).
    HandRevealed {
        /// Whose hand.
        player: PlayerRef,
        /// The hand.
        hand: Vec<Token>,
    },
    /// The Evasion winner took a discard token (A34).
    TookFromDiscard {
        /// Who.
        player: PlayerRef,
        /// The token.
        token: Token,
    },
    /// A player declined an optional step.
    Declined {
        /// Who.
        player: PlayerRef,
        /// The step.
        step: Step,
    },
    /// Both players lost the exchange: nothing happens (L176).
    NothingHappens,
    /// The Warpriest revived (A20).
    Revived {
        /// Who.
        player: PlayerRef,
    },
    /// T11: played tokens go to the discard.
    TableCleared {
        /// The tokens.
        tokens: Vec<Token>,
    },
    /// The pool is empty (A15).
    PoolExhausted,
    /// A player is knocked out.
    KnockedOut {
        /// Who.
        player: PlayerRef,
        /// HP.
        hp: i32,
    },
    /// The host kicked this player: a forfeit (`host_acts.rs`).
    Forfeited {
        /// Who.
        player: PlayerRef,
    },
    /// The game is over.
    GameOver {
        /// The winners (empty for a draw).
        winners: Vec<PlayerRef>,
        /// Why it ended (§2.2).
        reason: EndReason,
        /// Both players' HP at the end, seat order.
        hp: [i32; 2],
    },
}
