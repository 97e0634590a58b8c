//! Writing FEN: the position as Fairy-Stockfish writes it, and the board field alone
//! (also used to build FENs elsewhere).

use crate::board::{PROMOTED_UNKNOWN, Position};
use crate::types::{Color, PieceType, RankNumbering, Square};

impl Position {
    /// The FEN of the position, as Fairy-Stockfish writes it.
    pub fn fen(&self) -> String {
        let v = self.variant();
        let g = v.geometry;
        let cell = |sq: Square| {
            let p = self.piece_at(sq);
            if p.is_none() {
                return None;
            }
            if p.is_wall() {
                return Some("*".to_string());
            }
            let raw = self.raw_promoted(sq);
            let mut text = String::new();
            if raw != 0 && raw != PROMOTED_UNKNOWN {
                text.push('+');
                text.push(v.letter(raw - 1, p.color()));
            } else {
                text.push(v.letter(p.kind(), p.color()));
                if raw == PROMOTED_UNKNOWN && v.captures_to_hand && !v.drop_loop {
                    text.push('~');
                }
            }
            Some(text)
        };
        let mut out = board_field(
            (0..g.ranks)
                .rev()
                .map(|r| (0..g.files).map(move |f| cell(g.square(f, r)))),
        );
        if v.piece_drops || v.seirawan_gating {
            out.push('[');
            for c in Color::BOTH {
                for t in (0..v.num_types()).rev() {
                    for _ in 0..self.hand(c, t as PieceType) {
                        out.push(v.letter(t as PieceType, c));
                    }
                }
            }
            out.push(']');
        }
        out.push_str(if self.side_to_move() == Color::White {
            " w "
        } else {
            " b "
        });
        let st = self.state();
        let mut cast = String::new();
        for c in Color::BOTH {
            let k = st.castling_king[c as usize];
            let standard = |sq: Square, kingside: bool| -> bool {
                // KQkq when the right is the outermost rook on that side.
                let rank = g.rank(sq);
                let range: Vec<u8> = if kingside {
                    (g.file(sq) + 1..g.files).collect()
                } else {
                    (0..g.file(sq)).collect()
                };
                !v.chess960
                    && !range.iter().any(|&f| {
                        let p = self.piece_at(g.square(f, rank));
                        p.is_some()
                            && p.color() == c
                            && v.castling_rook_pieces[c as usize] & 1u64 << p.kind() != 0
                    })
            };
            let mut rights: Vec<Square> = st.castling[c as usize].iter().collect();
            rights.sort_by_key(|&sq| std::cmp::Reverse(sq));
            for sq in rights {
                let kingside = k.is_some_and(|k| sq > k);
                let ch = if standard(sq, kingside) {
                    if kingside { 'K' } else { 'Q' }
                } else {
                    (b'A' + g.file(sq)) as char
                };
                cast.push(if c == Color::White {
                    ch
                } else {
                    ch.to_ascii_lowercase()
                });
            }
            if v.gating && (!v.seirawan_gating || self.hand_total(c) > 0 || v.captures_to_hand) {
                for f in 0..g.files {
                    let gated = st.gates[c as usize].iter().any(|s| g.file(s) == f);
                    let redundant = (!v.chess960
                        && !st.castling[c as usize].is_empty()
                        && k.is_some_and(|k| g.file(k) == f))
                        || st.castling[c as usize].iter().any(|s| g.file(s) == f);
                    if gated && !redundant {
                        let ch = (b'A' + f) as char;
                        cast.push(if c == Color::White {
                            ch
                        } else {
                            ch.to_ascii_lowercase()
                        });
                    }
                }
            }
        }
        out.push_str(if cast.is_empty() { "-" } else { &cast });
        out.push(' ');
        // The counting rules' limit takes the en passant field's place, the count
        // the halfmove clock's (as Fairy-Stockfish writes them).
        let counting = st.counting_limit != 0;
        if counting {
            out.push_str(&st.counting_limit.to_string());
        } else if st.ep_squares.is_empty() {
            out.push('-');
        } else {
            for sq in st.ep_squares.iter() {
                out.push_str(&g.name(sq, RankNumbering::FromOne));
            }
        }
        out.push(' ');
        if v.check_counting {
            out.push_str(&format!(
                "{}+{} ",
                st.checks_remaining[0], st.checks_remaining[1]
            ));
        }
        let clock = if counting { st.counting_ply } else { st.rule50 };
        out.push_str(&format!("{} {}", clock, 1 + self.game_ply() / 2));
        out
    }
}

/// The board field of a FEN: `rows` top rank first, each a run of cells (`None` =
/// empty); runs of empty cells become numbers and rows are joined by '/'.
pub fn board_field<R, C, S>(rows: R) -> String
where
    R: IntoIterator<Item = C>,
    C: IntoIterator<Item = Option<S>>,
    S: AsRef<str>,
{
    let mut out = String::new();
    for (i, row) in rows.into_iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for cell in row {
            match cell {
                None => empty += 1,
                Some(text) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(text.as_ref());
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out
}
