//! Training positions scored again by a teacher (`menagerie rescore`): the lines
//! of a data file (`FEN;SCORE;RESULT;BESTMOVE`, comments) copied one for one, each
//! SCORE replaced by the teacher's score in the engine's centipawns.
//!
//! **The unit.** A teacher's centipawns are its own (Stockfish's are scaled to a
//! winning chance, not to a pawn): the net's output must stay in the hand-crafted
//! evaluation's unit, which the search's margins assume. So the teacher's score is
//! multiplied by a factor fitted on the file's first [`FIT_POSITIONS`] positions:
//! the least-squares slope, through the origin, of the file's own scores on the
//! teacher's, over the pairs where neither is a mate nor beyond
//! [`FIT_LIMIT_CP`]. A mate is [`MAX_SCORE_CP`], as in self-play.
//!
//! **Blocks.** The input's lines are cut into blocks of [`BLOCK_LINES`]; each
//! teacher process takes the next block, starts a new game (forgetting its hash)
//! and scores the block's positions in order. A block's scores so depend only on
//! the block, not on which process or how many there are; the blocks are written
//! in order.

use super::teacher::{Teacher, TeacherError, TeacherScore, TeacherSpec};
use crate::movegen::labelled::MAX_SCORE_CP;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

/// Lines a block (the unit of work and of resuming).
pub const BLOCK_LINES: usize = 256;
/// Positions the unit's factor is fitted on.
pub const FIT_POSITIONS: usize = 2048;
/// Pairs with either score beyond this many centipawns are left out of the fit.
pub const FIT_LIMIT_CP: i32 = 1000;

/// The first line of a rescored file starts with this.
pub const HEADER_START: &str = "# menagerie rescore format 1";

/// A data line's FEN and score; `None` for a comment or an empty line.
pub fn fen_and_score(line: &str) -> Option<Result<(&str, i32), String>> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let mut fields = line.split(';');
    let fen = fields.next().unwrap_or_default();
    Some(match fields.next().map(|s| s.trim().parse::<i32>()) {
        Some(Ok(score)) => Ok((fen, score)),
        _ => Err("not FEN;SCORE;RESULT;BESTMOVE with a whole SCORE".to_string()),
    })
}

/// `line` with its SCORE field replaced by `cp`.
pub fn with_score(line: &str, cp: i32) -> String {
    let line = line.trim();
    match line.split_once(';') {
        Some((fen, rest)) => match rest.split_once(';') {
            Some((_, tail)) => format!("{fen};{cp};{tail}"),
            None => format!("{fen};{cp}"),
        },
        None => line.to_string(),
    }
}

/// The least-squares slope through the origin of `own` on `teacher` (see the
/// module's text); `None` with fewer than 10 usable pairs or no spread.
pub fn fit_scale(pairs: &[(i32, TeacherScore)]) -> Option<f64> {
    let (mut st, mut tt, mut n) = (0.0f64, 0.0f64, 0usize);
    for &(own, teacher) in pairs {
        let TeacherScore::Cp(t) = teacher else {
            continue;
        };
        if own.abs() > FIT_LIMIT_CP || t.abs() > FIT_LIMIT_CP {
            continue;
        }
        st += own as f64 * t as f64;
        tt += t as f64 * t as f64;
        n += 1;
    }
    (n >= 10 && tt > 0.0 && st > 0.0).then(|| st / tt)
}

/// The teacher's score in the engine's centipawns.
pub fn engine_cp(score: TeacherScore, scale: f64) -> i32 {
    match score {
        TeacherScore::Cp(t) => {
            ((t as f64 * scale).round() as i32).clamp(-MAX_SCORE_CP, MAX_SCORE_CP)
        }
        TeacherScore::Mate(m) if m > 0 => MAX_SCORE_CP,
        TeacherScore::Mate(_) => -MAX_SCORE_CP,
    }
}

/// The lines of block `b`.
pub fn block_range(b: usize, lines: usize) -> Range<usize> {
    b * BLOCK_LINES..((b + 1) * BLOCK_LINES).min(lines)
}

/// The teacher's scores of a block: per line, `None` for a comment.
pub type BlockScores = Vec<Option<TeacherScore>>;

/// Score the blocks `blocks` of `lines` with `threads` teacher processes and hand
/// each block's scores to `done` in block order. Stops at the first error of a
/// teacher, of a line or of `done`.
pub fn score_blocks<E: From<TeacherError> + From<String> + Send>(
    spec: &TeacherSpec,
    lines: &[&str],
    blocks: Range<usize>,
    threads: usize,
    mut done: impl FnMut(usize, BlockScores) -> Result<(), E>,
) -> Result<(), E> {
    let next = AtomicUsize::new(blocks.start);
    let stop = AtomicBool::new(false);
    let (send, receive) = channel::<(usize, Result<BlockScores, E>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(blocks.len().max(1)) {
            let send = send.clone();
            let (next, stop) = (&next, &stop);
            let end = blocks.end;
            scope.spawn(move || {
                let mut teacher = match Teacher::start(spec) {
                    Ok(t) => t,
                    Err(e) => {
                        let _ = send.send((usize::MAX, Err(e.into())));
                        return;
                    }
                };
                while !stop.load(Ordering::Relaxed) {
                    let b = next.fetch_add(1, Ordering::Relaxed);
                    if b >= end {
                        break;
                    }
                    let scores = score_block(&mut teacher, &lines[block_range(b, lines.len())]);
                    if send.send((b, scores)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Blocks arrive in any order and leave in order.
        let mut waiting = BTreeMap::new();
        let mut want = blocks.start;
        let outcome = (|| {
            for (b, scores) in receive.iter() {
                waiting.insert(b, scores?);
                while let Some(scores) = waiting.remove(&want) {
                    done(want, scores)?;
                    want += 1;
                }
            }
            if want < blocks.end {
                // Every teacher ended without an error it could report.
                return Err(E::from("the teachers stopped before the end".to_string()));
            }
            Ok(())
        })();
        stop.store(true, Ordering::Relaxed);
        outcome
    })
}

fn score_block<E: From<TeacherError> + From<String>>(
    teacher: &mut Teacher,
    lines: &[&str],
) -> Result<BlockScores, E> {
    teacher.new_game()?;
    let mut scores = Vec::with_capacity(lines.len());
    for line in lines {
        scores.push(match fen_and_score(line) {
            None => None,
            Some(Err(why)) => return Err(E::from(why)),
            Some(Ok((fen, _))) => Some(teacher.score(fen)?),
        });
    }
    Ok(scores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_score_field_is_replaced() {
        let line = "8/8/8/8/8/8/8/K1k5 w - - 0 1;43;0.5;a1a2";
        assert_eq!(
            with_score(line, -7),
            "8/8/8/8/8/8/8/K1k5 w - - 0 1;-7;0.5;a1a2"
        );
        assert_eq!(
            fen_and_score(line),
            Some(Ok(("8/8/8/8/8/8/8/K1k5 w - - 0 1", 43)))
        );
        assert_eq!(fen_and_score("# game 0"), None);
        assert!(matches!(fen_and_score("nonsense"), Some(Err(_))));
    }

    #[test]
    fn the_factor_is_the_slope_of_own_on_teacher() {
        let pairs: Vec<(i32, TeacherScore)> = (1..=40)
            .map(|i| (2 * i * 10, TeacherScore::Cp(i * 10)))
            .chain([(5, TeacherScore::Mate(3)), (1900, TeacherScore::Cp(1500))])
            .collect();
        let scale = fit_scale(&pairs).unwrap_or_default();
        assert!((scale - 2.0).abs() < 1e-9, "{scale}");
        assert_eq!(engine_cp(TeacherScore::Cp(30), scale), 60);
        assert_eq!(engine_cp(TeacherScore::Cp(5000), scale), MAX_SCORE_CP);
        assert_eq!(engine_cp(TeacherScore::Mate(-1), scale), -MAX_SCORE_CP);
        assert_eq!(fit_scale(&pairs[..5]), None);
    }
}
