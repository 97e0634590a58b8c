//! Moves on the wire. CECP: XBoard's square names (ranks from 0 on 10-rank boards),
//! XBoard's piece letters in drops and promotions, `+`/`=` for shogi-style promotion
//! and deferral, multi-leg moves as `a1b2,b2c3`. UCI: ranks from 1, our letters.

use super::xboard::XbVariant;
use crate::board::Position;
use crate::movegen::notation::{self, MoveError};
use crate::types::{Move, MoveKind, RankNumbering};

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
        // XBoard has no demotion suffix: the chess-style suffix names the piece
        // the move turns back into.
        MoveKind::PieceDemotion => {
            let mut s = notation::move_to_string(pos, m, RankNumbering::XBoard);
            s.pop();
            if let Some(t) = pos.promoted_from(m.from()) {
                s.push(xb.letter(v, t).to_ascii_lowercase());
            }
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
    let mut list = crate::types::MoveList::new();
    rules.generate_legal(&mut p, &mut list);
    list.contains(with_extras)
}

/// Read a CECP move: XBoard's letters are translated to ours first.
pub fn cecp_parse(pos: &mut Position, text: &str, xb: &XbVariant) -> Result<Move, MoveError> {
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

/// A move as UCI writes it. A pass is the passing piece's square twice (`e2e2`,
/// as Fairy-Stockfish writes it); `0000` and `@@@@` are read as a pass too.
pub fn uci_text(pos: &Position, m: Move) -> String {
    notation::move_to_string(pos, m, RankNumbering::FromOne)
}

pub fn uci_parse(pos: &mut Position, text: &str) -> Result<Move, MoveError> {
    notation::parse_move(pos, text, RankNumbering::FromOne)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Ruleset;
    use crate::types::MoveList;
    use crate::variant::VariantSet;

    fn setup(variant: &str, fen: Option<&str>) -> (Position, XbVariant) {
        let mut set = VariantSet::builtin(crate::board::check_variant);
        let report = set.load_str(
            "variants.ini",
            include_str!("../../tests/data/protocol/variants.ini"),
        );
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let v = set.get(variant).expect("test variant");
        let xb = XbVariant::new(&v);
        let rules = Ruleset::new(v);
        let pos = match fen {
            Some(f) => Position::from_fen(&rules, f).expect("test FEN"),
            None => Position::start(&rules),
        };
        (pos, xb)
    }

    fn legal_texts(pos: &mut Position, xb: &XbVariant) -> Vec<String> {
        let rules = pos.rules().clone();
        let mut list = MoveList::new();
        rules.generate_legal(pos, &mut list);
        list.iter().map(|&m| cecp_text(pos, m, xb)).collect()
    }

    #[test]
    fn shogi_promotion_and_deferral() {
        // A silver on c6 may promote moving into the zone: c6c7+ or c6c7=.
        let (mut pos, xb) = setup("shogi", Some("4k4/9/9/2S6/9/9/9/9/4K4[-] w 0 1"));
        let texts = legal_texts(&mut pos, &xb);
        assert!(texts.contains(&"c6c7+".to_string()), "{texts:?}");
        assert!(texts.contains(&"c6c7=".to_string()), "{texts:?}");
        assert!(texts.contains(&"c6b5".to_string()), "{texts:?}");
        // Every text reads back as the same move.
        for t in texts {
            assert!(cecp_parse(&mut pos, &t, &xb).is_ok(), "{t}");
        }
    }

    #[test]
    fn kyoto_demotion_as_a_promotion_to_the_original_piece() {
        // White's promoted lance on a1 turns back into a lance on every move.
        let (mut pos, xb) = setup("kyotoshogi", None);
        let texts = legal_texts(&mut pos, &xb);
        assert!(texts.contains(&"a1a2l".to_string()), "{texts:?}");
        assert!(texts.contains(&"e1e2+".to_string()), "{texts:?}");
        let m = cecp_parse(&mut pos, "a1a2l", &xb).expect("XBoard's spelling");
        assert_eq!(m.kind(), MoveKind::PieceDemotion);
        assert_eq!(cecp_parse(&mut pos, "a1a2-", &xb), Ok(m));
        assert_eq!(uci_text(&pos, m), "a1a2-");
    }

    #[test]
    fn drops_ten_rank_squares_and_legs() {
        let (mut pos, xb) = setup("crazyhouse", Some("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1"));
        assert!(legal_texts(&mut pos, &xb).contains(&"N@e4".to_string()));
        let (mut pos, xb) = setup("xiangqi", None);
        let texts = legal_texts(&mut pos, &xb);
        assert!(
            texts.contains(&"h2e2".to_string()) && texts.contains(&"h0g2".to_string()),
            "{texts:?}"
        );
        let (mut pos, xb) = setup(
            "lionhouse",
            Some("r1b1kbnr/1p3ppp/2p5/1L1l4/8/8/PPPP1PPP/RNB1KBNR[Pp] w KQkq - 0 1"),
        );
        let texts = legal_texts(&mut pos, &xb);
        assert!(texts.contains(&"b5c6,c6d7".to_string()), "{texts:?}");
        assert!(texts.contains(&"P@c7".to_string()), "{texts:?}");
    }

    #[test]
    fn xboard_letters_are_translated() {
        // XBoard's xiangqi calls the horse H; Menagerie's file calls it N.
        let (mut pos, xb) = setup("xiangqi", None);
        let m = cecp_parse(&mut pos, "h0g2", &xb).expect("legal");
        assert_eq!(cecp_text(&pos, m, &xb), "h0g2");
        let v = pos.variant().clone();
        assert_eq!(
            xb.fen_from_xboard(
                &v,
                "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
            ),
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
        );
        assert_eq!(uci_text(&pos, m), "h1g3");
    }
}
