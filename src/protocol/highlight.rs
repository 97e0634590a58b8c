//! Move entry help for XBoard (`feature highlight=1`): which squares a lifted piece
//! can go to, in XBoard's colours, built from the legal moves.
//!
//! - `lift SQ` marks every destination: `Y` plain move, `R` capture, `M` promotion
//!   with a choice, `B` forced promotion, `C` the relay square of a multi-leg move;
//! - `put SQ` on a `C` square followed by `lift SQ` continues the move from there;
//! - `put SQ` on an `M`/`B` square is answered with `choice` (the legal promotions);
//! - `hover SQ` adds the side-effect victims of that move in green.
//!
//! Everything is computed on the game position, so it works while the engine
//! ponders or analyses on copies of it.

use super::xboard::XbVariant;
use crate::board::Position;
use crate::types::{Color, Geometry, Move, MoveKind, PieceType, RankNumbering, Square};

/// What the user picked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lifted {
    Board(Square),
    Hand(Color, PieceType),
}

/// The user's move in progress.
#[derive(Clone, Debug, Default)]
pub struct MoveEntry {
    lifted: Option<Lifted>,
    /// Relay squares chosen so far (multi-leg moves).
    relays: Vec<Square>,
    /// A `put` on a relay square that the next `lift` of it continues.
    pending_relay: Option<Square>,
}

/// A reply to send.
pub enum Reply {
    Highlight(String),
    Choice(String),
    Error(String),
}

impl MoveEntry {
    /// Forget the move in progress (the position changed).
    pub fn reset(&mut self) {
        *self = MoveEntry::default();
    }

    pub fn lift(&mut self, pos: &Position, legal: &[Move], xb: &XbVariant, text: &str) -> Reply {
        let g = pos.variant().geometry;
        if let (Some(relay), Some(lifted)) = (self.pending_relay.take(), self.lifted)
            && g.parse_square(text, RankNumbering::XBoard) == Some(relay)
        {
            let marks = self.marks(pos, legal, lifted);
            return Reply::Highlight(color_fen(g, &marks));
        }
        let Some(lifted) = parse_lift_square(pos, xb, text) else {
            return Reply::Error(format!("bad square {text}"));
        };
        self.lifted = Some(lifted);
        self.relays.clear();
        let marks = self.marks(pos, legal, lifted);
        Reply::Highlight(color_fen(g, &marks))
    }

    pub fn put(
        &mut self,
        pos: &Position,
        legal: &[Move],
        xb: &XbVariant,
        text: &str,
    ) -> Option<Reply> {
        let g = pos.variant().geometry;
        let sq = g.parse_square(text.trim_end_matches(','), RankNumbering::XBoard)?;
        let lifted = self.lifted?;
        let marks = self.marks(pos, legal, lifted);
        match marks[sq as usize] {
            'C' => {
                self.relays.push(sq);
                self.pending_relay = Some(sq);
                None
            }
            'M' | 'B' => {
                let moves = self.ending_at(pos, legal, lifted, sq);
                Some(Reply::Choice(choice_text(pos, xb, &moves)))
            }
            _ => None,
        }
    }

    pub fn hover(&self, pos: &Position, legal: &[Move], text: &str) -> Option<Reply> {
        let g = pos.variant().geometry;
        let sq = g.parse_square(text, RankNumbering::XBoard)?;
        let lifted = self.lifted?;
        let mut marks = self.marks(pos, legal, lifted);
        for m in self.ending_at(pos, legal, lifted, sq) {
            for v in victims(pos, m) {
                if marks[v as usize] == '.' {
                    marks[v as usize] = 'g';
                }
            }
        }
        Some(Reply::Highlight(color_fen(g, &marks)))
    }

    /// Legal moves of the lifted piece that go through the relays chosen so far.
    fn candidates(&self, pos: &Position, legal: &[Move], lifted: Lifted) -> Vec<Move> {
        legal
            .iter()
            .copied()
            .filter(|&m| belongs_to(pos, m, lifted))
            .filter(|m| {
                let extras: Vec<Square> = m.extra_squares().collect();
                extras.len() >= self.relays.len() && extras[..self.relays.len()] == self.relays[..]
                    || ends_on_last_relay(m, &extras, &self.relays)
            })
            .collect()
    }

    /// Moves ending on `sq` now (no further relays).
    fn ending_at(&self, pos: &Position, legal: &[Move], lifted: Lifted, sq: Square) -> Vec<Move> {
        self.candidates(pos, legal, lifted)
            .into_iter()
            .filter(|&m| {
                m.extra_squares().count() <= self.relays.len() && destination(pos, m) == sq
            })
            .collect()
    }

    /// One colour letter per square ('.' = unmarked).
    fn marks(&self, pos: &Position, legal: &[Move], lifted: Lifted) -> Vec<char> {
        let g = pos.variant().geometry;
        let mut marks = vec!['.'; g.num_squares()];
        let moves = self.candidates(pos, legal, lifted);
        let mut finals: Vec<(Square, Move)> = Vec::new();
        for &m in &moves {
            let extras: Vec<Square> = m.extra_squares().collect();
            if extras.len() > self.relays.len() {
                marks[extras[self.relays.len()] as usize] = 'C';
            } else {
                finals.push((destination(pos, m), m));
            }
        }
        let rules = pos.rules();
        for &(sq, m) in &finals {
            if marks[sq as usize] == 'C' {
                continue;
            }
            let here: Vec<Move> = finals
                .iter()
                .filter(|(s, _)| *s == sq)
                .map(|(_, m)| *m)
                .collect();
            let promotes = here
                .iter()
                .any(|m| matches!(m.kind(), MoveKind::Promotion | MoveKind::PiecePromotion));
            marks[sq as usize] = if promotes && here.len() == 1 {
                'B'
            } else if promotes {
                'M'
            } else if rules.is_capture(pos, m) || m.extras().any(|(_, c)| c) {
                'R'
            } else {
                'Y'
            };
        }
        marks
    }
}

/// A move that ends on the last relay square (the user clicks that square again).
fn ends_on_last_relay(m: &Move, extras: &[Square], relays: &[Square]) -> bool {
    match relays.split_last() {
        Some((last, before)) => extras == before && m.to() == *last,
        None => false,
    }
}

fn belongs_to(pos: &Position, m: Move, lifted: Lifted) -> bool {
    match lifted {
        Lifted::Board(sq) => !m.is_drop() && m.from() == sq,
        Lifted::Hand(c, t) => m.is_drop() && m.piece() == t && pos.side_to_move() == c,
    }
}

/// Where the user puts the piece for this move: the king's square for castling.
fn destination(pos: &Position, m: Move) -> Square {
    if m.kind() == MoveKind::Castling && !pos.variant().chess960 {
        pos.rules()
            .castling_destinations(pos.side_to_move(), m.from(), m.to())
            .0
    } else {
        m.to()
    }
}

/// Squares whose enemy piece disappears by the move, other than its destination:
/// en passant victims, locust captures, explosions.
pub fn victims(pos: &Position, m: Move) -> Vec<Square> {
    let mut after = pos.clone();
    let them = pos.side_to_move().flip();
    after.make(m);
    let g = pos.variant().geometry;
    g.squares()
        .filter(|&sq| sq != m.to())
        .filter(|&sq| {
            let before = pos.piece_at(sq);
            before.is_some() && before.color() == them && after.piece_at(sq) != before
        })
        .collect()
}

/// The promotion choices of the moves to one square, as XBoard letters: `+` for a
/// shogi-style promotion, the promoted piece for a chosen one, and the piece itself
/// when it may also stay unpromoted. The engine's preference comes first.
fn choice_text(pos: &Position, xb: &XbVariant, moves: &[Move]) -> String {
    let v = pos.variant();
    let mut out = String::new();
    let mut stays = None;
    for &m in moves {
        match m.kind() {
            MoveKind::PiecePromotion => out.insert(0, '+'),
            MoveKind::Promotion => out.push(xb.letter(v, m.piece())),
            _ => {
                let mover = pos.piece_at(m.from());
                if mover.is_some() {
                    stays = Some(xb.letter(v, mover.kind()));
                }
            }
        }
    }
    if let Some(c) = stays {
        out.push(c);
    }
    out
}

/// XBoard's square name for `lift`, including holdings: White's hand is the column
/// right of the board (file letter after the last file + 1), Black's the column left
/// of it (`_`), slot 1 nearest the owner.
fn parse_lift_square(pos: &Position, xb: &XbVariant, text: &str) -> Option<Lifted> {
    let g = pos.variant().geometry;
    if let Some(sq) = g.parse_square(text, RankNumbering::XBoard) {
        return Some(Lifted::Board(sq));
    }
    let mut cs = text.chars();
    let col = cs.next()?;
    let number: u32 = cs.as_str().parse().ok()?;
    let row = number.checked_sub(if g.ranks == 10 { 0 } else { 1 })?;
    let last_file = (b'a' + g.files - 1) as char;
    let (color, slot) =
        if col == (last_file as u8 + 1) as char || col == (last_file as u8 + 2) as char {
            (Color::White, row)
        } else if col == '_' || col == '`' {
            (Color::Black, (g.ranks as u32).checked_sub(1 + row)?)
        } else {
            return None;
        };
    let t = xb.slot_type(slot as usize)?;
    Some(Lifted::Hand(color, t))
}

/// A board picture of colour letters: top rank first, runs of unmarked squares as
/// numbers.
pub fn color_fen(g: Geometry, marks: &[char]) -> String {
    crate::board::fen::board_field((0..g.ranks).rev().map(|r| {
        (0..g.files).map(move |f| {
            let c = marks[g.square(f, r) as usize];
            (c != '.').then(|| c.to_string())
        })
    }))
}
