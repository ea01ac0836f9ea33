//! Herald's one integration test binary. Modules are laid out by subject.

mod crossing_swords_cases;
mod crossing_swords_props;
