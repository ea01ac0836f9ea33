//! R8-R10: moving counters (G5), the overkill split (Ruling 29), the Assail cap (Ruling 20)
//! and Taunt steals (Rulings 24-25).

use super::damage::{Hit, Source};
use super::events::{Event, Returned, Share};
use super::moves::{Attack, Move};
use super::rulebook::{AssailCap, Overkill, TauntSnapshot};
use super::turn::Turn;
use crate::rules::Seat;

/// R8, Ruling 29: splits `hp` counters among damagers who dealt `damages` (seat, amount) in
/// total more than `hp`. Each gets `floor(hp·d/D)`; the leftover goes one each to the largest
/// remainders `hp·d mod D`, ties to the larger damage, then the lower seat. When the damage
/// fits (`D ≤ hp`) everyone gets exactly his damage. The result is in the input's order.
pub fn split(hp: u32, damages: &[(Seat, u32)]) -> Vec<u32> {
    let total: u64 = damages.iter().map(|(_, d)| u64::from(*d)).sum();
    let hp = u64::from(hp);
    if total <= hp {
        return damages.iter().map(|(_, d)| *d).collect();
    }
    let mut shares: Vec<u64> = damages
        .iter()
        .map(|(_, d)| hp * u64::from(*d) / total)
        .collect();
    let leftover = hp - shares.iter().sum::<u64>();
    let mut order: Vec<usize> = (0..damages.len()).collect();
    order.sort_by(|&a, &b| {
        let (sa, da) = damages[a];
        let (sb, db) = damages[b];
        let ra = hp * u64::from(da) % total;
        let rb = hp * u64::from(db) % total;
        rb.cmp(&ra).then(db.cmp(&da)).then(sa.cmp(&sb))
    });
    for &i in order
        .iter()
        .take(usize::try_from(leftover).unwrap_or(usize::MAX))
    {
        shares[i] += 1;
    }
    shares
        .into_iter()
        .map(|s| u32::try_from(s).unwrap_or(u32::MAX))
        .collect()
}

/// The most VP an Assailer may gain from his Assail in one turn (AS, Ruling 20).
pub const ASSAIL_CAP: u32 = 8;

/// R9, Ruling 20: of `counters` won by an Assail this turn, how many are credited and how many
/// leave the game.
pub fn assail_cap(counters: u32) -> (u32, u32) {
    let credited = counters.min(ASSAIL_CAP);
    (credited, counters - credited)
}

/// R10, Ruling 24: what each of `taunters` Taunters steals from a pool of `vp0` VP at the start
/// of the turn: `min(3, floor(vp0 / k))`; the remainder stays with the target.
pub fn taunt_share(vp0: u32, taunters: usize) -> u32 {
    let k = u32::try_from(taunters.max(1)).unwrap_or(u32::MAX);
    (vp0 / k).min(3)
}

/// R9 with `assail_cap = return` (Ruling 20, §3.2): the order in which the Assailer `x`
/// keeps his Assail counters: the declared target `t` first, then the seats following `x`,
/// wrapping round, and `x` himself (`assail_self`) last.
pub fn keep_order(n: usize, x: Seat, t: Seat) -> Vec<Seat> {
    let mut order = vec![t];
    order.extend((1..n).map(|k| Seat((x.0 + k) % n)).filter(|&s| s != t));
    if x != t {
        order.push(x);
    }
    order
}

/// R9 with `assail_cap = return`: of the Assail counters `won[v]` from each victim, keeps at
/// most 8 in `order`; returns what goes back to each victim.
pub fn returned(won: &[u32], order: &[Seat]) -> Vec<u32> {
    let mut room = ASSAIL_CAP;
    let mut back = vec![0u32; won.len()];
    for &v in order {
        let kept = won[v.0].min(room);
        room -= kept;
        back[v.0] = won[v.0] - kept;
    }
    back
}

/// R8-R10 in order: each victim's counters go to his damagers (split on overkill, card damage
/// before a Lunge bonus), each Assailer keeps at most 8 of his Assail counters, then active
/// Taunts steal from the start-of-turn VP. `hp` is after R4's heals; `vp` after R4's Mend VP.
///
/// Variants (§3.2): `overkill = full_credit` credits every damager his full damage, the excess
/// from the supply (Ruling 29); `assail_cap = return` gives the excess back to the victims'
/// HP before the death check (Ruling 20); `taunt_snapshot = post_damage` steals from the VP
/// after R9 (Ruling 25).
pub fn settle(
    turn: &Turn<'_>,
    ledger: &[Hit],
    hp: &mut [u32],
    vp: &mut [u32],
    events: &mut Vec<Event>,
) {
    let state = turn.state;
    let rules = &state.rules;
    let who = |s: Seat| state.player_ref(s);
    // R8: move counters, split on overkill (G5, Ruling 29).
    let n = state.players.len();
    // assail_won[x][v]: counters x's Assail won from v.
    let mut assail_won = vec![vec![0u32; n]; n];
    let mut other_counters = vec![0u32; n];
    let full_credit = rules.overkill == Overkill::FullCredit;
    for v in turn.seats() {
        let hits: Vec<&Hit> = ledger.iter().filter(|h| h.to == v).collect();
        let damages: Vec<(Seat, u32)> = turn
            .seats()
            .map(|j| {
                (
                    j,
                    hits.iter().filter(|h| h.from == j).map(|h| h.amount).sum(),
                )
            })
            .filter(|(_, d)| *d > 0)
            .collect();
        let total: u32 = damages.iter().map(|(_, d)| d).sum();
        if total == 0 {
            continue;
        }
        let hv = hp[v.0];
        let shares = match full_credit {
            true => damages.iter().map(|(_, d)| *d).collect(),
            false => split(hv, &damages),
        };
        let overkill = total > hv;
        hp[v.0] -= total.min(hv);
        let mut log = Vec::new();
        for (&(j, damage), &counters) in damages.iter().zip(&shares) {
            // Card damage first, then the Lunge bonus (R8): only Assail counters are capped.
            let assail: u32 = hits
                .iter()
                .filter(|h| h.from == j && h.source == Source::Card(Attack::Assail))
                .map(|h| h.amount)
                .sum();
            let to_assail = counters.min(assail);
            assail_won[j.0][v.0] += to_assail;
            other_counters[j.0] += counters - to_assail;
            log.push(Share {
                damager: who(j),
                damage,
                counters,
            });
        }
        events.push(Event::CountersMoved {
            victim: who(v),
            hp: hv,
            damage: total,
            overkill,
            full_credit: full_credit && overkill,
            shares: log,
        });
    }

    // R9: the Assail cap, then VP credit (Ruling 20).
    for x in turn.seats() {
        let won: u32 = assail_won[x.0].iter().sum();
        let (credited, excess) = assail_cap(won);
        vp[x.0] += credited + other_counters[x.0];
        if excess == 0 {
            continue;
        }
        match (rules.assail_cap, turn.attack(x)) {
            (AssailCap::Return, Some((_, t))) => {
                let back = returned(&assail_won[x.0], &keep_order(n, x, t));
                let mut list = Vec::new();
                for v in turn.seats().filter(|v| back[v.0] > 0) {
                    hp[v.0] += back[v.0];
                    list.push(Returned {
                        victim: who(v),
                        counters: back[v.0],
                    });
                }
                events.push(Event::AssailReturned {
                    assailer: who(x),
                    counters: won,
                    credited,
                    returned: list,
                });
            }
            (AssailCap::Discard, _) | (AssailCap::Return, None) => {
                events.push(Event::AssailCapped {
                    assailer: who(x),
                    counters: won,
                    credited,
                    discarded: excess,
                })
            }
        }
    }

    // R10: Taunt steals from the start-of-turn snapshot (R1, Rulings 24-25), or from the VP
    // after R9 (`post_damage`); every steal reads the same snapshot, so chains are order-free.
    let snapshot: Vec<u32> = match rules.taunt_snapshot {
        TauntSnapshot::Start => state.players.iter().map(|p| p.vp).collect(),
        TauntSnapshot::PostDamage => vp.to_vec(),
    };
    for y in turn.seats() {
        let taunters: Vec<Seat> = turn
            .seats()
            .filter(|&s| turn.active(s) == Some((Move::Taunt, y)))
            .collect();
        if taunters.is_empty() {
            continue;
        }
        let pool = snapshot[y.0];
        let stolen = taunt_share(pool, taunters.len());
        for &t in &taunters {
            vp[t.0] += stolen;
            vp[y.0] -= stolen;
            events.push(Event::TauntSteal {
                taunter: who(t),
                target: who(y),
                pool,
                taunters: u32::try_from(taunters.len()).unwrap_or(u32::MAX),
                stolen,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruling_29_damage_within_hp_moves_in_full() {
        assert_eq!(split(10, &[(Seat(0), 3), (Seat(1), 7)]), [3, 7]);
    }

    #[test]
    fn ruling_29_overkill_splits_by_largest_remainder() {
        // hp 4, damages 5 and 2 (D 7): 20/7 = 2 r6, 8/7 = 1 r1, leftover 1 → first.
        assert_eq!(split(4, &[(Seat(0), 5), (Seat(1), 2)]), [3, 1]);
    }

    #[test]
    fn ruling_29_equal_remainders_go_to_the_larger_damage_then_the_lower_seat() {
        // hp 1, damages 3,3 (D 6): q 0,0, remainders 3,3, equal damage → lower seat.
        assert_eq!(split(1, &[(Seat(2), 3), (Seat(1), 3)]), [0, 1]);
        // hp 3, damages 2 and 4 (D 6): q 1, 2, remainders 0, 0: no leftover.
        assert_eq!(split(3, &[(Seat(0), 2), (Seat(1), 4)]), [1, 2]);
        // hp 2, damages 1,1,2 (D 4): q 0,0,1; remainders 2,2,0; leftover 1 → lower seat of the 1s.
        assert_eq!(
            split(2, &[(Seat(0), 1), (Seat(1), 1), (Seat(2), 2)]),
            [1, 0, 1]
        );
    }

    #[test]
    fn ruling_29_tied_remainder_goes_to_the_larger_damage() {
        // hp 5, damages 4 and 8 (D 12): 20/12 = 1 r8, 40/12 = 3 r4; leftover 1 → r8 (seat 0).
        assert_eq!(split(5, &[(Seat(0), 4), (Seat(1), 8)]), [2, 3]);
        // hp 3, damages 1, 2, 3 (D 6): 3/6 r3, 6/6 = 1 r0, 9/6 = 1 r3 → leftover 1 to the 3.
        assert_eq!(
            split(3, &[(Seat(0), 1), (Seat(1), 2), (Seat(2), 3)]),
            [0, 1, 2]
        );
    }

    #[test]
    fn ruling_20_assail_keeps_at_most_eight() {
        assert_eq!(assail_cap(5), (5, 0));
        assert_eq!(assail_cap(11), (8, 3));
    }

    #[test]
    fn ruling_20_return_keeps_the_declared_target_then_the_following_seats_then_the_assailer() {
        // Seat 2 Assails, declared at seat 4, among 6 players: 4, 3, 5, 0, 1, then 2 himself.
        assert_eq!(
            keep_order(6, Seat(2), Seat(4)),
            [Seat(4), Seat(3), Seat(5), Seat(0), Seat(1), Seat(2)]
        );
        // Won 4 from seat 4 (Focused and Taunting), 1 from every other seat and 1 from himself:
        // 4 + 1 + 1 + 1 + 1 = 8 kept before his own, which goes back.
        let won = [1, 1, 1, 1, 4, 1];
        assert_eq!(
            returned(&won, &keep_order(6, Seat(2), Seat(4))),
            [0, 0, 1, 0, 0, 0]
        );
    }

    #[test]
    fn ruling_24_taunters_share_the_snapshot_equally() {
        assert_eq!(taunt_share(10, 1), 3);
        assert_eq!(taunt_share(2, 1), 2);
        assert_eq!(taunt_share(5, 2), 2);
        assert_eq!(taunt_share(1, 2), 0);
    }
}
