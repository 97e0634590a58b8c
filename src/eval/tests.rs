//! The evaluation's unit tests.

use super::terms::PieceTerm;
use super::*;
use crate::board::builtin_rules;
use params::piece_slot;
use trace::NoTrace;

#[test]
fn chess_values_are_ordered_and_start_is_balanced() {
    let rules = builtin_rules("chess");
    let e = Evaluator::new(&rules);
    let v = |c: char| e.value(rules.variant.type_of_letter(c).unwrap());
    assert!(v('p') < v('n') && v('n') <= v('b') + 60 && v('b') < v('r') && v('r') < v('q'));
    let pos = Position::start(&rules);
    assert_eq!(e.evaluate(&pos), e.gw(GlobalTerm::Tempo)[0]);
}

/// The pawn caches change no score: positions with the same pawns and royal
/// pieces but other pieces (the free-square term reads those), and with the
/// same pawns but royal pieces elsewhere, evaluated in turn, and the same
/// positions under another variant's evaluator on the same thread, score as a
/// traced evaluation (which bypasses the cache) does.
#[test]
fn the_pawn_cache_changes_no_score() {
    let fens = [
        "4k3/8/3P4/8/8/8/5PPP/4K3 w - - 0 1",
        "4k3/3n4/3P4/8/8/8/5PPP/4K3 w - - 0 1",
        "4k3/3n4/3P4/8/8/2B5/5PPP/4K3 b - - 0 1",
        "4k3/8/3P4/8/8/8/5PPP/4K3 w - - 0 1",
        // The same pawns with the royal pieces elsewhere (the pawn terms that
        // read them are cached apart), and back.
        "8/3k4/3P4/8/8/8/5PPP/6K1 w - - 0 1",
        "8/3k4/3P4/8/8/8/5PPP/4K3 w - - 0 1",
        "4k3/8/3P4/8/8/8/5PPP/4K3 w - - 0 1",
        // Pushes that would attack pieces, outposts, half-open files.
        "r1bqkb1r/pp3ppp/2n1pn2/2pp4/3P4/2P1PN2/PP1N1PPP/R1BQKB1R w KQkq - 0 6",
        "r3k2r/1b2bppp/p1n1pn2/1pq5/4P3/1BN2N2/PP2QPPP/R1B2RK1 b kq - 2 12",
    ];
    for variant in ["chess", "crazyhouse", "chess"] {
        let rules = builtin_rules(variant);
        let e = Evaluator::new(&rules);
        for fen in fens {
            let pos = Position::from_fen(&rules, fen).unwrap();
            let mut trace = crate::eval::trace::Recorded::default();
            let traced = e.evaluate_traced(&pos, -LAZY_OFF, LAZY_OFF, &mut trace).0;
            assert_eq!(e.evaluate(&pos), traced, "{variant} {fen}");
            assert_eq!(e.evaluate(&pos), traced, "{variant} {fen}");
        }
    }
}

/// The endgame scale: by the pawns of the side ahead, lower with bishops of
/// opposite colours, lowest with those bishops alone; never in a drop game, and
/// not at all with the generic weights (the scale terms off).
#[test]
fn endgames_scale_by_pawns_and_opposite_bishops() {
    let scale_of = |variant: &str, fen: &str, weights: [[f64; 2]; 3]| {
        let rules = builtin_rules(variant);
        let basis = Basis::new(&rules);
        let mut params = Params::generic(&rules, &basis);
        let n = params.n;
        params.w[global_slot(n, GlobalTerm::ScalePawns)] = weights[0];
        params.w[global_slot(n, GlobalTerm::ScaleOpposite)] = weights[1];
        params.w[global_slot(n, GlobalTerm::ScaleOppositeAlone)] = weights[2];
        let e = Evaluator::with_params(&rules, basis, params);
        let pos = Position::from_fen(&rules, fen).unwrap();
        let mut trace = crate::eval::trace::Recorded::default();
        e.evaluate_traced(&pos, -LAZY_OFF, LAZY_OFF, &mut trace);
        trace.eg_scale
    };
    let on = [[36.0, 7.0], [36.0, 2.0], [22.0, 22.0]];
    let off = [[64.0, 0.0], [64.0, 0.0], [64.0, 64.0]];
    // White is ahead: a rook and a pawn, then two pawns, against a rook.
    let rook_pawn = "4k3/8/8/8/8/8/4P3/R3K1r1 w - - 0 1";
    assert_eq!(scale_of("chess", rook_pawn, on), 43);
    assert_eq!(
        scale_of("chess", "4k3/8/8/8/8/8/3PP3/R3K1r1 w - - 0 1", on),
        50
    );
    assert_eq!(scale_of("chess", rook_pawn, off), SCALE_ONE);
    // Bishops on c1 (dark) and c8 (light) with two pawns against one.
    let opposite = "2b1k3/p7/8/8/8/8/PP6/2B1K3 w - - 0 1";
    assert_eq!(scale_of("chess", opposite, on), 22);
    let with_rooks = "r1b1k3/p7/8/8/8/8/PP6/R1B1K3 w - - 0 1";
    assert_eq!(scale_of("chess", with_rooks, on), 40);
    // Bishops on the same colour (c1 and f8): the pawn rule.
    let same = "4kb2/p7/8/8/8/8/PP6/2B1K3 w - - 0 1";
    assert_eq!(scale_of("chess", same, on), 50);
    // Many pawns: no scaling.
    let many = "4k3/pppp4/8/8/8/8/PPPPP3/R3K1r1 w - - 0 1";
    assert_eq!(scale_of("chess", many, on), SCALE_ONE);
    assert_eq!(scale_of("crazyhouse", rook_pawn, on), SCALE_ONE);
}

/// A check square held only by the royal piece and attacked by a second enemy
/// piece is weak: in this position Qxf2+ and Bxf2+ (each covering the other) are
/// weak checks against White, while Nc2+ and Nd3+ (held by the queen and the
/// bishop) are plainly unsafe. A piece attacked, defended by no pawn, and not
/// defended twice against a single attack is threatened, by its type.
#[test]
fn weak_checks_and_weak_pieces() {
    let rules = builtin_rules("chess");
    let e = Evaluator::new(&rules);
    let kind = |c: char| rules.variant.type_of_letter(c).unwrap() as usize;
    let traced = |fen: &str| {
        let pos = Position::from_fen(&rules, fen).unwrap();
        let mut trace = crate::eval::trace::Recorded::default();
        e.evaluate_traced(&pos, -LAZY_OFF, LAZY_OFF, &mut trace);
        trace.compact();
        trace
    };
    let coef = |v: &[(u32, f32)], slot: usize| {
        v.iter()
            .find(|&&(s, _)| s as usize == slot)
            .map_or(0.0, |&(_, c)| c)
    };
    let t = traced("r1b1k1nr/pp3ppp/2p5/2bPp3/1n2P2q/2N5/PP1PBPPP/RNBQK2R w KQkq - 3 8");
    let white_danger = &t.danger[0];
    for kind_letter in ['q', 'b', 'n'] {
        let check = piece_slot(kind(kind_letter), PieceTerm::Check);
        assert_eq!(coef(white_danger, check), 0.0);
    }
    let unsafe_checks = global_slot(e.n, GlobalTerm::KingUnsafeCheck);
    assert_eq!(coef(white_danger, unsafe_checks), 3.0);
    let weak_checks = global_slot(e.n, GlobalTerm::KingWeakCheck);
    assert_eq!(coef(white_danger, weak_checks), 2.0);
    // The black pawn on d5, attacked by the knight: weak alone, not beside a
    // pawn that defends it.
    let pawn_threat = piece_slot(kind('p'), PieceTerm::Threat);
    let alone = traced("4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1");
    assert_eq!(coef(&alone.linear, pawn_threat), 1.0);
    let defended = traced("4k3/8/4p3/3p4/8/4N3/8/4K3 w - - 0 1");
    assert_eq!(coef(&defended.linear, pawn_threat), 0.0);
}

/// The evaluation cache answers what an evaluation would: the full score once
/// known, and the lazy exit for windows far from it, in any order of windows.
/// Narrow square sets change no score: along a game of each variant (a fixed
/// walk of legal moves), the evaluation in the narrowest sets that hold the
/// board, and in sets of two words where one would do, equals the one in
/// full-width sets, term by term (no lazy exit).
#[test]
fn narrow_square_sets_change_no_score() {
    use crate::types::MoveList;
    for variant in [
        "chess",
        "crazyhouse",
        "makruk",
        "shogi",
        "xiangqi",
        "capablanca",
    ] {
        let rules = builtin_rules(variant);
        let e = Evaluator::new(&rules);
        let mut pos = Position::start(&rules);
        let mut seed = 12345u64;
        for ply in 0..60 {
            let eval = |f: fn(&Evaluator, &Position, &mut i32) -> (i32, bool)| {
                let mut lazy = EVAL_UNKNOWN;
                f(&e, &pos, &mut lazy)
            };
            let wide = eval(|e, p, l| {
                e.evaluate_in::<NoTrace, MAX_WORDS>(p, -LAZY_OFF, LAZY_OFF, &mut NoTrace, l)
            });
            let two = eval(|e, p, l| {
                e.evaluate_in::<NoTrace, 2>(p, -LAZY_OFF, LAZY_OFF, &mut NoTrace, l)
            });
            assert_eq!(two, wide, "{variant} ply {ply}: {}", pos.fen());
            if e.squares <= 64 {
                let one = eval(|e, p, l| {
                    e.evaluate_in::<NoTrace, 1>(p, -LAZY_OFF, LAZY_OFF, &mut NoTrace, l)
                });
                assert_eq!(one, wide, "{variant} ply {ply}: {}", pos.fen());
            }
            let mut list = MoveList::new();
            rules.generate_legal(&mut pos, &mut list);
            if list.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = list.iter().nth((seed >> 33) as usize % list.len()).copied();
            pos.make(m.unwrap());
        }
    }
}

#[test]
fn the_eval_cache_changes_no_score() {
    let fens = [
        "4k3/8/3P4/8/8/8/5PPP/4K3 w - - 0 1",
        "r3k3/3n4/3P4/8/8/2B5/5PPP/4K3 b - - 0 1",
    ];
    let windows = [
        (-LAZY_OFF, LAZY_OFF),
        (2000, 2001),
        (-3000, -2999),
        (-1, 1),
        (2000, 2001),
    ];
    for variant in ["chess", "crazyhouse"] {
        let rules = builtin_rules(variant);
        let cached = Evaluator::new(&rules);
        for fen in fens {
            let pos = Position::from_fen(&rules, fen).unwrap();
            for order in [
                windows,
                [windows[1], windows[2], windows[0], windows[3], windows[4]],
            ] {
                for (alpha, beta) in order {
                    // A new evaluator has no cache entries.
                    let fresh = Evaluator::new(&rules).evaluate_window(&pos, alpha, beta);
                    let got = cached.evaluate_window(&pos, alpha, beta);
                    assert_eq!(got, fresh, "{variant} {fen} ({alpha}, {beta})");
                }
            }
        }
    }
}

/// The generic weights are the term table's defaults: zero for the piece terms it
/// does not derive from the pieces, its numbers for the global terms (the lazy
/// margin doubled in drop games).
#[test]
fn generic_weights_follow_the_term_table() {
    use terms::PieceDefault;
    for variant in ["chess", "crazyhouse", "shogi", "xiangqi", "makruk"] {
        let rules = builtin_rules(variant);
        let basis = Basis::new(&rules);
        let p = Params::generic(&rules, &basis);
        for t in 0..p.n {
            for term in PieceTerm::ALL {
                if term.default() == PieceDefault::Zero {
                    assert_eq!(p.piece(t, term), [0.0, 0.0], "{variant} {}", term.name());
                }
            }
        }
        for term in GlobalTerm::ALL {
            let want = match term {
                GlobalTerm::LazyMargin if rules.variant.piece_drops => [700.0, 700.0],
                _ => term.default(),
            };
            assert_eq!(p.global(term), want, "{variant} {}", term.name());
        }
    }
}
