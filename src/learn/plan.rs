//! The sizes of a learning run, derived from the variant and the time given so
//! that a designer needs to know nothing about nets (docs/learn.md, "Defaults").
//! Every formula is here, each with its reason.

use crate::board::Ruleset;
use crate::search::selfplay::default_random_plies;

/// The accumulator width: 64 on boards under 64 squares (few inputs, few
/// positions to learn from), 128 from 64 squares, 256 where the board times the
/// piece types passes 1500 (large boards with many pieces: shogi's 81 x 14 stays
/// at 128).
pub fn default_hidden(rules: &Ruleset) -> usize {
    let squares = rules.variant.geometry.num_squares();
    let types = rules.variant.num_types();
    if squares < 64 {
        64
    } else if squares * types <= 1500 {
        128
    } else {
        256
    }
}

/// Whether to train on positions mirrored left to right too (`train`'s
/// `--mirror`, twice the data): where no piece's XBetza names a left or right
/// direction (the modifiers `l` and `r`; `s`, both sideways, is symmetric), so
/// every piece moves alike to both sides. Conservative: a piece with both `l`
/// and `r` atoms that mirror each other is counted as one-sided.
pub fn default_mirror(rules: &Ruleset) -> bool {
    rules
        .variant
        .pieces
        .iter()
        .all(|p| !p.betza.contains(['l', 'r']))
}

/// Nodes a move: 1000 up to 64 squares, then fewer in proportion to the area
/// (each node costs more on a larger board), at least 250.
pub fn default_nodes(rules: &Ruleset) -> u64 {
    let squares = rules.variant.geometry.num_squares().max(1) as u64;
    (1000 * 64 / squares).clamp(250, 1000)
}

/// Random plies at the start of each game: self-play's default.
pub fn default_random_plies_for(rules: &Ruleset) -> u32 {
    default_random_plies(rules.variant.geometry.num_squares())
}

/// The games measured to size a run: the first games of generation 1, timed.
pub const MEASURED_GAMES: u64 = 20;

/// The least self-play games of a generation and the least match games (a
/// generation smaller than this learns or decides nothing).
pub const MIN_GAMES: u64 = 16;
pub const MIN_MATCH_GAMES: u64 = 8;

/// Shares of a generation's time: self-play, then the match; training has the
/// rest (0.15).
const SELFPLAY_SHARE: f64 = 0.6;
const MATCH_SHARE: f64 = 0.25;

/// A match game costs about this many self-play games: a net's evaluation is
/// slower than the hand-crafted one's, and no position is written.
const MATCH_GAME_COST: f64 = 1.3;

/// The sizes of a run once measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// Self-play games of generation 1 (it learns from scratch: a double share).
    pub first_games: u64,
    /// Self-play games of each later generation.
    pub games: u64,
    /// Match games of each generation (even: paired openings).
    pub match_games: u64,
    /// The generations the time was divided into.
    pub generations: u32,
}

/// The generations to divide `budget` seconds into when none are given: one per
/// 20 minutes, 2 to 12.
pub fn planned_generations(budget: f64) -> u32 {
    ((budget / 1200.0).round() as u32).clamp(2, 12)
}

/// Sizes for `budget` seconds when a self-play game takes `game_seconds` (wall
/// time per game with the run's threads): the budget is divided into
/// `generations + 1` shares, generation 1 taking two; of a share, 60 % is
/// self-play and 25 % the match. Given sizes are kept.
pub fn sizes(
    budget: f64,
    game_seconds: f64,
    generations: u32,
    games: Option<u64>,
    match_games: Option<u64>,
) -> Sizes {
    let share = budget / (generations as f64 + 1.0);
    let per_game = game_seconds.max(1e-3);
    let auto_games = ((SELFPLAY_SHARE * share / per_game) as u64).max(MIN_GAMES);
    let auto_match = ((MATCH_SHARE * share / (per_game * MATCH_GAME_COST)) as u64)
        .max(MIN_MATCH_GAMES)
        .next_multiple_of(2);
    Sizes {
        first_games: games.unwrap_or(2 * auto_games),
        games: games.unwrap_or(auto_games),
        match_games: match_games.map_or(auto_match, |m| m.next_multiple_of(2)),
        generations,
    }
}

/// The time one generation after the first is expected to take, from its sizes.
pub fn generation_seconds(s: &Sizes, game_seconds: f64) -> f64 {
    (s.games as f64 + s.match_games as f64 * MATCH_GAME_COST) * game_seconds
        / (SELFPLAY_SHARE + MATCH_SHARE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin_rules;

    #[test]
    fn mirroring_where_every_piece_is_symmetric() {
        assert!(default_mirror(&builtin_rules("crazyhouse")));
        assert!(default_mirror(&builtin_rules("shogi")));
    }

    #[test]
    fn defaults_follow_the_board_and_pieces() {
        let gardner = builtin_rules("gardner");
        assert_eq!(default_hidden(&gardner), 64);
        assert_eq!(default_nodes(&gardner), 1000);
        assert_eq!(default_random_plies_for(&gardner), 5);
        let chess = builtin_rules("chess");
        assert_eq!(default_hidden(&chess), 128);
        assert_eq!(default_nodes(&chess), 1000);
        let shogi = builtin_rules("shogi");
        assert_eq!(default_hidden(&shogi), 128);
        assert_eq!(default_nodes(&shogi), 790);
    }

    #[test]
    fn sizes_divide_the_time() {
        // Two hours, a game every 0.5 s, 6 generations: a share is 7200 / 7 s.
        assert_eq!(planned_generations(7200.0), 6);
        assert_eq!(planned_generations(60.0), 2);
        let s = sizes(7200.0, 0.5, 6, None, None);
        assert_eq!(s.games, 1234);
        assert_eq!(s.first_games, 2468);
        assert_eq!(s.match_games, 396);
        // Given sizes are kept (match games made even); tiny budgets have minima.
        let given = sizes(60.0, 0.5, 2, Some(8), Some(5));
        assert_eq!(
            (given.first_games, given.games, given.match_games),
            (8, 8, 6)
        );
        let tiny = sizes(1.0, 0.5, 2, None, None);
        assert_eq!((tiny.games, tiny.match_games), (MIN_GAMES, MIN_MATCH_GAMES));
    }
}
