//! Labelled positions: the lines `FEN;SCORE;RESULT;BESTMOVE` that `menagerie
//! selfplay` and tools/make_tuning_data.py write and that `menagerie tune` and
//! `menagerie train` read. SCORE is in centipawns for the side to move, RESULT the
//! game's result for White (1, 0.5, 0), BESTMOVE the move played in UCI notation;
//! lines starting with `#` are comments, and `# game ...` closes a game.
//!
//! Both readers keep only quiet positions: the side to move is not in check and
//! the move played neither captures nor promotes (a static evaluation cannot see
//! an exchange in progress, and a label from the middle of one teaches it noise).

use crate::board::{Position, Ruleset};
use crate::movegen::notation;
use crate::types::{MoveKind, RankNumbering};
use std::sync::Arc;

/// A labelled line's score is in centipawns for the side to move, clamped to this
/// size; a mate is written as this (the convention of tools/make_tuning_data.py).
pub const MAX_SCORE_CP: i32 = 2000;

/// One line read.
pub struct Labelled {
    pub position: Position,
    /// The search score, centipawns, side to move's view.
    pub score: f64,
    /// The game's result for White: 1, 0.5 or 0.
    pub result_white: f64,
    /// The FEN's move number (where games in a file without markers begin).
    pub fullmove: u32,
    /// Not in check, and the move played neither captures nor promotes.
    pub quiet: bool,
}

/// What is wrong with a line of a data file.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LineProblem {
    #[error("expected FEN;SCORE;RESULT;BESTMOVE")]
    Fields,
    #[error("bad score '{0}' (centipawns expected)")]
    Score(String),
    #[error("bad result '{0}' (1, 0.5 or 0 expected)")]
    Result(String),
    #[error("bad FEN: {0}")]
    Fen(String),
    #[error("bad move '{0}': {1}")]
    Move(String, String),
}

/// Read one data line (not a comment) of a variant's positions.
pub fn parse_line(rules: &Arc<Ruleset>, line: &str) -> Result<Labelled, LineProblem> {
    let fields: Vec<&str> = line.split(';').collect();
    let [fen, score, result, best] = fields[..] else {
        return Err(LineProblem::Fields);
    };
    let score: f64 = score
        .trim()
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite())
        .ok_or_else(|| LineProblem::Score(score.to_string()))?;
    let result_white = match result.trim() {
        "1" | "1.0" => 1.0,
        "0" | "0.0" => 0.0,
        "0.5" => 0.5,
        r => return Err(LineProblem::Result(r.to_string())),
    };
    let fen = fen.trim();
    let mut position =
        Position::from_fen(rules, fen).map_err(|e| LineProblem::Fen(e.to_string()))?;
    let fullmove = fen
        .split_whitespace()
        .last()
        .and_then(|x| x.parse().ok())
        .unwrap_or(0);
    let m = notation::parse_move(&mut position, best.trim(), RankNumbering::FromOne)
        .map_err(|e| LineProblem::Move(best.trim().to_string(), e.to_string()))?;
    let us = position.side_to_move();
    let captures = (m.kind() != MoveKind::Drop && {
        let victim = position.piece_at(m.to());
        victim.is_some() && !victim.is_wall() && victim.color() != us
    }) || m.extras().any(|(_, captured)| captured);
    let noisy = position.in_check()
        || captures
        || matches!(
            m.kind(),
            MoveKind::Promotion | MoveKind::PiecePromotion | MoveKind::EnPassant
        );
    Ok(Labelled {
        position,
        score,
        result_white,
        fullmove,
        quiet: !noisy,
    })
}

/// Which game of a file each position belongs to: a `# game` marker closes a
/// game; in a file without markers a game begins where the move number goes back
/// or the result changes.
#[derive(Default)]
pub struct GameCounter {
    /// Games closed so far.
    closed: u32,
    in_game: bool,
    last: Option<(u32, f64)>,
}

impl GameCounter {
    /// Continue a count of `closed` games (a second file of the same data).
    pub fn after(closed: u32) -> GameCounter {
        GameCounter {
            closed,
            ..GameCounter::default()
        }
    }

    /// A `# game` marker line.
    pub fn marker(&mut self) {
        if self.in_game {
            self.closed += 1;
            self.in_game = false;
        }
        self.last = None;
    }

    /// The game of a position read from a line.
    pub fn position(&mut self, line: &Labelled) -> u32 {
        if let Some((m, r)) = self.last
            && self.in_game
            && (line.fullmove < m || line.result_white != r)
        {
            self.closed += 1;
        }
        self.in_game = true;
        self.last = Some((line.fullmove, line.result_white));
        self.closed
    }

    /// The games seen, the one still open included.
    pub fn games(&self) -> u32 {
        self.closed + u32::from(self.in_game)
    }
}
