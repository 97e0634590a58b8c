//! Threats: enemy pieces hanging, weak or attacked by cheaper pieces, squares
//! where the enemy's moves are contested, and (with pawns) pieces that safe pawns
//! attack or would attack after a safe push.

use super::facts::{Facts, PawnMaps, piece_targets};
use super::params::{global_slot, piece_slot};
use super::terms::{GlobalTerm, PieceTerm};
use super::trace::Trace;
use super::{Evaluator, count};
use crate::board::Position;
use crate::types::{Color, Squares};

impl Evaluator {
    /// Enemy pieces attacked and not defended, and those attacked by cheaper pieces,
    /// weighed by their estimated value; the squares where the enemy's moves are
    /// contested; with pawns, the pieces safe pawns attack or would attack after a
    /// safe push.
    pub(super) fn threats<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        facts: &Facts<W>,
        mg: &mut [i32; 2],
        eg: &mut [i32; 2],
        tr: &mut T,
    ) {
        let royal: Squares<W> = pos
            .royals(Color::White)
            .or(&pos.royals(Color::Black))
            .resized();
        for c in Color::BOTH {
            let (ci, ti) = (c as usize, c.flip() as usize);
            let theirs = pos.pieces(c.flip()).resized().minus(&royal);
            let ours = facts.attacks[ci].or(&facts.royal_attacks[ci]);
            let defended = facts.attacks[ti].or(&facts.royal_attacks[ti]);
            if let Some(maps) = &facts.pawns {
                let [a, b] = self.pawn_threats(pos, c, maps, &ours, &defended, tr);
                mg[ci] += a;
                eg[ci] += b;
            }
            if T::ON || self.gw(GlobalTerm::Restricted) != [0, 0] {
                let mut contested = defended.and(&ours);
                if let Some(maps) = &facts.pawns {
                    contested = contested.minus(&maps.attacks[ti]);
                }
                let k = count(&contested);
                mg[ci] += self.gw(GlobalTerm::Restricted)[0] * k;
                eg[ci] += self.gw(GlobalTerm::Restricted)[1] * k;
                tr.linear(c, global_slot(self.n, GlobalTerm::Restricted), k as f32);
            }
            // Hanging: attacked and not defended, or (not a pawn) attacked twice,
            // defended once and by no pawn. Weak: attacked, not defended by a pawn,
            // and not defended twice against a single attack.
            let mut hanging = theirs.and(&ours).minus(&defended);
            let mut strong = facts.attacks2[ti].minus(&facts.attacks2[ci]);
            if let Some(maps) = &facts.pawns {
                hanging |= theirs
                    .minus(&pos.pieces_of(c.flip(), maps.pawn).resized())
                    .and(&facts.attacks2[ci])
                    .minus(&facts.attacks2[ti])
                    .minus(&maps.attacks[ti]);
                strong |= maps.attacks[ti];
            }
            if T::ON || self.threat_on {
                for s in theirs.and(&ours).minus(&strong).iter() {
                    let t = pos.piece_at(s).kind() as usize;
                    mg[ci] += self.pw(t, PieceTerm::Threat)[0];
                    eg[ci] += self.pw(t, PieceTerm::Threat)[1];
                    tr.linear(c, piece_slot(t, PieceTerm::Threat), 1.0);
                }
            }
            for (set, term) in [
                (hanging, GlobalTerm::Hanging),
                (facts.by_lesser[ci], GlobalTerm::ThreatByLesser),
            ] {
                if set.is_empty() {
                    continue;
                }
                let worth: i32 = set
                    .iter()
                    .map(|s| self.basis.estimate[pos.piece_at(s).kind() as usize])
                    .sum();
                let w = self.gw(term);
                mg[ci] += w[0] * worth / 100;
                eg[ci] += w[1] * worth / 100;
                tr.linear(c, global_slot(self.n, term), worth as f32 / 100.0);
            }
        }
    }

    /// The enemy pieces (not pawns, not royal) that colour `c`'s safe pawns attack,
    /// by type, and those a safe pawn push would attack. A pawn or a push square is
    /// safe when the enemy does not attack it or we defend it (`ours`: our attacks,
    /// `theirs_att`: the enemy's).
    fn pawn_threats<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        c: Color,
        maps: &PawnMaps<W>,
        ours: &Squares<W>,
        theirs_att: &Squares<W>,
        tr: &mut T,
    ) -> [i32; 2] {
        let (ci, ti) = (c as usize, c.flip() as usize);
        let p = maps.pawn;
        let occ: Squares<W> = (pos.occupied() | pos.walls()).resized();
        let victims: Squares<W> = pos
            .pieces(c.flip())
            .minus(&pos.royals(c.flip()))
            .minus(&pos.pieces_of(c.flip(), p))
            .resized();
        let mut score = [0, 0];
        let attacked = victims.and(&maps.attacks[ci]);
        if (T::ON || self.threat_by_pawn_on) && !attacked.is_empty() {
            let unsafe_squares = theirs_att.minus(ours);
            let mut safe_attacks = Squares::<W>::EMPTY;
            for sq in pos.pieces_of(c, p).resized().minus(&unsafe_squares).iter() {
                safe_attacks |= piece_targets(&self.rules, c, p, sq, &occ).captures;
            }
            for v in attacked.and(&safe_attacks).iter() {
                let u = pos.piece_at(v).kind() as usize;
                score[0] += self.pw(u, PieceTerm::ThreatByPawn)[0];
                score[1] += self.pw(u, PieceTerm::ThreatByPawn)[1];
                tr.linear(c, piece_slot(u, PieceTerm::ThreatByPawn), 1.0);
            }
        }
        if (T::ON || self.gw(GlobalTerm::PawnPushThreat) != [0, 0]) && !victims.is_empty() {
            let pushes = maps.pushes[ci]
                .minus(&maps.attacks[ti])
                .minus(&theirs_att.minus(ours));
            let mut reach = Squares::<W>::EMPTY;
            for sq in pushes.iter() {
                reach |= piece_targets(&self.rules, c, p, sq, &occ).captures;
            }
            let k = count(&reach.and(&victims));
            score[0] += self.gw(GlobalTerm::PawnPushThreat)[0] * k;
            score[1] += self.gw(GlobalTerm::PawnPushThreat)[1] * k;
            tr.linear(c, global_slot(self.n, GlobalTerm::PawnPushThreat), k as f32);
        }
        score
    }
}
