//! The XBetza we send XBoard in `piece` commands describes the same moves as the
//! text it came from: every vector of `tests/data/betza-vectors.txt` (XBoard 4.9.1's
//! own move lists) is re-emitted and must still produce exactly its moves.

use menagerie::movegen::bench_piece::piece_targets;
use menagerie::xbetza::{Dialect, parse, to_xboard};
use std::collections::BTreeSet;

#[test]
fn emitted_descriptions_keep_the_moves_of_every_vector() {
    let text = include_str!("data/betza-vectors.txt");
    let mut failures = Vec::new();
    let mut count = 0;
    for (n, line) in text.lines().enumerate() {
        let body = line.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let parts: Vec<&str> = body.split('|').map(str::trim).collect();
        let (board, square, betza, occ) = (parts[0], parts[1], parts[2], parts[3]);
        let Ok(moves) = parse(betza, Dialect::XBoard) else {
            continue;
        };
        let emitted = to_xboard(&moves);
        let original: BTreeSet<String> =
            match piece_targets(board, square, betza, occ, Dialect::XBoard) {
                Ok(t) => t.into_iter().collect(),
                Err(_) => continue,
            };
        count += 1;
        match piece_targets(board, square, &emitted, occ, Dialect::XBoard) {
            Ok(t) => {
                let got: BTreeSet<String> = t.into_iter().collect();
                if got != original {
                    failures.push(format!(
                        "line {}: {betza} -> {emitted}: {got:?} != {original:?}",
                        n + 1
                    ));
                }
            }
            Err(e) => failures.push(format!("line {}: {betza} -> {emitted}: {e}", n + 1)),
        }
    }
    assert!(count > 150, "only {count} vectors");
    assert!(
        failures.is_empty(),
        "{} of {count} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
