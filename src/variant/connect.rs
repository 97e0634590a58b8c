//! Connect-N wins, enclosing drops and flipping (Fairy-Stockfish's `connectN`,
//! `connectNxN`, `collinearN`, `connectRegion...`, `enclosingDrop`,
//! `flipEnclosedPieces`, `freeDrops`, `adjudicateFullBoard`): the rules as data, with
//! the lines a connection is looked for on computed once for the board.

use super::GameValue;
use crate::types::{Geometry, Square, SquareSet, TypeSet};

/// Where a drop may go, or which enemy pieces a move turns over (Fairy-Stockfish's
/// `EnclosingRule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enclosing {
    None,
    /// Drop: must enclose enemy pieces between it and an own piece along a queen
    /// line. Flip: the enemy pieces so enclosed.
    Reversi,
    /// Drop: next to an own piece (king step). Flip: the enemy pieces next to the
    /// destination.
    Ataxx,
    /// Flip: as ataxx, after a board move, or after a drop next to an own piece.
    Quadwrangle,
    /// Drop: not next to an enemy piece (wazir step).
    Snort,
    /// Drop: where a piece pushed in from an edge stops (connect four from any side).
    Anyside,
    /// Drop: on the lowest empty square of a file (connect four).
    Top,
}

impl Enclosing {
    /// The rule named by a variant file's value.
    pub fn parse(value: &str) -> Option<Enclosing> {
        Some(match value {
            "none" => Enclosing::None,
            "reversi" => Enclosing::Reversi,
            "ataxx" => Enclosing::Ataxx,
            "quadwrangle" => Enclosing::Quadwrangle,
            "snort" => Enclosing::Snort,
            "anyside" => Enclosing::Anyside,
            "top" => Enclosing::Top,
            _ => return None,
        })
    }
}

/// The rules of this family a variant has, frozen.
#[derive(Clone, Debug)]
pub struct ConnectRules {
    /// Where drops may go, beyond the drop region.
    pub enclosing_drop: Enclosing,
    /// While one of these squares is empty, drops go there, whatever
    /// `enclosing_drop` says (reversi's first four stones).
    pub enclosing_drop_start: SquareSet,
    /// Which enemy pieces a move turns into own pieces.
    pub flip_enclosed: Enclosing,
    /// Drops do not come from a hand: any piece type may always be dropped.
    pub free_drops: bool,
    /// A full board ends the game (a draw, or decided by material counting).
    pub adjudicate_full_board: bool,
    /// The types that count for a connection; empty when the variant has no
    /// connection rule.
    pub piece_types: TypeSet,
    /// The result of a connection, for the side that made it.
    pub value: GameValue,
    /// Sets of squares any one of which, filled by one side's connecting pieces,
    /// is a connection: the runs of `connectN` and the blocks of `connectNxN`.
    pub lines: Vec<SquareSet>,
    /// `collinearN`: so many connecting pieces on one line of `collinear_lines`
    /// (the whole lines of the board in the connecting directions) connect.
    pub collinear_n: u32,
    pub collinear_lines: Vec<SquareSet>,
    /// Per side: a chain of connecting pieces from region 1 to region 2 connects.
    pub region1: [SquareSet; 2],
    pub region2: [SquareSet; 2],
    /// The directions (file step, rank step) connections run along: east, north,
    /// north-east and south-east, as the variant allows. As in Fairy-Stockfish, a
    /// chain between regions grows along these directions only.
    pub directions: Vec<(i32, i32)>,
}

/// What a variant file says about connections, before the board is known.
pub struct ConnectSpec {
    pub connect_n: u32,
    pub nxn: u32,
    pub collinear_n: u32,
    pub horizontal: bool,
    pub vertical: bool,
    pub diagonal: bool,
}

impl ConnectRules {
    /// A variant without any of these rules.
    pub fn none() -> ConnectRules {
        ConnectRules {
            enclosing_drop: Enclosing::None,
            enclosing_drop_start: SquareSet::EMPTY,
            flip_enclosed: Enclosing::None,
            free_drops: false,
            adjudicate_full_board: false,
            piece_types: 0,
            value: GameValue::Win,
            lines: Vec::new(),
            collinear_n: 0,
            collinear_lines: Vec::new(),
            region1: [SquareSet::EMPTY; 2],
            region2: [SquareSet::EMPTY; 2],
            directions: Vec::new(),
        }
    }

    /// Does the variant end games by a connection?
    #[inline]
    pub fn has_connection(&self) -> bool {
        self.piece_types != 0
    }

    /// The connection lines of a board: the directions, the runs of `connect_n`,
    /// the `nxn` blocks and the whole lines for `collinear_n`.
    pub fn set_lines(&mut self, g: Geometry, s: &ConnectSpec) {
        let mut dirs = Vec::new();
        if s.horizontal {
            dirs.push((1, 0));
        }
        if s.vertical {
            dirs.push((0, 1));
        }
        if s.diagonal {
            dirs.push((1, 1));
            dirs.push((1, -1));
        }
        self.lines.clear();
        self.collinear_lines.clear();
        for &(dx, dy) in &dirs {
            for sq in g.squares() {
                if s.connect_n > 0
                    && let Some(run) = run(g, sq, dx, dy, s.connect_n)
                {
                    self.lines.push(run);
                }
                // A whole line starts where the step back leaves the board.
                if s.collinear_n > 0 && g.offset(sq, -dx, -dy).is_none() {
                    let line = run(g, sq, dx, dy, u32::MAX);
                    if let Some(line) = line.filter(|l| l.count() >= s.collinear_n) {
                        self.collinear_lines.push(line);
                    }
                }
            }
        }
        if s.nxn > 0 {
            for sq in g.squares() {
                let mut block = SquareSet::EMPTY;
                let mut whole = true;
                for dy in 0..s.nxn as i32 {
                    for dx in 0..s.nxn as i32 {
                        match g.offset(sq, dx, dy) {
                            Some(t) => block.insert(t),
                            None => whole = false,
                        }
                    }
                }
                if whole {
                    self.lines.push(block);
                }
            }
        }
        self.collinear_n = s.collinear_n;
        self.directions = dirs;
    }
}

/// `n` squares from `sq` in the direction (dx, dy), or as many as the board has
/// when `n` is `u32::MAX`; `None` when the board ends before `n` squares.
fn run(g: Geometry, sq: Square, dx: i32, dy: i32, n: u32) -> Option<SquareSet> {
    let mut set = SquareSet::single(sq);
    let mut cur = sq;
    let mut len = 1;
    while len < n {
        match g.offset(cur, dx, dy) {
            Some(t) => {
                set.insert(t);
                cur = t;
                len += 1;
            }
            None if n == u32::MAX => break,
            None => return None,
        }
    }
    Some(set)
}
