//! FEN in the Fairy-Stockfish dialect: multi-digit empty counts, holdings in `[...]`
//! (or as an extra rank), `~` for promoted pieces, `+X` for shogi-promoted pieces,
//! castling as `KQkq` or file letters (also seirawan gates), several e.p. squares,
//! check counters `3+3`, and missing trailing fields.

use super::Position;
use super::position::PROMOTED_UNKNOWN;
use crate::board::Ruleset;
use crate::types::{Color, MAX_PIECE_TYPES, Piece, PieceType, RankNumbering, Square};
use crate::variant::Variant;
use std::fmt;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for FenError {}

fn err<T>(s: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(s.into()))
}

/// A FEN read against a variant but not yet made into a position.
#[derive(Clone, Debug)]
pub struct Setup {
    pub board: Vec<(Square, Piece, u8)>,
    pub hands: [[u8; MAX_PIECE_TYPES]; 2],
    pub side: Color,
    pub castling: Vec<char>,
    pub ep: Vec<Square>,
    pub checks_remaining: Option<[u8; 2]>,
    pub rule50: u32,
    pub fullmove: u32,
}

/// Read a FEN for `variant`. Every problem is an error, never a panic.
pub fn parse(variant: &Variant, fen: &str) -> Result<Setup, FenError> {
    let g = variant.geometry;
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let Some(&placement) = fields.first() else {
        return err("empty FEN");
    };
    if !placement.is_ascii() {
        return err("the FEN has characters that are not ASCII");
    }
    let mut hands = [[0u8; MAX_PIECE_TYPES]; 2];
    let (mut board_text, mut hand_text) = match placement.find('[') {
        Some(i) => {
            let rest = &placement[i + 1..];
            let Some(close) = rest.find(']') else {
                return err("holdings '[' without ']'");
            };
            if close + 1 != rest.len() {
                return err("unexpected text after the holdings");
            }
            (&placement[..i], Some(&rest[..close]))
        }
        None => (placement, None),
    };
    // BFEN: holdings as one more rank after the last one.
    let ranks_written = board_text.split('/').count();
    if hand_text.is_none() && ranks_written == g.ranks as usize + 1 && variant.has_hands() {
        let i = board_text.rfind('/').expect("several ranks");
        hand_text = Some(&board_text[i + 1..]);
        board_text = &board_text[..i];
    }
    let rows: Vec<&str> = board_text.split('/').collect();
    if rows.len() != g.ranks as usize {
        return err(format!(
            "the board has {} ranks but the FEN gives {}",
            g.ranks,
            rows.len()
        ));
    }
    let mut board = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = g.ranks - 1 - i as u8;
        let b = row.as_bytes();
        let mut file: u32 = 0;
        let mut k = 0;
        while k < b.len() {
            let c = b[k] as char;
            if c.is_ascii_digit() {
                let mut n = 0u32;
                while k < b.len() && (b[k] as char).is_ascii_digit() {
                    n = n * 10 + (b[k] - b'0') as u32;
                    k += 1;
                    if n > 64 {
                        return err(format!("bad empty-square count in rank {}", rank + 1));
                    }
                }
                if n == 0 {
                    return err("an empty-square count of 0");
                }
                file += n;
                continue;
            }
            let (promoted_prefix, letter) = if c == '+' {
                k += 1;
                if k >= b.len() {
                    return err("'+' at the end of a rank");
                }
                (true, b[k] as char)
            } else {
                (false, c)
            };
            if letter == '*' {
                return err("holes in the board ('*') are not supported");
            }
            let Some(t) = variant
                .type_of_letter(letter)
                .filter(|_| letter.is_ascii_alphabetic())
            else {
                return err(format!("'{letter}' is not a piece of {}", variant.name));
            };
            let color = if letter.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            k += 1;
            let mut placed = t;
            let mut promoted = 0u8;
            if promoted_prefix {
                match variant.promoted_piece_type[t as usize] {
                    Some(p) => {
                        placed = p;
                        promoted = t + 1;
                    }
                    None => return err(format!("'{letter}' has no promoted form")),
                }
            }
            if k < b.len() && b[k] == b'~' {
                k += 1;
                if promoted == 0 {
                    promoted = PROMOTED_UNKNOWN;
                }
            }
            if file >= g.files as u32 {
                return err(format!("rank {} has more than {} files", rank + 1, g.files));
            }
            board.push((
                g.square(file as u8, rank),
                Piece::new(color, placed),
                promoted,
            ));
            file += 1;
        }
        if file != g.files as u32 {
            return err(format!(
                "rank {} has {} files instead of {}",
                rank + 1,
                file,
                g.files
            ));
        }
    }
    if let Some(h) = hand_text {
        for c in h.chars() {
            if c == '-' {
                continue;
            }
            let Some(t) = variant
                .type_of_letter(c)
                .filter(|_| c.is_ascii_alphabetic())
            else {
                return err(format!(
                    "'{c}' in the holdings is not a piece of {}",
                    variant.name
                ));
            };
            let color = if c.is_ascii_uppercase() { 0 } else { 1 };
            let slot = &mut hands[color][t as usize];
            *slot = slot
                .checked_add(1)
                .ok_or_else(|| FenError("too many pieces in hand".into()))?;
        }
    }
    let side = match fields.get(1) {
        None | Some(&"w") => Color::White,
        Some(&"b") => Color::Black,
        Some(s) => return err(format!("side to move '{s}' is neither w nor b")),
    };
    let mut idx = 2;
    let mut castling = Vec::new();
    let mut ep = Vec::new();
    let is_number = |s: &str| s.chars().all(|c| c.is_ascii_digit()) && !s.is_empty();
    // Shogi-style FENs go straight to the move counters.
    if let Some(f) = fields.get(idx)
        && !is_number(f)
    {
        if *f != "-" {
            for c in f.chars() {
                if !c.is_ascii_alphabetic() {
                    return err(format!("bad castling field '{f}'"));
                }
                castling.push(c);
            }
        }
        idx += 1;
        if let Some(f) = fields.get(idx)
            && !is_number(f)
            && !f.contains('+')
        {
            if *f != "-" {
                let mut rest = *f;
                while !rest.is_empty() {
                    match g.parse_square_prefix(rest, RankNumbering::FromOne) {
                        Some((sq, n)) => {
                            ep.push(sq);
                            rest = &rest[n..];
                        }
                        None => return err(format!("bad en passant square '{f}'")),
                    }
                }
            }
            idx += 1;
        }
    }
    let mut checks_remaining = None;
    if let Some(f) = fields.get(idx)
        && let Some((a, b)) = f.split_once('+').filter(|(a, _)| !a.is_empty())
    {
        let (Ok(a), Ok(b)) = (a.parse::<u8>(), b.parse::<u8>()) else {
            return err(format!("bad check counter '{f}'"));
        };
        checks_remaining = Some([a.min(31), b.min(31)]);
        idx += 1;
    }
    // Fairy-Stockfish writes a makruk counting limit before the counters once the
    // count is on ("... w - 128 51 149"): three numbers where two are expected.
    // Menagerie does not play the counting rule; the limit is skipped.
    let numbers_left = fields
        .get(idx..)
        .unwrap_or(&[])
        .iter()
        .take_while(|f| is_number(f))
        .count();
    if numbers_left == 3 {
        idx += 1;
    }
    let mut number = |name: &str| -> Result<Option<u32>, FenError> {
        match fields.get(idx) {
            None => Ok(None),
            Some(f) => {
                idx += 1;
                f.parse::<u32>()
                    .map(Some)
                    .map_err(|_| FenError(format!("bad {name} '{f}'")))
            }
        }
    };
    let rule50 = number("halfmove clock")?.unwrap_or(0);
    let fullmove = number("move number")?.unwrap_or(1).max(1);
    // Lichess-style check counter: +W+B checks given (three-check).
    if let Some(f) = fields.get(idx) {
        let parts: Vec<&str> = f.split('+').collect();
        if parts.len() == 3 && parts[0].is_empty() {
            let (Ok(a), Ok(b)) = (parts[1].parse::<u8>(), parts[2].parse::<u8>()) else {
                return err(format!("bad check counter '{f}'"));
            };
            checks_remaining = Some([3u8.saturating_sub(a), 3u8.saturating_sub(b)]);
            idx += 1;
        }
    }
    if idx < fields.len() {
        return err(format!(
            "unexpected text '{}' at the end",
            fields[idx..].join(" ")
        ));
    }
    Ok(Setup {
        board,
        hands,
        side,
        castling,
        ep,
        checks_remaining,
        rule50,
        fullmove,
    })
}

/// Does the variant's start position read? (Used when loading variant files.)
pub fn check_start_position(variant: &Variant) -> Result<(), String> {
    parse(variant, &variant.start_fen)
        .map(|_| ())
        .map_err(|e| e.0)
}

impl Position {
    /// Set up a position from a FEN of the ruleset's variant.
    pub fn from_fen(rules: &Arc<Ruleset>, fen: &str) -> Result<Position, FenError> {
        let setup = parse(&rules.variant, fen)?;
        Ok(Position::from_setup(rules, &setup))
    }

    /// The variant's start position.
    pub fn start(rules: &Arc<Ruleset>) -> Position {
        Position::from_fen(rules, &rules.variant.start_fen)
            .expect("start positions are checked when variants load")
    }

    pub fn from_setup(rules: &Arc<Ruleset>, s: &Setup) -> Position {
        let v = &rules.variant;
        let g = v.geometry;
        let mut pos = Position::empty(rules);
        for &(sq, p, promoted) in &s.board {
            pos.put(sq, p, promoted);
        }
        for c in Color::BOTH {
            for t in 0..v.num_types() {
                let n = s.hands[c as usize][t];
                if n > 0 {
                    pos.add_to_hand(c, t as PieceType, n as i32);
                }
            }
        }
        pos.set_side(s.side);
        // Castling rights and gates, as Fairy-Stockfish reads them.
        for &tok in &s.castling {
            let c = if tok.is_ascii_lowercase() {
                Color::Black
            } else {
                Color::White
            };
            let up = tok.to_ascii_uppercase();
            let rank = rules.castling_rank(c);
            let is_rook = |p: Piece| {
                p.is_some()
                    && p.color() == c
                    && v.castling_rook_pieces[c as usize] & 1u64 << p.kind() != 0
            };
            let rook_sq: Option<Square> = if v.castling && up == 'K' {
                let mut f = v.castling_rook_kingside_file as i32;
                loop {
                    let sq = g.square(f as u8, rank);
                    if is_rook(pos.piece_at(sq)) || f == 0 {
                        break Some(sq);
                    }
                    f -= 1;
                }
            } else if v.castling && up == 'Q' {
                let mut f = v.castling_rook_queenside_file as i32;
                loop {
                    let sq = g.square(f as u8, rank);
                    if is_rook(pos.piece_at(sq)) || f as u8 == g.files - 1 {
                        break Some(sq);
                    }
                    f += 1;
                }
            } else if (up as u8) >= b'A' && (up as u8) < b'A' + g.files {
                Some(g.square(up as u8 - b'A', rank))
            } else {
                None
            };
            let Some(rsq) = rook_sq else {
                continue;
            };
            if v.castling && pos.state().castling_king[c as usize].is_none() {
                let kings: Vec<Square> = match v.castling_king_piece[c as usize] {
                    Some(kt) => pos.pieces_of(c, kt).and(&g.rank_set(rank)).iter().collect(),
                    None => Vec::new(),
                };
                let ksq = if v.chess960
                    && v.castling_king_piece[c as usize]
                        .is_some_and(|kt| pos.piece_at(rsq) == Piece::new(c, kt))
                {
                    rsq
                } else if !kings.is_empty() && (kings.len() == 1 || v.chess960) {
                    kings[0]
                } else {
                    g.square(v.castling_king_file, rank)
                };
                if kings.contains(&ksq) {
                    pos.state_mut().castling_king[c as usize] = Some(ksq);
                }
            }
            if v.gating {
                if pos.pieces(c).contains(rsq) && !pos.state().gates[c as usize].contains(rsq) {
                    pos.toggle_gate(c, rsq);
                }
                let k = pos.state().castling_king[c as usize];
                if let Some(k) = k.filter(|_| up == 'K' || up == 'Q') {
                    if !pos.state().gates[c as usize].contains(k) {
                        pos.toggle_gate(c, k);
                    }
                } else if !v.seirawan_gating || pos.hand_total(c) > 0 || v.captures_to_hand {
                    continue;
                }
            }
            if v.castling
                && pos.state().castling_king[c as usize].is_some()
                && is_rook(pos.piece_at(rsq))
                && !pos.state().castling[c as usize].contains(rsq)
            {
                pos.toggle_castling(c, rsq);
            }
        }
        if v.gating && v.castling {
            for c in Color::BOTH {
                let gates = pos.state().gates[c as usize];
                let king_gated = pos.state().castling_king[c as usize].is_some_and(|k| {
                    gates.contains(k)
                        && v.castling_king_piece[c as usize].is_some_and(|kt| {
                            pos.piece_at(k).kind() == kt && pos.piece_at(k).is_some()
                        })
                });
                if king_gated
                    && pos.state().castling[c as usize].is_empty()
                    && (!v.seirawan_gating || pos.hand_total(c) > 0 || v.captures_to_hand)
                {
                    for sq in gates.and(&pos.pieces(c)).iter() {
                        let p = pos.piece_at(sq);
                        if v.castling_rook_pieces[c as usize] & 1u64 << p.kind() != 0 {
                            pos.toggle_castling(c, sq);
                        }
                    }
                }
            }
        }
        // En passant squares: only on the mover's e.p. region and an empty square.
        let us = s.side;
        for &sq in &s.ep {
            if v.en_passant_region[us as usize].contains(sq) && pos.piece_at(sq).is_none() {
                pos.toggle_ep(sq);
            }
        }
        if !pos.state().ep_squares.is_empty() {
            // The victim: the closest piece of the other side behind the e.p. square.
            let dir = if us == Color::White { -1 } else { 1 };
            if let Some(first) = pos.state().ep_squares.first() {
                let mut cur = first;
                let mut victim = None;
                while let Some(n) = g.offset(cur, 0, dir) {
                    let p = pos.piece_at(n);
                    if p.is_some() {
                        if p.color() != us {
                            victim = Some(n);
                        }
                        break;
                    }
                    cur = n;
                }
                pos.state_mut().ep_victim = victim;
            }
        }
        if v.check_counting {
            let [w, b] = s.checks_remaining.unwrap_or([1, 1]);
            pos.set_checks_remaining(Color::White, w);
            pos.set_checks_remaining(Color::Black, b);
        }
        pos.state_mut().rule50 = s.rule50;
        pos.set_game_ply(2 * (s.fullmove - 1) + (s.side == Color::Black) as u32);
        pos.finish_setup();
        pos
    }

    /// The FEN of the position, as Fairy-Stockfish writes it.
    pub fn fen(&self) -> String {
        let v = self.variant();
        let g = v.geometry;
        let cell = |sq: Square| {
            let p = self.piece_at(sq);
            if p.is_none() {
                return None;
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
        if st.ep_squares.is_empty() {
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
        out.push_str(&format!("{} {}", st.rule50, 1 + self.game_ply() / 2));
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
