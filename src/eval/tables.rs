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
use crate::board::Ruleset;
use crate::types::{Color, PieceType};
use crate::variant::GameValue;
use crate::variant::weights::{GlobalTerm, PieceTerm};
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

/// King-danger weights of one type.
#[derive(Clone, Copy, Default)]
pub(super) struct DangerWeights {
    pub attacker: i32,
    pub check: i32,
    pub drop_check: i32,
    pub hand: i32,
    pub defender: i32,
    pub presence: i32,
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
        // A piece term per type, in centipawns and in eighths of a centipawn.
        let per_type = |term: PieceTerm, scale: f64| -> Vec<[i32; 2]> {
            (0..n)
                .map(|t| {
                    let w = params.piece(t, term);
                    [round(w[0] * scale), round(w[1] * scale)]
                })
                .collect()
        };
        let value = per_type(PieceTerm::Value, 1.0);
        let hand = per_type(PieceTerm::Hand, 1.0);
        let pair_bonus = per_type(PieceTerm::Pair, 1.0);
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
        let mobility = per_type(PieceTerm::Mobility, 8.0);
        let safe_mobility = per_type(PieceTerm::SafeMobility, 8.0);
        let mobility_root = per_type(PieceTerm::MobilityRoot, 8.0);
        let open_file = per_type(PieceTerm::OpenFile, 1.0);
        let semi_open_file = per_type(PieceTerm::SemiOpenFile, 1.0);
        let outpost = per_type(PieceTerm::Outpost, 1.0);
        let behind_pawn = per_type(PieceTerm::BehindPawn, 1.0);
        let threat_by_pawn = per_type(PieceTerm::ThreatByPawn, 1.0);
        let threat = per_type(PieceTerm::Threat, 1.0);
        let gw = |term: GlobalTerm| pair(params.global(term));
        let pawn_terms_on = basis.pawn.is_some()
            && ([
                &safe_mobility,
                &open_file,
                &semi_open_file,
                &outpost,
                &behind_pawn,
                &threat_by_pawn,
                &threat,
            ]
            .iter()
            .any(|ws| ws.iter().any(|w| *w != [0, 0]))
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
        let danger = (0..n)
            .map(|t| {
                let d = |term: PieceTerm| round(params.piece(t, term)[0]);
                DangerWeights {
                    attacker: d(PieceTerm::Attacker),
                    check: d(PieceTerm::Check),
                    drop_check: d(PieceTerm::DropCheck),
                    hand: d(PieceTerm::HandDanger),
                    defender: d(PieceTerm::Defender),
                    presence: d(PieceTerm::Presence),
                }
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
                mobility_score(mobility[t], mobility_root[t], basis.mob_base[t], all)
            })
            .collect();
        Evaluator {
            id: NEXT_EVALUATOR_ID.fetch_add(1, Ordering::Relaxed),
            rules: rules.clone(),
            n,
            cells: params.cells,
            value,
            hand,
            pair: pair_bonus,
            see_values,
            value_mg,
            psq,
            squares,
            mobility,
            safe_mobility,
            mobility_root,
            mobility_table,
            open_file,
            semi_open_file,
            outpost,
            behind_pawn,
            threat_by_pawn_on: threat_by_pawn.iter().any(|w| *w != [0, 0]),
            threat_by_pawn,
            threat_on: threat.iter().any(|w| *w != [0, 0]),
            threat,
            pawn_span,
            pawn_terms_on,
            pawn_maps_cached: pawn_terms_on
                && basis.pawn.is_some_and(|p| {
                    Color::BOTH
                        .into_iter()
                        .all(|c| rules.captures_by_plain_leaps(c, p))
                }),
            proximity,
            danger,
            more_valuable,
            tempo: gw(GlobalTerm::Tempo),
            doubled: gw(GlobalTerm::Doubled),
            isolated: gw(GlobalTerm::Isolated),
            connected: gw(GlobalTerm::Connected),
            passed,
            hanging: gw(GlobalTerm::Hanging),
            threat_by_lesser: gw(GlobalTerm::ThreatByLesser),
            pawn_push_threat: gw(GlobalTerm::PawnPushThreat),
            restricted: gw(GlobalTerm::Restricted),
            king_pawn_distance: gw(GlobalTerm::KingPawnDistance),
            backward: gw(GlobalTerm::Backward),
            space: gw(GlobalTerm::Space),
            flank_attacks: gw(GlobalTerm::FlankAttacks),
            pawnless_flank: gw(GlobalTerm::PawnlessFlank),
            same_colour_pawns: per_type(PieceTerm::SameColourPawns, 1.0),
            king_flank_attacks: gw(GlobalTerm::KingFlankAttacks)[0],
            king_flank_defense: gw(GlobalTerm::KingFlankDefense)[0],
            king_mobility: gw(GlobalTerm::KingMobility)[0],
            shelter: gw(GlobalTerm::Shelter),
            storm: gw(GlobalTerm::Storm),
            passed_free: by_rank(GlobalTerm::PassedFree),
            passed_own_king: by_rank(GlobalTerm::PassedOwnKing),
            passed_enemy_king: by_rank(GlobalTerm::PassedEnemyKing),
            king_hits: gw(GlobalTerm::KingHits)[0],
            king_weak: gw(GlobalTerm::KingWeak)[0],
            king_unsafe_check: gw(GlobalTerm::KingUnsafeCheck)[0],
            king_weak_check: gw(GlobalTerm::KingWeakCheck)[0],
            king_offset: gw(GlobalTerm::KingOffset)[0],
            king_danger_eg: gw(GlobalTerm::KingDangerEg)[0],
            material_sign,
            drop_game,
            checks: v.checking && rules.royal_types != 0,
            lazy_margin: gw(GlobalTerm::LazyMargin)[0].max(0),
            scale_pawns: gw(GlobalTerm::ScalePawns),
            scale_opposite: gw(GlobalTerm::ScaleOpposite),
            scale_opposite_alone: gw(GlobalTerm::ScaleOppositeAlone)[0],
            basis,
            params,
        }
    }
}
