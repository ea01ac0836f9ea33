//! Contests' rules page (`/rules/contests`): the rules in the project's words, with an
//! anchor for every rule a prompt, a refusal or a log line cites and every card and ability
//! a form links.

use askama::Template;

#[derive(Template)]
#[template(path = "rules_contests.html")]
pub struct RulesPage;
