//! The evaluation's first pass: the facts that several terms read, computed once
//! before any of them runs (as Stockfish 11 fills `attackedBy` first): each
//! colour's attack maps (by its pieces, by its royal pieces, twice), the enemy
//! pieces its cheaper pieces attack, the squares from which each type would check
//! the enemy royal piece and those its pieces reach, the pawn maps, and every
//! piece with the squares it reaches. The term modules only read them, none
//! calls another: mobility reads each piece's squares reached, the pawn terms of
//! pieces read those and the pawn maps, the threats read the attack maps, king
//! safety reads the attack maps, the checks each type can give, the pieces that
//! hit the royal piece's zone and the mobility counts.

use super::Evaluator;
use super::count;
use crate::board::{MultiLeg, Position, ProbeKind, Ruleset, StepMode, Target, Visit};
use crate::types::{Color, PieceType, Square, SquareSet, Squares};

/// What the first pass found, per colour (index: the colour).
pub(super) struct Facts<'a, const W: usize> {
    /// Squares attacked by the colour's non-royal pieces, and by its royal pieces.
    pub attacks: [Squares<W>; 2],
    pub royal_attacks: [Squares<W>; 2],
    /// Squares attacked by two or more of the colour's pieces (royal included).
    pub attacks2: [Squares<W>; 2],
    /// Squares the colour's non-royal pieces reach, summed over the pieces.
    pub mobility: [i32; 2],
    /// Attacks on squares next to the enemy royal piece.
    pub hits: [i32; 2],
    /// Enemy pieces attacked by a cheaper piece.
    pub by_lesser: [Squares<W>; 2],
    /// Per colour and type (index `colour * n + type`): squares from which a piece
    /// of the type would check the enemy royal piece, and those of them a piece of
    /// the type can move to.
    pub check_squares: &'a [Squares<W>],
    pub checks_reached: &'a [Squares<W>],
    /// The pawn maps, where a pawn-related term has a weight (or when tracing).
    pub pawns: Option<PawnMaps<W>>,
    /// Every non-royal piece, White's first, by type, as the walk met them.
    pub pieces: &'a [PieceFacts<W>],
}

/// One non-royal piece as the first pass saw it.
#[derive(Clone, Copy)]
pub(super) struct PieceFacts<const W: usize> {
    pub colour: Color,
    pub kind: PieceType,
    pub square: Square,
    /// The empty squares it moves to and the enemy pieces it attacks.
    pub reached: Squares<W>,
    /// Its mobility count: the squares reached, plus one per multi-leg component.
    pub reach_count: i32,
    /// Its attacks on squares next to the enemy royal piece.
    pub hits: i32,
}

/// One colour's pawn-structure score and its passed pawns: what the pawn terms
/// compute from the pawns alone, kept in the pawn cache beside the pawn maps.
#[derive(Clone, Copy)]
pub(super) struct PawnScore<const W: usize> {
    pub score: [i32; 2],
    pub passed: Squares<W>,
    /// The space term's square count (see `GlobalTerm::Space`), before the
    /// factor that counts the pieces.
    pub space: i32,
}

impl<const W: usize> PawnScore<W> {
    pub(super) const EMPTY: PawnScore<W> = PawnScore {
        score: [0, 0],
        passed: Squares::EMPTY,
        space: 0,
    };
}

/// What the pawn-related terms read, per colour: the squares its pawns attack,
/// the squares they may one day attack, the empty squares they can move to, and
/// the files they stand on.
#[derive(Clone, Copy)]
pub(super) struct PawnMaps<const W: usize> {
    pub attacks: [Squares<W>; 2],
    pub reach: [Squares<W>; 2],
    pub pushes: [Squares<W>; 2],
    pub files: [u32; 2],
    pub pawn: PieceType,
}

impl Evaluator {
    /// The first pass: fills `check_squares` and `checks_reached` (`2 * n` sets
    /// each, empty) and `pieces` (empty) and returns the facts that borrow them.
    /// `cached_maps`: the pawn maps' pawn-only part, where the pawn cache kept it.
    pub(super) fn facts<'a, T: super::trace::Trace, const W: usize>(
        &self,
        pos: &Position,
        cached_maps: Option<PawnMaps<W>>,
        check_squares: &'a mut [Squares<W>],
        checks_reached: &'a mut [Squares<W>],
        pieces: &'a mut Vec<PieceFacts<W>>,
    ) -> Facts<'a, W> {
        let n = self.n;
        let rules = &*self.rules;
        let royal_sq = [
            pos.royals(Color::White).first(),
            pos.royals(Color::Black).first(),
        ];
        // Walls block like pieces (and are never targets: they are in no side's set).
        let occ: Squares<W> = (pos.occupied() | pos.walls()).resized();
        if self.checks {
            for c in Color::BOTH {
                if let Some(k) = royal_sq[c.flip() as usize] {
                    let ci = c as usize;
                    let out = &mut check_squares[ci * n..(ci + 1) * n];
                    self.check_squares(pos, c, k, &occ, out);
                }
            }
        }
        // The pushes are filled in below, where the pawns are walked.
        let mut pawns = self
            .basis
            .pawn
            .filter(|_| T::ON || self.pawn_terms_on)
            .map(|p| cached_maps.unwrap_or_else(|| self.pawn_maps(pos, p, &occ)));
        let mut attacks = [Squares::<W>::EMPTY; 2];
        let mut royal_attacks = [Squares::<W>::EMPTY; 2];
        let mut attacks2 = [Squares::<W>::EMPTY; 2];
        let mut by_lesser = [Squares::<W>::EMPTY; 2];
        let mut mobility = [0; 2];
        let mut hits = [0; 2];
        for c in Color::BOTH {
            let ci = c as usize;
            let them = c.flip();
            let zone: Squares<W> = royal_sq[them as usize]
                .map_or(Squares::EMPTY, |k| self.basis.zone[k as usize].resized());
            let theirs: Squares<W> = pos.pieces(them).resized();
            // The squares attacked by any piece so far, royal ones included.
            let mut any = Squares::<W>::EMPTY;
            let mut pushes = Squares::<W>::EMPTY;
            for t in 0..n {
                let tt = t as PieceType;
                let set: Squares<W> = pos.pieces_of(c, tt).resized();
                if set.is_empty() {
                    continue;
                }
                if rules.royal_types & 1u64 << t != 0 {
                    for sq in set.iter() {
                        let targets = piece_targets(rules, c, tt, sq, &occ);
                        attacks2[ci] |= any.and(&targets.captures);
                        any |= targets.captures;
                        royal_attacks[ci] |= targets.captures;
                    }
                    continue;
                }
                let pawn_type = pawns.as_ref().is_some_and(|maps| maps.pawn == tt);
                let checks = check_squares[ci * n + t];
                // Enemy pieces worth more than this type.
                let mut bigger = Squares::<W>::EMPTY;
                let mut types = self.more_valuable[t];
                while types != 0 {
                    let u = types.trailing_zeros() as PieceType;
                    types &= types - 1;
                    bigger |= pos.pieces_of(them, u).resized();
                }
                for sq in set.iter() {
                    let targets = piece_targets(rules, c, tt, sq, &occ);
                    let free = targets.moves.minus(&occ);
                    let reached = free.or(&targets.captures.and(&theirs));
                    if pawn_type {
                        pushes |= free;
                    }
                    attacks2[ci] |= any.and(&targets.captures);
                    any |= targets.captures;
                    attacks[ci] |= targets.captures;
                    by_lesser[ci] |= targets.captures.and(&bigger);
                    let reach_count = count(&reached) + targets.multi;
                    mobility[ci] += reach_count;
                    let piece_hits = count(&targets.captures.and(&zone));
                    hits[ci] += piece_hits;
                    if reached.intersects(&checks) {
                        checks_reached[ci * n + t] |= reached.and(&checks);
                    }
                    pieces.push(PieceFacts {
                        colour: c,
                        kind: tt,
                        square: sq,
                        reached,
                        reach_count,
                        hits: piece_hits,
                    });
                }
            }
            if let Some(maps) = &mut pawns {
                maps.pushes[ci] = pushes;
            }
        }
        Facts {
            attacks,
            royal_attacks,
            attacks2,
            mobility,
            hits,
            by_lesser,
            check_squares,
            checks_reached,
            pawns,
            pieces,
        }
    }

    /// The pawn maps the pawn-related piece terms read, but the pushes (which
    /// the walk of all pieces adds).
    pub(super) fn pawn_maps<const W: usize>(
        &self,
        pos: &Position,
        p: PieceType,
        occ: &Squares<W>,
    ) -> PawnMaps<W> {
        let g = self.rules.variant.geometry;
        let mut maps = PawnMaps {
            attacks: [Squares::EMPTY; 2],
            reach: [Squares::EMPTY; 2],
            pushes: [Squares::EMPTY; 2],
            files: [0; 2],
            pawn: p,
        };
        for c in Color::BOTH {
            let ci = c as usize;
            for sq in pos.pieces_of(c, p).resized::<W>().iter() {
                let targets = piece_targets(&self.rules, c, p, sq, occ);
                maps.attacks[ci] |= targets.captures;
                maps.reach[ci] |= self.pawn_span[ci * 256 + sq as usize].resized();
                maps.files[ci] |= 1 << g.file(sq);
            }
        }
        maps
    }

    /// The squares from which a piece of colour `c` would attack the royal piece on
    /// `k`, per type: the attack probes of `k` read backwards.
    fn check_squares<const W: usize>(
        &self,
        pos: &Position,
        c: Color,
        k: Square,
        occ: &Squares<W>,
        out: &mut [Squares<W>],
    ) {
        let own: Squares<W> = pos.pieces(c).resized();
        let pieces = !self.rules.royal_types;
        for (types, from) in self.rules.leap_groups(c, k) {
            let mut types = types & pieces;
            let found = from.resized().minus(&own);
            if types == 0 || found.is_empty() {
                continue;
            }
            while types != 0 {
                let t = types.trailing_zeros() as usize;
                types &= types - 1;
                out[t] |= found;
            }
        }
        for p in self.rules.other_probes(c, k) {
            // Royal pieces give no check (and a probe of kings only is done).
            let mut types = p.types() & pieces;
            if types == 0 {
                continue;
            }
            let ray = p.ray();
            let mut found = Squares::<W>::EMPTY;
            match p.kind() {
                ProbeKind::Leap => {
                    let blocks = p.blocks();
                    let open = if p.must_jump() {
                        blocks.iter().all(|&b| occ.contains(b))
                    } else {
                        blocks.iter().all(|&b| !occ.contains(b))
                    };
                    if open {
                        found.insert(ray[0]);
                    }
                }
                ProbeKind::Slide => match p.ray_until_occupied(occ) {
                    Some(reach) => found = reach,
                    None => {
                        for &sq in ray {
                            found.insert(sq);
                            if occ.contains(sq) {
                                break;
                            }
                        }
                    }
                },
                ProbeKind::Hop => {
                    let mut screen = false;
                    for &sq in ray {
                        if screen {
                            found.insert(sq);
                        }
                        if occ.contains(sq) {
                            if screen {
                                break;
                            }
                            screen = true;
                        }
                    }
                }
                ProbeKind::Grasshop => {
                    if occ.contains(ray[0]) {
                        for &sq in &ray[1..] {
                            found.insert(sq);
                            if occ.contains(sq) {
                                break;
                            }
                        }
                    }
                }
            }
            if let Some(region) = p.from_region() {
                found = found.and(&region.resized());
            }
            found = found.minus(&own);
            if found.is_empty() {
                continue;
            }
            while types != 0 {
                let t = types.trailing_zeros() as usize;
                types &= types - 1;
                out[t] |= found;
            }
        }
    }
}

/// Where one piece can go, given the occupancy.
pub struct Targets<const W: usize> {
    /// Squares its quiet moves reach (the first occupied square of a ray
    /// included, as for captures).
    pub moves: Squares<W>,
    /// Squares it attacks (could capture on), own pieces' squares included.
    pub captures: Squares<W>,
    /// Multi-leg components, not walked (each counts as one target for mobility).
    pub multi: i32,
}

/// For each colour and square (colour * 256 + square): the squares a pawn of the
/// colour attacks from that square or from any square ahead of it on its file, on
/// an empty board. An enemy pawn's span holds every square it may one day attack.
pub(super) fn pawn_spans(rules: &Ruleset, pawn: Option<PieceType>) -> Vec<SquareSet> {
    let mut spans = vec![SquareSet::EMPTY; 2 * 256];
    let Some(p) = pawn else {
        return spans;
    };
    let g = rules.variant.geometry;
    for c in Color::BOTH {
        let ahead = if c == Color::White { 1 } else { -1 };
        for s in 0..g.num_squares() as Square {
            let mut span = SquareSet::EMPTY;
            let mut at = Some(s);
            while let Some(x) = at {
                span |= piece_targets(rules, c, p, x, &SquareSet::EMPTY).captures;
                at = g.offset(x, 0, ahead);
            }
            spans[c as usize * 256 + s as usize] = span;
        }
    }
    spans
}

/// The targets of a piece of type `t` of colour `c` on `sq`, walking it over the
/// occupancy: a sliding ray ends at its first occupied square (included), a
/// hopper's targets lie beyond its screen.
#[inline(always)]
pub fn piece_targets<const W: usize>(
    rules: &Ruleset,
    c: Color,
    t: PieceType,
    sq: Square,
    occ: &Squares<W>,
) -> Targets<W> {
    let mut out = Targets {
        moves: Squares::EMPTY,
        captures: Squares::EMPTY,
        multi: 0,
    };
    let [moves, captures] = rules.walk_sets(c, t, sq, occ, &mut out);
    out.moves |= moves;
    out.captures |= captures;
    out
}

impl<const W: usize> Visit<'_> for Targets<W> {
    #[inline(always)]
    fn target(&mut self, target: Target) {
        if target.mode.contains(StepMode::MOVE) {
            self.moves.insert(target.to);
        }
        if target.mode.contains(StepMode::CAPTURE) {
            self.captures.insert(target.to);
        }
    }

    /// A multi-leg component counts as one target.
    #[inline(always)]
    fn multi(&mut self, _: MultiLeg<'_>, _: StepMode) {
        self.multi += 1;
    }
}
