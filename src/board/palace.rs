//! Janggi's piece rules beyond XBetza: the cannon, which neither hops over nor
//! captures a cannon, and the moves along the marked diagonals of the palaces
//! (`diagonalLines`). Fairy-Stockfish ties both to piece types: the built-in
//! `janggiCannon`, and from a marked square the rook slides, the wazir (and a king
//! that moves as one) and the soldier step, and the janggi cannon hops along the
//! diagonals to other marked squares. Types with such moves are attacked-by tests'
//! "complex attackers": their attacks are found by generating their moves.

use super::walk::{MultiLeg, StepMode, Target, Visit};
use super::{Position, Ruleset};
use crate::types::{Color, PieceType, Square, SquareSet, TypeSet};
use crate::variant::Variant;

/// How a type moves along the marked diagonals from a marked square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagonalMove {
    None,
    /// One step to any diagonal neighbour (wazir, wazir-moving king: as a fers).
    Step,
    /// One step diagonally forward (soldier: as a pawn captures).
    ForwardStep,
    /// Any distance, blocked by pieces (rook: as a bishop).
    Slide,
    /// The janggi cannon's hop, along a diagonal.
    CannonHop,
}

/// What the janggi rules add to a variant's pieces, derived once.
#[derive(Clone, Debug, Default)]
pub struct Palace {
    /// Types that are janggi cannons (the built-in `janggiCannon`).
    pub cannons: TypeSet,
    /// Per type, its moves along the marked diagonals (all `None` without lines).
    pub diagonal: Vec<Option<DiagonalMove>>,
    /// Types whose moves these rules change (cannons and types with diagonal moves).
    pub types: TypeSet,
}

const JANGGI_CANNON_BETZA: &str = "pR";

impl Palace {
    pub fn new(v: &Variant) -> Palace {
        let mut p = Palace {
            cannons: 0,
            diagonal: vec![None; v.pieces.len()],
            types: 0,
        };
        for (t, def) in v.pieces.iter().enumerate() {
            let cannon = def.slot == "janggiCannon" && def.betza == JANGGI_CANNON_BETZA;
            if cannon {
                p.cannons |= 1u64 << t;
            }
            if v.diagonal_lines.is_empty() {
                continue;
            }
            let d = match def.slot.as_str() {
                "wazir" => DiagonalMove::Step,
                "king" if def.betza == "W" => DiagonalMove::Step,
                "soldier" => DiagonalMove::ForwardStep,
                "rook" => DiagonalMove::Slide,
                _ if cannon => DiagonalMove::CannonHop,
                _ => DiagonalMove::None,
            };
            if d != DiagonalMove::None {
                p.diagonal[t] = Some(d);
            }
        }
        p.types = p.cannons
            | p.diagonal
                .iter()
                .enumerate()
                .filter(|(_, d)| d.is_some())
                .fold(0, |a, (t, _)| a | 1u64 << t);
        p
    }
}

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

impl Ruleset {
    /// The janggi cannon's targets from `from`, orthogonally and (from a marked
    /// square) along the marked diagonals: `emit(to, capture)` for each, own pieces
    /// excluded.
    pub(super) fn cannon_targets(
        &self,
        pos: &Position,
        us: Color,
        from: Square,
        mut emit: impl FnMut(Square, bool),
    ) {
        for (dx, dy) in ORTHOGONAL {
            self.cannon_ray(pos, us, from, dx, dy, None, &mut emit);
        }
        let lines = &self.variant.diagonal_lines;
        if lines.contains(from) {
            for (dx, dy) in DIAGONAL {
                self.cannon_ray(pos, us, from, dx, dy, Some(lines), &mut emit);
            }
        }
    }

    /// One ray of the cannon: over exactly one piece that is not a cannon, then to
    /// the empty squares beyond and the first piece, unless it is a cannon. With
    /// `lines`, only targets on the marked squares count.
    #[allow(clippy::too_many_arguments)]
    fn cannon_ray(
        &self,
        pos: &Position,
        us: Color,
        from: Square,
        dx: i32,
        dy: i32,
        lines: Option<&SquareSet>,
        emit: &mut impl FnMut(Square, bool),
    ) {
        let g = self.variant.geometry;
        let cannons = self.palace.cannons;
        let is_cannon = |sq: Square| {
            let p = pos.piece_at(sq);
            p.is_some() && cannons & 1u64 << p.kind() != 0
        };
        let mut cur = from;
        let mut screen = false;
        while let Some(sq) = g.offset(cur, dx, dy) {
            cur = sq;
            let p = pos.piece_at(sq);
            if !screen {
                if p.is_some() {
                    if is_cannon(sq) {
                        return;
                    }
                    screen = true;
                }
                continue;
            }
            let on_line = lines.is_none_or(|l| l.contains(sq));
            if p.is_none() {
                if on_line {
                    emit(sq, false);
                }
                continue;
            }
            if on_line && p.color() != us && !is_cannon(sq) {
                emit(sq, true);
            }
            return;
        }
    }

    /// The moves of `kind` along the marked diagonals from `from` (none unless
    /// `from` is marked): `emit(to, capture)`, own pieces excluded. The cannon's
    /// are part of [`cannon_targets`](Self::cannon_targets).
    pub(super) fn diagonal_targets(
        &self,
        pos: &Position,
        us: Color,
        kind: PieceType,
        from: Square,
        mut emit: impl FnMut(Square, bool),
    ) {
        let lines = &self.variant.diagonal_lines;
        if !lines.contains(from) {
            return;
        }
        let (range, forward_only) = match self.palace.diagonal[kind as usize] {
            Some(DiagonalMove::Step) => (1, false),
            Some(DiagonalMove::ForwardStep) => (1, true),
            Some(DiagonalMove::Slide) => (u8::MAX, false),
            _ => return,
        };
        let g = self.variant.geometry;
        let forward = if us == Color::White { 1 } else { -1 };
        for (dx, dy) in DIAGONAL {
            if forward_only && dy != forward {
                continue;
            }
            let mut cur = from;
            let mut n = 0;
            while n < range {
                let Some(sq) = g.offset(cur, dx, dy) else {
                    break;
                };
                cur = sq;
                n += 1;
                let p = pos.piece_at(sq);
                if lines.contains(sq) && (p.is_none() || p.color() != us) {
                    emit(sq, p.is_some());
                }
                if p.is_some() {
                    break;
                }
            }
        }
    }

    /// Does the piece of type `kind` and colour `by` on `from` attack `target`
    /// (hold an enemy piece there that it could capture)? For the types of
    /// [`Palace::types`], without generating a move list.
    pub(super) fn palace_attacks(
        &self,
        pos: &Position,
        by: Color,
        kind: PieceType,
        from: Square,
        target: Square,
    ) -> bool {
        if let Some(r) = &self.variant.mobility_region[by as usize][kind as usize]
            && !r.contains(target)
        {
            return false;
        }
        let mut hit = false;
        if self.palace.cannons & 1u64 << kind != 0 {
            self.cannon_targets(pos, by, from, |to, capture| hit |= capture && to == target);
            return hit;
        }
        let mut walk = Hits {
            target,
            royal: self.royal_types,
            pos,
            hit: false,
        };
        self.walk(by, kind, from, pos, &mut walk);
        if walk.hit {
            return true;
        }
        self.diagonal_targets(pos, by, kind, from, |to, capture| {
            hit |= capture && to == target
        });
        hit
    }

    /// Are the two kings on one open line (bikjang)? Only with `bikjangRule`.
    pub fn kings_face(&self, pos: &Position) -> bool {
        if !self.variant.bikjang_rule {
            return false;
        }
        let (Some(a), Some(b)) = (
            pos.royals(Color::White).first(),
            pos.royals(Color::Black).first(),
        ) else {
            return false;
        };
        let g = self.variant.geometry;
        let (fa, ra, fb, rb) = (g.file(a), g.rank(a), g.file(b), g.rank(b));
        if fa != fb && ra != rb {
            return false;
        }
        let dx = (fb as i32 - fa as i32).signum();
        let dy = (rb as i32 - ra as i32).signum();
        let mut cur = a;
        while let Some(sq) = g.offset(cur, dx, dy) {
            if sq == b {
                return true;
            }
            if pos.piece_at(sq).is_some() {
                return false;
            }
            cur = sq;
        }
        false
    }
}

/// Does a walk capture on `target` (which holds an enemy piece)?
struct Hits<'p> {
    target: Square,
    royal: TypeSet,
    pos: &'p Position,
    hit: bool,
}

impl<'a> Visit<'a> for Hits<'_> {
    #[inline]
    fn target(&mut self, t: Target) {
        if t.to == self.target
            && t.occupied
            && t.mode.contains(StepMode::CAPTURE)
            && !(t.mode.contains(StepMode::TAME)
                && self.royal & 1u64 << self.pos.piece_at(t.to).kind() != 0)
        {
            self.hit = true;
        }
    }
    #[inline]
    fn multi(&mut self, _: MultiLeg<'a>, _: StepMode) {}
}
