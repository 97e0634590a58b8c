//! Walls: holes in a FEN, walling moves (their notation, make/unmake) and
//! petrification, against what Fairy-Stockfish (pyffish 0.0.90) does.

use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::movegen::notation::{move_to_string, parse_move};
use menagerie::types::{MoveList, RankNumbering};
use menagerie::variant::VariantSet;

fn position(variant: &str, fen: &str) -> Position {
    let set = VariantSet::builtin(check_variant);
    let rules = Ruleset::new(set.get(variant).expect("built in"));
    Position::from_fen(&rules, fen).expect("valid FEN")
}

fn play(pos: &mut Position, text: &str) {
    let m = parse_move(pos, text, RankNumbering::FromOne).expect("legal move");
    pos.make(m);
}

#[test]
fn holes_round_trip_and_block() {
    let fen = "arnbqkbnra/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/ARNBQKBNRA w KQkq - 0 1";
    let pos = position("gustav3", fen);
    assert_eq!(pos.fen(), fen);
    assert_eq!(pos.walls().count(), 12);
    let mut pos = position("gustav3", fen);
    // The amazon on a1 may leap (knight) over the hole but not slide into it.
    let mut list = MoveList::new();
    pos.rules().clone().generate_legal(&mut pos, &mut list);
    let texts: Vec<String> = list
        .iter()
        .map(|&m| move_to_string(&pos, m, RankNumbering::FromOne))
        .collect();
    assert!(texts.iter().any(|t| t == "a1b3"));
    assert!(!texts.iter().any(|t| t.starts_with("a1a")));
}

/// A hole blocks a slide's check: the amazon on a1 does not check the king on a8
/// through the holes a2-a7, so Black has 17 moves (pyffish: 17), not 2.
#[test]
fn holes_block_checks_along_lines() {
    let mut pos = position("gustav3", "k3r5/*8*/*8*/*8*/*8*/*8*/*8*/A8K b - - 0 1");
    assert!(!pos.in_check());
    let mut list = MoveList::new();
    pos.rules().clone().generate_legal(&mut pos, &mut list);
    assert_eq!(list.len(), 17);
}

#[test]
fn duck_moves_write_and_make_as_fairy_stockfish() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut pos = position("duck", start);
    let key = pos.key();
    play(&mut pos, "e2e4,e4e5");
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/pppppppp/8/4*3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // The duck must move: its square is no destination, and it leaves e5.
    assert!(parse_move(&mut pos, "d7d5,d5e5", RankNumbering::FromOne).is_err());
    play(&mut pos, "d7d5,d5e2");
    assert_eq!(pos.walls().count(), 1);
    assert_eq!(pos.key(), pos.compute_key());
    pos.unmake();
    pos.unmake();
    assert_eq!(pos.key(), key);
    assert_eq!(pos.fen(), start);
}

#[test]
fn wall_leg_and_promotion_letter_order() {
    let mut pos = position("duck", "r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1");
    let m = parse_move(&mut pos, "b7a8q,a8a1", RankNumbering::FromOne).expect("legal");
    assert_eq!(move_to_string(&pos, m, RankNumbering::XBoard), "b7a8,a8a1q");
    let castle = parse_move(&mut pos, "e1g1,g1h2", RankNumbering::FromOne).expect("legal");
    assert_eq!(
        move_to_string(&pos, castle, RankNumbering::FromOne),
        "e1g1,g1h2"
    );
}

#[test]
fn arrows_and_trails_stay() {
    let mut pos = position("amazons", "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w - - 0 1");
    play(&mut pos, "d1d5,d5d1");
    assert_eq!(
        pos.fen(),
        "3q2q3/10/10/q8q/10/3Q6/Q8Q/10/10/3*2Q3 b - - 1 1"
    );
    let mut pos = position("snailtrail", "6p/7/7/7/7/7/P6 w - - 0 1");
    play(&mut pos, "a1b2,b2a1");
    assert_eq!(pos.fen(), "6p/7/7/7/7/1P5/*6 b - - 1 1");
}

#[test]
fn petrified_capturer_turns_to_stone() {
    let mut pos = position(
        "petrified",
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    );
    play(&mut pos, "e4d5");
    assert_eq!(pos.walls().count(), 0, "pawns do not petrify");
    play(&mut pos, "d8d5");
    assert_eq!(pos.walls().count(), 1, "the queen that captured is a wall");
    assert_eq!(pos.key(), pos.compute_key());
}
