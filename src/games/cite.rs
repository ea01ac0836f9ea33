//! Rule citations in a game's own text ("discard 2 token(s) (A16)"): found here, below every
//! room that tells a game, so that a player never meets a bare rule id they cannot look up.
//! The pages link each to the rule on the game's rules page ([`cite`]); the forum posts and
//! the notices (webhooks, Discord, mail) leave them out ([`uncited`]), the line saying in words
//! what happened. The API keeps the citations as they are: a bot author reads them with the
//! rulings.

use std::fmt;

use crate::games::{GameKind, GameUi, with_game};

/// A rule a text cites: the anchor on the rules page, and the label shown ("A16", or a range
/// "L169-L174", anchored at its first rule).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub anchor: String,
    pub label: String,
}

/// One stretch of a text: plain words, then (perhaps) a cited rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub text: String,
    pub rule: Option<Rule>,
}

/// A line of text with its citations found, and the rules page they point into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cited {
    pub parts: Vec<Part>,
    /// `/rules/{game}`.
    pub rules: String,
}

/// Whether `inner` is a rule id of a game whose rulings number their rules in `series`
/// ([`crate::games::GameUi::RULE_SERIES`]): one of its capital letters and a number.
pub fn is_rule_id(inner: &str, series: &[char]) -> bool {
    let mut chars = inner.chars();
    chars.next().is_some_and(|c| series.contains(&c))
        && inner.len() > 1
        && chars.all(|c| c.is_ascii_digit())
}

/// The rule an item of a parenthesis cites, if it is one: `A16`, or a range `L169-L174`.
fn citation(item: &str, series: &[char]) -> Option<Rule> {
    match item.split_once('-') {
        Some((from, to)) if is_rule_id(from, series) && is_rule_id(to, series) => Some(Rule {
            anchor: from.to_string(),
            label: item.to_string(),
        }),
        None if is_rule_id(item, series) => Some(Rule {
            anchor: item.to_string(),
            label: item.to_string(),
        }),
        _ => None,
    }
}

/// The rules a parenthesis cites, if it is nothing but citations of the rule `series`:
/// `A16`, `L307, A28`, `L169-L174, L199`.
pub fn citations(inner: &str, series: &[char]) -> Option<Vec<Rule>> {
    inner
        .split(", ")
        .map(|item| citation(item, series))
        .collect()
}

/// Finds the citations in `text`: each rule a parenthesis cites, alone or among words
/// ("(blue Guard, L183, capped at the start HP, A22)"), becomes a part of its own, to be
/// linked; a parenthesis of words only stays as it is. Only `game`'s own rule series count.
pub fn cite(text: &str, game: GameKind) -> Cited {
    cite_in(text, game.rule_series(), format!("/rules/{}", game.id()))
}

impl GameKind {
    /// The series of rule ids the game's texts cite ([`GameUi::RULE_SERIES`]).
    pub fn rule_series(self) -> &'static [char] {
        with_game!(self, G => <G as GameUi>::RULE_SERIES)
    }
}

/// [`cite`], with the rule ids of `series` and the rules page `rules`.
fn cite_in(text: &str, series: &[char], rules: String) -> Cited {
    let mut parts = Vec::new();
    let mut plain = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        plain.push_str(&rest[..=open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(')') else {
            rest = after;
            break;
        };
        let items: Vec<(&str, Option<Rule>)> = after[..close]
            .split(", ")
            .map(|item| (item, citation(item, series)))
            .collect();
        if items.iter().all(|(_, rule)| rule.is_none()) {
            rest = after;
            continue;
        }
        for (i, (item, rule)) in items.into_iter().enumerate() {
            if i > 0 {
                plain.push_str(", ");
            }
            match rule {
                Some(rule) => parts.push(Part {
                    text: std::mem::take(&mut plain),
                    rule: Some(rule),
                }),
                None => plain.push_str(item),
            }
        }
        plain.push(')');
        rest = &after[close + 1..];
    }
    plain.push_str(rest);
    if !plain.is_empty() || parts.is_empty() {
        parts.push(Part {
            text: plain,
            rule: None,
        });
    }
    Cited { parts, rules }
}

/// `parts` as plain words: each cited rule left out with its separator, and a parenthesis
/// left empty by it with it.
fn plain(parts: &[Part]) -> String {
    let mut out = String::new();
    // A citation right after "(" takes the separator that follows it.
    let mut strip_next = false;
    for part in parts {
        let text = match strip_next {
            true => part.text.strip_prefix(", ").unwrap_or(&part.text),
            false => &part.text,
        };
        out.push_str(text);
        strip_next = false;
        if part.rule.is_some() {
            match out.strip_suffix(", ") {
                Some(kept) => out.truncate(kept.len()),
                None => strip_next = true,
            }
        }
    }
    out.replace(" ()", "").replace("()", "")
}

/// `text` as plain words, for whatever cannot link a rule (a forum post, a notice): a rule id
/// means nothing to a reader who cannot follow it to the rules page, and the line already says
/// in words what happened, so the citations are left out ("to Gather Power (L187)." reads
/// "to Gather Power."). A text citing nothing comes back as it is.
pub fn uncited(text: &str) -> String {
    match text.contains('(') {
        true => {
            // Whichever game the text is of, its rule ids are among every game's series.
            let series: Vec<char> = GameKind::ALL
                .iter()
                .flat_map(|game| game.rule_series())
                .copied()
                .collect();
            plain(&cite_in(text, &series, String::new()).parts)
        }
        false => text.to_owned(),
    }
}

/// The text as plain words ([`uncited`]), for the forum posts.
impl fmt::Display for Cited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&plain(&self.parts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(cited: &Cited) -> Vec<Option<&str>> {
        cited
            .parts
            .iter()
            .map(|p| p.rule.as_ref().map(|r| r.label.as_str()))
            .collect()
    }

    #[test]
    fn a_citation_becomes_a_part_of_its_own_and_other_parentheses_stay() {
        let cited = cite("Discard 2 token(s) (A16). Follow-up (L209)", GameKind::Bst);
        assert_eq!(cited.rules, "/rules/bst");
        assert_eq!(labels(&cited), [Some("A16"), Some("L209"), None]);
        assert_eq!(cited.parts[0].text, "Discard 2 token(s) (");
        assert_eq!(cited.to_string(), "Discard 2 token(s). Follow-up");
    }

    #[test]
    fn a_list_or_a_range_of_citations_links_each_rule() {
        let cited = cite("aside (L307, A28). Cells (L169-L174, L199)", GameKind::Bst);
        assert_eq!(
            labels(&cited),
            [
                Some("L307"),
                Some("A28"),
                Some("L169-L174"),
                Some("L199"),
                None
            ]
        );
        assert_eq!(cited.parts[2].rule.as_ref().unwrap().anchor, "L169");
        assert_eq!(cited.to_string(), "aside. Cells");
    }

    #[test]
    fn citations_among_words_are_linked_and_left_out_of_the_posts() {
        let cited = cite(
            "Ann heals 0 (blue Guard, L183, capped at the start HP, A22): HP 70.",
            GameKind::Bst,
        );
        assert_eq!(labels(&cited), [Some("L183"), Some("A22"), None]);
        assert_eq!(cited.parts[0].text, "Ann heals 0 (blue Guard, ");
        assert_eq!(
            cited.to_string(),
            "Ann heals 0 (blue Guard, capped at the start HP): HP 70."
        );
        let first = cite(
            "Ann takes 2 poison damage (1 counter x 2, L194): HP 3.",
            GameKind::Bst,
        );
        assert_eq!(
            first.to_string(),
            "Ann takes 2 poison damage (1 counter x 2): HP 3."
        );
        let leading = cite("Ann is illegal (T6, L196, too costly).", GameKind::Bst);
        assert_eq!(leading.to_string(), "Ann is illegal (too costly).");
    }

    /// Each game's rulings number their rules in series of their own: Contests tells its
    /// turn sequence in window (W), phase (P), contest (K) and end (E) steps, which BST's
    /// rulings do not have, so "(W5)" in a BST text is words, not a rule.
    #[test]
    fn only_the_games_own_rule_series_are_citations() {
        let line = "One advance is enough (W5).";
        assert_eq!(labels(&cite(line, GameKind::Contests)), [Some("W5"), None]);
        assert_eq!(labels(&cite(line, GameKind::Bst)), [None]);
        assert_eq!(labels(&cite("Drawn (S1, L137).", GameKind::Bst)).len(), 3);
    }

    #[test]
    fn a_notice_line_reads_without_its_citations() {
        assert_eq!(
            uncited("Ann gains 1 Charge (Gather Power, L187): 2 now."),
            "Ann gains 1 Charge (Gather Power): 2 now."
        );
        assert_eq!(
            uncited("Ann pays 1 Charge for Dashing Strike (T7): 0 left."),
            "Ann pays 1 Charge for Dashing Strike: 0 left."
        );
        assert_eq!(uncited("Ann (Red) rests."), "Ann (Red) rests.");
        assert_eq!(uncited("Ann rests."), "Ann rests.");
    }

    #[test]
    fn words_in_parentheses_are_no_citation() {
        let cited = cite("Ann (Red) takes 3 (three) (A) (A16 twice", GameKind::Bst);
        assert_eq!(cited.parts.len(), 1);
        assert_eq!(cited.parts[0].rule, None);
        assert_eq!(
            cited.to_string(),
            "Ann (Red) takes 3 (three) (A) (A16 twice"
        );
    }
}
