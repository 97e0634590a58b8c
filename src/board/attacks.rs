//! Attack tests: is a square attacked by a side, is the side to move in check?
//! Reverse probes from the target for simple patterns; forward generation for the
//! rare pieces the probes cannot describe.

use super::tables::LeapGroup;
use super::{Position, Ruleset};
use crate::types::{Color, MoveKind, MoveList, PieceType, Square, SquareSet};
use std::cell::RefCell;

thread_local! {
    /// The move list `complex_attack` generates a piece's moves into.
    static COMPLEX_SCRATCH: RefCell<MoveList> = RefCell::new(MoveList::new());
}

impl Ruleset {
    /// True when the side to move has a royal piece under attack (or its general faces
    /// the other one).
    pub fn in_check(&self, pos: &Position) -> bool {
        let us = pos.side_to_move();
        self.royal_attacked(pos, us)
            || (self.pseudo_royal && self.pseudo_royal_attacked(pos, us))
            || (self.variant.duple_check && self.duple_checked(pos, us))
    }

    /// The pieces giving check to the side to move's royal pieces.
    pub fn checkers(&self, pos: &Position) -> SquareSet {
        let us = pos.side_to_move();
        pos.royals(us).iter().fold(SquareSet::EMPTY, |s, k| {
            s.or(&self.attackers_to(pos, k, us.flip()))
        })
    }

    /// Shatar: is the check on the side to move a shak (one of the checkers a
    /// knight, rook or bers)?
    pub fn is_shak(&self, pos: &Position) -> bool {
        self.shak_types != 0
            && self
                .checkers(pos)
                .iter()
                .any(|sq| self.shak_types & 1u64 << pos.piece_at(sq).kind() != 0)
    }

    /// Duple check: `c` has pieces of the extinction types on the board and every one
    /// of them is attacked (touching enemy pseudo-royals protect, as for check).
    pub fn duple_checked(&self, pos: &Position, c: Color) -> bool {
        let mut ours = SquareSet::EMPTY;
        let mut ty = self.variant.extinction_piece_types;
        while ty != 0 {
            let t = ty.trailing_zeros() as PieceType;
            ty &= ty - 1;
            ours |= pos.pieces_of(c, t);
        }
        let theirs = self.pseudo_royals(pos, c.flip());
        !ours.is_empty()
            && ours
                .iter()
                .all(|sq| self.any_attacked(pos, c, SquareSet::single(sq), theirs))
    }

    /// Is any royal piece of `c` attacked?
    pub fn royal_attacked(&self, pos: &Position, c: Color) -> bool {
        if self.royal_types == 0 {
            return false;
        }
        let royals = pos.royals(c);
        for sq in royals.iter() {
            if self.attacked_by(pos, sq, c.flip()) {
                return true;
            }
        }
        if self.variant.flying_general
            && let (Some(a), Some(b)) = (royals.first(), pos.royals(c.flip()).first())
            && self.generals_face(pos, a, b)
        {
            return true;
        }
        false
    }

    /// Two royal pieces on one file with nothing between them.
    pub fn generals_face(&self, pos: &Position, a: Square, b: Square) -> bool {
        let g = self.variant.geometry;
        if g.file(a) != g.file(b) {
            return false;
        }
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        let mut sq = lo as usize + g.files as usize;
        while sq < hi as usize {
            if pos.piece_at(sq as Square).is_some() {
                return false;
            }
            sq += g.files as usize;
        }
        true
    }

    /// The squares of `c`'s pseudo-royal pieces (types with few enough pieces left).
    pub fn pseudo_royals(&self, pos: &Position, c: Color) -> SquareSet {
        self.pseudo_royals_counted(pos, c, |t| pos.count(c, t))
    }

    /// The pieces of `c` on the board whose types are pseudo-royal when the type
    /// has `count(type)` pieces.
    pub(crate) fn pseudo_royals_counted(
        &self,
        pos: &Position,
        c: Color,
        count: impl Fn(PieceType) -> u32,
    ) -> SquareSet {
        let limit = self.variant.extinction_piece_count + 1;
        let mut s = SquareSet::EMPTY;
        let mut ty = self.variant.extinction_piece_types;
        while ty != 0 {
            let t = ty.trailing_zeros() as PieceType;
            ty &= ty - 1;
            if count(t) <= limit {
                s |= pos.pieces_of(c, t);
            }
        }
        s
    }

    /// Is a pseudo-royal piece of `c` attacked (touching enemy pseudo-royals are
    /// immune in blast variants)?
    pub fn pseudo_royal_attacked(&self, pos: &Position, c: Color) -> bool {
        let ours = self.pseudo_royals(pos, c);
        let theirs = self.pseudo_royals(pos, c.flip());
        self.any_attacked(pos, c, ours, theirs)
    }

    /// Is one of `ours` (pseudo-royal pieces of `c`) attacked by the other side?
    /// In blast variants a piece touching one of `theirs` (the enemy's pseudo-royal
    /// pieces) is immune: capturing it would blow up the capturer's own.
    pub(crate) fn any_attacked(
        &self,
        pos: &Position,
        c: Color,
        ours: SquareSet,
        theirs: SquareSet,
    ) -> bool {
        let g = self.variant.geometry;
        ours.iter().any(|sq| {
            let immune = self.variant.blast_on_capture
                && theirs.iter().any(|o| {
                    (g.file(o) as i32 - g.file(sq) as i32).abs() <= 1
                        && (g.rank(o) as i32 - g.rank(sq) as i32).abs() <= 1
                });
            !immune && self.attacked_by_capturer(pos, sq, c.flip())
        })
    }

    /// [`attacked_by`](Self::attacked_by), leaving out attackers that could not
    /// capture a pseudo-royal piece: those that petrify and are pseudo-royal
    /// themselves (the capture would turn them into a wall).
    fn attacked_by_capturer(&self, pos: &Position, target: Square, by: Color) -> bool {
        let v = &self.variant;
        let unable = v.petrify_on_capture_types & v.extinction_piece_types;
        if unable == 0 {
            return self.attacked_by(pos, target, by);
        }
        self.attackers_to(pos, target, by)
            .iter()
            .any(|a| unable & 1u64 << pos.piece_at(a).kind() == 0)
    }

    /// Is `target` attacked by a piece of colour `by` (captures that could take a royal
    /// piece there: tame moves excluded)?
    pub fn attacked_by(&self, pos: &Position, target: Square, by: Color) -> bool {
        // Walls block lines like pieces.
        if self.attacked_on(pos, target, by, &(pos.occupied() | pos.walls())) {
            return true;
        }
        let complex = self.tables.complex_attackers[by as usize];
        complex != 0
            && !self
                .complex_attack(pos, target, by, complex, true)
                .is_empty()
    }

    /// [`attacked_by`](Self::attacked_by) on occupancy `occ` (the board's with some
    /// squares emptied: only pieces standing in `occ` attack), counting only the
    /// attacks the probes describe (no complex attackers).
    pub fn attacked_on(&self, pos: &Position, target: Square, by: Color, occ: &SquareSet) -> bool {
        let t = &self.tables;
        let candidates = pos.pieces(by).and(occ);
        self.leap_attacked(pos, target, by, &candidates)
            || t.other_probes_of(by, target).iter().any(|p| {
                t.probe_may_find(p, &candidates) && self.probe_attacker(pos, p, by, occ).is_some()
            })
    }

    /// The pieces of colour `by` that attack `target` in the sense of
    /// [`attacked_by`](Self::attacked_by): the pieces giving check, when it holds a
    /// royal piece.
    pub fn attackers_to(&self, pos: &Position, target: Square, by: Color) -> SquareSet {
        let occupied = pos.occupied() | pos.walls();
        let mut s = SquareSet::EMPTY;
        let theirs = pos.pieces(by);
        for g in self.tables.leap_groups_of(by, target) {
            for sq in g.from.and(&theirs).iter() {
                if g.types & 1u64 << pos.piece_at(sq).kind() != 0 {
                    s.insert(sq);
                }
            }
        }
        for p in self.tables.other_probes_of(by, target) {
            if !self.tables.probe_may_find(p, &theirs) {
                continue;
            }
            if let Some(sq) = self.probe_attacker(pos, p, by, &occupied) {
                s.insert(sq);
            }
        }
        let complex = self.tables.complex_attackers[by as usize];
        if complex != 0 {
            s = s.or(&self.complex_attack(pos, target, by, complex, false));
        }
        s
    }

    /// Does one of `candidates` (pieces of colour `by`) attack `target` by a plain leap?
    #[inline]
    fn leap_attacked(
        &self,
        pos: &Position,
        target: Square,
        by: Color,
        candidates: &SquareSet,
    ) -> bool {
        self.tables
            .leap_groups_of(by, target)
            .iter()
            .any(|g| self.leap_group_attacker(pos, g, candidates).is_some())
    }

    /// The first of `candidates` (pieces of the attacking colour) that stands on one
    /// of the group's squares and is of one of its types.
    #[inline]
    pub(super) fn leap_group_attacker(
        &self,
        pos: &Position,
        g: &LeapGroup,
        candidates: &SquareSet,
    ) -> Option<Square> {
        g.from
            .and(candidates)
            .iter()
            .find(|&sq| g.types & 1u64 << pos.piece_at(sq).kind() != 0)
    }

    /// Attacks by pieces whose captures the probes cannot describe: generate them.
    /// The attackers' squares (only the first one found when `first_only`).
    fn complex_attack(
        &self,
        pos: &Position,
        target: Square,
        by: Color,
        types: u64,
        first_only: bool,
    ) -> SquareSet {
        // Check tests run at every node: reuse one list per thread instead of allocating
        // a fresh one per call. A nested call (the list already borrowed) gets its own.
        COMPLEX_SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut list) => self.complex_attack_with(pos, target, by, types, first_only, &mut list),
            Err(_) => {
                let mut list = MoveList::new();
                self.complex_attack_with(pos, target, by, types, first_only, &mut list)
            }
        })
    }

    fn complex_attack_with(
        &self,
        pos: &Position,
        target: Square,
        by: Color,
        types: u64,
        first_only: bool,
        list: &mut MoveList,
    ) -> SquareSet {
        let mut attackers = SquareSet::EMPTY;
        let mut ty = types;
        while ty != 0 {
            let t = ty.trailing_zeros() as u8;
            ty &= ty - 1;
            let reach = self.tables.complex_reach
                [(by as usize * self.tables.num_types + t as usize) * 256 + target as usize];
            let generated = self.palace.types & 1u64 << t != 0;
            for from in pos.pieces_of(by, t).and(&reach).iter() {
                let hits = if generated {
                    self.palace_attacks(pos, by, t, from, target)
                } else {
                    list.clear();
                    self.piece_moves(pos, by, from, list, true);
                    list.iter().any(|m| {
                        (m.to() == target && m.kind() != MoveKind::Drop)
                            || m.extras().any(|(s, c)| c && s == target)
                    })
                };
                if hits {
                    attackers.insert(from);
                    if first_only {
                        return attackers;
                    }
                }
            }
        }
        attackers
    }
}
