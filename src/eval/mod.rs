//! Generic evaluation. Everything comes from the variant: piece values (from the file
//! or estimated from the compiled moves, see [`values`]), piece-square terms derived
//! from each piece's mobility on an empty board and its distance to promotion,
//! mobility, king safety from attacks near royal pieces (and from pieces in the
//! opponent's hand in drop games), pawn structure where the variant has pawns, and
//! a tempo bonus. The result is tapered between middlegame and endgame by the
//! material left on the board and in hand.

pub mod values;

use crate::board::{MultiLeg, Position, Ruleset, StepKind, StepMode, Target, Visit};
use crate::types::{Color, PieceType, Square, SquareSet};
use crate::variant::GameValue;
use std::sync::Arc;

/// Largest phase value: all starting material on the board or in hand.
const PHASE_MAX: i32 = 256;
const TEMPO: i32 = 12;
/// Window bounds at which the lazy exit is off.
const LAZY_OFF: i32 = 30_000;
/// Mobility bonus per reachable square (middlegame, endgame).
const MOBILITY: (i32, i32) = (4, 3);

/// The variant-derived tables and the evaluation function.
pub struct Evaluator {
    rules: Arc<Ruleset>,
    n: usize,
    /// Material per type (middlegame, endgame), centipawns.
    pub value_mg: Vec<i32>,
    pub value_eg: Vec<i32>,
    /// A piece in hand: its value plus its freedom to be dropped anywhere.
    hand_mg: Vec<i32>,
    /// What taking a piece of the type gains, for static exchange: its value, plus in
    /// drop games the value of the (demoted) piece that goes to the taker's hand.
    see_values: Vec<i32>,
    hand_eg: Vec<i32>,
    /// Piece-square terms, indexed `(color * n + type) * 256 + square`.
    psq: Vec<(i16, i16)>,
    /// Mobility a piece of the type typically has (subtracted so that the bonus is
    /// centred on zero and does not duplicate material).
    mob_base: Vec<i32>,
    /// Mobility bonus per square in eighths of a centipawn (mg, eg): long-range
    /// pieces get less per square (each of a queen's squares matters less than
    /// each of a knight's).
    mob_weight: Vec<(i32, i32)>,
    /// King-attack weight per type.
    attack_weight: Vec<i32>,
    /// King zones per colour and square: the square and its neighbours.
    zone: Vec<SquareSet>,
    phase_weight: Vec<i32>,
    phase_total: i32,
    /// Pawn structure applies to this type (a pawn that promotes straight ahead).
    pawn: Option<PieceType>,
    /// Passed-pawn bonus (endgame) by relative rank.
    passed_bonus: [i32; 16],
    /// Losing all pieces wins (giveaway): material counts against its owner.
    material_sign: i32,
    drop_game: bool,
    king_danger_scale: i32,
    /// How far mobility and king safety can move the score, roughly.
    lazy_margin: i32,
}

impl Evaluator {
    pub fn new(rules: &Arc<Ruleset>) -> Evaluator {
        let v = &rules.variant;
        let g = v.geometry;
        let n = v.num_types();
        let (mut value_mg, mut value_eg) = values::piece_values(rules);
        let drop_game = v.piece_drops;
        // Where captured pieces change sides, a capture swings twice the victim's
        // value and a pawn can be dropped anywhere: the pieces' estimated values lie
        // closer to the pawn's (half the distance), and a piece in hand is worth what
        // it is worth on the board.
        let hand_bonus = if v.captures_to_hand {
            let pawn = rules.pawn_type.map(|p| p as usize);
            let given = |t: usize| v.piece_value_mg[t].is_some() || v.piece_value_eg[t].is_some();
            for vals in [&mut value_mg, &mut value_eg] {
                let base = pawn.map(|p| vals[p]).unwrap_or(0);
                for (t, x) in vals.iter_mut().enumerate() {
                    if Some(t) != pawn && *x > base && !v.pieces[t].royal && !given(t) {
                        *x = base + (*x - base) / 2;
                    }
                }
            }
            0
        } else {
            8
        };
        let hand_mg: Vec<i32> = value_mg.iter().map(|&x| x + x * hand_bonus / 64).collect();
        let hand_eg: Vec<i32> = value_eg.iter().map(|&x| x + x * hand_bonus / 64).collect();

        let see_values: Vec<i32> = (0..n)
            .map(|t| {
                if !v.captures_to_hand {
                    return value_mg[t];
                }
                let in_hand = if v.drop_loop {
                    t
                } else {
                    (0..n)
                        .find(|&u| v.promoted_piece_type[u] == Some(t as PieceType))
                        .unwrap_or(t)
                };
                value_mg[t] + hand_mg[in_hand]
            })
            .collect();
        let pawnlike = |t: usize| {
            Some(t as PieceType) == rules.pawn_type || v.promotion_pawn_types[0] & 1 << t != 0
        };
        // Piece-square terms.
        let mut psq = vec![(0i16, 0i16); 2 * n * 256];
        let mut mob_base = vec![0; n];
        let mut mob_weight = vec![(8 * MOBILITY.0, 8 * MOBILITY.1); n];
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
            mob_base[t] = (raw * 0.4).round() as i32;
            let scale = (5.25 / raw.max(1.0)).sqrt().clamp(0.4, 1.5);
            mob_weight[t] = (
                (8.0 * MOBILITY.0 as f64 * scale).round() as i32,
                (8.0 * MOBILITY.1 as f64 * scale).round() as i32,
            );
            let f = values::mobility_value;
            let royal = v.pieces[t].royal;
            // Promotion distance for pawn-like types.
            let zone = v.promotion_region[0];
            let promo_gain = if pawnlike(t) {
                let mut best = 0;
                let mut ps = v.promotion_piece_types[0];
                while ps != 0 {
                    let p = ps.trailing_zeros() as usize;
                    ps &= ps - 1;
                    best = best.max(value_eg[p]);
                }
                (best - value_eg[t]).max(0)
            } else {
                0
            };
            let zone_rank = zone.iter().map(|s| g.rank(s)).min();
            for s in g.squares() {
                let m = mobs[s as usize];
                let (mut mg, mut eg);
                if royal {
                    // Kings hide in the middlegame (stay home) and centralise late.
                    mg = -(g.rank(s) as f64) * 12.0;
                    eg = (m - avg) * 4.0;
                    if drop_game {
                        eg = mg;
                    }
                } else {
                    mg = 0.5 * (f(m) - f(avg));
                    eg = 0.4 * (f(m) - f(avg));
                }
                if let (true, Some(zr)) = (promo_gain > 0, zone_rank) {
                    let total = zr.max(1) as f64;
                    let d = (zr as f64 - g.rank(s) as f64).max(0.0);
                    let progress = 1.0 - d / total;
                    mg += promo_gain as f64 * 0.04 * progress * progress;
                    eg += promo_gain as f64 * 0.12 * progress * progress;
                }
                let (mg, eg) = (mg.round() as i16, eg.round() as i16);
                psq[t * 256 + s as usize] = (mg, eg);
                // Black: the mirror square (ranks flipped).
                let ms = g.square(g.file(s), g.ranks - 1 - g.rank(s));
                psq[(n + t) * 256 + ms as usize] = (mg, eg);
            }
        }

        let attack_weight: Vec<i32> = (0..n).map(|t| (value_mg[t] / 180).clamp(1, 6)).collect();
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

        let phase_weight: Vec<i32> = (0..n)
            .map(|t| {
                if v.pieces[t].royal || pawnlike(t) {
                    0
                } else {
                    value_mg[t]
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
        let has_pawn_files = rules.pawn_type.is_some_and(|p| {
            !v.promotion_region[0].is_empty()
                && rules
                    .steps(Color::White, p, g.square(g.files / 2, 1))
                    .any(|st| st.mode().contains(StepMode::MOVE))
        });
        let material_sign = if v.extinction_all_types && v.extinction_value == GameValue::Win {
            -1
        } else {
            1
        };
        Evaluator {
            rules: rules.clone(),
            n,
            value_mg,
            value_eg,
            hand_mg,
            hand_eg,
            see_values,
            psq,
            mob_base,
            mob_weight,
            attack_weight,
            zone,
            phase_weight,
            phase_total: phase_total.max(1),
            pawn: if has_pawn_files {
                rules.pawn_type
            } else {
                None
            },
            passed_bonus: std::array::from_fn(|r| {
                let progress = r as f64 / (g.ranks as f64 - 1.0).max(1.0);
                (150.0 * progress * progress) as i32
            }),
            material_sign,
            drop_game,
            king_danger_scale: if v.check_counting { 2 } else { 1 },
            lazy_margin: if drop_game { 700 } else { 350 },
        }
    }

    /// A rough value for ordering and pruning: middlegame material.
    #[inline]
    pub fn value(&self, t: PieceType) -> i32 {
        self.value_mg[t as usize]
    }

    /// Piece values for static exchange ([`Ruleset::see_ge`]).
    #[inline]
    pub fn see_values(&self) -> &[i32] {
        &self.see_values
    }

    pub fn rules(&self) -> &Arc<Ruleset> {
        &self.rules
    }

    /// The static evaluation from the side to move's point of view, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_window(pos, -LAZY_OFF, LAZY_OFF).0
    }

    /// The evaluation when only its relation to the window (alpha, beta) matters:
    /// positions far outside it get the cheap part of the evaluation only. The flag
    /// is false for such a cheap (lazy) value.
    pub fn evaluate_window(&self, pos: &Position, alpha: i32, beta: i32) -> (i32, bool) {
        let rules = &*self.rules;
        let v = &rules.variant;
        let n = self.n;
        let mut mg = [0i32; 2];
        let mut eg = [0i32; 2];
        let mut phase = 0;
        let mut material = [0i32; 2];
        // Material, piece-square terms, hands.
        for c in Color::BOTH {
            let ci = c as usize;
            for t in 0..n {
                let set = pos.pieces_of(c, t as PieceType);
                let in_hand = pos.hand(c, t as PieceType) as i32;
                if set.is_empty() && in_hand == 0 {
                    continue;
                }
                let cnt = set.count() as i32;
                material[ci] += cnt * self.value_mg[t] + in_hand * self.hand_mg[t];
                mg[ci] += cnt * self.value_mg[t] + in_hand * self.hand_mg[t];
                eg[ci] += cnt * self.value_eg[t] + in_hand * self.hand_eg[t];
                phase += self.phase_weight[t] * (cnt + in_hand);
                let base = (ci * n + t) * 256;
                for sq in set.iter() {
                    let (a, b) = self.psq[base + sq as usize];
                    mg[ci] += a as i32;
                    eg[ci] += b as i32;
                }
            }
        }
        if self.material_sign < 0 {
            // Giveaway-like: fewer pieces is better; positional terms do not apply.
            let us = pos.side_to_move() as usize;
            let d = material[1 - us] - material[us];
            let cnt = |c: usize| {
                pos.pieces(if c == 0 { Color::White } else { Color::Black })
                    .count() as i32
            };
            return (d / 4 + (cnt(1 - us) - cnt(us)) * 30 + TEMPO, true);
        }

        // Pawn structure.
        if let Some(p) = self.pawn {
            for c in Color::BOTH {
                let (a, b) = self.pawn_structure(pos, c, p);
                mg[c as usize] += a;
                eg[c as usize] += b;
            }
        }

        // Variant goals: checks to give, flag regions to reach.
        if v.check_counting {
            for c in Color::BOTH {
                let left = pos.state().checks_remaining[c as usize] as i32;
                let bonus = match left {
                    0 => 0,
                    1 => 300,
                    2 => 120,
                    3 => 40,
                    _ => 0,
                };
                mg[c as usize] += bonus;
                eg[c as usize] += bonus;
            }
        }
        for c in Color::BOTH {
            let region = v.flag_region[c as usize];
            if region.is_empty() {
                continue;
            }
            let pieces = match v.flag_piece[c as usize] {
                Some(t) => pos.pieces_of(c, t),
                None => pos.pieces(c),
            };
            let g = v.geometry;
            let mut best = 99;
            for s in pieces.iter() {
                for r in region.iter() {
                    let d = (g.file(s) as i32 - g.file(r) as i32)
                        .abs()
                        .max((g.rank(s) as i32 - g.rank(r) as i32).abs());
                    best = best.min(d);
                }
            }
            if best < 99 {
                let bonus = 240 / (best + 1) - 30;
                mg[c as usize] += bonus;
                eg[c as usize] += bonus * 2;
            }
        }

        // Lazy exit: far outside the window, mobility and king safety cannot bring
        // the score back (quiescence asks with its alpha-beta window).
        let phase = (phase * PHASE_MAX / self.phase_total).min(PHASE_MAX);
        let taper = |mg: &[i32; 2], eg: &[i32; 2]| {
            let w = (mg[0] - mg[1]) * phase + (eg[0] - eg[1]) * (PHASE_MAX - phase);
            let score = w / PHASE_MAX;
            (if pos.side_to_move() == Color::White {
                score
            } else {
                -score
            }) + TEMPO
        };
        if alpha > -LAZY_OFF || beta < LAZY_OFF {
            let lazy = taper(&mg, &eg);
            if lazy + self.lazy_margin <= alpha || lazy - self.lazy_margin >= beta {
                return (lazy, false);
            }
        }

        // Mobility and king attacks.
        let royal_sq = [
            pos.royals(Color::White).first(),
            pos.royals(Color::Black).first(),
        ];
        let mut attack_units = [0i32; 2];
        let mut attackers = [0i32; 2];
        let occ = pos.occupied();
        for c in Color::BOTH {
            let ci = c as usize;
            let them = c.flip();
            let their_zone =
                royal_sq[them as usize].map_or(SquareSet::EMPTY, |k| self.zone[k as usize]);
            let own = pos.pieces(c);
            for sq in own.iter() {
                let t = pos.piece_at(sq).kind();
                if rules.royal_types & 1u64 << t != 0 {
                    continue;
                }
                let (mob, hits) = self.piece_activity(c, t, sq, &own, &occ, &their_zone);
                let d = mob - self.mob_base[t as usize];
                let (wm, we) = self.mob_weight[t as usize];
                mg[ci] += wm * d / 8;
                eg[ci] += we * d / 8;
                if hits > 0 {
                    attackers[ci] += 1;
                    attack_units[ci] += hits * self.attack_weight[t as usize];
                }
            }
        }
        // King danger: attacks near the royal piece, pieces in the enemy's hand that
        // could be dropped there, minus defenders standing in the zone.
        for c in Color::BOTH {
            let ci = c as usize;
            let them = c.flip() as usize;
            let Some(k) = royal_sq[ci] else {
                continue;
            };
            let zone = self.zone[k as usize];
            let mut danger = attack_units[them];
            if self.drop_game {
                for t in 0..n {
                    let h = pos.hand(c.flip(), t as PieceType) as i32;
                    danger += h * (self.attack_weight[t] + 1);
                }
            } else if attackers[them] < 2 {
                danger /= 2;
            }
            let defenders = pos.pieces(c).and(&zone).count() as i32 - 1;
            danger -= defenders;
            if danger > 0 {
                let penalty = (danger * danger * 2 * self.king_danger_scale).min(900);
                mg[ci] -= penalty;
                eg[ci] -= if self.drop_game { penalty } else { penalty / 4 };
            }
        }

        (taper(&mg, &eg), true)
    }

    /// Reachable squares (quiet moves to empty squares, captures of enemy pieces) and
    /// capture-capable hits on the enemy king zone, walking the piece's targets.
    #[inline]
    fn piece_activity(
        &self,
        c: Color,
        t: PieceType,
        sq: Square,
        own: &SquareSet,
        occ: &SquareSet,
        zone: &SquareSet,
    ) -> (i32, i32) {
        let mut activity = Activity {
            own,
            zone,
            mob: 0,
            hits: 0,
        };
        self.rules.walk(c, t, sq, occ, &mut activity);
        (activity.mob, activity.hits)
    }

    /// Doubled, isolated and passed pawns of colour `c`.
    fn pawn_structure(&self, pos: &Position, c: Color, p: PieceType) -> (i32, i32) {
        let g = self.rules.variant.geometry;
        let ours = pos.pieces_of(c, p);
        if ours.is_empty() {
            return (0, 0);
        }
        let theirs = pos.pieces_of(c.flip(), p);
        let white = c == Color::White;
        let mut files = [0u8; 16];
        for s in ours.iter() {
            files[g.file(s) as usize] += 1;
        }
        // Per file, the most advanced (from our side) enemy pawn's relative rank.
        let mut enemy_front = [-1i32; 18];
        for e in theirs.iter() {
            let f = g.file(e) as usize + 1;
            enemy_front[f] = enemy_front[f].max(g.relative_rank(e, white) as i32);
        }
        let (mut mg, mut eg) = (0, 0);
        for s in ours.iter() {
            let f = g.file(s) as usize;
            if files[f] > 1 {
                mg -= 8;
                eg -= 16;
            }
            let left = f > 0 && files[f - 1] > 0;
            let right = f + 1 < g.files as usize && files[f + 1] > 0;
            if !left && !right {
                mg -= 10;
                eg -= 12;
            }
            let r = g.relative_rank(s, white) as i32;
            let blocked = enemy_front[f..f + 3].iter().any(|&x| x > r);
            if !blocked {
                let bonus = self.passed_bonus[r as usize];
                mg += bonus / 2;
                eg += bonus;
            }
        }
        (mg, eg)
    }
}

/// What `piece_activity` counts while walking a piece's targets.
struct Activity<'s> {
    own: &'s SquareSet,
    zone: &'s SquareSet,
    mob: i32,
    hits: i32,
}

impl Visit<'_> for Activity<'_> {
    #[inline(always)]
    fn target(&mut self, target: Target) {
        let capture = target.mode.contains(StepMode::CAPTURE);
        if capture && self.zone.contains(target.to) {
            self.hits += 1;
        }
        let reachable = if target.occupied {
            capture && !self.own.contains(target.to)
        } else {
            target.mode.contains(StepMode::MOVE)
        };
        if reachable {
            self.mob += 1;
        }
    }

    /// A multi-leg component counts as one reachable square.
    #[inline(always)]
    fn multi(&mut self, _: MultiLeg<'_>, _: StepMode) {
        self.mob += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::VariantSet;

    #[test]
    fn chess_values_are_ordered_and_start_is_balanced() {
        let set = VariantSet::builtin(crate::board::check_variant);
        let rules = Ruleset::new(set.get("chess").unwrap());
        let e = Evaluator::new(&rules);
        let v = |c: char| e.value(rules.variant.type_of_letter(c).unwrap());
        assert!(v('p') < v('n') && v('n') <= v('b') + 60 && v('b') < v('r') && v('r') < v('q'));
        let pos = Position::start(&rules);
        assert_eq!(e.evaluate(&pos), TEMPO);
    }
}
