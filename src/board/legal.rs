//! Legality. The reference test plays the move and asks whether the mover's royal
//! pieces are safe (plus the variant's move restrictions). A faster test, valid in
//! most positions of most variants, proves legality without playing the move: a
//! non-royal move that neither leaves nor enters a square on a line to the royal
//! piece cannot expose it; in check, such a move is legal only if it takes the one
//! checking piece or blocks its line; the royal piece's own step is legal when its
//! new square is not attacked once it has left the old one.

use super::{Position, ProbeKind, Ruleset};
use crate::types::{Color, Move, MoveKind, MoveList, PieceType, Square, SquareSet};

/// Facts about a node, computed once and used for every move of that node.
#[derive(Clone, Debug, Default)]
pub struct NodeInfo {
    /// The fast test may be used at all.
    fast: bool,
    /// Moves from these squares need the full test (pinned pieces, screens, lame legs).
    sensitive_from: SquareSet,
    /// Moves to these squares need the full test (hopper lines, jump squares).
    sensitive_to: SquareSet,
    /// In check: the squares where a non-royal move must land to capture the one
    /// checking piece or block its line (none in double check).
    evasions: Option<SquareSet>,
}

impl Ruleset {
    pub fn node_info(&self, pos: &Position) -> NodeInfo {
        let mut info = NodeInfo::default();
        let in_check = pos.in_check();
        // (Facing generals and makpong's "the king in check may only take the checker"
        // are left to the full test.)
        if !self.simple_legality
            || in_check && (self.variant.flying_general || self.variant.makpong_rule)
        {
            return info;
        }
        let us = pos.side_to_move();
        let them = us.flip();
        let royals = pos.royals(us);
        match royals.count() {
            0 => {
                info.fast = true;
                return info;
            }
            1 => {}
            _ => return info,
        }
        let king = royals.first().expect("one royal");
        // In check: the checking pieces and the squares between them and the king.
        let mut checkers = SquareSet::EMPTY;
        let mut evasions = SquareSet::EMPTY;
        for p in self.probes(them, king) {
            let ray = p.ray();
            match p.kind() {
                ProbeKind::Slide => {
                    let mut blocker: Option<Square> = None;
                    for (i, &sq) in ray.iter().enumerate() {
                        let pc = pos.piece_at(sq);
                        if pc.is_none() {
                            continue;
                        }
                        match blocker {
                            None if pc.color() == us => blocker = Some(sq),
                            None => {
                                if in_check && p.types() & 1u64 << pc.kind() != 0 {
                                    checkers.insert(sq);
                                    evasions |= ray[..=i].iter().copied().collect::<SquareSet>();
                                }
                                break;
                            }
                            Some(b) => {
                                if pc.color() == them && p.types() & 1u64 << pc.kind() != 0 {
                                    info.sensitive_from.insert(b);
                                }
                                break;
                            }
                        }
                    }
                }
                // Checks by hoppers and lame leapers are left to the full test.
                ProbeKind::Hop | ProbeKind::Grasshop if in_check => return NodeInfo::default(),
                ProbeKind::Hop => {
                    // For each hopper of the line among the first three pieces from the
                    // king: as the 1st piece, a piece landing in between becomes its
                    // screen; as the 3rd, either piece in between leaving makes a single
                    // screen. (As the 2nd it gives check now: no fast path then.)
                    let mut seen: [Square; 2] = [0; 2];
                    let mut n = 0;
                    for &sq in ray {
                        let pc = pos.piece_at(sq);
                        if pc.is_none() {
                            continue;
                        }
                        let hopper = pc.color() == them && p.types() & 1u64 << pc.kind() != 0;
                        if hopper && n == 0 {
                            for &e in ray.iter().take_while(|&&e| e != sq) {
                                info.sensitive_to.insert(e);
                            }
                        }
                        if n == 2 {
                            if hopper {
                                info.sensitive_from.insert(seen[0]);
                                info.sensitive_from.insert(seen[1]);
                            }
                            break;
                        }
                        seen[n] = sq;
                        n += 1;
                    }
                }
                ProbeKind::Grasshop => {
                    for &sq in ray {
                        info.sensitive_from.insert(sq);
                        info.sensitive_to.insert(sq);
                    }
                }
                ProbeKind::Leap => {
                    let attacker = pos.piece_at(ray[0]);
                    if attacker.is_none()
                        || attacker.color() != them
                        || p.types() & 1u64 << attacker.kind() == 0
                    {
                        continue;
                    }
                    if in_check {
                        if !p.blocks().is_empty() {
                            return NodeInfo::default();
                        }
                        checkers.insert(ray[0]);
                        evasions.insert(ray[0]);
                    }
                    for &b in p.blocks() {
                        info.sensitive_from.insert(b);
                        if p.must_jump() {
                            info.sensitive_to.insert(b);
                        }
                    }
                }
            }
        }
        if self.variant.flying_general {
            // A lone piece between the two generals may not leave the file.
            if let Some(other) = pos.royals(them).first() {
                let g = self.variant.geometry;
                if g.file(other) == g.file(king) {
                    let (lo, hi) = if king < other {
                        (king, other)
                    } else {
                        (other, king)
                    };
                    let between: Vec<Square> = (lo as usize + g.files as usize..hi as usize)
                        .step_by(g.files as usize)
                        .map(|s| s as Square)
                        .filter(|&s| pos.piece_at(s).is_some())
                        .collect();
                    if between.len() == 1 {
                        info.sensitive_from.insert(between[0]);
                    }
                }
            }
        }
        if in_check {
            info.evasions = match checkers.count() {
                0 => return NodeInfo::default(),
                1 => Some(evasions),
                _ => Some(SquareSet::EMPTY),
            };
        }
        info.fast = true;
        info
    }

    /// Legality using the node's facts: the fast proof when it applies, else the
    /// full test.
    #[inline]
    pub fn is_legal_with(&self, pos: &mut Position, m: Move, info: &NodeInfo) -> bool {
        if info.fast {
            let fast = match m.kind() {
                MoveKind::Normal => !m.has_extra() && m.gate().is_none(),
                MoveKind::Promotion => m.gate().is_none(),
                MoveKind::PiecePromotion | MoveKind::PieceDemotion => true,
                MoveKind::Drop => true,
                _ => false,
            };
            if fast {
                let to_ok = !info.sensitive_to.contains(m.to());
                // In check a non-royal move that neither takes the checking piece nor
                // blocks its line leaves the check standing.
                let evades = info.evasions.is_none_or(|e| e.contains(m.to()));
                if m.kind() == MoveKind::Drop {
                    if self.royal_types & 1u64 << m.piece() == 0 {
                        if !evades {
                            return false;
                        }
                        if to_ok {
                            return true;
                        }
                    }
                } else {
                    let mover = pos.piece_at(m.from()).kind();
                    let royal = self.royal_types & 1u64 << mover != 0;
                    if !royal && !evades {
                        return false;
                    }
                    if to_ok && !royal && !info.sensitive_from.contains(m.from()) {
                        return true;
                    }
                    // The royal piece steps: legal when its new square is not attacked
                    // with it gone from the old one (facing generals aside).
                    if royal && m.kind() == MoveKind::Normal && !self.variant.flying_general {
                        let mut occ = pos.occupied() | pos.walls();
                        occ.remove(m.from());
                        return !self.attacked_on(pos, m.to(), pos.side_to_move().flip(), &occ);
                    }
                }
            }
        }
        self.is_legal(pos, m)
    }

    /// The full legality test of a pseudo-legal move (without the "captures are
    /// compulsory" rule, which depends on the other moves).
    pub fn is_legal(&self, pos: &mut Position, m: Move) -> bool {
        // Fairy-Stockfish (our rules oracle) does not count a gated piece as a blocker
        // when it tests whether a gating move leaves the king in check: such a move is
        // legal exactly when the same move without gating is. (Seirawan's rules would
        // let the gated piece block; we follow the oracle so that perft agrees.)
        if m.gate().is_some() && m.kind() != MoveKind::Castling && !self.pseudo_royal {
            let plain = Move(m.0 & !(0x7f << 25));
            return self.is_legal(pos, plain);
        }
        // Likewise a move's new wall square does not block a check on a royal piece
        // (pseudo-royal pieces see it, and the duck gone from its old square).
        if m.wall().is_some() && !self.pseudo_royal {
            return self.is_legal(pos, m.without_wall());
        }
        let v = &self.variant;
        let us = pos.side_to_move();
        let them = us.flip();
        // Bikjang: with the kings facing, passing is legal even in check, and any
        // other move must separate them.
        let bikjang = v.bikjang_rule && self.kings_face(pos);
        if bikjang && m.kind() == MoveKind::Pass {
            return true;
        }
        match m.kind() {
            MoveKind::Castling => {
                let kp = pos.piece_at(m.from());
                let (kto, rto) = self.castling_destinations(us, m.from(), m.to());
                if m.gate().is_some() {
                    let gsq = if m.gate_on_rook() { m.to() } else { m.from() };
                    if gsq == kto || gsq == rto {
                        return false;
                    }
                }
                if self.pseudo_royal && self.pseudo_royals(pos, us).contains(m.from()) {
                    // A pseudo-royal king may not castle out of or through attacks
                    // (touching the enemy king protects it in blast variants).
                    let theirs = self.pseudo_royals(pos, them);
                    let g = v.geometry;
                    let step: i32 = if kto > m.from() { 1 } else { -1 };
                    let mut s = m.from() as i32;
                    loop {
                        let sq = s as Square;
                        let touching = v.blast_on_capture
                            && theirs.iter().any(|o| {
                                (g.file(o) as i32 - g.file(sq) as i32).abs() <= 1
                                    && (g.rank(o) as i32 - g.rank(sq) as i32).abs() <= 1
                            });
                        if !touching && self.attacked_by(pos, sq, them) {
                            return false;
                        }
                        s += step;
                        if s == kto as i32 || kto == m.from() {
                            break;
                        }
                    }
                }
                if self.royal_types & 1u64 << kp.kind() != 0 {
                    let (lo, hi) = if kto < m.from() {
                        (kto, m.from())
                    } else {
                        (m.from(), kto)
                    };
                    for s in lo..=hi {
                        if s != m.from() && self.attacked_by(pos, s, them) {
                            return false;
                        }
                    }
                }
            }
            MoveKind::Pass if v.pass_on_stalemate[us as usize] && !v.pass[us as usize] => {
                if pos.in_check() {
                    return false;
                }
                let mut list = MoveList::new();
                self.generate_pseudo(pos, &mut list);
                for &other in list.iter() {
                    if other.kind() != MoveKind::Pass && self.is_legal(pos, other) {
                        return false;
                    }
                }
            }
            _ => {}
        }
        if v.makpong_rule
            && m.kind() == MoveKind::Normal
            && pos.in_check()
            && self.royal_types & 1u64 << pos.piece_at(m.from()).kind() != 0
            && self.attackers_to(pos, m.from(), them) != SquareSet::single(m.to())
        {
            // Makpong: the king in check may only capture the one piece checking it.
            return false;
        }
        if v.must_drop
            && let Some(illegal) = self.must_drop_violation(pos, m)
        {
            return !illegal;
        }
        if v.drop_opposite_colored_bishop && m.is_drop() && !self.bishops_fit(pos, us, m) {
            return false;
        }
        if v.mutually_immune_types != 0 && m.kind() == MoveKind::Normal {
            let a = pos.piece_at(m.from());
            let b = pos.piece_at(m.to());
            if b.is_some()
                && a.kind() == b.kind()
                && v.mutually_immune_types & 1u64 << a.kind() != 0
            {
                return false;
            }
        }
        let before = if self.pseudo_royal {
            Some(self.pseudo_royal_counts(pos))
        } else {
            None
        };
        let no_check = !v.checking
            || (!v.drop_checks && m.is_drop())
            || (v.sittuyin_promotion && m.kind() == MoveKind::Promotion);
        // Whether the move gives check matters only where checking is forbidden: the
        // attack test of `make` is skipped elsewhere (the position is unmade below).
        if no_check {
            pos.make(m);
        } else {
            pos.make_without_check(m);
        }
        if before.is_some() && v.blast_on_capture && v.petrify_on_capture_types != 0 {
            // Fairy-Stockfish tests pseudo-royal safety after a blast with the blast's
            // squares empty, petrified or not: so do we (unmake restores the walls).
            let walls_before = pos.history().last().map_or(SquareSet::EMPTY, |s| s.walls);
            for sq in pos.walls().minus(&walls_before).iter() {
                pos.clear_wall(sq);
            }
        }
        let mut ok = before.is_none_or(|b| self.pseudo_royals_safe(pos, us, &b, m))
            && !self.royal_attacked(pos, us)
            && !(v.duple_check && self.duple_checked(pos, us));
        if ok && no_check && pos.in_check() {
            ok = false;
        }
        if ok && bikjang && self.kings_face(pos) {
            ok = false;
        }
        pos.unmake();
        ok
    }

    /// Pseudo-royal piece counts per colour and type (before a move).
    fn pseudo_royal_counts(&self, pos: &Position) -> [[u32; 64]; 2] {
        let mut c = [[0u32; 64]; 2];
        let mut ty = self.variant.extinction_piece_types;
        while ty != 0 {
            let t = ty.trailing_zeros() as usize;
            ty &= ty - 1;
            for color in Color::BOTH {
                c[color as usize][t] = pos.count(color, t as PieceType);
            }
        }
        c
    }

    /// After `us` played `m`: are its pseudo-royal pieces all there and safe?
    ///
    /// As in Fairy-Stockfish, pseudo-royalty is decided before the move (a type is
    /// pseudo-royal while few enough of its pieces are left) and follows the pieces
    /// through it: a dropped piece of such a type is pseudo-royal too; a pawn-style
    /// promotion to such a type makes the new piece pseudo-royal, unless the type
    /// already had its full count, which then loses pseudo-royalty altogether; a
    /// shogi-style promotion or demotion keeps the piece's pseudo-royalty and adds
    /// none (in Shō shogi, promoting the drunk elephant does not free the king from
    /// check; in gethenian, a promoting king stays royal).
    fn pseudo_royals_safe(
        &self,
        pos: &Position,
        us: Color,
        before: &[[u32; 64]; 2],
        m: Move,
    ) -> bool {
        let limit = self.variant.extinction_piece_count + 1;
        let types = self.variant.extinction_piece_types;
        // The pieces of `c` whose types were pseudo-royal before the move.
        let royal_before =
            |c: Color| self.pseudo_royals_counted(pos, c, |t| before[c as usize][t as usize]);
        let to = m.to();
        // A piece that changed type in place (shogi-style promotion or demotion):
        // its type before the move. It keeps the pseudo-royalty it had then.
        let changed_from = match m.kind() {
            MoveKind::PiecePromotion => pos.promoted_from(to),
            MoveKind::PieceDemotion => {
                let t = pos.piece_at(to).kind();
                Some(self.variant.promoted_piece_type[t as usize].unwrap_or(t))
            }
            _ => None,
        };
        // Did `c` lose one of the pieces that were pseudo-royal before the move?
        let lost = |c: Color| {
            let mut ty = types;
            while ty != 0 {
                let t = ty.trailing_zeros() as usize;
                ty &= ty - 1;
                let was = before[c as usize][t];
                let changed = c == us && changed_from == Some(t as PieceType);
                let now = pos.count(c, t as PieceType) + changed as u32;
                if was <= limit && now < was {
                    return true;
                }
            }
            false
        };
        // Losing one of our own (e.g. by our own explosion) is illegal; taking one of
        // theirs ends the game, so it is legal whatever else happens.
        if lost(us) {
            return false;
        }
        if lost(us.flip()) {
            return true;
        }
        let mut ours = royal_before(us);
        let moved = pos.piece_at(to);
        let new_type = moved.kind();
        let new_is_extinction =
            moved.is_some() && moved.color() == us && types & 1u64 << new_type != 0;
        match m.kind() {
            MoveKind::Drop if new_is_extinction => ours |= SquareSet::single(to),
            MoveKind::Promotion if new_is_extinction => {
                if before[us as usize][new_type as usize] >= limit {
                    ours = ours.minus(&pos.pieces_of(us, new_type));
                } else {
                    ours |= SquareSet::single(to);
                }
            }
            MoveKind::PiecePromotion | MoveKind::PieceDemotion => {
                let was_royal = changed_from.is_some_and(|t| {
                    types & 1u64 << t != 0 && before[us as usize][t as usize] <= limit
                });
                if was_royal {
                    ours |= SquareSet::single(to);
                } else {
                    ours = ours.minus(&SquareSet::single(to));
                }
            }
            _ => {}
        }
        !self.any_attacked(pos, us, ours, royal_before(us.flip()))
    }

    /// Placement rule: while pieces of the must-drop type are in hand, only drops.
    /// Returns Some(true) if `m` is illegal for that reason, Some(false) if legal
    /// so far, None if the rule does not apply.
    fn must_drop_violation(&self, pos: &mut Position, m: Move) -> Option<bool> {
        let v = &self.variant;
        let us = pos.side_to_move();
        let in_hand = match v.must_drop_type {
            Some(t) => pos.hand(us, t) as u32,
            None => pos.hand_total(us),
        };
        if in_hand == 0 {
            return None;
        }
        if m.is_drop() {
            if let Some(t) = v.must_drop_type
                && t != m.piece()
            {
                return Some(true);
            }
            return None;
        }
        // A non-drop is illegal if some drop is legal.
        let mut list = MoveList::new();
        self.generate_pseudo(pos, &mut list);
        for &d in list.iter().filter(|d| d.is_drop()) {
            if self.is_legal(pos, d) {
                return Some(true);
            }
        }
        None
    }

    /// Placement chess: dropped bishops must end up on squares of both colours.
    fn bishops_fit(&self, pos: &Position, us: Color, m: Move) -> bool {
        let Some(bishop) = self.variant.type_by_slot("bishop") else {
            return true;
        };
        let g = self.variant.geometry;
        let dark = |s: Square| (g.file(s) + g.rank(s)).is_multiple_of(2);
        let region = self.variant.drop_region[us as usize];
        let on_board = pos.pieces_of(us, bishop);
        let total = on_board.count() + pos.hand(us, bishop) as u32;
        let to = m.to();
        if m.piece() != bishop {
            let remaining = region.minus(&pos.occupied()).minus(&SquareSet::single(to));
            let avail = on_board | remaining;
            let d = avail.iter().filter(|&s| dark(s)).count() as u32;
            let l = avail.iter().filter(|&s| !dark(s)).count() as u32;
            d >= total / 2 && l >= total / 2
        } else {
            let same = on_board.iter().filter(|&s| dark(s) == dark(to)).count() as u32;
            same < total.div_ceil(2)
        }
    }

    /// Does the move capture (on its destination, en passant, or on the way)?
    #[inline]
    pub fn is_capture(&self, pos: &Position, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castling | MoveKind::Drop | MoveKind::Pass => false,
            _ => pos.piece_at(m.to()).is_some() && m.to() != m.from() || m.extras().any(|(_, c)| c),
        }
    }
}
