//! Pictures for variant designers, drawn from the rules the engine plays: a piece's
//! move diagram as SVG ([`piece_svg`], `menagerie moves --svg`) and a page for a whole
//! variant ([`page::variant_page`], `menagerie show`).

pub mod marks;
pub mod page;
pub mod rules_text;
pub mod svg;

use crate::board::fen::{self, SyntaxError};
use crate::movegen::bench_piece::{BenchError, bench_moves};
use crate::types::{Color, Piece, RankNumbering};
use crate::xbetza::Dialect;
use marks::Mark;

/// Why a move diagram cannot be drawn: the bench refuses the arguments, or the
/// bench position's FEN does not read back.
#[derive(Debug, thiserror::Error)]
pub enum DiagramError {
    #[error(transparent)]
    Bench(#[from] BenchError),
    #[error(transparent)]
    Fen(#[from] SyntaxError),
}

/// The move diagram of the piece `betza` on `square` of a `WxH` board with the
/// pieces of `occupancy`, as `menagerie moves` reads these arguments. Every target
/// `menagerie moves` prints is one mark with that text in its `data-target`
/// attribute; the empty squares where the piece would capture only, were an enemy
/// there, are marked too, without `data-target`.
pub fn piece_svg(
    board: &str,
    square: &str,
    betza: &str,
    occupancy: &str,
    dialect: Dialect,
) -> Result<String, DiagramError> {
    let bench = bench_moves(board, square, betza, occupancy, dialect)?;
    let rules = &bench.rules;
    let pos = &bench.position;
    let origin = bench.origin;
    let moves: Vec<_> = bench
        .moves
        .iter()
        .map(|(m, t)| (*m, Some(t.clone())))
        .collect();
    let mut all: Vec<Mark> = marks::marks_of(rules, pos, origin, &moves);
    let setup = fen::parse(&rules.variant, &pos.fen())?;
    let mover = pos.piece_at(origin);
    // The enemy of a capture-only probe: an enemy piece of the user's if there is
    // one, else the mover's own type in Black (every bench variant has that type).
    let enemy = setup
        .board
        .iter()
        .map(|(_, p, _)| *p)
        .find(|p| p.color() == Color::Black && !rules.variant.pieces[p.kind() as usize].royal)
        .unwrap_or(Piece::new(Color::Black, mover.kind()));
    marks::settle_captures(rules, &setup, origin, enemy, &mut all);
    let extra = marks::capture_only_marks(rules, &setup, origin, enemy, &all);
    all.extend(extra);
    let g = rules.variant.geometry;
    let pieces: Vec<svg::Drawn> = setup
        .board
        .iter()
        .map(|&(sq, p, promoted)| svg::Drawn {
            square: sq,
            label: if sq == origin {
                "★".to_string()
            } else {
                let l = rules.variant.letter(p.kind(), p.color());
                if promoted != 0 {
                    format!("+{l}")
                } else {
                    l.to_string()
                }
            },
            color: p.color(),
        })
        .collect();
    let title = format!("{betza} on {}", g.name(origin, RankNumbering::FromOne));
    Ok(svg::diagram(g, &title, &pieces, origin, &all))
}
