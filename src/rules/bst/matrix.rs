//! The 10x10 interaction matrix with its tie-breakers and colour rules (§1.1, A1, A18, A19, A39).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::moves::{Category, Move};
use super::tokens::{Colour, Token};
use crate::rules::Seat;

/// One cell of the matrix, read from the row move's side (§1.1 legend).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// W: the row move wins.
    Win,
    /// L: the row move loses.
    Lose,
    /// W=: both win (Guard mirror L177, Power-up mirror L179).
    BothWin,
    /// L=: both lose; only costs are paid (L176).
    BothLose,
    /// W*: Guard beats Counter-Attack and gets its special Follow-up (L178, L246).
    GuardSpecial,
    /// The mirror of W*: Counter-Attack loses to Guard.
    LoseToGuardSpecial,
    /// TB: same Strike; the lower number wins, equal numbers both win (L175, L198).
    TieBreak,
    /// TB-S: the Standard mirror; like TB but an Off-Balance player always loses (L190, L198).
    TieBreakStandard,
    /// C≠: Standard against Guard, won by the Standard iff the colours differ (L185-L186).
    StandardVsGuard,
    /// C=: Guard against Standard, the mirror image of C≠.
    GuardVsStandard,
}

use Cell::{
    BothLose as LL, BothWin as WW, GuardSpecial as WS, GuardVsStandard as CE, Lose as L,
    LoseToGuardSpecial as LS, StandardVsGuard as CN, TieBreak as TB, TieBreakStandard as TS,
    Win as W,
};

/// The matrix as data, rows and columns in [`Move::ALL`] order: STD PRC DSH LTN FIN GRD PRY
/// CTR EVA PWR (§1.1; Power-up beats all four Defenses per A1).
const MATRIX: [[Cell; 10]; 10] = [
    /* STD */ [TS, W, L, L, L, CN, L, L, L, W],
    /* PRC */ [L, TB, L, L, L, W, W, W, L, W],
    /* DSH */ [W, W, TB, L, L, L, L, L, W, W],
    /* LTN */ [W, W, W, TB, W, L, L, L, L, W],
    /* FIN */ [W, W, W, L, TB, L, L, W, L, W],
    /* GRD */ [CE, L, W, W, W, WW, LL, WS, LL, L],
    /* PRY */ [W, L, W, W, W, LL, LL, LL, LL, L],
    /* CTR */ [W, L, W, W, L, LS, LL, LL, LL, L],
    /* EVA */ [W, W, L, W, W, LL, LL, LL, LL, L],
    /* PWR */ [L, L, L, L, L, W, W, W, W, WW],
];

fn index(m: Move) -> usize {
    match m {
        Move::StandardStrike => 0,
        Move::PiercingStrike => 1,
        Move::DashingStrike => 2,
        Move::LightningStrike => 3,
        Move::FinishingStrike => 4,
        Move::Guard => 5,
        Move::Parry => 6,
        Move::CounterAttack => 7,
        Move::Evasion => 8,
        Move::PowerUp => 9,
    }
}

/// The cell for `me` against `opp` (§1.1).
pub fn cell(me: Move, opp: Move) -> Cell {
    MATRIX[index(me)][index(opp)]
}

/// Who won the exchange (T8). Seats are 0 (P1) and 1 (P2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "result")]
pub enum Verdict {
    /// One player won; the other lost.
    Won {
        /// The winner's seat.
        winner: Seat,
    },
    /// Both won (W=, or a tie on equal numbers).
    BothWon,
    /// Both lost (L=).
    BothLost,
}

/// Why the exchange ended as it did, for the log (the "matrix cell class" of §1.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "rule")]
pub enum Reason {
    /// A plain W/L cell, with the statement that decides it.
    Beats {
        /// The winning move.
        winner: Move,
        /// The losing move.
        loser: Move,
        /// The category statement or exception that decides the cell (L169-L174, L199, L240).
        statement: String,
    },
    /// W=: Guard mirror or Power-up mirror (L177, L179).
    BothWin {
        /// The mirrored move.
        mirror: Move,
    },
    /// L=: two Defenses (L176).
    BothLose {
        /// The two moves in seat order.
        moves: [Move; 2],
    },
    /// W*: Guard beats Counter-Attack (L178).
    GuardBeatsCounter,
    /// TB: same Strike, the lower number wins (L175).
    LowerNumber {
        /// The mirrored Strike.
        strike: Move,
        /// The two numbers in seat order.
        numbers: [u8; 2],
    },
    /// TB on equal numbers: both win, without optional effects (L175, L198).
    EqualNumbers {
        /// The mirrored Strike.
        strike: Move,
        /// The shared number.
        number: u8,
    },
    /// TB-S: the Off-Balance Standard loses regardless of numbers (L190, L198, A19).
    OffBalanceStandard {
        /// The seat that was Off-Balance.
        off_balance: Seat,
    },
    /// C≠ / C=: Standard against Guard decided by colour (L185-L186, A39).
    Colour {
        /// The Standard's token.
        standard: Token,
        /// The Guard's token.
        guard: Token,
        /// True when the Standard won.
        standard_wins: bool,
    },
    /// The Sentinel bought a lost tie-break (A2).
    BuyBack {
        /// The Sentinel's seat.
        sentinel: Seat,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Beats {
                winner,
                loser,
                statement,
            } => {
                write!(f, "{winner} beats {loser} ({statement})")
            }
            Reason::BothWin { mirror } => {
                write!(f, "{mirror} against {mirror}: both win (L177, L179)")
            }
            Reason::BothLose { moves } => {
                write!(
                    f,
                    "{} against {}: two Defenses, both lose (L176)",
                    moves[0], moves[1]
                )
            }
            Reason::GuardBeatsCounter => {
                f.write_str("Guard beats Counter-Attack and earns a Follow-up (L178, L246)")
            }
            Reason::LowerNumber { strike, numbers } => write!(
                f,
                "{strike} mirror: {} against {}, the lower number wins (L175)",
                numbers[0], numbers[1]
            ),
            Reason::EqualNumbers { strike, number } => write!(
                f,
                "{strike} mirror with equal numbers ({number}): both win, no optional effects (L175, L198)"
            ),
            Reason::OffBalanceStandard { off_balance } => write!(
                f,
                "Standard mirror: player {} is Off-Balance and loses regardless of numbers (L190, L198)",
                off_balance.0 + 1
            ),
            Reason::Colour {
                standard,
                guard,
                standard_wins,
            } => {
                let why = if standard.colour() == Colour::Wild {
                    "a Wildcard Standard always passes a Guard"
                } else if guard.colour() == Colour::Wild {
                    "a Wildcard Guard matches any Standard"
                } else if standard.colour() == guard.colour() {
                    "same colour, the Guard holds"
                } else {
                    "different colours, the Standard passes"
                };
                let who = if *standard_wins {
                    "Standard Strike"
                } else {
                    "Guard"
                };
                write!(
                    f,
                    "Standard {standard} against Guard {guard}: {why}, {who} wins (L185-L186)"
                )
            }
            Reason::BuyBack { sentinel } => write!(
                f,
                "player {} (Sentinel) bought the lost tie-break with two matching tokens (A2)",
                sentinel.0 + 1
            ),
        }
    }
}

/// The result of comparing the two final plays (T8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judgement {
    /// Who won.
    pub verdict: Verdict,
    /// Why.
    pub reason: Reason,
}

fn statement(winner: Move, loser: Move) -> String {
    let text = match (winner.category(), loser.category()) {
        (Category::Strike, Category::Strike) => {
            "Strike priority: Lightning > Finishing > Dashing > Standard > Piercing (L174)"
        }
        (Category::Strike, Category::Defense) => match winner {
            Move::PiercingStrike => "Piercing beats all Defenses except Evasion (L170)",
            Move::DashingStrike => "Dashing beats Evasion (L171)",
            Move::FinishingStrike => "Finishing beats Counter-Attack (L172)",
            Move::StandardStrike | Move::LightningStrike => "listed exception (L170-L173)",
            Move::Guard | Move::Parry | Move::CounterAttack | Move::Evasion | Move::PowerUp => {
                "listed exception (L170-L173)"
            }
        },
        (Category::Defense, Category::Strike) => "Defenses beat Strikes (L169)",
        (Category::Strike, Category::Utility) => "all Strikes beat Power-up (L199)",
        (Category::Utility, Category::Defense) => "Power-up beats all Defenses (L240, L270, A1)",
        (Category::Defense, Category::Defense) => "Defense pair (L176-L178)",
        (Category::Utility, Category::Strike)
        | (Category::Defense, Category::Utility)
        | (Category::Utility, Category::Utility) => "matrix (§1.1)",
    };
    text.to_owned()
}

/// A same-Strike comparison: lower number wins, equal numbers both win (L175).
fn tie_break(strike: Move, a: Token, b: Token) -> Judgement {
    let numbers = [a.number(), b.number()];
    let verdict = match a.number().cmp(&b.number()) {
        std::cmp::Ordering::Less => Verdict::Won { winner: Seat(0) },
        std::cmp::Ordering::Greater => Verdict::Won { winner: Seat(1) },
        std::cmp::Ordering::Equal => {
            return Judgement {
                verdict: Verdict::BothWon,
                reason: Reason::EqualNumbers {
                    strike,
                    number: a.number(),
                },
            };
        }
    };
    Judgement {
        verdict,
        reason: Reason::LowerNumber { strike, numbers },
    }
}

/// Whether a Standard with token `standard` passes a Guard with token `guard` (C≠, L185-L186,
/// A39): a Wildcard Standard always wins; else a Wildcard Guard wins; else different colours win.
pub fn standard_passes_guard(standard: Token, guard: Token) -> bool {
    if standard.colour() == Colour::Wild {
        true
    } else if guard.colour() == Colour::Wild {
        false
    } else {
        standard.colour() != guard.colour()
    }
}

/// Judges the two final (post-replacement) plays, in seat order, with each player's
/// Off-Balance status as it stands at the reveal (T8, L188).
pub fn judge(moves: [Move; 2], tokens: [Token; 2], off_balance: [bool; 2]) -> Judgement {
    let won = |winner: Seat| Verdict::Won { winner };
    match cell(moves[0], moves[1]) {
        Cell::Win => Judgement {
            verdict: won(Seat(0)),
            reason: Reason::Beats {
                winner: moves[0],
                loser: moves[1],
                statement: statement(moves[0], moves[1]),
            },
        },
        Cell::Lose => Judgement {
            verdict: won(Seat(1)),
            reason: Reason::Beats {
                winner: moves[1],
                loser: moves[0],
                statement: statement(moves[1], moves[0]),
            },
        },
        Cell::BothWin => Judgement {
            verdict: Verdict::BothWon,
            reason: Reason::BothWin { mirror: moves[0] },
        },
        Cell::BothLose => Judgement {
            verdict: Verdict::BothLost,
            reason: Reason::BothLose { moves },
        },
        Cell::GuardSpecial => Judgement {
            verdict: won(Seat(0)),
            reason: Reason::GuardBeatsCounter,
        },
        Cell::LoseToGuardSpecial => Judgement {
            verdict: won(Seat(1)),
            reason: Reason::GuardBeatsCounter,
        },
        Cell::TieBreak => tie_break(moves[0], tokens[0], tokens[1]),
        Cell::TieBreakStandard => match off_balance {
            [true, false] => Judgement {
                verdict: won(Seat(1)),
                reason: Reason::OffBalanceStandard {
                    off_balance: Seat(0),
                },
            },
            [false, true] => Judgement {
                verdict: won(Seat(0)),
                reason: Reason::OffBalanceStandard {
                    off_balance: Seat(1),
                },
            },
            // Both Off-Balance cannot stand at a reveal (A18); compare numbers then.
            [false, false] | [true, true] => tie_break(moves[0], tokens[0], tokens[1]),
        },
        Cell::StandardVsGuard => {
            let standard_wins = standard_passes_guard(tokens[0], tokens[1]);
            Judgement {
                verdict: won(if standard_wins { Seat(0) } else { Seat(1) }),
                reason: Reason::Colour {
                    standard: tokens[0],
                    guard: tokens[1],
                    standard_wins,
                },
            }
        }
        Cell::GuardVsStandard => {
            let standard_wins = standard_passes_guard(tokens[1], tokens[0]);
            Judgement {
                verdict: won(if standard_wins { Seat(1) } else { Seat(0) }),
                reason: Reason::Colour {
                    standard: tokens[1],
                    guard: tokens[0],
                    standard_wins,
                },
            }
        }
    }
}

#[cfg(test)]
#[path = "matrix_tests.rs"]
mod tests;
