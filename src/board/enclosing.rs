//! Enclosing drops and flipping (reversi, ataxx, snort, connect four): where the
//! position lets a piece be dropped, and which enemy pieces a move turns over. Both
//! follow Fairy-Stockfish's `enclosingDrop` and `flipEnclosedPieces` rules square
//! for square, quirks included (see [`Ruleset::anyside_drops`]).

use super::Ruleset;
use crate::types::{Geometry, Move, MoveKind, Square, SquareSet};
use crate::variant::Enclosing;

/// The eight king steps (file step, rank step).
const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The squares next to a square of `set`, by the given steps.
fn neighbours(g: Geometry, set: SquareSet, steps: &[(i32, i32)]) -> SquareSet {
    let mut out = SquareSet::EMPTY;
    for sq in set.iter() {
        for &(dx, dy) in steps {
            if let Some(t) = g.offset(sq, dx, dy) {
                out.insert(t);
            }
        }
    }
    out
}

/// The enemy pieces between `sq` and an own piece along one queen line from it (a
/// run of `theirs` with an own piece right after it).
fn enclosed_from(g: Geometry, sq: Square, ours: SquareSet, theirs: SquareSet) -> SquareSet {
    let mut out = SquareSet::EMPTY;
    for &(dx, dy) in &KING_STEPS {
        let mut run = SquareSet::EMPTY;
        let mut cur = sq;
        while let Some(t) = g.offset(cur, dx, dy) {
            if theirs.contains(t) {
                run.insert(t);
                cur = t;
                continue;
            }
            if ours.contains(t) {
                out |= run;
            }
            break;
        }
    }
    out
}

impl Ruleset {
    /// Of the empty squares `squares`, those the variant's enclosing-drop rule lets
    /// the side with pieces `ours` drop on (the other side has `theirs`).
    pub(super) fn enclosing_drop_squares(
        &self,
        squares: SquareSet,
        ours: SquareSet,
        theirs: SquareSet,
    ) -> SquareSet {
        let c = &self.variant.connect;
        if c.enclosing_drop == Enclosing::None {
            return squares;
        }
        let g = self.variant.geometry;
        let occupied = ours | theirs;
        let start = c.enclosing_drop_start.minus(&occupied);
        if !start.is_empty() {
            return squares & start;
        }
        match c.enclosing_drop {
            Enclosing::None => squares,
            Enclosing::Reversi => {
                let near = squares & neighbours(g, theirs, &KING_STEPS);
                near.iter()
                    .filter(|&sq| !enclosed_from(g, sq, ours, theirs).is_empty())
                    .collect()
            }
            // Fairy-Stockfish has no quadwrangle drop rule of its own: it reads as ataxx.
            Enclosing::Ataxx | Enclosing::Quadwrangle => squares & neighbours(g, ours, &KING_STEPS),
            Enclosing::Snort => squares.minus(&neighbours(g, theirs, &KING_STEPS[..4])),
            Enclosing::Top => {
                let supported = neighbours(g, occupied, &[(0, 1)]) | g.rank_set(0);
                squares & supported
            }
            Enclosing::Anyside => self.anyside_drops(occupied),
        }
    }

    /// Connect four from any side: for each edge square that is empty, the first
    /// square (lowest index) of its rank or file where a piece pushed in stops, as
    /// Fairy-Stockfish finds it. For pushes from the north and east edges that is
    /// the lowest stopping square of the line, not the one nearest the edge, as in
    /// Fairy-Stockfish; the drop region does not apply.
    fn anyside_drops(&self, occupied: SquareSet) -> SquareSet {
        let g = self.variant.geometry;
        let (files, ranks) = (g.files, g.ranks);
        let empty = g.all().minus(&occupied);
        let stops =
            |step: (i32, i32), edge: SquareSet| (neighbours(g, occupied, &[step]) | edge) & empty;
        let mut b = SquareSet::EMPTY;
        let lowest = |set: SquareSet| set.first();
        // From the west (a piece stops before an occupied square to its east).
        let west = stops((-1, 0), g.file_set(files - 1));
        for r in 0..ranks {
            if !occupied.contains(g.square(0, r))
                && let Some(sq) = lowest(west & g.rank_set(r))
            {
                b.insert(sq);
            }
        }
        // From the south.
        let south = stops((0, -1), g.rank_set(ranks - 1));
        for f in 0..files {
            if !occupied.contains(g.square(f, 0))
                && let Some(sq) = lowest(south & g.file_set(f))
            {
                b.insert(sq);
            }
        }
        // From the north.
        let north = stops((0, 1), g.rank_set(0));
        for f in 0..files {
            if !occupied.contains(g.square(f, ranks - 1))
                && let Some(sq) = lowest(north & g.file_set(f))
            {
                b.insert(sq);
            }
        }
        // From the east.
        let east = stops((1, 0), g.file_set(0));
        for r in 0..ranks {
            if !occupied.contains(g.square(files - 1, r))
                && let Some(sq) = lowest(east & g.rank_set(r))
            {
                b.insert(sq);
            }
        }
        b
    }

    /// The enemy pieces that move `m` of the side with pieces `ours` turns over,
    /// found before the move is played (the other side has `theirs`).
    pub(super) fn flipped(&self, m: Move, ours: SquareSet, theirs: SquareSet) -> SquareSet {
        let g = self.variant.geometry;
        let to = m.to();
        let around = || neighbours(g, SquareSet::single(to), &KING_STEPS);
        match self.variant.connect.flip_enclosed {
            _ if m.kind() == MoveKind::Pass => SquareSet::EMPTY,
            Enclosing::Reversi => enclosed_from(g, to, ours, theirs),
            Enclosing::Ataxx => around() & theirs,
            Enclosing::Quadwrangle => {
                let near = around();
                if m.kind() == MoveKind::Normal || near.intersects(&ours) {
                    near & theirs
                } else {
                    SquareSet::EMPTY
                }
            }
            _ => SquareSet::EMPTY,
        }
    }
}
