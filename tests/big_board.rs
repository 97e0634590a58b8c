//! The largest boards: 16 x 16 squares use every value of a square index, so none of
//! them may stand for "no square". Kings castle from the last file (p1, p16): Black's
//! king on p16 has square index 255.
//!
//! Counts: the 12 x 10 twin of the variant (pyffish allows boards up to 12 x 10) from
//! pyffish; the 16 x 16 counts from tools/kr_perft.py, an independent perft for king and
//! rook games with Fairy-Stockfish's castling rules that gives pyffish's counts on the
//! 12 x 10 positions below and on chess's `r3k2r/8/8/8/8/8/8/R3K2R w KQkq -`.

use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::movegen::{notation, perft};
use menagerie::types::{MoveKind, MoveList, RankNumbering};
use menagerie::variant::VariantSet;

const VARIANTS: &str = "
[castle16]
maxRank = 16
maxFile = p
king = k
rook = r
castling = true
castlingKingFile = p
castlingKingsideFile = o
castlingQueensideFile = c
startFen = r14k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/R14K w Qq - 0 1

[castle12]
maxRank = 10
maxFile = l
king = k
rook = r
castling = true
castlingKingFile = l
castlingKingsideFile = k
castlingQueensideFile = c
startFen = r10k/12/12/12/12/2r9/12/12/12/R10K w Qq - 0 1
";

/// (variant, FEN, counts at depth 1, 2, 3).
const CASES: &[(&str, &str, [u64; 3])] = &[
    (
        "castle16",
        "r14k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/R14K w Qq - 0 1",
        [33, 935, 28793],
    ),
    (
        "castle16",
        "r14k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/R14K b Qq - 0 1",
        [33, 935, 28793],
    ),
    (
        "castle16",
        "r6r7k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/R6R7K w Qq - 0 1",
        [52, 2404, 126580],
    ),
    (
        "castle16",
        "r6r7k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/R6R7K b Qq - 0 1",
        [52, 2404, 126580],
    ),
    (
        "castle12",
        "r10k/12/12/12/12/2r9/12/12/12/R10K w Qq - 0 1",
        [22, 858, 17498],
    ),
    (
        "castle12",
        "r10k/12/12/12/12/2r9/12/12/12/R10K b Qq - 0 1",
        [43, 840, 32977],
    ),
    (
        "castle12",
        "r6r3k/12/12/12/5R6/12/12/12/12/R6R3K w Qq - 0 1",
        [56, 1820, 95025],
    ),
    (
        "castle12",
        "r6r3k/12/12/12/5R6/12/12/12/12/R6R3K b Qq - 0 1",
        [36, 1858, 63370],
    ),
];

#[test]
fn castling_from_the_last_file() {
    let mut set = VariantSet::empty(check_variant);
    let report = set.load_str("big_board.rs", VARIANTS);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let mut failures = Vec::new();
    for &(name, fen, counts) in CASES {
        let variant = set.get(name).expect("loaded");
        let rules = Ruleset::new(variant);
        let mut pos = Position::from_fen(&rules, fen).expect("valid FEN");
        for (depth, &want) in (1..).zip(counts.iter()) {
            let got = perft(&mut pos, depth);
            if got != want {
                failures.push(format!(
                    "{name} {fen} depth {depth}: {got}, expected {want}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn black_castles_with_its_king_on_the_last_square() {
    let mut set = VariantSet::empty(check_variant);
    let report = set.load_str("big_board.rs", VARIANTS);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let rules = Ruleset::new(set.get("castle16").expect("loaded"));
    let fen = "r14k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/R14K b Qq - 0 1";
    let mut pos = Position::from_fen(&rules, fen).expect("valid FEN");
    let mut list = MoveList::new();
    rules.generate_legal(&mut pos, &mut list);
    let castlings: Vec<String> = list
        .iter()
        .filter(|m| m.kind() == MoveKind::Castling)
        .map(|&m| notation::move_to_string(&pos, m, RankNumbering::FromOne))
        .collect();
    assert_eq!(castlings, ["p16c16"]);
}
