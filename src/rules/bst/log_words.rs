//! The log lines as people read them on the pages, in the posts and in the notices
//! ([`crate::rules::Event::words`]): real plurals, verbs that agree, steps and endings in
//! words. The stored lines (`log_lines.rs`) stay as they are: archives hash and replay them.
//! With them, the rest of what the host asks of a log line: who may see it, and which round
//! it opens.

use super::events::BstEvent;
use super::state::{EndReason, PlayerRef, Step};
use crate::rules::Audience;

/// `n` and its noun, plural unless one: "1 Charge", "2 Charges".
fn count(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

fn names(players: &[PlayerRef]) -> String {
    players
        .iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(" and ")
}

/// What a player declines, after "declines": "the Follow-up", "to Gather Power".
fn declined(step: Step) -> &'static str {
    match step {
        Step::Play => "to play",
        Step::Overflow => "the discard down to 9",
        Step::SetAside => "to set a Piercing Strike aside",
        Step::BuyTiebreak => "to buy the tie-break",
        Step::FollowUp => "the Follow-up",
        Step::PowerSurge => "the Power Surge",
        Step::FinishingExtras => "the Finishing Strike extras",
        Step::ParryPick => "the Parry pick",
        Step::EvasionPick => "the Evasion pick",
        Step::ChannelerSteal => "the Channeler's steal",
        Step::GatherPower => "to Gather Power",
    }
}

/// Why the duel ended, after "Game over:".
fn ended(reason: EndReason) -> &'static str {
    match reason {
        EndReason::KnockOut => "a knock-out",
        EndReason::DoubleKnockOut => "both are knocked out",
        EndReason::PoolExhausted => "the pool is empty",
        EndReason::RoundCap => "the last round was played",
        EndReason::Forfeit => "a forfeit",
        EndReason::EndedByHost => "the host ended the duel",
        EndReason::DrawVote => "both voted for a draw",
    }
}

/// The line of `event` as people read it.
pub fn words(event: &BstEvent) -> String {
    match event {
        BstEvent::PoisonDamage {
            player,
            counters,
            damage,
            hp,
        } => format!(
            "{} takes {damage} poison damage ({} x 2, L194): HP {hp}.",
            player.name,
            count(*counters, "counter", "counters")
        ),
        BstEvent::Paid {
            player,
            paid_for,
            cost,
            charges,
        } => format!(
            "{} pays {} for {paid_for} (T7): {charges} left.",
            player.name,
            count(*cost, "Charge", "Charges")
        ),
        BstEvent::OffBalanceRemoved { players } => format!(
            "{} {} from Off-Balance (T9).",
            names(players),
            if players.len() == 1 {
                "recovers"
            } else {
                "recover"
            }
        ),
        BstEvent::Poisoned {
            player,
            counters,
            source,
        } => format!(
            "{} is poisoned by {source}: {}.",
            player.name,
            count(*counters, "counter", "counters")
        ),
        BstEvent::Charges {
            player,
            change,
            charges,
            why,
        } => format!(
            "{} {} {} ({why}): {charges} now.",
            player.name,
            if *change >= 0 { "gains" } else { "loses" },
            count(change.abs(), "Charge", "Charges")
        ),
        BstEvent::Declined { player, step } => {
            format!("{} declines {}.", player.name, declined(*step))
        }
        BstEvent::GameOver {
            winners,
            reason,
            hp,
        } => match winners.as_slice() {
            [] => format!(
                "Game over ({}): a draw, HP {} to {}.",
                ended(*reason),
                hp[0],
                hp[1]
            ),
            _ => format!(
                "Game over ({}): {} wins, HP {} to {}.",
                ended(*reason),
                names(winners),
                hp[0],
                hp[1]
            ),
        },
        other => other.to_string(),
    }
}

/// A private draw and the public count that follows it, as one line for the drawer: "Mia
/// draws B10 (hand 5, pool 20)." rather than the draw told twice.
pub fn drew_with_count(drew: &BstEvent, next: &BstEvent) -> Option<String> {
    match (drew, next) {
        (
            BstEvent::Drew { player, token, .. },
            BstEvent::DrewCount {
                player: counted,
                hand_size,
                pool_size,
            },
        ) if player.id == counted.id => Some(format!(
            "{} draws {token} (hand {hand_size}, pool {pool_size}).",
            player.name
        )),
        _ => None,
    }
}

impl crate::rules::Event for BstEvent {
    fn words(&self) -> String {
        words(self)
    }

    fn audience(&self) -> Audience {
        match self {
            BstEvent::Drew { seat, .. } => Audience::Only(*seat),
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
            | BstEvent::Forfeited { .. }
            | BstEvent::GameOver { .. } => Audience::Everyone,
        }
    }

    /// A turn's start (T1: its draw, then poison) opens that round's log (L142-L150).
    fn opens_round(&self) -> Option<u32> {
        if let BstEvent::TurnBegan { round } = self {
            Some(*round)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{PlayerId, Seat};

    fn mia() -> PlayerRef {
        PlayerRef {
            id: PlayerId(uuid::Uuid::from_u128(7)),
            name: "Mia".into(),
        }
    }

    #[test]
    fn counts_are_plural_only_when_more_than_one() {
        let paid = |cost| BstEvent::Paid {
            player: mia(),
            paid_for: super::super::Move::LightningStrike,
            cost,
            charges: 0,
        };
        assert_eq!(
            words(&paid(1)),
            "Mia pays 1 Charge for Lightning Strike (T7): 0 left."
        );
        assert!(words(&paid(2)).contains("pays 2 Charges for"));
        // The stored line is the record, and stays as it was.
        assert!(paid(1).to_string().contains("1 Charge(s)"));
        let two = BstEvent::OffBalanceRemoved {
            players: vec![mia(), mia()],
        };
        assert_eq!(words(&two), "Mia and Mia recover from Off-Balance (T9).");
        let one = BstEvent::OffBalanceRemoved {
            players: vec![mia()],
        };
        assert_eq!(words(&one), "Mia recovers from Off-Balance (T9).");
    }

    #[test]
    fn steps_and_endings_read_as_words_not_ids() {
        let declined = BstEvent::Declined {
            player: mia(),
            step: Step::GatherPower,
        };
        assert_eq!(words(&declined), "Mia declines to Gather Power.");
        let over = BstEvent::GameOver {
            winners: vec![mia()],
            reason: EndReason::PoolExhausted,
            hp: [51, 3],
        };
        assert_eq!(
            words(&over),
            "Game over (the pool is empty): Mia wins, HP 51 to 3."
        );
    }

    #[test]
    fn a_draw_and_its_count_read_as_one_line_for_the_drawer() {
        let drew = BstEvent::Drew {
            player: mia(),
            seat: Seat(0),
            token: "B10".parse().unwrap(),
        };
        let count = BstEvent::DrewCount {
            player: mia(),
            hand_size: 5,
            pool_size: 20,
        };
        assert_eq!(
            drew_with_count(&drew, &count).as_deref(),
            Some("Mia draws B10 (hand 5, pool 20).")
        );
        assert_eq!(drew_with_count(&count, &drew), None);
    }
}
