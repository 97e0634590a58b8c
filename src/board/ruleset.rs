//! The compiled variant: a [`Variant`] with its move tables and the facts derived from
//! it once, and the rules a move's own consequences follow (castling squares, en
//! passant squares, the n-move rule's reversible moves). Positions share it through an
//! `Arc`.

use super::cambodian::CambodianTypes;
use super::counting::CountingTypes;
use super::drops::DropSquares;
use super::palace::Palace;
use super::position::Board;
use super::tables::{self, Tables};
use super::walk::StepMode;
use super::walls::QuietTargets;
use crate::types::{Color, PieceType, Square, SquareSet, TypeSet};
use crate::variant::{GameValue, Variant, WallingRule};
use crate::xbetza::Component;
use crate::xbetza::{AtomShape, Range};
use std::sync::Arc;

/// A variant together with its compiled move tables and the facts derived from it
/// once. Positions share it through an `Arc`.
pub struct Ruleset {
    pub variant: Arc<Variant>,
    pub(super) tables: Tables,
    /// Where each type may be dropped, before occupancy.
    pub(super) drop_squares: DropSquares,
    pub royal_types: TypeSet,
    pub pawn_type: Option<PieceType>,
    /// True when a fast pin-based legality test is valid for this variant.
    pub simple_legality: bool,
    /// Types that are pseudo-royal while few enough of them remain.
    pub pseudo_royal: bool,
    /// Types with a multi-leg component (their moves need deduplication).
    pub multi_leg_types: TypeSet,
    /// Castling distance given by an `O` atom in the king's XBetza, if any.
    pub castle_distance: Option<u8>,
    /// Shatar: the types whose checks are shaks (knight, rook, bers), and the
    /// knight, whose mates alone do not count. Empty unless the variant has
    /// shatarMateRule.
    pub shak_types: TypeSet,
    pub knight_types: TypeSet,
    /// The types Cambodian chess's first moves name (see cambodian.rs).
    pub(super) cambodian: CambodianTypes,
    /// The types the counting rules count (see counting.rs).
    pub(super) counting: CountingTypes,
    /// Janggi: the cannons and the moves along the marked diagonals.
    pub palace: Palace,
    /// Every move places a wall (walling variants other than wall-or-move).
    pub walls_with_moves: bool,
    /// A side may place a wall instead of moving (wall-or-move variants).
    pub walls_instead: bool,
    /// Per colour: where a piece of a promoting type may stand to promote with its
    /// next move (the promotion region, and the squares from which it moves into it
    /// on an empty board). Quiescence looks for quiet promotions from these only.
    pub promotion_from: [SquareSet; 2],
    /// Per colour: the types whose every target is one plain move (no region,
    /// promotion, demotion, immobility test or gating to consider).
    pub(super) plain_movers: [TypeSet; 2],
    /// Types with an initial (`i`) move of one leg: the only moves besides the
    /// pawn's that may leave en-passant squares.
    initial_movers: TypeSet,
}

impl std::fmt::Debug for Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ruleset({})", self.variant.name)
    }
}

impl Ruleset {
    pub fn new(variant: Arc<Variant>) -> Arc<Ruleset> {
        let palace = Palace::new(&variant);
        let tables = tables::build(&variant, palace.types);
        let royal_types = variant.royal_types();
        let pawn_type = variant.type_by_slot("pawn");
        // The types with a move component of some kind.
        let types_with = |has: fn(&Component) -> bool| {
            variant
                .pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| p.moves.components.iter().any(has))
                .fold(0, |a, (i, _)| a | 1u64 << i)
        };
        let multi_leg_types = types_with(|c| c.is_multi_leg());
        let initial_movers = types_with(|c| c.initial && !c.is_multi_leg());
        let pseudo_royal = variant.extinction_pseudo_royal;
        let castle_distance = variant.pieces.iter().filter(|p| p.royal).find_map(|p| {
            p.moves
                .components
                .iter()
                .find_map(|c| match (c.atom.shape, c.legs[0].range) {
                    (AtomShape::Castle, Range::Limited(n)) => Some(n),
                    (AtomShape::Castle, _) => Some(1),
                    _ => None,
                })
        });
        let walls_with_moves = variant.walling_rule != WallingRule::None && !variant.wall_or_move;
        let walls_instead = variant.walling_rule != WallingRule::None && variant.wall_or_move;
        let simple_legality = !pseudo_royal
            && variant.walling_rule == WallingRule::None
            && !variant.duple_check
            && !variant.blast_on_capture
            && variant.checking
            && variant.drop_checks
            && !variant.must_drop
            && !variant.drop_opposite_colored_bishop
            && variant.mutually_immune_types == 0
            && tables.complex_attackers == [0, 0]
            && !variant.pass_on_stalemate[0]
            && !variant.pass_on_stalemate[1]
            && !variant.bikjang_rule
            && !variant.sittuyin_promotion;
        let types_of = |slots: &[&str]| {
            variant
                .pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| variant.shatar_mate_rule && slots.contains(&p.slot.as_str()))
                .fold(0, |a, (i, _)| a | 1u64 << i)
        };
        let shak_types = types_of(&["knight", "rook", "bers"]);
        let knight_types = types_of(&["knight"]);
        let drop_squares = DropSquares::new(&variant, &tables, pawn_type);
        let cambodian = CambodianTypes::new(&variant);
        let counting = CountingTypes::new(&variant);
        let mut rules = Ruleset {
            variant,
            tables,
            drop_squares,
            royal_types,
            pawn_type,
            simple_legality,
            pseudo_royal,
            multi_leg_types,
            castle_distance,
            shak_types,
            knight_types,
            cambodian,
            counting,
            palace,
            walls_with_moves,
            walls_instead,
            promotion_from: [SquareSet::EMPTY; 2],
            plain_movers: [0; 2],
            initial_movers,
        };
        rules.promotion_from = rules.promotion_sources();
        rules.plain_movers = rules.plain_movers();
        Arc::new(rules)
    }

    /// See [`Ruleset::plain_movers`]: what `PieceMoves::add_move` would test.
    fn plain_movers(&self) -> [TypeSet; 2] {
        let v = &self.variant;
        let mut plain = [0; 2];
        if v.seirawan_gating || v.piece_demotion {
            return plain;
        }
        for c in Color::BOTH {
            let ci = c as usize;
            for t in 0..v.num_types() {
                let bit = 1u64 << t;
                let is_plain = v.mobility_region[ci][t].is_none()
                    && self.pawn_type != Some(t as PieceType)
                    && v.promotion_pawn_types[ci] & bit == 0
                    && v.promoted_piece_type[t].is_none()
                    && (!v.immobility_illegal || self.tables.immobile[ci][t].is_empty());
                if is_plain {
                    plain[ci] |= bit;
                }
            }
        }
        plain
    }

    /// See [`Ruleset::promotion_from`]. A type with multi-leg moves may promote from
    /// anywhere.
    fn promotion_sources(&self) -> [SquareSet; 2] {
        let v = &self.variant;
        let mut from = [SquareSet::EMPTY; 2];
        for c in Color::BOTH {
            let ci = c as usize;
            let region = v.promotion_region[ci];
            from[ci] = region;
            let mut types = v.promotion_pawn_types[ci];
            while types != 0 {
                let t = types.trailing_zeros() as PieceType;
                types &= types - 1;
                for sq in v.geometry.squares() {
                    let mut quiet = QuietTargets(SquareSet::EMPTY);
                    let [moves, _] = self.walk_sets(c, t, sq, &SquareSet::EMPTY, &mut quiet);
                    if self.multi_leg_types & 1u64 << t != 0
                        || moves.or(&quiet.0).intersects(&region)
                    {
                        from[ci].insert(sq);
                    }
                }
            }
        }
        from
    }

    /// Can the extinction rule end a game: the variant has one, and its pieces can
    /// be lost (pseudo-royal extinction pieces cannot be captured, unless captures
    /// explode around them)? The game-end rules test it before counting pieces, and
    /// a position without those pieces is accepted only where it holds.
    #[inline]
    pub fn extinction_ends_games(&self) -> bool {
        let v = &self.variant;
        v.extinction_value != GameValue::None && (!v.extinction_pseudo_royal || v.blast_on_capture)
    }

    #[inline]
    pub fn castling_rank(&self, c: Color) -> u8 {
        let g = self.variant.geometry;
        if c == Color::White {
            self.variant.castling_rank
        } else {
            g.ranks - 1 - self.variant.castling_rank
        }
    }

    /// King and rook destinations of a castling move (king square, rook square).
    pub fn castling_destinations(&self, us: Color, king: Square, rook: Square) -> (Square, Square) {
        let g = self.variant.geometry;
        let rank = self.castling_rank(us);
        let kingside = rook > king;
        if let Some(n) = self.castle_distance {
            // XBetza castling: the king moves n squares towards the rook, which jumps
            // to the square on its other side.
            let kf = g.file(king) as i32 + if kingside { n as i32 } else { -(n as i32) };
            let kto = g.square(kf.clamp(0, g.files as i32 - 1) as u8, g.rank(king));
            let rto = if kingside { kto - 1 } else { kto + 1 };
            return (kto, rto);
        }
        let kfile = if kingside {
            self.variant.castling_kingside_file
        } else {
            self.variant.castling_queenside_file
        };
        let kto = g.square(kfile, rank);
        let rto = if kingside { kto - 1 } else { kto + 1 };
        (kto, rto)
    }

    /// Squares that must be empty for castling (both paths, without king and rook).
    pub fn castling_path(&self, us: Color, king: Square, rook: Square) -> SquareSet {
        let (kto, rto) = self.castling_destinations(us, king, rook);
        let mut s = SquareSet::EMPTY;
        for (a, b) in [(king, kto), (rook, rto)] {
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            for x in lo..=hi {
                s.insert(x);
            }
        }
        s.remove(king);
        s.remove(rook);
        s
    }

    /// Whether the type's move to `to` from `from` could be reversed by the same piece
    /// (Fairy-Stockfish: n-move-rule types reset the counter unless the move is reversible).
    pub fn is_reversible(&self, us: Color, kind: PieceType, to: Square, from: Square) -> bool {
        self.steps(us, kind, to)
            .any(|s| s.mode().contains(StepMode::MOVE) && s.reach().contains(&from))
    }

    /// After a piece moved from `from` to `to`: set the en passant squares if it made a
    /// double (or triple) step.
    pub(super) fn set_ep_after_move(
        &self,
        board: &mut Board,
        us: Color,
        kind: PieceType,
        from: Square,
        to: Square,
    ) {
        let v = &self.variant;
        let g = v.geometry;
        let them = us.flip();
        if Some(kind) == self.pawn_type {
            // A double or triple step straight ahead: `dr` whole ranks on the
            // same file (told apart by the square numbers, without dividing).
            let dir = if us == Color::White { 1 } else { -1 };
            let delta = to as i32 - from as i32;
            let files = g.files as i32;
            let dr = if delta == 2 * dir * files {
                2 * dir
            } else if delta == 3 * dir * files {
                3 * dir
            } else {
                return;
            };
            let mut any = false;
            for k in 1..dr.abs() {
                let Some(sq) = g.offset(from, 0, k * dir) else {
                    continue;
                };
                if !v.en_passant_region[them as usize].contains(sq) {
                    continue;
                }
                // Only when an enemy pawn could take (or other types may take e.p.).
                let others = v.en_passant_types[them as usize] & !(1u64 << kind) != 0;
                let pawn_attacks = [-1, 1].iter().any(|&dx| {
                    g.offset(sq, dx, dir).is_some_and(|a| {
                        let p = board.piece_at(a);
                        p.is_some() && p.color() == them && p.kind() == kind
                    })
                });
                if others || pawn_attacks {
                    board.toggle_ep(sq);
                    any = true;
                }
            }
            if any {
                board.set_ep_victim(to);
            }
            return;
        }
        if v.en_passant_types[them as usize] == 0 || self.initial_movers & 1u64 << kind == 0 {
            return;
        }
        // Other pieces: a move only their initial moves allow passes squares that
        // become en passant squares.
        let normal = self.steps(us, kind, from).any(|s| {
            s.mode().contains(StepMode::MOVE)
                && !s.mode().contains(StepMode::INITIAL)
                && s.reach().contains(&to)
        });
        if normal || !self.initial_reach(us, kind, from, to) {
            return;
        }
        let df = g.file(to) as i32 - g.file(from) as i32;
        let dr = g.rank(to) as i32 - g.rank(from) as i32;
        let n = df.abs().max(dr.abs());
        if n < 2 || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return;
        }
        let (sx, sy) = (df.signum(), dr.signum());
        let mut any = false;
        for k in 1..n {
            if let Some(sq) = g.offset(from, sx * k, sy * k)
                && v.en_passant_region[them as usize].contains(sq)
            {
                board.toggle_ep(sq);
                any = true;
            }
        }
        if any {
            board.set_ep_victim(to);
        }
    }

    /// Can the type reach `to` from `from` with one of its initial (`i`) moves?
    fn initial_reach(&self, us: Color, kind: PieceType, from: Square, to: Square) -> bool {
        let v = &self.variant;
        if !v.double_step_region[us as usize].contains(from) {
            return false;
        }
        v.pieces[kind as usize].moves.components.iter().any(|c| {
            c.initial && !c.is_multi_leg() && {
                let g = v.geometry;
                let sign = if us == Color::White { 1 } else { -1 };
                c.legs[0].directions.iter().any(|&d| {
                    let (x, y) = c.atom.vector(d);
                    let mut cur = from;
                    for _ in 0..c.legs[0].range.max_steps().min(16) {
                        match g.offset(cur, x * sign, y * sign) {
                            Some(n) => {
                                if n == to {
                                    return true;
                                }
                                cur = n;
                            }
                            None => break,
                        }
                    }
                    false
                })
            }
        })
    }

    /// The en passant victim when the state does not name one (position set from FEN):
    /// the closest enemy piece behind the e.p. square.
    pub(super) fn ep_victim_fallback(&self, board: &Board, to: Square) -> Option<Square> {
        let g = self.variant.geometry;
        let us = board.side_to_move();
        // `board` is mid-move: the side to move is still the capturer.
        let dir = if us == Color::White { -1 } else { 1 };
        let mut cur = to;
        while let Some(n) = g.offset(cur, 0, dir) {
            let p = board.piece_at(n);
            if p.is_some() {
                return (p.color() != us).then_some(n);
            }
            cur = n;
        }
        None
    }
}
