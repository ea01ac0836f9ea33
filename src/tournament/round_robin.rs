//! The round robin by Berger tables (`docs/tournaments.md`, "Round robin"): the entrants are
//! numbered 1..m by seed (m = n, or n + 1 with a bye for an odd n), and in round r (1..m − 1)
//! players i and j (both below m) meet when i + j ≡ r + 1 (mod m − 1), and player m meets the
//! i with 2i ≡ r + 1. Every pair of numbers gives one residue, so every pair meets exactly once;
//! since m − 1 is odd, 2 has an inverse and player m has exactly one opponent each round.

use super::entrants::{Entrant, EntrantId, seed_cmp};
use super::record::DuelPairing;

/// Every round of a round robin among `entrants` (withdrawn or not: the schedule is fixed when
/// entries close), numbered by seed; with an odd number of entrants, each has one bye.
pub fn round_robin_schedule(entrants: &[Entrant]) -> Vec<DuelPairing> {
    let mut seeded: Vec<&Entrant> = entrants.iter().collect();
    seeded.sort_by(|a, b| seed_cmp(a, b));
    // Berger number k + 1 is seeded[k]; the last number is nobody (a bye) when n is odd.
    let player = |number: usize| seeded.get(number - 1).map(|e| e.id);
    let n = seeded.len();
    if n < 2 {
        return Vec::new();
    }
    let m = n + n % 2;
    let modulus = m - 1;
    (1..m)
        .map(|r| {
            let residue = (r + 1) % modulus;
            let mut pairing = DuelPairing::default();
            let mut pair = |a: usize, b: usize| match (player(a), player(b)) {
                (Some(x), Some(y)) => pairing.games.push([x, y]),
                (Some(x), None) | (None, Some(x)) => pairing.byes.push(x),
                (None, None) => {}
            };
            let last = (1..m)
                .find(|i| (2 * i) % modulus == residue)
                .expect("2 is invertible modulo an odd number");
            pair(last, m);
            for i in 1..m {
                for j in i + 1..m {
                    if (i + j) % modulus == residue {
                        pair(i, j);
                    }
                }
            }
            pairing
        })
        .collect()
}

/// Round `round` (1-based) of the schedule as it is played: a game against an entrant who has
/// withdrawn becomes a bye for his opponent (a round with no opponent, worth 1 as a bye is), and
/// the withdrawn entrant plays no more. `None` once every round has been played.
pub fn round_robin_round(entrants: &[Entrant], round: u32) -> Option<DuelPairing> {
    let index = usize::try_from(round).ok()?.checked_sub(1)?;
    let scheduled = round_robin_schedule(entrants).into_iter().nth(index)?;
    let withdrawn = |id: &EntrantId| entrants.iter().any(|e| e.id == *id && e.withdrawn);
    let mut pairing = DuelPairing::default();
    for [a, b] in scheduled.games {
        match (withdrawn(&a), withdrawn(&b)) {
            (false, false) => pairing.games.push([a, b]),
            (true, false) => pairing.byes.push(b),
            (false, true) => pairing.byes.push(a),
            (true, true) => {}
        }
    }
    pairing
        .byes
        .extend(scheduled.byes.into_iter().filter(|b| !withdrawn(b)));
    Some(pairing)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    fn field(n: u64) -> Vec<Entrant> {
        (1..=n)
            .map(|i| Entrant::new(EntrantId(i), i as u32))
            .collect()
    }

    fn numbers(pairing: &DuelPairing) -> Vec<[u64; 2]> {
        pairing.games.iter().map(|[a, b]| [a.0, b.0]).collect()
    }

    #[test]
    fn four_players_follow_the_berger_table() {
        let rounds = round_robin_schedule(&field(4));
        let got: Vec<Vec<[u64; 2]>> = rounds.iter().map(numbers).collect();
        assert_eq!(
            got,
            [
                vec![[1, 4], [2, 3]],
                vec![[3, 4], [1, 2]],
                vec![[2, 4], [1, 3]]
            ]
        );
    }

    #[test]
    fn a_withdrawn_entrant_s_games_become_his_opponents_byes() {
        let mut entrants = field(4);
        entrants[3].withdrawn = true;
        let first = round_robin_round(&entrants, 1).unwrap();
        assert_eq!(numbers(&first), [[2, 3]]);
        assert_eq!(first.byes, [EntrantId(1)]);
        assert_eq!(round_robin_round(&entrants, 4), None);
        assert_eq!(round_robin_round(&entrants, 0), None);
    }

    proptest! {
        /// Every pair exactly once; nobody twice in a round; n − 1 rounds (n for an odd n),
        /// each entrant with exactly one bye when n is odd and none when it is even.
        #[test]
        fn every_pair_meets_exactly_once(n in 0u64..=24) {
            let rounds = round_robin_schedule(&field(n));
            let expected_rounds = match n { 0 | 1 => 0, n if n % 2 == 0 => n - 1, n => n };
            prop_assert_eq!(rounds.len() as u64, expected_rounds);
            let mut met: BTreeMap<(u64, u64), u32> = BTreeMap::new();
            let mut byes: BTreeMap<u64, u32> = BTreeMap::new();
            for round in &rounds {
                let mut seen: Vec<u64> = round.games.iter().flatten().chain(&round.byes).map(|e| e.0).collect();
                seen.sort();
                prop_assert_eq!(seen, (1..=n).collect::<Vec<_>>());
                for [a, b] in numbers(round) {
                    *met.entry((a.min(b), a.max(b))).or_default() += 1;
                }
                for b in &round.byes {
                    *byes.entry(b.0).or_default() += 1;
                }
            }
            prop_assert_eq!(met.len() as u64, n * n.saturating_sub(1) / 2);
            prop_assert!(met.values().all(|c| *c == 1));
            match n % 2 {
                1 if n > 1 => prop_assert!((1..=n).all(|i| byes.get(&i) == Some(&1))),
                _ => prop_assert!(byes.is_empty()),
            }
        }
    }
}
