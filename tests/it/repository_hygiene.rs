//! The repository stands alone: nothing in its docs, code, tests or scripts sends the reader to a
//! folder outside it (`../shared`) or to a tracker entry that a clone cannot open ("issue 15
//! item 2", "#16"), or counts stretches of work ("the seventeenth session"); each names the
//! design instead (a doc section, a ruling). And `docs/performance.md` stays a reference of
//! current figures, not a log (its history is in git).

use std::path::{Path, PathBuf};

/// What is read, relative to the crate's root: a file, or a folder read whole.
const SCANNED: &[&str] = &[
    "README.md",
    "Dockerfile",
    "docker-compose.yml",
    "docs",
    "src",
    "tests",
    "scripts",
    "benches",
    "examples",
    "deploy",
];

/// This file names the patterns it looks for, so it is the one file not read.
const THIS_FILE: &str = "tests/it/repository_hygiene.rs";

/// About 300 lines: one screen of figures, the decisions in a line each, and the method.
const PERFORMANCE_MAX_LINES: usize = 320;

const ORDINALS: &[&str] = &[
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
];

/// Why a line is refused, for the failure message.
#[derive(Debug, PartialEq)]
enum Finding {
    OutsidePath,
    TrackerIssue,
    TrackerHash,
    TrackerItem,
    SessionCount,
}

/// Every finding of one line, given the file's extension (`#16` is looked for only where it is
/// prose: in a Rust file, after `//`).
fn findings(line: &str, extension: &str) -> Vec<Finding> {
    let mut found = Vec::new();
    if line.contains("../shared") {
        found.push(Finding::OutsidePath);
    }
    let lower = line.to_lowercase();
    if word_then_number(&lower, "issue", true) || word_then_number(&lower, "issues", true) {
        found.push(Finding::TrackerIssue);
    }
    if (word_then_number(&lower, "item", false) || word_then_number(&lower, "items", false))
        && !lower.contains('§')
    {
        // "§1.4 item 4" is a clause of a ruling, not a tracker's item.
        found.push(Finding::TrackerItem);
    }
    let prose = if extension == "rs" {
        line.find("//").map(|at| &line[at..])
    } else {
        Some(line)
    };
    if prose.is_some_and(hash_number) {
        found.push(Finding::TrackerHash);
    }
    if ORDINALS
        .iter()
        .any(|ordinal| word_then_word(&lower, ordinal, "session"))
    {
        found.push(Finding::SessionCount);
    }
    found
}

/// `word` standing alone (not inside a longer word), then a space, then (with `hash`, an
/// optional `#`) a digit: "issue 15", "Issues #3", "issue 16's".
fn word_then_number(lower: &str, word: &str, hash: bool) -> bool {
    whole_words(lower, word).any(|end| {
        let rest = &lower[end..];
        let Some(rest) = rest.strip_prefix(' ') else {
            return false;
        };
        let rest = if hash {
            rest.strip_prefix('#').unwrap_or(rest)
        } else {
            rest
        };
        rest.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// `first` then a space then `second`, both whole words: "seventeenth session".
fn word_then_word(lower: &str, first: &str, second: &str) -> bool {
    whole_words(lower, first).any(|end| {
        lower[end..].strip_prefix(' ').is_some_and(|rest| {
            rest.starts_with(second) && !starts_alphanumeric(&rest[second.len()..])
        })
    })
}

/// The end of each occurrence of `word` in `text` that is a whole word.
fn whole_words<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    text.match_indices(word).filter_map(move |(at, _)| {
        let end = at + word.len();
        let before_ok = !text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        (before_ok && !starts_alphanumeric(&text[end..])).then_some(end)
    })
}

fn starts_alphanumeric(text: &str) -> bool {
    text.starts_with(|c: char| c.is_alphanumeric() || c == '_')
}

/// `#16` as a tracker reference: a `#` at the start, after a space or an opening bracket, then
/// digits, then no letter or digit. Not an HTML entity (`&#91;`, after `&`), a colour
/// (`#0072B2`, letters follow), a Markdown heading (`# Title`) or Unicode's "UTS #39".
fn hash_number(text: &str) -> bool {
    text.match_indices('#').any(|(at, _)| {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| !(c.is_whitespace() || c == '(' || c == '[')) {
            return false;
        }
        if text[..at].trim_end().ends_with("UTS") {
            return false;
        }
        let digits = text[at + 1..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .count();
        digits > 0 && !starts_alphanumeric(&text[at + 1 + digits..])
    })
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `path` (or `path` itself), in a stable order.
fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap_or_else(|error| panic!("reading {}: {error}", path.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            files(&entry, out);
        }
    } else if path.is_file() {
        out.push(path.to_path_buf());
    }
}

#[test]
fn nothing_points_outside_the_repository_or_to_the_tracker() {
    let root = root();
    let mut paths = Vec::new();
    for scanned in SCANNED {
        files(&root.join(scanned), &mut paths);
    }
    assert!(
        paths.len() > 100,
        "the scan found only {} files under {}",
        paths.len(),
        root.display()
    );
    let mut offences = Vec::new();
    for path in &paths {
        let relative = path.strip_prefix(&root).expect("under the root");
        if relative == Path::new(THIS_FILE) {
            continue;
        }
        // Screenshots, flame graphs and other bytes that are not text are not prose.
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if extension == "svg" {
            continue;
        }
        for (number, line) in text.lines().enumerate() {
            let found = findings(line, extension);
            if !found.is_empty() {
                offences.push(format!(
                    "{}:{}: {:?}: {}",
                    relative.display(),
                    number + 1,
                    found,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "name the design (a doc section, a ruling) instead:\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_performance_doc_is_a_reference_not_a_log() {
    let text =
        std::fs::read_to_string(root().join("docs/performance.md")).expect("docs/performance.md");
    let lines = text.lines().count();
    assert!(
        lines <= PERFORMANCE_MAX_LINES,
        "docs/performance.md has {lines} lines: keep the current figures, the decisions and the \
         method (at most {PERFORMANCE_MAX_LINES}); the runs belong in its git history"
    );
}

#[test]
fn the_scan_finds_each_kind_of_reference() {
    let refused = [
        ("see ../shared/design/api.md", "md", Finding::OutsidePath),
        (
            "//! The mail form (issue 15 item 2)",
            "rs",
            Finding::TrackerIssue,
        ),
        ("Issue 16's per-CPU targets", "md", Finding::TrackerIssue),
        (
            "(issues 13 and 16, 2026-12-03)",
            "md",
            Finding::TrackerIssue,
        ),
        ("fixed in issue #7", "md", Finding::TrackerIssue),
        ("    // see #16 for why", "rs", Finding::TrackerHash),
        ("(#16)", "md", Finding::TrackerHash),
        ("# as decided in #42.", "sh", Finding::TrackerHash),
        (
            "the race of item 8 of the pages issue",
            "rs",
            Finding::TrackerItem,
        ),
        (
            "(2026-12-03, seventeenth session)",
            "md",
            Finding::SessionCount,
        ),
        (
            "The throughput regression found (third session)",
            "md",
            Finding::SessionCount,
        ),
    ];
    for (line, extension, expected) in refused {
        assert!(
            findings(line, extension).contains(&expected),
            "{line:?} should be refused as {expected:?}, found {:?}",
            findings(line, extension)
        );
    }
    let allowed = [
        ("shown as `&#91;` by forums that escape HTML", "md"),
        ("\"#0072B2\", \"#D55E00\", \"#009E73\",", "rs"),
        ("the UTS #39 confusable skeleton", "md"),
        ("// the UTS #39 skeleton of the case-folded skeleton", "rs"),
        ("# Performance", "md"),
        ("## 3. Rulings", "md"),
        ("\"Ann & Bob <3 #1 fan 3.5 hp\",", "rs"),
        ("\"§1.4 item 4\",", "json"),
        (
            "sign-ups, replace a player, issue a new private link, kick",
            "rs",
        ),
        ("the issues of a lobby 16 times", "md"),
        ("a browser session per person", "md"),
        ("tissue 5", "md"),
        ("let count = ${#names[@]}", "sh"),
        ("round 3 resolves when all have answered", "md"),
    ];
    for (line, extension) in allowed {
        assert_eq!(findings(line, extension), [], "{line:?} should pass");
    }
}
