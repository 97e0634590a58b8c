//! The evaluator's construction: its weights turned into the tables the terms
//! read (centipawns, eighths of a centipawn for mobility, per type, per square,
//! per rank), and what follows from the variant (the pawn spans, which types are
//! worth more, whether the pawn maps are needed and can be cached).

use super::Evaluator;
use super::basis::{Basis, SQUARE_FEATURES};
use super::cache::NEXT_EVALUATOR_ID;
use super::facts::pawn_spans;
use super::mobility::{MOBILITY_TABLE, mobility_score};
use super::params::{Params, piece_slot};
use super::terms::{GlobalTerm, PieceTerm};
use crate::board::Ruleset;
use crate::types::{Color, PieceType};
use crate::variant::GameValue;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The square features are the piece terms from `Advance` on, in order.
pub(super) const FIRST_SQUARE_TERM: PieceTerm = PieceTerm::Advance;
const _: () = {
    assert!(PieceTerm::Advance2 as usize == FIRST_SQUARE_TERM as usize + 1);
    assert!(PieceTerm::Centre as usize == FIRST_SQUARE_TERM as usize + 2);
    assert!(PieceTerm::Reach as usize == FIRST_SQUARE_TERM as usize + 3);
    assert!(SQUARE_FEATURES == 4);
};

/// The unit a piece term's weight is kept in by the evaluator, per centipawn:
/// eighths for the mobility terms, which are summed per square reached (a
/// weight of 2.4 per square must not round to 2 before it is multiplied).
fn unit(term: PieceTerm) -> f64 {
    match term {
        PieceTerm::Mobility | PieceTerm::SafeMobility | PieceTerm::MobilityRoot => 8.0,
        _ => 1.0,
    }
}

impl Evaluator {
    pub fn new(rules: &Arc<Ruleset>) -> Evaluator {
        let basis = Basis::new(rules);
        let params = Params::for_variant(rules, &basis);
        Evaluator::with_params(rules, basis, params)
    }

    /// The evaluator with the given weights (the tuner's candidates).
    pub fn with_params(rules: &Arc<Ruleset>, basis: Basis, params: Params) -> Evaluator {
        let v = &rules.variant;
        let g = v.geometry;
        let n = v.num_types();
        let round = |x: f64| x.round() as i32;
        let pair = |w: [f64; 2]| [round(w[0]), round(w[1])];
        // Every piece term per type, in its unit; every global term.
        let piece_weights: Vec<[i32; 2]> = (0..n)
            .flat_map(|t| {
                PieceTerm::ALL.map(|term| {
                    let w = params.piece(t, term);
                    [round(w[0] * unit(term)), round(w[1] * unit(term))]
                })
            })
            .collect();
        let global_weights = GlobalTerm::ALL.map(|term| pair(params.global(term)));
        let per_type = |term: PieceTerm| -> Vec<[i32; 2]> {
            (0..n)
                .map(|t| piece_weights[t * PieceTerm::COUNT + term as usize])
                .collect()
        };
        let gw = |term: GlobalTerm| global_weights[term as usize];
        let value = per_type(PieceTerm::Value);
        let hand = per_type(PieceTerm::Hand);
        let value_mg: Vec<i32> = value.iter().map(|v| v[0]).collect();
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
                value_mg[t] + hand[in_hand][0]
            })
            .collect();

        let squares = g.num_squares();
        let mut psq = vec![[0i32; 2]; 2 * n * squares];
        for c in Color::BOTH {
            for t in 0..n {
                let w: Vec<[f64; 2]> = (0..SQUARE_FEATURES)
                    .map(|k| params.w[piece_slot(t, FIRST_SQUARE_TERM) + k])
                    .collect();
                for s in g.squares() {
                    let f = basis.square_features(c, t as PieceType, s);
                    let mut acc = [0.0f64; 2];
                    for k in 0..SQUARE_FEATURES {
                        acc[0] += w[k][0] * f[k] as f64;
                        acc[1] += w[k][1] * f[k] as f64;
                    }
                    let [m, e] = params.square(t, basis.square_cell(c, s));
                    acc[0] += m;
                    acc[1] += e;
                    psq[(c as usize * n + t) * squares + s as usize] = pair(acc);
                }
            }
        }
        // Some piece of a pawn term or a term that reads the pawn maps is on.
        let piece_terms_on = [
            PieceTerm::SafeMobility,
            PieceTerm::OpenFile,
            PieceTerm::SemiOpenFile,
            PieceTerm::Outpost,
            PieceTerm::BehindPawn,
            PieceTerm::ThreatByPawn,
            PieceTerm::Threat,
        ]
        .iter()
        .any(|&term| per_type(term).iter().any(|w| *w != [0, 0]));
        let pawn_terms_on = basis.pawn.is_some()
            && (piece_terms_on
                || [
                    GlobalTerm::PawnPushThreat,
                    GlobalTerm::Restricted,
                    GlobalTerm::Hanging,
                ]
                .iter()
                .any(|&term| gw(term) != [0, 0]));
        let pawn_span = pawn_spans(rules, basis.pawn);
        let proximity = (0..n)
            .map(|t| {
                let w = params.piece(t, PieceTerm::Proximity);
                std::array::from_fn(|d| {
                    let f = basis.proximity[d] as f64;
                    pair([w[0] * f, w[1] * f])
                })
            })
            .collect();
        let more_valuable = (0..n)
            .map(|t| {
                (0..n)
                    .filter(|&u| basis.estimate[u] > basis.estimate[t] && !v.pieces[u].royal)
                    .fold(0, |acc, u| acc | 1u64 << u)
            })
            .collect();
        let rank_share = |r: usize| r as f64 / (g.ranks as f64 - 1.0).max(1.0);
        let passed = std::array::from_fn(|r| {
            let x = rank_share(r);
            let (p, p2) = (
                params.global(GlobalTerm::Passed),
                params.global(GlobalTerm::Passed2),
            );
            pair([p[0] * x + p2[0] * x * x, p[1] * x + p2[1] * x * x])
        });
        let by_rank = |term: GlobalTerm| -> [[i32; 2]; 16] {
            let w = params.global(term);
            std::array::from_fn(|r| pair([w[0] * rank_share(r), w[1] * rank_share(r)]))
        };
        let material_sign = if v.extinction_all_types && v.extinction_value == GameValue::Win {
            -1
        } else {
            1
        };
        let drop_game = v.piece_drops;
        let mobility_table = (0..n * MOBILITY_TABLE)
            .map(|i| {
                let (t, all) = (i / MOBILITY_TABLE, (i % MOBILITY_TABLE) as i32);
                let w = |term: PieceTerm| piece_weights[t * PieceTerm::COUNT + term as usize];
                let (mobility, root) = (w(PieceTerm::Mobility), w(PieceTerm::MobilityRoot));
                mobility_score(mobility, root, basis.mob_base[t], all)
            })
            .collect();
        let threat_on = per_type(PieceTerm::Threat).iter().any(|w| *w != [0, 0]);
        let threat_by_pawn_on = per_type(PieceTerm::ThreatByPawn)
            .iter()
            .any(|w| *w != [0, 0]);
        let lazy_margin = gw(GlobalTerm::LazyMargin)[0].max(0);
        Evaluator {
            id: NEXT_EVALUATOR_ID.fetch_add(1, Ordering::Relaxed),
            rules: rules.clone(),
            n,
            cells: params.cells,
            piece_weights,
            global_weights,
            see_values,
            value_mg,
            psq,
            squares,
            mobility_table,
            threat_by_pawn_on,
            threat_on,
            pawn_span,
            pawn_terms_on,
            pawn_maps_cached: pawn_terms_on
                && basis.pawn.is_some_and(|p| {
                    Color::BOTH
                        .into_iter()
                        .all(|c| rules.captures_by_plain_leaps(c, p))
                }),
            proximity,
            more_valuable,
            passed,
            passed_free: by_rank(GlobalTerm::PassedFree),
            passed_own_king: by_rank(GlobalTerm::PassedOwnKing),
            passed_enemy_king: by_rank(GlobalTerm::PassedEnemyKing),
            material_sign,
            drop_game,
            checks: v.checking && rules.royal_types != 0,
            lazy_margin,
            nnue: None,
            basis,
            params,
        }
    }
}
