//! Move diagrams and variant pages (src/diagram): the marked targets of a piece's
//! SVG are exactly the squares `menagerie moves` prints, over every vector of
//! tests/data/betza-vectors.txt (which covers every XBetza feature the parser knows:
//! leapers, riders, hoppers, lame and jumping leaps, multi-leg moves, initial moves,
//! colour-bound pieces, bent riders, castling, en passant); the kinds marked are the
//! right ones on a few pieces; every built-in variant's page is generated and is
//! well-formed.

mod common;
use common::menagerie;

use menagerie::board::{Ruleset, check_variant};
use menagerie::diagram::{page, piece_svg};
use menagerie::movegen::bench_piece::piece_targets;
use menagerie::variant::VariantSet;
use menagerie::xbetza::Dialect;
use std::collections::BTreeSet;

/// The values of attribute `name` in `text`, in order.
fn attributes(text: &str, name: &str) -> Vec<String> {
    let key = format!(" {name}=\"");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(&key) {
        rest = &rest[i + key.len()..];
        let end = rest.find('"').expect("attribute value ends");
        out.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    out
}

/// Every tag of `text` (XML or the HTML this crate writes) closes in order; void
/// HTML elements and self-closed tags stand alone. Returns the first problem.
fn check_well_formed(text: &str) -> Result<(), String> {
    const VOID: [&str; 4] = ["meta", "br", "hr", "input"];
    let mut stack: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        if let Some(r) = rest.strip_prefix("!--") {
            let end = r.find("-->").ok_or("unclosed comment")?;
            rest = &r[end + 3..];
            continue;
        }
        if rest.starts_with('!') {
            let end = rest.find('>').ok_or("unclosed doctype")?;
            rest = &rest[end + 1..];
            continue;
        }
        let end = rest.find('>').ok_or("unclosed tag")?;
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let name = name.trim();
            match stack.pop() {
                Some(open) if open == name => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
            if name == "script" || name == "style" {
                continue;
            }
        } else {
            let name: String = tag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if name.is_empty() {
                return Err(format!("bad tag <{tag}>"));
            }
            if tag.ends_with('/') || VOID.contains(&name.as_str()) {
                continue;
            }
            if name == "script" || name == "style" {
                // Their text is not markup: skip to the closing tag.
                let close = format!("</{name}>");
                let end = rest.find(&close).ok_or(format!("unclosed <{name}>"))?;
                rest = &rest[end + close.len()..];
                continue;
            }
            stack.push(name);
        }
    }
    if stack.is_empty() {
        Ok(())
    } else {
        Err(format!("unclosed: {stack:?}"))
    }
}

#[test]
fn svg_targets_are_the_moves_targets_for_every_vector() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/betza-vectors.txt"
    ))
    .expect("vectors file");
    let mut checked = 0;
    for line in text.lines() {
        let body = line.split('#').next().unwrap_or("").trim();
        let parts: Vec<&str> = body.split('|').map(str::trim).collect();
        if parts.len() < 4 {
            continue;
        }
        let (board, square, betza, occ) = (parts[0], parts[1], parts[2], parts[3]);
        let Ok(expected) = piece_targets(board, square, betza, occ, Dialect::XBoard) else {
            // A vector of a refused piece: the diagram must refuse it too.
            assert!(piece_svg(board, square, betza, occ, Dialect::XBoard).is_err());
            continue;
        };
        let svg = piece_svg(board, square, betza, occ, Dialect::XBoard)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        check_well_formed(&svg).unwrap_or_else(|e| panic!("{line}: {e}"));
        let marked: BTreeSet<String> = attributes(&svg, "data-target").into_iter().collect();
        let expected: BTreeSet<String> = expected.into_iter().collect();
        assert_eq!(marked, expected, "{line}");
        checked += 1;
    }
    assert!(checked > 150, "only {checked} vectors");
}

/// The kinds of the marks on `square` (all marks there, joined).
fn kinds_on(svg: &str, square: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for g in svg.split("<g class=\"mark\"").skip(1) {
        let head = &g[..g.find('>').unwrap_or(g.len())];
        if attributes(head, "data-square").first().map(String::as_str) == Some(square) {
            for k in attributes(head, "data-kinds") {
                out.extend(k.split_whitespace().map(str::to_string));
            }
        }
    }
    out
}

fn set(words: &[&str]) -> BTreeSet<String> {
    words.iter().map(|w| w.to_string()).collect()
}

#[test]
fn kinds_come_from_the_compiled_steps() {
    // A pawn: a move-only step, capture-only diagonals, an initial double step.
    let svg = piece_svg("8x8", "d2", "fmWfcFifmnD", "pe3", Dialect::XBoard).unwrap();
    assert_eq!(kinds_on(&svg, "d3"), set(&["move"]));
    assert_eq!(kinds_on(&svg, "d4"), set(&["move", "initial"]));
    assert_eq!(kinds_on(&svg, "e3"), set(&["capture"]));
    assert_eq!(kinds_on(&svg, "c3"), set(&["capture-only"]));
    assert!(!svg.contains("data-target=\"c3\""));
    // A cannon: slides to move, hops to capture.
    let svg = piece_svg("9x10", "b3", "mRcpR", "pb5,pb8", Dialect::XBoard).unwrap();
    assert_eq!(kinds_on(&svg, "b4"), set(&["move"]));
    assert_eq!(kinds_on(&svg, "b8"), set(&["capture", "hop"]));
    // A griffon's bent slide (two legs, no stop) captures too: the generator is asked.
    let svg = piece_svg("8x8", "d4", "FyafsF", "-", Dialect::XBoard).unwrap();
    assert_eq!(kinds_on(&svg, "e5"), set(&["move-capture"]));
    assert_eq!(kinds_on(&svg, "e8"), set(&["move-capture"]));
    assert_eq!(kinds_on(&svg, "h5"), set(&["move-capture"]));
    // A queen: moves and captures alike.
    let svg = piece_svg("8x8", "d4", "Q", "-", Dialect::XBoard).unwrap();
    assert_eq!(kinds_on(&svg, "h8"), set(&["move-capture"]));
    // The Lion: a capture on the way, drawn as a path.
    let svg = piece_svg(
        "12x12",
        "f6",
        "KNADcaKmcabK",
        "pf7,pg7,Pe7",
        Dialect::XBoard,
    )
    .unwrap();
    assert!(svg.contains("data-target=\"f6xf7,f7e6\""));
    assert!(kinds_on(&svg, "e6").contains("multi-leg"));
    assert!(svg.contains("<polyline"));
    // Castling marks the king's destination.
    let svg = piece_svg("8x8", "e1", "KisO2", "Ra1,Rh1", Dialect::XBoard).unwrap();
    assert_eq!(kinds_on(&svg, "g1"), set(&["castling"]));
}

#[test]
fn bad_arguments_are_errors_not_panics() {
    for (board, square, betza, occ) in [
        ("8y8", "d4", "N", "-"),
        ("8x8", "z9", "N", "-"),
        ("8x8", "d4", "N", "p"),
        ("8x8", "d4", "N", "1d5"),
        ("17x8", "d4", "N", "-"),
        ("8x8", "d4", "N(", "-"),
    ] {
        assert!(piece_svg(board, square, betza, occ, Dialect::XBoard).is_err());
    }
}

#[test]
fn every_builtin_variant_has_a_well_formed_page() {
    let set = VariantSet::builtin(check_variant);
    let mut names: Vec<String> = set.names().map(str::to_string).collect();
    names.sort();
    assert!(names.len() > 20);
    for name in names {
        let v = set.get(&name).expect("listed variant loads");
        let rules = Ruleset::new(v);
        let html = page::variant_page(&rules);
        check_well_formed(&html).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(html.contains("<svg"), "{name}");
        // Self-contained: nothing to fetch (the SVG namespace is a name, not a fetch).
        for fetch in ["src=", "href=", "url(", "@import", "fetch("] {
            assert!(!html.contains(fetch), "{name}: {fetch}");
        }
    }
}

#[test]
fn the_commands_write_the_files_or_say_what_is_wrong() {
    let dir = std::env::temp_dir().join(format!("menagerie-diagram-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("lion.svg");
    let out = menagerie(&[
        "moves",
        "KNADcaKmcabK",
        "--board",
        "12x12",
        "--square",
        "f6",
        "--occupancy",
        "pf7",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&svg).unwrap();
    let printed: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let marked: BTreeSet<String> = attributes(&text, "data-target").into_iter().collect();
    assert_eq!(printed, marked);

    // A 16 x 16 variant from a file.
    let html = dir.join("giant16.html");
    let ini = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/examples/giant16.ini");
    let out = menagerie(&[
        "show",
        "--variant",
        "giant16",
        "--variants",
        ini,
        "--html",
        html.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(&html).unwrap();
    check_well_formed(&page).unwrap();
    assert!(page.contains("FILES=16,RANKS=16"));

    let out = menagerie(&[
        "show",
        "--variant",
        "nosuch",
        "--html",
        html.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant 'nosuch'"));
    let out = menagerie(&[
        "show",
        "--variant",
        "chess",
        "--html",
        "/nonexistent-dir/x.html",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write /nonexistent-dir/x.html"));
    let out = menagerie(&[
        "moves",
        "N",
        "--square",
        "z9",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad square 'z9'"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pages_say_the_rules_and_show_the_regions() {
    let set = VariantSet::builtin(check_variant);
    let page_of = |name: &str| page::variant_page(&Ruleset::new(set.get(name).expect(name)));
    let chess = page_of("chess");
    assert!(chess.contains("player who is checkmated loses"));
    assert!(chess.contains("White&#39;s promotion zone"));
    let shogi = page_of("shogi");
    assert!(shogi.contains("may drop a piece from hand"));
    assert!(shogi.contains("A pawn drop may not give checkmate."));
    assert!(shogi.contains("White's hand: empty"));
    let xiangqi = page_of("xiangqi");
    assert!(xiangqi.contains("flying general"));
    assert!(xiangqi.contains("where White&#39;s king (K) may stand"));
    assert!(page_of("3check").contains("number of checks"));
    assert!(page_of("antichess").contains("A player who has lost all of their pieces"));
    assert!(page_of("atomic").contains("A capture explodes"));
}
