//! The self-play data file. It is the line format `menagerie tune` reads
//! (src/eval/tune/), one kept position a line:
//!
//! ```text
//! FEN;SCORE;RESULT;BESTMOVE
//! ```
//!
//! SCORE: the search's score in centipawns for the side to move, clamped to
//! ±[`MAX_SCORE_CP`](crate::movegen::labelled::MAX_SCORE_CP) (a mate is written as the maximum);
//! RESULT: the game's result for White, `1`, `0.5` or `0`; BESTMOVE: the move played
//! (the search's best), in coordinate notation with ranks from 1 (`e2e4`, `P@e4`,
//! `+` for shogi promotion). Comment lines start with `#` (the tune reader skips
//! them): the first line is the [`Header`], naming everything a game depends on, and
//! every game ends with its marker line, `# game I result R plies P positions N end
//! E`. A game is complete once its marker is there (with its newline): a restart
//! keeps the complete games and cuts what follows, see [`Resume`].

use super::{Game, Options, eval_name};
use std::fmt::Write;

/// The first line of a data file: the variant and the options a game depends on
/// (not the number of games or of threads, which do not change a game). Games of
/// a net end the line with `eval net ID` ([`net_id`](super::net_id)); those of the
/// hand-crafted evaluation name none, as before nets existed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header(pub String);

impl Header {
    pub fn new(variant: &str, opts: &Options) -> Header {
        let mut line = format!(
            "# menagerie selfplay format 1 variant {variant} nodes {} random-plies {} \
             max-plies {} adjudicate {} seed {}",
            opts.nodes, opts.random_plies, opts.max_plies, opts.adjudicate_cp, opts.seed
        );
        let players = &opts.players;
        if players.same() {
            if players.white.is_some() {
                line += &format!(" eval {}", eval_name(&players.white));
            }
        } else {
            line += &format!(
                " white {} black {}",
                eval_name(&players.white),
                eval_name(&players.black)
            );
        }
        Header(line)
    }
}

/// The lines of a finished game: its kept positions, then its marker.
pub fn game_text(game: &Game) -> String {
    let mut text = String::new();
    let result = game.result.label();
    for k in &game.kept {
        // Writing to a String cannot fail.
        let _ = writeln!(text, "{};{};{};{}", k.fen, k.score, result, k.best);
    }
    let _ = writeln!(
        text,
        "{MARKER}{} result {} plies {} positions {} end {}",
        game.index,
        result,
        game.plies,
        game.kept.len(),
        game.end.word()
    );
    text
}

/// The start of a game's marker line.
const MARKER: &str = "# game ";

/// Where a restart goes on: the complete games of a file, and how many of its bytes
/// hold them (the header included); what follows is a game cut short.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resume {
    pub games: u64,
    pub keep_bytes: usize,
}

/// Why a file cannot be continued.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResumeError {
    #[error(
        "line 1: the file was made with other arguments ('{found}'; these would write \
         '{expected}'): use the same arguments or another file"
    )]
    OtherArguments { found: String, expected: String },
    #[error("line {line}: game marker out of order (expected game {expected})")]
    MarkerOrder { line: usize, expected: u64 },
}

impl Resume {
    /// Read `text`, a data file written with `header` (empty: a new file).
    pub fn read(text: &str, header: &Header) -> Result<Resume, ResumeError> {
        let mut resume = Resume {
            games: 0,
            keep_bytes: 0,
        };
        let mut offset = 0;
        for (i, raw) in text.split_inclusive('\n').enumerate() {
            offset += raw.len();
            // A line without its newline was cut while being written.
            let Some(line) = raw.strip_suffix('\n') else {
                break;
            };
            if i == 0 {
                if line != header.0 {
                    return Err(ResumeError::OtherArguments {
                        found: line.to_string(),
                        expected: header.0.clone(),
                    });
                }
                resume.keep_bytes = offset;
                continue;
            }
            let Some(rest) = line.strip_prefix(MARKER) else {
                continue;
            };
            let index = rest.split(' ').next().and_then(|n| n.parse::<u64>().ok());
            if index != Some(resume.games) {
                return Err(ResumeError::MarkerOrder {
                    line: i + 1,
                    expected: resume.games,
                });
            }
            resume.games += 1;
            resume.keep_bytes = offset;
        }
        Ok(resume)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{EndReason, GameResult, Kept};
    use super::*;

    fn options() -> Options {
        Options {
            nodes: 100,
            random_plies: 4,
            max_plies: 50,
            adjudicate_cp: 1000,
            seed: 3,
            players: Default::default(),
        }
    }

    fn game(index: u64) -> Game {
        Game {
            index,
            result: GameResult::BlackWins,
            end: EndReason::Adjudicated,
            plies: 30,
            kept: vec![Kept {
                fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
                score: -120,
                best: "a1a2".into(),
            }],
        }
    }

    #[test]
    fn games_are_lines_then_their_marker() {
        assert_eq!(
            game_text(&game(4)),
            "8/8/8/8/8/8/8/K6k w - - 0 1;-120;0;a1a2\n\
             # game 4 result 0 plies 30 positions 1 end adjudicated\n"
        );
    }

    #[test]
    fn a_restart_keeps_the_complete_games_only() {
        let header = Header::new("chess", &options());
        let mut text = format!("{}\n", header.0);
        assert_eq!(
            Resume::read(&text[..text.len() - 1], &header),
            Ok(Resume {
                games: 0,
                keep_bytes: 0
            })
        );
        text += &game_text(&game(0));
        let one = text.len();
        text += &game_text(&game(1));
        let two = text.len();
        assert_eq!(
            Resume::read(&text, &header),
            Ok(Resume {
                games: 2,
                keep_bytes: two
            })
        );
        // Cut inside game 1's marker, or after one of its positions.
        for cut in [two - 1, one + 10] {
            assert_eq!(
                Resume::read(&text[..cut], &header),
                Ok(Resume {
                    games: 1,
                    keep_bytes: one
                })
            );
        }
        assert_eq!(Resume::read("", &header).map(|r| r.games), Ok(0));
    }

    #[test]
    fn a_file_of_other_arguments_or_out_of_order_is_refused() {
        let header = Header::new("chess", &options());
        let other = Header::new("shogi", &options());
        let text = format!("{}\n", other.0);
        assert!(matches!(
            Resume::read(&text, &header),
            Err(ResumeError::OtherArguments { .. })
        ));
        let text = format!("{}\n{}", header.0, game_text(&game(1)));
        assert_eq!(
            Resume::read(&text, &header),
            Err(ResumeError::MarkerOrder {
                line: 3,
                expected: 0
            })
        );
    }
}
