//! The reveal log: one typed event per thing that happens, each with a line a person can
//! follow (issue 3 "Reveal log", A37 for what is public).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::matrix::{Reason, Verdict};
use super::moves::Move;
use super::state::PlayerRef;
use super::tokens::{Token, show};
use crate::rules::{Audience, Seat};

/// One term of a damage sum, e.g. `{"label": "red", "amount": 2}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// What the term is (`token B7`, `red`, `base`, `surge`, ...).
    pub label: String,
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

impl DiscardWhy {
    fn text(self) -> &'static str {
        match self {
            DiscardWhy::Overflow => "to get down to 9 tokens (A16)",
            DiscardWhy::GatherPower => "to Gather Power (L187)",
            DiscardWhy::BuyBack => "to buy the tie-break (A2)",
            DiscardWhy::FollowUp => "for a Follow-up (L209)",
            DiscardWhy::FinishingExtras => "as Finishing Strike extras (L237)",
            DiscardWhy::Parry => "as picked by the Parry (L259)",
        }
    }
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
        seat: usize,
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
        reason: String,
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
        /// The effect (`Standard Strike`, `Power Surge`, `Follow-up`, ...).
        source: String,
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
        source: String,
    },
    /// Off-Balance set.
    OffBalanceSet {
        /// Who.
        player: PlayerRef,
        /// By what.
        source: String,
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
        source: String,
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
        /// Why (gain, surge, steal, refund, Gather Power, cap).
        why: String,
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
        step: String,
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
    /// The game is over.
    GameOver {
        /// The winners (empty for a draw).
        winners: Vec<PlayerRef>,
        /// `knock-out`, `double-knock-out`, `pool-exhausted`, `round-cap`.
        reason: String,
        /// Both players' HP at the end, seat order.
        hp: [i32; 2],
    },
}

impl crate::rules::Event for BstEvent {
    fn audience(&self) -> Audience {
        match self {
            BstEvent::Drew { seat, .. } => Audience::Only(Seat(*seat)),
            BstEvent::TurnBegan { .. }
            | BstEvent::DrewCount { .. }
            | BstEvent::Discarded { .. }
            | BstEvent::PoisonDamage { .. }
            | BstEvent::PiercingSetAside { .. }
            | BstEvent::PiercingReturned { .. }
            | BstEvent::Revealed { .. }
            | BstEvent::Replaced { .. }
            | BstEvent::Paid { .. }
            | BstEvent::Exchange { .. }
            | BstEvent::OffBalanceRemoved { .. }
            | BstEvent::Damage { .. }
            | BstEvent::Healed { .. }
            | BstEvent::OffBalanceSet { .. }
            | BstEvent::OffBalanceCancelled
            | BstEvent::Poisoned { .. }
            | BstEvent::PoisonRemoved { .. }
            | BstEvent::Charges { .. }
            | BstEvent::TokenReturned { .. }
            | BstEvent::PoolTokenRevealed { .. }
            | BstEvent::HandRevealed { .. }
            | BstEvent::TookFromDiscard { .. }
            | BstEvent::Declined { .. }
            | BstEvent::NothingHappens
            | BstEvent::Revived { .. }
            | BstEvent::TableCleared { .. }
            | BstEvent::PoolExhausted
            | BstEvent::KnockedOut { .. }
            | BstEvent::GameOver { .. } => Audience::Everyone,
        }
    }
}

fn names(players: &[PlayerRef]) -> String {
    players
        .iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(" and ")
}

impl fmt::Display for BstEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BstEvent::TurnBegan { round } => write!(f, "Turn {round} begins."),
            BstEvent::Drew { player, token, .. } => write!(f, "{} draws {token}.", player.name),
            BstEvent::DrewCount {
                player,
                hand_size,
                pool_size,
            } => write!(
                f,
                "{} draws a token (hand {hand_size}, pool {pool_size}).",
                player.name
            ),
            BstEvent::Discarded {
                player,
                tokens,
                why,
            } => {
                write!(
                    f,
                    "{} discards {} {}.",
                    player.name,
                    show(tokens),
                    why.text()
                )
            }
            BstEvent::PoisonDamage {
                player,
                counters,
                damage,
                hp,
            } => write!(
                f,
                "{} takes {damage} poison damage ({counters} counter(s) x 2, L194): HP {hp}.",
                player.name
            ),
            BstEvent::PiercingSetAside { by, player } => write!(
                f,
                "{} sets {}'s Piercing Strike aside until they hold a Charge (L307, A28).",
                by.name, player.name
            ),
            BstEvent::PiercingReturned { player } => {
                write!(
                    f,
                    "{}'s Piercing Strike returns: they hold a Charge again (A28).",
                    player.name
                )
            }
            BstEvent::Revealed {
                player,
                chosen,
                token,
            } => {
                write!(f, "{} reveals {chosen} with {token}.", player.name)
            }
            BstEvent::Replaced {
                player,
                from,
                to,
                reason,
            } => write!(
                f,
                "{}'s {from} is illegal ({reason}) and becomes {to} with the same token (T6, L196).",
                player.name
            ),
            BstEvent::Paid {
                player,
                paid_for,
                cost,
                charges,
            } => write!(
                f,
                "{} pays {cost} Charge(s) for {paid_for} (T7): {charges} left.",
                player.name
            ),
            BstEvent::Exchange {
                verdict,
                winners,
                reason,
            } => match verdict {
                Verdict::Won { .. } => write!(f, "{} wins the exchange: {reason}.", names(winners)),
                Verdict::BothWon => write!(f, "Both win: {reason}."),
                Verdict::BothLost => write!(f, "Both lose: {reason}."),
            },
            BstEvent::OffBalanceRemoved { players } => {
                write!(f, "{} recover(s) from Off-Balance (T9).", names(players))
            }
            BstEvent::Damage {
                by,
                to,
                source,
                parts,
                total,
                hp,
            } => {
                let sum: Vec<String> = parts
                    .iter()
                    .map(|p| format!("{} ({})", p.amount, p.label))
                    .collect();
                write!(
                    f,
                    "{}'s {source} deals {} = {total} damage to {}: HP {hp}.",
                    by.name,
                    sum.join(" + "),
                    to.name
                )
            }
            BstEvent::Healed {
                player,
                amount,
                hp,
                source,
            } => {
                write!(
                    f,
                    "{} heals {amount} ({source}, capped at the start HP, A22): HP {hp}.",
                    player.name
                )
            }
            BstEvent::OffBalanceSet { player, source } => {
                write!(f, "{} is Off-Balance ({source}).", player.name)
            }
            BstEvent::OffBalanceCancelled => {
                f.write_str("Both players are Off-Balance: the statuses cancel (L188, A18).")
            }
            BstEvent::Poisoned {
                player,
                counters,
                source,
            } => write!(
                f,
                "{} is poisoned by {source}: {counters} counter(s).",
                player.name
            ),
            BstEvent::PoisonRemoved { player, counters } => write!(
                f,
                "{} removes a poison counter (A23): {counters} left.",
                player.name
            ),
            BstEvent::Charges {
                player,
                change,
                charges,
                why,
            } => write!(
                f,
                "{} {} {} Charge(s) ({why}): {charges} now.",
                player.name,
                if *change >= 0 { "gains" } else { "loses" },
                change.abs()
            ),
            BstEvent::TokenReturned { player, token } => {
                write!(
                    f,
                    "{}'s Guard token {token} returns to their hand (L245).",
                    player.name
                )
            }
            BstEvent::PoolTokenRevealed { player, token } => write!(
                f,
                "{} takes a random token from the pool for the Follow-up: {token} (L298, A25).",
                player.name
            ),
            BstEvent::HandRevealed { player, hand } => {
                write!(
                    f,
                    "{} reveals their hand to the Parry: {} (A33).",
                    player.name,
                    show(hand)
                )
            }
            BstEvent::TookFromDiscard { player, token } => {
                write!(
                    f,
                    "{} takes {token} from the discard pile (L266, A34).",
                    player.name
                )
            }
            BstEvent::Declined { player, step } => {
                write!(f, "{} declines the {step}.", player.name)
            }
            BstEvent::NothingHappens => f.write_str("Nothing else happens (L176)."),
            BstEvent::Revived { player } => write!(
                f,
                "{} refuses to fall: HP set to 5, Charges to 0, next turn free (L292, A20).",
                player.name
            ),
            BstEvent::TableCleared { tokens } => {
                write!(
                    f,
                    "Played tokens go to the discard: {} (T11).",
                    show(tokens)
                )
            }
            BstEvent::PoolExhausted => f.write_str("The pool is empty: the game ends (L138, A15)."),
            BstEvent::KnockedOut { player, hp } => {
                write!(f, "{} is knocked out at {hp} HP.", player.name)
            }
            BstEvent::GameOver {
                winners,
                reason,
                hp,
            } => {
                if winners.is_empty() {
                    write!(
                        f,
                        "Game over ({reason}): a draw, HP {} to {}.",
                        hp[0], hp[1]
                    )
                } else {
                    write!(
                        f,
                        "Game over ({reason}): {} wins, HP {} to {}.",
                        names(winners),
                        hp[0],
                        hp[1]
                    )
                }
            }
        }
    }
}
