//! Entrants and formats: who plays, in which order they entered, their rating for seeding, the
//! round a late entrant starts in, and whether he withdrew (`docs/tournaments.md`, "Entrants").

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

/// An entrant, named by an id the caller chooses (the server's entrant row); opaque here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EntrantId(pub u64);

/// One entrant of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    pub id: EntrantId,
    /// The place in the order of entry, lower first: the last tie-break of every seeding and
    /// ordering, so that nothing depends on the order of a slice.
    pub entry: u32,
    /// The rating used for seeding (higher first); `None` for an unrated entrant, who is seeded
    /// after every rated one.
    pub rating: Option<f64>,
    /// The first round he may be paired in: 1 for an entrant who entered before the start, more
    /// for a late entrant, who gets the late half point once (duels).
    pub first_round: u32,
    /// A withdrawn entrant is never paired again; his results so far stand.
    pub withdrawn: bool,
}

impl Entrant {
    /// An entrant who entered before the start, unrated and still in.
    pub fn new(id: EntrantId, entry: u32) -> Entrant {
        Entrant {
            id,
            entry,
            rating: None,
            first_round: 1,
            withdrawn: false,
        }
    }

    /// Whether he entered after the first round was paired.
    pub fn is_late(&self) -> bool {
        self.first_round > 1
    }

    /// Whether he may be paired in `round` (1-based): not withdrawn, and entered by then.
    pub fn plays_in(&self, round: u32) -> bool {
        !self.withdrawn && self.first_round <= round
    }
}

/// Seeding order: rating, highest first, unrated last, then order of entry.
pub(crate) fn seed_cmp(a: &Entrant, b: &Entrant) -> Ordering {
    let rating = match (a.rating, b.rating) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    rating.then(a.entry.cmp(&b.entry)).then(a.id.cmp(&b.id))
}

/// A tournament's format, spelled as the API spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Duels; each round paired by score (`pair_swiss`).
    Swiss,
    /// Duels; every pair of entrants meets exactly once (Berger tables).
    RoundRobin,
    /// Duels; a round's losers are out.
    Knockout,
    /// Many-player boards; points are the VP scored.
    Melee,
}

impl Format {
    /// How many rounds the tournament has with `entrants` entrants when entries close:
    /// `requested` for a Swiss or a melee (the director chose it), n − 1 (n when n is odd) for a
    /// round robin, ⌈log₂ n⌉ for a knockout.
    pub fn rounds_total(self, entrants: usize, requested: u32) -> u32 {
        let n = u32::try_from(entrants).unwrap_or(u32::MAX);
        match self {
            Format::Swiss | Format::Melee => requested,
            Format::RoundRobin => match n {
                0 | 1 => 0,
                n if n % 2 == 0 => n - 1,
                n => n,
            },
            Format::Knockout => match n {
                0 | 1 => 0,
                n => u32::BITS - (n - 1).leading_zeros(),
            },
        }
    }

    /// Whether the format takes entries after the start at all.
    pub fn takes_late_entries(self) -> bool {
        match self {
            Format::Swiss | Format::Melee => true,
            Format::RoundRobin | Format::Knockout => false,
        }
    }
}

/// Whether an entry may still be taken after entries closed: only into a Swiss or a melee,
/// while fewer than half its rounds have started (`rounds_started` < `rounds_total` / 2).
pub fn late_entry_allowed(format: Format, rounds_total: u32, rounds_started: u32) -> bool {
    format.takes_late_entries() && u64::from(rounds_started) * 2 < u64::from(rounds_total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_total_follows_each_format() {
        assert_eq!(Format::RoundRobin.rounds_total(5, 0), 5);
        assert_eq!(Format::RoundRobin.rounds_total(6, 0), 5);
        assert_eq!(Format::RoundRobin.rounds_total(1, 0), 0);
        let knockout: Vec<u32> = (1..=9)
            .map(|n| Format::Knockout.rounds_total(n, 0))
            .collect();
        assert_eq!(knockout, [0, 1, 2, 2, 3, 3, 3, 3, 4]);
        assert_eq!(Format::Swiss.rounds_total(40, 7), 7);
        assert_eq!(Format::Melee.rounds_total(9, 3), 3);
    }

    #[test]
    fn late_entries_close_once_half_the_rounds_have_started() {
        assert!(late_entry_allowed(Format::Swiss, 5, 2));
        assert!(!late_entry_allowed(Format::Swiss, 5, 3));
        assert!(late_entry_allowed(Format::Melee, 4, 1));
        assert!(!late_entry_allowed(Format::Melee, 4, 2));
        assert!(!late_entry_allowed(Format::RoundRobin, 9, 0));
        assert!(!late_entry_allowed(Format::Knockout, 9, 0));
    }

    #[test]
    fn seeding_puts_ratings_first_then_the_unrated_by_entry() {
        let mut all = [
            Entrant::new(EntrantId(1), 0),
            Entrant {
                rating: Some(1400.0),
                ..Entrant::new(EntrantId(2), 1)
            },
            Entrant::new(EntrantId(3), 2),
            Entrant {
                rating: Some(1600.0),
                ..Entrant::new(EntrantId(4), 3)
            },
        ];
        all.sort_by(seed_cmp);
        let ids: Vec<u64> = all.iter().map(|e| e.id.0).collect();
        assert_eq!(ids, [4, 2, 1, 3]);
    }

    #[test]
    fn formats_are_spelled_as_the_api_spells_them() {
        let json = serde_json::to_string(&[Format::Swiss, Format::RoundRobin]).unwrap();
        assert_eq!(json, r#"["swiss","round-robin"]"#);
    }
}
