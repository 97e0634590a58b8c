//! Static exchange evaluation for any piece set: would the sequence of captures on a
//! move's destination, each side always taking with its least valuable attacker,
//! leave the mover at least `threshold` ahead?
//!
//! Attackers are found with the same reverse probes as the attack test, read against
//! an occupancy from which the pieces already exchanged are removed, so sliders behind
//! a capturer (x-rays) join in and a hopper's screen can appear or vanish as pieces
//! leave. Pieces the probes cannot describe (multi-leg captures) are left out: the
//! exchange is then a guess, as it is for pins. Drops exchange like moves from the
//! hand: the dropped piece stands on the square and may be taken.

use super::tables::{Probe, ProbeKind};
use super::{Position, Ruleset};
use crate::types::{Color, MAX_WORDS, Move, MoveKind, Square, Squares, Width};

impl Ruleset {
    /// Does `m` win at least `threshold` by static exchange? `values[t]` is what a
    /// piece of type `t` is worth to the side that takes it (in drop games its board
    /// value plus its value in hand).
    pub fn see_ge(&self, pos: &Position, m: Move, threshold: i32, values: &[i32]) -> bool {
        let us = pos.side_to_move();
        let to = m.to();
        let (mut swap, mover) = match m.kind() {
            MoveKind::Castling | MoveKind::Pass => return threshold <= 0,
            MoveKind::Drop => (0, m.piece()),
            _ => {
                let moving = pos.piece_at(m.from());
                if moving.is_none() {
                    return threshold <= 0;
                }
                let mut gain = 0;
                let victim = pos.piece_at(to);
                if victim.is_some() && victim.color() != us {
                    gain += values[victim.kind() as usize];
                }
                for (sq, captured) in m.extras() {
                    let p = pos.piece_at(sq);
                    if captured && p.is_some() && p.color() != us {
                        gain += values[p.kind() as usize];
                    }
                }
                if m.kind() == MoveKind::EnPassant {
                    gain += self.pawn_type.map_or(0, |p| values[p as usize]);
                }
                match m.kind() {
                    MoveKind::Promotion => {
                        let placed = m.piece();
                        gain += values[placed as usize] - values[moving.kind() as usize];
                        (gain, placed)
                    }
                    MoveKind::PiecePromotion => {
                        match self.variant.promoted_piece_type[moving.kind() as usize] {
                            Some(p) => {
                                gain += values[p as usize] - values[moving.kind() as usize];
                                (gain, p)
                            }
                            None => (gain, moving.kind()),
                        }
                    }
                    MoveKind::PieceDemotion => {
                        let placed = pos.promoted_from(m.from()).unwrap_or(moving.kind());
                        gain += values[placed as usize] - values[moving.kind() as usize];
                        (gain, placed)
                    }
                    _ => (gain, moving.kind()),
                }
            }
        };
        // Exchanges blow up or are forced in some variants: the first capture is all
        // that can be judged.
        if self.variant.blast_on_capture || self.variant.must_capture {
            return swap >= threshold;
        }
        swap -= threshold;
        if swap < 0 {
            return false;
        }
        // If the opponent takes the mover back at once and that is all, are we still
        // at or above the threshold?
        swap = values[mover as usize] - swap;
        if swap <= 0 {
            return true;
        }
        // The exchange in the narrowest sets that hold the board's squares.
        match Width::for_squares(self.variant.geometry.num_squares()) {
            Width::One => self.exchange::<1>(pos, m, swap, values),
            Width::Two => self.exchange::<2>(pos, m, swap, values),
            Width::Full => self.exchange::<MAX_WORDS>(pos, m, swap, values),
        }
    }

    /// The rest of [`Self::see_ge`], with `swap` as it left it: the captures that
    /// follow on `m`'s destination, in square sets of `W` words.
    fn exchange<const W: usize>(
        &self,
        pos: &Position,
        m: Move,
        mut swap: i32,
        values: &[i32],
    ) -> bool {
        let us = pos.side_to_move();
        let to = m.to();
        let mut occ: Squares<W> = (pos.occupied() | pos.walls()).resized();
        if !m.is_drop() {
            occ.remove(m.from());
        }
        for sq in m.extra_squares() {
            occ.remove(sq);
        }
        occ.insert(to);
        // `res` is 1 while the side that moved last is winning the exchange.
        let mut res = 1;
        let mut stm = us;
        // The piece now on `to` and its owner (the mover's piece, or whoever took it).
        loop {
            stm = stm.flip();
            let Some((sq, t)) = self.least_valuable_attacker(pos, to, stm, &occ, values) else {
                break;
            };
            res ^= 1;
            // A royal piece may only take when nothing can take it back.
            if self.royal_types & 1u64 << t != 0 {
                let mut rest = occ;
                rest.remove(sq);
                let defended = self
                    .least_valuable_attacker(pos, to, stm.flip(), &rest, values)
                    .is_some();
                return if defended { res ^ 1 == 1 } else { res == 1 };
            }
            swap = values[t as usize] - swap;
            if swap < res {
                break;
            }
            occ.remove(sq);
        }
        res == 1
    }

    /// The cheapest piece of `by` (among those standing in `occ`) that captures on
    /// `target` given occupancy `occ`; the square of a piece that has already taken
    /// part is absent from `occ`.
    fn least_valuable_attacker<const W: usize>(
        &self,
        pos: &Position,
        target: Square,
        by: Color,
        occ: &Squares<W>,
        values: &[i32],
    ) -> Option<(Square, u8)> {
        let t = &self.tables;
        let mut best: Option<(Square, u8)> = None;
        // Pieces of `by` still in the exchange.
        let candidates = pos.pieces(by).resized().and(occ);
        for g in t.leap_groups_of(by, target) {
            for sq in g.from.resized().and(&candidates).iter() {
                let kind = pos.piece_at(sq).kind();
                if g.types & 1u64 << kind != 0
                    && best.is_none_or(|(_, b)| values[kind as usize] < values[b as usize])
                {
                    best = Some((sq, kind));
                }
            }
        }
        for p in t.other_probes_of(by, target) {
            if !t.probe_may_find(p, &candidates) {
                continue;
            }
            if let Some(sq) = self.probe_attacker(pos, p, by, occ) {
                let kind = pos.piece_at(sq).kind();
                if best.is_none_or(|(_, b)| values[kind as usize] < values[b as usize]) {
                    best = Some((sq, kind));
                }
            }
        }
        best
    }

    /// The square of the piece the probe finds under occupancy `occ`, if it is a
    /// suitable attacker of colour `by`.
    #[inline]
    pub(super) fn probe_attacker<const W: usize>(
        &self,
        pos: &Position,
        p: &Probe,
        by: Color,
        occ: &Squares<W>,
    ) -> Option<Square> {
        let t = &self.tables;
        let ray = t.ray(p.start, p.len);
        let found = match p.kind {
            ProbeKind::Leap => {
                let from = ray[0];
                if !occ.contains(from) {
                    return None;
                }
                let blocks = t.ray(p.block_start, p.block_len as u16);
                let open = if p.must_jump {
                    blocks.iter().all(|&b| occ.contains(b))
                } else {
                    blocks.iter().all(|&b| !occ.contains(b))
                };
                open.then_some(from)
            }
            ProbeKind::Slide => match p.ray {
                Some(r) => t.nearest_occupied(r, occ),
                None => ray.iter().copied().find(|&sq| occ.contains(sq)),
            },
            ProbeKind::Hop => ray.iter().copied().filter(|&sq| occ.contains(sq)).nth(1),
            ProbeKind::Grasshop => {
                if !occ.contains(ray[0]) {
                    None
                } else {
                    ray[1..].iter().copied().find(|&sq| occ.contains(sq))
                }
            }
        }?;
        let pc = pos.piece_at(found);
        let ok = pc.is_some()
            && pc.color() == by
            && p.types & 1u64 << pc.kind() != 0
            && (p.from_region == 0 || t.regions[p.from_region as usize - 1].contains(found));
        ok.then_some(found)
    }
}
