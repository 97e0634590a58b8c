//! "Could this move give check?" before making it. The search prunes late quiet
//! moves that do not give check; making a move only to find that out costs a
//! make/unmake for every pruned move. These tables, built once per search from the
//! attack probes, answer with a superset of the checking moves: a move outside it
//! certainly does not check; a move inside it is made and tested.

use crate::board::{Position, ProbeKind, Ruleset};
use crate::types::{Color, Move, MoveKind, SquareSet, TypeSet};
use crate::variant::WallingRule;

pub struct CheckHints {
    num_types: usize,
    /// `(color * num_types + type) * 256 + target`: squares from which a piece of the
    /// type could attack `target` on some occupancy.
    attack_from: Vec<SquareSet>,
    /// `color * 256 + target`: squares a piece of `color` may leave to uncover an
    /// attack on `target` (slider and hopper rays, lame leapers' paths).
    uncover: Vec<SquareSet>,
    /// `color * 256 + target`: squares a piece may enter to become a screen or a
    /// jumped-over square that completes an attack on `target`.
    screen: Vec<SquareSet>,
    /// Types whose attacks the probes do not describe: any move of theirs may check.
    complex: [TypeSet; 2],
    /// Check is not a matter of one royal piece being attacked by probes: every move
    /// may check.
    always: bool,
    /// `may_check` is false for every move that checks (it may miss a check only in
    /// variants where the search merely prunes by it: discovered attacks of complex
    /// pieces, walls as screens, facing generals, duple check).
    exact: bool,
}

impl CheckHints {
    pub fn new(rules: &Ruleset) -> CheckHints {
        let v = &rules.variant;
        let g = v.geometry;
        let n = v.num_types();
        let mut attack_from = vec![SquareSet::EMPTY; 2 * n * 256];
        let mut uncover = vec![SquareSet::EMPTY; 2 * 256];
        let mut screen = vec![SquareSet::EMPTY; 2 * 256];
        for c in Color::BOTH {
            for target in g.squares() {
                let ci = c as usize * 256 + target as usize;
                for p in rules.probes(c, target) {
                    let ray: SquareSet = p.ray().iter().copied().collect();
                    let blocks: SquareSet = p.blocks().iter().copied().collect();
                    let mut types = p.types();
                    while types != 0 {
                        let ty = types.trailing_zeros() as usize;
                        types &= types - 1;
                        attack_from[(c as usize * n + ty) * 256 + target as usize] |= ray;
                    }
                    uncover[ci] |= blocks;
                    match p.kind() {
                        ProbeKind::Leap => {
                            if p.must_jump() {
                                screen[ci] |= blocks;
                            }
                        }
                        ProbeKind::Slide => uncover[ci] |= ray,
                        ProbeKind::Hop | ProbeKind::Grasshop => {
                            uncover[ci] |= ray;
                            screen[ci] |= ray;
                        }
                    }
                }
                if v.flying_general {
                    // A piece leaving the file may leave the generals facing.
                    uncover[ci] |= g.file_set(g.file(target));
                }
            }
        }
        // Janggi's cannon screens and palace lines are not in the probes.
        let always = rules.pseudo_royal || v.blast_on_capture || rules.palace.types != 0;
        let complex = [
            rules.complex_attackers(Color::White),
            rules.complex_attackers(Color::Black),
        ];
        let exact = complex == [0, 0]
            && !v.flying_general
            && !v.duple_check
            && v.walling_rule == WallingRule::None;
        CheckHints {
            num_types: n,
            attack_from,
            uncover,
            screen,
            complex,
            always,
            exact,
        }
    }

    /// True only when `m` (legal in `pos`) certainly gives no check: it may then be
    /// made without the attack test.
    #[inline]
    pub fn never_checks(&self, rules: &Ruleset, pos: &Position, m: Move) -> bool {
        self.exact && !self.always && !self.may_check(rules, pos, m)
    }

    /// False only when `m` (pseudo-legal in `pos`) certainly does not give check.
    #[inline]
    pub fn may_check(&self, rules: &Ruleset, pos: &Position, m: Move) -> bool {
        if rules.royal_types == 0 {
            return false;
        }
        if self.always || m.has_extra() || m.gate().is_some() {
            return true;
        }
        let us = pos.side_to_move();
        let royals = pos.royals(us.flip());
        let Some(ksq) = royals.first() else {
            return false;
        };
        if royals.count() > 1 {
            return true;
        }
        let placed = match m.kind() {
            MoveKind::Drop if m.is_promoted_drop() => {
                rules.variant.promoted_piece_type[m.piece() as usize].unwrap_or(m.piece())
            }
            MoveKind::Drop | MoveKind::Promotion => m.piece(),
            MoveKind::Normal | MoveKind::PiecePromotion | MoveKind::PieceDemotion => {
                let kind = pos.piece_at(m.from()).kind();
                match m.kind() {
                    MoveKind::PiecePromotion => {
                        rules.variant.promoted_piece_type[kind as usize].unwrap_or(kind)
                    }
                    MoveKind::PieceDemotion => pos.promoted_from(m.from()).unwrap_or(kind),
                    _ => kind,
                }
            }
            MoveKind::Castling | MoveKind::EnPassant | MoveKind::Pass => return true,
        };
        let ui = us as usize;
        if self.complex[ui] & 1u64 << placed != 0 {
            return true;
        }
        let k = ksq as usize;
        let to = m.to();
        if self.attack_from[(ui * self.num_types + placed as usize) * 256 + k].contains(to)
            || self.screen[ui * 256 + k].contains(to)
        {
            return true;
        }
        !m.is_drop() && self.uncover[ui * 256 + k].contains(m.from())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::check_variant;
    use crate::types::MoveList;
    use crate::variant::VariantSet;

    /// `never_checks` is a promise the search makes moves by: over random games in
    /// every built-in variant, no legal move it clears gives check.
    #[test]
    fn never_checks_is_never_wrong() {
        let set = VariantSet::builtin(check_variant);
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut cleared = 0u64;
        for v in set.iter() {
            let rules = Ruleset::new(v.clone());
            let hints = CheckHints::new(&rules);
            for _game in 0..4 {
                let mut pos = Position::start(&rules);
                let mut legal = MoveList::new();
                for _ply in 0..100 {
                    rules.generate_legal(&mut pos, &mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    for &m in legal.iter() {
                        if hints.never_checks(&rules, &pos, m) {
                            pos.make(m);
                            assert!(
                                !pos.in_check(),
                                "{}: {:?} checks at {}",
                                v.name,
                                m,
                                pos.fen()
                            );
                            pos.unmake();
                            cleared += 1;
                        }
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let m = legal.moves[(seed % legal.len() as u64) as usize];
                    pos.make(m);
                }
            }
        }
        assert!(cleared > 10_000, "only {cleared} moves cleared");
    }
}
