//! Board-independent description of a piece's moves, as produced by the parser.

/// The 8-direction ring every atom is walked on. Index 0 points straight forward
/// (towards the opponent) and the ring turns clockwise in steps of 45°
/// (orthogonal/diagonal atoms) or to the next leap of the same shape (oblique atoms).
pub type RingIndex = u8;

/// The geometric family of an atom: it decides how direction letters combine
/// and how a later leg may turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomShape {
    /// Steps along files/ranks (W, D, H and their riders).
    Orthogonal,
    /// Steps along diagonals (F, A, G and their riders).
    Diagonal,
    /// Both orthogonal and diagonal unit steps (K, Q).
    King,
    /// Two-component leaps such as the knight (N, C, Z).
    Oblique,
    /// Castling (`O` with a range): the piece moves `range` squares towards a corner piece.
    Castle,
}

/// A leap pattern: the long and short component of the leap plus its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    pub shape: AtomShape,
    /// Long component (e.g. 2 for the knight, 1 for W and F).
    pub long: u8,
    /// Short component (0 for orthogonal, equal to `long` for diagonal atoms).
    pub short: u8,
    /// The letter the atom was written with (for messages and emission).
    pub letter: char,
}

impl Atom {
    /// The vector (dx, dy) of ring position `i` for a White piece: dy > 0 is forward.
    pub fn vector(&self, i: RingIndex) -> (i32, i32) {
        let i = (i % 8) as usize;
        let (l, s) = (self.long as i32, self.short as i32);
        match self.shape {
            AtomShape::Orthogonal | AtomShape::Diagonal | AtomShape::King | AtomShape::Castle => {
                // Even ring indices are orthogonal, odd ones diagonal; the size is `long`.
                const UNIT: [(i32, i32); 8] = [
                    (0, 1),
                    (1, 1),
                    (1, 0),
                    (1, -1),
                    (0, -1),
                    (-1, -1),
                    (-1, 0),
                    (-1, 1),
                ];
                let (x, y) = UNIT[i];
                (x * l, y * l)
            }
            AtomShape::Oblique => {
                // Sorted clockwise starting with "forward, slightly right".
                let ring: [(i32, i32); 8] = [
                    (s, l),
                    (l, s),
                    (l, -s),
                    (s, -l),
                    (-s, -l),
                    (-l, -s),
                    (-l, s),
                    (-s, l),
                ];
                ring[i]
            }
        }
    }

    /// Ring positions this atom uses when no direction is given.
    pub fn all_directions(&self) -> Vec<RingIndex> {
        match self.shape {
            AtomShape::Orthogonal => vec![0, 2, 4, 6],
            AtomShape::Diagonal => vec![1, 3, 5, 7],
            AtomShape::King | AtomShape::Oblique => (0..8).collect(),
            AtomShape::Castle => vec![2, 6],
        }
    }
}

/// How far a leg goes along its direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Range {
    /// Exactly one leap.
    Leap,
    /// Up to `n` leaps in a straight line (n ≥ 2), stopping at the first occupied square.
    Limited(u8),
    /// Any number of leaps.
    Unlimited,
}

impl Range {
    pub fn max_steps(self) -> usize {
        match self {
            Range::Leap => 1,
            Range::Limited(n) => n as usize,
            Range::Unlimited => usize::MAX,
        }
    }
    pub fn is_slider(self) -> bool {
        !matches!(self, Range::Leap)
    }
}

/// Modality and other modifiers of one leg, as bit flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mode(pub u32);

impl Mode {
    /// `m`: may go to an empty square (non-final leg: may stop on one).
    pub const MOVE: Mode = Mode(1);
    /// `c`: may capture an enemy piece (non-final leg: locust capture).
    pub const CAPTURE: Mode = Mode(1 << 1);
    /// `d`: may capture an own piece.
    pub const DESTROY: Mode = Mode(1 << 2);
    /// `e`: may capture en passant.
    pub const EN_PASSANT: Mode = Mode(1 << 3);
    /// `t`: tame (final leg: may not capture a royal piece; non-final p/g leg: own screens only).
    pub const TAME: Mode = Mode(1 << 4);
    /// `p`: hopper (final leg) / stop on an occupied square without capturing (non-final leg).
    pub const HOP: Mode = Mode(1 << 5);
    /// `g`: grasshopper (final leg) / like `p` and toggles the range of later legs.
    pub const GRASSHOP: Mode = Mode(1 << 6);
    /// `o`: the leg wraps around the side edges (cylinder board).
    pub const CYLINDER: Mode = Mode(1 << 7);
    /// `y`: like `m` on a non-final leg and toggles the range of later legs.
    pub const TOGGLE: Mode = Mode(1 << 8);
    /// `n`: lame (blocked by a piece on the way).
    pub const LAME: Mode = Mode(1 << 9);
    /// `i` on a later leg: exactly as many steps as the previous (slider) leg.
    pub const SAME_LENGTH: Mode = Mode(1 << 10);
    /// With `n`: the whole stepped path must be empty (Fairy-Stockfish), not just
    /// the one square XBoard tests.
    pub const LAME_FULL_PATH: Mode = Mode(1 << 11);

    pub const fn contains(self, other: Mode) -> bool {
        self.0 & other.0 == other.0
    }
    pub const fn intersects(self, other: Mode) -> bool {
        self.0 & other.0 != 0
    }
    pub const fn union(self, other: Mode) -> Mode {
        Mode(self.0 | other.0)
    }
    pub const fn without(self, other: Mode) -> Mode {
        Mode(self.0 & !other.0)
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for Mode {
    type Output = Mode;
    fn bitor(self, rhs: Mode) -> Mode {
        self.union(rhs)
    }
}

impl std::ops::BitOrAssign for Mode {
    fn bitor_assign(&mut self, rhs: Mode) {
        self.0 |= rhs.0
    }
}

/// One leg of a component. The first leg's directions are absolute ring positions
/// (White's view); later legs' directions are turns relative to the previous leg
/// (0 = straight on, 4 = straight back, 2 = right, 6 = left).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Leg {
    pub directions: Vec<RingIndex>,
    pub mode: Mode,
    /// Range of this leg, after `g`/`y` toggles of earlier legs were applied.
    pub range: Range,
    /// `j` count: squares skipped by a one-step slider, or "must jump" for a leaper.
    pub jumps: u8,
}

/// One component of a piece: a single move pattern, possibly with several legs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Component {
    pub atom: Atom,
    pub legs: Vec<Leg>,
    /// `i`: only available to a piece that may make its initial move.
    pub initial: bool,
    /// The source text of this component (for messages).
    pub text: String,
}

impl Component {
    pub fn is_multi_leg(&self) -> bool {
        self.legs.len() > 1
    }
    pub fn final_leg(&self) -> &Leg {
        self.legs.last().expect("a component has at least one leg")
    }
    /// True when a non-final leg can capture (locust/igui/double capture moves).
    pub fn captures_on_the_way(&self) -> bool {
        self.legs[..self.legs.len() - 1]
            .iter()
            .any(|l| l.mode.intersects(Mode::CAPTURE | Mode::DESTROY))
    }
}

/// A parsed XBetza description: the union of its components.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PieceMoves {
    pub components: Vec<Component>,
    /// The text that was parsed.
    pub text: String,
}

impl PieceMoves {
    /// As Fairy-Stockfish plays a piece: it has lame leaps only for D, N, A and Z
    /// (its tables of blocking squares), so any other lame leap (`nC`, `nH`, ...)
    /// has no moves there. For the pieces of variant files read in its dialect.
    pub fn without_lame_leaps_fairy_stockfish_lacks(&mut self) {
        for c in &mut self.components {
            let (long, short) = (c.atom.long, c.atom.short);
            if let [leg] = c.legs.as_mut_slice()
                && leg.mode.contains(Mode::LAME)
                && matches!(leg.range, Range::Leap)
                && !matches!((long, short), (2, 0) | (2, 1) | (2, 2) | (3, 2))
            {
                leg.directions.clear();
            }
        }
    }

    pub fn has_castling(&self) -> bool {
        self.components
            .iter()
            .any(|c| c.atom.shape == AtomShape::Castle)
    }
}
