//! The state file of a learning run (`state.txt` in the work directory): a few
//! lines of text saying where the run is, rewritten whole (through a temporary
//! file and a rename) after every phase (and during one, every 30 seconds, with
//! the time spent), so that a run stopped at any moment goes on from its last
//! phase's end, each phase resuming from its own files.
//!
//! ```text
//! # menagerie learn state format 1
//! args variant V nodes N hidden H epochs E seed S random-plies R games G match-games M
//! sizes first-games G1 games G match-games M generations N
//! generation 2
//! phase train
//! best gen-1.nnue
//! seconds 812.4
//! loss 0.031200
//! result 1 games 40 positions 1843 loss 0.031200 match +9 -3 =4 score 0.688 elo +137 err 168 kept
//! ```
//!
//! `args` names what the games and nets depend on: a run resumed with other
//! arguments is refused. `sizes` is written once the first games were timed.

use super::LearnError;
use crate::search::selfplay::matches::Tally;
use std::path::Path;

/// The first line of a state file.
pub const STATE_HEADER: &str = "# menagerie learn state format 1";

/// The phases of a generation, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Selfplay,
    Train,
    Match,
}

impl Phase {
    pub fn word(self) -> &'static str {
        match self {
            Phase::Selfplay => "selfplay",
            Phase::Train => "train",
            Phase::Match => "match",
        }
    }

    fn read(word: &str) -> Option<Phase> {
        [Phase::Selfplay, Phase::Train, Phase::Match]
            .into_iter()
            .find(|p| p.word() == word)
    }
}

/// What a finished generation did.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerationResult {
    pub generation: u32,
    pub games: u64,
    pub positions: u64,
    pub loss: f64,
    pub tally: Tally,
    pub kept: bool,
}

impl GenerationResult {
    /// The `result` line's words after `result`.
    fn text(&self) -> String {
        let (elo, err) = self.tally.elo();
        format!(
            "{} games {} positions {} loss {:.6} match +{} -{} ={} score {:.3} elo {elo:+.0} err {err:.0} {}",
            self.generation,
            self.games,
            self.positions,
            self.loss,
            self.tally.wins,
            self.tally.losses,
            self.tally.draws,
            self.tally.score(),
            if self.kept { "kept" } else { "dropped" }
        )
    }

    fn read(words: &[&str]) -> Option<GenerationResult> {
        let [
            g,
            "games",
            games,
            "positions",
            positions,
            "loss",
            loss,
            "match",
            w,
            l,
            d,
            ..,
        ] = words
        else {
            return None;
        };
        let kept = match words.last() {
            Some(&"kept") => true,
            Some(&"dropped") => false,
            _ => return None,
        };
        Some(GenerationResult {
            generation: g.parse().ok()?,
            games: games.parse().ok()?,
            positions: positions.parse().ok()?,
            loss: loss.parse().ok()?,
            tally: Tally {
                wins: w.strip_prefix('+')?.parse().ok()?,
                losses: l.strip_prefix('-')?.parse().ok()?,
                draws: d.strip_prefix('=')?.parse().ok()?,
            },
            kept,
        })
    }

    /// One line for people: `generation 2: 40 games, 1843 positions, loss
    /// 0.031200; match +9 -3 =4, score 0.688, Elo +137 ± 168: kept`.
    pub fn summary(&self) -> String {
        format!(
            "generation {}: {} games, {} positions, loss {:.6}; match {}: {}",
            self.generation,
            self.games,
            self.positions,
            self.loss,
            self.tally.summary(),
            if self.kept {
                "kept, the new best"
            } else {
                "dropped"
            }
        )
    }
}

/// Where a run is.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// What the games depend on (the `args` line's words after `args`).
    pub args: String,
    /// The sizes, once measured: first games, games, match games, generations.
    pub sizes: Option<super::plan::Sizes>,
    /// The generation under way (from 1).
    pub generation: u32,
    /// Its next phase.
    pub phase: Phase,
    /// The best net so far, a file name in the work directory (`None`: the
    /// hand-crafted evaluation).
    pub best: Option<String>,
    /// Seconds spent in finished phases, over all runs.
    pub seconds: f64,
    /// The last training's final loss (shown with the generation's result).
    pub loss: Option<f64>,
    pub results: Vec<GenerationResult>,
}

impl State {
    /// A run not started yet.
    pub fn new(args: String) -> State {
        State {
            args,
            sizes: None,
            generation: 1,
            phase: Phase::Selfplay,
            best: None,
            seconds: 0.0,
            loss: None,
            results: Vec::new(),
        }
    }

    pub fn text(&self) -> String {
        let mut t = format!("{STATE_HEADER}\nargs {}\n", self.args);
        if let Some(s) = &self.sizes {
            t += &format!(
                "sizes first-games {} games {} match-games {} generations {}\n",
                s.first_games, s.games, s.match_games, s.generations
            );
        }
        t += &format!(
            "generation {}\nphase {}\nbest {}\nseconds {:.1}\n",
            self.generation,
            self.phase.word(),
            self.best.as_deref().unwrap_or("hce"),
            self.seconds
        );
        if let Some(loss) = self.loss {
            t += &format!("loss {loss:.6}\n");
        }
        for r in &self.results {
            t += &format!("result {}\n", r.text());
        }
        t
    }

    /// Read the state file at `path` (named in errors with the line).
    pub fn read(path: &Path, text: &str) -> Result<State, LearnError> {
        let file = path.display().to_string();
        let bad = |line: usize, reason: &str| LearnError::State {
            file: file.clone(),
            line,
            reason: reason.to_string(),
        };
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, STATE_HEADER)) => {}
            _ => return Err(bad(1, "not a menagerie learn state file")),
        }
        let mut state = State::new(String::new());
        let mut seen_args = false;
        for (i, line) in lines {
            let n = i + 1;
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let words: Vec<&str> = rest.split(' ').collect();
            let number = || bad(n, &format!("'{key}' needs a number"));
            match key {
                "args" => {
                    state.args = rest.to_string();
                    seen_args = true;
                }
                "sizes" => {
                    let [
                        "first-games",
                        a,
                        "games",
                        b,
                        "match-games",
                        c,
                        "generations",
                        d,
                    ] = words[..]
                    else {
                        return Err(bad(n, "sizes line malformed"));
                    };
                    state.sizes = Some(super::plan::Sizes {
                        first_games: a.parse().map_err(|_| number())?,
                        games: b.parse().map_err(|_| number())?,
                        match_games: c.parse().map_err(|_| number())?,
                        generations: d.parse().map_err(|_| number())?,
                    });
                }
                "generation" => state.generation = rest.parse().map_err(|_| number())?,
                "phase" => {
                    state.phase = Phase::read(rest).ok_or_else(|| bad(n, "unknown phase"))?;
                }
                "best" => {
                    state.best = match rest {
                        "hce" => None,
                        name if !name.is_empty() && !name.contains(['/', '\\']) => {
                            Some(name.to_string())
                        }
                        _ => return Err(bad(n, "best is 'hce' or a file of the work directory")),
                    }
                }
                "seconds" => {
                    state.seconds = rest
                        .parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s >= 0.0)
                        .ok_or_else(number)?;
                }
                "loss" => state.loss = Some(rest.parse().map_err(|_| number())?),
                "result" => state.results.push(
                    GenerationResult::read(&words)
                        .ok_or_else(|| bad(n, "result line malformed"))?,
                ),
                "" => {}
                _ => return Err(bad(n, &format!("unknown line '{key}'"))),
            }
        }
        if !seen_args {
            return Err(bad(2, "no args line"));
        }
        if state.generation == 0 {
            return Err(bad(0, "generation 0 (generations count from 1)"));
        }
        Ok(state)
    }

    /// Write the state to `path` whole: a stop while writing leaves the old state.
    pub fn save(&self, path: &Path) -> Result<(), LearnError> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let io = |source| LearnError::Io {
            file: path.display().to_string(),
            source,
        };
        std::fs::write(&tmp, self.text()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::super::plan::Sizes;
    use super::*;

    #[test]
    fn a_state_reads_back_as_written() {
        let mut s = State::new("variant tiny nodes 50".into());
        s.sizes = Some(Sizes {
            first_games: 16,
            games: 8,
            match_games: 4,
            generations: 2,
        });
        s.generation = 2;
        s.phase = Phase::Match;
        s.best = Some("gen-1.nnue".into());
        s.seconds = 12.5;
        s.loss = Some(0.0125);
        s.results.push(GenerationResult {
            generation: 1,
            games: 16,
            positions: 300,
            loss: 0.0125,
            tally: Tally {
                wins: 3,
                losses: 1,
                draws: 0,
            },
            kept: true,
        });
        let text = s.text();
        assert!(text.contains(
            "result 1 games 16 positions 300 loss 0.012500 match +3 -1 =0 score 0.750 elo +191 err 393 kept\n"
        ));
        assert_eq!(State::read(Path::new("state.txt"), &text).ok(), Some(s));
    }

    #[test]
    fn a_bad_state_names_its_line() {
        let text = format!("{STATE_HEADER}\nargs x\nphase cook\n");
        let e = State::read(Path::new("w/state.txt"), &text)
            .err()
            .map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("w/state.txt:3: unknown phase"));
        let e = State::read(Path::new("s"), "hello\n")
            .err()
            .map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("s:1: not a menagerie learn state file"));
    }
}
