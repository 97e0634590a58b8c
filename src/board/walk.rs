//! The target walker: the one place that walks a piece's compiled steps (leaps with
//! their lame or jumped squares, slides, hops) over an occupancy. Move generation
//! (which the search calls directly) and the evaluation's mobility and king-attack
//! count walk through it; a multi-leg component is the exception that keeps its own
//! interpreter (in `generate.rs`), but it is announced through the same walk.
//!
//! Two views: [`Ruleset::walk`] gives the targets for an occupancy, and
//! [`Ruleset::steps`] gives each step with the squares it may reach on some board
//! (what an empty-board estimate reads).

use super::Ruleset;
use super::position::Position;
use super::tables::{MultiPattern, Probe, Step, Tables};
use crate::types::{Color, PieceType, Square, SquareSet, Squares, TypeSet};

pub use super::tables::{ProbeKind, StepKind, StepMode};

/// Which squares hold a piece, as the walker asks it.
pub trait Occupancy {
    fn is_occupied(&self, sq: Square) -> bool;
}

impl<const W: usize> Occupancy for Squares<W> {
    #[inline]
    fn is_occupied(&self, sq: Square) -> bool {
        self.contains(sq)
    }
}

impl Occupancy for Position {
    #[inline]
    fn is_occupied(&self, sq: Square) -> bool {
        self.piece_at(sq).is_some()
    }
}

/// A target square of a step.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub to: Square,
    /// What the step may do there.
    pub mode: StepMode,
    /// A piece stands there (the ray ends at it).
    pub occupied: bool,
}

/// A multi-leg component, to be interpreted by the caller that needs its moves.
#[derive(Clone, Copy)]
pub struct MultiLeg<'a>(pub(super) &'a MultiPattern);

/// What receives the walk's findings: the target squares, and each multi-leg
/// component (with the mode of its last leg), whose targets the walk does not
/// interpret. The generator and the evaluation implement it with inlined methods:
/// the walk is on their hot paths.
pub trait Visit<'a> {
    fn target(&mut self, target: Target);
    fn multi(&mut self, leg: MultiLeg<'a>, mode: StepMode);
}

/// One compiled step of a piece on a square.
#[derive(Clone, Copy)]
pub struct StepView<'a> {
    step: &'a Step,
    tables: &'a Tables,
}

impl<'a> StepView<'a> {
    #[inline]
    pub fn kind(&self) -> StepKind {
        self.step.kind
    }
    #[inline]
    pub fn mode(&self) -> StepMode {
        self.step.mode
    }
    /// The squares the step may reach on some board, nearest first: a leap's target,
    /// a slide's or a hop's ray; none for a multi-leg component.
    #[inline]
    pub fn reach(&self) -> &'a [Square] {
        self.tables.ray(self.step.start, self.step.len)
    }

    /// The step's targets on `occ`, nearest first (the multi-leg case is the caller's).
    #[inline(always)]
    fn walk(&self, occ: &(impl Occupancy + ?Sized), visit: &mut impl Visit<'a>) {
        let step = self.step;
        let t = self.tables;
        let mode = step.mode;
        let target = |to: Square| Target {
            to,
            mode,
            occupied: occ.is_occupied(to),
        };
        match step.kind {
            StepKind::Leap => {
                if step.block_len > 0 {
                    let blocks = t.ray(step.block_start, step.block_len as u16);
                    // A lame leap needs its path empty; a jumping one its squares full.
                    if !blocks.iter().all(|&b| occ.is_occupied(b) == step.must_jump) {
                        return;
                    }
                }
                visit.target(target(t.squares[step.start as usize]));
            }
            StepKind::Slide => {
                for &to in self.reach() {
                    let tg = target(to);
                    visit.target(tg);
                    if tg.occupied {
                        break;
                    }
                }
            }
            StepKind::Hop => {
                let mut screen = false;
                let mut after = 0u8;
                for &to in self.reach() {
                    if !screen {
                        screen = occ.is_occupied(to);
                        continue;
                    }
                    after += 1;
                    let tg = target(to);
                    visit.target(tg);
                    if tg.occupied || (step.hop_after != 0 && after >= step.hop_after) {
                        break;
                    }
                }
            }
            StepKind::Multi => visit.multi(MultiLeg(&t.multi[step.multi as usize]), mode),
        }
    }
}

/// An attack probe seen from its target square: where an attacker of some types
/// could stand.
#[derive(Clone, Copy)]
pub struct ProbeView<'a> {
    probe: &'a Probe,
    tables: &'a Tables,
}

impl<'a> ProbeView<'a> {
    #[inline]
    pub fn kind(&self) -> ProbeKind {
        self.probe.kind
    }
    /// The attacking types.
    #[inline]
    pub fn types(&self) -> TypeSet {
        self.probe.types
    }
    /// Outward from the target: a leap's one attacker square, or the ray.
    #[inline]
    pub fn ray(&self) -> &'a [Square] {
        self.tables.ray(self.probe.start, self.probe.len)
    }
    /// A leap's lame squares (which must be empty) or, with [`Self::must_jump`], the
    /// squares it jumps (which must be occupied).
    #[inline]
    pub fn blocks(&self) -> &'a [Square] {
        self.tables
            .ray(self.probe.block_start, self.probe.block_len as u16)
    }
    #[inline]
    pub fn must_jump(&self) -> bool {
        self.probe.must_jump
    }
    /// A slide probe's ray up to its nearest occupied square, that square included,
    /// found with set operations; `None` when the ray's squares are not numbered in
    /// ray order (then walk [`ray`](Self::ray)).
    #[inline(always)]
    pub fn ray_until_occupied<const W: usize>(&self, occ: &Squares<W>) -> Option<Squares<W>> {
        let ray = self.probe.ray?;
        Some(self.tables.ray_until_occupied(ray, occ))
    }
    /// The region the attacker must stand in, if the probe has one.
    #[inline]
    pub fn from_region(&self) -> Option<&'a SquareSet> {
        match self.probe.from_region {
            0 => None,
            r => Some(&self.tables.regions[r as usize - 1]),
        }
    }
}

impl Ruleset {
    /// The compiled steps of a piece of colour `c` and type `t` on `from`.
    #[inline]
    pub fn steps(
        &self,
        c: Color,
        t: PieceType,
        from: Square,
    ) -> impl ExactSizeIterator<Item = StepView<'_>> {
        let tables = &self.tables;
        tables
            .steps_of(c, t, from)
            .iter()
            .map(move |step| StepView { step, tables })
    }

    /// The squares the leaps of a piece of colour `c` and type `t` on `from` may
    /// capture on, whatever stands on their lame or jumped squares (a pawn's
    /// protection, say): the plain leaps' set and the other leaps' targets.
    #[inline]
    pub fn leap_captures(&self, c: Color, t: PieceType, from: Square) -> SquareSet {
        let tables = &self.tables;
        let mut out = tables.plain_leaps_of(c, t, from)[1];
        for step in tables.other_steps_of(c, t, from) {
            if step.kind == StepKind::Leap && step.mode.contains(StepMode::CAPTURE) {
                out.insert(tables.ray(step.start, step.len)[0]);
            }
        }
        out
    }

    /// Walk the targets of a piece of colour `c` and type `t` on `from` over `occ`:
    /// every square a leap, slide or hop reaches, the occupied square that ends a ray
    /// included, and each multi-leg component once. Whether a target is a move, a
    /// capture or nothing is for `visit` to decide from the step's mode.
    #[inline(always)]
    pub fn walk<'a>(
        &'a self,
        c: Color,
        t: PieceType,
        from: Square,
        occ: &(impl Occupancy + ?Sized),
        visit: &mut impl Visit<'a>,
    ) {
        self.walk_steps(self.tables.steps_of(c, t, from), occ, visit);
    }

    /// The walk of [`walk`](Self::walk) with the plain leaps (those with no lame
    /// or jumped square) and the slides along ordered rays given as sets instead:
    /// returns [squares they may move to, squares they may capture on] and walks
    /// only the other steps. For visitors that collect target sets by the step's
    /// move and capture flags, this is the same and faster.
    #[inline(always)]
    pub fn walk_sets<'a, const W: usize>(
        &'a self,
        c: Color,
        t: PieceType,
        from: Square,
        occ: &Squares<W>,
        visit: &mut impl Visit<'a>,
    ) -> [Squares<W>; 2] {
        let tables = &self.tables;
        let mut sets = tables.plain_leaps_of(c, t, from).map(|s| s.resized::<W>());
        for step in tables.other_steps_of(c, t, from) {
            match step.ray {
                Some(ray) => {
                    let reach = tables.ray_until_occupied(ray, occ);
                    if step.mode.contains(StepMode::MOVE) {
                        sets[0] |= reach;
                    }
                    if step.mode.contains(StepMode::CAPTURE) {
                        sets[1] |= reach;
                    }
                }
                None => StepView { step, tables }.walk(occ, visit),
            }
        }
        sets
    }

    #[inline(always)]
    fn walk_steps<'a>(
        &'a self,
        steps: &'a [Step],
        occ: &(impl Occupancy + ?Sized),
        visit: &mut impl Visit<'a>,
    ) {
        let tables = &self.tables;
        for step in steps {
            StepView { step, tables }.walk(occ, visit);
        }
    }

    /// The attack probes of `target` for attackers of colour `by`.
    #[inline]
    pub fn probes(
        &self,
        by: Color,
        target: Square,
    ) -> impl ExactSizeIterator<Item = ProbeView<'_>> {
        self.probe_views(self.tables.probes_of(by, target))
    }

    #[inline]
    fn probe_views<'a>(
        &'a self,
        probes: &'a [Probe],
    ) -> impl ExactSizeIterator<Item = ProbeView<'a>> {
        let tables = &self.tables;
        probes.iter().map(move |probe| ProbeView { probe, tables })
    }

    /// The plain leaps among the probes of `target` (see [`Self::probes`]), merged
    /// per set of attacker types: (types, squares an attacker of one of them captures
    /// from whatever else stands on the board).
    #[inline]
    pub fn leap_groups(
        &self,
        by: Color,
        target: Square,
    ) -> impl ExactSizeIterator<Item = (TypeSet, SquareSet)> + '_ {
        self.tables
            .leap_groups_of(by, target)
            .iter()
            .map(|g| (g.types, g.from))
    }

    /// The probes of `target` other than the plain leaps of [`Self::leap_groups`].
    #[inline]
    pub fn other_probes(
        &self,
        by: Color,
        target: Square,
    ) -> impl ExactSizeIterator<Item = ProbeView<'_>> {
        self.probe_views(self.tables.other_probes_of(by, target))
    }

    /// Types whose captures the attack probes cannot describe (they are found by
    /// generating their moves).
    #[inline]
    pub fn complex_attackers(&self, c: Color) -> TypeSet {
        self.tables.complex_attackers[c as usize]
    }

    /// Whether a piece of colour `c` and type `t` captures by plain leaps only (on
    /// every square): then what it attacks does not depend on the occupancy.
    pub fn captures_by_plain_leaps(&self, c: Color, t: PieceType) -> bool {
        self.variant.geometry.squares().all(|sq| {
            self.tables
                .other_steps_of(c, t, sq)
                .iter()
                .all(|step| !step.mode.contains(StepMode::CAPTURE))
        })
    }

    /// Squares from which a piece of colour `c` and type `t` has no move at all on
    /// an empty board.
    #[inline]
    pub fn immobile_squares(&self, c: Color, t: PieceType) -> SquareSet {
        self.tables.immobile[c as usize][t as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// What a walk found: (file, rank, occupied, mode) of each target, and how many
    /// multi-leg components.
    struct Found {
        rules: Arc<Ruleset>,
        targets: Vec<(u8, u8, bool, StepMode)>,
        multi: usize,
    }

    impl Visit<'_> for Found {
        fn target(&mut self, t: Target) {
            let g = self.rules.variant.geometry;
            self.targets
                .push((g.file(t.to), g.rank(t.to), t.occupied, t.mode));
        }
        fn multi(&mut self, _: MultiLeg<'_>, _: StepMode) {
            self.multi += 1;
        }
    }

    fn rules(name: &str) -> Arc<Ruleset> {
        crate::board::builtin_rules(name)
    }

    /// The walk of the White piece standing on (file, rank) in the start position,
    /// over that position or over an empty board; targets sorted.
    fn walk(rules: &Arc<Ruleset>, file: u8, rank: u8, empty_board: bool) -> Found {
        let pos = Position::start(rules);
        let from = rules.variant.geometry.square(file, rank);
        let kind = pos.piece_at(from).kind();
        let mut found = Found {
            rules: rules.clone(),
            targets: Vec::new(),
            multi: 0,
        };
        if empty_board {
            rules.walk(Color::White, kind, from, &SquareSet::EMPTY, &mut found);
        } else {
            rules.walk(Color::White, kind, from, &pos, &mut found);
        }
        found.targets.sort_by_key(|&(f, r, o, _)| (f, r, o));
        found
    }

    fn squares(found: &Found) -> Vec<(u8, u8, bool)> {
        found
            .targets
            .iter()
            .map(|&(f, r, o, _)| (f, r, o))
            .collect()
    }

    #[test]
    fn captures_by_plain_leaps_are_told_apart() {
        let chess = rules("chess");
        let xiangqi = rules("xiangqi");
        let type_of = |r: &Arc<Ruleset>, c: char| r.variant.type_of_letter(c).unwrap();
        for c in Color::BOTH {
            // The pawn's double step is lame, but it does not capture.
            assert!(chess.captures_by_plain_leaps(c, type_of(&chess, 'p')));
            assert!(chess.captures_by_plain_leaps(c, type_of(&chess, 'n')));
            assert!(!chess.captures_by_plain_leaps(c, type_of(&chess, 'r')));
            // The horse's leap is lame, the cannon hops.
            assert!(!xiangqi.captures_by_plain_leaps(c, type_of(&xiangqi, 'n')));
            assert!(!xiangqi.captures_by_plain_leaps(c, type_of(&xiangqi, 'c')));
        }
    }

    #[test]
    fn slides_stop_at_the_first_piece_and_leaps_ignore_the_path() {
        let chess = rules("chess");
        // Rook a1: the pieces on a2 and b1 end both rays.
        assert_eq!(
            squares(&walk(&chess, 0, 0, false)),
            [(0, 1, true), (1, 0, true)]
        );
        // On an empty board it reaches its whole rank and file.
        let empty = walk(&chess, 0, 0, true);
        assert_eq!(empty.targets.len(), 14);
        assert!(empty.targets.iter().all(|t| !t.2));
        // Knight b1: a3, c3 and its own pawn on d2.
        assert_eq!(
            squares(&walk(&chess, 1, 0, false)),
            [(0, 2, false), (2, 2, false), (3, 1, true)]
        );
        assert_eq!(walk(&chess, 1, 0, false).multi, 0);
    }

    #[test]
    fn lame_leaps_and_hops_follow_the_occupancy() {
        let xiangqi = rules("xiangqi");
        // Horse b1: its leg towards d2 is blocked by the elephant on c1.
        assert_eq!(
            squares(&walk(&xiangqi, 1, 0, false)),
            [(0, 2, false), (2, 2, false)]
        );
        // Cannon b3: capturing hops over the screens on b8 and h3 reach b9 and i3
        // (empty: no capture there) and b10 (the black horse ends the ray); its
        // quiet slides end at the first piece (b1, b8, h3: the visitor sees that the
        // mode allows no capture).
        let cannon = walk(&xiangqi, 1, 2, false);
        let hops: Vec<_> = cannon
            .targets
            .iter()
            .filter(|t| !t.3.contains(StepMode::MOVE))
            .map(|&(f, r, o, _)| (f, r, o))
            .collect();
        assert_eq!(hops, [(1, 8, false), (1, 9, true), (8, 2, false)]);
        let slide_ends: Vec<_> = cannon
            .targets
            .iter()
            .filter(|t| t.3.contains(StepMode::MOVE) && t.2)
            .map(|&(f, r, o, _)| (f, r, o))
            .collect();
        assert_eq!(slide_ends, [(1, 0, true), (1, 7, true), (7, 2, true)]);
        // No screen on an empty board: no hop target.
        assert!(
            walk(&xiangqi, 1, 2, true)
                .targets
                .iter()
                .all(|t| t.3.contains(StepMode::MOVE))
        );
    }

    #[test]
    fn step_modes_are_flag_sets() {
        let both = StepMode::MOVE | StepMode::CAPTURE;
        assert!(both.contains(StepMode::MOVE) && both.contains(StepMode::CAPTURE));
        assert!(!StepMode::MOVE.contains(both) && StepMode::MOVE.intersects(both));
        assert!(!StepMode::MOVE.intersects(StepMode::CAPTURE));
        assert!(both.contains(StepMode::NONE));
    }
}
