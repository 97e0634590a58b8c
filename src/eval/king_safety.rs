//! King safety: the danger to each royal piece (attackers and attacks near it,
//! weak squares, flank attacks and defence, the mobility difference, safe,
//! unsafe and weak checks, drops near it, the enemy's types present, defenders)
//! and its penalty, quadratic in the middlegame.

use super::facts::Facts;
use super::params::{global_slot, piece_slot};
use super::terms::{GlobalTerm, PieceTerm};
use super::trace::Trace;
use super::{DANGER_DIVISOR, Evaluator, count};
use crate::board::Position;
use crate::types::{Color, PieceType, Squares};

impl Evaluator {
    /// The danger to the royal piece of colour `c` (attacks near it, safe checks,
    /// pieces the enemy could drop near it, its defenders) and its penalty.
    pub(super) fn king_danger<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        c: Color,
        facts: &Facts<W>,
        mg: &mut [i32; 2],
        eg: &mut [i32; 2],
        tr: &mut T,
    ) {
        let Some(k) = pos.royals(c).first() else {
            return;
        };
        let n = self.n;
        let (ci, them) = (c as usize, c.flip());
        let ti = them as usize;
        let g = self.rules.variant.geometry;
        let zone: Squares<W> = self.basis.zone[k as usize].resized();
        let slot = |term: GlobalTerm| global_slot(n, term);
        // The enemy's pieces that attack squares next to the royal piece.
        let mut attackers = 0;
        for piece in facts.pieces {
            if piece.colour == them && piece.hits > 0 {
                attackers += self.pw(piece.kind as usize, PieceTerm::Attacker)[0];
                tr.danger(c, piece_slot(piece.kind as usize, PieceTerm::Attacker), 1.0);
            }
        }
        let mut danger = self.gw(GlobalTerm::KingOffset)[0]
            + attackers
            + self.gw(GlobalTerm::KingHits)[0] * facts.hits[ti];
        tr.danger(c, slot(GlobalTerm::KingOffset), 1.0);
        tr.danger(c, slot(GlobalTerm::KingHits), facts.hits[ti] as f32);
        let weak = zone
            .and(&facts.attacks[ti])
            .minus(&facts.attacks[ci])
            .count() as i32;
        danger += self.gw(GlobalTerm::KingWeak)[0] * weak;
        tr.danger(c, slot(GlobalTerm::KingWeak), weak as f32);
        // The flank: what the enemy attacks there (twice counts twice), what we do.
        let camp = self.basis.flank[k as usize]
            .and(&self.basis.camp[ci])
            .resized::<W>();
        let enemy_hits = camp.and(&facts.attacks[ti].or(&facts.royal_attacks[ti]));
        let flank_attacks = count(&enemy_hits) + count(&enemy_hits.and(&facts.attacks2[ti]));
        let flank_defense = count(&camp.and(&facts.attacks[ci].or(&facts.royal_attacks[ci])));
        mg[ci] += self.gw(GlobalTerm::FlankAttacks)[0] * flank_attacks;
        eg[ci] += self.gw(GlobalTerm::FlankAttacks)[1] * flank_attacks;
        tr.linear(c, slot(GlobalTerm::FlankAttacks), flank_attacks as f32);
        let squared = flank_attacks * flank_attacks / 8;
        danger += self.gw(GlobalTerm::KingFlankAttacks)[0] * squared;
        tr.danger(c, slot(GlobalTerm::KingFlankAttacks), squared as f32);
        danger += self.gw(GlobalTerm::KingFlankDefense)[0] * flank_defense;
        tr.danger(c, slot(GlobalTerm::KingFlankDefense), flank_defense as f32);
        let mobility = facts.mobility[ti] - facts.mobility[ci];
        danger += self.gw(GlobalTerm::KingMobility)[0] * mobility;
        tr.danger(c, slot(GlobalTerm::KingMobility), mobility as f32);
        if self.checks {
            // Safe: not attacked by the defender (its royal piece included).
            let defended = facts.attacks[ci].or(&facts.royal_attacks[ci]);
            let safe = g.all().resized().minus(&defended);
            // Weak: attacked by the attacker and held by the royal piece alone, which
            // cannot take back when a second attacker covers the square. A weak
            // check is not safe (it counts as unsafe too); its own weight says how
            // much more it is worth.
            let weak = facts.royal_attacks[ci]
                .minus(&facts.attacks[ci])
                .minus(&facts.attacks2[ci])
                .and(&facts.attacks[ti].or(&facts.royal_attacks[ti]));
            let weak_for_moves = weak.and(&facts.attacks2[ti]);
            let mut unsafe_checks = 0;
            let mut weak_checks = 0;
            for t in 0..n {
                let reached = &facts.checks_reached[ti * n + t];
                if reached.intersects(&safe) {
                    danger += self.pw(t, PieceTerm::Check)[0];
                    tr.danger(c, piece_slot(t, PieceTerm::Check), 1.0);
                } else if !reached.is_empty() {
                    unsafe_checks += 1;
                    if reached.intersects(&weak_for_moves) {
                        weak_checks += 1;
                    }
                }
            }
            danger += self.gw(GlobalTerm::KingUnsafeCheck)[0] * unsafe_checks;
            tr.danger(c, slot(GlobalTerm::KingUnsafeCheck), unsafe_checks as f32);
            if self.drop_game {
                let empty: Squares<W> = g.all().minus(&pos.occupied()).resized();
                for t in 0..n {
                    let h = pos.hand(them, t as PieceType) as i32;
                    if h == 0 {
                        continue;
                    }
                    let squares = self.drop_targets(pos, them, t as PieceType, &empty);
                    let checks = squares.and(&facts.check_squares[ti * n + t]);
                    if checks.intersects(&safe) {
                        danger += self.pw(t, PieceTerm::DropCheck)[0];
                        tr.danger(c, piece_slot(t, PieceTerm::DropCheck), 1.0);
                    } else if checks.intersects(&weak) {
                        // A dropped piece has no attack of its own on its square:
                        // one supporter makes the weak square's check work.
                        weak_checks += 1;
                    }
                    if squares.intersects(&zone) {
                        let h = h.min(2);
                        danger += self.pw(t, PieceTerm::HandDanger)[0] * h;
                        tr.danger(c, piece_slot(t, PieceTerm::HandDanger), h as f32);
                    }
                }
            }
            danger += self.gw(GlobalTerm::KingWeakCheck)[0] * weak_checks;
            tr.danger(c, slot(GlobalTerm::KingWeakCheck), weak_checks as f32);
        }
        for t in 0..n {
            if self.rules.royal_types & 1u64 << t == 0
                && !pos.pieces_of(them, t as PieceType).is_empty()
            {
                danger += self.pw(t, PieceTerm::Presence)[0];
                tr.danger(c, piece_slot(t, PieceTerm::Presence), 1.0);
            }
        }
        for s in zone.and(&pos.pieces(c).resized()).iter() {
            let t = pos.piece_at(s).kind() as usize;
            if self.rules.royal_types & 1u64 << t == 0 {
                danger += self.pw(t, PieceTerm::Defender)[0];
                tr.danger(c, piece_slot(t, PieceTerm::Defender), 1.0);
            }
        }
        if danger > 0 {
            mg[ci] -= danger * danger / DANGER_DIVISOR;
            eg[ci] -= danger * self.gw(GlobalTerm::KingDangerEg)[0] / 64;
        }
    }

    /// The empty squares where colour `c` may drop a piece of type `t`.
    #[inline]
    fn drop_targets<const W: usize>(
        &self,
        pos: &Position,
        c: Color,
        t: PieceType,
        empty: &Squares<W>,
    ) -> Squares<W> {
        let v = &self.rules.variant;
        let mut set = self.basis.drop_squares[c as usize][t as usize]
            .resized()
            .and(empty);
        if v.drop_no_doubled == Some(t) {
            let g = v.geometry;
            let mut files = [0u32; 16];
            for s in pos.pieces_of(c, t).resized::<W>().iter() {
                files[g.file(s) as usize] += 1;
            }
            for (f, &k) in files.iter().enumerate().take(g.files as usize) {
                if k >= v.drop_no_doubled_count {
                    set = set.minus(&g.file_set(f as u8).resized());
                }
            }
        }
        set
    }
}
