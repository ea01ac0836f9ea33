//! Herald: a host server for play-by-mail games of simultaneous secret orders.

pub mod rules;
