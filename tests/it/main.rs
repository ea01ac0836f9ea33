//! Herald's one integration test binary. Modules are laid out by subject.
mod bst_cases;
mod bst_props;
