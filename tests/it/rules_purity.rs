//! The rules core stays pure: nothing under `src/rules/` reaches for I/O, a clock, a database,
//! the network, threads, the environment, async code or an ambient random number generator. A
//! game is a function of its settings, entrants, orders and the seeded RNG the host hands it,
//! so that it replays bit for bit. This reads the sources as text, so a new file is covered
//! the moment it exists.

use std::path::{Path, PathBuf};

/// What the rules may not name, and why, as (needle, reason).
const FORBIDDEN: &[(&str, &str)] = &[
    ("std::fs", "file I/O"),
    ("std::io", "I/O"),
    ("std::net", "the network"),
    ("std::env", "the environment"),
    ("std::process", "processes"),
    ("std::thread", "threads"),
    ("std::time", "a clock"),
    ("SystemTime", "a clock"),
    ("Instant::now", "a clock"),
    ("chrono", "a clock"),
    ("tokio", "async I/O"),
    ("async ", "async code"),
    (".await", "async code"),
    ("sqlx", "the database"),
    ("rusqlite", "the database"),
    ("crate::store", "the store"),
    ("crate::host", "the host"),
    ("crate::http", "the web layer"),
    ("crate::clock", "a clock"),
    ("axum", "the web layer"),
    ("hyper", "the network"),
    ("reqwest", "the network"),
    ("thread_rng", "an ambient RNG"),
    ("rand::rng(", "an ambient RNG"),
    ("rand::random", "an ambient RNG"),
    ("OsRng", "an ambient RNG"),
    ("from_entropy", "an ambient RNG"),
    ("from_os_rng", "an ambient RNG"),
    ("getrandom", "an ambient RNG"),
    ("Uuid::new_v4", "an ambient RNG"),
    ("println!", "output"),
    ("eprintln!", "output"),
    ("tracing::", "logging"),
];

/// Each forbidden use in `source`, as "line N: needle (reason)". Comments are not code: a line
/// whose code part (before `//`) is clean passes.
fn impurities(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (number, line) in source.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for (needle, why) in FORBIDDEN {
            if code.contains(needle) {
                found.push(format!("line {}: {needle} ({why})", number + 1));
            }
        }
    }
    found
}

fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the sources are readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

#[test]
fn nothing_under_src_rules_reaches_for_io_a_clock_a_database_async_or_an_ambient_rng() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(files.len() > 20, "the rules' sources were found: {files:?}");
    let mut problems = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).expect("a readable source file");
        for problem in impurities(&source) {
            problems.push(format!("{}: {problem}", file.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "the rules core must stay pure:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_purity_check_flags_each_kind_of_impurity_and_ignores_comments() {
    let dirty = "use std::time::Instant;\nasync fn f() { g().await }\nlet r = rand::rng();\n";
    let found = impurities(dirty);
    assert!(found.iter().any(|f| f.contains("std::time")), "{found:?}");
    assert!(found.iter().any(|f| f.contains("async")), "{found:?}");
    assert!(found.iter().any(|f| f.contains("ambient RNG")), "{found:?}");
    let clean = "// no std::fs here, only a comment\nlet x = 1; // nor tokio\n";
    assert_eq!(impurities(clean), Vec::<String>::new());
}

/// The ratings are a pure fold over results (docs/ratings.md): held to the same rules, so that
/// a rebuild replays them exactly.
#[test]
fn nothing_under_src_ratings_reaches_for_io_a_clock_a_database_async_or_an_ambient_rng() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ratings");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(
        files.len() > 5,
        "the ratings' sources were found: {files:?}"
    );
    let problems: Vec<String> = files
        .iter()
        .flat_map(|file| {
            let source = std::fs::read_to_string(file).expect("a readable source file");
            impurities(&source)
                .into_iter()
                .map(move |problem| format!("{}: {problem}", file.display()))
        })
        .collect();
    assert!(
        problems.is_empty(),
        "the ratings must stay pure:\n{}",
        problems.join("\n")
    );
}
