//! Unit tests of the Contests rules core.
