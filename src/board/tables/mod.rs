//! The compile step: XBetza rules → per-square step tables for one variant's board,
//! and reverse "attack probes" for fast attack tests.
//!
//! [`Tables`] is what the move generator and the attack tests read; the modules
//! below build it: the step and probe types ([`step`], [`probes`]), each piece's
//! components with their regions ([`gated`]), the builder's square and ray
//! storage ([`builder`]), the per-square steps ([`compile`]), the attack probes
//! ([`probes`]), the reach of complex attackers and the immobile squares
//! ([`reach`]), and the walk budget checked before any of it ([`budget`]).

mod budget;
mod builder;
mod compile;
mod gated;
mod probes;
mod reach;
mod step;

pub use budget::check_walk_budget;
pub use compile::build;
pub use probes::{LeapGroup, Probe, ProbeKind};
pub use step::{MultiPattern, OrderedRay, Step, StepKind, StepMode};

use crate::types::{Color, Geometry, PieceType, Square, SquareSet, Squares, TypeSet};

pub struct Tables {
    pub geometry: Geometry,
    pub num_types: usize,
    /// The board's number of squares: the stride of the per-square step tables (a
    /// small board's tables stay small in the cache).
    num_squares: usize,
    /// (start, len) into `steps`, indexed by
    /// `(color * num_types + type) * num_squares + square`.
    step_index: Vec<(u32, u32)>,
    pub steps: Vec<Step>,
    /// The same squares' steps less their plain leaps (leaps with no lame or jumped
    /// square), for walks that take the plain leaps as sets: (start, len) into
    /// `other_steps`, indexed like `step_index`.
    other_index: Vec<(u32, u32)>,
    pub other_steps: Vec<Step>,
    /// The plain leaps' targets as sets, [those that may move, those that may
    /// capture], indexed like `step_index`.
    plain_leaps: Vec<[SquareSet; 2]>,
    /// Every square the steps could capture on (en passant included) on some board,
    /// indexed like `step_index`; every square when a step captures its own side's
    /// pieces or has several legs. A piece none of whose targets stands there has
    /// no capture.
    capture_reach: Vec<SquareSet>,
    pub squares: Vec<Square>,
    /// The squares of the ordered rays (see [`OrderedRay`]), each once.
    pub ray_sets: Vec<SquareSet>,
    pub multi: Vec<MultiPattern>,
    /// (start, len) into `probes`, indexed by `attacker_color * 256 + target`.
    probe_index: Vec<(u32, u32)>,
    pub probes: Vec<Probe>,
    /// The same probes split for the attack tests: the plain leaps (one square, no
    /// lame or jumped square, no region) merged into one set of squares per set of
    /// attacker types, and the other probes; (start, len) into `leap_groups` and
    /// `other_probes`, indexed like `probe_index`.
    leap_group_index: Vec<(u32, u32)>,
    leap_groups: Vec<LeapGroup>,
    other_probe_index: Vec<(u32, u32)>,
    other_probes: Vec<Probe>,
    pub regions: Vec<SquareSet>,
    /// Types whose captures the probes cannot describe: attacks are found by
    /// generating their moves.
    pub complex_attackers: [TypeSet; 2],
    /// For those types: per target square, the squares from which they could capture
    /// there at all (a superset; indexed `(color * num_types + type) * 256 + target`).
    pub complex_reach: Vec<SquareSet>,
    /// Squares from which a piece has no move at all on an empty board.
    pub immobile: [Vec<SquareSet>; 2],
    /// Types whose components can reach one square in two ways (their moves are
    /// deduplicated), per colour.
    pub overlapping: [TypeSet; 2],
    /// True when some attacker hops (screens matter for check).
    pub has_hoppers: bool,
    /// True when some attacker is lame (a blocking square matters for check).
    pub has_lame: bool,
}

impl Tables {
    /// Index of a piece of colour `color` and type `kind` on `sq` into the per-square
    /// step tables.
    #[inline]
    fn piece_square(&self, color: Color, kind: PieceType, sq: Square) -> usize {
        (color as usize * self.num_types + kind as usize) * self.num_squares + sq as usize
    }
    #[inline]
    pub fn steps_of(&self, color: Color, kind: PieceType, sq: Square) -> &[Step] {
        let (s, l) = self.step_index[self.piece_square(color, kind, sq)];
        &self.steps[s as usize..(s + l) as usize]
    }
    /// The steps of [`steps_of`](Self::steps_of) other than the plain leaps.
    #[inline]
    pub fn other_steps_of(&self, color: Color, kind: PieceType, sq: Square) -> &[Step] {
        let (s, l) = self.other_index[self.piece_square(color, kind, sq)];
        &self.other_steps[s as usize..(s + l) as usize]
    }
    /// See `capture_reach`.
    #[inline]
    pub fn capture_reach_of(&self, color: Color, kind: PieceType, sq: Square) -> &SquareSet {
        &self.capture_reach[self.piece_square(color, kind, sq)]
    }
    /// The plain leaps' targets: [squares they may move to, squares they may capture on].
    #[inline]
    pub fn plain_leaps_of(&self, color: Color, kind: PieceType, sq: Square) -> &[SquareSet; 2] {
        &self.plain_leaps[self.piece_square(color, kind, sq)]
    }
    #[inline]
    pub fn probes_of(&self, attacker: Color, target: Square) -> &[Probe] {
        let (s, l) = self.probe_index[attacker as usize * 256 + target as usize];
        &self.probes[s as usize..(s + l) as usize]
    }
    /// The plain leaps of [`probes_of`](Self::probes_of), merged per attacker types.
    #[inline]
    pub fn leap_groups_of(&self, attacker: Color, target: Square) -> &[LeapGroup] {
        let (s, l) = self.leap_group_index[attacker as usize * 256 + target as usize];
        &self.leap_groups[s as usize..(s + l) as usize]
    }
    /// The probes of [`probes_of`](Self::probes_of) other than the plain leaps.
    #[inline]
    pub fn other_probes_of(&self, attacker: Color, target: Square) -> &[Probe] {
        let (s, l) = self.other_probe_index[attacker as usize * 256 + target as usize];
        &self.other_probes[s as usize..(s + l) as usize]
    }
    #[inline]
    pub fn ray(&self, start: u32, len: u16) -> &[Square] {
        &self.squares[start as usize..start as usize + len as usize]
    }
    /// The nearest occupied square of an ordered ray.
    #[inline(always)]
    pub fn nearest_occupied<const W: usize>(
        &self,
        ray: OrderedRay,
        occ: &Squares<W>,
    ) -> Option<Square> {
        let on_ray = self.ray_sets[ray.set as usize].resized::<W>().and(occ);
        if ray.descending {
            on_ray.last()
        } else {
            on_ray.first()
        }
    }
    /// Whether the probe may find one of `pieces`: false when none of them stands on
    /// a leap's square or on a slide's ordered ray (an attacker a probe finds is on
    /// its ray).
    #[inline(always)]
    pub fn probe_may_find<const W: usize>(&self, p: &Probe, pieces: &Squares<W>) -> bool {
        match (p.kind, p.ray) {
            (ProbeKind::Leap, _) => pieces.contains(self.squares[p.start as usize]),
            (_, Some(r)) => self.ray_sets[r.set as usize].resized().intersects(pieces),
            _ => true,
        }
    }
    /// The squares of an ordered ray up to its nearest occupied square, that square
    /// included: the whole ray when none is occupied.
    #[inline(always)]
    pub fn ray_until_occupied<const W: usize>(
        &self,
        ray: OrderedRay,
        occ: &Squares<W>,
    ) -> Squares<W> {
        let set = self.ray_sets[ray.set as usize].resized::<W>();
        match self.nearest_occupied(ray, occ) {
            None => set,
            Some(b) if ray.descending => set.at_or_above(b),
            Some(b) => set.at_or_below(b),
        }
    }
}
