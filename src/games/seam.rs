//! The game seam kept shut: no generic file names a game, a step or a pool
//! (`docs/games.md`, "A game is one module"). A game lives in `src/rules/<game>/` and
//! `src/games/<game>/`; everything else reaches it through [`GameUi`](super::GameUi) and
//! [`with_game!`](super::with_game). This test reads every other Rust file under `src/` and
//! fails when its code (comments and its `#[cfg(test)]` module aside: tests may pick a game to
//! play) holds a string literal that is a registered game's id, step or public pool, or that
//! holds its title, or a path into a game's modules (`rules::bst`, `GameKind::Bst`). It reads
//! the templates too (each game's rules page aside, `templates/rules_<game>.html`): a
//! template that holds a game's title speaks of that game in words every game's page shows.
//!
//! The names come from the registry itself: each game's id ([`crate::rules::Game::ID`]), its
//! title ([`GameUi::TITLE`](super::GameUi::TITLE)), its steps and public-player properties as
//! its OpenAPI fragment lists them, and its [`GameUi::POOLS`](super::GameUi::POOLS). The
//! allowlist below is the registry and nothing else. The common OpenAPI part is not read: its
//! descriptions still speak of the games by name (`docs/games.md`).

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use serde_json::Value;

    use crate::games::{GameKind, GameUi, with_game};
    use crate::rules::Game;

    /// The files that may name a game: the registry (its `games!` lines), and BST's strength
    /// harness (bot against bot through BST's rules), which stays among the bots until the bot
    /// policies move beside their games (a game may not use `bots`, a layer above it).
    const ALLOWED: &[&str] = &["src/games/mod.rs", "src/bots/duel.rs"];

    /// What a game is called in code: its id, its steps, its pools, and its module and
    /// variant names.
    struct Names {
        literals: Vec<String>,
        title: &'static str,
        paths: Vec<String>,
    }

    fn names(kind: GameKind) -> Names {
        let (id, title, fragment, pools) = with_game!(kind, G => (
            <G as Game>::ID,
            <G as GameUi>::TITLE,
            <G as GameUi>::OPENAPI,
            <G as GameUi>::POOLS,
        ));
        let fragment: Value = serde_json::from_str(fragment).unwrap();
        let mut literals = vec![id.to_owned()];
        for step in fragment["steps"].as_array().into_iter().flatten() {
            literals.push(step.as_str().unwrap().to_owned());
        }
        let player = fragment["properties"]["PublicPlayer"].as_object();
        literals.extend(player.into_iter().flat_map(|p| p.keys().cloned()));
        literals.extend(pools.iter().map(|p| (*p).to_owned()));
        let module = id.replace('-', "_");
        let variant = format!("{kind:?}");
        Names {
            literals,
            title,
            paths: vec![
                format!("rules::{module}"),
                format!("games::{module}"),
                format!("GameKind::{variant}"),
            ],
        }
    }

    /// Step names that are also generic words of Herald's own, which a literal cannot tell
    /// apart: `play` (BST's and the Scale of Styles' main step, and the player's page),
    /// `orders` (Crossing Swords' step, and every round's revealed orders in the views, the
    /// archive and the store) and `opening` (Contests' first window, and the name the host
    /// files a round's opening under, `fairness::publish::ROUND_OPENING`; no code tells steps
    /// apart by it, `NewStep::announced` does) and `ratings` (Contests' pool of a fighter's
    /// effective attribute ratings, and the players' ratings tables and routes,
    /// `docs/ratings.md`; no generic code reads that pool by name). They are left to review;
    /// every other name is checked.
    const COMMON_WORDS: &[&str] = &["play", "orders", "opening", "ratings"];

    /// A game's own folders: every folder under `src/rules/` and `src/games/`, registered or
    /// not yet (a game's rules may be written before its registration line).
    fn own_dirs() -> Vec<String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        ["src/rules", "src/games"]
            .iter()
            .flat_map(|room| {
                std::fs::read_dir(root.join(room))
                    .unwrap()
                    .map(|entry| entry.unwrap().path())
                    .filter(|path| path.is_dir())
                    .map(move |path| {
                        format!("{room}/{}/", path.file_name().unwrap().to_string_lossy())
                    })
            })
            .collect()
    }

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// The code of a file without its comments and without its test module (by the crate's
    /// convention the last item: everything from the first `#[cfg(test)]` on), as (string literals, the rest).
    fn code(text: &str) -> (Vec<String>, String) {
        let text = match text.find("#[cfg(test)]") {
            Some(at) => &text[..at],
            None => text,
        };
        let mut literals = Vec::new();
        let mut rest = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '/' if chars.peek() == Some(&'/') => {
                    for c in chars.by_ref() {
                        if c == '\n' {
                            break;
                        }
                    }
                    rest.push('\n');
                }
                '\'' => {
                    // A char literal ('"', '\'') or a lifetime: copy up to its closing quote
                    // if it has one within three characters.
                    let ahead: String = chars.clone().take(4).collect();
                    let close = match ahead.strip_prefix('\\') {
                        Some(after) => after.get(1..).and_then(|a| a.find('\'')).map(|i| i + 3),
                        None => ahead.find('\'').filter(|i| *i == 1).map(|i| i + 1),
                    };
                    match close {
                        Some(n) => {
                            for _ in 0..n {
                                chars.next();
                            }
                        }
                        None => rest.push(c),
                    }
                }
                'r' if chars.peek() == Some(&'#') => {
                    // A raw string (`r#"..."#`), or a raw identifier (`r#type`).
                    let hashes = chars.clone().take_while(|c| *c == '#').count();
                    if chars.clone().nth(hashes) != Some('"') {
                        rest.push(c);
                        continue;
                    }
                    for _ in 0..=hashes {
                        chars.next();
                    }
                    let close = format!("\"{}", "#".repeat(hashes));
                    let mut literal = String::new();
                    for c in chars.by_ref() {
                        literal.push(c);
                        if literal.ends_with(&close) {
                            literal.truncate(literal.len() - close.len());
                            break;
                        }
                    }
                    literals.push(literal);
                }
                '"' => {
                    let mut literal = String::new();
                    while let Some(c) = chars.next() {
                        match c {
                            '\\' => {
                                chars.next();
                            }
                            '"' => break,
                            other => literal.push(other),
                        }
                    }
                    literals.push(literal);
                }
                other => rest.push(other),
            }
        }
        (literals, rest)
    }

    #[test]
    fn no_generic_file_names_a_game_a_step_or_a_pool() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        rust_files(&root.join("src"), &mut files);
        let own = own_dirs();
        let all: Vec<Names> = GameKind::ALL.into_iter().map(names).collect();
        let mut found = Vec::new();
        for file in files {
            let relative = file
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if ALLOWED.contains(&relative.as_str()) || own.iter().any(|d| relative.starts_with(d)) {
                continue;
            }
            let (literals, rest) = code(&std::fs::read_to_string(&file).unwrap());
            for names in &all {
                for literal in &literals {
                    if names.literals.contains(literal) && !COMMON_WORDS.contains(&literal.as_str())
                    {
                        found.push(format!("{relative}: \"{literal}\""));
                    }
                    if literal.contains(names.title) {
                        found.push(format!("{relative}: \"{literal}\" names {}", names.title));
                    }
                }
                for path in &names.paths {
                    if rest.contains(path.as_str()) {
                        found.push(format!("{relative}: {path}"));
                    }
                }
            }
        }
        found.sort();
        found.dedup();
        assert!(
            found.is_empty(),
            "generic files name a game:\n{}",
            found.join("\n")
        );
    }

    #[test]
    fn no_shared_template_names_a_game() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let all: Vec<Names> = GameKind::ALL.into_iter().map(names).collect();
        let own: Vec<String> = GameKind::ALL
            .into_iter()
            .map(|kind| {
                let id = with_game!(kind, G => <G as Game>::ID);
                format!("rules_{}.html", id.replace('-', "_"))
            })
            .collect();
        let mut found = Vec::new();
        for entry in std::fs::read_dir(root.join("templates")).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if own.contains(&name) || path.extension().is_none_or(|e| e != "html") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for names in &all {
                if text.contains(names.title) {
                    found.push(format!("templates/{name}: {}", names.title));
                }
            }
        }
        found.sort();
        assert!(
            found.is_empty(),
            "shared templates name a game:\n{}",
            found.join("\n")
        );
    }

    #[test]
    fn the_scanner_sees_literals_and_paths_but_not_comments_or_tests() {
        let (literals, rest) = code(
            "// \"bst\" in a comment\nlet c = '\"'; let s = \"hp\\\"x\"; use crate::rules::bst;\n#[cfg(test)]\n\"vp\"",
        );
        assert_eq!(literals, ["hpx"]);
        assert!(rest.contains("rules::bst") && !rest.contains("comment"));
        let (literals, _) = code("let q = '\\''; let s = \"follow-up\"; fn f<'a>(x: &'a str) {}");
        assert_eq!(literals, ["follow-up"]);
        let (literals, rest) = code("let j = r#\"{\"a\": \"bst\"}\"#; let r#type = 1;");
        assert_eq!(literals, [r#"{"a": "bst"}"#]);
        assert!(rest.contains("r#type"));
    }
}
