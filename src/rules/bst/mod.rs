//! Blood Sweat and Tears: the pure adjudicator (rulings: `docs/rules/bst.md`).
