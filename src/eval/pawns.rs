//! The pawn terms: structure (doubled, isolated, connected, backward, passed
//! pawns by rank), space, the terms that read the royal pieces too (their
//! distances to passed pawns, shelter, storm, the distance to the nearest pawn,
//! a pawnless flank), the passed pawns' free squares, and the terms of pieces
//! that read the pawns (safe mobility, open files, outposts, behind a pawn).

use super::cache::EvalWidth;
use super::facts::{Facts, PawnMaps, PawnScore};
use super::params::{global_slot, piece_slot};
use super::terms::{GlobalTerm, PieceTerm};
use super::trace::Trace;
use super::{Evaluator, count};
use crate::board::Position;
use crate::types::{Color, PieceType, Square, Squares};

/// Royal pieces further than this from a passed pawn's square ahead count as this far.
const KING_DISTANCE_MAX: usize = 5;

impl Evaluator {
    /// The pawn terms of both colours (none where the variant has no pawns), and
    /// the pawn maps' pawn-only part where the pawn cache keeps them.
    pub(super) fn pawns<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        mg: &mut [i32; 2],
        eg: &mut [i32; 2],
        tr: &mut T,
    ) -> Option<PawnMaps<W>>
    where
        Squares<W>: EvalWidth<W>,
    {
        let n = self.n;
        let p = self.basis.pawn?;
        let (scores, maps) = self.pawn_scores::<T, W>(pos, p, tr);
        for c in Color::BOTH {
            let PawnScore {
                score,
                passed,
                space,
            } = &scores[c as usize];
            let [a, b] = self.passed_free(pos, c, passed, tr);
            mg[c as usize] += score[0] + a;
            eg[c as usize] += score[1] + b;
            // Space counts for more with more pieces to use it.
            let pieces = pos.pieces(c).count() as i32 - 1;
            let x = space * pieces * pieces;
            mg[c as usize] += self.gw(GlobalTerm::Space)[0] * x / 256;
            eg[c as usize] += self.gw(GlobalTerm::Space)[1] * x / 256;
            tr.linear(c, global_slot(n, GlobalTerm::Space), x as f32 / 256.0);
        }
        maps
    }

    /// Doubled, isolated, connected, backward and passed pawns of colour `c` (a
    /// passed pawn by its rank) and the space term's count; and the passed pawns.
    /// It reads the pawns only: the pawn cache keeps it by their squares. The
    /// terms that read the royal pieces too are [`Self::pawn_king_terms`].
    pub(super) fn pawn_structure<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        c: Color,
        p: PieceType,
        tr: &mut T,
    ) -> PawnScore<W> {
        let g = self.rules.variant.geometry;
        let ours: Squares<W> = pos.pieces_of(c, p).resized();
        let mut passed_set = Squares::<W>::EMPTY;
        if ours.is_empty() {
            return PawnScore {
                score: [0, 0],
                passed: passed_set,
                space: 0,
            };
        }
        let theirs: Squares<W> = pos.pieces_of(c.flip(), p).resized();
        let white = c == Color::White;
        let mut files = [0u8; 16];
        for s in ours.iter() {
            files[g.file(s) as usize] += 1;
        }
        // Per file, the most advanced (from our side) enemy pawn's relative rank.
        let mut enemy_front = [-1i32; 18];
        for e in theirs.iter() {
            let f = g.file(e) as usize + 1;
            enemy_front[f] = enemy_front[f].max(g.relative_rank(e, white) as i32);
        }
        // Squares our pawns protect, and those the enemy's attack.
        let pawn_attacks = |side: Color, set: Squares<W>| {
            let mut out = Squares::<W>::EMPTY;
            for s in set.iter() {
                out |= self.rules.leap_captures(side, p, s).resized();
            }
            out
        };
        let protected = pawn_attacks(c, ours);
        let enemy_attacks = pawn_attacks(c.flip(), theirs);
        // Per file, our rearmost pawn's relative rank.
        let mut own_rear = [i32::MAX; 18];
        for s in ours.iter() {
            let f = g.file(s) as usize + 1;
            own_rear[f] = own_rear[f].min(g.relative_rank(s, white) as i32);
        }
        let (mut doubled, mut isolated, mut connected, mut backward) = (0, 0, 0, 0);
        let (mut passed, mut passed2) = (0.0f32, 0.0f32);
        let ahead = if white { 1 } else { -1 };
        let mut score = [0, 0];
        let last = (g.ranks as f32 - 1.0).max(1.0);
        for s in ours.iter() {
            let f = g.file(s) as usize;
            if files[f] > 1 {
                doubled += 1;
            }
            let left = f > 0 && files[f - 1] > 0;
            let right = f + 1 < g.files as usize && files[f + 1] > 0;
            let r = g.relative_rank(s, white) as i32;
            if !left && !right {
                isolated += 1;
            } else if own_rear[f] > r
                && own_rear[f + 2] > r
                && g.offset(s, 0, ahead)
                    .is_some_and(|stop| enemy_attacks.contains(stop) || theirs.contains(stop))
            {
                // No neighbour can come up to support it, and it cannot advance.
                backward += 1;
            }
            let beside = [-1, 1]
                .iter()
                .any(|&dx| g.offset(s, dx, 0).is_some_and(|x| ours.contains(x)));
            if beside || protected.contains(s) {
                connected += 1;
            }
            let blocked = enemy_front[f..f + 3].iter().any(|&x| x > r);
            if !blocked {
                passed_set.insert(s);
                let ri = r as usize;
                let [a, b] = self.passed[ri];
                score[0] += a;
                score[1] += b;
                let x = r as f32 / last;
                if T::ON {
                    passed += x;
                    passed2 += x * x;
                }
            }
        }
        for (term, cnt) in [
            (GlobalTerm::Doubled, doubled),
            (GlobalTerm::Isolated, isolated),
            (GlobalTerm::Connected, connected),
            (GlobalTerm::Backward, backward),
        ] {
            let w = self.gw(term);
            score[0] += cnt * w[0];
            score[1] += cnt * w[1];
            tr.linear(c, global_slot(self.n, term), cnt as f32);
        }
        // Space: the safe squares of the central files in our camp, twice those
        // behind our pawns (up to two squares behind).
        let safe = self.basis.space_area[c as usize]
            .resized()
            .minus(&ours)
            .minus(&enemy_attacks);
        let mut behind = Squares::<W>::EMPTY;
        for s in ours.iter() {
            for back in 1..=2 {
                if let Some(x) = g.offset(s, 0, -back * ahead) {
                    behind.insert(x);
                }
            }
        }
        let space = count(&safe) + count(&safe.and(&behind));
        tr.linear(c, global_slot(self.n, GlobalTerm::Passed), passed);
        tr.linear(c, global_slot(self.n, GlobalTerm::Passed2), passed2);
        PawnScore {
            score,
            passed: passed_set,
            space,
        }
    }

    /// The pawn terms of colour `c` that read the royal pieces too: both royal
    /// pieces' distances to the square ahead of each passed pawn (`passed`, from
    /// [`Self::pawn_structure`]), the pawns sheltering its royal piece and those
    /// storming it, the royal piece's distance to its nearest pawn, and a flank
    /// without pawns. None without pawns of colour `c`.
    pub(super) fn pawn_king_terms<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        c: Color,
        p: PieceType,
        passed: &Squares<W>,
        tr: &mut T,
    ) -> [i32; 2] {
        let g = self.rules.variant.geometry;
        let ours: Squares<W> = pos.pieces_of(c, p).resized();
        if ours.is_empty() {
            return [0, 0];
        }
        let theirs: Squares<W> = pos.pieces_of(c.flip(), p).resized();
        let white = c == Color::White;
        let ahead = if white { 1 } else { -1 };
        let last = (g.ranks as f32 - 1.0).max(1.0);
        let own_royal = pos.royals(c).first();
        let enemy_royal = pos.royals(c.flip()).first();
        let mut score = [0, 0];
        let (mut passed_own, mut passed_enemy) = (0.0f32, 0.0f32);
        for s in passed.iter() {
            let Some(stop) = g.offset(s, 0, ahead) else {
                continue;
            };
            let ri = g.relative_rank(s, white) as usize;
            let x = ri as f32 / last;
            for (royal, w, sum) in [
                (own_royal, &self.passed_own_king, &mut passed_own),
                (enemy_royal, &self.passed_enemy_king, &mut passed_enemy),
            ] {
                if let Some(k) = royal {
                    let d = self.basis.distance(k, stop).min(KING_DISTANCE_MAX) as i32;
                    score[0] += w[ri][0] * d;
                    score[1] += w[ri][1] * d;
                    *sum += x * d as f32;
                }
            }
        }
        // Shelter and storm: pawns on the royal piece's files, in front of it; and
        // how far the royal piece is from its pawns (it must guard them late).
        let (mut shelter, mut storm, mut pawn_distance, mut pawnless_flank) = (0, 0, 0, 0);
        if let Some(k) = own_royal {
            if !self.basis.flank[k as usize]
                .resized()
                .intersects(&ours.or(&theirs))
            {
                pawnless_flank = 1;
            }
            pawn_distance = ours
                .iter()
                .map(|s| self.basis.distance(k, s).min(KING_DISTANCE_MAX) as i32)
                .min()
                .unwrap_or(0);
            let (kf, kr) = (g.file(k) as i32, g.relative_rank(k, white) as i32);
            for (set, depth, sum) in [(ours, 2, &mut shelter), (theirs, 3, &mut storm)] {
                for s in set.iter() {
                    let dr = g.relative_rank(s, white) as i32 - kr;
                    if (g.file(s) as i32 - kf).abs() <= 1 && dr >= 1 && dr <= depth {
                        *sum += 1;
                    }
                }
            }
        }
        for (term, cnt) in [
            (GlobalTerm::Shelter, shelter),
            (GlobalTerm::Storm, storm),
            (GlobalTerm::KingPawnDistance, pawn_distance),
            (GlobalTerm::PawnlessFlank, pawnless_flank),
        ] {
            let w = self.gw(term);
            score[0] += cnt * w[0];
            score[1] += cnt * w[1];
            tr.linear(c, global_slot(self.n, term), cnt as f32);
        }
        tr.linear(
            c,
            global_slot(self.n, GlobalTerm::PassedOwnKing),
            passed_own,
        );
        tr.linear(
            c,
            global_slot(self.n, GlobalTerm::PassedEnemyKing),
            passed_enemy,
        );
        score
    }

    /// The free-square term of colour `c`'s passed pawns: the square ahead is empty.
    pub(super) fn passed_free<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        c: Color,
        passed: &Squares<W>,
        tr: &mut T,
    ) -> [i32; 2] {
        let g = self.rules.variant.geometry;
        let white = c == Color::White;
        let ahead = if white { 1 } else { -1 };
        let last = (g.ranks as f32 - 1.0).max(1.0);
        let mut score = [0, 0];
        let mut sum = 0.0f32;
        for s in passed.iter() {
            let Some(stop) = g.offset(s, 0, ahead) else {
                continue;
            };
            if !pos.occupied().contains(stop) {
                let ri = g.relative_rank(s, white) as usize;
                score[0] += self.passed_free[ri][0];
                score[1] += self.passed_free[ri][1];
                sum += ri as f32 / last;
            }
        }
        tr.linear(c, global_slot(self.n, GlobalTerm::PassedFree), sum);
        score
    }

    /// The pawn-related terms of every piece of the first pass (with the pawn
    /// maps, which it has where some such term has a weight).
    pub(super) fn piece_pawn_terms<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        facts: &Facts<W>,
        mg: &mut [i32; 2],
        eg: &mut [i32; 2],
        tr: &mut T,
    ) {
        let Some(maps) = &facts.pawns else {
            return;
        };
        for piece in facts.pieces {
            let ci = piece.colour as usize;
            let at = (piece.colour, piece.kind as usize, piece.square);
            let [a, b] = self.pawn_piece_terms(pos, maps, at, &piece.reached, tr);
            mg[ci] += a;
            eg[ci] += b;
        }
    }

    /// The pawn-related terms of one piece (colour, type, square) that reaches
    /// `reached`: safe mobility, open and half-open files, outposts, and standing
    /// right behind an own pawn.
    fn pawn_piece_terms<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        maps: &PawnMaps<W>,
        (c, t, sq): (Color, usize, Square),
        reached: &Squares<W>,
        tr: &mut T,
    ) -> [i32; 2] {
        let g = self.rules.variant.geometry;
        let (us, them) = (c as usize, c.flip() as usize);
        let white = c == Color::White;
        let safe = count(&reached.minus(&maps.attacks[them]));
        let [sm, se] = self.pw(t, PieceTerm::SafeMobility);
        let mut score = [sm * safe / 8, se * safe / 8];
        tr.linear(c, piece_slot(t, PieceTerm::SafeMobility), safe as f32);
        let (f, r) = self.basis.file_rank(sq);
        let file = 1u32 << f;
        let own_file = maps.files[us] & file != 0;
        let enemy_file = maps.files[them] & file != 0;
        let relative_rank = if white { r } else { g.ranks - 1 - r };
        let outpost = maps.attacks[us].contains(sq)
            && !maps.reach[them].contains(sq)
            && 2 * relative_rank + 2 >= g.ranks;
        // The square in front of it (towards the enemy), if on the board.
        let front = if white {
            (r + 1 < g.ranks).then(|| sq + g.files)
        } else {
            (r > 0).then(|| sq - g.files)
        };
        let behind = front.is_some_and(|x| pos.pieces_of(c, maps.pawn).contains(x));
        let mut add = |term: PieceTerm| {
            let [a, b] = self.pw(t, term);
            score[0] += a;
            score[1] += b;
            tr.linear(c, piece_slot(t, term), 1.0);
        };
        match (own_file, enemy_file) {
            (false, false) => add(PieceTerm::OpenFile),
            (false, true) => add(PieceTerm::SemiOpenFile),
            _ => {}
        }
        if outpost {
            add(PieceTerm::Outpost);
        }
        if behind {
            add(PieceTerm::BehindPawn);
        }
        score
    }
}
