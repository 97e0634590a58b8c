//! Drops: the squares each type may be dropped (or gated) on, computed once per
//! variant; the drop moves of a position; and the drops that give contact check,
//! read off the attack probes of the enemy royal square (for quiescence).

use super::tables::{ProbeKind, Tables};
use super::{Position, Ruleset};
use crate::types::{Color, Move, MoveList, PieceType, Square, SquareSet};
use crate::variant::{Enclosing, Variant};

/// Where each type may be dropped by the rules that do not depend on the position
/// (drop region, mobility region, pawn-drop rules, immobility), per colour and type.
/// Occupancy and the no-doubled-file rule are tested per position.
pub(super) struct DropSquares {
    /// Drops from the hand.
    drop: [Vec<SquareSet>; 2],
    /// Gating: a gated piece may stand where it could not move from.
    gate: [Vec<SquareSet>; 2],
    /// The squares of each file (for the no-doubled-file rule).
    files: Vec<SquareSet>,
}

impl DropSquares {
    pub(super) fn new(v: &Variant, tables: &Tables, pawn_type: Option<PieceType>) -> DropSquares {
        let g = v.geometry;
        let n = v.num_types();
        let mut drop = [vec![SquareSet::EMPTY; n], vec![SquareSet::EMPTY; n]];
        let mut gate = drop.clone();
        for c in Color::BOTH {
            let ci = c as usize;
            for t in 0..n {
                let mut m = v.drop_region[ci] & g.all();
                if let Some(r) = &v.mobility_region[ci][t] {
                    m &= *r;
                }
                if Some(t as PieceType) == pawn_type {
                    if !v.promotion_zone_pawn_drops {
                        m = m.minus(&v.promotion_region[ci]);
                    }
                    if !v.first_rank_pawn_drops {
                        let first = g.rank_set(if c == Color::White { 0 } else { g.ranks - 1 });
                        m = m.minus(&first);
                    }
                }
                if v.sittuyin_rook_drop && v.pieces[t].slot == "rook" {
                    // Sittuyin's set-up: rooks go on the first rank.
                    m &= g.rank_set(if c == Color::White { 0 } else { g.ranks - 1 });
                }
                gate[ci][t] = m;
                if v.immobility_illegal {
                    m = m.minus(&tables.immobile[ci][t]);
                }
                drop[ci][t] = m;
            }
        }
        DropSquares {
            drop,
            gate,
            files: (0..g.files).map(|f| g.file_set(f)).collect(),
        }
    }
}

impl Ruleset {
    /// May a piece of type `t` be dropped (or gated) on `sq`, by the drop-region rules
    /// (emptiness aside)?
    #[inline]
    pub(crate) fn drop_allowed(
        &self,
        pos: &Position,
        us: Color,
        t: PieceType,
        sq: Square,
        gating: bool,
    ) -> bool {
        let d = &self.drop_squares;
        let squares = if gating { &d.gate } else { &d.drop };
        let enclosing = self.variant.connect.enclosing_drop;
        let encloses = || {
            enclosing == Enclosing::None
                || self
                    .enclosing_drop_squares(
                        SquareSet::single(sq),
                        pos.pieces(us),
                        pos.pieces(us.flip()),
                    )
                    .contains(sq)
        };
        if enclosing == Enclosing::Anyside {
            // Pushed in from an edge: the drop region does not apply.
            return encloses();
        }
        squares[us as usize][t as usize].contains(sq)
            && !self.file_full(pos, us, t, sq)
            && encloses()
    }

    /// May `us` drop a piece of type `t`: one in hand, or any with free drops?
    #[inline]
    pub fn can_drop(&self, pos: &Position, us: Color, t: PieceType) -> bool {
        pos.hand(us, t) > 0 || self.variant.connect.free_drops
    }

    /// Does the no-doubled-file rule forbid another piece of type `t` on `sq`'s file?
    #[inline]
    fn file_full(&self, pos: &Position, us: Color, t: PieceType, sq: Square) -> bool {
        let v = &self.variant;
        v.drop_no_doubled == Some(t) && {
            let file = &self.drop_squares.files[v.geometry.file(sq) as usize];
            pos.pieces_of(us, t).and(file).count() >= v.drop_no_doubled_count
        }
    }

    /// The drop moves of `us`: by type, each type's squares in order.
    pub(super) fn drops(&self, pos: &Position, us: Color, list: &mut MoveList) {
        let v = &self.variant;
        let ci = us as usize;
        let occupied = pos.occupied() | pos.walls();
        let enclosing = v.connect.enclosing_drop != Enclosing::None;
        for t in 0..v.num_types() as PieceType {
            if !self.can_drop(pos, us, t) {
                continue;
            }
            if v.drop_promoted
                && let Some(p) = v.promoted_piece_type[t as usize]
            {
                self.drops_and_promoted_drops(pos, us, t, p, list);
                continue;
            }
            let mut squares = self.drop_squares.drop[ci][t as usize].minus(&occupied);
            if v.drop_no_doubled == Some(t) {
                let own = pos.pieces_of(us, t);
                for file in &self.drop_squares.files {
                    if own.and(file).count() >= v.drop_no_doubled_count {
                        squares = squares.minus(file);
                    }
                }
            }
            if enclosing {
                squares =
                    self.enclosing_drop_squares(squares, pos.pieces(us), pos.pieces(us.flip()));
            }
            for sq in squares.iter() {
                list.push(Move::drop(t, sq));
            }
        }
    }

    /// Drops of type `t` that may also be dropped promoted (to `p`): square by
    /// square, the plain drop and then the promoted one.
    fn drops_and_promoted_drops(
        &self,
        pos: &Position,
        us: Color,
        t: PieceType,
        p: PieceType,
        list: &mut MoveList,
    ) {
        let v = &self.variant;
        let empty = v.geometry.all().minus(&(pos.occupied() | pos.walls()));
        for sq in empty.iter() {
            if self.drop_allowed(pos, us, t, sq, false) {
                list.push(Move::drop(t, sq));
            }
            if self.promoted_drop_allowed(pos, us, p, sq) {
                list.push(Move::promoted_drop(t, sq));
            }
        }
    }

    /// May a piece be dropped on `sq` in its promoted form `p`?
    fn promoted_drop_allowed(&self, pos: &Position, us: Color, p: PieceType, sq: Square) -> bool {
        let v = &self.variant;
        let ci = us as usize;
        self.drop_allowed(pos, us, p, sq, false)
            || (v.drop_region[ci].contains(sq)
                && !(v.immobility_illegal && self.tables.immobile[ci][p as usize].contains(sq)))
    }

    /// Drops that give contact check to the enemy royal piece (for quiescence): a
    /// leaper's drop anywhere it checks from, a slider's drop next to the royal
    /// piece. Read off the attack probes of the royal square, which list where each
    /// type would attack it from.
    pub fn checking_drops(&self, pos: &Position, list: &mut MoveList) {
        let v = &self.variant;
        let us = pos.side_to_move();
        if !v.piece_drops || pos.hand_total(us) == 0 {
            return;
        }
        let Some(k) = pos.royals(us.flip()).first() else {
            return;
        };
        let mut in_hand = 0u64;
        // The promoted forms of the pieces in hand that may be dropped promoted.
        let mut promoted_in_hand = 0u64;
        for t in 0..v.num_types() as PieceType {
            if pos.hand(us, t) > 0 {
                in_hand |= 1 << t;
                if v.drop_promoted
                    && let Some(p) = v.promoted_piece_type[t as usize]
                {
                    promoted_in_hand |= 1 << p;
                }
            }
        }
        let t = &self.tables;
        let start = list.len();
        for p in t.probes_of(us, k) {
            let types = p.types & (in_hand | promoted_in_hand);
            if types == 0 {
                continue;
            }
            let region_ok = |sq: Square| {
                p.from_region == 0 || t.regions[p.from_region as usize - 1].contains(sq)
            };
            let ray = t.ray(p.start, p.len);
            match p.kind {
                ProbeKind::Leap => {
                    let sq = ray[0];
                    let blocks = t.ray(p.block_start, p.block_len as u16);
                    let open = if p.must_jump {
                        blocks.iter().all(|&b| pos.piece_at(b).is_some())
                    } else {
                        blocks.iter().all(|&b| pos.piece_at(b).is_none())
                    };
                    if open && pos.piece_at(sq).is_none() && region_ok(sq) {
                        self.push_drops(pos, us, types, sq, list, start);
                    }
                }
                // Contact checks only: a slider dropped next to the royal piece. Distant
                // checks are many and rarely decisive; these make most drop mates.
                ProbeKind::Slide => {
                    let sq = ray[0];
                    if pos.piece_at(sq).is_none() && region_ok(sq) {
                        self.push_drops(pos, us, types, sq, list, start);
                    }
                }
                ProbeKind::Hop | ProbeKind::Grasshop => {}
            }
        }
    }

    /// Push the drops of `types` on `sq` the drop rules allow and `list[start..]`
    /// does not hold yet.
    fn push_drops(
        &self,
        pos: &Position,
        us: Color,
        mut types: u64,
        sq: Square,
        list: &mut MoveList,
        start: usize,
    ) {
        let v = &self.variant;
        while types != 0 {
            let ty = types.trailing_zeros() as PieceType;
            types &= types - 1;
            if pos.hand(us, ty) > 0 && self.drop_allowed(pos, us, ty, sq, false) {
                let m = Move::drop(ty, sq);
                if !list.moves[start..].contains(&m) {
                    list.push(m);
                }
            }
            // Pieces in hand dropped promoted into this type.
            if !v.drop_promoted || !self.promoted_drop_allowed(pos, us, ty, sq) {
                continue;
            }
            for base in 0..v.num_types() as PieceType {
                if v.promoted_piece_type[base as usize] == Some(ty) && pos.hand(us, base) > 0 {
                    let m = Move::promoted_drop(base, sq);
                    if !list.moves[start..].contains(&m) {
                        list.push(m);
                    }
                }
            }
        }
    }
}
