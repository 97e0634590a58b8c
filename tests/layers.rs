//! The layers of src/lib.rs are true: every module of the crate uses only the
//! modules listed before it there. The test reads the list from lib.rs and every
//! source file of the library, and names each import that reaches a later layer
//! (`crate::X`, `crate::{X, ..}`, or `super::` climbing out of the module to `X`).
//! Every source file belongs to a listed layer (none escapes the check), and the
//! binary, main.rs, reaches the library only through its top layer.

use std::path::{Path, PathBuf};

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

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

/// The first path segments inside a `{...}` import group starting at `open`.
fn group_heads(code: &[char], open: usize) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut expect_head = true;
    let mut i = open;
    while i < code.len() {
        match code[i] {
            '{' => {
                depth += 1;
                expect_head = depth == 1;
                i += 1;
            }
            '}' => {
                depth -= 1;
                i += 1;
                if depth == 0 {
                    break;
                }
            }
            ',' => {
                expect_head = depth == 1;
                i += 1;
            }
            ch if expect_head && (ch.is_alphanumeric() || ch == '_') => {
                let (name, next) = ident_at(code, i);
                heads.push(name);
                expect_head = false;
                i = next;
            }
            _ => i += 1,
        }
    }
    heads
}

/// The top-level modules a file's code refers to, with line numbers. `module_path`
/// is the file's module path below the crate (`["search", "worker"]`).
fn references(code: &str, module_path: &[String]) -> Vec<(String, usize)> {
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
            let mut j = next;
            while j < c.len() && c[j].is_whitespace() {
                j += 1;
            }
            if c.get(j) == Some(&'{') {
                inline.push((name, depth + 1));
            }
        }
        if starts_path(i, "crate::") {
            let j = i + "crate::".len();
            if c.get(j) == Some(&'{') {
                for h in group_heads(&c, j) {
                    found.push((h, line));
                }
            } else {
                found.push((ident_at(&c, j).0, line));
            }
        } else if starts_path(i, "super::") {
            let mut j = i;
            let mut ups = 0;
            while c.len() >= j + 7 && c[j..j + 7].iter().collect::<String>() == "super::" {
                ups += 1;
                j += 7;
            }
            let here = module_path.len() + inline.len();
            if ups >= here {
                // Climbed to the crate root: the next segment names a top-level module.
                if c.get(j) == Some(&'{') {
                    for h in group_heads(&c, j) {
                        found.push((h, line));
                    }
                } else {
                    found.push((ident_at(&c, j).0, line));
                }
            }
            i = j;
            continue;
        }
        i += 1;
    }
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
fn violations(order: &[String], files: &[(String, Vec<String>, String)]) -> Vec<String> {
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
    let files: Vec<(String, Vec<String>, String)> = files
        .into_iter()
        .map(|(p, m)| {
            let text = std::fs::read_to_string(&p).expect("readable source");
            let name = p.strip_prefix(&src).unwrap_or(&p).display().to_string();
            (format!("src/{name}"), m, text)
        })
        .collect();
    assert!(files.len() > 20, "found only {} source files", files.len());
    let bad = violations(&order, &files);
    assert!(
        bad.is_empty(),
        "imports against the layers of lib.rs:\n{}",
        bad.join("\n")
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
