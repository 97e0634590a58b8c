//! The net's inputs, laid out from the variant: which input each piece on a
//! square, each piece in hand and each wall switches on, for either perspective.
//!
//! For the perspective of colour `p` (White as the board stands, Black with the
//! ranks flipped and own/enemy swapped, so that both see the game from their own
//! side) the inputs are, in this order:
//!
//! 1. one per (own/enemy, piece type, square): `(side * types + type) * squares +
//!    square`, squares numbered `rank * files + file` on the variant's board;
//! 2. pieces in hand, per (own/enemy, piece type) a block of `hand_slots[type]`
//!    inputs of which the first `count` are on (a cumulative count, capped);
//! 3. where the variant can have walls, one input per wall square.
//!
//! [`Layout::fingerprint`] hashes everything a net's weights depend on, so that a
//! net made for another variant or for a changed piece set is refused.

use crate::board::{Position, Ruleset};
use crate::types::{Color, MAX_PIECE_TYPES, Piece, PieceType, Square, absorb, mix64};
use crate::variant::WallingRule;

/// The version of this layout: bump it whenever the meaning of an input changes,
/// so that nets made for the old layout are refused.
pub const LAYOUT_VERSION: u64 = 1;

/// The most hand slots a piece type gets: more of one type in hand than this
/// rarely changes what the position is worth.
pub const MAX_HAND_SLOTS: u8 = 16;

/// Which side a piece belongs to, seen from a perspective.
const OWN: usize = 0;
const ENEMY: usize = 1;

/// What an input stands for, seen from its perspective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A piece of the type on a square (`own`: the perspective's side's).
    Square { own: bool, piece_type: PieceType },
    /// One slot of the count in hand of the type.
    Hand { own: bool, piece_type: PieceType },
    /// A wall on a square.
    Wall,
}

/// The feature layout of one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    files: u8,
    ranks: u8,
    types: usize,
    /// Per piece type, the inputs of its count in hand (0: never counted).
    hand_slots: [u8; MAX_PIECE_TYPES],
    /// Per (own/enemy, type), the first input of that block of hand slots.
    hand_offset: [[u32; MAX_PIECE_TYPES]; 2],
    /// The first wall input, where the variant has walls.
    wall_offset: Option<u32>,
    inputs: u32,
    /// Pieces (board and hands, both sides) in the start position, at least 1:
    /// the output buckets divide 0..=this among themselves.
    start_pieces: u32,
    fingerprint: u64,
}

impl Layout {
    /// The layout of the rules' variant: sized from its board, its pieces, its
    /// start position (hand slots) and whether walls can appear.
    pub fn new(rules: &std::sync::Arc<Ruleset>) -> Layout {
        let v = &rules.variant;
        let start = Position::start(rules);
        let types = v.num_types();
        let mut start_count = [0u32; MAX_PIECE_TYPES];
        let mut in_hand_at_start = false;
        for c in Color::BOTH {
            for (t, n) in start_count.iter_mut().enumerate().take(types) {
                let hand = start.hand(c, t as PieceType) as u32;
                in_hand_at_start |= hand != 0;
                *n += start.count(c, t as PieceType) + hand;
            }
        }
        let has_hands = v.piece_drops || v.captures_to_hand || v.gating || in_hand_at_start;
        let mut hand_slots = [0u8; MAX_PIECE_TYPES];
        if has_hands {
            for t in 0..types {
                // Twice the start count: a side may hold all of its own and all of
                // the enemy's pieces of a type; more slots would rarely be on.
                let n = (2 * start_count[t]).min(MAX_HAND_SLOTS as u32);
                hand_slots[t] = n as u8;
            }
            // Promoted types that return to the hand as themselves (drop loop)
            // share their base type's slots.
            if v.drop_loop {
                for t in 0..types {
                    if let Some(p) = v.promoted_piece_type[t] {
                        let p = p as usize;
                        hand_slots[p] = hand_slots[p].max(hand_slots[t]);
                    }
                }
            }
        }
        let has_walls = v.walling_rule != WallingRule::None
            || v.petrify_on_capture_types != 0
            || v.petrify_blast_pieces
            || !start.walls().is_empty();
        let squares = v.geometry.num_squares() as u32;
        let mut next = 2 * types as u32 * squares;
        let mut hand_offset = [[0u32; MAX_PIECE_TYPES]; 2];
        for side in [OWN, ENEMY] {
            for t in 0..types {
                hand_offset[side][t] = next;
                next += hand_slots[t] as u32;
            }
        }
        let wall_offset = has_walls.then_some(next);
        if has_walls {
            next += squares;
        }
        let start_pieces = start_count.iter().sum::<u32>().max(1);
        let mut layout = Layout {
            files: v.geometry.files,
            ranks: v.geometry.ranks,
            types,
            hand_slots,
            hand_offset,
            wall_offset,
            inputs: next,
            start_pieces,
            fingerprint: 0,
        };
        layout.fingerprint = layout.hash(rules);
        layout
    }

    /// Everything a net depends on, hashed: the layout version, the board, each
    /// piece type's letter and moves, the hand slots, the walls and the buckets'
    /// divisor.
    fn hash(&self, rules: &Ruleset) -> u64 {
        let mut h = absorb(0, LAYOUT_VERSION);
        h = absorb(h, self.files as u64);
        h = absorb(h, self.ranks as u64);
        h = absorb(h, self.types as u64);
        let text = |mut h: u64, s: &str| {
            h = absorb(h, s.len() as u64);
            for b in s.bytes() {
                h = absorb(h, b as u64);
            }
            h
        };
        for (t, p) in rules.variant.pieces.iter().enumerate() {
            h = absorb(h, p.letter as u64);
            h = text(h, &p.betza);
            h = absorb(h, p.royal as u64);
            h = absorb(h, self.hand_slots[t] as u64);
        }
        h = absorb(h, self.wall_offset.is_some() as u64);
        h = absorb(h, self.start_pieces as u64);
        mix64(h)
    }

    /// The number of inputs of one perspective.
    pub fn inputs(&self) -> usize {
        self.inputs as usize
    }

    /// The 64-bit fingerprint a net file must carry to be used with this layout.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The number of piece types.
    pub fn types(&self) -> usize {
        self.types
    }

    /// The hand slots of piece type `t` (0 where its count in hand is no input).
    pub fn hand_slots(&self, t: PieceType) -> u8 {
        self.hand_slots[t as usize]
    }

    /// Whether the wall plane is part of the inputs.
    pub fn has_walls(&self) -> bool {
        self.wall_offset.is_some()
    }

    /// Pieces in the start position (board and hands, both sides; at least 1).
    pub fn start_pieces(&self) -> u32 {
        self.start_pieces
    }

    /// The square as the perspective `p` sees it: Black's board is flipped.
    #[inline]
    fn relative(&self, p: Color, sq: Square) -> u32 {
        let sq = sq as u32;
        match p {
            Color::White => sq,
            Color::Black => {
                let files = self.files as u32;
                let (rank, file) = (sq / files, sq % files);
                (self.ranks as u32 - 1 - rank) * files + file
            }
        }
    }

    /// The input that `piece` on `sq` switches on for perspective `p`, if any
    /// (an empty square none; a wall only where the layout has walls).
    #[inline]
    pub fn square_feature(&self, p: Color, sq: Square, piece: Piece) -> Option<usize> {
        if piece.is_none() {
            return None;
        }
        let rel = self.relative(p, sq);
        if piece.is_wall() {
            return self.wall_offset.map(|w| (w + rel) as usize);
        }
        let t = piece.kind() as usize;
        if t >= self.types {
            return None;
        }
        let side = if piece.color() == p { OWN } else { ENEMY };
        let squares = self.files as u32 * self.ranks as u32;
        Some((((side * self.types + t) as u32) * squares + rel) as usize)
    }

    /// The input of the `slot`-th piece of type `t` (0 = the first) in the hand of
    /// `owner`, for perspective `p`, if the layout counts that many.
    #[inline]
    pub fn hand_feature(&self, p: Color, owner: Color, t: PieceType, slot: u8) -> Option<usize> {
        let t = t as usize;
        if t >= self.types || slot >= self.hand_slots[t] {
            return None;
        }
        let side = if owner == p { OWN } else { ENEMY };
        Some((self.hand_offset[side][t] + slot as u32) as usize)
    }

    /// Input `i` of the board mirrored left to right (files reversed): a piece
    /// or wall input moves to the mirrored square, a hand input stays. The
    /// trainer uses it to double its data where the pieces move alike both ways.
    pub fn mirror_input(&self, i: usize) -> usize {
        let files = self.files as usize;
        let squares = files * self.ranks as usize;
        let mirror = |base: usize, i: usize| {
            let sq = i - base;
            base + (sq / files) * files + (files - 1 - sq % files)
        };
        if i < 2 * self.types * squares {
            return mirror(i / squares * squares, i);
        }
        match self.wall_offset {
            Some(w) if i >= w as usize => mirror(w as usize, i),
            _ => i,
        }
    }

    /// What input `i` (below [`inputs`](Self::inputs)) stands for.
    pub fn kind_of(&self, i: usize) -> InputKind {
        let i = i as u32;
        let squares = self.files as u32 * self.ranks as u32;
        let types = self.types as u32;
        if i < 2 * types * squares {
            let block = i / squares;
            return InputKind::Square {
                own: block < types,
                piece_type: (block % types) as PieceType,
            };
        }
        if self.wall_offset.is_some_and(|w| i >= w) {
            return InputKind::Wall;
        }
        // The hand blocks: the last one starting at or before `i`.
        let mut kind = InputKind::Wall;
        for side in [OWN, ENEMY] {
            for t in 0..self.types {
                if self.hand_slots[t] > 0 && self.hand_offset[side][t] <= i {
                    kind = InputKind::Hand {
                        own: side == OWN,
                        piece_type: t as PieceType,
                    };
                }
            }
        }
        kind
    }

    /// Every input that is on in `pos` for perspective `p`, passed to `f`.
    pub fn for_each_active(&self, pos: &Position, p: Color, mut f: impl FnMut(usize)) {
        for c in Color::BOTH {
            for sq in pos.pieces(c).iter() {
                if let Some(i) = self.square_feature(p, sq, pos.piece_at(sq)) {
                    f(i);
                }
            }
            for t in 0..self.types {
                let n = pos.hand(c, t as PieceType).min(self.hand_slots[t]);
                for slot in 0..n {
                    if let Some(i) = self.hand_feature(p, c, t as PieceType, slot) {
                        f(i);
                    }
                }
            }
        }
        if self.wall_offset.is_some() {
            for sq in pos.walls().iter() {
                if let Some(i) = self.square_feature(p, sq, Piece::WALL) {
                    f(i);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::check_variant;
    use crate::variant::VariantSet;

    fn layout_of(name: &str) -> (std::sync::Arc<Ruleset>, Layout) {
        let set = VariantSet::builtin(check_variant);
        let v = set.get(name).expect("built-in variant");
        let rules = Ruleset::new(v);
        let layout = Layout::new(&rules);
        (rules, layout)
    }

    /// Chess: 6 types on 64 squares for each side, no hands, no walls; the start
    /// position switches on one input per piece, mirrored for Black.
    #[test]
    fn chess_layout() {
        let (rules, layout) = layout_of("chess");
        assert_eq!(layout.inputs(), 2 * 6 * 64);
        assert!(!layout.has_walls());
        assert_eq!(layout.start_pieces(), 32);
        let pos = Position::start(&rules);
        let mut white = Vec::new();
        let mut black = Vec::new();
        layout.for_each_active(&pos, Color::White, |i| white.push(i));
        layout.for_each_active(&pos, Color::Black, |i| black.push(i));
        white.sort_unstable();
        black.sort_unstable();
        assert_eq!(white.len(), 32);
        // The start position is symmetric: both perspectives see the same inputs.
        assert_eq!(white, black);
    }

    /// Crazyhouse counts pieces in hand: 16 slots for pawns (32 in the start
    /// position, capped), 4 for the king (two in the start position).
    #[test]
    fn crazyhouse_hand_slots() {
        let (rules, layout) = layout_of("crazyhouse");
        let pawn = rules.variant.type_of_letter('P').expect("pawn");
        let king = rules.variant.type_of_letter('K').expect("king");
        let knight = rules.variant.type_of_letter('N').expect("knight");
        assert_eq!(layout.hand_slots(pawn), 16);
        assert_eq!(layout.hand_slots(king), 4);
        assert_eq!(layout.hand_slots(knight), 8);
        let slots: u32 = (0..6).map(|t| layout.hand_slots(t) as u32).sum();
        assert_eq!(layout.inputs(), 2 * 6 * 64 + 2 * slots as usize);
    }

    /// Every input's kind agrees with the input its piece switches on.
    #[test]
    fn mirror_input_reverses_files() {
        let (rules, layout) = layout_of("crazyhouse");
        let pos = Position::start(&rules);
        let mut inputs = Vec::new();
        layout.for_each_active(&pos, Color::White, |i| inputs.push(i));
        for &i in &inputs {
            assert_eq!(layout.mirror_input(layout.mirror_input(i)), i);
            assert_eq!(layout.kind_of(layout.mirror_input(i)), layout.kind_of(i));
        }
        // The white king on e1 (square 4) becomes d1 (square 3).
        let king = pos.piece_at(4);
        let e1 = layout
            .square_feature(Color::White, 4, king)
            .expect("an input");
        let d1 = layout
            .square_feature(Color::White, 3, king)
            .expect("an input");
        assert_eq!(layout.mirror_input(e1), d1);
        // A hand input stays.
        let hand = layout
            .hand_feature(Color::White, Color::White, 0, 0)
            .expect("a slot");
        assert_eq!(layout.mirror_input(hand), hand);
    }

    #[test]
    fn kinds_of_inputs() {
        let (rules, layout) = layout_of("crazyhouse");
        let knight = rules.variant.type_of_letter('N').expect("knight");
        let white_knight = Piece::new(Color::White, knight);
        let i = layout
            .square_feature(Color::Black, 3, white_knight)
            .expect("on");
        assert_eq!(
            layout.kind_of(i),
            InputKind::Square {
                own: false,
                piece_type: knight
            }
        );
        for slot in 0..layout.hand_slots(knight) {
            let i = layout
                .hand_feature(Color::White, Color::White, knight, slot)
                .expect("a slot");
            assert_eq!(
                layout.kind_of(i),
                InputKind::Hand {
                    own: true,
                    piece_type: knight
                }
            );
            let i = layout
                .hand_feature(Color::White, Color::Black, knight, slot)
                .expect("a slot");
            assert_eq!(
                layout.kind_of(i),
                InputKind::Hand {
                    own: false,
                    piece_type: knight
                }
            );
        }
        let (_, duck) = layout_of("duck");
        assert_eq!(duck.kind_of(duck.inputs() - 1), InputKind::Wall);
    }

    /// A variant with walls has the wall plane; different variants have different
    /// fingerprints.
    #[test]
    fn walls_and_fingerprints() {
        let (_, duck) = layout_of("duck");
        assert!(duck.has_walls());
        let (_, chess) = layout_of("chess");
        let (_, again) = layout_of("chess");
        assert_eq!(chess.fingerprint(), again.fingerprint());
        assert_ne!(chess.fingerprint(), duck.fingerprint());
        let (_, chess960) = layout_of("fischerandom");
        // Same board, pieces and moves: a chess net fits chess960.
        assert_eq!(chess.fingerprint(), chess960.fingerprint());
    }
}
