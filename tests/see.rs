//! Static exchange evaluation (`Ruleset::see_ge`) on hand-checked exchanges.

use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::movegen::notation;
use menagerie::types::{MoveList, RankNumbering};
use menagerie::variant::VariantSet;

/// Values by piece letter for the tests.
fn values(rules: &Ruleset, table: &[(char, i32)]) -> Vec<i32> {
    let v = &rules.variant;
    (0..v.num_types())
        .map(|t| {
            let letter = v.pieces[t].letter.to_ascii_lowercase();
            table.iter().find(|(c, _)| *c == letter).map_or(0, |x| x.1)
        })
        .collect()
}

fn see(variant: &str, fen: &str, mv: &str, table: &[(char, i32)], threshold: i32) -> bool {
    let set = VariantSet::builtin(check_variant);
    let rules = Ruleset::new(set.get(variant).unwrap());
    let mut pos = Position::from_fen(&rules, fen).unwrap();
    let mut list = MoveList::new();
    rules.generate_legal(&mut pos, &mut list);
    let m = *list
        .iter()
        .find(|&&m| notation::move_to_string(&pos, m, RankNumbering::FromOne) == mv)
        .unwrap_or_else(|| panic!("{mv} is not legal in {fen}"));
    rules.see_ge(&pos, m, threshold, &values(&rules, table))
}

const CHESS: &[(char, i32)] = &[
    ('p', 100),
    ('n', 300),
    ('b', 300),
    ('r', 500),
    ('q', 900),
    ('k', 20000),
];

#[test]
fn undefended_pawn_wins_a_pawn() {
    let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
    assert!(see("chess", fen, "e1e5", CHESS, 100));
    assert!(!see("chess", fen, "e1e5", CHESS, 101));
}

#[test]
fn defended_pawn_costs_the_knight() {
    // Nxe5 Nxe5 Rxe5 Bxe5: white gives N+R for N+P.
    let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
    assert!(see("chess", fen, "d3e5", CHESS, -200));
    assert!(!see("chess", fen, "d3e5", CHESS, -199));
}

#[test]
fn x_ray_behind_the_capturer_counts() {
    // Rxd5 is defended once, but the queen behind the rook backs it up.
    let fen = "3r3k/8/8/3p4/8/8/3R4/3Q3K w - - 0 1";
    let fen2 = "3r3k/3r4/8/3p4/8/8/3R4/3Q3K w - - 0 1";
    assert!(see("chess", fen, "d2d5", CHESS, 100));
    assert!(!see("chess", fen2, "d2d5", CHESS, 0));
}

#[test]
fn king_may_not_take_a_defended_piece() {
    // Rxe7: the king on d8 takes back unless the bishop on b4 guards e7.
    let guarded = "3k4/4p3/8/8/1B6/8/4R3/4K3 w - - 0 1";
    assert!(see("chess", guarded, "e2e7", CHESS, 100));
    let alone = "3k4/4p3/8/8/8/8/4R3/4K3 w - - 0 1";
    assert!(see("chess", alone, "e2e7", CHESS, -400));
    assert!(!see("chess", alone, "e2e7", CHESS, -399));
}

#[test]
fn cannon_screens_change_during_the_exchange() {
    const XQ: &[(char, i32)] = &[
        ('p', 100),
        ('n', 400),
        ('b', 200),
        ('a', 200),
        ('r', 900),
        ('c', 450),
        ('k', 20000),
    ];
    let undefended = "4k4/9/9/9/R3p4/9/9/9/9/4K4 w - - 0 1";
    assert!(see("xiangqi", undefended, "a6e6", XQ, 100));
    // The cannon on e9 defends e6 over the horse on e8: the rook is lost for a pawn.
    let defended = "4k4/4c4/4n4/9/R3p4/9/9/9/9/4K4 w - - 0 1";
    assert!(see("xiangqi", defended, "a6e6", XQ, -800));
    assert!(!see("xiangqi", defended, "a6e6", XQ, -799));
}

#[test]
fn drops_can_be_taken() {
    const ZH: &[(char, i32)] = &[
        ('p', 200),
        ('n', 600),
        ('b', 600),
        ('r', 1000),
        ('q', 1800),
        ('k', 20000),
    ];
    let fen = "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR[N] w KQkq - 0 1";
    // A knight dropped on e4 is taken by nobody... f6 knight does not attack e4? It
    // does (f6-e4): dropping there loses the knight.
    assert!(!see("crazyhouse", fen, "N@e4", ZH, 0));
    assert!(see("crazyhouse", fen, "N@a4", ZH, 0));
}
