//! Every module stays on its layer (docs/architecture.md, "The floors"). This reads `src/` as text,
//! follows every path into the crate (`use crate::…`, `super::…`, `self::…`, a child module's
//! name, and the same paths written inline in code), resolves each to the file that defines
//! what it names (through re-exports), and fails on two things:
//! - an import from a room to a room on a higher floor, or to another room on the same floor;
//! - a circle of files (a strongly connected component of the file import graph), anywhere.
//!
//! Comments and string literals are not code and are skipped, so a doc link is no import. A
//! `pub use` of a module's own descendants is the module's face, not an import of its own: the
//! names used through it are followed to the file that defines them.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The floors, from the ground up. A room may use any room on a lower floor, never one on its
/// own floor or above. A room is a top-level module of the crate (`src/<room>.rs` or
/// `src/<room>/`); `lib` is the crate root (`src/lib.rs`) and `main` the binary.
const FLOORS: &[&[&str]] = &[
    &["rules", "clock", "events", "tls", "forum"],
    &["games", "tournament"],
    &["fairness", "ratings"],
    &["store"],
    &["error"],
    &["host"],
    &["notify", "bots", "deadline_bench"],
    &["http"],
    &["server"],
    &["config", "lib"],
    &["main"],
];

/// Circles of files not yet untied, each as its files: every one is a defect, listed so that
/// it cannot grow and must be struck off here when it is untied (the test fails on a listed
/// circle that is gone as on a new one). None is left: the list stays so that a circle which
/// cannot be untied at once is written down here rather than slipped in.
const NOT_YET_UNTIED: &[&[&str]] = &[];

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// The code of `source` as tokens: comments, string, byte-string, raw-string and character
/// literals removed, lifetimes dropped, numbers skipped.
fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_string(&chars, i + 1);
        } else if (c == 'r' || c == 'b' || c == 'c') && raw_string_start(&chars, i).is_some() {
            let (hashes, open) = raw_string_start(&chars, i).unwrap();
            i = open + 1;
            loop {
                if i >= chars.len() {
                    break;
                }
                if chars[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
        } else if (c == 'b' || c == 'c') && at(i + 1) == '"' {
            i = skip_string(&chars, i + 2);
        } else if c == 'b' && at(i + 1) == '\'' {
            i = skip_char(&chars, i + 1);
        } else if c == '\'' {
            if at(i + 1) == '\\' || at(i + 2) == '\'' {
                i = skip_char(&chars, i);
            } else {
                // A lifetime or a label: its name is no path.
                i += 1;
                while at(i).is_alphanumeric() || at(i) == '_' {
                    i += 1;
                }
            }
        } else if c.is_ascii_digit() {
            while at(i).is_alphanumeric()
                || at(i) == '_'
                || (at(i) == '.' && at(i + 1).is_ascii_digit())
            {
                i += 1;
            }
        } else if c.is_alphabetic() || c == '_' {
            if c == 'r' && at(i + 1) == '#' {
                i += 2;
            }
            let start = i;
            while at(i).is_alphanumeric() || at(i) == '_' {
                i += 1;
            }
            out.push(Token::Ident(chars[start..i].iter().collect()));
        } else if c == ':' && at(i + 1) == ':' {
            out.push(Token::Path);
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(Token::Punct(c));
            }
            i += 1;
        }
    }
    out
}

/// The index after the closing quote of a string whose body starts at `i`.
fn skip_string(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// The index after a character literal whose opening quote is at `i`.
fn skip_char(chars: &[char], mut i: usize) -> usize {
    i += 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '\'' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// At `r"`, `r#"`, `br#"`, `cr"` and so on: the number of hashes and the index of the quote.
fn raw_string_start(chars: &[char], i: usize) -> Option<(usize, usize)> {
    if i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_') {
        return None;
    }
    let mut j = i;
    if chars[j] == 'b' || chars[j] == 'c' {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while chars.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    (chars.get(j) == Some(&'"')).then_some((hashes, j))
}

type ModPath = Vec<String>;

/// One name a `use` brings into a module: `name` stands for `target` (or, for a glob, every
/// public name of `target`).
#[derive(Clone, Debug)]
struct UseItem {
    name: Option<String>,
    target: ModPath,
    public: bool,
}

#[derive(Default, Debug)]
struct Module {
    file: usize,
    children: BTreeSet<String>,
    defines: BTreeSet<String>,
    uses: Vec<UseItem>,
}

/// One path into the crate written in a file: from which module, the path's segments, whether
/// it sits in a public `use` (a re-export), and the token index it starts at.
#[derive(Debug)]
struct Written {
    file: usize,
    from: ModPath,
    segments: Vec<String>,
    reexport: bool,
}

struct Crate {
    files: Vec<String>,
    /// The module each file is.
    file_modules: Vec<ModPath>,
    modules: HashMap<ModPath, Module>,
    written: Vec<Written>,
}

fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// The module a file is, from its place under `src/`: `host/mod.rs` and `host.rs` are
/// `host`, `host/play.rs` is `host::play`, `lib.rs` is the root; `main.rs` is the binary.
fn module_of(relative: &str) -> ModPath {
    let stem = relative.trim_end_matches(".rs");
    let mut parts: Vec<String> = stem.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|p| p == "mod") || parts == ["lib"] {
        parts.pop();
    }
    if parts == ["main"] {
        return vec!["<main>".to_owned()];
    }
    parts
}

const ITEM_KEYWORDS: &[&str] = &[
    "fn", "struct", "enum", "trait", "type", "const", "static", "union",
];

fn read_crate(src: &Path) -> Crate {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    paths.sort();
    let mut krate = Crate {
        files: Vec::new(),
        file_modules: Vec::new(),
        modules: HashMap::new(),
        written: Vec::new(),
    };
    let mut sources = Vec::new();
    for path in &paths {
        let relative = path
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let source = std::fs::read_to_string(path).expect("a readable source file");
        let module = module_of(&relative);
        // A file named by `#[path]` (a test file beside its module) is that module's own text.
        let module = path_attribute_owner(&relative, &sources).unwrap_or(module);
        krate.files.push(relative.clone());
        krate.file_modules.push(module.clone());
        let file = krate.files.len() - 1;
        krate.modules.entry(module.clone()).or_default().file = file;
        if let Some((last, parent)) = module.split_last() {
            krate
                .modules
                .entry(parent.to_vec())
                .or_default()
                .children
                .insert(last.clone());
        }
        sources.push((relative, module, source));
    }
    for (file, (_, module, source)) in sources.iter().enumerate() {
        scan(&mut krate, file, module.clone(), &tokens(source));
    }
    krate
}

/// A file included by `#[path = "x.rs"] mod name;` from a file in its own folder: the module
/// it is (the declaring module's child `name`).
fn path_attribute_owner(relative: &str, earlier: &[(String, ModPath, String)]) -> Option<ModPath> {
    let name = relative.rsplit('/').next()?;
    let dir = relative.strip_suffix(name)?;
    let needle = format!("#[path = \"{name}\"]");
    earlier.iter().find_map(|(other, module, source)| {
        let sibling = other
            .strip_prefix(dir)
            .is_some_and(|rest| !rest.contains('/'));
        let at = source.find(&needle).filter(|_| sibling)?;
        let declared = source[at + needle.len()..]
            .split("mod ")
            .nth(1)?
            .split(';')
            .next()?
            .trim();
        let mut module = module.clone();
        module.push(declared.to_owned());
        Some(module)
    })
}

fn ident(tokens: &[Token], i: usize) -> Option<&str> {
    match tokens.get(i) {
        Some(Token::Ident(s)) => Some(s),
        _ => None,
    }
}

/// Reads one file's tokens: its inline modules, the items it defines at module level, its
/// `use` trees and every path written in its code.
fn scan(krate: &mut Crate, file: usize, root: ModPath, tokens: &[Token]) {
    // The inline modules open at this point, each with the brace depth of its body.
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut macro_export = false;
    let current = |stack: &[(String, usize)]| {
        let mut m = root.clone();
        m.extend(stack.iter().map(|(n, _)| n.clone()));
        m
    };
    let body_depth = |stack: &[(String, usize)]| stack.last().map_or(0, |(_, d)| *d);
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Token::Punct('}') => {
                if stack.last().is_some_and(|(_, d)| *d == depth) {
                    stack.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            Token::Punct('#') => {
                if ident(tokens, i + 2) == Some("macro_export") {
                    macro_export = true;
                }
                i += 1;
            }
            Token::Ident(word) if word == "mod" && depth == body_depth(&stack) => {
                let Some(name) = ident(tokens, i + 1).map(str::to_owned) else {
                    i += 1;
                    continue;
                };
                let here = current(&stack);
                let module = krate.modules.entry(here.clone()).or_default();
                module.children.insert(name.clone());
                if tokens.get(i + 2) == Some(&Token::Punct('{')) {
                    let mut inner = here.clone();
                    inner.push(name.clone());
                    krate.modules.entry(inner).or_default().file = file;
                    depth += 1;
                    stack.push((name, depth));
                    i += 3;
                } else {
                    i += 2;
                }
            }
            Token::Ident(word) if word == "use" => {
                let public = matches!(tokens.get(i.wrapping_sub(1)), Some(Token::Ident(p)) if p == "pub")
                    || tokens.get(i.wrapping_sub(1)) == Some(&Token::Punct(')'));
                let mut items = Vec::new();
                let end = use_tree(tokens, i + 1, Vec::new(), &mut items);
                let here = current(&stack);
                for (segments, name) in items {
                    if segments.first().is_some_and(|s| s.is_empty()) {
                        continue; // `use ::extern_crate::…`
                    }
                    krate.written.push(Written {
                        file,
                        from: here.clone(),
                        segments: segments.clone(),
                        reexport: public,
                    });
                    krate
                        .modules
                        .entry(here.clone())
                        .or_default()
                        .uses
                        .push(UseItem {
                            name,
                            target: segments,
                            public,
                        });
                }
                i = end;
            }
            Token::Ident(word)
                if word == "macro_rules" && tokens.get(i + 1) == Some(&Token::Punct('!')) =>
            {
                if let Some(name) = ident(tokens, i + 2) {
                    let at = if macro_export {
                        Vec::new()
                    } else {
                        current(&stack)
                    };
                    krate
                        .modules
                        .entry(at)
                        .or_default()
                        .defines
                        .insert(name.to_owned());
                }
                macro_export = false;
                i += 3;
            }
            Token::Ident(word)
                if ITEM_KEYWORDS.contains(&word.as_str()) && depth == body_depth(&stack) =>
            {
                if let Some(name) = ident(tokens, i + 1)
                    && !ITEM_KEYWORDS.contains(&name)
                    && name != "unsafe"
                    && name != "extern"
                {
                    let here = current(&stack);
                    krate
                        .modules
                        .entry(here)
                        .or_default()
                        .defines
                        .insert(name.to_owned());
                }
                i += 1;
            }
            Token::Ident(_) if tokens.get(i.wrapping_sub(1)) != Some(&Token::Path) => {
                let mut segments = Vec::new();
                let mut j = i;
                while let Some(seg) = ident(tokens, j) {
                    segments.push(seg.to_owned());
                    if tokens.get(j + 1) != Some(&Token::Path) {
                        break;
                    }
                    j += 2;
                }
                // `$crate` reads as `crate`.
                if segments.len() > 1 {
                    krate.written.push(Written {
                        file,
                        from: current(&stack),
                        segments,
                        reexport: false,
                    });
                }
                i = j + 1;
            }
            _ => i += 1,
        }
    }
}

/// Parses a use tree from `i` with `prefix` already read; pushes each leaf as (segments, the
/// name it binds, None for a glob) and returns the index after the tree (past `;` at the top).
fn use_tree(
    tokens: &[Token],
    mut i: usize,
    mut prefix: Vec<String>,
    into: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    if tokens.get(i) == Some(&Token::Path) {
        prefix.push(String::new());
        i += 1;
    }
    loop {
        match tokens.get(i) {
            Some(Token::Ident(seg)) => {
                prefix.push(seg.clone());
                i += 1;
                if tokens.get(i) == Some(&Token::Path) {
                    i += 1;
                    continue;
                }
                let mut name = prefix.last().cloned();
                if ident(tokens, i) == Some("as") {
                    name = ident(tokens, i + 1).map(str::to_owned);
                    i += 2;
                }
                if name.as_deref() == Some("self") {
                    prefix.pop();
                    name = prefix.last().cloned();
                }
                into.push((prefix, name));
                break;
            }
            Some(Token::Punct('*')) => {
                into.push((prefix, None));
                i += 1;
                break;
            }
            Some(Token::Punct('{')) => {
                i += 1;
                loop {
                    match tokens.get(i) {
                        Some(Token::Punct('}')) => {
                            i += 1;
                            break;
                        }
                        Some(Token::Punct(',')) => i += 1,
                        None => return i,
                        _ => i = use_tree(tokens, i, prefix.clone(), into),
                    }
                }
                break;
            }
            _ => break,
        }
    }
    if tokens.get(i) == Some(&Token::Punct(';')) {
        i += 1;
    }
    i
}

impl Crate {
    /// `segments` as written in module `from`, made absolute; None if it leads outside the
    /// crate (a dependency, `std`, a local variable or type).
    fn absolute(&self, from: &ModPath, segments: &[String]) -> Option<ModPath> {
        self.absolute_within(from, segments, 0)
    }

    fn absolute_within(&self, from: &ModPath, segments: &[String], hops: usize) -> Option<ModPath> {
        if hops > 16 {
            return None;
        }
        let mut base = from.clone();
        let mut rest = segments;
        match segments.first().map(String::as_str) {
            // `herald::` is how the binary names the library.
            Some("crate") | Some("herald") => {
                base.clear();
                rest = &segments[1..];
            }
            Some("self") => rest = &segments[1..],
            Some("super") => {
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
            }
            Some(first) => {
                let module = self.modules.get(from)?;
                if module.children.contains(first) {
                    // A child module named from its parent.
                } else if let Some(item) = module.uses.iter().find(|u| {
                    u.name.as_deref() == Some(first)
                        && u.target.first().map(String::as_str) != Some(first)
                }) {
                    // A name this module imported: continue from what it stands for.
                    let mut target = self.absolute_within(from, &item.target, hops + 1)?;
                    target.extend(segments[1..].iter().cloned());
                    return Some(target);
                } else {
                    return None;
                }
            }
            None => return None,
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The file that defines what the absolute path names, following re-exports.
    fn defining_file(&self, path: &[String], seen: &mut Vec<ModPath>) -> Option<usize> {
        if seen.iter().any(|s| s == path) || seen.len() > 32 {
            return None;
        }
        seen.push(path.to_vec());
        let mut module: ModPath = Vec::new();
        for (at, seg) in path.iter().enumerate() {
            let here = self.modules.get(&module)?;
            if here.children.contains(seg) {
                module.push(seg.clone());
                continue;
            }
            if here.defines.contains(seg) {
                return Some(here.file);
            }
            // A name the module hands on: where it comes from.
            if let Some(item) = here.uses.iter().find(|u| u.name.as_deref() == Some(seg)) {
                let mut target = self.absolute(&module, &item.target)?;
                target.extend(path[at + 1..].iter().cloned());
                return self.defining_file(&target, seen).or(Some(here.file));
            }
            for glob in here.uses.iter().filter(|u| u.name.is_none() && u.public) {
                if let Some(mut target) = self.absolute(&module, &glob.target) {
                    target.extend(path[at..].iter().cloned());
                    if let Some(file) = self.defining_file(&target, seen) {
                        return Some(file);
                    }
                }
            }
            return Some(here.file);
        }
        Some(self.modules.get(&module)?.file)
    }

    /// Every import between two different files: (from, to).
    fn imports(&self) -> BTreeSet<(usize, usize)> {
        let mut edges = BTreeSet::new();
        for written in &self.written {
            let Some(path) = self.absolute(&written.from, &written.segments) else {
                continue;
            };
            // A module's face: re-exporting its own descendants is no import of its own.
            if written.reexport
                && path.len() > written.from.len()
                && path.starts_with(&written.from)
            {
                continue;
            }
            // A module's own file names its children: it declares them, and so is made of
            // them. Only the other way, a child naming its parent, is an import.
            let own = &self.file_modules[written.file];
            if let Some(to) = self.defining_file(&path, &mut Vec::new())
                && to != written.file
                && !(self.file_modules[to].len() > own.len()
                    && self.file_modules[to].starts_with(own))
            {
                edges.insert((written.file, to));
            }
        }
        edges
    }
}

/// The room of a file (its top-level module) and the floor that room stands on.
fn room(file: &str) -> &str {
    let first = file.split('/').next().unwrap_or(file);
    first.strip_suffix(".rs").unwrap_or(first)
}

fn floor(room: &str) -> Option<usize> {
    FLOORS.iter().position(|rooms| rooms.contains(&room))
}

/// Tarjan's strongly connected components of the graph over `nodes` files.
fn circles(nodes: usize, edges: &BTreeSet<(usize, usize)>) -> Vec<Vec<usize>> {
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); nodes];
    for &(a, b) in edges {
        next[a].push(b);
    }
    struct State {
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        counter: usize,
        found: Vec<Vec<usize>>,
    }
    fn visit(v: usize, next: &[Vec<usize>], s: &mut State) {
        s.index[v] = Some(s.counter);
        s.low[v] = s.counter;
        s.counter += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &next[v] {
            match s.index[w] {
                None => {
                    visit(w, next, s);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut state = State {
        index: vec![None; nodes],
        low: vec![0; nodes],
        on_stack: vec![false; nodes],
        stack: Vec::new(),
        counter: 0,
        found: Vec::new(),
    };
    for v in 0..nodes {
        if state.index[v].is_none() {
            visit(v, &next, &mut state);
        }
    }
    state.found
}

/// What breaks the layers in the crate under `src`: each upward or sideways import and each
/// circle of files, in words.
fn breaches(src: &Path) -> Vec<String> {
    let krate = read_crate(src);
    let edges = krate.imports();
    let mut problems = Vec::new();
    for file in &krate.files {
        if floor(room(file)).is_none() {
            problems.push(format!(
                "src/{file} is on no floor: add its room to FLOORS and docs/architecture.md"
            ));
        }
    }
    let mut by_pair: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for &(a, b) in &edges {
        let (from, to) = (&krate.files[a], &krate.files[b]);
        let (ra, rb) = (room(from), room(to));
        if ra == rb {
            continue;
        }
        if let (Some(fa), Some(fb)) = (floor(ra), floor(rb))
            && fb >= fa
        {
            by_pair
                .entry((ra.to_owned(), rb.to_owned()))
                .or_default()
                .push(format!("src/{from} -> src/{to}"));
        }
    }
    for ((ra, rb), files) in by_pair {
        let how = if floor(&ra) == floor(&rb) {
            "beside it"
        } else {
            "above it"
        };
        problems.push(format!(
            "{ra} uses {rb}, which stands {how}: {}",
            files.join(", ")
        ));
    }
    let found = circles(krate.files.len(), &edges);
    for listed in NOT_YET_UNTIED {
        let gone = !found.iter().any(|circle| {
            circle.len() == listed.len()
                && circle
                    .iter()
                    .all(|&f| listed.contains(&krate.files[f].as_str()))
        });
        if gone {
            problems.push(format!(
                "the circle {listed:?} is untied (or changed): strike it off NOT_YET_UNTIED"
            ));
        }
    }
    for circle in found {
        let listed = NOT_YET_UNTIED.iter().any(|listed| {
            circle.len() == listed.len()
                && circle
                    .iter()
                    .all(|&f| listed.contains(&krate.files[f].as_str()))
        });
        if listed {
            continue;
        }
        let names: Vec<String> = circle
            .iter()
            .map(|&f| format!("src/{}", krate.files[f]))
            .collect();
        let ties: Vec<String> = edges
            .iter()
            .filter(|(a, b)| circle.contains(a) && circle.contains(b))
            .map(|&(a, b)| format!("{} -> {}", krate.files[a], krate.files[b]))
            .collect();
        problems.push(format!(
            "a circle of files: {} ({})",
            names.join(", "),
            ties.join("; ")
        ));
    }
    problems
}

#[test]
fn every_module_stands_on_its_layer_and_no_files_import_each_other_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let problems = breaches(&src);
    assert!(
        problems.is_empty(),
        "the layers are broken:\n{}",
        problems.join("\n")
    );
}
