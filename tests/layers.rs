//! The layers of src/lib.rs are true: every module of the crate uses only the
//! modules listed before it there. The test reads the list from lib.rs and every
//! source file of the library, and names each import that reaches a later layer
//! (`crate::X`, `crate::{X, ..}`, or `super::` climbing out of the module to `X`).
//! Every source file belongs to a listed layer (none escapes the check), and the
//! binary, main.rs, reaches the library only through its top layer. Below the
//! layers, the modules at file level form no import cycle: a cycle names its
//! members and the imports that close it.

use std::path::{Path, PathBuf};

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// A source file: its `src/..` name, its module path below the crate, its text.
type SourceFile = (String, Vec<String>, String);

/// The layer list of lib.rs (lowest first): the first word of each line of the
/// ```text block of its doc comment; indented lines continue the line before.
fn layers(lib: &str) -> Vec<String> {
    let doc: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect();
    let start = doc
        .iter()
        .position(|l| l.trim() == "```text")
        .expect("lib.rs documents its layers in a ```text block");
    doc[start + 1..]
        .iter()
        .take_while(|l| l.trim() != "```")
        .filter(|l| !l.starts_with(' ') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}

/// The modules lib.rs declares.
fn declared_modules(lib: &str) -> Vec<String> {
    lib.lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';').trim().to_string())
        .collect()
}

/// The code of a Rust file with comments, string and character literals blanked out
/// (so that paths in documentation or messages do not count).
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        if c[i] == '/' && at(&c, i, 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && at(&c, i, 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(&c, i, 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(&c, i, 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c[i] == 'r'
            && (at(&c, i, 1) == '"' || (at(&c, i, 1) == '#' && !prev_is_ident(&c, i)))
        {
            // Raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' && (at(&c, i, 1) == '\\' || at(&c, i, 2) == '\'') {
            // A character literal (a lifetime has no closing quote).
            i += 1;
            while i < c.len() && c[i] != '\'' {
                if c[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The character `k` places after `i`, or NUL past the end.
fn at(c: &[char], i: usize, k: usize) -> char {
    c.get(i + k).copied().unwrap_or('\0')
}

fn prev_is_ident(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

fn ident_at(code: &[char], mut i: usize) -> (String, usize) {
    while i < code.len() && code[i].is_whitespace() {
        i += 1;
    }
    let start = i;
    while i < code.len() && (code[i].is_alphanumeric() || code[i] == '_') {
        i += 1;
    }
    (code[start..i].iter().collect(), i)
}

/// The index of the first non-space character at or after `i`.
fn skip_space(code: &[char], mut i: usize) -> usize {
    while i < code.len() && code[i].is_whitespace() {
        i += 1;
    }
    i
}

/// The paths of a use tree starting at `i` (`a::b`, `a::{b, c::{d, e}}`, `a::*`),
/// each as its segments, and where the tree ends. `self` in a group names the
/// group's prefix; `*` and `as` aliases add nothing.
fn use_tree(code: &[char], mut i: usize) -> (Vec<Vec<String>>, usize) {
    let mut prefix = Vec::new();
    loop {
        i = skip_space(code, i);
        if code.get(i) == Some(&'{') {
            let mut paths = Vec::new();
            i += 1;
            loop {
                i = skip_space(code, i);
                match code.get(i) {
                    None => break,
                    Some('}') => {
                        i += 1;
                        break;
                    }
                    Some(',') => {
                        i += 1;
                        continue;
                    }
                    _ => {}
                }
                let (subs, next) = use_tree(code, i);
                for sub in subs {
                    let mut path = prefix.clone();
                    path.extend(sub.into_iter().filter(|s| s != "self"));
                    paths.push(path);
                }
                // Past an `as` alias to the item's end.
                i = next.max(i + 1);
                while i < code.len() && code[i] != ',' && code[i] != '}' {
                    i += 1;
                }
            }
            return (paths, i);
        }
        let (name, next) = ident_at(code, i);
        if name.is_empty() {
            break;
        }
        prefix.push(name);
        i = skip_space(code, next);
        if code.get(i) == Some(&':') && code.get(i + 1) == Some(&':') {
            i += 2;
        } else {
            break;
        }
    }
    (vec![prefix], i)
}

/// The paths a file's code refers to through `crate::` or `super::`, each as its
/// segments from the crate root, with line numbers. `module_path` is the file's
/// module path below the crate (`["search", "worker"]`). Paths that stay inside the
/// file (`super::` out of an inline `mod tests { .. }`) come out as the file's own
/// module path.
fn imports(code: &str, module_path: &[String]) -> Vec<(Vec<String>, usize)> {
    let c: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    // Inline modules (`mod tests { .. }`) open inside the file: (name, brace depth).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut line = 1;
    let mut i = 0;
    let starts_path = |i: usize, word: &str| {
        let w: Vec<char> = word.chars().collect();
        c.len() >= i + w.len() && c[i..i + w.len()] == w[..] && !prev_is_ident(&c, i) && {
            // Not the tail of a longer path (`x::crate` cannot occur, `$crate` is a macro's).
            i == 0 || c[i - 1] != '$'
        }
    };
    while i < c.len() {
        match c[i] {
            '\n' => line += 1,
            '{' => depth += 1,
            '}' => {
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        if starts_path(i, "mod ") {
            let (name, next) = ident_at(&c, i + 4);
            let j = skip_space(&c, next);
            if c.get(j) == Some(&'{') {
                inline.push((name, depth + 1));
            }
        }
        if starts_path(i, "crate::") {
            let (paths, _) = use_tree(&c, i + "crate::".len());
            found.extend(paths.into_iter().map(|p| (p, line)));
        } else if starts_path(i, "super::") {
            let mut j = i;
            let mut ups = 0;
            while c.len() >= j + 7 && c[j..j + 7].iter().collect::<String>() == "super::" {
                ups += 1;
                j += 7;
            }
            // The module `super::` starts from: the file's, or an inline one inside it.
            let mut here: Vec<String> = module_path.to_vec();
            here.extend(inline.iter().map(|(name, _)| name.clone()));
            let base = &here[..here.len().saturating_sub(ups)];
            let (paths, _) = use_tree(&c, j);
            for p in paths {
                let mut full = base.to_vec();
                full.extend(p);
                found.push((full, line));
            }
            i = j;
            continue;
        }
        i += 1;
    }
    found
}

/// The top-level modules a file's code refers to, with line numbers, once per line
/// and module.
fn references(code: &str, module_path: &[String]) -> Vec<(String, usize)> {
    let mut found: Vec<(String, usize)> = imports(code, module_path)
        .into_iter()
        .filter_map(|(p, line)| p.first().map(|top| (top.clone(), line)))
        .collect();
    found.dedup();
    found
}

/// Every .rs file under `dir`, with its module path below the crate.
fn rust_files(dir: &Path, path: &[String], out: &mut Vec<(PathBuf, Vec<String>)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable source directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        let name = p
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if p.is_dir() {
            let mut sub = path.to_vec();
            sub.push(name);
            rust_files(&p, &sub, out);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            let mut m = path.to_vec();
            if stem != "mod" {
                m.push(stem.to_string());
            }
            out.push((p, m));
        }
    }
}

/// Imports that reach a later layer, as `file:line: module uses later-layer`.
fn violations(order: &[String], files: &[SourceFile]) -> Vec<String> {
    let rank = |m: &str| order.iter().position(|x| x == m);
    let mut bad = Vec::new();
    for (file, module_path, text) in files {
        let top = &module_path[0];
        let Some(own) = rank(top) else {
            continue;
        };
        for (target, line) in references(&code_only(text), module_path) {
            if let Some(r) = rank(&target)
                && r > own
            {
                bad.push(format!("{file}:{line}: {top} uses {target}, a later layer"));
            }
        }
    }
    bad
}

/// A module as its path below the crate, written `eval::cache`.
fn module_name(path: &[String]) -> String {
    path.join("::")
}

/// Whether one module lies inside the other (or is it): a parent's or child's
/// import is how modules are built, not a dependency between peers.
fn nested(a: &[String], b: &[String]) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// The import edges between peer modules (files that are neither parent nor
/// child of each other), as (from, to, `file:line`), each edge once. A path
/// names the file of its longest prefix that is a module of `files`.
fn peer_edges(files: &[SourceFile]) -> Vec<(String, String, String)> {
    let modules: Vec<&Vec<String>> = files.iter().map(|(_, m, _)| m).collect();
    let mut edges: Vec<(String, String, String)> = Vec::new();
    for (file, module_path, text) in files {
        for (path, line) in imports(&code_only(text), module_path) {
            let Some(target) = (1..=path.len())
                .rev()
                .find_map(|n| modules.iter().find(|m| m[..] == path[..n]))
            else {
                continue;
            };
            if nested(module_path, target) {
                continue;
            }
            let (from, to) = (module_name(module_path), module_name(target));
            if !edges.iter().any(|(f, t, _)| *f == from && *t == to) {
                edges.push((from, to, format!("{file}:{line}")));
            }
        }
    }
    edges
}

/// The import cycles between modules, one line per cycle: its members in the
/// order of the cycle and the import that makes each step.
fn cycles(files: &[SourceFile]) -> Vec<String> {
    let edges = peer_edges(files);
    let mut names: Vec<&String> = edges.iter().flat_map(|(f, t, _)| [f, t]).collect();
    names.sort();
    names.dedup();
    let mut found: Vec<String> = Vec::new();
    let mut seen: Vec<Vec<String>> = Vec::new();
    for start in &names {
        // The shortest way back to `start` (breadth first), if any.
        let mut came_from: Vec<(String, usize)> = vec![((*start).clone(), usize::MAX)];
        let mut at = 0;
        let mut closing = None;
        while at < came_from.len() && closing.is_none() {
            let here = came_from[at].0.clone();
            for (_, to, _) in edges.iter().filter(|(f, _, _)| *f == here) {
                if to == *start {
                    closing = Some(at);
                    break;
                }
                if !came_from.iter().any(|(m, _)| m == to) {
                    came_from.push((to.clone(), at));
                }
            }
            at += 1;
        }
        let Some(mut k) = closing else {
            continue;
        };
        let mut members = Vec::new();
        while k != usize::MAX {
            members.push(came_from[k].0.clone());
            k = came_from[k].1;
        }
        members.reverse();
        let mut key = members.clone();
        key.sort();
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let steps: Vec<String> = (0..members.len())
            .map(|n| {
                let (from, to) = (&members[n], &members[(n + 1) % members.len()]);
                let place = edges
                    .iter()
                    .find(|(f, t, _)| f == from && t == to)
                    .map_or("", |(_, _, p)| p.as_str());
                format!("{place}: {from} uses {to}")
            })
            .collect();
        let mut ring = members.clone();
        ring.push(members[0].clone());
        found.push(format!("{} ({})", ring.join(" -> "), steps.join("; ")));
    }
    found
}

/// Every library source file under a layer of lib.rs, as (`src/..` name, module
/// path, text), and the layer list.
fn library_files() -> (Vec<String>, Vec<SourceFile>) {
    let src = src_dir();
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let order = layers(&lib);
    let mut files = Vec::new();
    for m in &order {
        let dir = src.join(m);
        if dir.is_dir() {
            rust_files(&dir, std::slice::from_ref(m), &mut files);
        } else {
            files.push((src.join(format!("{m}.rs")), vec![m.clone()]));
        }
    }
    let files: Vec<SourceFile> = files
        .into_iter()
        .map(|(p, m)| {
            let text = std::fs::read_to_string(&p).expect("readable source");
            let name = p.strip_prefix(&src).unwrap_or(&p).display().to_string();
            (format!("src/{name}"), m, text)
        })
        .collect();
    assert!(files.len() > 20, "found only {} source files", files.len());
    (order, files)
}

#[test]
fn lib_lists_every_module_once() {
    let lib = std::fs::read_to_string(src_dir().join("lib.rs")).expect("lib.rs");
    let mut listed = layers(&lib);
    let mut declared = declared_modules(&lib);
    assert!(listed.len() >= 2, "no layer list found in lib.rs");
    listed.sort();
    let before = listed.len();
    listed.dedup();
    assert_eq!(before, listed.len(), "a module listed twice in lib.rs");
    declared.sort();
    assert_eq!(listed, declared, "lib.rs: layer list and `pub mod`s differ");
}

#[test]
fn no_module_uses_a_later_layer() {
    let (order, files) = library_files();
    let bad = violations(&order, &files);
    assert!(
        bad.is_empty(),
        "imports against the layers of lib.rs:\n{}",
        bad.join("\n")
    );
}

/// No module depends on itself through others: the modules at file level
/// (`eval::cache`, `protocol::cecp::game`) form no import cycle, inside a layer
/// or across layers.
#[test]
fn no_import_cycle_between_modules() {
    let (_, files) = library_files();
    let found = cycles(&files);
    assert!(
        found.is_empty(),
        "import cycles between modules:\n{}",
        found.join("\n")
    );
}

/// Every source file but lib.rs and main.rs lies in a module of the layer list: a
/// module declared outside the list (or a file the binary declares for itself) would
/// escape the check above.
#[test]
fn every_source_file_is_in_a_layer() {
    let src = src_dir();
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let order = layers(&lib);
    let mut files = Vec::new();
    rust_files(&src, &[], &mut files);
    let outside: Vec<String> = files
        .iter()
        .filter(|(_, m)| match m.first() {
            None => false,
            Some(top) => !(top == "lib" || top == "main" || order.contains(top)),
        })
        .map(|(p, _)| p.strip_prefix(&src).unwrap_or(p).display().to_string())
        .collect();
    assert!(
        outside.is_empty(),
        "source files outside the layers of lib.rs: {outside:?}"
    );
    let main = std::fs::read_to_string(src.join("main.rs")).expect("main.rs");
    assert!(
        !code_only(&main).contains("mod "),
        "main.rs declares modules of its own: they belong in the library"
    );
}

/// The binary is a thin dispatcher: it uses the library's top layer (the command
/// line's drivers) and nothing below it.
#[test]
fn main_uses_only_the_top_layer() {
    let src = src_dir();
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let order = layers(&lib);
    let top = order.last().expect("a layer list");
    let main = std::fs::read_to_string(src.join("main.rs")).expect("main.rs");
    // As seen from the binary the library is `menagerie::`, not `crate::`.
    let code = code_only(&main).replace("menagerie::", "crate::");
    let below: Vec<String> = references(&code, &[])
        .into_iter()
        .filter(|(m, _)| m != top)
        .map(|(m, line)| format!("src/main.rs:{line}: uses {m}"))
        .collect();
    assert!(below.is_empty(), "main.rs reaches past {top}: {below:?}");
}

/// The scanner itself: it sees every form of a reaching import and nothing in
/// comments or strings.
#[test]
fn the_scanner_finds_reaching_imports() {
    let order: Vec<String> = ["low", "mid", "high"].map(String::from).to_vec();
    let file = |path: &str, module: &[&str], text: &str| {
        (
            path.to_string(),
            module.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            text.to_string(),
        )
    };
    let files = vec![
        file(
            "a.rs",
            &["mid", "a"],
            "use crate::low::X;\nuse crate::high::Y;\n// crate::high in a comment\n\
             fn f() -> &'static str { \"crate::high\" }\nlet c = '\\'';\n",
        ),
        file(
            "b.rs",
            &["mid", "b"],
            "use crate::{low::X, high::{Y, Z}};\n",
        ),
        file(
            "c.rs",
            &["mid", "c"],
            "use super::super::high::Z;\nuse super::sibling;\n",
        ),
        file(
            "d.rs",
            &["mid", "d"],
            "mod tests {\n    use super::super::super::high::Z;\n    use super::super::x;\n}\n",
        ),
        file("e.rs", &["low"], "fn f() { crate::mid::g(); }\n"),
        file("f.rs", &["high"], "use crate::{low, mid};\n"),
    ];
    assert_eq!(
        violations(&order, &files),
        [
            "a.rs:2: mid uses high, a later layer",
            "b.rs:1: mid uses high, a later layer",
            "c.rs:1: mid uses high, a later layer",
            "d.rs:2: mid uses high, a later layer",
            "e.rs:1: low uses mid, a later layer",
        ]
    );
}

/// The cycle check: it follows `crate::`, `super::` and group imports between
/// peers, names a cycle's members, and takes no parent or child import, nor a
/// path in a comment, for a dependency.
#[test]
fn the_cycle_check_names_the_members() {
    let file = |path: &str, module: &[&str], text: &str| {
        (
            path.to_string(),
            module.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            text.to_string(),
        )
    };
    let files = vec![
        file("mid/mod.rs", &["mid"], "mod x;\nmod y;\npub use x::A;\n"),
        file(
            "mid/x.rs",
            &["mid", "x"],
            "use super::y::B;\nuse crate::mid::A;\n",
        ),
        file(
            "mid/y.rs",
            &["mid", "y"],
            "use crate::{low::L, mid::x::{self, C}};\n",
        ),
        file(
            "mid/z.rs",
            &["mid", "z"],
            "// crate::mid::z::Q\nmod tests {\n    use super::super::y::B;\n}\n",
        ),
        file(
            "low.rs",
            &["low"],
            "// crate::mid::z in a comment\nconst S: &str = \"crate::mid::z\";\n",
        ),
    ];
    assert_eq!(
        cycles(&files),
        [
            "mid::x -> mid::y -> mid::x (mid/x.rs:1: mid::x uses mid::y; mid/y.rs:1: mid::y uses mid::x)"
        ]
    );
    let mut acyclic = files.clone();
    acyclic[2].2 = "use crate::low::L;\n".to_string();
    assert!(cycles(&acyclic).is_empty());
}
