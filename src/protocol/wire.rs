//! Moves on the wire. CECP: XBoard's square names (ranks from 0 on 10-rank boards),
//! XBoard's piece letters in drops and promotions, `+`/`=` for shogi-style promotion
//! and deferral, multi-leg moves as `a1b2,b2c3`. UCI: ranks from 1, our letters.

use super::xboard::XbVariant;
use menagerie::board::{Position, RankNumbering};
use menagerie::movegen::{Move, MoveKind, notation};

/// A move as CECP writes it (one text; multi-leg moves contain commas).
pub fn cecp_text(pos: &Position, m: Move, xb: &XbVariant) -> String {
    let v = pos.variant();
    let g = v.geometry;
    match m.kind() {
        MoveKind::Drop => {
            let plus = if m.is_promoted_drop() { "+" } else { "" };
            format!(
                "{plus}{}@{}",
                xb.letter(v, m.piece()),
                g.name(m.to(), RankNumbering::XBoard)
            )
        }
        MoveKind::Promotion => {
            let mut s = notation::move_to_string(pos, m, RankNumbering::XBoard);
            s.pop();
            s.push(xb.letter(v, m.piece()).to_ascii_lowercase());
            s
        }
        MoveKind::Normal if xb.defers_with_equals && could_promote(pos, m) => {
            format!(
                "{}=",
                notation::move_to_string(pos, m, RankNumbering::XBoard)
            )
        }
        _ => notation::move_to_string(pos, m, RankNumbering::XBoard),
    }
}

/// Would the same move with a shogi-style promotion also be legal?
fn could_promote(pos: &Position, m: Move) -> bool {
    let mut p = pos.clone();
    let promoted = Move::piece_promotion(m.from(), m.to());
    let with_extras = m
        .extras()
        .fold(promoted, |acc, (sq, c)| acc.with_extra(sq, c));
    let rules = p.rules().clone();
    let mut list = menagerie::movegen::MoveList::new();
    rules.generate_legal(&mut p, &mut list);
    list.contains(with_extras)
}

/// Read a CECP move: XBoard's letters are translated to ours first.
pub fn cecp_parse(pos: &mut Position, text: &str, xb: &XbVariant) -> Result<Move, String> {
    let v = pos.variant().clone();
    let ours = |c: char| -> char {
        match xb.piece_type(c) {
            Some(t) => {
                let l = v.pieces[t as usize].letter;
                if c.is_ascii_lowercase() {
                    l.to_ascii_lowercase()
                } else {
                    l
                }
            }
            None => c,
        }
    };
    let text = text.trim();
    let translated: String = if let Some((piece, square)) = text
        .split_once('@')
        .filter(|(p, _)| !p.is_empty() && *p != "@@@")
    {
        let (plus, letter) = match piece.strip_prefix('+') {
            Some(rest) => ("+", rest),
            None => ("", piece),
        };
        let mapped: String = letter.chars().map(ours).collect();
        format!("{plus}{mapped}@{square}")
    } else {
        // A promotion letter after the last square.
        let mut chars: Vec<char> = text.chars().collect();
        let n = chars.len();
        if n >= 2 && chars[n - 1].is_ascii_alphabetic() && chars[n - 2].is_ascii_digit() {
            chars[n - 1] = ours(chars[n - 1]);
        }
        chars.into_iter().collect()
    };
    notation::parse_move(pos, &translated, RankNumbering::XBoard)
}

/// A move as UCI writes it.
pub fn uci_text(pos: &Position, m: Move) -> String {
    if m.kind() == MoveKind::Pass {
        return "0000".to_string();
    }
    notation::move_to_string(pos, m, RankNumbering::FromOne)
}

pub fn uci_parse(pos: &mut Position, text: &str) -> Result<Move, String> {
    notation::parse_move(pos, text, RankNumbering::FromOne)
}
