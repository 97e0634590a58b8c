//! Move ordering. Moves come out in stages so that a cut-off early in the list saves
//! generating the rest: the hash move, captures by most valuable victim / least
//! valuable attacker (captures that lose material by static exchange deferred), killers and the counter-move, quiet
//! moves by history, then the losing captures. Legality is tested by the caller, only
//! for the moves it actually plays.

use super::history::History;
use super::movegen_fast::FastGen;
use crate::board::Position;
use crate::eval::Evaluator;
use crate::movegen::{Move, MoveKind, MoveList, Ruleset};

/// Reusable buffers of one ply.
#[derive(Default)]
pub struct PickBuf {
    list: MoveList,
    scores: Vec<i32>,
    bad: Vec<Move>,
}

/// Quiet moves picked in score order before the rest come in generation order.
const SORTED_QUIETS: usize = 8;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    Tt,
    GenCaptures,
    Captures,
    /// Quiescence at its first ply: drops that give check.
    QChecks,
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
    sort_all: bool,
    buf: PickBuf,
}

/// Most valuable victim, least valuable attacker, plus promotion gains.
#[inline]
pub fn capture_score(pos: &Position, eval: &Evaluator, m: Move) -> i32 {
    let victim = match m.kind() {
        MoveKind::EnPassant => eval.value(pos.rules().pawn_type.unwrap_or(0)),
        _ => {
            let mut v = 0;
            let p = pos.piece_at(m.to());
            if p.is_some() && p.color() != pos.side_to_move() {
                v += eval.value(p.kind());
            }
            for (sq, cap) in m.extras() {
                let q = pos.piece_at(sq);
                if cap && q.is_some() {
                    v += eval.value(q.kind());
                }
            }
            v
        }
    };
    let attacker = mover_value(pos, eval, m);
    let promo = if m.kind() == MoveKind::Promotion {
        eval.value(m.piece())
    } else {
        0
    };
    victim * 16 + promo * 8 - attacker / 8
}

#[inline]
pub fn mover_value(pos: &Position, eval: &Evaluator, m: Move) -> i32 {
    if m.is_drop() {
        eval.value(m.piece())
    } else {
        let p = pos.piece_at(m.from());
        if p.is_some() { eval.value(p.kind()) } else { 0 }
    }
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
                && pos.hand(us, m.piece()) > 0
                && pos.piece_at(m.to()).is_none()
                && rules.drop_allowed(pos, us, m.piece(), m.to(), false)
        }
        MoveKind::Castling | MoveKind::Pass => false,
        _ => {
            let p = pos.piece_at(m.from());
            if p.is_none() || p.color() != us {
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
            sort_all: false,
            buf,
        }
    }

    /// For quiescence: captures only (all moves when in check).
    pub fn new_qsearch(buf: PickBuf, tt: Move, in_check: bool, checks: bool) -> MovePicker {
        let mut p = MovePicker::new(buf, tt, [Move::NONE; 2], Move::NONE, in_check);
        p.qsearch = true;
        p.checks = checks && !in_check;
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

    #[allow(clippy::too_many_arguments)]
    pub fn next(
        &mut self,
        rules: &Ruleset,
        movegen: &FastGen,
        pos: &mut Position,
        eval: &Evaluator,
        hist: &History,
        scratch: &mut MoveList,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Tt => {
                    self.stage = Stage::GenCaptures;
                    if !self.tt.is_none() && is_pseudo_legal(rules, pos, self.tt, scratch) {
                        let capture = rules.is_capture(pos, self.tt);
                        if !self.qsearch || capture {
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
                        self.buf.scores.push(capture_score(pos, eval, m));
                        i += 1;
                    }
                    self.stage = Stage::Captures;
                }
                Stage::Captures => {
                    let Some(m) = self.pick_best() else {
                        self.stage = match (self.qsearch, self.checks) {
                            (true, true) => Stage::QChecks,
                            (true, false) => Stage::Done,
                            _ => Stage::Killers,
                        };
                        continue;
                    };
                    if !rules.see_ge(pos, m, 0, eval.see_values()) {
                        if !self.qsearch {
                            self.buf.bad.push(m);
                        }
                        continue;
                    }
                    return Some(m);
                }
                Stage::QChecks => {
                    self.buf.list.clear();
                    movegen.checking_drops(pos, &mut self.buf.list);
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
                    movegen.generate(pos, &mut self.buf.list);
                    self.buf.scores.clear();
                    let stm = pos.side_to_move() as usize;
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
                        let mut s = hist.score(stm, m);
                        match m.kind() {
                            MoveKind::Promotion => s += 100_000 + eval.value(m.piece()),
                            MoveKind::PiecePromotion => s += 50_000,
                            _ => {}
                        }
                        self.buf.scores.push(s);
                        i += 1;
                    }
                    self.index = 0;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    // The first few by selection (cut-offs come early); after that the
                    // order matters little and sorting hundreds of drops would not pay.
                    if self.index < SORTED_QUIETS || self.sort_all {
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
                        movegen.generate(pos, &mut self.buf.list);
                    }
                    self.buf.scores.clear();
                    let stm = pos.side_to_move() as usize;
                    for i in 0..self.buf.list.moves.len() {
                        let m = self.buf.list.moves[i];
                        let s = if m == self.tt {
                            10_000_000
                        } else if rules.is_capture(pos, m) || m.kind() == MoveKind::Promotion {
                            1_000_000 + capture_score(pos, eval, m)
                        } else if self.refutations.contains(&m) {
                            900_000
                        } else {
                            hist.score(stm, m)
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
