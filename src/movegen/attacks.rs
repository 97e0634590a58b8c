//! Attack tests: is a square attacked by a side? Reverse probes from the target for
//! simple patterns; forward generation for the rare pieces the probes cannot describe.

use super::Ruleset;
use super::tables::{Probe, ProbeKind};
use crate::board::Position;
use crate::types::{Color, MoveKind, MoveList, Square};

impl Ruleset {
    /// Is `target` attacked by a piece of colour `by` (captures that could take a royal
    /// piece there: tame moves excluded)?
    pub fn attacked_by(&self, pos: &Position, target: Square, by: Color) -> bool {
        let t = &self.tables;
        for p in t.probes_of(by, target) {
            if self.probe_hits(pos, p, by) {
                return true;
            }
        }
        let complex = t.complex_attackers[by as usize];
        if complex != 0 {
            return self.complex_attack(pos, target, by, complex);
        }
        false
    }

    #[inline]
    fn attacker_ok(&self, pos: &Position, p: &Probe, sq: Square, by: Color) -> bool {
        let pc = pos.piece_at(sq);
        pc.is_some()
            && pc.color() == by
            && p.types & 1u64 << pc.kind() != 0
            && (p.from_region == 0 || self.tables.regions[p.from_region as usize - 1].contains(sq))
    }

    #[inline]
    fn probe_hits(&self, pos: &Position, p: &Probe, by: Color) -> bool {
        let t = &self.tables;
        let ray = t.ray(p.start, p.len);
        match p.kind {
            ProbeKind::Leap => {
                let from = ray[0];
                if !self.attacker_ok(pos, p, from, by) {
                    return false;
                }
                let blocks = t.ray(p.block_start, p.block_len as u16);
                if p.must_jump {
                    blocks.iter().all(|&b| pos.piece_at(b).is_some())
                } else {
                    blocks.iter().all(|&b| pos.piece_at(b).is_none())
                }
            }
            ProbeKind::Slide => {
                for &sq in ray {
                    if pos.piece_at(sq).is_some() {
                        return self.attacker_ok(pos, p, sq, by);
                    }
                }
                false
            }
            ProbeKind::Hop => {
                let mut screen = false;
                for &sq in ray {
                    if pos.piece_at(sq).is_some() {
                        if screen {
                            return self.attacker_ok(pos, p, sq, by);
                        }
                        screen = true;
                    }
                }
                false
            }
            ProbeKind::Grasshop => {
                if pos.piece_at(ray[0]).is_none() {
                    return false;
                }
                for &sq in &ray[1..] {
                    if pos.piece_at(sq).is_some() {
                        return self.attacker_ok(pos, p, sq, by);
                    }
                }
                false
            }
        }
    }

    /// Attacks by pieces whose captures the probes cannot describe: generate them.
    fn complex_attack(&self, pos: &Position, target: Square, by: Color, types: u64) -> bool {
        let mut list = MoveList::new();
        let mut ty = types;
        while ty != 0 {
            let t = ty.trailing_zeros() as u8;
            ty &= ty - 1;
            let reach = self.tables.complex_reach
                [(by as usize * self.tables.num_types + t as usize) * 256 + target as usize];
            for from in pos.pieces_of(by, t).and(&reach).iter() {
                list.clear();
                self.piece_moves(pos, by, from, &mut list, true);
                for m in list.iter() {
                    let hits_target = m.to() == target && m.kind() != MoveKind::Drop;
                    if hits_target || m.extras().any(|(s, c)| c && s == target) {
                        return true;
                    }
                }
            }
        }
        false
    }
}
