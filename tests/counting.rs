//! The south-east Asian counting rules (`countingRule`: makruk, cambodian, asean):
//! after random capture-heavy games from pyffish 0.0.90, the FEN (counting limit in
//! the en passant field, the count in the halfmove clock) and whether a draw may be
//! claimed must be pyffish's (`get_fen`, `is_optional_game_end`). The data
//! (tests/data/counting.txt: variant; start FEN; moves; FEN; none|draw) was made by
//! random games in which a capture is played where one exists 85% of the time.

use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::movegen::notation;
use menagerie::rules::optional_result;
use menagerie::types::{MoveList, RankNumbering};
use menagerie::variant::{GameValue, VariantSet};

#[test]
fn counting_rules_follow_pyffish() {
    let set = VariantSet::builtin(check_variant);
    let data = include_str!("data/counting.txt");
    let mut cases = 0;
    for line in data
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split(';').collect();
        let [variant, start, moves, fen, end] = f[..] else {
            panic!("bad line {line}");
        };
        let rules = Ruleset::new(set.get(variant).expect("built-in variant"));
        let mut pos = Position::from_fen(&rules, start).expect("start FEN");
        for m in moves.split_whitespace() {
            let mv = notation::parse_move(&mut pos, m, RankNumbering::FromOne)
                .unwrap_or_else(|e| panic!("{variant} {m}: {e}"));
            pos.make(mv);
        }
        assert_eq!(pos.fen(), fen, "{variant} after {moves}");
        // The FEN reads back to the same position and counts.
        let again = Position::from_fen(&rules, fen).expect("pyffish's FEN");
        assert_eq!(again.fen(), fen, "{variant} FEN round trip");
        let mut list = MoveList::new();
        rules.generate_legal(&mut pos, &mut list);
        let has_moves = !list.is_empty();
        let got = optional_result(&pos, || has_moves);
        let want = match end {
            "none" => None,
            "draw" => Some(GameValue::Draw),
            _ => panic!("bad result {end}"),
        };
        assert_eq!(got, want, "{variant} {fen}");
        cases += 1;
    }
    assert!(cases >= 40, "only {cases} cases");
}
