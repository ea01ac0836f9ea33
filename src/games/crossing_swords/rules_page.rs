//! Crossing Swords' rules page (`/rules/crossing-swords`): the rules in the project's words,
//! with an anchor for every rule a prompt or a log line cites.

use askama::Template;

#[derive(Template)]
#[template(path = "rules_crossing_swords.html")]
pub struct RulesPage;
