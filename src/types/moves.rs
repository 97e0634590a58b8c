//! The move type: a packed 64-bit value that can carry drops, promotions, gating and
//! the extra squares of multi-leg (locust) moves.

use super::{PieceType, Square};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A move from one square to another (possibly with locust captures on the way).
    Normal = 0,
    /// A pawn-style promotion to a chosen piece type.
    Promotion = 1,
    /// A shogi-style promotion to the piece's fixed partner.
    PiecePromotion = 2,
    /// A piece from the hand put on an empty square.
    Drop = 3,
    /// King and rook; `from` = king square, `to` = rook square.
    Castling = 4,
    /// Capture of a piece that just made a double step, on the square it passed.
    EnPassant = 5,
    /// Passing the turn (null move of a piece, or a pass rule).
    Pass = 6,
    /// A promoted piece that moves and turns back into its original type.
    PieceDemotion = 7,
}

impl MoveKind {
    fn from_bits(b: u64) -> MoveKind {
        match b {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::PiecePromotion,
            3 => MoveKind::Drop,
            4 => MoveKind::Castling,
            5 => MoveKind::EnPassant,
            6 => MoveKind::Pass,
            _ => MoveKind::PieceDemotion,
        }
    }
}

/// Bit layout: from 0-7, to 8-15, kind 16-18, piece 19-24 (promotion / drop type),
/// gate 25-30 (type + 1, 0 = none), gate on rook square 31, first extra square
/// 32-39 (+ present 40, captured 41), second extra square 42-49 (+ 50, 51),
/// promoted drop 52, wall square 53-60 (+ present 61).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(pub u64);

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Move({:?} {}->{} piece={} gate={:?} mids={:?} wall={:?})",
            self.kind(),
            self.from(),
            self.to(),
            self.piece(),
            self.gate(),
            self.extra_squares().collect::<Vec<_>>(),
            self.wall()
        )
    }
}

impl Move {
    pub const NONE: Move = Move(0);

    #[inline]
    fn pack(from: Square, to: Square, kind: MoveKind, piece: PieceType) -> Move {
        Move(from as u64 | (to as u64) << 8 | (kind as u64) << 16 | (piece as u64 & 63) << 19)
    }
    #[inline]
    pub fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, MoveKind::Normal, 0)
    }
    #[inline]
    pub fn promotion(from: Square, to: Square, piece: PieceType) -> Move {
        Move::pack(from, to, MoveKind::Promotion, piece)
    }
    #[inline]
    pub fn piece_promotion(from: Square, to: Square) -> Move {
        Move::pack(from, to, MoveKind::PiecePromotion, 0)
    }
    #[inline]
    pub fn piece_demotion(from: Square, to: Square) -> Move {
        Move::pack(from, to, MoveKind::PieceDemotion, 0)
    }
    #[inline]
    pub fn drop(piece: PieceType, to: Square) -> Move {
        Move::pack(to, to, MoveKind::Drop, piece)
    }
    /// A drop of `piece` from the hand that lands in its promoted form.
    #[inline]
    pub fn promoted_drop(piece: PieceType, to: Square) -> Move {
        Move(Move::drop(piece, to).0 | 1 << 52)
    }
    #[inline]
    pub fn castling(king: Square, rook: Square) -> Move {
        Move::pack(king, rook, MoveKind::Castling, 0)
    }
    #[inline]
    pub fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, MoveKind::EnPassant, 0)
    }
    #[inline]
    pub fn pass(square: Square) -> Move {
        Move::pack(square, square, MoveKind::Pass, 0)
    }

    /// Adds an intermediate square (the end of a non-final leg). Up to two.
    #[inline]
    pub fn with_extra(self, sq: Square, captured: bool) -> Move {
        let slot = if self.0 & 1 << 40 == 0 { 32 } else { 42 };
        Move(self.0 | (sq as u64) << slot | 1 << (slot + 8) | (captured as u64) << (slot + 9))
    }
    /// Adds the wall square the move places (walling variants: arrow, duck, ...).
    #[inline]
    pub fn with_wall(self, sq: Square) -> Move {
        Move(self.0 & !(0x1ff << 53) | (sq as u64) << 53 | 1 << 61)
    }
    /// The wall square the move places, if any.
    #[inline]
    pub fn wall(self) -> Option<Square> {
        (self.0 & 1 << 61 != 0).then_some((self.0 >> 53) as u8)
    }
    /// The move without its wall square.
    #[inline]
    pub fn without_wall(self) -> Move {
        Move(self.0 & !(0x1ff << 53))
    }
    /// Adds seirawan-style gating of `piece` (on the from square, or on the rook
    /// square of a castling move when `on_rook`).
    #[inline]
    pub fn with_gate(self, piece: PieceType, on_rook: bool) -> Move {
        Move(self.0 | ((piece as u64 + 1) & 63) << 25 | (on_rook as u64) << 31)
    }

    #[inline]
    pub fn from(self) -> Square {
        self.0 as u8
    }
    #[inline]
    pub fn to(self) -> Square {
        (self.0 >> 8) as u8
    }
    #[inline]
    pub fn kind(self) -> MoveKind {
        MoveKind::from_bits(self.0 >> 16 & 7)
    }
    /// Promotion target (Promotion) or the type taken from the hand (Drop).
    #[inline]
    pub fn piece(self) -> PieceType {
        (self.0 >> 19 & 63) as PieceType
    }
    #[inline]
    pub fn is_drop(self) -> bool {
        self.kind() == MoveKind::Drop
    }
    #[inline]
    pub fn is_promoted_drop(self) -> bool {
        self.0 & 1 << 52 != 0
    }
    #[inline]
    pub fn gate(self) -> Option<PieceType> {
        let g = self.0 >> 25 & 63;
        (g != 0).then(|| (g - 1) as PieceType)
    }
    #[inline]
    pub fn gate_on_rook(self) -> bool {
        self.0 & 1 << 31 != 0
    }
    #[inline]
    pub fn has_extra(self) -> bool {
        self.0 & 1 << 40 != 0
    }
    /// The intermediate squares in leg order, with "captured there" flags.
    #[inline]
    pub fn extras(self) -> impl Iterator<Item = (Square, bool)> {
        let m = self.0;
        [32u32, 42]
            .into_iter()
            .filter(move |&s| m & 1 << (s + 8) != 0)
            .map(move |s| ((m >> s) as u8, m & 1 << (s + 9) != 0))
    }
    pub fn extra_squares(self) -> impl Iterator<Item = Square> {
        self.extras().map(|(s, _)| s)
    }
    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// A list of moves, reused between calls so that generation does not allocate.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    pub moves: Vec<Move>,
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: Vec::with_capacity(256),
        }
    }
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves.push(m);
    }
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves.iter()
    }
    pub fn contains(&self, m: Move) -> bool {
        self.moves.contains(&m)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}
