//! Rule citations in a game's own text ("discard 2 token(s) (A16)") turned into links to the
//! rule on the game's rules page, so that a player never meets a bare rule id they cannot look
//! up. The API keeps the citations as they are: a bot author reads them with the rulings.

use std::fmt;

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

/// Whether `inner` is a rule id: a capital letter for the rulings' series (A ambiguities,
/// T turn steps, L lines of the seed, S setup; and the steps of a turn sequence told in
/// parts: W window, P phase, K contest, E end) and a number.
pub fn is_rule_id(inner: &str) -> bool {
    let mut chars = inner.chars();
    matches!(
        chars.next(),
        Some('A' | 'T' | 'L' | 'S' | 'W' | 'P' | 'K' | 'E')
    ) && inner.len() > 1
        && chars.all(|c| c.is_ascii_digit())
}

/// The rules a parenthesis cites, if it is nothing but citations: `A16`, `L307, A28`,
/// `L169-L174, L199`.
pub fn citations(inner: &str) -> Option<Vec<Rule>> {
    inner
        .split(", ")
        .map(|item| match item.split_once('-') {
            Some((from, to)) if is_rule_id(from) && is_rule_id(to) => Some(Rule {
                anchor: from.to_string(),
                label: item.to_string(),
            }),
            None if is_rule_id(item) => Some(Rule {
                anchor: item.to_string(),
                label: item.to_string(),
            }),
            _ => None,
        })
        .collect()
}

/// Finds the citations in `text`: each rule of a parenthesis that holds only citations becomes
/// a part of its own, to be linked.
pub fn cite(text: &str, game: &str) -> Cited {
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
        match citations(&after[..close]) {
            Some(rules) => {
                for (i, rule) in rules.into_iter().enumerate() {
                    if i > 0 {
                        plain.push_str(", ");
                    }
                    parts.push(Part {
                        text: std::mem::take(&mut plain),
                        rule: Some(rule),
                    });
                }
                plain.push(')');
                rest = &after[close + 1..];
            }
            None => rest = after,
        }
    }
    plain.push_str(rest);
    if !plain.is_empty() || parts.is_empty() {
        parts.push(Part {
            text: plain,
            rule: None,
        });
    }
    Cited {
        parts,
        rules: format!("/rules/{game}"),
    }
}

/// The text as plain words, each citation written "rule ID" (for the forum exports).
impl fmt::Display for Cited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for part in &self.parts {
            f.write_str(&part.text)?;
            if let Some(rule) = &part.rule {
                write!(f, "rule {}", rule.label)?;
            }
        }
        Ok(())
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
        let cited = cite("Discard 2 token(s) (A16). Follow-up (L209)", "bst");
        assert_eq!(cited.rules, "/rules/bst");
        assert_eq!(labels(&cited), [Some("A16"), Some("L209"), None]);
        assert_eq!(cited.parts[0].text, "Discard 2 token(s) (");
        assert_eq!(
            cited.to_string(),
            "Discard 2 token(s) (rule A16). Follow-up (rule L209)"
        );
    }

    #[test]
    fn a_list_or_a_range_of_citations_links_each_rule() {
        let cited = cite("aside (L307, A28). Cells (L169-L174, L199)", "bst");
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
        assert_eq!(
            cited.to_string(),
            "aside (rule L307, rule A28). Cells (rule L169-L174, rule L199)"
        );
    }

    #[test]
    fn words_in_parentheses_are_no_citation() {
        let cited = cite("Ann (Red) takes 3 (three) (A) (A16 twice", "bst");
        assert_eq!(cited.parts.len(), 1);
        assert_eq!(cited.parts[0].rule, None);
        assert_eq!(
            cited.to_string(),
            "Ann (Red) takes 3 (three) (A) (A16 twice"
        );
    }
}
