//! Tests of the matrix against the category statements and the seed's examples (§1).

use super::*;

fn t(s: &str) -> Token {
    s.parse().unwrap()
}

#[test]
fn every_cell_is_the_mirror_of_its_transpose_s1_1() {
    for a in Move::ALL {
        for b in Move::ALL {
            let expected = match cell(a, b) {
                Cell::Win => Cell::Lose,
                Cell::Lose => Cell::Win,
                Cell::BothWin => Cell::BothWin,
                Cell::BothLose => Cell::BothLose,
                Cell::GuardSpecial => Cell::LoseToGuardSpecial,
                Cell::LoseToGuardSpecial => Cell::GuardSpecial,
                Cell::TieBreak => Cell::TieBreak,
                Cell::TieBreakStandard => Cell::TieBreakStandard,
                Cell::StandardVsGuard => Cell::GuardVsStandard,
                Cell::GuardVsStandard => Cell::StandardVsGuard,
            };
            assert_eq!(cell(b, a), expected, "{a:?} v {b:?}");
        }
    }
}

#[test]
fn category_statements_hold_l169_l179_l199_l240() {
    for a in Move::ALL {
        for b in Move::ALL {
            let c = cell(a, b);
            match (a.category(), b.category()) {
                (Category::Strike, Category::Utility) => assert_eq!(c, Cell::Win),
                (Category::Utility, Category::Defense) => assert_eq!(c, Cell::Win),
                (Category::Strike, Category::Strike) if a == b => {
                    assert!(matches!(c, Cell::TieBreak | Cell::TieBreakStandard))
                }
                (Category::Defense, Category::Defense) => {
                    let both_lose = !matches!(
                        (a, b),
                        (Move::Guard, Move::Guard | Move::CounterAttack)
                            | (Move::CounterAttack, Move::Guard)
                    );
                    assert_eq!(c == Cell::BothLose, both_lose, "{a:?} v {b:?}");
                }
                _ => {}
            }
        }
    }
    let priority = [
        Move::PiercingStrike,
        Move::StandardStrike,
        Move::DashingStrike,
        Move::FinishingStrike,
        Move::LightningStrike,
    ];
    for (i, lo) in priority.iter().enumerate() {
        for hi in &priority[i + 1..] {
            assert_eq!(cell(*hi, *lo), Cell::Win, "L174 {hi:?} > {lo:?}");
        }
    }
}

#[test]
fn seed_examples_one_to_four_are_judged_as_l201_l204() {
    let j = judge(
        [Move::StandardStrike, Move::LightningStrike],
        [t("Y3"), t("B10")],
        [false, false],
    );
    assert_eq!(j.verdict, Verdict::Won { winner: Seat(1) });
    let j = judge(
        [Move::DashingStrike, Move::DashingStrike],
        [t("B3"), t("B8")],
        [false, false],
    );
    assert_eq!(j.verdict, Verdict::Won { winner: Seat(0) });
    let j = judge(
        [Move::StandardStrike, Move::StandardStrike],
        [t("R4"), t("Y4")],
        [false, false],
    );
    assert_eq!(j.verdict, Verdict::BothWon);
    let j = judge(
        [Move::StandardStrike, Move::StandardStrike],
        [t("Y8"), t("B3")],
        [false, true],
    );
    assert_eq!(j.verdict, Verdict::Won { winner: Seat(0) });
    assert_eq!(
        j.reason,
        Reason::OffBalanceStandard {
            off_balance: Seat(1)
        }
    );
}

#[test]
fn off_balance_standard_loses_even_on_equal_numbers_a19() {
    let j = judge(
        [Move::StandardStrike, Move::StandardStrike],
        [t("R5"), t("B5")],
        [true, false],
    );
    assert_eq!(j.verdict, Verdict::Won { winner: Seat(1) });
}

#[test]
fn standard_against_guard_reads_colours_with_wildcards_a39() {
    assert!(standard_passes_guard(t("W7"), t("R5")));
    assert!(standard_passes_guard(t("W7"), t("W5")));
    assert!(!standard_passes_guard(t("R7"), t("W5")));
    assert!(!standard_passes_guard(t("B6"), t("B9")));
    assert!(standard_passes_guard(t("B6"), t("Y9")));
    let j = judge(
        [Move::Guard, Move::StandardStrike],
        [t("B9"), t("B6")],
        [false, false],
    );
    assert_eq!(j.verdict, Verdict::Won { winner: Seat(0) });
}

#[test]
fn power_up_beats_parry_counter_and_evasion_a1() {
    for d in [Move::Parry, Move::CounterAttack, Move::Evasion, Move::Guard] {
        let j = judge([d, Move::PowerUp], [t("B3"), t("Y3")], [false, false]);
        assert_eq!(j.verdict, Verdict::Won { winner: Seat(1) }, "{d:?}");
    }
}
