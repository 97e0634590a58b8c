//! Every vector of `tests/data/betza-vectors.txt`: the moves of one XBetza piece on a
//! scratch board, read as XBoard reads the notation.

use menagerie::movegen::bench_piece::piece_targets;
use menagerie::xbetza::Dialect;
use std::collections::BTreeSet;

/// Split the expected list into items: multi-leg items are runs of legs, a new one
/// starting at every leg that leaves the origin.
fn items(expected: &str, origin: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if expected.trim() == "-" {
        return out;
    }
    let mut current: Option<String> = None;
    for tok in expected.split(',').map(str::trim) {
        let is_leg = tok
            .chars()
            .filter(|c| c.is_ascii_alphabetic() && *c != 'x')
            .count()
            == 2
            && tok
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_lowercase() && c != 'x');
        if is_leg {
            if tok.starts_with(origin)
                && tok[origin.len()..].starts_with(|c: char| c == 'x' || c.is_ascii_lowercase())
            {
                if let Some(c) = current.take() {
                    out.insert(c);
                }
                current = Some(tok.to_string());
            } else if let Some(c) = current.as_mut() {
                c.push(',');
                c.push_str(tok);
            } else {
                current = Some(tok.to_string());
            }
        } else {
            if let Some(c) = current.take() {
                out.insert(c);
            }
            out.insert(tok.to_string());
        }
    }
    if let Some(c) = current {
        out.insert(c);
    }
    out
}

#[test]
fn all_betza_vectors() {
    let text = include_str!("data/betza-vectors.txt");
    let mut failures = Vec::new();
    let mut count = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let body = line.split('#').next().unwrap_or("").trim();
        let parts: Vec<&str> = body.split('|').map(str::trim).collect();
        assert_eq!(parts.len(), 5, "line {}: {line}", n + 1);
        let (board, square, betza, occ, expected) =
            (parts[0], parts[1], parts[2], parts[3], parts[4]);
        count += 1;
        let want = items(expected, square);
        match piece_targets(board, square, betza, occ, Dialect::XBoard) {
            Ok(got) => {
                let got: BTreeSet<String> = got.into_iter().collect();
                if got != want {
                    let missing: Vec<_> = want.difference(&got).collect();
                    let extra: Vec<_> = got.difference(&want).collect();
                    failures.push(format!("line {}: {board} {square} {betza} {occ}: missing {missing:?} extra {extra:?}", n + 1));
                }
            }
            Err(e) => failures.push(format!("line {}: {betza}: error {e}", n + 1)),
        }
    }
    assert!(count > 150, "only {count} vectors read");
    assert!(
        failures.is_empty(),
        "{} of {count} vectors fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
