//! The log lines: how each event reads to a person.

use std::fmt;

use super::events::{BstEvent, DiscardWhy};
use super::matrix::Verdict;
use super::state::PlayerRef;
use super::tokens::show;

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
            BstEvent::Forfeited { player } => write!(
                f,
                "The host removes {} from the duel: a forfeit.",
                player.name
            ),
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
