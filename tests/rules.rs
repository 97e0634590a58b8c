//! Game end by each variant's own rules: checkmate and stalemate values, extinction,
//! flags, check counting, shogi pawn-drop mate, repetition and the n-move rule.

use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::movegen::notation;
use menagerie::rules::{immediate_result, no_moves_value, optional_result, repetition_result};
use menagerie::types::{MoveList, RankNumbering};
use menagerie::variant::{GameValue, VariantSet};
use std::sync::Arc;

mod common;
use common::play;

fn rules(name: &str) -> Arc<Ruleset> {
    common::builtin_rules(name)
}

fn pos(variant: &str, fen: &str) -> Position {
    common::unchecked_position(&rules(variant), fen)
}

fn legal_count(p: &mut Position) -> usize {
    let r = p.rules().clone();
    let mut list = MoveList::new();
    r.generate_legal(p, &mut list);
    list.len()
}

/// No legal move: the value of the position by the variant's rules.
fn end_value(variant: &str, fen: &str) -> GameValue {
    let mut p = pos(variant, fen);
    assert_eq!(
        legal_count(&mut p),
        0,
        "{variant} {fen} should have no legal move"
    );
    no_moves_value(&p)
}

#[test]
fn checkmate_and_stalemate_values() {
    // Fool's mate: White is mated.
    assert_eq!(
        end_value(
            "chess",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
        ),
        GameValue::Loss
    );
    // Chess stalemate is a draw...
    assert_eq!(
        end_value("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
        GameValue::Draw
    );
    // ...in xiangqi it loses (the general has no move: d9 and e10 are covered).
    assert_eq!(
        end_value("xiangqi", "3k5/R8/9/9/9/9/9/9/9/4RK3 b - - 0 1"),
        GameValue::Loss
    );
    // Antichess: stalemate wins.
    assert_eq!(
        end_value("antichess", "8/8/8/8/8/1p6/1P6/8 w - - 0 1"),
        GameValue::Win
    );
}

#[test]
fn extinction_ends_the_game_before_any_move() {
    // Antichess: the side without pieces wins.
    let mut p = pos("antichess", "8/8/8/8/8/8/8/1Q6 b - - 0 1");
    assert_eq!(immediate_result(&p), Some(GameValue::Win));
    assert_eq!(legal_count(&mut p), 0, "a decided game has no legal moves");
    // Atomic: a side whose king exploded has lost.
    assert_eq!(
        immediate_result(&pos("atomic", "8/8/8/8/8/8/8/4K3 b - - 0 1")),
        Some(GameValue::Loss)
    );
    // Shatranj: a bare king loses, but only once the other side cannot bare it back.
    assert_eq!(
        immediate_result(&pos("shatranj", "4k3/8/8/8/8/8/8/R2QK3 b - - 0 1")),
        Some(GameValue::Loss)
    );
    assert_eq!(
        immediate_result(&pos("shatranj", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1")),
        None
    );
}

/// A finished game read from a FEN (not built unchecked) is accepted, as pyffish
/// 0.0.90 accepts it, and is over: the result, and no legal move.
#[test]
fn finished_games_read_from_fens_are_over() {
    for (variant, fen, value) in [
        // Black's king exploded with the bishop's capture on f8: Black has lost.
        (
            "atomic",
            "rnb4r/1ppp2pp/p7/4p3/8/4P3/PPPP1PPP/RNBQK1NR b KQ - 0 4",
            GameValue::Loss,
        ),
        // White's lion is in Black's hand: White has lost.
        ("dobutsu", "l1e/1C1/g1G/E2[Cl] w - - 0 4", GameValue::Loss),
        // Antichess: the side without pieces has won.
        ("antichess", "8/8/8/8/8/8/8/1Q6 b - - 0 1", GameValue::Win),
    ] {
        let mut p = Position::from_fen(&rules(variant), fen)
            .unwrap_or_else(|e| panic!("{variant} {fen}: {e}"));
        assert_eq!(immediate_result(&p), Some(value), "{variant} {fen}");
        assert_eq!(legal_count(&mut p), 0, "{variant} {fen}");
    }
}

#[test]
fn flags_and_check_counting() {
    // King of the hill: the opponent's king reached the centre.
    assert_eq!(
        immediate_result(&pos("kingofthehill", "8/8/8/8/4K3/8/8/k7 b - - 0 1")),
        Some(GameValue::Loss)
    );
    // Racing kings: White reached the 8th rank and Black cannot follow...
    assert_eq!(
        immediate_result(&pos("racingkings", "K7/8/8/8/8/8/8/7k b - - 0 1")),
        Some(GameValue::Loss)
    );
    // ...but a Black king that can reach it as well still plays on (and draws).
    assert_eq!(
        immediate_result(&pos("racingkings", "K7/6k1/8/8/8/8/8/8 b - - 0 1")),
        None
    );
    assert_eq!(
        immediate_result(&pos("racingkings", "K5k1/8/8/8/8/8/8/8 w - - 0 1")),
        Some(GameValue::Draw)
    );
    // Three-check: Black has no checks left to give, so White (to move) has lost.
    assert_eq!(
        immediate_result(&pos(
            "3check",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 3+0 0 1"
        )),
        Some(GameValue::Loss)
    );
    // Giving check counts down; the third check wins.
    let mut p = pos("3check", "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1");
    play(&mut p, "a1a8 e8e7 a8a7 e7e6");
    assert_eq!(p.state().checks_remaining, [1, 3]);
    play(&mut p, "a7a6");
    assert_eq!(immediate_result(&p), Some(GameValue::Loss));
}

/// Shatar (shatarMateRule): a mate counts only after a shak (a check by a knight,
/// rook or bers) in the run of checks; a mate by knights alone counts for the mated
/// side. The values are pyffish's game_result after the same moves.
#[test]
fn shatar_mates() {
    let mated = |fen: &str, moves: &str| {
        let mut p = pos("shatar", fen);
        play(&mut p, moves);
        assert_eq!(legal_count(&mut p), 0, "{fen} {moves}");
        no_moves_value(&p)
    };
    // A rook mate is a shak: it counts.
    assert_eq!(
        mated("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"),
        GameValue::Loss
    );
    // A bishop mate with no shak before it: niol, a draw.
    assert_eq!(
        mated("6bk/7p/8/8/8/8/1B6/6K1 w - - 0 1", "b2e5"),
        GameValue::Draw
    );
    // The same kind of bishop mate after a rook check in the same run: it counts...
    let shak_first = "7k/pB6/5P2/6K1/8/8/8/3R4 w - - 0 1";
    assert_eq!(mated(shak_first, "d1d8 h8h7 b7e4"), GameValue::Loss);
    // ...but not when the position is set up without that history.
    assert_eq!(
        mated("3R4/p6k/5P2/6K1/4B3/8/8/8 b - - 3 2", ""),
        GameValue::Draw
    );
    // A smothered mate by the knight alone.
    assert_eq!(
        mated("6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", "g5f7"),
        GameValue::Win
    );
}

/// Dobutsu (flagPieceSafe): a lion on the last rank wins only where no enemy piece
/// attacks it; if both lions stand safe on their goals, the game is drawn. The values
/// are pyffish's is_immediate_game_end.
#[test]
fn a_flag_piece_must_be_safe() {
    let end = |fen| immediate_result(&pos("dobutsu", fen));
    // White's lion on a4 is attacked by the giraffe: the game goes on.
    assert_eq!(end("Lgl/3/3/E1G[] b - - 0 1"), None);
    // Not attacked: Black (to move) has lost; White (to move: it survived) has won.
    assert_eq!(end("L1l/3/1g1/E1G[] b - - 0 1"), Some(GameValue::Loss));
    assert_eq!(end("L1l/3/1g1/E1G[] w - - 0 1"), Some(GameValue::Win));
    // Black's lion reached b1 too, but White's giraffe attacks it.
    assert_eq!(end("L2/3/3/1lG[] w - - 0 1"), Some(GameValue::Win));
    // Both safe: a draw, whoever is to move.
    assert_eq!(end("L2/3/3/1l1[] w - - 0 1"), Some(GameValue::Draw));
    assert_eq!(end("L2/3/3/1l1[] b - - 0 1"), Some(GameValue::Draw));
}

#[test]
fn shogi_pawn_drop_mate_loses_for_the_dropper() {
    let mut p = pos("shogi", "R3k3R/9/4G4/9/9/9/9/9/4K4[P] w - - 0 1");
    play(&mut p, "P@e8");
    assert!(p.in_check());
    assert_eq!(legal_count(&mut p), 0);
    assert_eq!(no_moves_value(&p), GameValue::Win, "the mated side wins");
    // The same mate by a gold drop is a normal checkmate.
    let mut p = pos("shogi", "R3k3R/9/4G4/9/9/9/9/9/4K4[G] w - - 0 1");
    play(&mut p, "G@e8");
    assert_eq!(legal_count(&mut p), 0);
    assert_eq!(no_moves_value(&p), GameValue::Loss);
}

#[test]
fn repetition_and_move_rules() {
    // Chess: the third occurrence is a draw.
    let r = rules("chess");
    let mut p = Position::start(&r);
    play(&mut p, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert_eq!(repetition_result(&p, 3, 0), None);
    // A search scores the second occurrence when the first is inside its tree (the
    // root included, 4 plies back), not when it came before the root.
    let mut q = Position::start(&r);
    play(&mut q, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(repetition_result(&q, 3, 3), None);
    assert_eq!(repetition_result(&q, 3, 4), Some(GameValue::Draw));
    play(&mut p, "f6g8");
    assert_eq!(repetition_result(&p, 3, 0), Some(GameValue::Draw));
    // Minishogi: the fourth occurrence loses for White (sente), whoever moves.
    let r = rules("minishogi");
    let mut p = Position::start(&r);
    play(
        &mut p,
        "b1b2 d5d4 b2b1 d4d5 b1b2 d5d4 b2b1 d4d5 b1b2 d5d4 b2b1",
    );
    assert_eq!(optional_result(&p, || true), None);
    play(&mut p, "d4d5");
    assert_eq!(optional_result(&p, || true), Some(GameValue::Loss));
    // The 50-move rule.
    let p = pos("chess", "4k3/8/8/8/8/8/8/4K2R w K - 100 80");
    assert_eq!(optional_result(&p, || true), Some(GameValue::Draw));
    let p = pos("chess", "4k3/8/8/8/8/8/8/4K2R w K - 99 80");
    assert_eq!(optional_result(&p, || true), None);
}

/// Armageddon (materialCounting = blackdrawodds): every draw by the rules is a win
/// for Black, whoever is to move; the values agree with pyffish's game_result and
/// is_optional_game_end.
#[test]
fn draw_odds_decide_drawn_games() {
    // Stalemate, Black to move (pyffish: +32000) and White to move (-32000).
    assert_eq!(
        end_value("armageddon", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
        GameValue::Win
    );
    assert_eq!(
        end_value("armageddon", "7K/5q2/6k1/8/8/8/8/8 w - - 0 1"),
        GameValue::Loss
    );
    // Repetition: back at the start, White to move.
    let r = rules("armageddon");
    let mut p = Position::start(&r);
    play(&mut p, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert_eq!(optional_result(&p, || true), Some(GameValue::Loss));
    // The 50-move rule, with either side to move.
    let mut p = pos("armageddon", "8/8/4k3/8/8/3K4/8/R7 w - - 99 80");
    play(&mut p, "a1a2");
    assert_eq!(optional_result(&p, || true), Some(GameValue::Win));
    play(&mut p, "e6e5");
    assert_eq!(optional_result(&p, || true), Some(GameValue::Loss));
    // A checkmate stays a checkmate.
    assert_eq!(
        end_value(
            "armageddon",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
        ),
        GameValue::Loss
    );
}

#[test]
fn perpetual_check_loses_in_xiangqi() {
    // The red chariot follows the general up and down the palace, checking each time.
    let r = rules("xiangqi");
    let mut p = Position::from_fen(&r, "4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1").expect("fen");
    let cycle = "f10f9 e9e10 f9f10 e10e9";
    play(&mut p, "f1f10 e10e9");
    for _ in 0..3 {
        play(&mut p, cycle);
    }
    // Red to move; the position occurs for the fourth time and every Black position
    // of the cycle was check: Red, the checker, loses.
    assert_eq!(repetition_result(&p, 4, 0), Some(GameValue::Loss));
    // Without perpetual checks a fourfold repetition is a draw in xiangqi.
    let mut p = Position::from_fen(&r, "4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1").expect("fen");
    for _ in 0..4 {
        play(&mut p, "f1f2 e10e9 f2f1 e9e10");
    }
    assert_eq!(repetition_result(&p, 4, 0), Some(GameValue::Draw));
}

/// Xiangqi counts the 50-move rule as the AXF rules do (`nMoveRuleAxf`): twice the
/// checks past the tenth of the side that gave more come off the count. The game is one of
/// random moves; pyffish 0.0.90 (`is_optional_game_end`) agrees at every ply.
#[test]
fn checks_past_the_tenth_do_not_count_in_xiangqi() {
    let fen = "4k4/9/9/2n6/9/9/6N2/9/9/3K5 w - - 50 1";
    // 50 plies without a capture; Red gives 11 checks.
    let moves = "g4e5 c7b9 d1d2 b9d8 e5d3 d8b9 d3e5 b9d10 e5c6 e10f10 c6d8 d10f9 d8f7 \
                 f9d10 f7d6 d10f9 d6e8 f10e10 e8d10 f9d8 d10e8 d8e6 e8g9 e10e9 g9f7 e9e8 \
                 f7g9 e8e9 g9f7 e9f9 f7d6 f9f10 d6e8 f10e10 e8c9 e10f10 c9d7 e6f8 d7c9 \
                 f8g10 c9e8 f10e10 e8c9 e10e9 c9d7 e9e8 d7f6 e8e9 f6d5 e9d9";
    let mut p = pos("xiangqi", fen);
    play(&mut p, moves);
    assert_eq!(p.state().rule50, 100);
    // 100 - 2 * (11 - 10) = 98 plies count: no draw yet.
    assert_eq!(optional_result(&p, || true), None);
    play(&mut p, "d2e2");
    assert_eq!(optional_result(&p, || true), None);
    // Two more plies without a check or a capture reach 100.
    play(&mut p, "g10h8");
    assert_eq!(optional_result(&p, || true), Some(GameValue::Draw));
    // Where every ply counts, the same game is drawn at 100.
    let r = loaded("[plain:xiangqi]\nnMoveRuleAxf = false\n", "plain");
    let mut p = common::unchecked_position(&r, fen);
    play(&mut p, moves);
    assert_eq!(optional_result(&p, || true), Some(GameValue::Draw));
}

/// A variant of `text` (a section of its own) on top of the built-ins.
fn loaded(text: &str, name: &str) -> Arc<Ruleset> {
    let mut set = VariantSet::builtin(check_variant);
    set.load_str("test.ini", text);
    Ruleset::new(set.get(name).unwrap_or_else(|| panic!("{name} loads")))
}

#[test]
fn castling_wins() {
    // Fairy-Stockfish's section `castle`: Black wins by castling queenside and
    // loses with that right gone (values as pyffish 0.0.90 gives them).
    let r = loaded("[castle:chess]\ncastlingWins = q\n", "castle");
    let start = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let end = |moves: &str| {
        let mut p = Position::from_fen(&r, start).expect("reads");
        play(&mut p, moves);
        immediate_result(&p)
    };
    assert_eq!(end(""), None);
    assert_eq!(end("e1c1"), None, "White's castlings decide nothing");
    assert_eq!(end("a1b1"), None);
    assert_eq!(
        end("e1c1 e8c8"),
        Some(GameValue::Loss),
        "Black castled: won"
    );
    assert_eq!(
        end("e2e3 e8g8"),
        Some(GameValue::Win),
        "Black lost its right"
    );
    assert_eq!(end("e2e3 a8b8"), Some(GameValue::Win));
    assert_eq!(end("e2e3 h8g8"), None);
    let mut p = Position::from_fen(&r, start).expect("reads");
    play(&mut p, "e2e3 e8c8");
    assert_eq!(legal_count(&mut p), 0, "a decided game has no moves");
    // Without the right from the start, the side to move wins or loses at once.
    let no_q = |side| {
        let fen = format!("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R {side} Kk - 0 1");
        immediate_result(&Position::from_fen(&r, &fen).expect("reads"))
    };
    assert_eq!(no_q("w"), Some(GameValue::Win));
    assert_eq!(no_q("b"), Some(GameValue::Loss));
    // Both sides' winning rights gone by one move: the side that moved loses.
    let r = loaded("[cw:chess]\ncastlingWins = Qq\n", "cw");
    let mut p =
        Position::from_fen(&r, "r3k3/1ppppppp/8/8/8/8/1PPPPPPP/R3K3 w Qq - 0 1").expect("reads");
    play(&mut p, "a1a8");
    assert_eq!(immediate_result(&p), Some(GameValue::Win));
}

#[test]
fn check_counts_in_place_of_the_castling_field() {
    // Fairy-Stockfish's `rookmate` start position: `w 7+7 0 1`.
    let r = rules("3check");
    let p = Position::from_fen(&r, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 2+1 3 9")
        .expect("reads");
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 2+1 3 9"
    );
}

#[test]
fn janggi_passes_and_bikjang_end_the_game_by_counting() {
    let start = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    // A pass answering a pass ends the game: equal material, so the counting's
    // extra point for Black (Han) decides it, here against White to move.
    let mut p = pos("janggi", start);
    play(&mut p, "e2e2");
    assert_eq!(immediate_result(&p), None);
    play(&mut p, "e9e9");
    assert_eq!(immediate_result(&p), Some(GameValue::Loss));
    assert_eq!(legal_count(&mut p), 0);
    // Without material counting the same end is a draw.
    let mut p = pos("janggicasual", start);
    play(&mut p, "e2e2 e9e9");
    assert_eq!(immediate_result(&p), Some(GameValue::Draw));
    // Bikjang: with the generals facing, every move but a pass must separate
    // them; a pass ends the game (by counting: White is a rook up).
    let mut p = pos("janggi", "4k4/9/9/9/9/9/9/9/R8/4K4 b - - 0 1");
    assert_eq!(legal_count(&mut p), 3);
    play(&mut p, "e10e10");
    assert_eq!(immediate_result(&p), Some(GameValue::Win));
    // Traditional rules: bikjang is a draw.
    let mut p = pos("janggitraditional", "4k4/9/9/9/9/9/9/9/R8/4K4 b - - 0 1");
    play(&mut p, "e10e10");
    assert_eq!(immediate_result(&p), Some(GameValue::Draw));
}

#[test]
fn moving_back_and_forth_loses_in_modern_janggi() {
    // Results checked against pyffish 0.0.90 (is_optional_game_end, janggimodern).
    let start = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    let shuttle = "b1c3 b10c8 c3b1 h10g8 b1c3 a10a9 c3b1 i10i9";
    // White's horse arrives on c3 and goes back and forth four times: White, who
    // just moved, loses; one move fewer decides nothing.
    let mut p = pos("janggimodern", start);
    play(&mut p, shuttle);
    assert_eq!(optional_result(&p, || true), None);
    play(&mut p, "b1c3");
    assert_eq!(optional_result(&p, || true), Some(GameValue::Win));
    // A pass may stand in for the second-to-last move.
    let mut p = pos("janggimodern", start);
    play(&mut p, shuttle);
    play(&mut p, "e2e2 g7g6 b1c3");
    assert_eq!(optional_result(&p, || true), Some(GameValue::Win));
    // Both horses shuttling: the repetition needs four occurrences, so the rule
    // decides first.
    let mut p = pos("janggimodern", start);
    play(&mut p, "b1c3 b10c8 c3b1 c8b10 b1c3 b10c8 c3b1 c8b10 b1c3");
    assert_eq!(optional_result(&p, || true), Some(GameValue::Win));
    // An advisor cannot leave its palace for the other one: no loss.
    let mut p = pos("janggimodern", start);
    play(
        &mut p,
        "d1d2 b10c8 d2d1 h10g8 d1d2 a10a9 d2d1 i10i9 d1d2 g7g6 d2d1",
    );
    assert_eq!(optional_result(&p, || true), None);
    // Janggi without the rule: the same horse moves decide nothing.
    let mut p = pos("janggi", start);
    play(&mut p, shuttle);
    play(&mut p, "b1c3");
    assert_eq!(optional_result(&p, || true), None);
}

#[test]
fn sittuyin_promotes_in_place_or_diagonally_without_attacking() {
    // White's pawns on d5 and f6 (zone squares) may become the met (White has
    // none) in place or one step diagonally, except where the met would attack a
    // black piece or the square is taken.
    let mut p = pos(
        "sittuyin",
        "nf1rrs2/s7/1k1npPpP/3P3P/1P1p1P2/2NP1S2/4K2S/1R5R[] w - - 0 36",
    );
    let r = p.rules().clone();
    let mut list = MoveList::new();
    r.generate_legal(&mut p, &mut list);
    let mut promotions: Vec<String> = list
        .iter()
        .filter(|m| m.kind() == menagerie::types::MoveKind::Promotion)
        .map(|&m| notation::move_to_string(&p, m, RankNumbering::FromOne))
        .collect();
    promotions.sort();
    assert_eq!(promotions, ["d5c4f", "d5c6f", "d5e4f", "f6f6f", "f6g5f"]);
}
