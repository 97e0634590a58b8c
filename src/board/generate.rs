//! Pseudo-legal move generation: walks the compiled steps (walk.rs), applies promotion,
//! castling, gating and en passant rules of the variant. Drops are in `drops.rs`.

use super::Ruleset;
use super::tables::MultiPattern;
use super::walk::{MultiLeg, StepMode, Target, Visit};
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
        // Drops, castling and passes get their wall squares here, piece moves in
        // `piece_moves`.
        let start = list.len();
        if self.variant.piece_drops {
            self.drops(pos, us, list);
        }
        if self.variant.castling {
            self.castlings(pos, us, list);
        }
        if self.variant.cambodian_moves {
            self.cambodian_moves(pos, us, list);
        }
        if self.variant.sittuyin_promotion {
            self.sittuyin_promotions(pos, us, list);
        }
        if (self.variant.pass[us as usize] || self.variant.pass_on_stalemate[us as usize])
            && let Some(sq) = pos.royals(us).first().or_else(|| pos.pieces(us).first())
        {
            list.push(Move::pass(sq));
        }
        if self.walls_with_moves {
            self.add_walls(pos, list, start);
        } else if self.walls_instead
            && let Some(sq) = pos.pieces(us).first()
        {
            // Placing a wall instead of moving: a pass with the wall square.
            let start = list.len();
            list.push(Move::pass(sq));
            self.add_walls(pos, list, start);
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
        let kind = pos.piece_at(from).kind();
        let bit = 1u64 << kind;
        let palace = self.palace.cannons | self.palace.types;
        if captures_only && palace & bit == 0 {
            // Most pieces can capture nothing: nothing they could ever take stands
            // where they could take it.
            let prey = pos.pieces(us.flip()) | pos.state().ep_squares;
            if !self
                .tables
                .capture_reach_of(us, kind, from)
                .intersects(&prey)
            {
                return;
            }
        }
        let start_len = list.len();
        let mut piece = PieceMoves {
            rules: self,
            pos,
            us,
            kind,
            from,
            ep: pos.state().ep_squares,
            captures_only,
            plain: self.plain_movers[us as usize] & 1u64 << kind != 0,
            list,
        };
        if self.palace.cannons & bit != 0 {
            self.cannon_targets(pos, us, from, |to, capture| {
                piece.janggi_target(to, capture)
            });
        } else {
            self.walk(us, kind, from, pos, &mut piece);
            if self.palace.types & bit != 0 {
                self.diagonal_targets(pos, us, kind, from, |to, capture| {
                    piece.janggi_target(to, capture)
                });
            }
        }
        if (self.multi_leg_types | self.tables.overlapping[us as usize]) & 1u64 << kind != 0 {
            dedupe_from(list, start_len);
        }
        if self.walls_with_moves {
            self.add_walls(pos, list, start_len);
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
        let occ = pos.occupied() | pos.walls();
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
}

/// The generation of one piece's moves: the position, the mover and the list it fills.
struct PieceMoves<'a> {
    rules: &'a Ruleset,
    pos: &'a Position,
    us: Color,
    kind: PieceType,
    from: Square,
    /// En passant squares of the position.
    ep: SquareSet,
    captures_only: bool,
    /// Its kind is one of the rules' plain movers: a target is one plain move.
    plain: bool,
    list: &'a mut MoveList,
}

impl<'a> Visit<'a> for PieceMoves<'a> {
    /// The move(s), if any, of a step's target square.
    #[inline(always)]
    fn target(&mut self, t: Target) {
        let (to, mode) = (t.to, t.mode);
        if !t.occupied {
            if mode.contains(StepMode::MOVE) && !self.captures_only {
                self.add_move(to, false, Move::NONE);
            } else if mode.contains(StepMode::EN_PASSANT) && self.ep.contains(to) {
                let m = Move::en_passant(self.from, to);
                self.rules.add_gated(self.pos, self.us, m, self.list);
            }
            return;
        }
        let p = self.pos.piece_at(to);
        if p.is_wall() {
            return;
        }
        if p.color() != self.us {
            let royal = self.rules.royal_types & 1u64 << p.kind() != 0;
            if mode.contains(StepMode::CAPTURE) && !(mode.contains(StepMode::TAME) && royal) {
                self.add_move(to, true, Move::NONE);
            }
        } else if mode.contains(StepMode::DESTROY) {
            self.add_move(to, true, Move::NONE);
        }
    }

    #[inline(always)]
    fn multi(&mut self, leg: MultiLeg<'a>, _: StepMode) {
        self.multi_moves(leg.0);
    }
}

impl PieceMoves<'_> {
    /// A target of janggi's rules (palace.rs): own pieces are already left out.
    fn janggi_target(&mut self, to: Square, capture: bool) {
        if capture || !self.captures_only {
            self.add_move(to, capture, Move::NONE);
        }
    }

    /// Add the move(s) of the piece to `to`: promotions as the variant allows or
    /// demands, the plain move, gating. `extra` carries multi-leg squares.
    #[inline]
    fn add_move(&mut self, to: Square, capture: bool, extra: Move) {
        let (rules, pos, us, kind, from) = (self.rules, self.pos, self.us, self.kind, self.from);
        if self.plain && to != from && extra == Move::NONE {
            self.list.push(Move::normal(from, to));
            return;
        }
        let list = &mut *self.list;
        let v = &rules.variant;
        let c = us as usize;
        if let Some(r) = &v.mobility_region[c][kind as usize]
            && !r.contains(to)
        {
            return;
        }
        let zone = &v.promotion_region[c];
        let pawn_slot = Some(kind) == rules.pawn_type;
        let pawnlike = pawn_slot || v.promotion_pawn_types[c] & 1u64 << kind != 0;
        let mut normal_ok = true;
        let with_extra = |m: Move| Move(m.0 | extra.0);
        let limit_ok = |p: PieceType| {
            let lim = v.promotion_limit[p as usize];
            lim == 0 || pos.count(us, p) < lim
        };
        let promoted = v.promoted_piece_type[kind as usize].filter(|&p| limit_ok(p));
        // Sittuyin promotion is a move of its own (sittuyin.rs).
        if pawnlike && zone.contains(to) && !v.sittuyin_promotion {
            let mut ps = v.promotion_piece_types[c];
            while ps != 0 {
                let p = 63 - ps.leading_zeros() as PieceType;
                ps &= !(1u64 << p);
                if limit_ok(p) {
                    rules.add_gated(pos, us, with_extra(Move::promotion(from, to, p)), list);
                }
            }
            if pawn_slot && promoted.is_some() && (capture || !v.piece_promotion_on_capture) {
                list.push(with_extra(Move::piece_promotion(from, to)));
            }
            if v.mandatory_pawn_promotion {
                normal_ok = false;
            }
        }
        // A promoted piece that may turn back (piece demotion) does so under the
        // rules of piece promotion: zone, captures only, mandatory.
        let demotes = v.piece_demotion && pos.promoted_from(from).is_some();
        if !pawn_slot && (promoted.is_some() || demotes) {
            let in_zone = zone.contains(from) || zone.contains(to);
            let on_capture_only = v.piece_promotion_on_capture && !capture;
            if in_zone && !on_capture_only {
                if promoted.is_some() {
                    list.push(with_extra(Move::piece_promotion(from, to)));
                }
                if demotes {
                    list.push(with_extra(Move::piece_demotion(from, to)));
                }
            }
            if v.mandatory_piece_promotion && in_zone && !on_capture_only {
                normal_ok = false;
            }
        }
        if normal_ok {
            if v.immobility_illegal && rules.tables.immobile[c][kind as usize].contains(to) {
                return;
            }
            let m = with_extra(if from == to && !extra.has_extra() {
                Move::pass(from)
            } else {
                Move::normal(from, to)
            });
            rules.add_gated(pos, us, m, list);
        }
    }

    /// Moves of a multi-leg component, interpreted leg by leg.
    fn multi_moves(&mut self, pattern: &MultiPattern) {
        let from = self.from;
        let mut walk = MultiLegWalk {
            piece: self,
            pattern,
            // Only the first `n_captured` entries are meaningful.
            captured: [0; 4],
            n_captured: 0,
        };
        walk.leg(0, from, 0, 0);
    }
}

/// State of the multi-leg interpreter.
struct MultiLegWalk<'g, 'a> {
    piece: &'g mut PieceMoves<'a>,
    pattern: &'g MultiPattern,
    captured: [Square; 4],
    n_captured: usize,
}

impl MultiLegWalk<'_, '_> {
    /// What stands on `sq` at this point of the move (the mover left its square,
    /// locust victims are gone).
    fn occupant(&self, sq: Square) -> Piece {
        if sq == self.piece.from || self.captured[..self.n_captured].contains(&sq) {
            Piece::NONE
        } else {
            self.piece.pos.piece_at(sq)
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
        if self.piece.captures_only && !any {
            return;
        }
        self.piece.add_move(to, any, extra);
    }

    fn leg(&mut self, index: usize, at: Square, prev_dir: u8, prev_len: usize) {
        let comp = &self.pattern.component;
        let leg = &comp.legs[index];
        let last = index + 1 == comp.legs.len();
        let g = self.piece.rules.variant.geometry;
        let sign = self.pattern.sign;
        let cyl = leg.mode.contains(Mode::CYLINDER);
        let royal = self.piece.rules.royal_types;
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
                if p.is_wall() {
                    break;
                }
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
                    let own = p.color() == self.piece.us;
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
                let own = p.color() == self.piece.us;
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
