//! Search tunables, in one place. Margins are in centipawns (a pawn is about 100).

/// Shallow-depth futility for quiet moves: static evaluation plus this margin at
/// reduced depth d (`BASE + PER_DEPTH * d`) still below alpha, and a history
/// below the limit, prunes the move.
pub const FUTILITY_BASE: i32 = 184;
pub const FUTILITY_PER_DEPTH: i32 = 134;
pub const FUTILITY_HISTORY_LIMIT: i32 = 25000;
/// The futility estimate and the continuation-history test prune quiet moves only
/// below these reduced depths (the latter one ply deeper when the move before
/// looked good for its side).
pub const FUTILITY_LMR_DEPTH: i32 = 6;
pub const CONT_HISTORY_PRUNE_DEPTH: i32 = 4;
/// Late quiet moves: after `(BASE + depth²) / 2` of them (twice that when the
/// static evaluation improves) the rest are pruned.
pub const FUTILITY_MOVE_COUNT_BASE: i32 = 5;
/// Captures and checks losing more than this times the depth by static exchange
/// are pruned at shallow depth.
pub const SEE_CAPTURE_MARGIN: i32 = -152;
/// Quiet moves losing more than `(BASE - d) * d * d * SCALE / 100` by static
/// exchange at reduced depth d are pruned.
pub const SEE_QUIET_BASE: i32 = 32;
pub const SEE_QUIET_SCALE: i32 = 78;
/// Beyond this reduced depth the quiet margin's `BASE - d` stops shrinking.
pub const SEE_QUIET_DEPTH_CAP: i32 = 18;
/// Singular extension: from this depth, the hash move is extended when a search
/// without it at half depth stays below its score less `MARGIN * depth`.
pub const SINGULAR_DEPTH: i32 = 6;
pub const SINGULAR_MARGIN: i32 = 2;
/// The hash entry must come from a search at most this many plies shallower.
pub const SINGULAR_TT_DEPTH_SLACK: i32 = 3;
/// Razoring: at depth 1, a static evaluation this far below alpha drops into
/// quiescence.
pub const RAZOR_MARGIN: i32 = 415;
/// Null-move cut-offs from this depth on are verified by a search without it.
pub const NULL_VERIFY_DEPTH: i32 = 13;
/// ProbCut from this depth, with beta raised by `MARGIN` (less `IMPROVING` when
/// the static evaluation improves).
pub const PROBCUT_DEPTH: i32 = 5;
pub const PROBCUT_MARGIN: i32 = 149;
pub const PROBCUT_IMPROVING: i32 = 36;
/// Reverse futility: up to this depth, a static evaluation `MARGIN` per ply (less
/// one ply when improving) above beta stands.
pub const REVERSE_FUTILITY_DEPTH: i32 = 6;
pub const REVERSE_FUTILITY_MARGIN: i32 = 90;
/// Null move: tried when the static evaluation is within `EVAL_MARGIN` per ply of
/// beta; reduced by `REDUCTION + depth / DEPTH_DIVISOR` plies, plus one per
/// `EVAL_DIVISOR` of evaluation above beta (at most `EVAL_REDUCTION_MAX`).
pub const NULL_EVAL_MARGIN: i32 = 20;
pub const NULL_REDUCTION: i32 = 3;
pub const NULL_DEPTH_DIVISOR: i32 = 4;
pub const NULL_EVAL_DIVISOR: i32 = 200;
pub const NULL_EVAL_REDUCTION_MAX: i32 = 3;
/// ProbCut tries this many captures (twice as many at cut nodes).
pub const PROBCUT_MOVES: usize = 2;
/// Quiescence delta pruning: a capture whose victim, taken for free, still leaves
/// the static evaluation this far below alpha is skipped.
pub const DELTA_MARGIN: i32 = 200;
/// History bonus of a cut-off at depth d: `QUADRATIC * d² + LINEAR * d - OFFSET`
/// up to `MAX_DEPTH`, none deeper (the moves of so deep a cut-off say little about
/// the nodes the histories order).
pub const STAT_BONUS_QUADRATIC: i32 = 29;
pub const STAT_BONUS_LINEAR: i32 = 138;
pub const STAT_BONUS_OFFSET: i32 = 134;
pub const STAT_BONUS_MAX_DEPTH: i32 = 17;
/// Late-move reductions from this depth on.
pub const LMR_DEPTH: i32 = 3;
/// A quiet move's history counts from this neutral level: above it the move earns
/// less reduction and marks a good move for the next ply, below it the opposite.
pub const STAT_SCORE_NEUTRAL: i32 = 4000;
/// Each this much history above (below) the neutral level takes one ply off
/// (adds one ply to) a quiet move's reduction. (A divisor, not the histories'
/// limit `history::HISTORY_MAX`, though the two are equal today.)
pub const LMR_HISTORY_DIVISOR: i32 = 16384;
