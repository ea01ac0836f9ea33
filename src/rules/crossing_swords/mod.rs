//! Crossing Swords: the pure adjudicator (rulings: `docs/rules/crossing-swords.md`).
