//! The Scale of Styles' rules page (`/rules/scale-of-styles`): the rules in the project's
//! words, with an anchor for every technique and rule a prompt or a log line cites.

use askama::Template;

#[derive(Template)]
#[template(path = "rules_scale_of_styles.html")]
pub struct RulesPage;
