//! The `use crate::` graph has no loop: neither among the top-level modules
//! (topology, routing, paths, traffic, sim, scenario, rng, spec_options,
//! cli, app...) nor among the files inside each module, `src/app` and
//! `src/cli` included. A loop is reported as the files or modules on
//! it, with the line of every import that closes it.
//!
//! The sources are read as text (no parser dependency): comments, doc
//! comments, strings and `#[cfg(test)]` modules are left out; `use`
//! declarations (nested braces, `self`, `as`, globs) and inline paths
//! starting with `crate::`, `super::` or `self::` are edges.
//!
//! How an import is resolved to a file:
//! - `super::Item` (or `crate::paths::Item`) follows the `use`/`pub use`
//!   declarations of the module it names to the file that defines `Item`,
//!   so a re-export through a mod.rs is not a dependency on that mod.rs;
//! - an item a mod.rs defines itself resolves to the mod.rs, which is then
//!   a node like any other file;
//! - a `pub use` is an edge out of its file only when the file's own code
//!   also uses the name (a pure re-export is resolution, not dependency).
//!
//! Loops that another piece of work owns are listed in [`KNOWN_LOOPS`]; the
//! test fails when one disappears, so the list cannot go stale.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::path::Path;

/// Loops that exist and are left for the work that owns those files, each
/// as the sorted files of its strongly connected component.
/// - `sim/engine.rs` ↔ `sim/summary.rs`: `Simulation::summary()` builds a
///   `Summary` while `Summary::of` reads a `&Simulation`; src/sim belongs to
///   the engine rewrite.
const KNOWN_LOOPS: &[&[&str]] = &[];

/// Top-level modules whose files are not checked against each other: none
/// (`app` and `cli` were, until their loops were broken: `cli/args.rs` held
/// the subcommand enum that every subcommand's file imported back, and
/// `app/network_view.rs` ↔ `app/fat_tree_view.rs` shared the colouring
/// types; they now live in `cli/command.rs`, `cli/output.rs` and
/// `app/colouring.rs`).
const NOT_CORE: &[&str] = &[];

// ---------------------------------------------------------------- reading

/// The source with comments, strings and character literals blanked out
/// (newlines kept, so line numbers stay right).
fn strip(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let prev = if i > 0 { c[i - 1] } else { ' ' };
        if c[i] == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            loop {
                if i >= c.len() {
                    break;
                }
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if !ident(prev) && (c[i] == 'r' || (c[i] == 'b' && at(i + 1) == 'r')) && {
            let mut j = i + if c[i] == 'b' { 2 } else { 1 };
            while at(j) == '#' {
                j += 1;
            }
            at(j) == '"'
        } {
            // Raw string: r#"..."#.
            let mut j = i + if c[i] == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            i = j + 1;
            while i < c.len() {
                if c[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                    i += 1 + hashes;
                    break;
                }
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                blank(&mut out, at(i));
                i += 1;
            }
            i += 1;
        } else if c[i] == '\'' && at(i + 1) == '\\' {
            // Escaped character literal: '\n', '\'', '\u{..}'.
            i += 2;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if c[i] == '\'' && at(i + 2) == '\'' {
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
            continue;
        }
        // Whatever was left out still separates tokens.
        out.push(' ');
    }
    out
}

#[derive(Clone, Debug)]
struct Tok {
    text: String,
    line: usize,
}

/// Identifiers, `::`, and every other character on its own.
fn tokens(code: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut line = 1;
    let c: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(Tok {
                text: c[start..i].iter().collect(),
                line,
            });
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Tok {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            out.push(Tok {
                text: ch.to_string(),
                line,
            });
            i += 1;
        }
    }
    out
}

fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// One name a `use` declaration brings in (`name` None for a glob).
#[derive(Clone, Debug)]
struct UseItem {
    path: Vec<String>,
    name: Option<String>,
    public: bool,
    /// The module (file module plus inline modules) the `use` is in.
    ctx: Vec<String>,
    line: usize,
}

/// An inline `crate::a::b` / `super::x` / `self::y` path in code.
#[derive(Clone, Debug)]
struct InlinePath {
    path: Vec<String>,
    ctx: Vec<String>,
    line: usize,
}

#[derive(Clone, Debug)]
struct SourceFile {
    /// Relative to `src/`, e.g. `paths/select.rs`.
    name: String,
    module: Vec<String>,
    uses: Vec<UseItem>,
    inline: Vec<InlinePath>,
    /// Identifiers outside `use` declarations (for the `pub use` rule).
    idents: BTreeSet<String>,
}

/// Module path of a file under `src/`: `paths/select.rs` → [paths, select],
/// `paths/mod.rs` → [paths], `lib.rs` → [].
fn module_of(name: &str) -> Vec<String> {
    let mut parts: Vec<String> = name.split('/').map(str::to_string).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// Index of the token that closes the bracket opened at `open`.
fn closing(toks: &[Tok], open: usize) -> usize {
    let (o, c) = match toks[open].text.as_str() {
        "{" => ("{", "}"),
        "[" => ("[", "]"),
        _ => ("(", ")"),
    };
    let mut depth = 0;
    for (i, t) in toks.iter().enumerate().skip(open) {
        if t.text == o {
            depth += 1;
        } else if t.text == c {
            depth -= 1;
            if depth == 0 {
                return i;
            }
        }
    }
    toks.len() - 1
}

/// Parse one use tree starting at `*i` under `prefix`.
fn use_tree(
    toks: &[Tok],
    i: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    if toks.get(*i).is_some_and(|t| t.text == "::") {
        *i += 1;
    }
    let Some(t) = toks.get(*i) else { return };
    match t.text.as_str() {
        "{" => {
            *i += 1;
            while *i < toks.len() && toks[*i].text != "}" {
                use_tree(toks, i, prefix.clone(), out);
                if toks.get(*i).is_some_and(|t| t.text == ",") {
                    *i += 1;
                }
            }
            *i += 1;
        }
        "*" => {
            out.push((prefix, None));
            *i += 1;
        }
        word if is_ident(word) => {
            *i += 1;
            if toks.get(*i).is_some_and(|t| t.text == "::") {
                let mut p = prefix;
                p.push(word.to_string());
                use_tree(toks, i, p, out);
                return;
            }
            let (path, mut name) = if word == "self" && !prefix.is_empty() {
                let name = prefix.last().cloned();
                (prefix, name)
            } else {
                let mut p = prefix;
                p.push(word.to_string());
                (p, Some(word.to_string()))
            };
            if toks.get(*i).is_some_and(|t| t.text == "as") {
                name = toks.get(*i + 1).map(|t| t.text.clone());
                *i += 2;
            }
            out.push((path, name));
        }
        _ => *i += 1,
    }
}

/// Read one file's imports.
fn read_file(name: &str, src: &str) -> SourceFile {
    let toks = tokens(&strip(src));
    let module = module_of(name);
    let mut file = SourceFile {
        name: name.to_string(),
        module: module.clone(),
        uses: Vec::new(),
        inline: Vec::new(),
        idents: BTreeSet::new(),
    };
    // Inline modules: (name, brace depth inside them).
    let mut inline_mods: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut cfg_test = false;
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i].text.as_str();
        let ctx = || {
            let mut c = module.clone();
            c.extend(inline_mods.iter().map(|(m, _)| m.clone()));
            c
        };
        let next = |k: usize| toks.get(i + k).map_or("", |t| t.text.as_str());
        if t == "#" {
            // An attribute: #[..] or #![..].
            let open = if next(1) == "!" { i + 2 } else { i + 1 };
            if toks.get(open).is_some_and(|t| t.text == "[") {
                let close = closing(&toks, open);
                let body: Vec<&str> = toks[open + 1..close]
                    .iter()
                    .map(|t| t.text.as_str())
                    .collect();
                cfg_test |= body == ["cfg", "(", "test", ")"];
                i = close + 1;
                continue;
            }
        }
        if cfg_test && matches!(t, "pub" | "(" | "crate" | "super" | "in" | ")") {
            i += 1;
            continue;
        }
        let skip_test = std::mem::take(&mut cfg_test);
        match t {
            // `mod name;` declares a child; its name is not a use of an item.
            "mod" if is_ident(next(1)) && next(2) == ";" => {
                i += 3;
                continue;
            }
            "mod" if is_ident(next(1)) && next(2) == "{" => {
                if skip_test {
                    i = closing(&toks, i + 2) + 1;
                } else {
                    depth += 1;
                    inline_mods.push((next(1).to_string(), depth));
                    i += 3;
                }
                continue;
            }
            "use" => {
                let end = (i..toks.len())
                    .find(|&k| toks[k].text == ";")
                    .unwrap_or(toks.len());
                if !skip_test {
                    let public = i > 0
                        && (toks[i - 1].text == "pub"
                            || (toks[i - 1].text == ")"
                                && (0..i - 1)
                                    .rev()
                                    .find(|&k| toks[k].text == "(")
                                    .is_some_and(|k| k > 0 && toks[k - 1].text == "pub")));
                    let mut items = Vec::new();
                    let mut k = i + 1;
                    use_tree(&toks[..end], &mut k, Vec::new(), &mut items);
                    for (path, name) in items {
                        file.uses.push(UseItem {
                            path,
                            name,
                            public,
                            ctx: ctx(),
                            line: toks[i].line,
                        });
                    }
                }
                i = end + 1;
                continue;
            }
            "{" => depth += 1,
            "}" => {
                if inline_mods.last().is_some_and(|&(_, d)| d == depth) {
                    inline_mods.pop();
                }
                depth = depth.saturating_sub(1);
            }
            "crate" | "super" | "self" if next(1) == "::" => {
                let mut path = vec![t.to_string()];
                let mut k = i + 1;
                while toks.get(k).is_some_and(|t| t.text == "::")
                    && toks.get(k + 1).is_some_and(|t| is_ident(&t.text))
                {
                    path.push(toks[k + 1].text.clone());
                    k += 2;
                }
                file.inline.push(InlinePath {
                    path,
                    ctx: ctx(),
                    line: toks[i].line,
                });
                i = k;
                continue;
            }
            word if is_ident(word) => {
                file.idents.insert(word.to_string());
            }
            _ => {}
        }
        i += 1;
    }
    file
}

// ---------------------------------------------------------------- graph

/// An import of `to` by `from`, at `line`, written `what`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    from: String,
    to: String,
    line: usize,
    what: String,
}

struct Crate {
    files: Vec<SourceFile>,
    by_module: HashMap<Vec<String>, usize>,
}

impl Crate {
    fn new(sources: &[(String, String)]) -> Crate {
        let files: Vec<SourceFile> = sources.iter().map(|(n, s)| read_file(n, s)).collect();
        let by_module = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.module.clone(), i))
            .collect();
        Crate { files, by_module }
    }

    /// Absolute module path of `path` written in module `ctx`; None for an
    /// external crate.
    fn absolute(&self, path: &[String], ctx: &[String]) -> Option<Vec<String>> {
        let first = path.first()?.as_str();
        match first {
            "crate" => Some(path[1..].to_vec()),
            "self" => Some([ctx, &path[1..]].concat()),
            "super" => {
                let ups = path.iter().take_while(|s| *s == "super").count();
                let base = &ctx[..ctx.len().saturating_sub(ups)];
                Some([base, &path[ups..]].concat())
            }
            _ => {
                // A child module of the current one (2018 paths), else external.
                let child = [ctx, &path[..1]].concat();
                self.by_module
                    .contains_key(&child)
                    .then(|| [ctx, path].concat())
            }
        }
    }

    /// The file that defines what `path` (absolute) names, following `use`
    /// declarations of the module it is found in.
    /// Items of the crate root (lib.rs) resolve to nothing: it only
    /// declares modules.
    fn resolve(&self, path: &[String], hops: usize) -> Option<usize> {
        let (len, &file) = (1..=path.len())
            .rev()
            .find_map(|n| self.by_module.get(&path[..n]).map(|f| (n, f)))?;
        let Some(name) = path.get(len) else {
            return Some(file);
        };
        if hops < 16 {
            let f = &self.files[file];
            if let Some(u) = f
                .uses
                .iter()
                .find(|u| u.name.as_deref() == Some(name.as_str()))
            {
                // Not a path into the crate (another crate, or a macro or
                // item of the module itself): the item is this file's.
                let Some(target) = self.absolute(&u.path, &u.ctx) else {
                    return Some(file);
                };
                let target = [&target[..], &path[len + 1..]].concat();
                return self.resolve(&target, hops + 1).or(Some(file));
            }
        }
        Some(file)
    }

    /// Every import between two different files.
    fn edges(&self) -> Vec<Edge> {
        let mut edges = BTreeSet::new();
        for (i, f) in self.files.iter().enumerate() {
            let mut add = |path: &[String], ctx: &[String], line: usize| {
                let Some(abs) = self.absolute(path, ctx) else {
                    return;
                };
                if let Some(to) = self.resolve(&abs, 0).filter(|&to| to != i) {
                    edges.insert(Edge {
                        from: f.name.clone(),
                        to: self.files[to].name.clone(),
                        line,
                        what: path.join("::"),
                    });
                }
            };
            for u in &f.uses {
                // A re-export the file does not use itself is no dependency.
                let used = match &u.name {
                    Some(n) => !u.public || f.idents.contains(n),
                    None => true,
                };
                if used {
                    add(&u.path, &u.ctx, u.line);
                }
            }
            for p in &f.inline {
                add(&p.path, &p.ctx, p.line);
            }
        }
        edges.into_iter().collect()
    }
}

/// Top-level module of a file: `paths/select.rs` → `paths`, `rng.rs` → `rng`.
fn top(file: &str) -> String {
    file.split('/')
        .next()
        .unwrap_or("")
        .trim_end_matches(".rs")
        .to_string()
}

/// The strongly connected components of more than one node (Tarjan).
fn loops(edges: &[(String, String)]) -> Vec<Vec<String>> {
    let mut adj: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (a, b) in edges {
        adj.entry(a).or_default().insert(b);
        adj.entry(b).or_default();
    }
    struct State<'a> {
        adj: &'a BTreeMap<&'a str, BTreeSet<&'a str>>,
        index: HashMap<&'a str, usize>,
        low: HashMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for &w in &s.adj[v] {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        adj: &adj,
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for &v in adj.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out.sort();
    s.out
}

/// One cycle through the first node of `comp`, as `a -> b -> a` with the
/// import that makes each step.
fn describe(comp: &[String], edges: &[(String, String, String)]) -> String {
    let start = comp[0].as_str();
    let inside = |x: &str| comp.iter().any(|c| c == x);
    // Shortest path from `start` back to itself inside the component.
    let mut prev: HashMap<&str, (&str, &str)> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    'search: while let Some(v) = queue.pop_front() {
        for (a, b, why) in edges {
            if a == v && inside(b) && !prev.contains_key(b.as_str()) {
                prev.insert(b, (a, why));
                if b == start {
                    break 'search;
                }
                queue.push_back(b);
            }
        }
    }
    let mut steps = Vec::new();
    let mut at = start;
    while let Some(&(from, why)) = prev.get(at) {
        steps.push(format!("{from} -> {at} ({why})"));
        at = from;
        if at == start {
            break;
        }
    }
    steps.reverse();
    format!(
        "loop through {}:\n    {}",
        comp.join(", "),
        steps.join("\n    ")
    )
}

/// Loops among the files of each core module and among the top-level
/// modules, described; the known ones are returned apart.
fn check(sources: &[(String, String)]) -> (Vec<String>, Vec<Vec<String>>) {
    let krate = Crate::new(sources);
    let edges = krate.edges();
    let mut problems = Vec::new();
    let mut known = Vec::new();
    // Files inside each core module.
    let inner: Vec<(String, String, String)> = edges
        .iter()
        .filter(|e| top(&e.from) == top(&e.to) && !NOT_CORE.contains(&top(&e.from).as_str()))
        .map(|e| {
            (
                e.from.clone(),
                e.to.clone(),
                format!("{}:{} `{}`", e.from, e.line, e.what),
            )
        })
        .collect();
    // Top-level modules.
    let outer: Vec<(String, String, String)> = edges
        .iter()
        .filter(|e| top(&e.from) != top(&e.to) && e.from != "lib.rs" && e.to != "lib.rs")
        .map(|e| {
            (
                top(&e.from),
                top(&e.to),
                format!("{}:{} `{}`", e.from, e.line, e.what),
            )
        })
        .collect();
    for graph in [inner, outer] {
        let pairs: Vec<(String, String)> = graph
            .iter()
            .map(|(a, b, _)| (a.clone(), b.clone()))
            .collect();
        for comp in loops(&pairs) {
            if KNOWN_LOOPS.iter().any(|k| k.iter().eq(comp.iter())) {
                known.push(comp);
            } else {
                problems.push(describe(&comp, &graph));
            }
        }
    }
    (problems, known)
}

/// Every `.rs` file under `src/` but the binary's `main.rs`.
fn crate_sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, root, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let name = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                if name != "main.rs" && !name.starts_with("bin/") {
                    out.push((name, std::fs::read_to_string(&p).unwrap()));
                }
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out
}

#[test]
fn the_crate_has_no_import_loop() {
    let sources = crate_sources();
    assert!(
        sources.iter().any(|(n, _)| n == "paths/mod.rs"),
        "read src/"
    );
    let (problems, known) = check(&sources);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    for k in KNOWN_LOOPS {
        assert!(
            known.iter().any(|c| c.iter().eq(k.iter())),
            "the known loop {k:?} is gone: remove it from KNOWN_LOOPS"
        );
    }
}

// ------------------------------------------------- the logic on small input

fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(n, s)| (n.to_string(), s.to_string()))
        .collect()
}

fn edge_list(list: &[(&str, &str)]) -> Vec<(String, String)> {
    Crate::new(&files(list))
        .edges()
        .into_iter()
        .map(|e| (e.from, e.to))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn two_files_importing_each_other_are_a_loop() {
    let src = files(&[
        ("lib.rs", "pub mod a;"),
        ("a/mod.rs", "mod x; mod y;"),
        ("a/x.rs", "use super::y::Y;\npub struct X(Y);"),
        ("a/y.rs", "pub struct Y;\nfn f() -> super::x::X { todo!() }"),
    ]);
    let (problems, _) = check(&src);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("loop through a/x.rs, a/y.rs"),
        "{}",
        problems[0]
    );
    assert!(
        problems[0].contains("a/x.rs:1 `super::y::Y`"),
        "{}",
        problems[0]
    );
    assert!(
        problems[0].contains("a/y.rs:2 `super::x::X`"),
        "{}",
        problems[0]
    );
}

#[test]
fn top_level_modules_importing_each_other_are_a_loop() {
    let src = files(&[
        ("lib.rs", "pub mod a; pub mod b; pub mod c;"),
        ("a/mod.rs", "mod x; pub use x::X;"),
        ("a/x.rs", "use crate::b::B;\npub struct X(B);"),
        ("b.rs", "pub struct B;\nimpl B { fn f(_: crate::a::X) {} }"),
        ("c.rs", "use crate::{a::X, b::B};"),
    ]);
    let (problems, _) = check(&src);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("loop through a, b"),
        "{}",
        problems[0]
    );
}

#[test]
fn re_exports_resolve_to_the_defining_file() {
    // mod.rs only re-exports: children importing `super::Item` depend on
    // the child that defines it, not on mod.rs.
    let e = edge_list(&[
        (
            "p/mod.rs",
            "mod a; mod b;\npub use a::A;\npub use b::{B, self as bee};",
        ),
        ("p/a.rs", "pub struct A;"),
        ("p/b.rs", "use super::A;\npub struct B(A);"),
    ]);
    assert_eq!(e, pairs(&[("p/b.rs", "p/a.rs")]));
}

#[test]
fn items_a_mod_rs_defines_make_it_a_node() {
    // mod.rs defines `Error` (children import it) and uses `Choice`, which
    // it re-exports from a child that imports `Error`: a loop.
    let src = files(&[
        (
            "p/mod.rs",
            "mod a;\npub use a::Choice;\npub struct Error;\npub trait T { fn f() -> Choice; }",
        ),
        (
            "p/a.rs",
            "use super::Error;\npub type Choice = Result<(), Error>;",
        ),
    ]);
    let (problems, _) = check(&src);
    assert!(
        problems[0].contains("loop through p/a.rs, p/mod.rs"),
        "{problems:?}"
    );
    // The same mod.rs without the trait: the re-export is not an import.
    let src = files(&[
        ("p/mod.rs", "mod a;\npub use a::Choice;\npub struct Error;"),
        (
            "p/a.rs",
            "use super::Error;\npub type Choice = Result<(), Error>;",
        ),
    ]);
    assert!(check(&src).0.is_empty());
}

#[test]
fn comments_strings_and_test_modules_are_not_imports() {
    let e = edge_list(&[
        ("p/mod.rs", "mod a; mod b;"),
        (
            "p/a.rs",
            r##"//! See [`crate::p::b::B`].
/// use super::b::B;
/* use super::b::B; /* nested */ */
const S: &str = "use super::b::B;";
const R: &str = r#"super::b::B"#;
const C: char = '"';
fn f<'a>(x: &'a str) -> &'a str { x }
#[cfg(test)]
mod tests {
    use super::super::b::B;
    use crate::p::b;
}
"##,
        ),
        ("p/b.rs", "pub struct B;"),
    ]);
    assert!(e.is_empty(), "{e:?}");
}

#[test]
fn nested_braces_self_and_child_paths_are_read() {
    let e = edge_list(&[
        ("lib.rs", "pub mod p; pub mod q;"),
        ("p/mod.rs", "mod a; mod b; mod c;\nuse c::C;\nfn f(_: C) {}"),
        (
            "p/a.rs",
            "use crate::q::{self, inner::{I, J as K}};\nuse super::b::*;",
        ),
        ("p/b.rs", "pub struct B;"),
        ("p/c.rs", "pub struct C;"),
        ("q/mod.rs", "pub mod inner;"),
        ("q/inner.rs", "pub struct I; pub struct J;"),
    ]);
    let want = pairs(&[
        ("p/a.rs", "p/b.rs"),
        ("p/a.rs", "q/inner.rs"),
        ("p/a.rs", "q/mod.rs"),
        ("p/mod.rs", "p/c.rs"),
    ]);
    let got: BTreeSet<_> = e.into_iter().collect();
    assert_eq!(got, want.into_iter().collect());
}
