//! The walk budget: a bound on the squares the move generator may visit per
//! piece and square, checked when a variant loads, before any table is built.

use crate::types::PieceType;
use crate::variant::Variant;
use crate::xbetza::{Component, Mode};

/// The most squares the move generator may visit walking the moves of all the
/// pieces of a variant, each from one square (see [`move_walk_size`]). Building the
/// tables walks every piece from every square, and move generation walks them in
/// every node, so this bounds both. A multi-leg move branches at every leg: a chain of
/// 16 four-way legs is four billion walks. Real games stay far below: the largest
/// built-in and Fairy-Stockfish variants total under 600.
pub const MOVE_WALK_BUDGET: u64 = 20_000;

/// An upper bound on the squares the move generator visits walking the moves of a
/// piece with these components from one square of a board whose longest line has
/// `span` squares: a leg goes in each of its directions as far as its range and the
/// board allow, and a later leg starts from every square where the one before may
/// stop (each empty square passed when the leg may stop on one, else only the first
/// occupied square).
pub fn move_walk_size(components: &[Component], span: u64) -> u64 {
    let mut total: u64 = 0;
    for c in components {
        let mut starts: u64 = 1;
        for (i, leg) in c.legs.iter().enumerate() {
            let steps = (leg.range.max_steps() as u64).min(span);
            let dirs = leg.directions.len() as u64;
            total = total.saturating_add(starts.saturating_mul(dirs).saturating_mul(steps));
            if i + 1 < c.legs.len() {
                let stops = if leg.mode.intersects(Mode::MOVE | Mode::TOGGLE) {
                    steps
                } else {
                    1
                };
                starts = starts.saturating_mul(dirs).saturating_mul(stops);
            }
        }
    }
    total
}

/// A variant whose pieces exceed [`MOVE_WALK_BUDGET`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverBudget {
    /// The piece with the largest walk, and that walk.
    pub piece: PieceType,
    pub piece_walk: u64,
    /// The walk of all the pieces.
    pub total_walk: u64,
}

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "too many move paths: from one square this piece's moves visit up to {} \
             squares, all the variant's pieces together {} (at most {MOVE_WALK_BUDGET} are \
             allowed)",
            self.piece_walk, self.total_walk
        )
    }
}

/// Check `v` against [`MOVE_WALK_BUDGET`] before any table is built (variants are
/// checked when they are loaded).
pub fn check_walk_budget(v: &Variant) -> Result<(), OverBudget> {
    let span = v.geometry.files.max(v.geometry.ranks) as u64;
    let walks: Vec<u64> = v
        .pieces
        .iter()
        .map(|p| move_walk_size(&p.moves.components, span))
        .collect();
    let total_walk = walks.iter().fold(0u64, |a, &w| a.saturating_add(w));
    if total_walk <= MOVE_WALK_BUDGET {
        return Ok(());
    }
    let (piece, &piece_walk) = walks
        .iter()
        .enumerate()
        .max_by_key(|&(_, w)| *w)
        .unwrap_or((0, &0));
    Err(OverBudget {
        piece: piece as PieceType,
        piece_walk,
        total_walk,
    })
}
