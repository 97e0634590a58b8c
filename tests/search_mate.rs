//! Mate-in-N positions across variants: the search must report the mate when
//! searching to exactly 2N-1 plies. Expected results checked with Fairy-Stockfish.

use menagerie::board::{Position, Ruleset};
use menagerie::movegen::notation;
use menagerie::search::{Callback, Limits, Score, Searcher, bench};
use menagerie::types::RankNumbering;
use std::sync::Arc;

/// (variant, FEN, mate in N moves, an expected first move or "" for any).
const MATES: &[(&str, &str, i32, &str)] = &[
    (
        "chess",
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        2,
        "d5f6",
    ),
    ("chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, "d1d8"),
    (
        "crazyhouse",
        "6rk/6pp/8/8/8/8/8/6K1[NQ] w - - 0 1",
        1,
        "N@f7",
    ),
    ("crazyhouse", "6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1", 1, ""),
    ("shogi", "4k4/9/4P4/9/9/9/9/9/4K4[G] w 0 1", 1, "G@e8"),
    ("shogi", "4kg3/9/3S5/9/9/9/9/9/4K4[GR] w 0 1", 2, ""),
    ("minishogi", "2k2/5/2P2/5/K4[G] w 0 1", 1, "G@c4"),
    (
        "xiangqi",
        "3akab2/9/9/9/9/9/9/C8/4C4/4K4 w - - 0 1",
        1,
        "a3e3",
    ),
    (
        "xiangqi",
        "3aka3/9/9/9/4P4/9/9/C8/9/4K4 w - - 0 1",
        2,
        "a3e3",
    ),
    ("xiangqi", "3k5/9/9/9/9/9/9/C8/4C4/4K4 w - - 0 1", 2, ""),
    (
        "capablanca",
        "5k4/10/5K4/10/10/10/10/C9 w - - 0 1",
        1,
        "a1a8",
    ),
    (
        "capablanca",
        "7k2/10/6K3/10/10/10/10/1C8 w - - 0 1",
        2,
        "b1i1",
    ),
    (
        "crazyhouse",
        "6k1/5p1p/6p1/8/8/8/5PPP/6K1[QB] w - - 0 1",
        2,
        "",
    ),
];

fn search(variant: &str, fen: &str, depth: u32, mate: Option<u32>) -> (String, Score) {
    let v = bench::find_variant(variant).expect("variant");
    let rules = Ruleset::new(v);
    let pos = Position::from_fen(&rules, fen).expect("fen");
    let mut s = Searcher::new();
    let quiet: Callback = Arc::new(|_| {});
    let out = s.think(
        pos.clone(),
        Limits {
            depth: Some(depth),
            mate,
            ..Default::default()
        },
        quiet,
    );
    (
        notation::move_to_string(&pos, out.best, RankNumbering::FromOne),
        out.score,
    )
}

/// A mate search (`go mate N`, no forward pruning) finds the mate at depth 2N-1.
#[test]
fn mates_are_found_at_their_depth() {
    let mut failures = Vec::new();
    for &(variant, fen, n, expected) in MATES {
        let (best, score) = search(variant, fen, (2 * n - 1) as u32, Some(n as u32));
        let ok = score == Score::Mate(n) && (expected.is_empty() || best == expected);
        if !ok {
            failures.push(format!(
                "{variant} {fen}: got {best} {score:?}, want {expected} mate {n}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The normal search (with its pruning) finds them too, within a few more plies.
#[test]
fn normal_search_finds_the_mates() {
    let mut failures = Vec::new();
    for &(variant, fen, n, expected) in MATES {
        let (best, score) = search(variant, fen, (2 * n + 9) as u32, None);
        let ok = score == Score::Mate(n) && (expected.is_empty() || best == expected);
        if !ok {
            failures.push(format!(
                "{variant} {fen}: got {best} {score:?}, want {expected} mate {n}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
