//! Self-play: the engine plays itself to make training data. Each game starts with a
//! few random legal moves (seeded), then every move is a single-threaded search of a
//! fixed node budget with a fresh transposition table per game, so that a game's
//! content depends only on the seed, its index and the options: never on the number
//! of games played at once or on timing. A game ends by the variant's own rules (what
//! the protocols use to say a game is over), by adjudication once both sides' searches
//! agree that one side is winning, or at a ply cap (a draw).
//!
//! Each side plays with its own evaluation ([`Players`]): the hand-crafted one or a
//! net, the same for both in self-play, a candidate against the current best in a
//! match ([`matches`]).
//!
//! The positions kept are the quiet ones after the random opening: the side to move
//! is not in check and the move played (the search's best move) captures nothing.
//! [`file`] writes them in the line format `menagerie tune` reads.

pub mod file;
mod game_end;
pub mod matches;
mod run;

pub use file::{Header, Resume, ResumeError};
pub use game_end::game_value;
pub use run::{generate, generate_with};

use super::{Callback, Limits, Score, Searcher};
use crate::board::{Position, Ruleset, shuffled_start_fen};
use crate::movegen::notation;
use crate::nnue::{Nnue, write_net};
use crate::types::{Color, Move, MoveKind, MoveList, RankNumbering, SplitMix64, absorb, mix64};
use crate::variant::GameValue;
use std::sync::Arc;

use crate::movegen::labelled::MAX_SCORE_CP;

/// Adjudication needs this many plies in a row (both sides' searches) beyond the
/// threshold, all for the same side.
pub const ADJUDICATE_PLIES: u32 = 6;

/// What a self-play game is played with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Nodes searched for every move (at least 1).
    pub nodes: u64,
    /// Random legal moves at the start of every game.
    pub random_plies: u32,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// A game is won once the searches score one side at least this many centipawns
    /// for [`ADJUDICATE_PLIES`] plies in a row; 0: never adjudicate.
    pub adjudicate_cp: i32,
    /// The seed of every game's random opening (with the game's index).
    pub seed: u64,
    /// The evaluation of each side.
    pub players: Players,
}

/// The evaluation each side plays with: a net, or `None` for the hand-crafted one.
/// Two sides with the same evaluation share one searcher (as self-play always
/// did); sides with different ones each search with their own.
#[derive(Clone, Debug, Default)]
pub struct Players {
    pub white: Option<Arc<Nnue>>,
    pub black: Option<Arc<Nnue>>,
}

impl Players {
    /// Both sides with `eval` (self-play).
    pub fn both(eval: Option<Arc<Nnue>>) -> Players {
        Players {
            white: eval.clone(),
            black: eval,
        }
    }

    /// Whether both sides play with the same evaluation (the same net, or none).
    pub fn same(&self) -> bool {
        same_eval(&self.white, &self.black)
    }
}

/// The same net (the same object), or the hand-crafted evaluation on both sides.
fn same_eval(a: &Option<Arc<Nnue>>, b: &Option<Arc<Nnue>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

impl PartialEq for Players {
    fn eq(&self, o: &Players) -> bool {
        same_eval(&self.white, &o.white) && same_eval(&self.black, &o.black)
    }
}

impl Eq for Players {}

/// A net's identity in files that record what played: a hash of its file's bytes
/// without the provenance, so that two copies of the same weights agree (whatever
/// their provenance says: paths, commands) and any changed weight differs.
pub fn net_id(net: &Nnue) -> String {
    let mut bare = net.net().clone();
    bare.provenance.clear();
    let mut h = 0x6e65_745f_6964u64;
    for chunk in write_net(&bare).chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = absorb(h, u64::from_le_bytes(word));
    }
    format!("{:016x}", mix64(h))
}

/// How an evaluation is named in a file header: `hce` (hand-crafted) or `net ID`.
pub fn eval_name(eval: &Option<Arc<Nnue>>) -> String {
    match eval {
        None => "hce".to_string(),
        Some(net) => format!("net {}", net_id(net)),
    }
}

/// The default random opening: 8 plies on a 64-square board, more on larger boards
/// and fewer on smaller ones (with the square root of the area, as the number of
/// moves grows with it), at least 2.
pub fn default_random_plies(squares: usize) -> u32 {
    ((8.0 * (squares as f64 / 64.0).sqrt()).round() as u32).max(2)
}

/// The game's result for White.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
}

impl GameResult {
    /// As the tune reader reads it: 1, 0.5 or 0 for White.
    pub fn label(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1",
            GameResult::Draw => "0.5",
            GameResult::BlackWins => "0",
        }
    }

    /// `value` for the side `to_move`.
    fn from_value(value: GameValue, to_move: Color) -> GameResult {
        match (value, to_move) {
            (GameValue::Win, Color::White) | (GameValue::Loss, Color::Black) => {
                GameResult::WhiteWins
            }
            (GameValue::Win, Color::Black) | (GameValue::Loss, Color::White) => {
                GameResult::BlackWins
            }
            _ => GameResult::Draw,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The variant's rules (mate, stalemate, repetition, n-move rule, ...).
    Rules,
    /// Both sides' searches agreed on a winner.
    Adjudicated,
    /// The ply cap.
    PlyCap,
}

impl EndReason {
    pub fn word(self) -> &'static str {
        match self {
            EndReason::Rules => "rules",
            EndReason::Adjudicated => "adjudicated",
            EndReason::PlyCap => "plies",
        }
    }
}

/// A kept position: its FEN, the search's score for the side to move (centipawns,
/// clamped) and the move played in the notation the tune reader parses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    pub fen: String,
    pub score: i32,
    pub best: String,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub index: u64,
    pub result: GameResult,
    pub end: EndReason,
    /// Plies played, the random opening included.
    pub plies: u32,
    pub kept: Vec<Kept>,
}

/// The generator of game `index`'s random opening: it depends on the seed and the
/// index only.
fn game_rng(seed: u64, index: u64) -> SplitMix64 {
    SplitMix64::new(mix64(absorb(mix64(seed), index)))
}

/// A score in centipawns for the side to move, clamped to [`MAX_SCORE_CP`].
pub fn clamped_cp(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c.clamp(-MAX_SCORE_CP, MAX_SCORE_CP),
        Score::Mate(m) if m > 0 => MAX_SCORE_CP,
        Score::Mate(_) => -MAX_SCORE_CP,
    }
}

/// Whether legal move `m` of `pos` captures: an enemy piece on its destination (not
/// a drop), en passant, or a capture on the way of a multi-leg move.
pub fn is_capture(pos: &Position, m: Move) -> bool {
    if m.kind() == MoveKind::EnPassant || m.extras().any(|(_, captured)| captured) {
        return true;
    }
    m.kind() != MoveKind::Drop && {
        let victim = pos.piece_at(m.to());
        victim.is_some() && victim.color() != pos.side_to_move()
    }
}

/// Counts same-side adjudication plies.
#[derive(Default)]
struct Adjudicator {
    /// The side the streak is for, and its length.
    streak: Option<(Color, u32)>,
}

impl Adjudicator {
    /// Record a search's score for White (centipawns); the winner once the streak is
    /// long enough.
    fn record(&mut self, white_cp: i32, threshold: i32) -> Option<Color> {
        if threshold <= 0 || white_cp.abs() < threshold {
            self.streak = None;
            return None;
        }
        let side = if white_cp > 0 {
            Color::White
        } else {
            Color::Black
        };
        let length = match self.streak {
            Some((s, n)) if s == side => n + 1,
            _ => 1,
        };
        self.streak = Some((side, length));
        (length >= ADJUDICATE_PLIES).then_some(side)
    }
}

/// The variant's start position; for a chess960 variant a shuffled back rank drawn
/// by the game's generator (as a CECP `new` shuffles), so that games differ there too.
fn start_position(rules: &Arc<Ruleset>, rng: &mut SplitMix64) -> Position {
    if rules.variant.chess960
        && let Some(fen) = shuffled_start_fen(rules, rng.next_u64())
        && let Ok(pos) = Position::from_fen(rules, &fen)
    {
        return pos;
    }
    Position::start(rules)
}

/// Play game `index` from the variant's start position (shuffled in chess960
/// variants).
pub fn play_game(rules: &Arc<Ruleset>, opts: &Options, index: u64) -> Game {
    play_opening(rules, opts, index, index)
}

/// Play game `index` with the random opening of game `opening` (a match plays
/// each opening twice, the colours swapped).
pub fn play_opening(rules: &Arc<Ruleset>, opts: &Options, opening: u64, index: u64) -> Game {
    let mut rng = game_rng(opts.seed, opening);
    let mut pos = start_position(rules, &mut rng);
    let mut white = Searcher::new();
    white.set_nnue(opts.players.white.clone());
    // A second searcher only where the sides' evaluations differ: self-play
    // searches both sides with one table and history, as it always has.
    let mut black = (!opts.players.same()).then(|| {
        let mut s = Searcher::new();
        s.set_nnue(opts.players.black.clone());
        s
    });
    let quiet: Callback = Arc::new(|_| {});
    let mut adjudicator = Adjudicator::default();
    let mut kept = Vec::new();
    let mut list = MoveList::new();
    let mut plies = 0u32;
    let (result, end) = loop {
        if let Some(value) = game_value(&mut pos) {
            break (
                GameResult::from_value(value, pos.side_to_move()),
                EndReason::Rules,
            );
        }
        if plies >= opts.max_plies {
            break (GameResult::Draw, EndReason::PlyCap);
        }
        if plies < opts.random_plies {
            list.clear();
            rules.generate_legal(&mut pos, &mut list);
            // Not empty: `game_value` found no end, so there is a legal move.
            let Some(&m) = list.iter().nth(rng.below(list.len())) else {
                break (GameResult::Draw, EndReason::Rules);
            };
            pos.make(m);
            plies += 1;
            continue;
        }
        let limits = Limits {
            nodes: Some(opts.nodes.max(1)),
            ..Default::default()
        };
        let searcher = match &mut black {
            Some(b) if pos.side_to_move() == Color::Black => b,
            _ => &mut white,
        };
        let outcome = searcher.think(pos.clone(), limits, quiet.clone());
        if outcome.best.is_none() {
            // No move although the rules say the game goes on (cannot happen: the
            // search's root moves are the legal moves): call it a draw.
            break (GameResult::Draw, EndReason::Rules);
        }
        let cp = clamped_cp(outcome.score);
        if !pos.in_check() && !is_capture(&pos, outcome.best) {
            kept.push(Kept {
                fen: pos.fen(),
                score: cp,
                best: notation::move_to_string(&pos, outcome.best, RankNumbering::FromOne),
            });
        }
        let white_cp = if pos.side_to_move() == Color::White {
            cp
        } else {
            -cp
        };
        pos.make(outcome.best);
        plies += 1;
        if let Some(winner) = adjudicator.record(white_cp, opts.adjudicate_cp) {
            let result = if winner == Color::White {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            };
            break (result, EndReason::Adjudicated);
        }
    };
    Game {
        index,
        result,
        end,
        plies,
        kept,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_plies_grow_with_the_board() {
        assert_eq!(default_random_plies(64), 8);
        assert_eq!(default_random_plies(25), 5);
        assert_eq!(default_random_plies(81), 9);
        assert_eq!(default_random_plies(90), 9);
        assert_eq!(default_random_plies(1), 2);
    }

    #[test]
    fn scores_are_clamped_and_mates_written_as_the_maximum() {
        assert_eq!(clamped_cp(Score::Cp(35)), 35);
        assert_eq!(clamped_cp(Score::Cp(-5000)), -MAX_SCORE_CP);
        assert_eq!(clamped_cp(Score::Mate(3)), MAX_SCORE_CP);
        assert_eq!(clamped_cp(Score::Mate(-1)), -MAX_SCORE_CP);
    }

    #[test]
    fn adjudication_needs_a_streak_for_one_side() {
        let mut a = Adjudicator::default();
        for _ in 0..ADJUDICATE_PLIES - 1 {
            assert_eq!(a.record(900, 800), None);
        }
        // A score for the other side starts the count again.
        assert_eq!(a.record(-900, 800), None);
        for _ in 0..ADJUDICATE_PLIES - 2 {
            assert_eq!(a.record(-900, 800), None);
        }
        assert_eq!(a.record(-800, 800), Some(Color::Black));
        // Off: never.
        let mut off = Adjudicator::default();
        assert!((0..20).all(|_| off.record(MAX_SCORE_CP, 0).is_none()));
    }

    #[test]
    fn chess960_games_start_from_shuffled_back_ranks() {
        let rules = crate::board::builtin_rules("fischerandom");
        let starts: std::collections::HashSet<String> = (0..8)
            .map(|i| start_position(&rules, &mut game_rng(1, i)).fen())
            .collect();
        assert!(starts.len() > 1, "{starts:?}");
        assert_eq!(
            start_position(&rules, &mut game_rng(1, 3)).fen(),
            start_position(&rules, &mut game_rng(1, 3)).fen()
        );
        let chess = crate::board::builtin_rules("chess");
        assert_eq!(
            start_position(&chess, &mut game_rng(1, 3)).fen(),
            Position::start(&chess).fen()
        );
    }

    #[test]
    fn game_generators_differ_by_seed_and_index_only() {
        let first = |s, i| game_rng(s, i).next_u64();
        assert_eq!(first(1, 7), first(1, 7));
        assert_ne!(first(1, 7), first(1, 8));
        assert_ne!(first(1, 7), first(2, 7));
    }
}
