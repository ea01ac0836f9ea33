//! What the pages say about vacations (docs/identity.md, "Vacations"): the vacation part of
//! `/me`, and the lines the players and the host of a lobby read while one of its players is
//! away or soon will be.

use crate::host::timing::rfc3339;
use crate::host::vacations::{Away, VacationDeclared};

/// The vacation part of `/me`.
pub struct VacationShown {
    /// "From … until …", when one is declared and not over.
    pub current: Option<String>,
    pub allowance_left_days: f64,
    pub from: String,
    pub until: String,
}

impl VacationShown {
    pub fn of(declared: &VacationDeclared) -> VacationShown {
        VacationShown {
            current: declared
                .vacation
                .as_ref()
                .map(|v| format!("Away from {} until {}", v.from, v.until)),
            allowance_left_days: declared.allowance_left_days,
            from: String::new(),
            until: String::new(),
        }
    }
}

/// One line per player away now or soon ("Ann is away from … until …").
pub fn away_lines(aways: &[Away]) -> Vec<String> {
    aways
        .iter()
        .map(|a| {
            format!(
                "{} is away from {} until {}.",
                a.name,
                rfc3339(a.from),
                rfc3339(a.until)
            )
        })
        .collect()
}
