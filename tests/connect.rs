//! Connect-N wins, enclosing drops and flipping: where drops may go, which pieces
//! turn over, and how these games end (values as pyffish 0.0.90 scores them).

use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::rules::immediate_result;
use menagerie::types::Color;
use menagerie::variant::{GameValue, VariantSet};

mod common;
use common::{legal_moves, play};

/// Sections of Fairy-Stockfish's variants.ini, as written there.
const SECTIONS: &str = "
[tictactoe]
maxRank = 3
maxFile = 3
immobile = p
startFen = 3/3/3[PPPPPpppp] w - - 0 1
pieceDrops = true
doubleStep = false
castling = false
stalemateValue = draw
immobilityIllegal = false
connectN = 3

[nineholes:tictactoe]
customPiece1 = p:mKmNmAmD
startFen = 3/3/3[PPPppp] w - - 0 1
mustDrop = true
connectDiagonal = false

[teeko:tictactoe]
maxRank = 5
maxFile = 5
connectN = 4
connectNxN = 2
customPiece1 = p:mK
startFen = 5/5/5/5/5[PPPPpppp] w - - 0 1

[three-musketeers]
startFen = ppppM/ppppp/ppMpp/ppppp/Mpppp
maxRank = 5
maxFile = 5
collinearN = 3
connectDiagonal = false
customPiece1 = m:cW
customPiece2 = p:mW
connectValue = loss
stalemateValue = win
connectPieceTypes = m

[cfour]
maxRank = 6
maxFile = 7
immobile = p
startFen = 7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] w - - 0 1
pieceDrops = true
enclosingDrop = top
doubleStep = false
castling = false
stalemateValue = draw
immobilityIllegal = false
connectN = 4
nMoveRule = 0

[cfour-anyside:cfour]
maxRank = 7
startFen = 7/7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPPPPPpppppppppppppppppppppppp] w - - 0 1
enclosingDrop = anyside

[gale:ataxx]
immobile = p
enclosingDrop = none
flipEnclosedPieces = none
maxRank = 9
maxFile = 9
passOnStalemate = false
stalematePieceCount = false
startFen = 1p1p1p1p1/P1P1P1P1P/1p1p1p1p1/P1P1P1P1P/1p1p1p1p1/P1P1P1P1P/1p1p1p1p1/P1P1P1P1P/1p1p1p1p1
connectRegion1White = a*
connectRegion2White = i*
connectRegion1Black = *1
connectRegion2Black = *9
connectDiagonal = false
";

fn variants() -> VariantSet {
    let mut set = VariantSet::builtin(check_variant);
    let report = set.load_str("connect.rs", SECTIONS);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    set
}

fn pos(variant: &str, fen: &str) -> Position {
    let v = variants()
        .get(variant)
        .unwrap_or_else(|| panic!("{variant} loads"));
    common::unchecked_position(&Ruleset::new(v), fen)
}

#[test]
fn three_in_a_row_wins_for_the_side_that_made_it() {
    let mut p = pos("tictactoe", "3/3/PP1[PPPpppp] w - - 0 1");
    play(&mut p, "P@c1");
    assert_eq!(immediate_result(&p), Some(GameValue::Loss));
    assert!(legal_moves(&mut p).is_empty());
    // A diagonal counts in tictactoe, not in nine holes.
    let diagonal = "P2/1P1/2P[Pppp] b - - 0 1";
    assert_eq!(
        immediate_result(&pos("tictactoe", diagonal)),
        Some(GameValue::Loss)
    );
    assert_eq!(immediate_result(&pos("nineholes", diagonal)), None);
    // Only the side that just moved connects.
    assert_eq!(
        immediate_result(&pos("tictactoe", "3/3/PPP[PPpppp] w - - 0 1")),
        None
    );
}

#[test]
fn a_square_block_connects_in_teeko() {
    let p = pos("teeko", "5/5/5/1PP2/1PP2[pppp] b - - 0 1");
    assert_eq!(immediate_result(&p), Some(GameValue::Loss));
}

#[test]
fn three_musketeers_in_one_line_lose() {
    // White's musketeers on one file, with Black's men between them.
    let p = pos("three-musketeers", "M4/p4/M4/p4/M4 b - - 0 1");
    assert_eq!(immediate_result(&p), Some(GameValue::Win));
    let p = pos("three-musketeers", "M4/p4/1M3/p4/M4 b - - 0 1");
    assert_eq!(immediate_result(&p), None);
}

#[test]
fn connect_four_drops_fall_to_the_lowest_empty_square() {
    let mut p = pos(
        "cfour",
        "7/7/7/7/7/P6[PPPPPPPPPPPPPPPPPPPPpppppppppppppppppppppp] b - - 0 1",
    );
    assert_eq!(
        legal_moves(&mut p),
        ["P@a2", "P@b1", "P@c1", "P@d1", "P@e1", "P@f1", "P@g1"]
    );
    // From any side: pushed in from each edge, as Fairy-Stockfish finds the stops.
    let mut p = pos(
        "cfour-anyside",
        "7/7/7/3P3/7/7/7[PPPPPPPPPPPPPPPPPPPPPPPPpppppppppppppppppppppppp] b - - 0 1",
    );
    let moves = legal_moves(&mut p);
    assert!(moves.contains(&"P@c4".to_string()), "{moves:?}");
    assert!(moves.contains(&"P@a4".to_string()), "{moves:?}");
    assert!(!moves.contains(&"P@d4".to_string()), "{moves:?}");
}

#[test]
fn gale_connects_its_two_edges() {
    // White joins the a-file to the i-file along the second rank.
    let p = pos(
        "gale",
        "1p1p1p1p1/P1P1P1P1P/1p1p1p1p1/P1P1P1P1P/1p1p1p1p1/P1P1P1P1P/1p1p1p1p1/PPPPPPPPP/1p1p1p1p1 b - - 0 1",
    );
    assert_eq!(immediate_result(&p), Some(GameValue::Loss));
}

#[test]
fn reversi_drops_enclose_and_flip() {
    let start = variants()
        .get("flipello")
        .expect("built in")
        .start_fen
        .clone();
    let mut p = pos("flipello", &start);
    assert_eq!(legal_moves(&mut p), ["P@c5", "P@d6", "P@e3", "P@f4"]);
    play(&mut p, "P@e3");
    // The black stone on e4, between e3 and White's e5, turns over.
    let r = p.rules().clone();
    let g = r.variant.geometry;
    let e4 = g.square(4, 3);
    assert!(p.pieces(Color::White).contains(e4));
    assert_eq!(p.pieces(Color::White).count(), 4);
    assert_eq!(p.key(), p.compute_key());
    p.unmake();
    assert_eq!(p.pieces(Color::White).count(), 2);
}

#[test]
fn ataxx_clones_without_a_hand_and_jumps() {
    let mut p = pos("ataxx", "7/7/7/7/7/P6/pp5 w 0 1");
    play(&mut p, "P@b2");
    // The clone on b2 turns over a1 and b1; the hands stay empty.
    assert_eq!(p.pieces(Color::White).count(), 4);
    assert_eq!(p.pieces(Color::Black).count(), 0);
    assert_eq!(p.hand_total(Color::White), 0);
    assert_eq!(p.key(), p.compute_key());
    p.unmake();
    assert_eq!(p.pieces(Color::Black).count(), 2);
    // A jump leaves its square.
    let mut p = pos("ataxx", "P5p/7/7/7/7/7/p5P w 0 1");
    play(&mut p, "g1e3");
    assert_eq!(p.pieces(Color::White).count(), 2);
    assert!(p.piece_at(p.variant().geometry.square(6, 0)).is_none());
}

#[test]
fn a_full_board_or_two_passes_are_counted() {
    // Full board: White has more stones, Black to move loses.
    let full =
        "PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/pppppppp/pppppppp/pppppppp/ppppppPP[] b - - 0 1";
    assert_eq!(
        immediate_result(&pos("flipello", full)),
        Some(GameValue::Loss)
    );
    // Neither side can move: each passes, then the stones are counted.
    let mut p = pos("flipello", "8/8/8/3PP3/3PP3/8/8/p7[PPPPpppp] w - - 0 1");
    assert_eq!(legal_moves(&mut p), ["d4d4"]);
    play(&mut p, "d4d4");
    assert_eq!(immediate_result(&p), None);
    assert_eq!(legal_moves(&mut p), ["a1a1"]);
    play(&mut p, "a1a1");
    assert_eq!(immediate_result(&p), Some(GameValue::Win));
}
