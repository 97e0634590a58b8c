//! Position invariants over random games in every built-in variant: the incremental
//! Zobrist key equals the key computed from scratch, unmake restores the position
//! exactly, and FEN output reads back to the same position.

use menagerie::board::fen::FenError;
use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::rules;
use menagerie::types::MoveList;
use menagerie::variant::VariantSet;

mod common;
use common::Rng;

#[test]
fn keys_unmake_and_fen_round_trip() {
    let set = VariantSet::builtin(check_variant);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for v in set.iter() {
        let rules = Ruleset::new(v.clone());
        for game in 0..4 {
            let mut pos = Position::start(&rules);
            let mut fens = vec![pos.fen()];
            let mut list = MoveList::new();
            for ply in 0..80 {
                assert_eq!(
                    pos.key(),
                    pos.compute_key(),
                    "{} game {game} ply {ply}: key drift at {}",
                    v.name,
                    pos.fen()
                );
                let fen = pos.fen();
                rules.generate_legal(&mut pos, &mut list);
                let over = list.is_empty() || rules::immediate_result(&pos).is_some();
                match Position::from_fen(&rules, &fen) {
                    Ok(again) => assert_eq!(again.fen(), fen, "{}: FEN round trip", v.name),
                    // Only a finished game may be refused (a side without its king
                    // or without the pieces whose loss ends the game).
                    Err(FenError::Illegal(_)) if over => {}
                    Err(e) => panic!("{}: own FEN '{fen}' unreadable: {e}", v.name),
                }
                if list.is_empty() {
                    break;
                }
                let m = list.moves[(rng.next() % list.len() as u64) as usize];
                pos.make(m);
                fens.push(pos.fen());
            }
            // Unmake all the way back.
            while pos.ply_count() > 0 {
                fens.pop();
                pos.unmake();
                assert_eq!(Some(&pos.fen()), fens.last(), "{}: unmake", v.name);
                assert_eq!(pos.key(), pos.compute_key(), "{}: key after unmake", v.name);
            }
        }
    }
}

/// The fast legality proof (pins, screens, lame legs) must agree with playing the move
/// and looking, for every pseudo-legal move of positions from random games.
#[test]
fn fast_legality_agrees_with_full_test() {
    let set = VariantSet::builtin(check_variant);
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    let mut checked = 0u64;
    for v in set.iter() {
        let rules = Ruleset::new(v.clone());
        for _game in 0..6 {
            let mut pos = Position::start(&rules);
            let mut pseudo = MoveList::new();
            let mut legal = MoveList::new();
            for _ply in 0..120 {
                pseudo.clear();
                rules.generate_pseudo(&pos, &mut pseudo);
                let info = rules.node_info(&pos);
                for &m in pseudo.iter() {
                    let fast = rules.is_legal_with(&mut pos, m, &info);
                    let full = rules.is_legal(&mut pos, m);
                    assert_eq!(fast, full, "{}: {:?} at {}", v.name, m, pos.fen());
                    checked += 1;
                }
                rules.generate_legal(&mut pos, &mut legal);
                if legal.is_empty() {
                    break;
                }
                let m = legal.moves[(rng.next() % legal.len() as u64) as usize];
                pos.make(m);
            }
        }
    }
    eprintln!("{checked} moves checked");
}
