//! Herald's one integration test binary. Modules are laid out by subject.
