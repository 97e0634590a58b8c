//! What the evaluation knows about a variant before any weight: facts derived from
//! its board and pieces once. The features the weights multiply are defined here
//! (a piece's advance, centrality and reach on each square; its closeness to the
//! enemy royal piece), and so are the fixed yardsticks that no weight changes: the
//! estimated piece values by which threats are weighed, the game phase measured and
//! drawn material recognised, and the mobility a piece typically has.

use super::terms::square_cell;
use super::values;
use crate::board::{Position, Ruleset, StepKind, StepMode};
use crate::types::{Color, Geometry, PieceType, Square, SquareSet};
use std::sync::Arc;

/// Square features, in the order of the piece terms `advance`, `advance2`,
/// `centre`, `reach`.
pub const SQUARE_FEATURES: usize = 4;

pub struct Basis {
    pub n: usize,
    pub geometry: Geometry,
    /// Estimated value per type (centipawns), see [`values::estimated_values`].
    pub estimate: Vec<i32>,
    /// Game-phase weight per type: its estimated value, 0 for royal and pawn-like
    /// types.
    pub phase_weight: Vec<i32>,
    /// The phase weight of the start position (all of it on the board or in hand).
    pub phase_total: i32,
    /// Mobility a piece of the type typically has (the mobility term counts squares
    /// beyond it, so that it does not duplicate material).
    pub mob_base: Vec<i32>,
    /// Mobility a piece of the type has on an empty board, averaged over its squares.
    pub raw_reach: Vec<f64>,
    pub pawnlike: Vec<bool>,
    /// Per type and square (White's view; Black uses the mirror square): the square
    /// features.
    square_features: Vec<[f32; SQUARE_FEATURES]>,
    /// Closeness by Chebyshev distance: 1 next to the piece, 0 at the largest distance.
    pub proximity: Vec<f32>,
    /// The square of the mirror image (ranks flipped), per square.
    pub mirror: Vec<Square>,
    /// File and rank per square (no division in the hot path).
    file_rank: Vec<(u8, u8)>,
    /// King zones per square: the square and its neighbours.
    pub zone: Vec<SquareSet>,
    /// Per colour and type: where a piece of the type may be dropped (position-
    /// independent rules only; emptiness and no-doubled rules are checked per position).
    pub drop_squares: [Vec<SquareSet>; 2],
    /// Pawn structure applies to this type (a pawn that promotes straight ahead).
    pub pawn: Option<PieceType>,
    /// Per type: its pieces keep to the squares of one colour (a bishop).
    pub colour_bound: Vec<bool>,
    /// The squares of each colour (by the parity of file plus rank).
    pub square_colours: [SquareSet; 2],
    /// Per square of a royal piece: its flank (its file and two on each side).
    pub flank: Vec<SquareSet>,
    /// Per colour: its camp, the ranks of its half and one more.
    pub camp: [SquareSet; 2],
    /// Per colour: the space area, the central files (all but two on each side)
    /// of its second rank up to the rank before the middle.
    pub space_area: [SquareSet; 2],
}

impl Basis {
    pub fn new(rules: &Arc<Ruleset>) -> Basis {
        let v = &rules.variant;
        let g = v.geometry;
        let n = v.num_types();
        let estimate = values::estimated_values(rules);
        let pawnlike: Vec<bool> = (0..n)
            .map(|t| values::is_pawnlike(rules, t as PieceType))
            .collect();
        let phase_weight: Vec<i32> = (0..n)
            .map(|t| {
                if v.pieces[t].royal || pawnlike[t] {
                    0
                } else {
                    estimate[t]
                }
            })
            .collect();
        let start = Position::start(rules);
        let mut phase_total = 0;
        for c in Color::BOTH {
            for (t, w) in phase_weight.iter().enumerate() {
                let t = t as PieceType;
                phase_total += w * (start.count(c, t) as i32 + start.hand(c, t) as i32);
            }
        }

        let mirror: Vec<Square> = (0..=255u8)
            .map(|s| {
                if (s as usize) < g.num_squares() {
                    g.square(g.file(s), g.ranks - 1 - g.rank(s))
                } else {
                    s
                }
            })
            .collect();
        let last_rank = (g.ranks as f32 - 1.0).max(1.0);
        let last_file = (g.files as f32 - 1.0).max(1.0);
        let mut square_features = vec![[0.0; SQUARE_FEATURES]; n * 256];
        let mut mob_base = vec![0; n];
        let mut raw_reach = vec![0.0; n];
        for t in 0..n {
            let tt = t as PieceType;
            let squares = values::standing_squares(rules, tt);
            if squares.is_empty() {
                continue;
            }
            let mobs: Vec<f64> = g
                .squares()
                .map(|s| values::empty_board_targets(rules, tt, s).0)
                .collect();
            let avg = squares.iter().map(|&s| mobs[s as usize]).sum::<f64>() / squares.len() as f64;
            // Raw (undecayed) target count on an empty board, for the mobility term.
            let raw: f64 = squares
                .iter()
                .map(|&s| {
                    rules
                        .steps(Color::White, tt, s)
                        .map(|st| {
                            if st.kind() == StepKind::Slide {
                                st.reach().len() as f64
                            } else {
                                1.0
                            }
                        })
                        .sum::<f64>()
                })
                .sum::<f64>()
                / squares.len() as f64;
            raw_reach[t] = raw;
            mob_base[t] = (raw * 0.4).round() as i32;
            let f = values::mobility_value;
            for &s in &squares {
                let x = g.rank(s) as f32 / last_rank;
                let centre = 1.0 - (2.0 * g.file(s) as f32 - last_file).abs() / last_file;
                let reach = ((f(mobs[s as usize]) - f(avg)) / 100.0) as f32;
                square_features[t * 256 + s as usize] = [x, x * x, centre, reach];
            }
        }
        let span = (g.files.max(g.ranks) as f32 - 1.0).max(1.0);
        let proximity = (0..16).map(|d| (1.0 - d as f32 / span).max(0.0)).collect();

        let mut zone = vec![SquareSet::EMPTY; 256];
        for s in g.squares() {
            let mut z = SquareSet::single(s);
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if let Some(x) = g.offset(s, dx, dy) {
                        z.insert(x);
                    }
                }
            }
            zone[s as usize] = z;
        }

        let drop_squares = [Color::White, Color::Black].map(|c| {
            (0..n)
                .map(|t| {
                    let ci = c as usize;
                    let mut set = v.drop_region[ci];
                    if let Some(r) = &v.mobility_region[ci][t] {
                        set = set.and(r);
                    }
                    if Some(t as PieceType) == rules.pawn_type {
                        if !v.promotion_zone_pawn_drops {
                            set = set.minus(&v.promotion_region[ci]);
                        }
                        if !v.first_rank_pawn_drops {
                            let first = if c == Color::White { 0 } else { g.ranks - 1 };
                            set = set.minus(&g.rank_set(first));
                        }
                    }
                    if v.immobility_illegal {
                        set = set.minus(&rules.immobile_squares(c, t as PieceType));
                    }
                    set.and(&g.all())
                })
                .collect()
        });

        let has_pawn_files = rules.pawn_type.is_some_and(|p| {
            !v.promotion_region[0].is_empty()
                && rules
                    .steps(Color::White, p, g.square(g.files / 2, 1))
                    .any(|st| st.mode().contains(StepMode::MOVE))
        });

        let colour_bound = (0..n)
            .map(|t| {
                let tt = t as PieceType;
                let mut moves = false;
                // (A multi-leg move may end anywhere: such a piece is not bound.)
                let bound = g.squares().all(|s| {
                    let targets =
                        super::piece_targets(rules, Color::White, tt, s, &SquareSet::EMPTY);
                    let all = targets.moves.or(&targets.captures);
                    moves |= !all.is_empty();
                    targets.multi == 0 && all.iter().all(|x| parity(&g, x) == parity(&g, s))
                });
                bound && moves && !pawnlike[t] && !v.pieces[t].royal
            })
            .collect();
        let mut square_colours = [SquareSet::EMPTY; 2];
        for s in g.squares() {
            square_colours[parity(&g, s)].insert(s);
        }
        let camp_ranks = (g.ranks as i32 + 1) / 2 + 1;
        let mut flank = vec![SquareSet::EMPTY; 256];
        for k in g.squares() {
            for s in g.squares() {
                if (g.file(s) as i32 - g.file(k) as i32).abs() <= 2 {
                    flank[k as usize].insert(s);
                }
            }
        }
        let camp = [Color::White, Color::Black].map(|c| {
            let mut set = SquareSet::EMPTY;
            for s in g.squares() {
                if (g.relative_rank(s, c == Color::White) as i32) < camp_ranks {
                    set.insert(s);
                }
            }
            set
        });
        let space_area = [Color::White, Color::Black].map(|c| {
            let mut set = SquareSet::EMPTY;
            for s in g.squares() {
                let r = g.relative_rank(s, c == Color::White) as i32;
                let f = g.file(s) as i32;
                if g.files >= 6
                    && f >= 2
                    && f < g.files as i32 - 2
                    && r >= 1
                    && r < g.ranks as i32 / 2
                {
                    set.insert(s);
                }
            }
            set
        });

        Basis {
            n,
            geometry: g,
            estimate,
            phase_weight,
            phase_total: phase_total.max(1),
            mob_base,
            raw_reach,
            pawnlike,
            square_features,
            proximity,
            mirror,
            file_rank: (0..=255u8)
                .map(|s| {
                    if (s as usize) < g.num_squares() {
                        (g.file(s), g.rank(s))
                    } else {
                        (0, 0)
                    }
                })
                .collect(),
            zone,
            drop_squares,
            pawn: if has_pawn_files {
                rules.pawn_type
            } else {
                None
            },
            colour_bound,
            square_colours,
            flank,
            camp,
            space_area,
        }
    }

    /// The colour (0 or 1) of the square `s` stands on.
    #[inline]
    pub fn square_colour(&self, s: Square) -> usize {
        let (f, r) = self.file_rank[s as usize];
        ((f + r) & 1) as usize
    }

    /// The square features of a piece of colour `c` and type `t` on `sq`.
    #[inline]
    pub fn square_features(&self, c: Color, t: PieceType, sq: Square) -> &[f32; SQUARE_FEATURES] {
        let s = if c == Color::White {
            sq
        } else {
            self.mirror[sq as usize]
        };
        &self.square_features[t as usize * 256 + s as usize]
    }

    /// The piece-square table cell of a piece of colour `c` on `sq` (see
    /// [`square_cell`](super::terms::square_cell)).
    #[inline]
    pub fn square_cell(&self, c: Color, sq: Square) -> usize {
        let s = if c == Color::White {
            sq
        } else {
            self.mirror[sq as usize]
        };
        let (f, r) = self.file_rank[s as usize];
        square_cell(&self.geometry, f, r)
    }

    /// The file and rank of a square, looked up (the geometry divides).
    #[inline]
    pub fn file_rank(&self, s: Square) -> (u8, u8) {
        self.file_rank[s as usize]
    }

    /// Chebyshev distance between two squares, at most 15.
    #[inline]
    pub fn distance(&self, a: Square, b: Square) -> usize {
        let (fa, ra) = self.file_rank[a as usize];
        let (fb, rb) = self.file_rank[b as usize];
        (fa.abs_diff(fb).max(ra.abs_diff(rb)) as usize).min(15)
    }
}

/// The colour of a square: the parity of its file plus rank.
fn parity(g: &Geometry, s: Square) -> usize {
    ((g.file(s) + g.rank(s)) & 1) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin_rules;

    /// Types bound to one square colour, by variant (the letters of those types).
    #[test]
    fn colour_bound_types_are_found_from_the_moves() {
        for (variant, bound) in [("chess", "b"), ("shogi", "b"), ("capablanca", "b")] {
            let rules = builtin_rules(variant);
            let basis = Basis::new(&rules);
            let found: String = (0..basis.n)
                .filter(|&t| basis.colour_bound[t])
                .map(|t| rules.variant.pieces[t].letter.to_ascii_lowercase())
                .collect();
            assert_eq!(found, bound, "{variant}");
        }
    }

    /// The flank of a king on g1 is e..h on ranks 1 to 5; the space area of White
    /// is c..f on ranks 2 to 4.
    #[test]
    fn flank_and_space_area_on_a_chess_board() {
        let rules = builtin_rules("chess");
        let basis = Basis::new(&rules);
        let g = rules.variant.geometry;
        let g1 = g.square(6, 0);
        let camp = basis.flank[g1 as usize].and(&basis.camp[0]);
        assert_eq!(camp.count(), 20);
        assert!(camp.contains(g.square(4, 4)) && !camp.contains(g.square(4, 5)));
        assert!(!camp.contains(g.square(3, 0)));
        let area = basis.space_area[0];
        assert_eq!(area.count(), 12);
        assert!(area.contains(g.square(2, 1)) && area.contains(g.square(5, 3)));
        assert!(!area.contains(g.square(1, 2)) && !area.contains(g.square(4, 4)));
    }
}
