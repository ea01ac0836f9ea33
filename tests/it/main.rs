//! Herald's one integration test binary. Modules are laid out by subject.

mod api_bad_input;
mod api_bst;
mod api_crossing_swords;
mod api_deadline_controls;
mod api_deadlines;
mod api_events;
mod api_openapi;
mod api_race;
mod api_secrecy;
mod bots;
mod bst_cases;
mod bst_props;
mod crossing_swords_cases;
mod crossing_swords_props;
mod pages_browser;
mod pages_bst;
mod pages_client;
mod pages_deadlines;
mod pages_forms;
mod pages_game;
mod store_cache;
mod store_durability;
mod store_group_commit;
mod support;
