//! Walling moves: where the wall square of a move may go (Fairy-Stockfish's
//! `wallingRule`: arrow, duck, edge, past, static, within `wallingRegion`). A move
//! and its wall square are one move; make puts the wall up (position.rs).

use super::Ruleset;
use super::position::Position;
use super::walk::{MultiLeg, StepMode, Target, Visit};
use crate::types::{Move, MoveKind, MoveList, Square, SquareSet};
use crate::variant::WallingRule;

impl Ruleset {
    /// Replace the moves `list[start..]` by each of them with each wall square it
    /// may place (a move with no square for its wall goes).
    pub(super) fn add_walls(&self, pos: &Position, list: &mut MoveList, start: usize) {
        let end = list.len();
        for i in start..end {
            let m = list.moves[i];
            for sq in self.wall_squares(pos, m).iter() {
                list.push(m.with_wall(sq));
            }
        }
        list.moves.drain(start..end);
    }

    /// The squares where `m` (without its wall) may place its wall.
    pub fn wall_squares(&self, pos: &Position, m: Move) -> SquareSet {
        let v = &self.variant;
        let g = v.geometry;
        let us = pos.side_to_move();
        let (from, to) = (m.from(), m.to());
        // The squares taken after the move. As in Fairy-Stockfish, a locust victim's
        // square still counts as taken.
        let mut taken = pos.occupied() | pos.walls();
        match m.kind() {
            MoveKind::Drop => taken.insert(to),
            MoveKind::Pass => {}
            MoveKind::Castling => {
                let (kto, rto) = self.castling_destinations(us, from, to);
                taken.remove(from);
                taken.remove(to);
                taken.insert(kto);
                taken.insert(rto);
            }
            MoveKind::EnPassant => {
                taken.remove(from);
                taken.insert(to);
                if let Some(victim) = pos
                    .state()
                    .ep_victim
                    .or_else(|| self.ep_victim_fallback(pos.board(), to))
                {
                    taken.remove(victim);
                }
            }
            _ => {
                taken.remove(from);
                taken.insert(to);
            }
        }
        let mut b = g.all().minus(&taken).and(&v.walling_region[us as usize]);
        match v.walling_rule {
            WallingRule::None | WallingRule::Duck | WallingRule::Static => {}
            WallingRule::Past => b = b.and(&SquareSet::single(from)),
            WallingRule::Arrow => b = b.and(&self.arrow_squares(pos, m)),
            WallingRule::Edge => {
                let mut edge = SquareSet::EMPTY;
                for sq in g.all().iter() {
                    let (f, r) = (g.file(sq), g.rank(sq));
                    if f == 0 || r == 0 || f + 1 == g.files || r + 1 == g.ranks {
                        edge.insert(sq);
                    }
                }
                for w in pos.walls().iter() {
                    for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                        if let Some(n) = g.offset(w, dx, dy) {
                            edge.insert(n);
                        }
                    }
                }
                b = b.and(&edge);
            }
        }
        b
    }

    /// Where the moved piece could move (without capturing) from its destination,
    /// its start square empty: an amazon's arrow.
    fn arrow_squares(&self, pos: &Position, m: Move) -> SquareSet {
        let us = pos.side_to_move();
        let kind = match m.kind() {
            MoveKind::Drop => m.piece(),
            _ => pos.piece_at(m.from()).kind(),
        };
        let occ = AfterLeaving {
            pos,
            from: m.from(),
        };
        let mut quiet = QuietTargets(SquareSet::EMPTY);
        self.walk(us, kind, m.to(), &occ, &mut quiet);
        quiet.0
    }
}

/// The position's occupancy with one square (the mover's start) empty.
struct AfterLeaving<'a> {
    pos: &'a Position,
    from: Square,
}

impl super::walk::Occupancy for AfterLeaving<'_> {
    #[inline]
    fn is_occupied(&self, sq: Square) -> bool {
        sq != self.from && self.pos.piece_at(sq).is_some()
    }
}

/// Collects the empty squares a walk may move to.
pub(super) struct QuietTargets(pub(super) SquareSet);

impl<'a> Visit<'a> for QuietTargets {
    fn target(&mut self, t: Target) {
        if !t.occupied && t.mode.contains(StepMode::MOVE) {
            self.0.insert(t.to);
        }
    }
    fn multi(&mut self, _: MultiLeg<'a>, _: StepMode) {}
}
