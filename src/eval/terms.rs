//! The evaluation's terms, declared once. Each line of the table below gives a
//! term its name (as weights files write it), its shape (the numbers it takes),
//! whether the tuner fits it or it is set by hand, whether it adds to the king
//! danger, and its default; the code that computes the term is in the module of
//! its concern. Adding a term takes one line here and its code there.
//!
//! A weights file (`variants/weights/NAME.txt`, format in
//! [`crate::variant::weights`]) sets terms by these names:
//!
//! ```text
//! # comment
//! tempo = 18 9            a term of the whole position: middlegame, endgame
//! value N = 310 295       a term of one piece type (its letter): middlegame, endgame
//! attacker N = 40         a king-danger term: one number (danger units)
//! square N c3 = 12 -4     a piece-square term: the piece on a square, White's view
//! ```
//!
//! A piece-square term ([`SQUARE_TERM`]) is a middlegame and an endgame value for
//! a piece of the type on the square (Black's on the square with the ranks
//! flipped). Tables are symmetric left to right: a square of the right half sets
//! its mirror image in the left half (on a chess board, `square N f3` is
//! `square N c3`).
//!
//! Terms marked *danger* add up to the king-danger units of a side, which the
//! evaluation turns into a penalty (quadratic in the middlegame); every other term
//! is a middlegame and an endgame value in centipawns per unit of its feature, but
//! those set by hand rather than fitted (`lazy_margin`, the `scale_*` terms),
//! whose numbers their own documentation describes. A term a weights file leaves
//! out keeps its default: for a piece term, the value `Params::generic` derives
//! from the pieces (`derived`) or zero; for a global term, the number here (but
//! `lazy_margin`, which is 700 in drop games, whose king danger swings more).
//!
//! tools/scale_weights.py reads the king-danger terms from this table (`danger`).

use crate::types::Geometry;

/// The name of the piece-square term.
pub const SQUARE_TERM: &str = "square";

/// What numbers a term takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A middlegame and an endgame value.
    Pair,
    /// One number (danger units, a margin or a scale).
    One,
    /// Two numbers that are not a middlegame/endgame pair: an endgame scale in
    /// 64ths and its change per pawn.
    Scale,
}

impl Shape {
    /// What the numbers are, for an error that finds too few or too many.
    pub fn numbers(self) -> &'static str {
        match self {
            Shape::Pair => "two numbers (middlegame, endgame)",
            Shape::One => "one number",
            Shape::Scale => "two numbers (a scale in 64ths, and per pawn)",
        }
    }

    /// How many numbers a weights file gives.
    pub fn count(self) -> usize {
        match self {
            Shape::One => 1,
            Shape::Pair | Shape::Scale => 2,
        }
    }
}

/// A piece term's default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PieceDefault {
    /// Derived from the piece (`Params::generic`).
    Derived,
    /// Zero.
    Zero,
}

/// What the table says of a term.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    pub name: &'static str,
    pub shape: Shape,
    /// The tuner fits it (else it is set by hand or measured).
    pub fitted: bool,
    /// It adds to the king danger.
    pub danger: bool,
}

macro_rules! count {
    () => { 0usize };
    ($head:ident $($tail:ident)*) => { 1usize + count!($($tail)*) };
}

macro_rules! flag {
    (fitted) => {
        true
    };
    (fixed) => {
        false
    };
    (danger) => {
        true
    };
    (plain) => {
        false
    };
}

macro_rules! piece_default {
    (derived) => {
        PieceDefault::Derived
    };
    (zero) => {
        PieceDefault::Zero
    };
}

/// The term table: `Variant = "name", shape, fitted|fixed, danger|plain, default;`
/// for the terms of one piece type (default: `derived` or `zero`) and for the
/// terms of the whole position (default: the two numbers).
macro_rules! terms {
    (
        piece {
            $( $(#[$pdoc:meta])* $pv:ident = $pname:literal, $pshape:ident, $pfit:ident,
               $prole:ident, $pdefault:ident; )*
        }
        global {
            $( $(#[$gdoc:meta])* $gv:ident = $gname:literal, $gshape:ident, $gfit:ident,
               $grole:ident, $gdefault:expr; )*
        }
    ) => {
        /// A term of one piece type.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum PieceTerm {
            $( $(#[$pdoc])* $pv, )*
        }

        impl PieceTerm {
            pub const ALL: [PieceTerm; count!($($pv)*)] = [$(PieceTerm::$pv),*];
            pub const COUNT: usize = PieceTerm::ALL.len();

            /// The table's line of the term.
            pub const fn spec(self) -> Spec {
                match self {
                    $( PieceTerm::$pv => Spec {
                        name: $pname,
                        shape: Shape::$pshape,
                        fitted: flag!($pfit),
                        danger: flag!($prole),
                    }, )*
                }
            }

            pub const fn default(self) -> PieceDefault {
                match self {
                    $( PieceTerm::$pv => piece_default!($pdefault), )*
                }
            }
        }

        /// A term of the whole position.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum GlobalTerm {
            $( $(#[$gdoc])* $gv, )*
        }

        impl GlobalTerm {
            pub const ALL: [GlobalTerm; count!($($gv)*)] = [$(GlobalTerm::$gv),*];
            pub const COUNT: usize = GlobalTerm::ALL.len();

            /// The table's line of the term.
            pub const fn spec(self) -> Spec {
                match self {
                    $( GlobalTerm::$gv => Spec {
                        name: $gname,
                        shape: Shape::$gshape,
                        fitted: flag!($gfit),
                        danger: flag!($grole),
                    }, )*
                }
            }

            /// The weight where no weights file gives one (a single number in both
            /// places of its pair).
            pub const fn default(self) -> [f64; 2] {
                match self {
                    $( GlobalTerm::$gv => $gdefault, )*
                }
            }
        }
    };
}

terms! {
    piece {
        /// Material on the board.
        Value = "value", Pair, fitted, plain, derived;
        /// Material in hand.
        Hand = "hand", Pair, fitted, plain, derived;
        /// Per square the piece can move to, beyond what the type typically has.
        Mobility = "mobility", Pair, fitted, plain, derived;
        /// Per square the piece can move to that no enemy pawn attacks.
        SafeMobility = "safe_mobility", Pair, fitted, plain, zero;
        /// By the square root of the squares the piece can move to (with `mobility`, a
        /// curve: the first squares count most, a piece with none is all but trapped).
        MobilityRoot = "mobility_root", Pair, fitted, plain, zero;
        /// By the piece's relative rank, 0 on its first rank to 1 on the last.
        Advance = "advance", Pair, fitted, plain, derived;
        /// By the square of the relative rank.
        Advance2 = "advance2", Pair, fitted, plain, derived;
        /// By how central its file is (0 on an edge file, 1 in the middle).
        Centre = "centre", Pair, fitted, plain, zero;
        /// By how many squares the piece reaches from its square on an empty board,
        /// against its average (in pawns of estimated value).
        Reach = "reach", Pair, fitted, plain, derived;
        /// By its closeness to the enemy royal piece (1 next to it, 0 across the board).
        Proximity = "proximity", Pair, fitted, plain, zero;
        /// Once for two or more pieces of the type on the board (a bishop pair).
        Pair = "pair", Pair, fitted, plain, zero;
        /// On a file without pawns (variants with pawns).
        OpenFile = "open_file", Pair, fitted, plain, zero;
        /// On a file with enemy pawns only.
        SemiOpenFile = "semi_open_file", Pair, fitted, plain, zero;
        /// On a square in the enemy half that an own pawn protects and no enemy pawn
        /// can ever attack.
        Outpost = "outpost", Pair, fitted, plain, zero;
        /// Right behind an own pawn (on the square it advanced from).
        BehindPawn = "behind_pawn", Pair, fitted, plain, zero;
        /// Per piece of the type attacked by a safe enemy pawn (one not attacked, or
        /// defended): the pawn's bonus, by its victim's type.
        ThreatByPawn = "threat_by_pawn", Pair, fitted, plain, zero;
        /// Per piece of the type that the enemy attacks and that is weak: no pawn of
        /// its own defends it, and it is not defended twice against a single attack.
        Threat = "threat", Pair, fitted, plain, zero;
        /// Per own pawn on a square of the piece's colour (pieces that keep to the
        /// squares of one colour, like a bishop; 0 for the others).
        SameColourPawns = "same_colour_pawns", Pair, fitted, plain, zero;
        /// Danger: the piece attacks a square next to the enemy royal piece.
        Attacker = "attacker", One, fitted, danger, derived;
        /// Danger: a piece of the type can give a safe check by moving.
        Check = "check", One, fitted, danger, derived;
        /// Danger: a piece of the type in hand can give a safe check by a drop.
        DropCheck = "drop_check", One, fitted, danger, derived;
        /// Danger: per piece of the type in hand (at most two) that can be dropped next
        /// to the enemy royal piece.
        HandDanger = "hand_danger", One, fitted, danger, derived;
        /// Danger (usually negative): per own piece of the type next to the royal piece.
        Defender = "defender", One, fitted, danger, derived;
        /// Danger: the enemy has a piece of the type on the board (the attacker
        /// that matters most, a chess queen, makes every other attack worse).
        Presence = "presence", One, fitted, danger, zero;
    }
    global {
        /// For the side to move.
        Tempo = "tempo", Pair, fitted, plain, [12.0, 12.0];
        /// Per pawn with another of its side on its file.
        Doubled = "doubled", Pair, fitted, plain, [-8.0, -16.0];
        /// Per pawn with no pawn of its side on a neighbouring file.
        Isolated = "isolated", Pair, fitted, plain, [-10.0, -12.0];
        /// Per pawn protected by a pawn or beside one.
        Connected = "connected", Pair, fitted, plain, [5.0, 5.0];
        /// Per passed pawn, by its relative rank (0..1).
        Passed = "passed", Pair, fitted, plain, [0.0, 0.0];
        /// Per passed pawn, by the square of its relative rank.
        Passed2 = "passed2", Pair, fitted, plain, [75.0, 150.0];
        /// Per enemy piece attacked and not defended, or (not a pawn, where the
        /// variant has pawns) attacked twice, defended once and by no pawn: by its
        /// estimated value in pawns.
        Hanging = "hanging", Pair, fitted, plain, [15.0, 10.0];
        /// Per enemy piece attacked by a cheaper piece, by its estimated value in pawns.
        ThreatByLesser = "threat_by_lesser", Pair, fitted, plain, [15.0, 10.0];
        /// Per own pawn on the royal piece's file or a neighbouring one, one or two
        /// ranks in front of it.
        Shelter = "shelter", Pair, fitted, plain, [0.0, 0.0];
        /// Per enemy pawn on the royal piece's file or a neighbouring one, one to three
        /// ranks in front of it.
        Storm = "storm", Pair, fitted, plain, [0.0, 0.0];
        /// Per passed pawn whose square ahead is empty, by its relative rank (0..1).
        PassedFree = "passed_free", Pair, fitted, plain, [0.0, 0.0];
        /// Per passed pawn, by its relative rank times the distance (at most 5) from
        /// its own royal piece to the square ahead of it.
        PassedOwnKing = "passed_own_king", Pair, fitted, plain, [0.0, 0.0];
        /// The same with the enemy royal piece's distance.
        PassedEnemyKing = "passed_enemy_king", Pair, fitted, plain, [0.0, 0.0];
        /// Per enemy piece (not royal, not a pawn) that a safe pawn push would attack.
        PawnPushThreat = "pawn_push_threat", Pair, fitted, plain, [0.0, 0.0];
        /// Per square the enemy attacks, that we attack too and no enemy pawn holds:
        /// the enemy pieces' moves there are contested.
        Restricted = "restricted", Pair, fitted, plain, [0.0, 0.0];
        /// The distance from the royal piece to its nearest own pawn (at most 5).
        KingPawnDistance = "king_pawn_distance", Pair, fitted, plain, [0.0, 0.0];
        /// Per pawn that has no own pawn beside or behind it on a neighbouring file
        /// and whose square ahead an enemy pawn attacks.
        Backward = "backward", Pair, fitted, plain, [0.0, 0.0];
        /// Space: per square of the own camp's central files (all but two on each
        /// side, from the second rank up to the middle) that no own pawn occupies and
        /// no enemy pawn attacks, twice where an own pawn stands one or two squares
        /// ahead of it; times the square of the own pieces on the board less one, over
        /// 256.
        Space = "space", Pair, fitted, plain, [0.0, 0.0];
        /// Per square of the royal piece's flank (its file and two on each side, in
        /// its own half) that the enemy attacks, and again where it attacks twice.
        FlankAttacks = "flank_attacks", Pair, fitted, plain, [0.0, 0.0];
        /// The royal piece stands on a flank without pawns.
        PawnlessFlank = "pawnless_flank", Pair, fitted, plain, [0.0, 0.0];
        /// Danger: per attack on a square next to the enemy royal piece.
        KingHits = "king_hits", One, fitted, danger, [60.0, 60.0];
        /// Danger: per square next to the enemy royal piece that we attack and the
        /// enemy does not defend.
        KingWeak = "king_weak", One, fitted, danger, [100.0, 100.0];
        /// Danger: per piece type that can check the royal piece, but only on squares
        /// the defender holds.
        KingUnsafeCheck = "king_unsafe_check", One, fitted, danger, [0.0, 0.0];
        /// Danger: per piece type that has no safe check but can check on a square that
        /// only the royal piece holds, with a second attacker behind the checker (a
        /// dropped checker: with one supporter), where the royal piece cannot take back.
        KingWeakCheck = "king_weak_check", One, fitted, danger, [0.0, 0.0];
        /// Danger: the flank attacks (see `flank_attacks`) squared, over 8.
        KingFlankAttacks = "king_flank_attacks", One, fitted, danger, [0.0, 0.0];
        /// Danger: per square of the royal piece's flank that its side attacks.
        KingFlankDefense = "king_flank_defense", One, fitted, danger, [0.0, 0.0];
        /// Danger: the enemy's mobility less ours (squares reached, all pieces).
        KingMobility = "king_mobility", One, fitted, danger, [0.0, 0.0];
        /// Danger: a constant (usually negative: a few attacks are harmless).
        KingOffset = "king_offset", One, fitted, danger, [-100.0, -100.0];
        /// The endgame penalty per danger unit, in 64ths of a centipawn.
        KingDangerEg = "king_danger_eg", One, fitted, plain, [4.0, 4.0];
        /// How far the terms after the evaluation's cheap part (material, squares, pawns)
        /// may move the score, in centipawns: beyond it from the search window, the cheap
        /// part is taken for the whole (lazy evaluation). The tuner measures it on its
        /// data; it is not fitted.
        LazyMargin = "lazy_margin", One, fixed, plain, [350.0, 350.0];
        /// The endgame scale (64ths) is at most the first number plus the second per
        /// pawn of the side ahead: an endgame with few pawns is harder to win. Two
        /// numbers, but not a middlegame/endgame pair; not fitted (64 0: off).
        ScalePawns = "scale_pawns", Scale, fixed, plain, [64.0, 0.0];
        /// The same when each side has one colour-bound piece (a bishop) and the two
        /// stand on squares of opposite colours; not fitted (64 0: off).
        ScaleOpposite = "scale_opposite", Scale, fixed, plain, [64.0, 0.0];
        /// The endgame scale when those two are the only pieces but royals and pawns;
        /// not fitted (64: off).
        ScaleOppositeAlone = "scale_opposite_alone", One, fixed, plain, [64.0, 64.0];
    }
}

impl PieceTerm {
    pub const fn name(self) -> &'static str {
        self.spec().name
    }

    /// Danger terms are one number; the others a middlegame and an endgame value.
    pub const fn is_danger(self) -> bool {
        self.spec().danger
    }
}

impl GlobalTerm {
    pub const fn name(self) -> &'static str {
        self.spec().name
    }

    /// One number (danger units, a margin or a scale) rather than a pair.
    pub fn is_single(self) -> bool {
        self.spec().shape == Shape::One
    }

    /// Set by hand or measured, never fitted: the tuner leaves it as it is.
    pub const fn is_fixed(self) -> bool {
        !self.spec().fitted
    }
}

// Every piece term of one number is a danger term and the reverse: the evaluation
// reads a danger term's first number only.
const _: () = {
    let mut i = 0;
    while i < PieceTerm::COUNT {
        let spec = PieceTerm::ALL[i].spec();
        assert!(spec.danger == matches!(spec.shape, Shape::One));
        i += 1;
    }
};

/// The cells of a piece-square table on a board: one per square of the left half
/// (middle file included).
pub fn square_cells(g: &Geometry) -> usize {
    (g.files as usize).div_ceil(2) * g.ranks as usize
}

/// The cell of a square seen from White: its file folded onto the left half.
pub fn square_cell(g: &Geometry, file: u8, rank: u8) -> usize {
    let half = (g.files as usize).div_ceil(2);
    let folded = file.min(g.files - 1 - file) as usize;
    rank as usize * half + folded
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A weights file names each term once: no two terms share a name.
    #[test]
    fn term_names_are_unique() {
        let mut names: Vec<&str> = PieceTerm::ALL
            .iter()
            .map(|t| t.name())
            .chain(GlobalTerm::ALL.iter().map(|t| t.name()))
            .chain([SQUARE_TERM])
            .collect();
        let all = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all);
    }
}
