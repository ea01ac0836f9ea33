//! R2: the Halt graph rule (H, Rulings 5-8).

use serde::{Deserialize, Serialize};

use super::rulebook::HaltCycle;
use crate::rules::Seat;

/// What became of one Halt (R2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HaltFate {
    /// Two players Halted each other: both Halts do nothing, whatever else happens (R2.1, Ruling 6).
    VoidMutual,
    /// On a Halt cycle of 3 or more that no effective outside Halt breaks: nothing happens
    /// (R2.3, Ruling 7).
    VoidCycle,
    /// An effective Halt hit this Halter, so this Halt deals nothing and negates nothing (Ruling 5).
    Negated,
    /// The Halt works: if its target played an Action, 3 damage and that Action is negated (R2.4).
    Effective,
    /// On an unbroken Halt cycle under `halt_cycle = all_fire` (Ruling 7, §3.2): it deals its 3
    /// and negates its target's Halt as an effective one does, and is itself negated by the
    /// Halt on it.
    CycleFired,
}

/// The fate of every Halt, indexed by the Halter's seat (`None`: that seat played no Halt).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HaltGraph {
    /// The fate of each seat's Halt.
    pub fates: Vec<Option<HaltFate>>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Status {
    Decided(HaltFate),
    Undecided,
}

impl HaltGraph {
    /// Decides every Halt. `halts[x]` is `Some(y)` when seat x played Halt on seat y (R2).
    ///
    /// First, mutual pairs are VOID (Ruling 6). Then, until nothing changes, an undecided Halt
    /// by X becomes NEGATED if an EFFECTIVE Halt targets X, and EFFECTIVE if every non-void Halt
    /// on X is NEGATED. Whatever is still undecided lies on an unbroken cycle and is VOID
    /// (Ruling 7), or, under `halt_cycle = all_fire`, fires (§3.2). Each sweep reads the
    /// previous sweep's statuses only, so the result does not depend on seat order.
    pub fn resolve(halts: &[Option<Seat>], cycle: HaltCycle) -> HaltGraph {
        let n = halts.len();
        let target = |x: usize| halts[x].map(|s| s.0).filter(|&t| t < n);
        let mut status: Vec<Option<Status>> = (0..n)
            .map(|x| {
                target(x).map(|y| {
                    if target(y) == Some(x) && y != x {
                        Status::Decided(HaltFate::VoidMutual)
                    } else {
                        Status::Undecided
                    }
                })
            })
            .collect();
        loop {
            let before = status.clone();
            for x in 0..n {
                if before[x] != Some(Status::Undecided) {
                    continue;
                }
                let on_x: Vec<Status> = (0..n)
                    .filter(|&w| target(w) == Some(x))
                    .filter_map(|w| before[w])
                    .collect();
                let hit = on_x.contains(&Status::Decided(HaltFate::Effective));
                let all_negated = on_x.iter().all(|s| match s {
                    Status::Decided(
                        HaltFate::Negated | HaltFate::VoidMutual | HaltFate::VoidCycle,
                    ) => true,
                    Status::Decided(HaltFate::Effective | HaltFate::CycleFired)
                    | Status::Undecided => false,
                });
                if hit {
                    status[x] = Some(Status::Decided(HaltFate::Negated));
                } else if all_negated {
                    status[x] = Some(Status::Decided(HaltFate::Effective));
                }
            }
            if status == before {
                break;
            }
        }
        let fates = status
            .into_iter()
            .map(|s| {
                s.map(|s| match s {
                    Status::Decided(fate) => fate,
                    Status::Undecided => match cycle {
                        HaltCycle::Void => HaltFate::VoidCycle,
                        HaltCycle::AllFire => HaltFate::CycleFired,
                    },
                })
            })
            .collect();
        HaltGraph { fates }
    }

    /// The seats whose EFFECTIVE (or, §3.2, cycle-fired) Halts target `seat`, in seat order
    /// (R2.4, R3).
    pub fn effective_on(&self, halts: &[Option<Seat>], seat: Seat) -> Vec<Seat> {
        (0..halts.len())
            .filter(|&w| halts[w] == Some(seat))
            .filter(|&w| {
                matches!(
                    self.fates[w],
                    Some(HaltFate::Effective | HaltFate::CycleFired)
                )
            })
            .map(Seat)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use HaltFate::{CycleFired, Effective, Negated, VoidCycle, VoidMutual};

    fn graph(edges: &[Option<usize>]) -> Vec<Option<HaltFate>> {
        let halts: Vec<Option<Seat>> = edges.iter().map(|e| e.map(Seat)).collect();
        HaltGraph::resolve(&halts, HaltCycle::Void).fates
    }

    #[test]
    fn ruling_7_all_fire_fires_only_the_unbroken_cycle() {
        // A→B→C→A, D↔E mutual, F→G: the cycle fires; the mutual pair stays void.
        let halts: Vec<Option<Seat>> = [Some(1), Some(2), Some(0), Some(4), Some(3), Some(6), None]
            .iter()
            .map(|e| e.map(Seat))
            .collect();
        let fates = HaltGraph::resolve(&halts, HaltCycle::AllFire).fates;
        assert_eq!(
            fates,
            [
                Some(CycleFired),
                Some(CycleFired),
                Some(CycleFired),
                Some(VoidMutual),
                Some(VoidMutual),
                Some(Effective),
                None
            ]
        );
    }

    #[test]
    fn ruling_5_a_single_halt_with_nobody_halting_the_halter_is_effective() {
        assert_eq!(graph(&[Some(1), None]), [Some(Effective), None]);
    }

    #[test]
    fn ruling_5_a_chain_negates_the_middle_halt_so_the_last_action_stands() {
        // A→B→C: A effective, B negated.
        assert_eq!(
            graph(&[Some(1), Some(2), None]),
            [Some(Effective), Some(Negated), None]
        );
    }

    #[test]
    fn ruling_6_mutual_halt_stays_void_when_a_third_player_halts() {
        // A↔B mutual, C→A.
        assert_eq!(
            graph(&[Some(1), Some(0), Some(0)]),
            [Some(VoidMutual), Some(VoidMutual), Some(Effective)]
        );
    }

    #[test]
    fn ruling_7_an_unbroken_three_cycle_is_void() {
        assert_eq!(
            graph(&[Some(1), Some(2), Some(0)]),
            [Some(VoidCycle), Some(VoidCycle), Some(VoidCycle)]
        );
    }

    #[test]
    fn ruling_7_an_outside_halt_breaks_a_cycle() {
        // A→B→C→A, D→A: D effective, A negated, B effective, C negated.
        assert_eq!(
            graph(&[Some(1), Some(2), Some(0), Some(0)]),
            [
                Some(Negated),
                Some(Effective),
                Some(Negated),
                Some(Effective)
            ]
        );
    }

    #[test]
    fn ruling_5_a_halter_hit_by_a_negated_and_an_effective_halt_is_negated() {
        // A→B, B→C, C→... nobody; D→B. A and D effective; B negated.
        assert_eq!(
            graph(&[Some(1), Some(2), None, Some(1)]),
            [Some(Effective), Some(Negated), None, Some(Effective)]
        );
    }

    #[test]
    fn ruling_7_a_four_cycle_with_a_tail_into_it_is_void() {
        // A→B→C→D→A and E→F (F plays no Halt): the cycle stays void, E is effective.
        assert_eq!(
            graph(&[Some(1), Some(2), Some(3), Some(0), Some(5), None]),
            [
                Some(VoidCycle),
                Some(VoidCycle),
                Some(VoidCycle),
                Some(VoidCycle),
                Some(Effective),
                None
            ]
        );
    }

    #[test]
    fn ruling_7_a_halt_from_a_cycle_onto_an_outsider_chain_follows_the_cycle() {
        // A→B→A is mutual; C→D→E→C is a cycle; the two do not touch.
        assert_eq!(
            graph(&[Some(1), Some(0), Some(3), Some(4), Some(2)]),
            [
                Some(VoidMutual),
                Some(VoidMutual),
                Some(VoidCycle),
                Some(VoidCycle),
                Some(VoidCycle)
            ]
        );
    }
}
