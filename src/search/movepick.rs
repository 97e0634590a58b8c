//! Move ordering. Moves come out in stages so that a cut-off early in the list saves
//! generating the rest: the hash move, captures by most valuable victim / least
//! valuable attacker (captures that lose material by static exchange deferred), killers and the counter-move, quiet
//! moves by history, then the losing captures. Legality is tested by the caller, only
//! for the moves it actually plays.

use super::history::History;
use crate::board::{Position, Ruleset};
use crate::eval::Evaluator;
use crate::types::{Move, MoveKind, MoveList, PieceType};

/// What move ordering reads besides the position.
pub struct OrderCtx<'a> {
    pub rules: &'a Ruleset,
    pub eval: &'a Evaluator,
    pub hist: &'a History,
    /// Continuation rows of the moves one, two and four plies back (none: no such
    /// move, e.g. a null move or the root).
    pub cont: [Option<usize>; 3],
}

impl OrderCtx<'_> {
    /// History score of a quiet move: butterfly plus continuation histories.
    #[inline]
    pub fn quiet_score(&self, pos: &Position, m: Move) -> i32 {
        quiet_history(self.hist, &self.cont, pos, m)
    }

    /// Capture ordering: the victim's value (and a promotion's gain) first, then how
    /// the same capture fared before.
    #[inline]
    pub fn capture_score(&self, pos: &Position, m: Move) -> i32 {
        let victim = captured_type(pos, m);
        let history = victim.map_or(0, |v| self.hist.capture(move_key(self.hist, pos, m), v));
        6 * capture_gain(pos, self.eval, m) + history
    }
}

/// Butterfly plus continuation histories of a quiet move.
#[inline]
pub fn quiet_history(hist: &History, cont: &[Option<usize>; 3], pos: &Position, m: Move) -> i32 {
    let key = move_key(hist, pos, m);
    let mut s = hist.score(pos.side_to_move() as usize, m);
    for row in cont.iter().flatten() {
        s += hist.continuation(*row, key);
    }
    s
}

/// The piece-to key of a move of the side to move (continuation and capture
/// histories): the side, the type that moves and where to.
#[inline]
pub fn move_key(hist: &History, pos: &Position, m: Move) -> usize {
    hist.piece_to(pos.side_to_move() as usize, moved_type(pos, m), m.to())
}

/// The type of the piece that moves (for a drop: the dropped type).
#[inline]
pub fn moved_type(pos: &Position, m: Move) -> crate::types::PieceType {
    if m.is_drop() {
        m.piece()
    } else {
        pos.piece_at(m.from()).kind()
    }
}

/// The type captured on the destination (or en passant), if any.
#[inline]
pub fn captured_type(pos: &Position, m: Move) -> Option<crate::types::PieceType> {
    if m.kind() == MoveKind::EnPassant {
        return pos.rules().pawn_type;
    }
    let p = pos.piece_at(m.to());
    (p.is_some() && p.color() != pos.side_to_move() && !m.is_drop()).then(|| p.kind())
}

/// Sort `moves` by `scores`, best first, moving only those scoring at least `limit`
/// to the front (in order); the rest follow in no particular order.
fn partial_insertion_sort(moves: &mut [Move], scores: &mut [i32], limit: i32) {
    let mut sorted_end = 0;
    for p in 0..moves.len() {
        if scores[p] < limit {
            continue;
        }
        let (m, s) = (moves[p], scores[p]);
        moves[p] = moves[sorted_end];
        scores[p] = scores[sorted_end];
        let mut q = sorted_end;
        while q > 0 && scores[q - 1] < s {
            moves[q] = moves[q - 1];
            scores[q] = scores[q - 1];
            q -= 1;
        }
        moves[q] = m;
        scores[q] = s;
        sorted_end += 1;
    }
}

/// Reusable buffers of one ply.
#[derive(Default)]
pub struct PickBuf {
    list: MoveList,
    scores: Vec<i32>,
    bad: Vec<Move>,
}

/// Quiet moves scoring below `QUIET_SORT_LIMIT * depth` are left unsorted.
const QUIET_SORT_LIMIT: i32 = -4000;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    Tt,
    GenCaptures,
    Captures,
    /// Quiescence: quiet promotions to the most valuable type, and at its first ply
    /// drops that give check.
    QQuiets,
    Killers,
    GenQuiets,
    Quiets,
    BadCaptures,
    /// Evasions / must-capture variants: everything at once, scored.
    All,
    Done,
}

pub struct MovePicker {
    stage: Stage,
    tt: Move,
    tt_tried: bool,
    refutations: [Move; 3],
    ref_index: usize,
    tried_refutations: [Move; 3],
    n_tried_ref: usize,
    index: usize,
    qsearch: bool,
    /// Quiescence also tries checking drops.
    checks: bool,
    /// Quiescence also tries quiet promotions (not ProbCut).
    promotions: bool,
    /// Pick by selection (evasions, checking drops) rather than in sorted order.
    sort_all: bool,
    depth: i32,
    /// Captures must win at least this by static exchange (ProbCut asks for more
    /// than 0).
    see_threshold: i32,
    buf: PickBuf,
}

/// Material a capture (or promotion) wins outright: the victims' values plus a
/// promotion's new piece.
#[inline]
pub fn capture_gain(pos: &Position, eval: &Evaluator, m: Move) -> i32 {
    let mut v = 0;
    if let Some(t) = captured_type(pos, m) {
        v += eval.value(t);
    }
    for (sq, cap) in m.extras() {
        let q = pos.piece_at(sq);
        if cap && q.is_some() {
            v += eval.value(q.kind());
        }
    }
    if m.kind() == MoveKind::Promotion {
        v += eval.value(m.piece());
    }
    v
}

/// Can `m` be played in `pos` (pseudo-legally)? Used for moves that come from
/// the hash table or the killer slots, which may belong to another position.
pub fn is_pseudo_legal(rules: &Ruleset, pos: &Position, m: Move, scratch: &mut MoveList) -> bool {
    let us = pos.side_to_move();
    match m.kind() {
        MoveKind::Drop => {
            !m.is_promoted_drop()
                && m.gate().is_none()
                && rules.variant.piece_drops
                && (m.piece() as usize) < rules.variant.num_types()
                && rules.can_drop(pos, us, m.piece())
                && pos.piece_at(m.to()).is_none()
                && rules.drop_allowed(pos, us, m.piece(), m.to(), false)
        }
        MoveKind::Castling | MoveKind::Pass => false,
        _ => {
            let p = pos.piece_at(m.from());
            if p.is_none() || p.is_wall() || p.color() != us {
                return false;
            }
            scratch.clear();
            rules.piece_moves(pos, us, m.from(), scratch, false);
            scratch.contains(m)
        }
    }
}

impl MovePicker {
    /// For the main search. `all_at_once`: generate every move in one stage (in
    /// check, or when the variant forces captures).
    pub fn new(
        buf: PickBuf,
        tt: Move,
        killers: [Move; 2],
        counter: Move,
        all_at_once: bool,
        depth: i32,
    ) -> MovePicker {
        MovePicker {
            stage: if all_at_once { Stage::All } else { Stage::Tt },
            tt,
            tt_tried: false,
            refutations: [killers[0], killers[1], counter],
            ref_index: 0,
            tried_refutations: [Move::NONE; 3],
            n_tried_ref: 0,
            index: 0,
            qsearch: false,
            checks: false,
            promotions: false,
            sort_all: false,
            depth,
            see_threshold: 0,
            buf,
        }
    }

    /// For quiescence: captures only (all moves when in check).
    pub fn new_qsearch(buf: PickBuf, tt: Move, in_check: bool, checks: bool) -> MovePicker {
        let mut p = MovePicker::new(buf, tt, [Move::NONE; 2], Move::NONE, in_check, 0);
        p.qsearch = true;
        p.checks = checks && !in_check;
        p.promotions = !in_check;
        p
    }

    /// For ProbCut: captures that win at least `threshold` by static exchange.
    pub fn new_probcut(buf: PickBuf, tt: Move, threshold: i32) -> MovePicker {
        let mut p = MovePicker::new_qsearch(buf, tt, false, false);
        p.promotions = false;
        p.see_threshold = threshold;
        p
    }

    pub fn into_buf(self) -> PickBuf {
        self.buf
    }

    /// Pick the best remaining move of the scored list (selection sort step).
    #[inline]
    fn pick_best(&mut self) -> Option<Move> {
        let n = self.buf.list.moves.len();
        if self.index >= n {
            return None;
        }
        let mut best = self.index;
        for i in self.index + 1..n {
            if self.buf.scores[i] > self.buf.scores[best] {
                best = i;
            }
        }
        self.buf.list.moves.swap(self.index, best);
        self.buf.scores.swap(self.index, best);
        let m = self.buf.list.moves[self.index];
        self.index += 1;
        Some(m)
    }

    fn gen_captures(&mut self, rules: &Ruleset, pos: &Position) {
        let us = pos.side_to_move();
        self.buf.list.clear();
        for from in pos.pieces(us).iter() {
            rules.piece_moves(pos, us, from, &mut self.buf.list, true);
        }
        self.index = 0;
    }

    /// Non-capturing promotions to the most valuable type a pawn may become (what
    /// a capture is to material, a promotion is too; underpromotions wait for the
    /// main search).
    fn quiet_promotions(&mut self, rules: &Ruleset, pos: &Position, eval: &Evaluator) {
        let us = pos.side_to_move();
        let mut types = rules.variant.promotion_pawn_types[us as usize];
        let start = self.buf.list.len();
        while types != 0 {
            let t = types.trailing_zeros() as PieceType;
            types &= types - 1;
            let near = pos.pieces_of(us, t).and(&rules.promotion_from[us as usize]);
            for from in near.iter() {
                rules.piece_moves(pos, us, from, &mut self.buf.list, false);
            }
        }
        let moves = &mut self.buf.list.moves;
        let mut best = i32::MIN;
        for &m in &moves[start..] {
            if m.kind() == MoveKind::Promotion && !rules.is_capture(pos, m) {
                best = best.max(eval.value(m.piece()));
            }
        }
        let mut i = start;
        while i < moves.len() {
            let m = moves[i];
            let keep = m.kind() == MoveKind::Promotion
                && !rules.is_capture(pos, m)
                && eval.value(m.piece()) == best
                && !(self.tt_tried && m == self.tt);
            if keep {
                i += 1;
            } else {
                moves.swap_remove(i);
            }
        }
    }

    pub fn next(
        &mut self,
        ctx: &OrderCtx,
        pos: &mut Position,
        scratch: &mut MoveList,
    ) -> Option<Move> {
        let (rules, eval) = (ctx.rules, ctx.eval);
        loop {
            match self.stage {
                Stage::Tt => {
                    self.stage = Stage::GenCaptures;
                    if !self.tt.is_none() && is_pseudo_legal(rules, pos, self.tt, scratch) {
                        let capture = rules.is_capture(pos, self.tt);
                        let wins_enough = self.see_threshold <= 0
                            || rules.see_ge(pos, self.tt, self.see_threshold, eval.see_values());
                        if !self.qsearch || capture && wins_enough {
                            self.tt_tried = true;
                            return Some(self.tt);
                        }
                    }
                }
                Stage::GenCaptures => {
                    self.gen_captures(rules, pos);
                    self.buf.scores.clear();
                    self.buf.bad.clear();
                    let mut i = 0;
                    while i < self.buf.list.moves.len() {
                        let m = self.buf.list.moves[i];
                        if self.tt_tried && m == self.tt {
                            self.buf.list.moves.swap_remove(i);
                            continue;
                        }
                        self.buf.scores.push(ctx.capture_score(pos, m));
                        i += 1;
                    }
                    self.stage = Stage::Captures;
                }
                Stage::Captures => {
                    let Some(m) = self.pick_best() else {
                        self.stage = match self.qsearch {
                            true if self.checks || self.promotions => Stage::QQuiets,
                            true => Stage::Done,
                            false => Stage::Killers,
                        };
                        continue;
                    };
                    if !rules.see_ge(pos, m, self.see_threshold, eval.see_values()) {
                        if !self.qsearch {
                            self.buf.bad.push(m);
                        }
                        continue;
                    }
                    return Some(m);
                }
                Stage::QQuiets => {
                    self.buf.list.clear();
                    if self.promotions {
                        self.quiet_promotions(rules, pos, eval);
                    }
                    if self.checks {
                        rules.checking_drops(pos, &mut self.buf.list);
                    }
                    self.buf.scores.clear();
                    self.buf.scores.resize(self.buf.list.len(), 0);
                    self.index = 0;
                    self.stage = Stage::Quiets;
                    self.sort_all = true;
                    self.buf.bad.clear();
                }
                Stage::Killers => {
                    while self.ref_index < 3 {
                        let m = self.refutations[self.ref_index];
                        self.ref_index += 1;
                        if m.is_none()
                            || (self.tt_tried && m == self.tt)
                            || self.tried_refutations[..self.n_tried_ref].contains(&m)
                        {
                            continue;
                        }
                        if is_pseudo_legal(rules, pos, m, scratch) && !rules.is_capture(pos, m) {
                            self.tried_refutations[self.n_tried_ref] = m;
                            self.n_tried_ref += 1;
                            return Some(m);
                        }
                    }
                    self.stage = Stage::GenQuiets;
                }
                Stage::GenQuiets => {
                    self.buf.list.clear();
                    rules.generate_pseudo(pos, &mut self.buf.list);
                    self.buf.scores.clear();
                    let mut i = 0;
                    while i < self.buf.list.moves.len() {
                        let m = self.buf.list.moves[i];
                        if rules.is_capture(pos, m)
                            || (self.tt_tried && m == self.tt)
                            || self.tried_refutations[..self.n_tried_ref].contains(&m)
                        {
                            self.buf.list.moves.swap_remove(i);
                            continue;
                        }
                        let mut s = ctx.quiet_score(pos, m);
                        match m.kind() {
                            MoveKind::Promotion => s += 100_000 + eval.value(m.piece()),
                            MoveKind::PiecePromotion => s += 50_000,
                            _ => {}
                        }
                        self.buf.scores.push(s);
                        i += 1;
                    }
                    partial_insertion_sort(
                        &mut self.buf.list.moves,
                        &mut self.buf.scores,
                        QUIET_SORT_LIMIT * self.depth,
                    );
                    self.index = 0;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.sort_all {
                        if let Some(m) = self.pick_best() {
                            return Some(m);
                        }
                    } else if self.index < self.buf.list.moves.len() {
                        let m = self.buf.list.moves[self.index];
                        self.index += 1;
                        return Some(m);
                    }
                    self.stage = Stage::BadCaptures;
                    self.index = 0;
                }
                Stage::BadCaptures => {
                    if self.index < self.buf.bad.len() {
                        let m = self.buf.bad[self.index];
                        self.index += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::All => {
                    self.buf.list.clear();
                    if rules.variant.must_capture {
                        rules.generate_legal(pos, &mut self.buf.list);
                    } else {
                        rules.generate_pseudo(pos, &mut self.buf.list);
                    }
                    self.buf.scores.clear();
                    for i in 0..self.buf.list.moves.len() {
                        let m = self.buf.list.moves[i];
                        let s = if m == self.tt {
                            10_000_000
                        } else if rules.is_capture(pos, m) || m.kind() == MoveKind::Promotion {
                            1_000_000 + ctx.capture_score(pos, m)
                        } else if self.refutations.contains(&m) {
                            900_000
                        } else {
                            ctx.quiet_score(pos, m)
                        };
                        self.buf.scores.push(s);
                    }
                    // Evasions are few: pick them all in order, like quiets.
                    self.sort_all = true;
                    self.index = 0;
                    self.stage = Stage::Quiets;
                    self.buf.bad.clear();
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::notation::move_to_string;
    use crate::types::RankNumbering;

    /// Quiescence's moves in a position: captures, then quiet promotions to the most
    /// valuable type (not underpromotions, not other quiet moves); ProbCut's:
    /// captures only.
    #[test]
    fn quiescence_tries_captures_and_quiet_queen_promotions() {
        let rules = crate::board::builtin_rules("chess");
        // Pawns promote from the 7th rank (and the 8th is the promotion region).
        assert_eq!(rules.promotion_from[0].count(), 16);
        let eval = Evaluator::new(&rules);
        let mut hist = History::default();
        hist.fit(
            rules.variant.num_types(),
            rules.variant.geometry.num_squares(),
        );
        let ctx = OrderCtx {
            rules: &rules,
            eval: &eval,
            hist: &hist,
            cont: [None; 3],
        };
        let mut pos = Position::from_fen(&rules, "3r3k/P7/8/8/8/8/8/3R3K w - - 0 1").unwrap();
        let mut scratch = MoveList::default();
        let mut moves = |mut picker: MovePicker| {
            let mut out = Vec::new();
            while let Some(m) = picker.next(&ctx, &mut pos, &mut scratch) {
                out.push(move_to_string(&pos, m, RankNumbering::FromOne));
            }
            out
        };
        let qsearch = MovePicker::new_qsearch(PickBuf::default(), Move::NONE, false, false);
        assert_eq!(moves(qsearch), ["d1d8", "a7a8q"]);
        let probcut = MovePicker::new_probcut(PickBuf::default(), Move::NONE, 0);
        assert_eq!(moves(probcut), ["d1d8"]);
    }
}
