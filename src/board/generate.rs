//! Pseudo-legal move generation: walks the compiled step tables, applies promotion,
//! castling, gating and en passant rules of the variant. Drops are in `drops.rs`.

use super::Ruleset;
use super::tables::{M_CAPTURE, M_DESTROY, M_EP, M_MOVE, M_TAME, MultiPattern, StepKind};
use crate::board::Position;
use crate::types::{Color, Move, MoveKind, MoveList, Piece, PieceType, Square, SquareSet};
use crate::xbetza::Mode;

impl Ruleset {
    /// Every pseudo-legal move of the side to move (legality is tested separately).
    pub fn generate_pseudo(&self, pos: &Position, list: &mut MoveList) {
        let us = pos.side_to_move();
        for from in pos.pieces(us).iter() {
            self.piece_moves(pos, us, from, list, false);
        }
        if self.variant.piece_drops {
            self.drops(pos, us, list);
        }
        if self.variant.castling {
            self.castlings(pos, us, list);
        }
        if (self.variant.pass[us as usize] || self.variant.pass_on_stalemate[us as usize])
            && let Some(sq) = pos.royals(us).first().or_else(|| pos.pieces(us).first())
        {
            list.push(Move::pass(sq));
        }
    }

    /// Pseudo-legal moves of the piece on `from` (of colour `us`).
    pub(crate) fn piece_moves(
        &self,
        pos: &Position,
        us: Color,
        from: Square,
        list: &mut MoveList,
        captures_only: bool,
    ) {
        let pc = pos.piece_at(from);
        let kind = pc.kind();
        let t = &self.tables;
        let royal = self.royal_types;
        let ep = pos.state().ep_squares;
        let start_len = list.len();
        for step in t.steps_of(us, kind, from) {
            match step.kind {
                StepKind::Leap => {
                    let to = t.squares[step.start as usize];
                    if step.block_len > 0 {
                        let blocks = t.ray(step.block_start, step.block_len as u16);
                        let ok = if step.must_jump {
                            blocks.iter().all(|&b| pos.piece_at(b).is_some())
                        } else {
                            blocks.iter().all(|&b| pos.piece_at(b).is_none())
                        };
                        if !ok {
                            continue;
                        }
                    }
                    self.target(
                        pos,
                        us,
                        kind,
                        from,
                        to,
                        step.mode,
                        royal,
                        ep,
                        list,
                        captures_only,
                    );
                }
                StepKind::Slide => {
                    for &to in t.ray(step.start, step.len) {
                        if !self.target(
                            pos,
                            us,
                            kind,
                            from,
                            to,
                            step.mode,
                            royal,
                            ep,
                            list,
                            captures_only,
                        ) {
                            break;
                        }
                    }
                }
                StepKind::Hop => {
                    let mut screen = false;
                    let mut after = 0u8;
                    for &to in t.ray(step.start, step.len) {
                        if !screen {
                            if pos.piece_at(to).is_some() {
                                screen = true;
                            }
                            continue;
                        }
                        after += 1;
                        if !self.target(
                            pos,
                            us,
                            kind,
                            from,
                            to,
                            step.mode,
                            royal,
                            ep,
                            list,
                            captures_only,
                        ) {
                            break;
                        }
                        if step.hop_after != 0 && after >= step.hop_after {
                            break;
                        }
                    }
                }
                StepKind::Multi => {
                    let pat = &t.multi[step.multi as usize];
                    self.multi_moves(pos, us, kind, from, pat, list, captures_only);
                }
            }
        }
        if (self.multi_leg_types | t.overlapping[us as usize]) & 1u64 << kind != 0 {
            dedupe_from(list, start_len);
        }
    }

    /// Handle one target square of a step. Returns false when the square is occupied
    /// (the ray ends there).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn target(
        &self,
        pos: &Position,
        us: Color,
        kind: PieceType,
        from: Square,
        to: Square,
        mode: u8,
        royal: u64,
        ep: SquareSet,
        list: &mut MoveList,
        captures_only: bool,
    ) -> bool {
        let p = pos.piece_at(to);
        if p.is_none() {
            if mode & M_MOVE != 0 && !captures_only {
                self.add_move(pos, us, kind, from, to, false, Move::NONE, list);
            } else if mode & M_EP != 0 && ep.contains(to) {
                self.add_gated(pos, us, Move::en_passant(from, to), list);
            }
            return true;
        }
        if p.color() != us {
            if mode & M_CAPTURE != 0 && !(mode & M_TAME != 0 && royal & 1u64 << p.kind() != 0) {
                self.add_move(pos, us, kind, from, to, true, Move::NONE, list);
            }
        } else if mode & M_DESTROY != 0 {
            self.add_move(pos, us, kind, from, to, true, Move::NONE, list);
        }
        false
    }

    /// Add the move(s) of a piece from `from` to `to`: promotions as the variant
    /// allows or demands, the plain move, gating. `extra` carries multi-leg squares.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn add_move(
        &self,
        pos: &Position,
        us: Color,
        kind: PieceType,
        from: Square,
        to: Square,
        capture: bool,
        extra: Move,
        list: &mut MoveList,
    ) {
        let v = &self.variant;
        let c = us as usize;
        if let Some(r) = &v.mobility_region[c][kind as usize]
            && !r.contains(to)
        {
            return;
        }
        let zone = &v.promotion_region[c];
        let pawn_slot = Some(kind) == self.pawn_type;
        let pawnlike = pawn_slot || v.promotion_pawn_types[c] & 1u64 << kind != 0;
        let mut normal_ok = true;
        let with_extra = |m: Move| Move(m.0 | extra.0);
        let limit_ok = |p: PieceType| {
            let lim = v.promotion_limit[p as usize];
            lim == 0 || pos.count(us, p) < lim
        };
        let promoted = v.promoted_piece_type[kind as usize].filter(|&p| limit_ok(p));
        if pawnlike && zone.contains(to) {
            let mut ps = v.promotion_piece_types[c];
            while ps != 0 {
                let p = 63 - ps.leading_zeros() as PieceType;
                ps &= !(1u64 << p);
                if limit_ok(p) {
                    self.add_gated(pos, us, with_extra(Move::promotion(from, to, p)), list);
                }
            }
            if pawn_slot && promoted.is_some() && (capture || !v.piece_promotion_on_capture) {
                list.push(with_extra(Move::piece_promotion(from, to)));
            }
            if v.mandatory_pawn_promotion {
                normal_ok = false;
            }
        }
        if !pawn_slot && promoted.is_some() {
            let in_zone = zone.contains(from) || zone.contains(to);
            let on_capture_only = v.piece_promotion_on_capture && !capture;
            if in_zone && !on_capture_only {
                list.push(with_extra(Move::piece_promotion(from, to)));
            }
            if v.mandatory_piece_promotion && in_zone && !on_capture_only {
                normal_ok = false;
            }
        }
        if normal_ok {
            if v.immobility_illegal && self.tables.immobile[c][kind as usize].contains(to) {
                return;
            }
            let m = with_extra(if from == to && !extra.has_extra() {
                Move::pass(from)
            } else {
                Move::normal(from, to)
            });
            self.add_gated(pos, us, m, list);
        }
    }

    /// Push `m` and, when the moving piece stands on a gate, its gating versions.
    #[inline]
    fn add_gated(&self, pos: &Position, us: Color, m: Move, list: &mut MoveList) {
        list.push(m);
        let v = &self.variant;
        if !v.seirawan_gating {
            return;
        }
        let gates = pos.state().gates[us as usize];
        let from = m.from();
        if gates.contains(from) {
            for t in 0..v.num_types() as PieceType {
                if pos.hand(us, t) > 0 && self.drop_allowed(pos, us, t, from, true) {
                    list.push(m.with_gate(t, false));
                }
            }
        }
        if m.kind() == MoveKind::Castling && gates.contains(m.to()) {
            for t in 0..v.num_types() as PieceType {
                if pos.hand(us, t) > 0 && self.drop_allowed(pos, us, t, m.to(), true) {
                    list.push(m.with_gate(t, true));
                }
            }
        }
    }

    fn castlings(&self, pos: &Position, us: Color, list: &mut MoveList) {
        let st = pos.state();
        let Some(king) = st.castling_king[us as usize] else {
            return;
        };
        if st.castling[us as usize].is_empty() {
            return;
        }
        let v = &self.variant;
        let kp = pos.piece_at(king);
        if kp.is_none() || kp.color() != us || v.castling_king_piece[us as usize] != Some(kp.kind())
        {
            return;
        }
        // A royal king may not castle out of check.
        if self.royal_types & 1u64 << kp.kind() != 0 && st.in_check {
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
            if self.castling_path(us, king, rook).intersects(&occ) {
                continue;
            }
            self.add_gated(pos, us, Move::castling(king, rook), list);
        }
    }

    /// Moves of a multi-leg component, interpreted leg by leg.
    #[allow(clippy::too_many_arguments)]
    fn multi_moves(
        &self,
        pos: &Position,
        us: Color,
        kind: PieceType,
        from: Square,
        pat: &MultiPattern,
        list: &mut MoveList,
        captures_only: bool,
    ) {
        let mut walker = Walker {
            rules: self,
            pos,
            us,
            kind,
            from,
            pat,
            // Only the first `n_captured` entries are meaningful.
            captured: [0; 4],
            n_captured: 0,
            list,
            captures_only,
        };
        walker.leg(0, from, 0, 0);
    }
}

/// State of the multi-leg interpreter.
struct Walker<'a> {
    rules: &'a Ruleset,
    pos: &'a Position,
    us: Color,
    kind: PieceType,
    from: Square,
    pat: &'a MultiPattern,
    captured: [Square; 4],
    n_captured: usize,
    list: &'a mut MoveList,
    captures_only: bool,
}

impl Walker<'_> {
    /// What stands on `sq` at this point of the move (the mover left its square,
    /// locust victims are gone).
    fn occupant(&self, sq: Square) -> Piece {
        if sq == self.from || self.captured[..self.n_captured].contains(&sq) {
            Piece::NONE
        } else {
            self.pos.piece_at(sq)
        }
    }

    fn emit(&mut self, to: Square, capture: bool) {
        if self.n_captured > 2 {
            return; // more than two locust victims cannot be written as a move
        }
        let mut extra = Move::NONE;
        for &sq in &self.captured[..self.n_captured] {
            extra = extra.with_extra(sq, true);
        }
        let any = capture || self.n_captured > 0;
        if self.captures_only && !any {
            return;
        }
        self.rules.add_move(
            self.pos, self.us, self.kind, self.from, to, any, extra, self.list,
        );
    }

    fn leg(&mut self, index: usize, at: Square, prev_dir: u8, prev_len: usize) {
        let comp = &self.pat.component;
        let leg = &comp.legs[index];
        let last = index + 1 == comp.legs.len();
        let g = self.rules.variant.geometry;
        let sign = self.pat.sign;
        let cyl = leg.mode.contains(Mode::CYLINDER);
        let royal = self.rules.royal_types;
        for &d in &leg.directions {
            let dir = if index == 0 { d } else { (prev_dir + d) % 8 };
            let (x, y) = comp.atom.vector(dir);
            let (dx, dy) = (x * sign, y * sign);
            let (min_len, max_len) = if leg.mode.contains(Mode::SAME_LENGTH) {
                (prev_len, prev_len)
            } else {
                (1, leg.range.max_steps())
            };
            let mut cur = at;
            let mut screen = false;
            let mut n = 0usize;
            while n < max_len {
                let next = if cyl {
                    g.offset_wrapping(cur, dx, dy)
                } else {
                    g.offset(cur, dx, dy)
                };
                let Some(sq) = next else {
                    break;
                };
                if sq == at && n > 0 {
                    break;
                }
                n += 1;
                cur = sq;
                let p = self.occupant(sq);
                let mode = leg.mode;
                if n < min_len {
                    if p.is_some() {
                        break;
                    }
                    continue;
                }
                if last {
                    let hop = mode.intersects(Mode::HOP | Mode::GRASSHOP);
                    if hop && !screen {
                        if p.is_some() {
                            screen = true;
                        }
                        continue;
                    }
                    if p.is_none() {
                        if mode.contains(Mode::MOVE) {
                            self.emit(sq, false);
                        }
                        if hop && mode.contains(Mode::GRASSHOP) {
                            break;
                        }
                        continue;
                    }
                    let own = p.color() == self.us;
                    let tame_block = mode.contains(Mode::TAME) && royal & 1u64 << p.kind() != 0;
                    if (!own && mode.contains(Mode::CAPTURE) && !tame_block)
                        || (own && mode.contains(Mode::DESTROY))
                    {
                        self.emit(sq, true);
                    }
                    break;
                }
                // A non-final leg stops here if its mode allows this kind of square.
                if p.is_none() {
                    if mode.intersects(Mode::MOVE | Mode::TOGGLE) {
                        self.leg(index + 1, sq, dir, n);
                    }
                    continue;
                }
                let own = p.color() == self.us;
                let hop = mode.intersects(Mode::HOP | Mode::GRASSHOP)
                    && (!mode.contains(Mode::TAME) || own);
                let capture =
                    (!own && mode.contains(Mode::CAPTURE)) || (own && mode.contains(Mode::DESTROY));
                if capture && self.n_captured < self.captured.len() {
                    self.captured[self.n_captured] = sq;
                    self.n_captured += 1;
                    self.leg(index + 1, sq, dir, n);
                    self.n_captured -= 1;
                }
                if hop {
                    self.leg(index + 1, sq, dir, n);
                }
                break;
            }
        }
    }
}

/// Remove duplicates among `list[start..]` (multi-leg pieces reach squares by
/// several paths).
fn dedupe_from(list: &mut MoveList, start: usize) {
    let mut i = start;
    while i < list.moves.len() {
        let m = list.moves[i];
        if list.moves[start..i].contains(&m) {
            list.moves.remove(i);
        } else {
            i += 1;
        }
    }
}
