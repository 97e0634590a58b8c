//! A match between two evaluations (a candidate net against the current best, a
//! net or the hand-crafted evaluation): self-play games in which each side plays
//! with its own evaluation, on paired openings (game `2k` and `2k+1` start from
//! the same random opening, the candidate White in the first and Black in the
//! second), a fixed node budget a move for both. As in self-play, a game depends
//! only on the seed, its index and the options, so a match is deterministic and
//! its games can be played on any number of threads.
//!
//! Every finished game is one line of the results file, written in game order, so
//! that a match cut short goes on from its last complete line. The file's first
//! line names the variant, the options and both evaluations; a file of another
//! match is refused.

use super::{Game, Options, Players, eval_name, generate_with, play_opening};
use crate::board::Ruleset;
use crate::nnue::Nnue;
use std::ops::Range;
use std::sync::Arc;

/// The two evaluations of a match.
#[derive(Clone, Debug, Default)]
pub struct Contestants {
    pub candidate: Option<Arc<Nnue>>,
    pub best: Option<Arc<Nnue>>,
}

impl Contestants {
    /// Whether the candidate plays White in game `index` (it alternates, so that
    /// each opening is played once with each colour).
    pub fn candidate_white(index: u64) -> bool {
        index.is_multiple_of(2)
    }

    /// The sides of game `index`.
    pub fn players(&self, index: u64) -> Players {
        let (white, black) = if Self::candidate_white(index) {
            (&self.candidate, &self.best)
        } else {
            (&self.best, &self.candidate)
        };
        Players {
            white: white.clone(),
            black: black.clone(),
        }
    }
}

/// The first line of a results file: everything the games depend on.
pub fn match_header(variant: &str, opts: &Options, c: &Contestants) -> String {
    format!(
        "# menagerie match format 1 variant {variant} nodes {} random-plies {} max-plies {} \
         adjudicate {} seed {} candidate {} best {}",
        opts.nodes,
        opts.random_plies,
        opts.max_plies,
        opts.adjudicate_cp,
        opts.seed,
        eval_name(&c.candidate),
        eval_name(&c.best)
    )
}

/// Play the match's games `games` (indices) on `threads` threads, giving each
/// finished game and the candidate's points in it to `take` in index order. The
/// openings come from `opts.seed`; `opts.players` is not used.
pub fn play_match<E>(
    rules: &Arc<Ruleset>,
    opts: &Options,
    contestants: &Contestants,
    games: Range<u64>,
    threads: usize,
    mut take: impl FnMut(&Game, Points) -> Result<(), E>,
) -> Result<(), E> {
    generate_with(
        games,
        threads,
        |index| {
            let opts = Options {
                players: contestants.players(index),
                ..opts.clone()
            };
            play_opening(rules, &opts, index / 2, index)
        },
        |game| {
            let points = Points::of(&game);
            take(&game, points)
        },
    )
}

/// The candidate's points in one game, in half points (0, 1 or 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Points(pub u8);

impl Points {
    /// The candidate's points in `game` (its colour follows from the index).
    pub fn of(game: &Game) -> Points {
        use super::GameResult::*;
        let white = match game.result {
            WhiteWins => 2,
            Draw => 1,
            BlackWins => 0,
        };
        Points(if Contestants::candidate_white(game.index) {
            white
        } else {
            2 - white
        })
    }

    fn text(self) -> &'static str {
        match self.0 {
            2 => "1",
            1 => "0.5",
            _ => "0",
        }
    }

    fn read(text: &str) -> Option<Points> {
        match text {
            "1" => Some(Points(2)),
            "0.5" => Some(Points(1)),
            "0" => Some(Points(0)),
            _ => None,
        }
    }
}

/// The line of a finished game in the results file.
pub fn result_line(game: &Game, points: Points) -> String {
    let colour = if Contestants::candidate_white(game.index) {
        "white"
    } else {
        "black"
    };
    format!(
        "game {} candidate {colour} score {} plies {} end {}\n",
        game.index,
        points.text(),
        game.plies,
        game.end.word()
    )
}

/// The candidate's wins, losses and draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

/// How many standard errors of the score the candidate must be above one half to
/// be kept (see [`Tally::candidate_wins`]).
pub const KEEP_MARGIN_SE: f64 = 1.0;

impl Tally {
    pub fn add(&mut self, p: Points) {
        match p.0 {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// The candidate's score, 0 to 1 (one half before any game).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (self.wins as f64 + 0.5 * self.draws as f64) / n as f64,
        }
    }

    /// The standard error of the score: the spread of the games' points around
    /// the score, over the square root of the number of games.
    pub fn std_error(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        (var / n).sqrt()
    }

    /// The Elo difference the score stands for, and its 95 % error (1.96
    /// standard errors through the slope of the logistic curve). A score of 0 or 1
    /// is taken as half a game from it, so that the figures stay finite.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let s = self.score().clamp(0.5 / n, 1.0 - 0.5 / n);
        // Adding zero turns -0 (an even score) into 0, which prints without a sign.
        let elo = -400.0 * (1.0 / s - 1.0).log10() + 0.0;
        let slope = 400.0 / (std::f64::consts::LN_10 * s * (1.0 - s));
        (elo, 1.96 * self.std_error() * slope)
    }

    /// Whether the candidate won the match: its score is above one half by at
    /// least [`KEEP_MARGIN_SE`] standard errors (a match of all draws is not won;
    /// one of all wins is).
    pub fn candidate_wins(&self) -> bool {
        let s = self.score();
        self.games() > 0 && s > 0.5 && s - 0.5 >= KEEP_MARGIN_SE * self.std_error()
    }

    /// `+W -L =D, score 0.563, Elo +44 ± 61`.
    pub fn summary(&self) -> String {
        let (elo, err) = self.elo();
        format!(
            "+{} -{} ={}, score {:.3}, Elo {elo:+.0} ± {err:.0}",
            self.wins,
            self.losses,
            self.draws,
            self.score()
        )
    }
}

/// The complete games of a results file and how many of its bytes hold them (the
/// header included); what follows is a line cut short.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchResume {
    pub tally: Tally,
    pub games: u64,
    pub keep_bytes: usize,
}

/// Why a results file cannot be continued; the line is 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchFileError {
    #[error(
        "line 1: the results are of another match ('{found}'; this one would write \
         '{expected}')"
    )]
    OtherMatch { found: String, expected: String },
    #[error("line {line}: not a game result in order (expected game {expected}): '{text}'")]
    BadLine {
        line: usize,
        expected: u64,
        text: String,
    },
}

impl MatchResume {
    /// Read `text`, a results file whose first line is `header` (empty: a new one).
    pub fn read(text: &str, header: &str) -> Result<MatchResume, MatchFileError> {
        let mut resume = MatchResume::default();
        let mut offset = 0;
        for (i, raw) in text.split_inclusive('\n').enumerate() {
            offset += raw.len();
            let Some(line) = raw.strip_suffix('\n') else {
                break;
            };
            if i == 0 {
                if line != header {
                    return Err(MatchFileError::OtherMatch {
                        found: line.to_string(),
                        expected: header.to_string(),
                    });
                }
                resume.keep_bytes = offset;
                continue;
            }
            let bad = || MatchFileError::BadLine {
                line: i + 1,
                expected: resume.games,
                text: line.to_string(),
            };
            let words: Vec<&str> = line.split(' ').collect();
            let points = match words[..] {
                ["game", index, "candidate", _, "score", score, ..]
                    if index.parse::<u64>().ok() == Some(resume.games) =>
                {
                    Points::read(score).ok_or_else(bad)?
                }
                _ => return Err(bad()),
            };
            resume.tally.add(points);
            resume.games += 1;
            resume.keep_bytes = offset;
        }
        Ok(resume)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{EndReason, GameResult};
    use super::*;

    fn game(index: u64, result: GameResult) -> Game {
        Game {
            index,
            result,
            end: EndReason::Rules,
            plies: 40,
            kept: Vec::new(),
        }
    }

    #[test]
    fn the_candidate_alternates_colours_on_each_opening() {
        assert!(Contestants::candidate_white(0));
        assert!(!Contestants::candidate_white(1));
        // A White win is the candidate's in game 0, the best's in game 1.
        assert_eq!(Points::of(&game(0, GameResult::WhiteWins)), Points(2));
        assert_eq!(Points::of(&game(1, GameResult::WhiteWins)), Points(0));
        assert_eq!(Points::of(&game(3, GameResult::Draw)), Points(1));
        assert_eq!(
            result_line(&game(1, GameResult::BlackWins), Points(2)),
            "game 1 candidate black score 1 plies 40 end rules\n"
        );
    }

    #[test]
    fn score_error_elo_and_the_keep_rule() {
        let t = Tally {
            wins: 6,
            losses: 2,
            draws: 2,
        };
        assert_eq!(t.score(), 0.7);
        // Points 1 (6), 0 (2), 0.5 (2) around 0.7: variance 0.16, over 10 games.
        assert!((t.std_error() - 0.016f64.sqrt()).abs() < 1e-12);
        let (elo, err) = t.elo();
        assert_eq!(elo.round(), 147.0);
        assert_eq!(err.round(), 205.0);
        assert!(t.candidate_wins());
        // Ahead, but by less than one standard error.
        let close = Tally {
            wins: 3,
            losses: 2,
            draws: 5,
        };
        assert!(close.score() > 0.5 && !close.candidate_wins());
        let draws = Tally {
            wins: 0,
            losses: 0,
            draws: 4,
        };
        assert!(!draws.candidate_wins());
        assert_eq!(draws.summary(), "+0 -0 =4, score 0.500, Elo +0 ± 0");
        let sweep = Tally {
            wins: 4,
            losses: 0,
            draws: 0,
        };
        assert!(sweep.candidate_wins());
        assert!(sweep.elo().0.is_finite());
        assert!(!Tally::default().candidate_wins());
    }

    #[test]
    fn a_results_file_resumes_after_its_last_complete_line() {
        let header = "# menagerie match format 1 test";
        let mut text = format!("{header}\n");
        text += &result_line(&game(0, GameResult::WhiteWins), Points(2));
        let one = text.len();
        text += &result_line(&game(1, GameResult::WhiteWins), Points(0));
        let two = text.len();
        let r = MatchResume::read(&text, header).expect("reads");
        assert_eq!((r.games, r.keep_bytes), (2, two));
        assert_eq!(
            r.tally,
            Tally {
                wins: 1,
                losses: 1,
                draws: 0
            }
        );
        let cut = MatchResume::read(&text[..two - 3], header).expect("reads");
        assert_eq!((cut.games, cut.keep_bytes), (1, one));
        assert!(matches!(
            MatchResume::read(&text, "# another"),
            Err(MatchFileError::OtherMatch { .. })
        ));
        let skipped = format!(
            "{header}\n{}",
            result_line(&game(1, GameResult::Draw), Points(1))
        );
        assert_eq!(
            MatchResume::read(&skipped, header),
            Err(MatchFileError::BadLine {
                line: 2,
                expected: 0,
                text: "game 1 candidate black score 0.5 plies 40 end rules".into()
            })
        );
    }
}
