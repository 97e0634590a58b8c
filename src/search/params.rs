//! Search tunables, in one place. Margins are in centipawns (a pawn is about 100).

/// Shallow-depth futility for quiet moves: static evaluation plus this margin at
/// reduced depth d (`BASE + PER_DEPTH * d`) still below alpha, and a history
/// below the limit, prunes the move.
pub const FUTILITY_BASE: i32 = 184;
pub const FUTILITY_PER_DEPTH: i32 = 134;
pub const FUTILITY_HISTORY_LIMIT: i32 = 25000;
/// Captures and checks losing more than this times the depth by static exchange
/// are pruned at shallow depth.
pub const SEE_CAPTURE_MARGIN: i32 = -152;
/// Quiet moves losing more than `(BASE - d) * d * d * SCALE / 100` by static
/// exchange at reduced depth d are pruned.
pub const SEE_QUIET_BASE: i32 = 32;
pub const SEE_QUIET_SCALE: i32 = 78;
/// Singular extension: from this depth, the hash move is extended when a search
/// without it at half depth stays below its score less `MARGIN * depth`.
pub const SINGULAR_DEPTH: i32 = 6;
pub const SINGULAR_MARGIN: i32 = 2;
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
