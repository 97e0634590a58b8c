//! The compile step: XBetza rules → per-square step tables for one variant's board,
//! and reverse "attack probes" for fast attack tests.

use crate::types::{Color, Geometry, PieceType, Square, SquareSet, Squares, TypeSet};
use crate::variant::Variant;
use crate::xbetza::{self, AtomShape, Component, Dialect, Mode, Range};

/// What a step may do on its target squares: a set of flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepMode(u8);

impl StepMode {
    pub const NONE: StepMode = StepMode(0);
    /// Move to an empty square.
    pub const MOVE: StepMode = StepMode(1);
    /// Capture an enemy piece.
    pub const CAPTURE: StepMode = StepMode(2);
    /// Capture an own piece.
    pub const DESTROY: StepMode = StepMode(4);
    /// Capture en passant on an empty square the position names.
    pub const EN_PASSANT: StepMode = StepMode(8);
    /// Captures no royal piece.
    pub const TAME: StepMode = StepMode(16);
    /// The step comes from an initial (`i`) component.
    pub const INITIAL: StepMode = StepMode(32);

    /// Every flag of `other` is set.
    #[inline]
    pub const fn contains(self, other: StepMode) -> bool {
        self.0 & other.0 == other.0
    }
    /// Some flag of `other` is set.
    #[inline]
    pub const fn intersects(self, other: StepMode) -> bool {
        self.0 & other.0 != 0
    }
    /// The flags of the XBetza leg mode that the step tables keep.
    fn of_leg(m: Mode) -> StepMode {
        let pairs = [
            (Mode::MOVE, StepMode::MOVE),
            (Mode::CAPTURE, StepMode::CAPTURE),
            (Mode::DESTROY, StepMode::DESTROY),
            (Mode::EN_PASSANT, StepMode::EN_PASSANT),
            (Mode::TAME, StepMode::TAME),
        ];
        pairs
            .iter()
            .filter(|(leg, _)| m.contains(*leg))
            .fold(StepMode::NONE, |acc, &(_, step)| acc | step)
    }
}

impl std::ops::BitOr for StepMode {
    type Output = StepMode;
    #[inline]
    fn bitor(self, other: StepMode) -> StepMode {
        StepMode(self.0 | other.0)
    }
}

impl std::ops::BitOrAssign for StepMode {
    #[inline]
    fn bitor_assign(&mut self, other: StepMode) {
        self.0 |= other.0;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// One target square, optionally with squares that must be empty (lame) or
    /// occupied (must jump).
    Leap,
    /// Targets along a ray, stopping at the first occupied square.
    Slide,
    /// Targets along a ray after exactly one occupied square (the screen).
    Hop,
    /// A multi-leg component, interpreted at run time.
    Multi,
}

/// One compiled move pattern of a piece standing on one square.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub kind: StepKind,
    pub mode: StepMode,
    /// Target squares (ray in order) in `Tables::squares[start..start+len]`.
    pub start: u32,
    pub len: u16,
    /// Lame squares (must be empty) or, with `must_jump`, the square to jump over.
    pub block_start: u32,
    pub block_len: u8,
    pub must_jump: bool,
    /// Hop: how many squares after the screen may be reached (0 = any).
    pub hop_after: u8,
    /// Multi: index into `Tables::multi`.
    pub multi: u16,
    /// Slide: the ray as a set, when its squares are numbered in ray order.
    pub ray: Option<OrderedRay>,
}

/// A ray whose squares are numbered in increasing or decreasing order along it (every
/// ray but those that wrap around a cylinder board): its nearest occupied square is
/// the lowest or highest of the occupied squares on it, which set operations find
/// without walking the ray square by square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderedRay {
    /// Index into `Tables::ray_sets`.
    pub set: u32,
    pub descending: bool,
}

impl Step {
    /// A leap with no lame or jumped square: its target does not depend on the board.
    #[inline]
    pub fn is_plain_leap(&self) -> bool {
        self.kind == StepKind::Leap && self.block_len == 0
    }
}

/// A multi-leg component for one colour: interpreted by the generator.
#[derive(Clone, Debug)]
pub struct MultiPattern {
    pub component: Component,
    /// +1 for White, -1 for Black (directions are turned by 180°).
    pub sign: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeKind {
    Leap,
    Slide,
    Hop,
    Grasshop,
}

/// Plain leaps into a target square, seen from it: the squares an attacker of one of
/// `types` captures from with no other square mattering.
#[derive(Clone, Copy, Debug)]
pub struct LeapGroup {
    pub types: TypeSet,
    pub from: SquareSet,
}

/// Seen from a target square: where an attacker of some types could stand.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    pub kind: ProbeKind,
    pub types: TypeSet,
    /// Ray outward from the target (Leap: one square, the attacker's).
    pub start: u32,
    pub len: u16,
    pub block_start: u32,
    pub block_len: u8,
    pub must_jump: bool,
    /// Index+1 into `Tables::regions` the attacker must stand in (0 = anywhere).
    pub from_region: u16,
    /// Slide: the ray as a set, when its squares are numbered in ray order.
    pub ray: Option<OrderedRay>,
}

impl Probe {
    /// A one-square leap with no lame or jumped square and no region: whether it
    /// hits depends only on the piece standing on its square.
    #[inline]
    pub fn is_plain_leap(&self) -> bool {
        self.kind == ProbeKind::Leap && self.block_len == 0 && self.from_region == 0
    }
}

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

/// A component together with where it applies (the origin square must be in the
/// region for the colour; `None` = everywhere).
struct Gated {
    component: Component,
    region: Option<[SquareSet; 2]>,
}

/// The components of a piece type including rule-given extras: the pawn's double and
/// triple steps, the soldier's sideways step after the river, and FSF's initial moves.
fn gated_components(v: &Variant, t: PieceType) -> Vec<Gated> {
    let def = &v.pieces[t as usize];
    let parse = |s: &str| {
        xbetza::parse(s, Dialect::FairyStockfish)
            .expect("built-in XBetza parses")
            .components
    };
    let mut out = Vec::new();
    let default_soldier = def.slot == "soldier" && def.betza == "fsW";
    if default_soldier {
        // Sideways only from the soldier-promotion rank on (relative, 1-based).
        let g = v.geometry;
        let spr = v.soldier_promotion_rank.max(1) - 1;
        let region = |white: bool| -> SquareSet {
            g.squares()
                .filter(|&s| g.relative_rank(s, white) >= spr)
                .collect()
        };
        for c in parse("fW") {
            out.push(Gated {
                component: c,
                region: None,
            });
        }
        for c in parse("sW") {
            out.push(Gated {
                component: c,
                region: Some([region(true), region(false)]),
            });
        }
        return out;
    }
    for c in &def.moves.components {
        let region = c.initial.then_some(v.double_step_region);
        out.push(Gated {
            component: c.clone(),
            region,
        });
    }
    if def.is_pawn_slot() {
        if v.double_step {
            for c in parse("fmnD") {
                out.push(Gated {
                    component: c,
                    region: Some(v.double_step_region),
                });
            }
        }
        if !v.triple_step_region[0].is_empty() || !v.triple_step_region[1].is_empty() {
            for c in parse("fmnH") {
                out.push(Gated {
                    component: c,
                    region: Some(v.triple_step_region),
                });
            }
        }
    }
    out
}

/// Intermediate offsets that must be empty for a lame leap of (dx, dy).
/// `full`: every square of the stepped path (Fairy-Stockfish); otherwise the single
/// square XBoard tests (halfway, rounding towards the start / the first step).
pub fn lame_path(dx: i32, dy: i32, full: bool) -> Vec<(i32, i32)> {
    let (ax, ay) = (dx.abs(), dy.abs());
    if ax.max(ay) <= 1 {
        return Vec::new();
    }
    let (sx, sy) = (dx.signum(), dy.signum());
    let mut path = Vec::new();
    let (mut x, mut y) = (0, 0);
    while (x, y) != (dx, dy) {
        let (rx, ry) = ((dx - x).abs(), (dy - y).abs());
        if rx > ry {
            x += sx;
        } else if ry > rx {
            y += sy;
        } else {
            x += sx;
            y += sy;
        }
        if (x, y) != (dx, dy) {
            path.push((x, y));
        }
    }
    if full {
        path
    } else {
        // XBoard: for D, N, A the halfway square; for longer leaps the first step.
        path.into_iter().take(1).collect()
    }
}

struct Builder<'a> {
    g: Geometry,
    t: Tables,
    v: &'a Variant,
    /// Index of each ray set in `t.ray_sets`.
    ray_ids: std::collections::HashMap<SquareSet, u32>,
}

impl<'a> Builder<'a> {
    fn push_squares(&mut self, sqs: &[Square]) -> u32 {
        let start = self.t.squares.len() as u32;
        self.t.squares.extend_from_slice(sqs);
        start
    }

    /// The ray as an [`OrderedRay`], if its squares are numbered in ray order.
    fn ordered_ray(&mut self, ray: &[Square]) -> Option<OrderedRay> {
        let descending = if ray.windows(2).all(|w| w[0] < w[1]) {
            false
        } else if ray.windows(2).all(|w| w[0] > w[1]) {
            true
        } else {
            return None;
        };
        let set: SquareSet = ray.iter().copied().collect();
        let sets = &mut self.t.ray_sets;
        let id = *self.ray_ids.entry(set).or_insert_with(|| {
            sets.push(set);
            sets.len() as u32 - 1
        });
        Some(OrderedRay {
            set: id,
            descending,
        })
    }

    fn region_id(&mut self, r: SquareSet) -> u16 {
        if let Some(i) = self.t.regions.iter().position(|x| *x == r) {
            return i as u16 + 1;
        }
        self.t.regions.push(r);
        self.t.regions.len() as u16
    }

    /// Ray from `s` along (dx, dy): up to `max` squares, wrapping around the files
    /// when `cylinder`, never returning to `s`.
    fn ray(&self, s: Square, dx: i32, dy: i32, max: usize, cylinder: bool) -> Vec<Square> {
        let mut out = Vec::new();
        let mut cur = s;
        while out.len() < max {
            let next = if cylinder {
                self.g.offset_wrapping(cur, dx, dy)
            } else {
                self.g.offset(cur, dx, dy)
            };
            match next {
                Some(n) if n != s => {
                    out.push(n);
                    cur = n;
                }
                _ => break,
            }
        }
        out
    }

    fn compile_single(&mut self, comp: &Component, color: Color, s: Square, steps: &mut Vec<Step>) {
        let leg = &comp.legs[0];
        let sign = if color == Color::White { 1 } else { -1 };
        let mode = StepMode::of_leg(leg.mode);
        let cyl = leg.mode.contains(Mode::CYLINDER);
        let hop = leg.mode.intersects(Mode::HOP | Mode::GRASSHOP);
        let unit = comp.atom.long == 1 && comp.atom.shape != AtomShape::Oblique;
        let full_lame = leg.mode.contains(Mode::LAME_FULL_PATH);
        if comp.atom.shape == AtomShape::Castle {
            return; // castling comes from the castling rules (O only sets the distance)
        }
        for &d in &leg.directions {
            let (x, y) = comp.atom.vector(d);
            let (dx, dy) = (x * sign, y * sign);
            match leg.range {
                Range::Leap if !hop => {
                    if unit && leg.jumps > 0 {
                        continue; // jW: skips its only square
                    }
                    let to = if cyl {
                        self.g.offset_wrapping(s, dx, dy)
                    } else {
                        self.g.offset(s, dx, dy)
                    };
                    let Some(to) = to.filter(|&t| t != s) else {
                        continue;
                    };
                    let mut blocks = Vec::new();
                    let mut must_jump = false;
                    if leg.mode.contains(Mode::LAME) || leg.jumps > 0 {
                        for (bx, by) in lame_path(dx, dy, full_lame && leg.jumps == 0) {
                            let b = if cyl {
                                self.g.offset_wrapping(s, bx, by)
                            } else {
                                self.g.offset(s, bx, by)
                            };
                            if let Some(b) = b {
                                blocks.push(b);
                            }
                        }
                        must_jump = leg.jumps > 0;
                        if must_jump && blocks.is_empty() {
                            continue;
                        }
                    }
                    let start = self.push_squares(&[to]);
                    let block_start = self.push_squares(&blocks);
                    steps.push(Step {
                        kind: StepKind::Leap,
                        mode,
                        start,
                        len: 1,
                        block_start,
                        block_len: blocks.len() as u8,
                        must_jump,
                        hop_after: 0,
                        multi: 0,
                        ray: None,
                    });
                }
                Range::Leap => {} // p/g on a leaper: no moves
                _ => {
                    let mut ray = self.ray(s, dx, dy, leg.range.max_steps(), cyl);
                    if unit && leg.jumps > 0 {
                        let skip = (leg.jumps as usize).min(ray.len());
                        ray.drain(..skip);
                    }
                    if ray.is_empty() {
                        continue;
                    }
                    let start = self.push_squares(&ray);
                    let ordered = if hop { None } else { self.ordered_ray(&ray) };
                    steps.push(Step {
                        kind: if hop { StepKind::Hop } else { StepKind::Slide },
                        mode,
                        start,
                        len: ray.len() as u16,
                        block_start: 0,
                        block_len: 0,
                        must_jump: false,
                        hop_after: if leg.mode.contains(Mode::GRASSHOP) {
                            1
                        } else {
                            0
                        },
                        multi: 0,
                        ray: ordered,
                    });
                }
            }
        }
    }
}

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

/// Compile the step tables and attack probes of a variant.
/// `generated_attackers`: types whose attacks rules beyond their XBetza change
/// (janggi's): they are complex attackers, with every square in reach.
pub fn build(v: &Variant, generated_attackers: TypeSet) -> Tables {
    let g = v.geometry;
    let n = v.pieces.len();
    let mut b = Builder {
        g,
        v,
        ray_ids: Default::default(),
        t: Tables {
            geometry: g,
            num_types: n,
            num_squares: g.num_squares(),
            step_index: vec![(0, 0); 2 * n * g.num_squares()],
            steps: Vec::new(),
            other_index: vec![(0, 0); 2 * n * g.num_squares()],
            other_steps: Vec::new(),
            plain_leaps: vec![[SquareSet::EMPTY; 2]; 2 * n * g.num_squares()],
            capture_reach: vec![SquareSet::EMPTY; 2 * n * g.num_squares()],
            squares: Vec::new(),
            ray_sets: Vec::new(),
            multi: Vec::new(),
            probe_index: vec![(0, 0); 2 * 256],
            probes: Vec::new(),
            leap_group_index: vec![(0, 0); 2 * 256],
            leap_groups: Vec::new(),
            other_probe_index: vec![(0, 0); 2 * 256],
            other_probes: Vec::new(),
            regions: Vec::new(),
            complex_attackers: [0, 0],
            complex_reach: Vec::new(),
            overlapping: [0, 0],
            immobile: [vec![SquareSet::EMPTY; n], vec![SquareSet::EMPTY; n]],
            has_hoppers: false,
            has_lame: false,
        },
    };
    let gated: Vec<Vec<Gated>> = (0..n)
        .map(|t| gated_components(v, t as PieceType))
        .collect();
    for color in Color::BOTH {
        let sign = if color == Color::White { 1 } else { -1 };
        for (t, comps) in gated.iter().enumerate() {
            // Multi-leg patterns are shared by all squares.
            let mut multi_ids = Vec::new();
            for gc in comps {
                if gc.component.is_multi_leg() {
                    b.t.multi.push(MultiPattern {
                        component: gc.component.clone(),
                        sign,
                    });
                    multi_ids.push(Some(b.t.multi.len() as u16 - 1));
                } else {
                    multi_ids.push(None);
                }
            }
            let ep_capable =
                v.en_passant_types[color as usize] & 1 << t != 0 || v.pieces[t].is_pawn_slot();
            for s in g.squares() {
                let mut steps = Vec::new();
                for (gc, mid) in comps.iter().zip(&multi_ids) {
                    if let Some(r) = &gc.region
                        && !r[color as usize].contains(s)
                    {
                        continue;
                    }
                    let first = steps.len();
                    if let Some(id) = mid {
                        steps.push(Step {
                            kind: StepKind::Multi,
                            mode: StepMode::of_leg(gc.component.final_leg().mode),
                            start: 0,
                            len: 0,
                            block_start: 0,
                            block_len: 0,
                            must_jump: false,
                            hop_after: 0,
                            multi: *id,
                            ray: None,
                        });
                    } else {
                        b.compile_single(&gc.component, color, s, &mut steps);
                    }
                    if gc.component.initial {
                        for st in &mut steps[first..] {
                            st.mode |= StepMode::INITIAL;
                        }
                    }
                }
                // En passant for pawn-like types (Fairy-Stockfish): squares the piece
                // could capture on but not move to quietly.
                if ep_capable {
                    let quiet: Vec<Square> = steps
                        .iter()
                        .filter(|st| st.mode.contains(StepMode::MOVE) && st.kind != StepKind::Multi)
                        .flat_map(|st| b.t.ray(st.start, st.len).first().copied())
                        .collect();
                    for st in steps.iter_mut() {
                        if st.kind == StepKind::Leap
                            && st.mode.contains(StepMode::CAPTURE)
                            && !st.mode.contains(StepMode::MOVE)
                            && !quiet.contains(&b.t.squares[st.start as usize])
                        {
                            st.mode |= StepMode::EN_PASSANT;
                        }
                    }
                }
                let mut targets = SquareSet::EMPTY;
                let mut overlap = false;
                for st in steps.iter().filter(|st| st.kind != StepKind::Multi) {
                    for &sq in b.t.ray(st.start, st.len) {
                        overlap |= targets.contains(sq);
                        targets.insert(sq);
                    }
                }
                if overlap {
                    b.t.overlapping[color as usize] |= 1u64 << t;
                }
                let idx = b.t.piece_square(color, t as PieceType, s);
                let mut reach = SquareSet::EMPTY;
                for st in &steps {
                    if st.kind == StepKind::Multi || st.mode.contains(StepMode::DESTROY) {
                        reach = g.squares().collect();
                        break;
                    }
                    if st.mode.intersects(StepMode::CAPTURE | StepMode::EN_PASSANT) {
                        for &sq in b.t.ray(st.start, st.len) {
                            reach.insert(sq);
                        }
                    }
                }
                b.t.capture_reach[idx] = reach;
                let start = b.t.steps.len() as u32;
                b.t.steps.extend_from_slice(&steps);
                b.t.step_index[idx] = (start, steps.len() as u32);
                let (plain, other): (Vec<Step>, Vec<Step>) =
                    steps.iter().partition(|st| st.is_plain_leap());
                for st in &plain {
                    let to = b.t.squares[st.start as usize];
                    for (i, mode) in [StepMode::MOVE, StepMode::CAPTURE].into_iter().enumerate() {
                        if st.mode.contains(mode) {
                            b.t.plain_leaps[idx][i].insert(to);
                        }
                    }
                }
                let start = b.t.other_steps.len() as u32;
                b.t.other_steps.extend_from_slice(&other);
                b.t.other_index[idx] = (start, other.len() as u32);
            }
        }
    }
    compute_immobile(&mut b.t, &gated, v);
    build_probes(&mut b, &gated, generated_attackers);
    compute_complex_reach(&mut b.t, &gated, generated_attackers, &v.diagonal_lines);
    b.t
}

/// Where could a piece capture from `origin` on an empty board, counting every square
/// any leg passes with a capturing mode (a superset of its real captures)?
fn capture_spots(g: Geometry, comps: &[Gated], color: Color, origin: Square) -> SquareSet {
    let sign = if color == Color::White { 1 } else { -1 };
    let mut spots = SquareSet::EMPTY;
    for gc in comps {
        if let Some(r) = &gc.region
            && !r[color as usize].contains(origin)
        {
            continue;
        }
        let c = &gc.component;
        if c.atom.shape == AtomShape::Castle {
            continue;
        }
        let mut frontier = vec![(origin, 0u8, 1usize)];
        for (li, leg) in c.legs.iter().enumerate() {
            let captures = leg.mode.intersects(Mode::CAPTURE | Mode::DESTROY);
            let mut next = Vec::new();
            for &(sq, prev, _) in &frontier {
                for &d in &leg.directions {
                    let dir = if li == 0 { d } else { (prev + d) % 8 };
                    let (x, y) = c.atom.vector(dir);
                    let cyl = leg.mode.contains(Mode::CYLINDER);
                    let mut cur = sq;
                    for n in 1..=leg.range.max_steps().min(16) {
                        let step = if cyl {
                            g.offset_wrapping(cur, x * sign, y * sign)
                        } else {
                            g.offset(cur, x * sign, y * sign)
                        };
                        let Some(to) = step else {
                            break;
                        };
                        if to == sq {
                            break;
                        }
                        cur = to;
                        if captures {
                            spots.insert(to);
                        }
                        next.push((to, dir, n));
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            frontier = next;
        }
    }
    spots
}

fn compute_complex_reach(
    t: &mut Tables,
    gated: &[Vec<Gated>],
    generated: TypeSet,
    lines: &SquareSet,
) {
    let n = t.num_types;
    if t.complex_attackers == [0, 0] {
        return;
    }
    t.complex_reach = vec![SquareSet::EMPTY; 2 * n * 256];
    let g = t.geometry;
    for color in Color::BOTH {
        for (kind, comps) in gated.iter().enumerate() {
            if t.complex_attackers[color as usize] & 1u64 << kind == 0 {
                continue;
            }
            if generated & 1u64 << kind != 0 {
                // Janggi's moves along the marked diagonals join marked squares.
                for target in lines.iter() {
                    t.complex_reach[(color as usize * n + kind) * 256 + target as usize] |= *lines;
                }
            }
            for origin in g.squares() {
                for target in capture_spots(g, comps, color, origin).iter() {
                    t.complex_reach[(color as usize * n + kind) * 256 + target as usize]
                        .insert(origin);
                }
            }
        }
    }
}

fn compute_immobile(t: &mut Tables, gated: &[Vec<Gated>], v: &Variant) {
    let g = t.geometry;
    for color in Color::BOTH {
        let sign = if color == Color::White { 1 } else { -1 };
        for (kind, comps) in gated.iter().enumerate() {
            let mut set = SquareSet::EMPTY;
            for s in g.squares() {
                let mobile = comps.iter().any(|gc| {
                    // Fairy-Stockfish's immobility test ignores initial moves.
                    if gc.component.initial
                        || (gc.region.is_some() && v.pieces[kind].is_pawn_slot())
                    {
                        return false;
                    }
                    if let Some(r) = &gc.region
                        && !r[color as usize].contains(s)
                    {
                        return false;
                    }
                    let c = &gc.component;
                    if !c.final_leg().mode.contains(Mode::MOVE) {
                        return false;
                    }
                    let mut cur = vec![(s, 0u8)];
                    for (li, leg) in c.legs.iter().enumerate() {
                        let mut next = Vec::new();
                        for &(sq, prev_dir) in &cur {
                            for &d in &leg.directions {
                                let dir = if li == 0 { d } else { (prev_dir + d) % 8 };
                                let (x, y) = c.atom.vector(dir);
                                if let Some(to) = g.offset(sq, x * sign, y * sign) {
                                    next.push((to, dir));
                                }
                            }
                        }
                        cur = next;
                    }
                    !cur.is_empty()
                });
                if !mobile {
                    set.insert(s);
                }
            }
            t.immobile[color as usize][kind] = set;
        }
    }
}

/// Group key of a probe pattern.
#[derive(PartialEq)]
struct PatternKey {
    kind: ProbeKind,
    dx: i32,
    dy: i32,
    max: usize,
    lame: bool,
    lame_full: bool,
    must_jump: bool,
    cylinder: bool,
    region: Option<[SquareSet; 2]>,
}

fn build_probes(b: &mut Builder, gated: &[Vec<Gated>], generated: TypeSet) {
    let g = b.g;
    let v = b.v;
    for color in Color::BOTH {
        let sign = if color == Color::White { 1 } else { -1 };
        let mut patterns: Vec<(PatternKey, TypeSet)> = Vec::new();
        for (t, comps) in gated.iter().enumerate() {
            let bit = 1u64 << t;
            if generated & bit != 0 {
                b.t.complex_attackers[color as usize] |= bit;
                continue;
            }
            for gc in comps {
                let c = &gc.component;
                let leg = c.final_leg();
                let captures = leg.mode.contains(Mode::CAPTURE) && !leg.mode.contains(Mode::TAME);
                if !captures && !c.is_multi_leg() {
                    continue;
                }
                let unit = c.atom.long == 1 && c.atom.shape != AtomShape::Oblique;
                let simple = !c.is_multi_leg()
                    && !(leg.jumps > 0 && (unit || leg.range.is_slider()))
                    && !(leg.mode.intersects(Mode::HOP | Mode::GRASSHOP)
                        && matches!(leg.range, Range::Limited(_)));
                if !simple {
                    if c.final_leg().mode.contains(Mode::CAPTURE) || c.captures_on_the_way() {
                        b.t.complex_attackers[color as usize] |= bit;
                    }
                    continue;
                }
                for &d in &leg.directions {
                    let (x, y) = c.atom.vector(d);
                    let (dx, dy) = (x * sign, y * sign);
                    if c.atom.shape == AtomShape::Castle {
                        continue;
                    }
                    let hop = leg.mode.contains(Mode::HOP);
                    let grass = leg.mode.contains(Mode::GRASSHOP);
                    let kind = match leg.range {
                        Range::Leap if hop || grass => continue,
                        Range::Leap => ProbeKind::Leap,
                        _ if grass => ProbeKind::Grasshop,
                        _ if hop => ProbeKind::Hop,
                        _ => ProbeKind::Slide,
                    };
                    let key = PatternKey {
                        kind,
                        dx,
                        dy,
                        max: leg.range.max_steps(),
                        lame: leg.mode.contains(Mode::LAME),
                        lame_full: leg.mode.contains(Mode::LAME_FULL_PATH),
                        must_jump: leg.jumps > 0,
                        cylinder: leg.mode.contains(Mode::CYLINDER),
                        region: gc.region,
                    };
                    match patterns.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, m)) => *m |= bit,
                        None => patterns.push((key, bit)),
                    }
                }
            }
        }
        b.t.has_hoppers |= patterns
            .iter()
            .any(|(k, _)| matches!(k.kind, ProbeKind::Hop | ProbeKind::Grasshop));
        b.t.has_lame |= patterns.iter().any(|(k, _)| k.lame || k.must_jump);
        for target in g.squares() {
            let mut probes = Vec::new();
            for (k, types) in &patterns {
                // A piece only attacks squares of its mobility region.
                let mut types = *types;
                for (t, r) in v.mobility_region[color as usize].iter().enumerate() {
                    if let Some(r) = r
                        && !r.contains(target)
                    {
                        types &= !(1u64 << t);
                    }
                }
                if types == 0 {
                    continue;
                }
                let from_region = match &k.region {
                    Some(r) => b.region_id(r[color as usize]),
                    None => 0,
                };
                match k.kind {
                    ProbeKind::Leap => {
                        let from = if k.cylinder {
                            g.offset_wrapping(target, -k.dx, -k.dy)
                        } else {
                            g.offset(target, -k.dx, -k.dy)
                        };
                        let Some(from) = from.filter(|&f| f != target) else {
                            continue;
                        };
                        let mut blocks = Vec::new();
                        if k.lame || k.must_jump {
                            for (bx, by) in lame_path(k.dx, k.dy, k.lame_full && !k.must_jump) {
                                let sq = if k.cylinder {
                                    g.offset_wrapping(from, bx, by)
                                } else {
                                    g.offset(from, bx, by)
                                };
                                if let Some(sq) = sq {
                                    blocks.push(sq);
                                }
                            }
                        }
                        let start = b.push_squares(&[from]);
                        let block_start = b.push_squares(&blocks);
                        probes.push(Probe {
                            kind: ProbeKind::Leap,
                            types,
                            start,
                            len: 1,
                            block_start,
                            block_len: blocks.len() as u8,
                            must_jump: k.must_jump,
                            from_region,
                            ray: None,
                        });
                    }
                    _ => {
                        let max = if k.kind == ProbeKind::Slide {
                            k.max
                        } else {
                            usize::MAX
                        };
                        let ray = b.ray(target, -k.dx, -k.dy, max, k.cylinder);
                        if ray.is_empty() {
                            continue;
                        }
                        let start = b.push_squares(&ray);
                        let ordered = if k.kind == ProbeKind::Slide {
                            b.ordered_ray(&ray)
                        } else {
                            None
                        };
                        probes.push(Probe {
                            kind: k.kind,
                            types,
                            start,
                            len: ray.len() as u16,
                            block_start: 0,
                            block_len: 0,
                            must_jump: false,
                            from_region,
                            ray: ordered,
                        });
                    }
                }
            }
            let index = color as usize * 256 + target as usize;
            let start = b.t.probes.len() as u32;
            b.t.probes.extend_from_slice(&probes);
            b.t.probe_index[index] = (start, probes.len() as u32);
            let mut groups: Vec<LeapGroup> = Vec::new();
            let mut others = Vec::new();
            for p in probes {
                if !p.is_plain_leap() {
                    others.push(p);
                    continue;
                }
                let from = b.t.squares[p.start as usize];
                match groups.iter_mut().find(|g| g.types == p.types) {
                    Some(g) => g.from.insert(from),
                    None => groups.push(LeapGroup {
                        types: p.types,
                        from: SquareSet::single(from),
                    }),
                }
            }
            let start = b.t.leap_groups.len() as u32;
            b.t.leap_groups.extend_from_slice(&groups);
            b.t.leap_group_index[index] = (start, groups.len() as u32);
            let start = b.t.other_probes.len() as u32;
            b.t.other_probes.extend_from_slice(&others);
            b.t.other_probe_index[index] = (start, others.len() as u32);
        }
    }
}
