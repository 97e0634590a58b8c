//! Generic evaluation: terms (code) times weights (data). Everything comes from the
//! variant: the terms are defined on its pieces, board and rules ([`basis`]), the
//! weights from its weights file or, where it has none, derived from its pieces
//! ([`params`]). The terms: material on the board and in hand, pairs, piece-square
//! terms from geometry (advance, centre, reach) plus a table per type where the
//! weights give one (folded into one table at construction), mobility (all squares,
//! their square root, and those safe from enemy pawns), closeness to the enemy
//! royal piece, pawn structure (backward pawns included), shelter, storm, passed
//! pawns, the royal piece's distance to its pawns and a pawnless flank, space, and
//! pieces on open files, outposts, behind pawns and (colour-bound pieces) among own
//! pawns on their colour where the variant has pawns, threats (hanging pieces,
//! cheaper attackers, safe pawns and safe pawn pushes, contested squares), attacks
//! on the royal piece's flank, tempo, and king danger from attacks, safe and unsafe
//! checks (drops included), droppable pieces, defenders, the attacking types
//! present, flank attacks and defence and the mobility difference, which turns into
//! a penalty quadratic in the middlegame. The result
//! is tapered between middlegame and endgame by the material left on the board
//! and in hand, and scaled towards a draw when the side ahead cannot mate.
//!
//! The evaluation is written once, generic over a [`trace::Trace`]: the engine's
//! [`NoTrace`](trace::NoTrace) costs nothing, the tuner's records every weight's
//! coefficient ([`tune`]).

pub mod basis;
pub mod params;
pub mod trace;
pub mod tune;
pub mod values;

use crate::board::{MultiLeg, Position, ProbeKind, Ruleset, StepMode, Target, Visit};
use crate::types::{
    Color, GOLDEN_GAMMA, MAX_WORDS, PieceType, Square, SquareSet, Squares, TypeSet, Width, absorb,
    mix64,
};
use crate::variant::GameValue;
use crate::variant::weights::{GlobalTerm, PieceTerm};
use basis::{Basis, SQUARE_FEATURES};
use params::{Params, global_slot, piece_slot, square_slot};
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use trace::{NoTrace, Trace};

/// Largest phase value: all starting material on the board or in hand.
const PHASE_MAX: i32 = 256;
/// Royal pieces further than this from a passed pawn's square ahead count as this far.
const KING_DISTANCE_MAX: usize = 5;
/// The endgame part is scaled in 64ths.
pub(crate) const SCALE_ONE: i32 = 64;
/// Window bounds at which the lazy exit is off.
const LAZY_OFF: i32 = 30_000;
/// No evaluation goes beyond this (far from the search's mate scores).
const EVAL_LIMIT: i32 = 10_000;
/// The middlegame king-danger penalty is danger² / this.
const DANGER_DIVISOR: i32 = 4096;
/// A side ahead by less than this (estimated value, without pawns) cannot mate
/// with its pieces alone.
const DRAWISH_EDGE: i32 = 400;
/// The endgame scale (64ths) when the side ahead cannot mate: with a lone minor
/// piece, and with more.
const DRAWISH_SCALE: [i32; 2] = [0, 16];

/// `8·√k`, rounded down, for the mobility curve (a piece reaches fewer squares).
const ROOT_EIGHTHS: [i32; 129] = {
    let mut t = [0; 129];
    let mut k = 0;
    while k < t.len() {
        let mut r = 0;
        while (r + 1) * (r + 1) <= 64 * k as i32 {
            r += 1;
        }
        t[k] = r;
        k += 1;
    }
    t
};
/// Squares reached (0 up to this, exclusive) that `Evaluator::mobility_table` holds:
/// a chess queen reaches at most 27; larger counts are computed.
const MOBILITY_TABLE: usize = 64;
/// The square features are the piece terms from `Advance` on, in order.
const FIRST_SQUARE_TERM: PieceTerm = PieceTerm::Advance;
const _: () = {
    assert!(PieceTerm::Advance2 as usize == FIRST_SQUARE_TERM as usize + 1);
    assert!(PieceTerm::Centre as usize == FIRST_SQUARE_TERM as usize + 2);
    assert!(PieceTerm::Reach as usize == FIRST_SQUARE_TERM as usize + 3);
    assert!(SQUARE_FEATURES == 4);
};

/// King-danger weights of one type.
#[derive(Clone, Copy, Default)]
struct DangerWeights {
    attacker: i32,
    check: i32,
    drop_check: i32,
    hand: i32,
    defender: i32,
    presence: i32,
}

/// The variant-derived tables and the evaluation function.
pub struct Evaluator {
    /// Unique per evaluator: keys its pawn-cache entries.
    id: u64,
    rules: Arc<Ruleset>,
    basis: Basis,
    params: Params,
    n: usize,
    /// Cells of a piece-square table (the tuner's slots of those weights).
    cells: usize,
    /// Material per type (mg, eg), on the board and in hand.
    value: Vec<[i32; 2]>,
    hand: Vec<[i32; 2]>,
    /// Bonus for two or more of the type on the board (mg, eg).
    pair: Vec<[i32; 2]>,
    /// What taking a piece of the type gains, for static exchange: its value, plus in
    /// drop games the value of the (demoted) piece that goes to the taker's hand.
    see_values: Vec<i32>,
    value_mg: Vec<i32>,
    /// Piece-square terms, indexed `(color * n + type) * squares + square` (as
    /// many squares as the board has: a small board's table stays small).
    psq: Vec<[i32; 2]>,
    /// The board's number of squares.
    squares: usize,
    /// Mobility weight per square, in eighths of a centipawn (mg, eg).
    mobility: Vec<[i32; 2]>,
    /// The same per square no enemy pawn attacks.
    safe_mobility: Vec<[i32; 2]>,
    /// Per type, the `mobility_root` weight in eighths of a centipawn.
    mobility_root: Vec<[i32; 2]>,
    /// Per type and number of squares reached below `MOBILITY_TABLE`, the mobility
    /// and mobility-root terms together (mg, eg), as [`mobility_score`]
    /// computes them: indexed `type * MOBILITY_TABLE + reached`.
    mobility_table: Vec<[i32; 2]>,
    /// Per piece of the type on an open file, a semi-open file, an outpost, and
    /// right behind an own pawn (mg, eg).
    open_file: Vec<[i32; 2]>,
    semi_open_file: Vec<[i32; 2]>,
    outpost: Vec<[i32; 2]>,
    behind_pawn: Vec<[i32; 2]>,
    /// Per victim type, attacked by a safe enemy pawn (mg, eg).
    threat_by_pawn: Vec<[i32; 2]>,
    /// Per type: the bonus for attacking a weak piece of the type.
    threat: Vec<[i32; 2]>,
    /// Some type has a `threat` weight (else the weak pieces are not walked).
    threat_on: bool,
    /// Some type has a `threat_by_pawn` weight (else its walks are skipped).
    threat_by_pawn_on: bool,
    /// Per colour and square: what a pawn of the colour there, or anywhere ahead
    /// of it on its file, attacks (the squares it may one day attack).
    pawn_span: Vec<SquareSet>,
    /// Any type has a weight on the pawn-related piece terms above (else the pawn
    /// maps they read are not needed).
    pawn_terms_on: bool,
    /// The pawn maps are needed and the pawns' captures do not depend on the
    /// occupancy: the pawn cache keeps the maps' pawn-only part.
    pawn_maps_cached: bool,
    /// Proximity per type and distance to the enemy royal piece (mg, eg).
    proximity: Vec<[[i32; 2]; 16]>,
    danger: Vec<DangerWeights>,
    /// Per type: the types worth more (by estimate), whose pieces it threatens.
    more_valuable: Vec<TypeSet>,
    tempo: [i32; 2],
    doubled: [i32; 2],
    isolated: [i32; 2],
    connected: [i32; 2],
    /// Passed pawn by relative rank (mg, eg).
    passed: [[i32; 2]; 16],
    hanging: [i32; 2],
    threat_by_lesser: [i32; 2],
    pawn_push_threat: [i32; 2],
    restricted: [i32; 2],
    king_pawn_distance: [i32; 2],
    backward: [i32; 2],
    space: [i32; 2],
    flank_attacks: [i32; 2],
    pawnless_flank: [i32; 2],
    /// Per colour-bound type: per own pawn on the piece's square colour (mg, eg).
    same_colour_pawns: Vec<[i32; 2]>,
    king_flank_attacks: i32,
    king_flank_defense: i32,
    king_mobility: i32,
    shelter: [i32; 2],
    storm: [i32; 2],
    /// Passed pawn with its square ahead empty, and the two royal pieces' distances
    /// to that square, by relative rank (mg, eg), the distances in units.
    passed_free: [[i32; 2]; 16],
    passed_own_king: [[i32; 2]; 16],
    passed_enemy_king: [[i32; 2]; 16],
    king_hits: i32,
    king_weak: i32,
    king_unsafe_check: i32,
    king_weak_check: i32,
    king_offset: i32,
    king_danger_eg: i32,
    /// Losing all pieces wins (giveaway): material counts against its owner.
    material_sign: i32,
    drop_game: bool,
    /// Checks matter: there are royal pieces to check.
    checks: bool,
    /// How far the terms after the lazy exit can move the score, roughly.
    lazy_margin: i32,
    /// Endgame scale by the pawns of the side ahead (64ths: base, per pawn), with
    /// opposite-coloured bishops, and with those bishops alone.
    scale_pawns: [i32; 2],
    scale_opposite: [i32; 2],
    scale_opposite_alone: i32,
}

/// Entries of a thread's pawn cache (a power of two).
const PAWN_CACHE_SIZE: usize = 4096;

/// One colour's pawn-structure score and its passed pawns.
#[derive(Clone, Copy)]
struct PawnScore<const W: usize> {
    score: [i32; 2],
    passed: Squares<W>,
    /// The space term's square count (see `GlobalTerm::Space`), before the
    /// factor that counts the pieces.
    space: i32,
}

impl<const W: usize> PawnScore<W> {
    const EMPTY: PawnScore<W> = PawnScore {
        score: [0, 0],
        passed: Squares::EMPTY,
        space: 0,
    };
}

/// A pawn-cache entry: the key of [`Evaluator::pawn_key`] (0: empty), both
/// colours' pawn structure and, where the pawn's captures do not depend on the
/// occupancy, the pawn maps' pawn-only part (pushes empty). In sets of the
/// evaluation's width: a chess entry fits in two cache lines, not five.
#[derive(Clone, Copy)]
struct PawnEntry<const W: usize> {
    key: u64,
    scores: [PawnScore<W>; 2],
    maps: PawnMaps<W>,
}

/// Entries of a thread's cache of the pawn terms that read the royal pieces (a
/// power of two).
const PAWN_KING_CACHE_SIZE: usize = 16384;

/// A cache entry of the pawn terms that read the royal pieces: the key of
/// [`Evaluator::pawn_king_key`] (0: empty) and both colours' terms (mg, eg).
#[derive(Clone, Copy)]
struct PawnKingEntry {
    key: u64,
    scores: [[i32; 2]; 2],
}

impl PawnKingEntry {
    const EMPTY: PawnKingEntry = PawnKingEntry {
        key: 0,
        scores: [[0; 2]; 2],
    };
}

impl<const W: usize> PawnEntry<W> {
    const EMPTY: PawnEntry<W> = PawnEntry {
        key: 0,
        scores: [PawnScore::EMPTY; 2],
        maps: PawnMaps {
            attacks: [Squares::EMPTY; 2],
            reach: [Squares::EMPTY; 2],
            pushes: [Squares::EMPTY; 2],
            files: [0; 2],
            pawn: 0,
        },
    };
}

/// Entries of a thread's evaluation cache (a power of two).
const EVAL_CACHE_SIZE: usize = 1 << 16;

/// No value in an evaluation-cache entry.
const EVAL_UNKNOWN: i32 = i32::MIN;

/// An evaluation-cache entry: the position key mixed with the evaluator's id (0:
/// empty), the cheap part's score (for the lazy exit; `EVAL_UNKNOWN` where that
/// exit does not apply) and the full score, if it was computed.
#[derive(Clone, Copy)]
struct EvalEntry {
    key: u64,
    lazy: i32,
    full: i32,
}

impl EvalEntry {
    const EMPTY: EvalEntry = EvalEntry {
        key: 0,
        lazy: EVAL_UNKNOWN,
        full: EVAL_UNKNOWN,
    };
}

/// The entry for `slot` of one of the thread's direct-mapped caches, which are
/// allocated (`size` copies of `empty`) at their first use.
#[inline]
fn cache_slot<E: Copy>(cache: &mut Vec<E>, size: usize, empty: E, slot: usize) -> &mut E {
    if cache.is_empty() {
        cache.resize(size, empty);
    }
    &mut cache[slot]
}

/// A cache key from a hash whose high bits, where the slot is taken, may not
/// depend on every input bit (a multiply carries only upward: the pawn key's slot
/// once ignored most of the last colour's pawns, and 40 % of a chess search's
/// lookups missed): mixed by SplitMix64's finalizer, with bit 0 set (0 marks an
/// empty entry).
#[inline]
fn cache_key(h: u64) -> u64 {
    mix64(h) | 1
}

/// Tells evaluators apart in the caches (threads outlive evaluators).
static NEXT_EVALUATOR_ID: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// The pawn structures met lately: they change far less often than the position.
    static PAWN_CACHE: RefCell<PawnCache> =
        const { RefCell::new(ByWidth::new()) };
    /// The pawn terms that read the royal pieces, for the pawns and royal pieces
    /// met lately: the royal pieces move more often than the pawns.
    static PAWN_KING_CACHE: RefCell<Vec<PawnKingEntry>> = const { RefCell::new(Vec::new()) };
    /// The positions evaluated lately: the search meets a position again where the
    /// transposition table kept no evaluation of it (quiescence's stand-pat cuts,
    /// nodes pruned before they store anything).
    static EVAL_CACHE: RefCell<Vec<EvalEntry>> = const { RefCell::new(Vec::new()) };
    /// The per-type square sets of [`Activity`], kept between evaluations: the hot
    /// path neither allocates nor clears more than the variant's types (a fixed
    /// array for every possible type would be kilobytes to clear per evaluation).
    static TYPE_SETS: RefCell<TypeSetCache> =
        const { RefCell::new(ByWidth::new()) };
}

/// One vector of a thread's cached items per set width (an evaluation uses the
/// one of its board's width).
struct ByWidth<A, B, C> {
    one: Vec<A>,
    two: Vec<B>,
    all: Vec<C>,
}

/// The per-type square sets of [`Activity`], one vector per width.
type TypeSetCache = ByWidth<Squares<1>, Squares<2>, SquareSet>;

/// A thread's pawn-cache entries, one vector per width.
type PawnCache = ByWidth<PawnEntry<1>, PawnEntry<2>, PawnEntry<MAX_WORDS>>;

impl<A, B, C> ByWidth<A, B, C> {
    const fn new() -> Self {
        ByWidth {
            one: Vec::new(),
            two: Vec::new(),
            all: Vec::new(),
        }
    }
}

/// The widths the evaluation works in (boards of up to 64, 128 and 256 squares):
/// which vector of the thread's caches holds this width's items.
trait EvalWidth<const W: usize> {
    fn type_sets(sets: &mut TypeSetCache) -> &mut Vec<Squares<W>>;
    fn pawn_entries(entries: &mut PawnCache) -> &mut Vec<PawnEntry<W>>;
}

impl EvalWidth<1> for Squares<1> {
    fn type_sets(sets: &mut TypeSetCache) -> &mut Vec<Squares<1>> {
        &mut sets.one
    }
    fn pawn_entries(entries: &mut PawnCache) -> &mut Vec<PawnEntry<1>> {
        &mut entries.one
    }
}

impl EvalWidth<2> for Squares<2> {
    fn type_sets(sets: &mut TypeSetCache) -> &mut Vec<Squares<2>> {
        &mut sets.two
    }
    fn pawn_entries(entries: &mut PawnCache) -> &mut Vec<PawnEntry<2>> {
        &mut entries.two
    }
}

impl EvalWidth<MAX_WORDS> for SquareSet {
    fn type_sets(sets: &mut TypeSetCache) -> &mut Vec<SquareSet> {
        &mut sets.all
    }
    fn pawn_entries(entries: &mut PawnCache) -> &mut Vec<PawnEntry<MAX_WORDS>> {
        &mut entries.all
    }
}

/// What the walk of all pieces found, per colour.
struct Activity<'a, const W: usize> {
    /// Squares attacked by the colour's non-royal pieces, and by its royal pieces.
    attacks: [Squares<W>; 2],
    royal_attacks: [Squares<W>; 2],
    /// Squares attacked by two or more of the colour's pieces (royal included).
    attacks2: [Squares<W>; 2],
    /// Squares the colour's non-royal pieces reach, summed over the pieces.
    mobility: [i32; 2],
    /// Attacks on squares next to the enemy royal piece.
    hits: [i32; 2],
    /// Enemy pieces attacked by a cheaper piece.
    by_lesser: [Squares<W>; 2],
    /// The attacker weights of the pieces that attack squares next to the enemy
    /// royal piece.
    attacker_danger: [i32; 2],
    /// Per colour and type (index `colour * n + type`): squares from which a piece
    /// of the type would check the enemy royal piece, and those of them a piece of
    /// the type can move to.
    check_squares: &'a mut [Squares<W>],
    checks_reached: &'a mut [Squares<W>],
    /// The pawn maps, where a pawn-related term has a weight.
    pawns: Option<PawnMaps<W>>,
}

/// What the pawn-related terms read, per colour: the squares its pawns attack,
/// the squares they may one day attack, the empty squares they can move to, and
/// the files they stand on.
#[derive(Clone, Copy)]
struct PawnMaps<const W: usize> {
    attacks: [Squares<W>; 2],
    reach: [Squares<W>; 2],
    pushes: [Squares<W>; 2],
    files: [u32; 2],
    pawn: PieceType,
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

    /// How far the terms after the lazy exit may move the score (centipawns).
    pub fn lazy_margin(&self) -> i32 {
        self.lazy_margin
    }

    /// The weights in use.
    pub fn params(&self) -> &Params {
        &self.params
    }

    pub fn basis(&self) -> &Basis {
        &self.basis
    }

    /// The static evaluation from the side to move's point of view, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_window(pos, -LAZY_OFF, LAZY_OFF).0
    }

    /// The evaluation when only its relation to the window (alpha, beta) matters:
    /// positions far outside it get the cheap part of the evaluation only. The flag
    /// is false for such a cheap (lazy) value.
    pub fn evaluate_window(&self, pos: &Position, alpha: i32, beta: i32) -> (i32, bool) {
        let key = (pos.key() ^ self.id.wrapping_mul(GOLDEN_GAMMA)) | 1;
        // (Bit 0 is always set, marking a used entry: the slot takes the bits above.)
        let slot = (key >> 1) as usize & (EVAL_CACHE_SIZE - 1);
        let hit = EVAL_CACHE.with_borrow_mut(|cache| {
            let e = *cache_slot(cache, EVAL_CACHE_SIZE, EvalEntry::EMPTY, slot);
            (e.key == key).then_some(e)
        });
        if let Some(e) = hit {
            if e.lazy != EVAL_UNKNOWN
                && (alpha > -LAZY_OFF || beta < LAZY_OFF)
                && (e.lazy + self.lazy_margin <= alpha || e.lazy - self.lazy_margin >= beta)
            {
                return (e.lazy, false);
            }
            if e.full != EVAL_UNKNOWN {
                return (e.full, true);
            }
        }
        let mut lazy = EVAL_UNKNOWN;
        let (score, full) = self.evaluate_parts(pos, alpha, beta, &mut NoTrace, &mut lazy);
        EVAL_CACHE.with_borrow_mut(|cache| {
            cache[slot] = EvalEntry {
                key,
                lazy,
                full: if full { score } else { EVAL_UNKNOWN },
            }
        });
        (score, full)
    }

    /// The evaluation, reporting every weight's coefficient to `trace` (a tracing
    /// evaluation never takes the lazy exit).
    pub fn evaluate_traced<T: Trace>(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        tr: &mut T,
    ) -> (i32, bool) {
        let mut lazy = EVAL_UNKNOWN;
        self.evaluate_parts(pos, alpha, beta, tr, &mut lazy)
    }

    /// The evaluation (see [`Self::evaluate_traced`]), leaving in `lazy` the score
    /// of its cheap part, the one the lazy exit reads (untouched where there is no
    /// such exit).
    fn evaluate_parts<T: Trace>(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        tr: &mut T,
        lazy_score: &mut i32,
    ) -> (i32, bool) {
        match Width::for_squares(self.squares) {
            Width::One => self.evaluate_in::<T, 1>(pos, alpha, beta, tr, lazy_score),
            Width::Two => self.evaluate_in::<T, 2>(pos, alpha, beta, tr, lazy_score),
            Width::Full => self.evaluate_in::<T, MAX_WORDS>(pos, alpha, beta, tr, lazy_score),
        }
    }

    /// [`Self::evaluate_parts`] with square sets of `W` words, the narrowest that
    /// hold the board's squares (see [`Width`]).
    fn evaluate_in<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        tr: &mut T,
        lazy_score: &mut i32,
    ) -> (i32, bool)
    where
        Squares<W>: EvalWidth<W>,
    {
        let n = self.n;
        let stm = pos.side_to_move();
        let mut mg = [0i32; 2];
        let mut eg = [0i32; 2];
        let mut phase = 0;
        let mut material = Material::default();
        // Material, piece-square terms, hands.
        for c in Color::BOTH {
            let ci = c as usize;
            for t in 0..n {
                let set: Squares<W> = pos.pieces_of(c, t as PieceType).resized();
                let in_hand = pos.hand(c, t as PieceType) as i32;
                if set.is_empty() && in_hand == 0 {
                    continue;
                }
                let cnt = set.count() as i32;
                mg[ci] += cnt * self.value[t][0] + in_hand * self.hand[t][0];
                eg[ci] += cnt * self.value[t][1] + in_hand * self.hand[t][1];
                phase += self.basis.phase_weight[t] * (cnt + in_hand);
                if self.basis.pawnlike[t] {
                    material.pawns[ci] += cnt;
                } else {
                    material.pieces[ci] += cnt * self.basis.estimate[t];
                    if self.basis.colour_bound[t] {
                        material.bound[ci] += cnt;
                        if let Some(sq) = set.first() {
                            material.bound_colour[ci] = self.basis.square_colour(sq);
                        }
                    } else if self.rules.royal_types & 1u64 << t == 0 {
                        material.others[ci] += cnt + in_hand;
                    }
                }
                material.in_hand[ci] += in_hand;
                if cnt >= 2 {
                    mg[ci] += self.pair[t][0];
                    eg[ci] += self.pair[t][1];
                    tr.linear(c, piece_slot(t, PieceTerm::Pair), 1.0);
                }
                if T::ON {
                    tr.linear(c, piece_slot(t, PieceTerm::Value), cnt as f32);
                    tr.linear(c, piece_slot(t, PieceTerm::Hand), in_hand as f32);
                }
                let base = (ci * n + t) * self.squares;
                for sq in set.iter() {
                    let [a, b] = self.psq[base + sq as usize];
                    mg[ci] += a;
                    eg[ci] += b;
                    if T::ON {
                        let f = self.basis.square_features(c, t as PieceType, sq);
                        for (k, &x) in f.iter().enumerate() {
                            tr.linear(c, piece_slot(t, FIRST_SQUARE_TERM) + k, x);
                        }
                        let cell = self.basis.square_cell(c, sq);
                        tr.linear(c, square_slot(n, self.cells, t, cell), 1.0);
                    }
                }
            }
        }
        if self.material_sign < 0 {
            // Giveaway-like: fewer pieces is better; positional terms do not apply.
            let us = stm as usize;
            let d = mg[1 - us] - mg[us];
            let cnt = |c: usize| {
                pos.pieces(if c == 0 { Color::White } else { Color::Black })
                    .count() as i32
            };
            return (d / 4 + (cnt(1 - us) - cnt(us)) * 30 + self.tempo[0], true);
        }
        mg[stm as usize] += self.tempo[0];
        eg[stm as usize] += self.tempo[1];
        tr.linear(stm, global_slot(n, GlobalTerm::Tempo), 1.0);

        let mut cached_maps = None;
        if let Some(p) = self.basis.pawn {
            let (scores, maps) = self.pawn_scores::<T, W>(pos, p, tr);
            cached_maps = maps;
            for c in Color::BOTH {
                let PawnScore {
                    score,
                    passed,
                    space,
                } = &scores[c as usize];
                let [a, b] = self.passed_free(pos, c, passed, tr);
                mg[c as usize] += score[0] + a;
                eg[c as usize] += score[1] + b;
                // Space counts for more with more pieces to use it.
                let pieces = pos.pieces(c).count() as i32 - 1;
                let x = space * pieces * pieces;
                mg[c as usize] += self.space[0] * x / 256;
                eg[c as usize] += self.space[1] * x / 256;
                tr.linear(c, global_slot(n, GlobalTerm::Space), x as f32 / 256.0);
            }
        }
        self.goals(pos, &mut mg, &mut eg, tr);

        // Lazy exit: far outside the window, the rest cannot bring the score back
        // (quiescence asks with its alpha-beta window).
        let phase = (phase * PHASE_MAX / self.basis.phase_total).min(PHASE_MAX);
        if !T::ON {
            let lazy = taper(&mg, &eg, phase, SCALE_ONE, stm);
            *lazy_score = lazy;
            if (alpha > -LAZY_OFF || beta < LAZY_OFF)
                && (lazy + self.lazy_margin <= alpha || lazy - self.lazy_margin >= beta)
            {
                return (lazy, false);
            }
        }

        TYPE_SETS.with_borrow_mut(|sets| {
            let sets = Squares::<W>::type_sets(sets);
            sets.clear();
            sets.resize(4 * n, Squares::EMPTY);
            let (check_squares, checks_reached) = sets.split_at_mut(2 * n);
            let mut act = Activity {
                attacks: [Squares::EMPTY; 2],
                royal_attacks: [Squares::EMPTY; 2],
                attacks2: [Squares::EMPTY; 2],
                mobility: [0; 2],
                hits: [0; 2],
                by_lesser: [Squares::EMPTY; 2],
                attacker_danger: [0; 2],
                check_squares,
                checks_reached,
                pawns: None,
            };
            self.activity(pos, cached_maps, &mut act, &mut mg, &mut eg, tr);
            self.threats(pos, &act, &mut mg, &mut eg, tr);
            for c in Color::BOTH {
                self.king_danger(pos, c, &act, &mut mg, &mut eg, tr);
            }
        });
        let scale = self.eg_scale(&material, &eg);
        tr.taper(phase, scale);
        let score = taper(&mg, &eg, phase, scale, stm);
        (score.clamp(-EVAL_LIMIT, EVAL_LIMIT), true)
    }

    /// Doubled, isolated, connected, backward and passed pawns of colour `c` (a
    /// passed pawn by its rank) and the space term's count; and the passed pawns.
    /// It reads the pawns only: the pawn cache keeps it by their squares. The
    /// terms that read the royal pieces too are [`Self::pawn_king_terms`].
    fn pawn_structure<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        c: Color,
        p: PieceType,
        tr: &mut T,
    ) -> PawnScore<W> {
        let g = self.rules.variant.geometry;
        let ours: Squares<W> = pos.pieces_of(c, p).resized();
        let mut passed_set = Squares::<W>::EMPTY;
        if ours.is_empty() {
            return PawnScore {
                score: [0, 0],
                passed: passed_set,
                space: 0,
            };
        }
        let theirs: Squares<W> = pos.pieces_of(c.flip(), p).resized();
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
        // Squares our pawns protect, and those the enemy's attack.
        let pawn_attacks = |side: Color, set: Squares<W>| {
            let mut out = Squares::<W>::EMPTY;
            for s in set.iter() {
                out |= self.rules.leap_captures(side, p, s).resized();
            }
            out
        };
        let protected = pawn_attacks(c, ours);
        let enemy_attacks = pawn_attacks(c.flip(), theirs);
        // Per file, our rearmost pawn's relative rank.
        let mut own_rear = [i32::MAX; 18];
        for s in ours.iter() {
            let f = g.file(s) as usize + 1;
            own_rear[f] = own_rear[f].min(g.relative_rank(s, white) as i32);
        }
        let (mut doubled, mut isolated, mut connected, mut backward) = (0, 0, 0, 0);
        let (mut passed, mut passed2) = (0.0f32, 0.0f32);
        let ahead = if white { 1 } else { -1 };
        let mut score = [0, 0];
        let last = (g.ranks as f32 - 1.0).max(1.0);
        for s in ours.iter() {
            let f = g.file(s) as usize;
            if files[f] > 1 {
                doubled += 1;
            }
            let left = f > 0 && files[f - 1] > 0;
            let right = f + 1 < g.files as usize && files[f + 1] > 0;
            let r = g.relative_rank(s, white) as i32;
            if !left && !right {
                isolated += 1;
            } else if own_rear[f] > r
                && own_rear[f + 2] > r
                && g.offset(s, 0, ahead)
                    .is_some_and(|stop| enemy_attacks.contains(stop) || theirs.contains(stop))
            {
                // No neighbour can come up to support it, and it cannot advance.
                backward += 1;
            }
            let beside = [-1, 1]
                .iter()
                .any(|&dx| g.offset(s, dx, 0).is_some_and(|x| ours.contains(x)));
            if beside || protected.contains(s) {
                connected += 1;
            }
            let blocked = enemy_front[f..f + 3].iter().any(|&x| x > r);
            if !blocked {
                passed_set.insert(s);
                let ri = r as usize;
                let [a, b] = self.passed[ri];
                score[0] += a;
                score[1] += b;
                let x = r as f32 / last;
                if T::ON {
                    passed += x;
                    passed2 += x * x;
                }
            }
        }
        for (term, cnt, w) in [
            (GlobalTerm::Doubled, doubled, self.doubled),
            (GlobalTerm::Isolated, isolated, self.isolated),
            (GlobalTerm::Connected, connected, self.connected),
            (GlobalTerm::Backward, backward, self.backward),
        ] {
            score[0] += cnt * w[0];
            score[1] += cnt * w[1];
            tr.linear(c, global_slot(self.n, term), cnt as f32);
        }
        // Space: the safe squares of the central files in our camp, twice those
        // behind our pawns (up to two squares behind).
        let safe = self.basis.space_area[c as usize]
            .resized()
            .minus(&ours)
            .minus(&enemy_attacks);
        let mut behind = Squares::<W>::EMPTY;
        for s in ours.iter() {
            for back in 1..=2 {
                if let Some(x) = g.offset(s, 0, -back * ahead) {
                    behind.insert(x);
                }
            }
        }
        let space = count(&safe) + count(&safe.and(&behind));
        tr.linear(c, global_slot(self.n, GlobalTerm::Passed), passed);
        tr.linear(c, global_slot(self.n, GlobalTerm::Passed2), passed2);
        PawnScore {
            score,
            passed: passed_set,
            space,
        }
    }

    /// The pawn terms of colour `c` that read the royal pieces too: both royal
    /// pieces' distances to the square ahead of each passed pawn (`passed`, from
    /// [`Self::pawn_structure`]), the pawns sheltering its royal piece and those
    /// storming it, the royal piece's distance to its nearest pawn, and a flank
    /// without pawns. None without pawns of colour `c`.
    fn pawn_king_terms<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        c: Color,
        p: PieceType,
        passed: &Squares<W>,
        tr: &mut T,
    ) -> [i32; 2] {
        let g = self.rules.variant.geometry;
        let ours: Squares<W> = pos.pieces_of(c, p).resized();
        if ours.is_empty() {
            return [0, 0];
        }
        let theirs: Squares<W> = pos.pieces_of(c.flip(), p).resized();
        let white = c == Color::White;
        let ahead = if white { 1 } else { -1 };
        let last = (g.ranks as f32 - 1.0).max(1.0);
        let own_royal = pos.royals(c).first();
        let enemy_royal = pos.royals(c.flip()).first();
        let mut score = [0, 0];
        let (mut passed_own, mut passed_enemy) = (0.0f32, 0.0f32);
        for s in passed.iter() {
            let Some(stop) = g.offset(s, 0, ahead) else {
                continue;
            };
            let ri = g.relative_rank(s, white) as usize;
            let x = ri as f32 / last;
            for (royal, w, sum) in [
                (own_royal, &self.passed_own_king, &mut passed_own),
                (enemy_royal, &self.passed_enemy_king, &mut passed_enemy),
            ] {
                if let Some(k) = royal {
                    let d = self.basis.distance(k, stop).min(KING_DISTANCE_MAX) as i32;
                    score[0] += w[ri][0] * d;
                    score[1] += w[ri][1] * d;
                    *sum += x * d as f32;
                }
            }
        }
        // Shelter and storm: pawns on the royal piece's files, in front of it; and
        // how far the royal piece is from its pawns (it must guard them late).
        let (mut shelter, mut storm, mut pawn_distance, mut pawnless_flank) = (0, 0, 0, 0);
        if let Some(k) = own_royal {
            if !self.basis.flank[k as usize]
                .resized()
                .intersects(&ours.or(&theirs))
            {
                pawnless_flank = 1;
            }
            pawn_distance = ours
                .iter()
                .map(|s| self.basis.distance(k, s).min(KING_DISTANCE_MAX) as i32)
                .min()
                .unwrap_or(0);
            let (kf, kr) = (g.file(k) as i32, g.relative_rank(k, white) as i32);
            for (set, depth, sum) in [(ours, 2, &mut shelter), (theirs, 3, &mut storm)] {
                for s in set.iter() {
                    let dr = g.relative_rank(s, white) as i32 - kr;
                    if (g.file(s) as i32 - kf).abs() <= 1 && dr >= 1 && dr <= depth {
                        *sum += 1;
                    }
                }
            }
        }
        for (term, cnt, w) in [
            (GlobalTerm::Shelter, shelter, self.shelter),
            (GlobalTerm::Storm, storm, self.storm),
            (
                GlobalTerm::KingPawnDistance,
                pawn_distance,
                self.king_pawn_distance,
            ),
            (
                GlobalTerm::PawnlessFlank,
                pawnless_flank,
                self.pawnless_flank,
            ),
        ] {
            score[0] += cnt * w[0];
            score[1] += cnt * w[1];
            tr.linear(c, global_slot(self.n, term), cnt as f32);
        }
        tr.linear(
            c,
            global_slot(self.n, GlobalTerm::PassedOwnKing),
            passed_own,
        );
        tr.linear(
            c,
            global_slot(self.n, GlobalTerm::PassedEnemyKing),
            passed_enemy,
        );
        score
    }

    /// The pawn structure of both colours (see [`Self::pawn_structure`]) with its
    /// terms that read the royal pieces ([`Self::pawn_king_terms`]) in the score,
    /// without the free-square term; with it the pawn maps' pawn-only part where
    /// the cache keeps them (`pawn_maps_cached`). From the thread's caches (never
    /// when tracing): the structure while the pawns stand where they stood, the
    /// royal pieces' terms while the royal pieces do too.
    fn pawn_scores<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        p: PieceType,
        tr: &mut T,
    ) -> ([PawnScore<W>; 2], Option<PawnMaps<W>>)
    where
        Squares<W>: EvalWidth<W>,
    {
        let key = self.pawn_key::<W>(pos, p);
        let (mut scores, maps) = if T::ON {
            let scores = Color::BOTH.map(|c| self.pawn_structure(pos, c, p, tr));
            (scores, None)
        } else {
            self.cached_pawn_structure::<W>(pos, p, key)
        };
        let king_terms = |tr: &mut T, scores: &[PawnScore<W>; 2]| {
            Color::BOTH.map(|c| self.pawn_king_terms(pos, c, p, &scores[c as usize].passed, tr))
        };
        let king = if T::ON {
            king_terms(tr, &scores)
        } else {
            let key = self.pawn_king_key(pos, key);
            let slot = (key >> 50) as usize & (PAWN_KING_CACHE_SIZE - 1);
            PAWN_KING_CACHE.with_borrow_mut(|cache| {
                let entry = cache_slot(cache, PAWN_KING_CACHE_SIZE, PawnKingEntry::EMPTY, slot);
                if entry.key != key {
                    *entry = PawnKingEntry {
                        key,
                        scores: king_terms(tr, &scores),
                    };
                }
                entry.scores
            })
        };
        for (s, [a, b]) in scores.iter_mut().zip(king) {
            s.score[0] += a;
            s.score[1] += b;
        }
        (scores, maps)
    }

    /// [`Self::pawn_structure`] of both colours and the pawn maps' pawn-only part
    /// where it is kept, from the thread's pawn cache when the pawns stand where
    /// they stood (`key`: [`Self::pawn_key`]).
    fn cached_pawn_structure<const W: usize>(
        &self,
        pos: &Position,
        p: PieceType,
        key: u64,
    ) -> ([PawnScore<W>; 2], Option<PawnMaps<W>>)
    where
        Squares<W>: EvalWidth<W>,
    {
        let slot = (key >> 52) as usize & (PAWN_CACHE_SIZE - 1);
        PAWN_CACHE.with_borrow_mut(|caches| {
            let cache = Squares::<W>::pawn_entries(caches);
            let entry = cache_slot(cache, PAWN_CACHE_SIZE, PawnEntry::EMPTY, slot);
            if entry.key != key {
                let scores: [PawnScore<W>; 2] =
                    Color::BOTH.map(|c| self.pawn_structure(pos, c, p, &mut NoTrace));
                let maps = self
                    .pawn_maps_cached
                    .then(|| self.pawn_maps(pos, p, &Squares::<W>::EMPTY));
                *entry = PawnEntry {
                    key,
                    scores,
                    maps: maps.unwrap_or(PawnEntry::EMPTY.maps),
                };
                return (scores, maps);
            }
            (entry.scores, self.pawn_maps_cached.then_some(entry.maps))
        })
    }

    /// What the pawn terms that read the royal pieces depend on, hashed: the pawn
    /// key and the squares of both colours' (first) royal pieces.
    #[inline]
    fn pawn_king_key(&self, pos: &Position, pawn_key: u64) -> u64 {
        let mut h = pawn_key;
        for c in Color::BOTH {
            let royal = pos.royals(c).first().map_or(0, |k| k as u64 + 1);
            h = absorb(h, royal);
        }
        cache_key(h)
    }

    /// What the pawn structure depends on, hashed: this evaluator and both
    /// colours' pawns.
    #[inline]
    fn pawn_key<const W: usize>(&self, pos: &Position, p: PieceType) -> u64 {
        let mut h = self.id.wrapping_mul(GOLDEN_GAMMA);
        for c in Color::BOTH {
            for &w in pos.pieces_of(c, p).resized::<W>().words() {
                h = absorb(h, w);
            }
        }
        cache_key(h)
    }

    /// The free-square term of colour `c`'s passed pawns: the square ahead is empty.
    fn passed_free<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        c: Color,
        passed: &Squares<W>,
        tr: &mut T,
    ) -> [i32; 2] {
        let g = self.rules.variant.geometry;
        let white = c == Color::White;
        let ahead = if white { 1 } else { -1 };
        let last = (g.ranks as f32 - 1.0).max(1.0);
        let mut score = [0, 0];
        let mut sum = 0.0f32;
        for s in passed.iter() {
            let Some(stop) = g.offset(s, 0, ahead) else {
                continue;
            };
            if !pos.occupied().contains(stop) {
                let ri = g.relative_rank(s, white) as usize;
                score[0] += self.passed_free[ri][0];
                score[1] += self.passed_free[ri][1];
                sum += ri as f32 / last;
            }
        }
        tr.linear(c, global_slot(self.n, GlobalTerm::PassedFree), sum);
        score
    }

    /// Variant goals (fixed, not tuned): checks to give, flag regions to reach.
    fn goals<T: Trace>(&self, pos: &Position, mg: &mut [i32; 2], eg: &mut [i32; 2], tr: &mut T) {
        let v = &self.rules.variant;
        let g = v.geometry;
        for c in Color::BOTH {
            let mut bonus = [0, 0];
            if v.check_counting {
                let b = match pos.state().checks_remaining[c as usize] {
                    1 => 300,
                    2 => 120,
                    3 => 40,
                    _ => 0,
                };
                bonus = [b, b];
            }
            let region = v.flag_region[c as usize];
            if !region.is_empty() {
                let pieces = match v.flag_piece[c as usize] {
                    Some(t) => pos.pieces_of(c, t),
                    None => pos.pieces(c),
                };
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
                    let b = 240 / (best + 1) - 30;
                    bonus[0] += b;
                    bonus[1] += 2 * b;
                }
            }
            mg[c as usize] += bonus[0];
            eg[c as usize] += bonus[1];
            tr.fixed(c, bonus[0], bonus[1]);
        }
    }

    /// Mobility and proximity of every piece, and the attack maps the threats and
    /// king danger read.
    fn activity<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        cached_maps: Option<PawnMaps<W>>,
        act: &mut Activity<W>,
        mg: &mut [i32; 2],
        eg: &mut [i32; 2],
        tr: &mut T,
    ) {
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
                    let out = &mut act.check_squares[ci * n..(ci + 1) * n];
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
        for c in Color::BOTH {
            let ci = c as usize;
            let them = c.flip();
            let enemy_royal = royal_sq[them as usize];
            let zone: Squares<W> =
                enemy_royal.map_or(Squares::EMPTY, |k| self.basis.zone[k as usize].resized());
            let theirs: Squares<W> = pos.pieces(them).resized();
            let own_pawns = self.basis.pawn.map(|p| pos.pieces_of(c, p).resized::<W>());
            let mut danger = 0;
            // This colour's attack maps, gathered here and stored at the end (`any`:
            // the squares attacked by any piece so far, royal ones included).
            let mut attacks = Squares::<W>::EMPTY;
            let mut royal_attacks = Squares::<W>::EMPTY;
            let mut any = Squares::<W>::EMPTY;
            let mut attacks2 = Squares::<W>::EMPTY;
            let mut by_lesser = Squares::<W>::EMPTY;
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
                        attacks2 |= any.and(&targets.captures);
                        any |= targets.captures;
                        royal_attacks |= targets.captures;
                    }
                    continue;
                }
                let pawn_type = pawns.as_ref().is_some_and(|maps| maps.pawn == tt);
                let check_squares = act.check_squares[ci * n + t];
                // Enemy pieces worth more than this type.
                let mut bigger = Squares::<W>::EMPTY;
                let mut types = self.more_valuable[t];
                while types != 0 {
                    let u = types.trailing_zeros() as PieceType;
                    types &= types - 1;
                    bigger |= pos.pieces_of(them, u).resized();
                }
                let [wm, we] = self.mobility[t];
                let [rm, re] = self.mobility_root[t];
                let mob_base = self.basis.mob_base[t];
                let mobility_row = &self.mobility_table[t * MOBILITY_TABLE..][..MOBILITY_TABLE];
                let colour_bound = self.basis.colour_bound[t] && own_pawns.is_some();
                for sq in set.iter() {
                    let targets = piece_targets(rules, c, tt, sq, &occ);
                    let free = targets.moves.minus(&occ);
                    let reached = free.or(&targets.captures.and(&theirs));
                    if pawn_type {
                        pushes |= free;
                    }
                    attacks2 |= any.and(&targets.captures);
                    any |= targets.captures;
                    attacks |= targets.captures;
                    by_lesser |= targets.captures.and(&bigger);
                    let all = count(&reached) + targets.multi;
                    act.mobility[ci] += all;
                    if colour_bound && let Some(pawns) = own_pawns {
                        let colour =
                            self.basis.square_colours[self.basis.square_colour(sq)].resized();
                        let k = count(&pawns.and(&colour));
                        let [a, b] = self.same_colour_pawns[t];
                        mg[ci] += a * k;
                        eg[ci] += b * k;
                        tr.linear(c, piece_slot(t, PieceTerm::SameColourPawns), k as f32);
                    }
                    let [a, b] = match mobility_row.get(all as usize) {
                        Some(&pair) => pair,
                        None => mobility_score([wm, we], [rm, re], mob_base, all),
                    };
                    mg[ci] += a;
                    eg[ci] += b;
                    if T::ON {
                        tr.linear(
                            c,
                            piece_slot(t, PieceTerm::Mobility),
                            (all - mob_base) as f32,
                        );
                        let slot = piece_slot(t, PieceTerm::MobilityRoot);
                        tr.linear(c, slot, root_eighths(all) as f32 / 8.0);
                    }
                    if let Some(maps) = &pawns {
                        let piece = (c, t, sq);
                        let [a, b] = self.pawn_piece_terms(pos, maps, piece, &reached, tr);
                        mg[ci] += a;
                        eg[ci] += b;
                    }
                    let hits = count(&targets.captures.and(&zone));
                    if hits > 0 {
                        act.hits[ci] += hits;
                        danger += self.danger[t].attacker;
                        tr.danger(them, piece_slot(t, PieceTerm::Attacker), 1.0);
                    }
                    if reached.intersects(&check_squares) {
                        act.checks_reached[ci * n + t] |= reached.and(&check_squares);
                    }
                    if let Some(k) = enemy_royal {
                        let d = self.basis.distance(sq, k);
                        let [a, b] = self.proximity[t][d];
                        mg[ci] += a;
                        eg[ci] += b;
                        if T::ON {
                            let f = self.basis.proximity[d];
                            tr.linear(c, piece_slot(t, PieceTerm::Proximity), f);
                        }
                    }
                }
            }
            act.attacker_danger[ci] = danger;
            act.attacks[ci] = attacks;
            act.royal_attacks[ci] = royal_attacks;
            act.attacks2[ci] = attacks2;
            act.by_lesser[ci] = by_lesser;
            if let Some(maps) = &mut pawns {
                maps.pushes[ci] = pushes;
            }
        }
        act.pawns = pawns;
    }

    /// The pawn maps the pawn-related piece terms read, but the pushes (which
    /// the walk of all pieces adds).
    fn pawn_maps<const W: usize>(
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

    /// The pawn-related terms of one piece (colour, type, square) that reaches
    /// `reached`: safe mobility, open and half-open files, outposts, and standing
    /// right behind an own pawn.
    fn pawn_piece_terms<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        maps: &PawnMaps<W>,
        (c, t, sq): (Color, usize, Square),
        reached: &Squares<W>,
        tr: &mut T,
    ) -> [i32; 2] {
        let g = self.rules.variant.geometry;
        let (us, them) = (c as usize, c.flip() as usize);
        let white = c == Color::White;
        let safe = count(&reached.minus(&maps.attacks[them]));
        let [sm, se] = self.safe_mobility[t];
        let mut score = [sm * safe / 8, se * safe / 8];
        tr.linear(c, piece_slot(t, PieceTerm::SafeMobility), safe as f32);
        let (f, r) = self.basis.file_rank(sq);
        let file = 1u32 << f;
        let own_file = maps.files[us] & file != 0;
        let enemy_file = maps.files[them] & file != 0;
        let relative_rank = if white { r } else { g.ranks - 1 - r };
        let outpost = maps.attacks[us].contains(sq)
            && !maps.reach[them].contains(sq)
            && 2 * relative_rank + 2 >= g.ranks;
        // The square in front of it (towards the enemy), if on the board.
        let front = if white {
            (r + 1 < g.ranks).then(|| sq + g.files)
        } else {
            (r > 0).then(|| sq - g.files)
        };
        let behind = front.is_some_and(|x| pos.pieces_of(c, maps.pawn).contains(x));
        let mut add = |term: PieceTerm, [a, b]: [i32; 2]| {
            score[0] += a;
            score[1] += b;
            tr.linear(c, piece_slot(t, term), 1.0);
        };
        match (own_file, enemy_file) {
            (false, false) => add(PieceTerm::OpenFile, self.open_file[t]),
            (false, true) => add(PieceTerm::SemiOpenFile, self.semi_open_file[t]),
            _ => {}
        }
        if outpost {
            add(PieceTerm::Outpost, self.outpost[t]);
        }
        if behind {
            add(PieceTerm::BehindPawn, self.behind_pawn[t]);
        }
        score
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

    /// Enemy pieces attacked and not defended, and those attacked by cheaper pieces,
    /// weighed by their estimated value; the squares where the enemy's moves are
    /// contested; with pawns, the pieces safe pawns attack or would attack after a
    /// safe push.
    fn threats<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        act: &Activity<W>,
        mg: &mut [i32; 2],
        eg: &mut [i32; 2],
        tr: &mut T,
    ) {
        let royal: Squares<W> = pos
            .royals(Color::White)
            .or(&pos.royals(Color::Black))
            .resized();
        for c in Color::BOTH {
            let (ci, ti) = (c as usize, c.flip() as usize);
            let theirs = pos.pieces(c.flip()).resized().minus(&royal);
            let ours = act.attacks[ci].or(&act.royal_attacks[ci]);
            let defended = act.attacks[ti].or(&act.royal_attacks[ti]);
            if let Some(maps) = &act.pawns {
                let [a, b] = self.pawn_threats(pos, c, maps, &ours, &defended, tr);
                mg[ci] += a;
                eg[ci] += b;
            }
            if T::ON || self.restricted != [0, 0] {
                let mut contested = defended.and(&ours);
                if let Some(maps) = &act.pawns {
                    contested = contested.minus(&maps.attacks[ti]);
                }
                let k = count(&contested);
                mg[ci] += self.restricted[0] * k;
                eg[ci] += self.restricted[1] * k;
                tr.linear(c, global_slot(self.n, GlobalTerm::Restricted), k as f32);
            }
            // Hanging: attacked and not defended, or (not a pawn) attacked twice,
            // defended once and by no pawn. Weak: attacked, not defended by a pawn,
            // and not defended twice against a single attack.
            let mut hanging = theirs.and(&ours).minus(&defended);
            let mut strong = act.attacks2[ti].minus(&act.attacks2[ci]);
            if let Some(maps) = &act.pawns {
                hanging |= theirs
                    .minus(&pos.pieces_of(c.flip(), maps.pawn).resized())
                    .and(&act.attacks2[ci])
                    .minus(&act.attacks2[ti])
                    .minus(&maps.attacks[ti]);
                strong |= maps.attacks[ti];
            }
            if T::ON || self.threat_on {
                for s in theirs.and(&ours).minus(&strong).iter() {
                    let t = pos.piece_at(s).kind() as usize;
                    mg[ci] += self.threat[t][0];
                    eg[ci] += self.threat[t][1];
                    tr.linear(c, piece_slot(t, PieceTerm::Threat), 1.0);
                }
            }
            for (set, w, term) in [
                (hanging, self.hanging, GlobalTerm::Hanging),
                (
                    act.by_lesser[ci],
                    self.threat_by_lesser,
                    GlobalTerm::ThreatByLesser,
                ),
            ] {
                if set.is_empty() {
                    continue;
                }
                let worth: i32 = set
                    .iter()
                    .map(|s| self.basis.estimate[pos.piece_at(s).kind() as usize])
                    .sum();
                mg[ci] += w[0] * worth / 100;
                eg[ci] += w[1] * worth / 100;
                tr.linear(c, global_slot(self.n, term), worth as f32 / 100.0);
            }
        }
    }

    /// The enemy pieces (not pawns, not royal) that colour `c`'s safe pawns attack,
    /// by type, and those a safe pawn push would attack. A pawn or a push square is
    /// safe when the enemy does not attack it or we defend it (`ours`: our attacks,
    /// `theirs_att`: the enemy's).
    fn pawn_threats<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        c: Color,
        maps: &PawnMaps<W>,
        ours: &Squares<W>,
        theirs_att: &Squares<W>,
        tr: &mut T,
    ) -> [i32; 2] {
        let (ci, ti) = (c as usize, c.flip() as usize);
        let p = maps.pawn;
        let occ: Squares<W> = (pos.occupied() | pos.walls()).resized();
        let victims: Squares<W> = pos
            .pieces(c.flip())
            .minus(&pos.royals(c.flip()))
            .minus(&pos.pieces_of(c.flip(), p))
            .resized();
        let mut score = [0, 0];
        let attacked = victims.and(&maps.attacks[ci]);
        if (T::ON || self.threat_by_pawn_on) && !attacked.is_empty() {
            let unsafe_squares = theirs_att.minus(ours);
            let mut safe_attacks = Squares::<W>::EMPTY;
            for sq in pos.pieces_of(c, p).resized().minus(&unsafe_squares).iter() {
                safe_attacks |= piece_targets(&self.rules, c, p, sq, &occ).captures;
            }
            for v in attacked.and(&safe_attacks).iter() {
                let u = pos.piece_at(v).kind() as usize;
                score[0] += self.threat_by_pawn[u][0];
                score[1] += self.threat_by_pawn[u][1];
                tr.linear(c, piece_slot(u, PieceTerm::ThreatByPawn), 1.0);
            }
        }
        if (T::ON || self.pawn_push_threat != [0, 0]) && !victims.is_empty() {
            let pushes = maps.pushes[ci]
                .minus(&maps.attacks[ti])
                .minus(&theirs_att.minus(ours));
            let mut reach = Squares::<W>::EMPTY;
            for sq in pushes.iter() {
                reach |= piece_targets(&self.rules, c, p, sq, &occ).captures;
            }
            let k = count(&reach.and(&victims));
            score[0] += self.pawn_push_threat[0] * k;
            score[1] += self.pawn_push_threat[1] * k;
            tr.linear(c, global_slot(self.n, GlobalTerm::PawnPushThreat), k as f32);
        }
        score
    }

    /// The danger to the royal piece of colour `c` (attacks near it, safe checks,
    /// pieces the enemy could drop near it, its defenders) and its penalty.
    fn king_danger<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        c: Color,
        act: &Activity<W>,
        mg: &mut [i32; 2],
        eg: &mut [i32; 2],
        tr: &mut T,
    ) {
        let Some(k) = pos.royals(c).first() else {
            return;
        };
        let n = self.n;
        let (ci, them) = (c as usize, c.flip());
        let ti = them as usize;
        let g = self.rules.variant.geometry;
        let zone: Squares<W> = self.basis.zone[k as usize].resized();
        let slot = |term: GlobalTerm| global_slot(n, term);
        let mut danger = self.king_offset + act.attacker_danger[ti] + self.king_hits * act.hits[ti];
        tr.danger(c, slot(GlobalTerm::KingOffset), 1.0);
        tr.danger(c, slot(GlobalTerm::KingHits), act.hits[ti] as f32);
        let weak = zone.and(&act.attacks[ti]).minus(&act.attacks[ci]).count() as i32;
        danger += self.king_weak * weak;
        tr.danger(c, slot(GlobalTerm::KingWeak), weak as f32);
        // The flank: what the enemy attacks there (twice counts twice), what we do.
        let camp = self.basis.flank[k as usize]
            .and(&self.basis.camp[ci])
            .resized::<W>();
        let enemy_hits = camp.and(&act.attacks[ti].or(&act.royal_attacks[ti]));
        let flank_attacks = count(&enemy_hits) + count(&enemy_hits.and(&act.attacks2[ti]));
        let flank_defense = count(&camp.and(&act.attacks[ci].or(&act.royal_attacks[ci])));
        mg[ci] += self.flank_attacks[0] * flank_attacks;
        eg[ci] += self.flank_attacks[1] * flank_attacks;
        tr.linear(c, slot(GlobalTerm::FlankAttacks), flank_attacks as f32);
        let squared = flank_attacks * flank_attacks / 8;
        danger += self.king_flank_attacks * squared;
        tr.danger(c, slot(GlobalTerm::KingFlankAttacks), squared as f32);
        danger += self.king_flank_defense * flank_defense;
        tr.danger(c, slot(GlobalTerm::KingFlankDefense), flank_defense as f32);
        let mobility = act.mobility[ti] - act.mobility[ci];
        danger += self.king_mobility * mobility;
        tr.danger(c, slot(GlobalTerm::KingMobility), mobility as f32);
        if self.checks {
            // Safe: not attacked by the defender (its royal piece included).
            let defended = act.attacks[ci].or(&act.royal_attacks[ci]);
            let safe = g.all().resized().minus(&defended);
            // Weak: attacked by the attacker and held by the royal piece alone, which
            // cannot take back when a second attacker covers the square. A weak
            // check is not safe (it counts as unsafe too); its own weight says how
            // much more it is worth.
            let weak = act.royal_attacks[ci]
                .minus(&act.attacks[ci])
                .minus(&act.attacks2[ci])
                .and(&act.attacks[ti].or(&act.royal_attacks[ti]));
            let weak_for_moves = weak.and(&act.attacks2[ti]);
            let mut unsafe_checks = 0;
            let mut weak_checks = 0;
            for t in 0..n {
                let reached = &act.checks_reached[ti * n + t];
                if reached.intersects(&safe) {
                    danger += self.danger[t].check;
                    tr.danger(c, piece_slot(t, PieceTerm::Check), 1.0);
                } else if !reached.is_empty() {
                    unsafe_checks += 1;
                    if reached.intersects(&weak_for_moves) {
                        weak_checks += 1;
                    }
                }
            }
            danger += self.king_unsafe_check * unsafe_checks;
            tr.danger(c, slot(GlobalTerm::KingUnsafeCheck), unsafe_checks as f32);
            if self.drop_game {
                let empty: Squares<W> = g.all().minus(&pos.occupied()).resized();
                for t in 0..n {
                    let h = pos.hand(them, t as PieceType) as i32;
                    if h == 0 {
                        continue;
                    }
                    let squares = self.drop_targets(pos, them, t as PieceType, &empty);
                    let checks = squares.and(&act.check_squares[ti * n + t]);
                    if checks.intersects(&safe) {
                        danger += self.danger[t].drop_check;
                        tr.danger(c, piece_slot(t, PieceTerm::DropCheck), 1.0);
                    } else if checks.intersects(&weak) {
                        // A dropped piece has no attack of its own on its square:
                        // one supporter makes the weak square's check work.
                        weak_checks += 1;
                    }
                    if squares.intersects(&zone) {
                        let h = h.min(2);
                        danger += self.danger[t].hand * h;
                        tr.danger(c, piece_slot(t, PieceTerm::HandDanger), h as f32);
                    }
                }
            }
            danger += self.king_weak_check * weak_checks;
            tr.danger(c, slot(GlobalTerm::KingWeakCheck), weak_checks as f32);
        }
        for t in 0..n {
            if self.rules.royal_types & 1u64 << t == 0
                && !pos.pieces_of(them, t as PieceType).is_empty()
            {
                danger += self.danger[t].presence;
                tr.danger(c, piece_slot(t, PieceTerm::Presence), 1.0);
            }
        }
        for s in zone.and(&pos.pieces(c).resized()).iter() {
            let t = pos.piece_at(s).kind() as usize;
            if self.rules.royal_types & 1u64 << t == 0 {
                danger += self.danger[t].defender;
                tr.danger(c, piece_slot(t, PieceTerm::Defender), 1.0);
            }
        }
        if danger > 0 {
            mg[ci] -= danger * danger / DANGER_DIVISOR;
            eg[ci] -= danger * self.king_danger_eg / 64;
        }
    }

    /// The empty squares where colour `c` may drop a piece of type `t`.
    #[inline]
    fn drop_targets<const W: usize>(
        &self,
        pos: &Position,
        c: Color,
        t: PieceType,
        empty: &Squares<W>,
    ) -> Squares<W> {
        let v = &self.rules.variant;
        let mut set = self.basis.drop_squares[c as usize][t as usize]
            .resized()
            .and(empty);
        if v.drop_no_doubled == Some(t) {
            let g = v.geometry;
            let mut files = [0u32; 16];
            for s in pos.pieces_of(c, t).resized::<W>().iter() {
                files[g.file(s) as usize] += 1;
            }
            for (f, &k) in files.iter().enumerate().take(g.files as usize) {
                if k >= v.drop_no_doubled_count {
                    set = set.minus(&g.file_set(f as u8).resized());
                }
            }
        }
        set
    }

    /// The endgame scale (64ths): towards a draw when the side ahead has no pawns,
    /// nothing in hand and too little material to mate.
    fn eg_scale(&self, m: &Material, eg: &[i32; 2]) -> i32 {
        if self.drop_game || self.rules.royal_types == 0 {
            return SCALE_ONE;
        }
        let (s, w) = if eg[0] >= eg[1] { (0, 1) } else { (1, 0) };
        if m.pawns[s] == 0 && m.in_hand[s] == 0 && m.pieces[s] - m.pieces[w] < DRAWISH_EDGE {
            return if m.pieces[s] <= DRAWISH_EDGE {
                DRAWISH_SCALE[0]
            } else {
                DRAWISH_SCALE[1]
            };
        }
        // Fewer pawns to win with, or bishops that never meet: nearer a draw.
        let opposite = m.bound == [1, 1] && m.bound_colour[0] != m.bound_colour[1];
        let scale = if opposite && m.others == [0, 0] {
            self.scale_opposite_alone
        } else {
            let [base, per_pawn] = if opposite {
                self.scale_opposite
            } else {
                self.scale_pawns
            };
            base + per_pawn * m.pawns[s]
        };
        scale.clamp(0, SCALE_ONE)
    }
}

/// Material counts per colour, for the endgame scale.
#[derive(Default)]
struct Material {
    /// Pawn-like pieces on the board.
    pawns: [i32; 2],
    /// Estimated value of the other pieces, hands included.
    pieces: [i32; 2],
    /// Pieces in hand.
    in_hand: [i32; 2],
    /// Colour-bound pieces on the board (bishops), and the square colour of one.
    bound: [i32; 2],
    bound_colour: [usize; 2],
    /// Other pieces but royals, on the board or in hand.
    others: [i32; 2],
}

/// The number of squares in a set (`.cargo/config.toml` enables the POPCNT
/// instruction, so the empty words of small boards cost no more than a test).
#[inline]
fn count<const W: usize>(set: &Squares<W>) -> i32 {
    set.count() as i32
}

/// The score from the side to move's view: middlegame and (scaled) endgame
/// differences blended by the phase.
#[inline]
fn taper(mg: &[i32; 2], eg: &[i32; 2], phase: i32, scale: i32, stm: Color) -> i32 {
    let e = (eg[0] - eg[1]) * scale / SCALE_ONE;
    let w = ((mg[0] - mg[1]) * phase + e * (PHASE_MAX - phase)) / PHASE_MAX;
    if stm == Color::White { w } else { -w }
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
fn pawn_spans(rules: &Ruleset, pawn: Option<PieceType>) -> Vec<SquareSet> {
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

/// The mobility and mobility-root terms (mg, eg) of a piece reaching `all` squares,
/// from its type's weights in eighths of a centipawn and its mobility base. (Out of
/// line: the evaluation reads it from `mobility_table` but for the rare piece that
/// reaches more squares than the table holds.)
#[inline(never)]
fn mobility_score([wm, we]: [i32; 2], [rm, re]: [i32; 2], mob_base: i32, all: i32) -> [i32; 2] {
    let (d, root) = (all - mob_base, root_eighths(all));
    [wm * d / 8 + rm * root / 64, we * d / 8 + re * root / 64]
}

/// `8·√all` rounded down, the mobility curve's feature (constant past the table).
fn root_eighths(all: i32) -> i32 {
    ROOT_EIGHTHS[(all.max(0) as usize).min(ROOT_EIGHTHS.len() - 1)]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin_rules;

    #[test]
    fn chess_values_are_ordered_and_start_is_balanced() {
        let rules = builtin_rules("chess");
        let e = Evaluator::new(&rules);
        let v = |c: char| e.value(rules.variant.type_of_letter(c).unwrap());
        assert!(v('p') < v('n') && v('n') <= v('b') + 60 && v('b') < v('r') && v('r') < v('q'));
        let pos = Position::start(&rules);
        assert_eq!(e.evaluate(&pos), e.tempo[0]);
    }

    /// The pawn caches change no score: positions with the same pawns and royal
    /// pieces but other pieces (the free-square term reads those), and with the
    /// same pawns but royal pieces elsewhere, evaluated in turn, and the same
    /// positions under another variant's evaluator on the same thread, score as a
    /// traced evaluation (which bypasses the cache) does.
    #[test]
    fn the_pawn_cache_changes_no_score() {
        let fens = [
            "4k3/8/3P4/8/8/8/5PPP/4K3 w - - 0 1",
            "4k3/3n4/3P4/8/8/8/5PPP/4K3 w - - 0 1",
            "4k3/3n4/3P4/8/8/2B5/5PPP/4K3 b - - 0 1",
            "4k3/8/3P4/8/8/8/5PPP/4K3 w - - 0 1",
            // The same pawns with the royal pieces elsewhere (the pawn terms that
            // read them are cached apart), and back.
            "8/3k4/3P4/8/8/8/5PPP/6K1 w - - 0 1",
            "8/3k4/3P4/8/8/8/5PPP/4K3 w - - 0 1",
            "4k3/8/3P4/8/8/8/5PPP/4K3 w - - 0 1",
            // Pushes that would attack pieces, outposts, half-open files.
            "r1bqkb1r/pp3ppp/2n1pn2/2pp4/3P4/2P1PN2/PP1N1PPP/R1BQKB1R w KQkq - 0 6",
            "r3k2r/1b2bppp/p1n1pn2/1pq5/4P3/1BN2N2/PP2QPPP/R1B2RK1 b kq - 2 12",
        ];
        for variant in ["chess", "crazyhouse", "chess"] {
            let rules = builtin_rules(variant);
            let e = Evaluator::new(&rules);
            for fen in fens {
                let pos = Position::from_fen(&rules, fen).unwrap();
                let mut trace = crate::eval::trace::Recorded::default();
                let traced = e.evaluate_traced(&pos, -LAZY_OFF, LAZY_OFF, &mut trace).0;
                assert_eq!(e.evaluate(&pos), traced, "{variant} {fen}");
                assert_eq!(e.evaluate(&pos), traced, "{variant} {fen}");
            }
        }
    }

    /// The endgame scale: by the pawns of the side ahead, lower with bishops of
    /// opposite colours, lowest with those bishops alone; never in a drop game, and
    /// not at all with the generic weights (the scale terms off).
    #[test]
    fn endgames_scale_by_pawns_and_opposite_bishops() {
        let scale_of = |variant: &str, fen: &str, weights: [[f64; 2]; 3]| {
            let rules = builtin_rules(variant);
            let basis = Basis::new(&rules);
            let mut params = Params::generic(&rules, &basis);
            let n = params.n;
            params.w[global_slot(n, GlobalTerm::ScalePawns)] = weights[0];
            params.w[global_slot(n, GlobalTerm::ScaleOpposite)] = weights[1];
            params.w[global_slot(n, GlobalTerm::ScaleOppositeAlone)] = weights[2];
            let e = Evaluator::with_params(&rules, basis, params);
            let pos = Position::from_fen(&rules, fen).unwrap();
            let mut trace = crate::eval::trace::Recorded::default();
            e.evaluate_traced(&pos, -LAZY_OFF, LAZY_OFF, &mut trace);
            trace.eg_scale
        };
        let on = [[36.0, 7.0], [36.0, 2.0], [22.0, 22.0]];
        let off = [[64.0, 0.0], [64.0, 0.0], [64.0, 64.0]];
        // White is ahead: a rook and a pawn, then two pawns, against a rook.
        let rook_pawn = "4k3/8/8/8/8/8/4P3/R3K1r1 w - - 0 1";
        assert_eq!(scale_of("chess", rook_pawn, on), 43);
        assert_eq!(
            scale_of("chess", "4k3/8/8/8/8/8/3PP3/R3K1r1 w - - 0 1", on),
            50
        );
        assert_eq!(scale_of("chess", rook_pawn, off), SCALE_ONE);
        // Bishops on c1 (dark) and c8 (light) with two pawns against one.
        let opposite = "2b1k3/p7/8/8/8/8/PP6/2B1K3 w - - 0 1";
        assert_eq!(scale_of("chess", opposite, on), 22);
        let with_rooks = "r1b1k3/p7/8/8/8/8/PP6/R1B1K3 w - - 0 1";
        assert_eq!(scale_of("chess", with_rooks, on), 40);
        // Bishops on the same colour (c1 and f8): the pawn rule.
        let same = "4kb2/p7/8/8/8/8/PP6/2B1K3 w - - 0 1";
        assert_eq!(scale_of("chess", same, on), 50);
        // Many pawns: no scaling.
        let many = "4k3/pppp4/8/8/8/8/PPPPP3/R3K1r1 w - - 0 1";
        assert_eq!(scale_of("chess", many, on), SCALE_ONE);
        assert_eq!(scale_of("crazyhouse", rook_pawn, on), SCALE_ONE);
    }

    /// A check square held only by the royal piece and attacked by a second enemy
    /// piece is weak: in this position Qxf2+ and Bxf2+ (each covering the other) are
    /// weak checks against White, while Nc2+ and Nd3+ (held by the queen and the
    /// bishop) are plainly unsafe. A piece attacked, defended by no pawn, and not
    /// defended twice against a single attack is threatened, by its type.
    #[test]
    fn weak_checks_and_weak_pieces() {
        let rules = builtin_rules("chess");
        let e = Evaluator::new(&rules);
        let kind = |c: char| rules.variant.type_of_letter(c).unwrap() as usize;
        let traced = |fen: &str| {
            let pos = Position::from_fen(&rules, fen).unwrap();
            let mut trace = crate::eval::trace::Recorded::default();
            e.evaluate_traced(&pos, -LAZY_OFF, LAZY_OFF, &mut trace);
            trace.compact();
            trace
        };
        let coef = |v: &[(u32, f32)], slot: usize| {
            v.iter()
                .find(|&&(s, _)| s as usize == slot)
                .map_or(0.0, |&(_, c)| c)
        };
        let t = traced("r1b1k1nr/pp3ppp/2p5/2bPp3/1n2P2q/2N5/PP1PBPPP/RNBQK2R w KQkq - 3 8");
        let white_danger = &t.danger[0];
        for kind_letter in ['q', 'b', 'n'] {
            let check = piece_slot(kind(kind_letter), PieceTerm::Check);
            assert_eq!(coef(white_danger, check), 0.0);
        }
        let unsafe_checks = global_slot(e.n, GlobalTerm::KingUnsafeCheck);
        assert_eq!(coef(white_danger, unsafe_checks), 3.0);
        let weak_checks = global_slot(e.n, GlobalTerm::KingWeakCheck);
        assert_eq!(coef(white_danger, weak_checks), 2.0);
        // The black pawn on d5, attacked by the knight: weak alone, not beside a
        // pawn that defends it.
        let pawn_threat = piece_slot(kind('p'), PieceTerm::Threat);
        let alone = traced("4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1");
        assert_eq!(coef(&alone.linear, pawn_threat), 1.0);
        let defended = traced("4k3/8/4p3/3p4/8/4N3/8/4K3 w - - 0 1");
        assert_eq!(coef(&defended.linear, pawn_threat), 0.0);
    }

    /// The evaluation cache answers what an evaluation would: the full score once
    /// known, and the lazy exit for windows far from it, in any order of windows.
    /// Narrow square sets change no score: along a game of each variant (a fixed
    /// walk of legal moves), the evaluation in the narrowest sets that hold the
    /// board, and in sets of two words where one would do, equals the one in
    /// full-width sets, term by term (no lazy exit).
    #[test]
    fn narrow_square_sets_change_no_score() {
        use crate::types::MoveList;
        for variant in [
            "chess",
            "crazyhouse",
            "makruk",
            "shogi",
            "xiangqi",
            "capablanca",
        ] {
            let rules = builtin_rules(variant);
            let e = Evaluator::new(&rules);
            let mut pos = Position::start(&rules);
            let mut seed = 12345u64;
            for ply in 0..60 {
                let eval = |f: fn(&Evaluator, &Position, &mut i32) -> (i32, bool)| {
                    let mut lazy = EVAL_UNKNOWN;
                    f(&e, &pos, &mut lazy)
                };
                let wide = eval(|e, p, l| {
                    e.evaluate_in::<NoTrace, MAX_WORDS>(p, -LAZY_OFF, LAZY_OFF, &mut NoTrace, l)
                });
                let two = eval(|e, p, l| {
                    e.evaluate_in::<NoTrace, 2>(p, -LAZY_OFF, LAZY_OFF, &mut NoTrace, l)
                });
                assert_eq!(two, wide, "{variant} ply {ply}: {}", pos.fen());
                if e.squares <= 64 {
                    let one = eval(|e, p, l| {
                        e.evaluate_in::<NoTrace, 1>(p, -LAZY_OFF, LAZY_OFF, &mut NoTrace, l)
                    });
                    assert_eq!(one, wide, "{variant} ply {ply}: {}", pos.fen());
                }
                let mut list = MoveList::new();
                rules.generate_legal(&mut pos, &mut list);
                if list.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = list.iter().nth((seed >> 33) as usize % list.len()).copied();
                pos.make(m.unwrap());
            }
        }
    }

    #[test]
    fn the_eval_cache_changes_no_score() {
        let fens = [
            "4k3/8/3P4/8/8/8/5PPP/4K3 w - - 0 1",
            "r3k3/3n4/3P4/8/8/2B5/5PPP/4K3 b - - 0 1",
        ];
        let windows = [
            (-LAZY_OFF, LAZY_OFF),
            (2000, 2001),
            (-3000, -2999),
            (-1, 1),
            (2000, 2001),
        ];
        for variant in ["chess", "crazyhouse"] {
            let rules = builtin_rules(variant);
            let cached = Evaluator::new(&rules);
            for fen in fens {
                let pos = Position::from_fen(&rules, fen).unwrap();
                for order in [
                    windows,
                    [windows[1], windows[2], windows[0], windows[3], windows[4]],
                ] {
                    for (alpha, beta) in order {
                        // A new evaluator has no cache entries.
                        let fresh = Evaluator::new(&rules).evaluate_window(&pos, alpha, beta);
                        let got = cached.evaluate_window(&pos, alpha, beta);
                        assert_eq!(got, fresh, "{variant} {fen} ({alpha}, {beta})");
                    }
                }
            }
        }
    }
}
