//! Ratings in words from their API entries (docs/ratings.md, "Entries and changes"): what the
//! pages and the forum's final standings post show of a stored change, read back from the
//! `rating_changes` of a finished lobby's result without the full `Rating`.

use super::pool::System;
use super::rating::{EntryChange, RatingEntry, Shown};

impl RatingEntry {
    /// The entry as people read it: the same as [`super::Rating::shown`] of the rating it was
    /// made from (`1500?`, `1723`, `18.4`, `0.0?`).
    pub fn shown(&self) -> Shown {
        let system = self.pool.system();
        Shown {
            score: match system {
                System::Glicko2 => self.rating,
                // Weng-Lin's μ − 3σ, as `weng_lin::WengLinSkill::conservative`.
                System::WengLin => self.rating - 3.0 * self.deviation,
            },
            system,
            provisional: self.provisional,
        }
    }
}

impl EntryChange {
    /// `1500? → 1662? (+162)`: before, after, and the difference of the scores as shown
    /// (whole points for Glicko-2, tenths for Weng-Lin; `±0` when it rounds to nothing).
    pub fn in_words(&self) -> String {
        let (before, after) = (self.before.shown(), self.after.shown());
        let delta = after.score - before.score;
        let delta = match before.system {
            System::Glicko2 => format!("{delta:+.0}"),
            System::WengLin => format!("{delta:+.1}"),
        };
        let delta = match delta
            .trim_start_matches(['+', '-'])
            .trim_matches(['0', '.'])
        {
            "" => "±0".to_owned(),
            _ => delta,
        };
        format!("{before} → {after} ({delta})")
    }
}

#[cfg(test)]
mod tests {
    use crate::games::GameKind;
    use crate::ratings::{Kind, Pool, RatedResult, Rating, Ratings};

    fn rated(game: GameKind, players: u32) -> Vec<(Rating, Rating)> {
        let pool = Pool::new(game, Kind::Humans);
        let finishes = (0..players)
            .map(|p| crate::ratings::Finish {
                participant: p,
                place: p + 1,
            })
            .collect();
        let result = RatedResult::new(pool, 0, finishes).unwrap();
        let mut ratings = Ratings::new();
        ratings
            .apply(&result)
            .into_iter()
            .map(|c| (c.before, c.after))
            .collect()
    }

    #[test]
    fn an_entry_shows_as_its_rating_and_a_change_reads_before_after_and_difference() {
        let duel = rated(GameKind::Bst, 2);
        let melee = rated(GameKind::CrossingSwords, 3);
        for (before, after) in duel.iter().chain(&melee) {
            assert_eq!(before.entry().shown(), before.shown());
            assert_eq!(after.entry().shown(), after.shown());
        }
        let won = crate::ratings::EntryChange {
            before: duel[0].0.entry(),
            after: duel[0].1.entry(),
        };
        assert_eq!(won.in_words(), "1500? → 1662? (+162)");
        let lost = crate::ratings::EntryChange {
            before: duel[1].0.entry(),
            after: duel[1].1.entry(),
        };
        assert_eq!(lost.in_words(), "1500? → 1338? (-162)");
        let last = crate::ratings::EntryChange {
            before: melee[2].0.entry(),
            after: melee[2].1.entry(),
        };
        assert!(
            last.in_words().starts_with("0.0? → -"),
            "{}",
            last.in_words()
        );
        let same = crate::ratings::EntryChange {
            before: duel[0].0.entry(),
            after: duel[0].0.entry(),
        };
        assert_eq!(same.in_words(), "1500? → 1500? (±0)");
    }
}
