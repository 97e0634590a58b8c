//! The shipped opening books: every line reads, every move is legal in its position,
//! the header records the command, and the start position is in the book.

use menagerie::board::{Position, Ruleset};
use menagerie::book::Book;
use menagerie::movegen::notation;
use menagerie::search::bench;
use menagerie::types::RankNumbering;

const BOOKS: &[(&str, &str)] = &[
    ("chess", include_str!("../book/chess.txt")),
    ("crazyhouse", include_str!("../book/crazyhouse.txt")),
    ("shogi", include_str!("../book/shogi.txt")),
    ("xiangqi", include_str!("../book/xiangqi.txt")),
];

#[test]
fn shipped_books_are_legal_and_cover_the_start() {
    for (variant, text) in BOOKS {
        assert!(
            text.lines()
                .any(|l| l.starts_with("# command: menagerie book build --variant")),
            "{variant}: header has no command"
        );
        let rules = Ruleset::new(bench::find_variant(variant).expect("variant"));
        let mut lines = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim();
            let mut pos =
                Position::from_fen(&rules, fen).unwrap_or_else(|e| panic!("{variant}: {fen}: {e}"));
            for m in parts {
                let mut it = m.split_whitespace();
                let mv = it.next().expect("move");
                let w: u32 = it.next().and_then(|w| w.parse().ok()).expect("weight");
                assert!(w > 0);
                notation::parse_move(&mut pos, mv, RankNumbering::FromOne)
                    .unwrap_or_else(|e| panic!("{variant}: {fen}: {mv}: {e}"));
            }
            lines += 1;
        }
        assert!(lines > 10, "{variant}: only {lines} positions");
        let book = Book::builtin(variant).expect("shipped");
        let start = Position::start(&rules);
        assert!(
            !book.moves(&start).is_empty(),
            "{variant}: start position not in the book"
        );
        assert!(book.pick(&start, 7).is_some());
    }
    assert!(Book::builtin("no-such-variant").is_none());
}
