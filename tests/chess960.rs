//! Chess960 castling in fischerandom and caparandom: castling fields as Shredder-FEN
//! and X-FEN (read back as pyffish 0.0.90 writes them), and castling on the wire.

use menagerie::board::{Position, shuffled_start_fen};
use menagerie::movegen::notation::{move_to_string, parse_move};
use menagerie::types::{MoveKind, MoveList, RankNumbering};

mod common;

fn fen_after(variant: &str, fen: &str) -> String {
    Position::from_fen(&common::builtin_rules(variant), fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .fen()
}

#[test]
fn castling_fields_read_and_write_as_pyffish() {
    // (variant, FEN read, FEN pyffish.get_fen writes)
    let cases = [
        // X-FEN: K and Q are the outermost rooks; written back as file letters.
        (
            "fischerandom",
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1",
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
        ),
        (
            "fischerandom",
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
        ),
        (
            "fischerandom",
            "rr2k2r/pppppppp/8/8/8/8/PPPPPPPP/RR2K2R w KQkq - 0 1",
            "rr2k2r/pppppppp/8/8/8/8/PPPPPPPP/RR2K2R w HAha - 0 1",
        ),
        // Shredder-FEN naming the inner rook.
        (
            "fischerandom",
            "rr2k2r/pppppppp/8/8/8/8/PPPPPPPP/RR2K2R w HBhb - 0 1",
            "rr2k2r/pppppppp/8/8/8/8/PPPPPPPP/RR2K2R w HBhb - 0 1",
        ),
        (
            "caparandom",
            "nqrbkacrbn/pppppppppp/10/10/10/10/PPPPPPPPPP/NQRBKACRBN w KQkq - 0 1",
            "nqrbkacrbn/pppppppppp/10/10/10/10/PPPPPPPPPP/NQRBKACRBN w HChc - 0 1",
        ),
        (
            "caparandom",
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w JAja - 0 1",
        ),
    ];
    for (variant, fen, want) in cases {
        assert_eq!(fen_after(variant, fen), want, "{variant} {fen}");
        assert_eq!(fen_after(variant, want), want, "{variant} {want}");
    }
}

fn castlings(pos: &mut Position) -> Vec<String> {
    let rules = pos.rules().clone();
    let mut list = MoveList::new();
    rules.generate_legal(pos, &mut list);
    let mut out: Vec<String> = list
        .iter()
        .filter(|m| m.kind() == MoveKind::Castling)
        .map(|&m| move_to_string(pos, m, RankNumbering::FromOne))
        .collect();
    out.sort();
    out
}

#[test]
fn castling_is_written_king_takes_rook_and_read_both_ways() {
    let r = common::builtin_rules("fischerandom");
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let mut pos = Position::from_fen(&r, fen).expect("reads");
    assert_eq!(castlings(&mut pos), ["e1a1", "e1h1"]);
    // King to its destination is read too where no other move is written so.
    for (text, after) in [
        (
            "e1h1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b ha - 1 1",
        ),
        (
            "e1g1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b ha - 1 1",
        ),
        (
            "e1c1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b ha - 1 1",
        ),
        (
            "O-O-O",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b ha - 1 1",
        ),
    ] {
        let mut p = Position::from_fen(&r, fen).expect("reads");
        let m = parse_move(&mut p, text, RankNumbering::FromOne).expect(text);
        p.make(m);
        assert_eq!(p.fen(), after, "{text}");
    }
    // King on f1, rook on h1: `f1g1` is the king's step, castling only `f1h1`.
    let fen = "4k3/8/8/8/8/8/8/5K1R w H - 0 1";
    let mut p = Position::from_fen(&r, fen).expect("reads");
    let m = parse_move(&mut p, "f1g1", RankNumbering::FromOne).expect("f1g1");
    assert_eq!(m.kind(), MoveKind::Normal);
    let m = parse_move(&mut p, "f1h1", RankNumbering::FromOne).expect("f1h1");
    p.make(m);
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // The king castles without moving: g1 stays, the rook comes to f1.
    let fen = "4rkr1/4p1p1/8/8/8/8/6PP/6KR w H - 0 1";
    let mut p = Position::from_fen(&r, fen).expect("reads");
    assert_eq!(castlings(&mut p), ["g1h1"]);
}

#[test]
fn shuffled_starts_castle_on_both_sides() {
    for name in ["fischerandom", "caparandom"] {
        let r = common::builtin_rules(name);
        for seed in [1, 2, 3] {
            let fen = shuffled_start_fen(&r, seed).expect("shuffles");
            let p = Position::from_fen(&r, &fen).expect("reads");
            // Written back with both rooks named by file.
            let castling = p.fen().split(' ').nth(2).unwrap_or("").to_string();
            assert_eq!(castling.len(), 4, "{fen}");
            assert!(castling.chars().all(|c| c.is_ascii_alphabetic()), "{fen}");
            assert!(!castling.contains(['K', 'Q', 'k', 'q']), "{fen}");
        }
    }
}
