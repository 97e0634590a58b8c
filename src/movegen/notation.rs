//! Moves as text: coordinate notation as Fairy-Stockfish's UCI mode writes it
//! (`e2e4`, `e7e8q`, `P@e4`, `+` for shogi promotion, `-` for demotion, gating
//! letter appended) and
//! XBoard's (ranks from 0 on 10-rank boards, `=` for a declined promotion,
//! multi-leg moves as `f6f7,f7f8`).

use crate::board::Position;
use crate::types::{Move, MoveKind, MoveList, RankNumbering};
use crate::variant::WallingRule;

/// Write a legal move of `pos`. In walling variants the wall square follows as a
/// second leg from the destination, as Fairy-Stockfish writes it: after the
/// promotion letter in UCI (`b7a8q,a8a1`), before it for XBoard (`b7a8,a8a1q`); a
/// move that places no wall (wall-or-move) names a1 there, as Fairy-Stockfish does.
pub fn move_to_string(pos: &Position, m: Move, numbering: RankNumbering) -> String {
    if pos.variant().walling_rule == WallingRule::None {
        return plain_move_to_string(pos, m, numbering);
    }
    wall_move_to_string(pos, m, numbering, numbering == RankNumbering::XBoard)
}

/// A move of a walling variant, the promotion suffix at the end (`suffix_last`) or
/// before the wall leg.
fn wall_move_to_string(
    pos: &Position,
    m: Move,
    numbering: RankNumbering,
    suffix_last: bool,
) -> String {
    let g = pos.variant().geometry;
    let plain_move = m.without_wall();
    let mut out = if m.kind() == MoveKind::Pass {
        // A wall placed instead of a move: the pass of the piece on that square.
        let s = g.name(m.from(), numbering);
        format!("{s}{s}")
    } else {
        plain_move_to_string(pos, plain_move, numbering)
    };
    let suffix = match m.kind() {
        MoveKind::Promotion | MoveKind::PiecePromotion if suffix_last => out.pop(),
        _ => None,
    };
    // The destination as written (a castling king's square may be written either way).
    let to = match m.kind() {
        MoveKind::Castling => {
            let (kto, _) = pos
                .rules()
                .castling_destinations(pos.side_to_move(), m.from(), m.to());
            if out.ends_with(&g.name(kto, numbering)) {
                kto
            } else {
                m.to()
            }
        }
        _ => m.to(),
    };
    out.push(',');
    out.push_str(&g.name(to, numbering));
    out.push_str(&g.name(m.wall().unwrap_or(0), numbering));
    out.extend(suffix);
    out
}

/// A move as written without its wall square.
fn plain_move_to_string(pos: &Position, m: Move, numbering: RankNumbering) -> String {
    let v = pos.variant();
    let g = v.geometry;
    let sq = |s| g.name(s, numbering);
    let lower = |t: u8| v.pieces[t as usize].letter.to_ascii_lowercase();
    let mut out = String::new();
    match m.kind() {
        MoveKind::Drop => {
            if m.is_promoted_drop() {
                out.push('+');
            }
            out.push(v.pieces[m.piece() as usize].letter);
            out.push('@');
            out.push_str(&sq(m.to()));
            return out;
        }
        MoveKind::Pass if numbering == RankNumbering::XBoard => return "@@@@".to_string(),
        MoveKind::Castling => {
            let (kto, _) = pos
                .rules()
                .castling_destinations(pos.side_to_move(), m.from(), m.to());
            let ambiguous = kto == m.to() || {
                // A normal king move to the same square would read the same.
                let mut list = MoveList::new();
                pos.rules().generate_pseudo(pos, &mut list);
                list.iter()
                    .any(|x| x.kind() == MoveKind::Normal && x.from() == m.from() && x.to() == kto)
            };
            let to = if v.chess960 || ambiguous { m.to() } else { kto };
            out.push_str(&sq(m.from()));
            out.push_str(&sq(to));
            if let Some(gt) = m.gate() {
                out.push(lower(gt));
                if m.gate_on_rook() {
                    out.push_str(&sq(m.to()));
                }
            }
            return out;
        }
        _ => {}
    }
    // Legs of a multi-leg move.
    let mut cur = m.from();
    for mid in m.extra_squares() {
        out.push_str(&sq(cur));
        out.push_str(&sq(mid));
        out.push(',');
        cur = mid;
    }
    out.push_str(&sq(cur));
    out.push_str(&sq(m.to()));
    match m.kind() {
        MoveKind::Promotion => out.push(lower(m.piece())),
        MoveKind::PiecePromotion => out.push('+'),
        MoveKind::PieceDemotion => out.push('-'),
        _ => {
            if let Some(gt) = m.gate() {
                out.push(lower(gt));
            }
        }
    }
    out
}

/// Could this move have promoted but did not (XBoard writes such moves with `=`)?
fn declined_promotion(m: Move, legal: &MoveList) -> bool {
    m.kind() == MoveKind::Normal
        && legal.iter().any(|x| {
            x.kind() == MoveKind::PiecePromotion && x.from() == m.from() && x.to() == m.to()
        })
}

/// Why a text is not a legal move of the position (the protocols show the words:
/// `Illegal move (not legal in this position): e2e5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("empty move")]
    Empty,
    /// `O-O` or `O-O-O` where that castling is not legal.
    #[error("castling is not legal in this position")]
    CastlingNotLegal,
    /// Written as a move (two squares, or a drop) that is not legal here.
    #[error("not legal in this position")]
    NotLegal,
    /// Not written as a move at all.
    #[error("not a move")]
    NotAMove,
}

/// Find the legal move written `text` (either notation is accepted for castling and
/// promotions; `=` may mark a declined promotion).
pub fn parse_move(
    pos: &mut Position,
    text: &str,
    numbering: RankNumbering,
) -> Result<Move, MoveError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(MoveError::Empty);
    }
    let rules = pos.rules().clone();
    let mut legal = MoveList::new();
    rules.generate_legal(pos, &mut legal);
    let wanted = text.trim_end_matches(',');
    // Castling written as O-O / O-O-O (XBoard in Chess960, SAN).
    if let Some(long) = castling_word(wanted) {
        let g = pos.variant().geometry;
        let found = legal.iter().copied().find(|m| {
            m.kind() == MoveKind::Castling && ((g.file(m.to()) < g.file(m.from())) == long)
        });
        return found.ok_or(MoveError::CastlingNotLegal);
    }
    let (base, declined) = match wanted.strip_suffix('=') {
        Some(b) => (b, true),
        None => (wanted, false),
    };
    let mut found = None;
    let mut castling_other_way = None;
    for &m in legal.iter() {
        let s = move_to_string(pos, m, numbering);
        let matches = s == base
            || (m.wall().is_none() && rules.walls_instead && s.split(',').next() == Some(base))
            || (m.wall().is_some()
                && matches!(m.kind(), MoveKind::Promotion | MoveKind::PiecePromotion)
                && wall_move_to_string(pos, m, numbering, numbering != RankNumbering::XBoard)
                    == base)
            || s.eq_ignore_ascii_case(base) && m.kind() == MoveKind::Promotion
            || (m.kind() == MoveKind::PieceDemotion
                && demotion_alternative(pos, m, numbering) == base)
            || (m.kind() == MoveKind::Pass
                && m.wall().is_none()
                && (base == "@@@@" || base == "0000" || {
                    // The passing piece's square twice, in either protocol.
                    let g = pos.variant().geometry;
                    let sq = g.name(m.from(), numbering);
                    base.len() == 2 * sq.len() && base.starts_with(&sq) && base.ends_with(&sq)
                }));
        if matches {
            if declined && !declined_promotion(m, &legal) && m.kind() != MoveKind::Normal {
                continue;
            }
            found = Some(m);
            break;
        }
        if m.kind() == MoveKind::Castling && castling_alternative(pos, m, numbering) == base {
            castling_other_way = Some(m);
        }
    }
    // Castling in its other spelling only where no move is written that way (in
    // chess960 `f1g1` may be a king step, and castling is then `f1h1` only).
    let found = found.or(castling_other_way);
    match found {
        Some(m) => Ok(m),
        None => {
            // Tell apart unparsable text from an illegal move.
            let g = pos.variant().geometry;
            let looks_like_move = base.contains('@')
                || g.parse_square_prefix(base, numbering)
                    .is_some_and(|(_, n)| g.parse_square_prefix(&base[n..], numbering).is_some());
            if looks_like_move {
                Err(MoveError::NotLegal)
            } else {
                Err(MoveError::NotAMove)
            }
        }
    }
}

/// A demotion written as a promotion to the piece it turns back into (`e5d4l`
/// for `e5d4-`), as XBoard writes it.
fn demotion_alternative(pos: &Position, m: Move, numbering: RankNumbering) -> String {
    let mut s = move_to_string(pos, m, numbering);
    s.pop();
    if let Some(t) = pos.promoted_from(m.from()) {
        s.push(pos.variant().pieces[t as usize].letter.to_ascii_lowercase());
    }
    s
}

/// `O-O` (short, false) or `O-O-O` (long, true), also with zeros.
fn castling_word(text: &str) -> Option<bool> {
    match text {
        "O-O" | "0-0" => Some(false),
        "O-O-O" | "0-0-0" => Some(true),
        _ => None,
    }
}

/// The other spelling of a castling move: king takes rook, or king to destination.
fn castling_alternative(pos: &Position, m: Move, numbering: RankNumbering) -> String {
    let g = pos.variant().geometry;
    let (kto, _) = pos
        .rules()
        .castling_destinations(pos.side_to_move(), m.from(), m.to());
    let printed = move_to_string(pos, m, numbering);
    let king_takes_rook = format!(
        "{}{}",
        g.name(m.from(), numbering),
        g.name(m.to(), numbering)
    );
    let to_dest = format!("{}{}", g.name(m.from(), numbering), g.name(kto, numbering));
    let suffix_start = king_takes_rook.len().min(printed.len());
    let suffix = &printed[suffix_start..];
    if printed.starts_with(&king_takes_rook) && kto != m.to() {
        format!("{to_dest}{suffix}")
    } else {
        format!("{king_takes_rook}{suffix}")
    }
}
