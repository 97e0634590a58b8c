//! Faster pseudo-legal generation for the search (a stopgap until the rules core has
//! the equivalent): drops through per-type square masks computed once per search
//! instead of testing each square's drop rules, and castling without the gating
//! variants. Produces exactly the moves of `Ruleset::generate_pseudo` (a test
//! compares them); variants whose rules it does not model use the core generator.

use super::checks::CheckHints;
use crate::board::tables::ProbeKind;
use crate::board::{Position, Ruleset};
use crate::types::{Color, Move, MoveList, PieceType, Square, SquareSet};
use std::sync::Arc;

pub struct FastGen {
    rules: Arc<Ruleset>,
    /// Which moves may give check, for pruning before a move is made.
    pub checks: CheckHints,
    /// False: use the core generator for everything.
    enabled: bool,
    /// Squares a type may be dropped on before occupancy and file rules, per colour.
    drop_mask: [Vec<SquareSet>; 2],
    files: Vec<SquareSet>,
}

impl FastGen {
    pub fn new(rules: &Arc<Ruleset>) -> FastGen {
        let v = &rules.variant;
        let g = v.geometry;
        let n = v.num_types();
        let enabled = !v.seirawan_gating && !v.gating && !v.drop_promoted;
        let mut drop_mask = [vec![SquareSet::EMPTY; n], vec![SquareSet::EMPTY; n]];
        for c in Color::BOTH {
            let ci = c as usize;
            for (t, slot) in drop_mask[ci].iter_mut().enumerate() {
                let mut m = v.drop_region[ci] & g.all();
                if let Some(r) = &v.mobility_region[ci][t] {
                    m &= *r;
                }
                if Some(t as PieceType) == rules.pawn_type {
                    if !v.promotion_zone_pawn_drops {
                        m = m.minus(&v.promotion_region[ci]);
                    }
                    if !v.first_rank_pawn_drops {
                        let first = g.rank_set(if c == Color::White { 0 } else { g.ranks - 1 });
                        m = m.minus(&first);
                    }
                }
                if v.immobility_illegal {
                    m = m.minus(&rules.tables.immobile[ci][t]);
                }
                *slot = m;
            }
        }
        FastGen {
            rules: rules.clone(),
            checks: CheckHints::new(rules),
            enabled,
            drop_mask,
            files: (0..g.files).map(|f| g.file_set(f)).collect(),
        }
    }

    /// All pseudo-legal moves (the same set as the core generator's).
    pub fn generate(&self, pos: &Position, list: &mut MoveList) {
        let rules = &*self.rules;
        if !self.enabled {
            rules.generate_pseudo(pos, list);
            return;
        }
        let v = &rules.variant;
        let us = pos.side_to_move();
        for from in pos.pieces(us).iter() {
            rules.piece_moves(pos, us, from, list, false);
        }
        if v.piece_drops {
            self.drops(pos, us, list);
        }
        if v.castling {
            self.castlings(pos, us, list);
        }
        if (v.pass[us as usize] || v.pass_on_stalemate[us as usize])
            && let Some(sq) = pos.royals(us).first().or_else(|| pos.pieces(us).first())
        {
            list.push(Move::pass(sq));
        }
    }

    fn drops(&self, pos: &Position, us: Color, list: &mut MoveList) {
        let v = &self.rules.variant;
        let ci = us as usize;
        let empty_ok = |m: SquareSet| m.minus(&pos.occupied());
        for t in 0..v.num_types() as PieceType {
            if pos.hand(us, t) == 0 {
                continue;
            }
            let mut m = empty_ok(self.drop_mask[ci][t as usize]);
            if v.drop_no_doubled == Some(t) {
                let own = pos.pieces_of(us, t);
                for f in &self.files {
                    if own.and(f).count() >= v.drop_no_doubled_count {
                        m = m.minus(f);
                    }
                }
            }
            for sq in m.iter() {
                list.push(Move::drop(t, sq));
            }
        }
    }

    fn castlings(&self, pos: &Position, us: Color, list: &mut MoveList) {
        let rules = &*self.rules;
        let v = &rules.variant;
        let st = pos.state();
        let Some(king) = st.castling_king[us as usize] else {
            return;
        };
        if st.castling[us as usize].is_empty() {
            return;
        }
        let kp = pos.piece_at(king);
        if kp.is_none() || kp.color() != us || v.castling_king_piece[us as usize] != Some(kp.kind())
        {
            return;
        }
        if rules.royal_types & 1u64 << kp.kind() != 0 && st.in_check {
            return;
        }
        let occ = pos.occupied();
        for rook in st.castling[us as usize].iter() {
            let rp = pos.piece_at(rook);
            if rp.is_none()
                || rp.color() != us
                || v.castling_rook_pieces[us as usize] & 1u64 << rp.kind() == 0
            {
                continue;
            }
            if rules.castling_path(us, king, rook).intersects(&occ) {
                continue;
            }
            list.push(Move::castling(king, rook));
        }
    }

    /// Drops that give contact check to the enemy royal piece (for quiescence): a
    /// leaper's drop anywhere it checks from, a slider's drop next to the royal
    /// piece. Read off the attack probes of the royal square, which list where each
    /// type would attack it from. Drop rules do not depend on gating, so this also
    /// serves the variants whose other moves come from the core generator.
    pub fn checking_drops(&self, pos: &Position, list: &mut MoveList) {
        let rules = &*self.rules;
        let v = &rules.variant;
        let us = pos.side_to_move();
        if !v.piece_drops || pos.hand_total(us) == 0 {
            return;
        }
        let Some(k) = pos.royals(us.flip()).first() else {
            return;
        };
        let mut in_hand = 0u64;
        for t in 0..v.num_types() as PieceType {
            if pos.hand(us, t) > 0 {
                in_hand |= 1 << t;
            }
        }
        let t = &rules.tables;
        let start = list.len();
        for p in t.probes_of(us, k) {
            let types = p.types & in_hand;
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
                ProbeKind::Hop => {}
                ProbeKind::Grasshop => {}
            }
        }
    }

    fn push_drops(
        &self,
        pos: &Position,
        us: Color,
        mut types: u64,
        sq: Square,
        list: &mut MoveList,
        start: usize,
    ) {
        let v = &self.rules.variant;
        while types != 0 {
            let ty = types.trailing_zeros() as PieceType;
            types &= types - 1;
            if !self.drop_mask[us as usize][ty as usize].contains(sq) {
                continue;
            }
            if v.drop_no_doubled == Some(ty) {
                let file = &self.files[v.geometry.file(sq) as usize];
                if pos.pieces_of(us, ty).and(file).count() >= v.drop_no_doubled_count {
                    continue;
                }
            }
            let m = Move::drop(ty, sq);
            if !list.moves[start..].contains(&m) {
                list.push(m);
            }
        }
    }
}
