//! Teaching the engine a variant (docs/learn.md): generations of self-play data
//! from the current best evaluation (the hand-crafted one at first), a net
//! trained on the last generations' data, and a match of the new net against the
//! current best that keeps it only when it wins; repeated until the time is spent
//! or the generations asked for are done.
//!
//! Everything lives in a work directory: `state.txt` ([`state`]) says where the
//! run is; per generation `gen-N.data` (the self-play file), `gen-N.nnue` (and its
//! checkpoint) and `gen-N.match` (the match's results). Each phase resumes from
//! its own file, so a run stopped at any moment goes on from where it was.
//! [`plan`] derives the sizes from the variant and the time given.

pub mod plan;
pub mod state;

use crate::board::Ruleset;
use crate::nnue::{Layout, Net, NetError, Nnue};
use crate::search::selfplay::matches::{
    Contestants, MatchFileError, MatchResume, Tally, match_header, play_match, result_line,
};
use crate::search::selfplay::{self, Header, Options, Players, Resume, ResumeError};
use crate::train::{self, TrainError, TrainRun};
use crate::types::{absorb, mix64};
use plan::Sizes;
use state::{GenerationResult, Phase, State};
use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// A game still going after this many plies is a draw (self-play's default).
pub const MAX_PLIES: u32 = 400;
/// Adjudication threshold in centipawns (self-play's default).
pub const ADJUDICATE_CP: i32 = 1000;
/// A net is trained on the data of this many generations, the newest last.
pub const DATA_GENERATIONS: u32 = 3;
/// How often the time spent is written to the state file during a phase.
const TIME_SAVE_SECONDS: f64 = 30.0;
/// The time budget when none is given: one hour.
pub const DEFAULT_BUDGET_SECONDS: f64 = 3600.0;

/// Why a run stopped with an error; each names the file and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    #[error("{file}: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
    #[error("{file}:{line}: {reason}")]
    State {
        file: String,
        line: usize,
        reason: String,
    },
    #[error(
        "{file}: the run there was started with other arguments (it has '{found}'; these \
         give '{expected}'): run with the same arguments, or use another --work directory"
    )]
    OtherArguments {
        file: String,
        found: String,
        expected: String,
    },
    #[error("{file}:{source}")]
    Data { file: String, source: ResumeError },
    #[error("{file}:{source}")]
    Match {
        file: String,
        source: MatchFileError,
    },
    #[error("{0}")]
    Train(#[from] TrainError),
    #[error("{0}")]
    Net(#[from] NetError),
}

/// What a run is asked to do. `None` sizes are derived ([`plan`]).
#[derive(Clone, Debug)]
pub struct Settings {
    pub rules: Arc<Ruleset>,
    /// The work directory.
    pub work: PathBuf,
    /// Where the best net is copied each time a candidate wins.
    pub out: PathBuf,
    /// Seconds to spend, over all runs of this work directory (`None`: until the
    /// generations are done, or an hour where none are given).
    pub budget_seconds: Option<f64>,
    /// Stop after this many generations in all.
    pub generations: Option<u32>,
    pub nodes: Option<u64>,
    pub games: Option<u64>,
    pub match_games: Option<u64>,
    pub hidden: Option<usize>,
    pub epochs: Option<u32>,
    pub seed: u64,
    /// Games played at once and training threads (0: every core).
    pub threads: usize,
    /// The command, for the net's provenance.
    pub command_line: String,
}

/// What a run reports as it goes.
pub enum Event {
    /// The status line: where the run is now.
    Status(Status),
    /// A finished phase, one line for the log.
    Line(String),
}

/// Where a run is, for the progress display.
#[derive(Clone, Debug, Default)]
pub struct Status {
    pub generation: u32,
    pub phase: &'static str,
    /// Games (or epochs) done and to do in the phase.
    pub done: u64,
    pub total: u64,
    pub positions: u64,
    pub loss: Option<f64>,
    pub tally: Option<Tally>,
    /// Seconds left of the budget (`None`: no budget).
    pub seconds_left: Option<f64>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The generations finished, over all runs.
    pub results: Vec<GenerationResult>,
    /// The best net (in the work directory), `None` when no candidate beat the
    /// hand-crafted evaluation.
    pub best: Option<PathBuf>,
    /// Whether `out` was written (some candidate won).
    pub wrote_out: bool,
    pub seconds: f64,
}

/// The fixed choices of a run, derived once from the settings and the variant.
struct Fixed {
    nodes: u64,
    hidden: usize,
    epochs: Option<u32>,
    random_plies: u32,
}

impl Fixed {
    fn new(s: &Settings) -> Fixed {
        Fixed {
            nodes: s.nodes.unwrap_or_else(|| plan::default_nodes(&s.rules)),
            hidden: s.hidden.unwrap_or_else(|| plan::default_hidden(&s.rules)),
            epochs: s.epochs,
            random_plies: plan::default_random_plies_for(&s.rules),
        }
    }

    /// The state file's `args` line: what the games and nets depend on.
    fn args(&self, s: &Settings) -> String {
        let given = |n: Option<u64>| n.map_or("auto".to_string(), |n| n.to_string());
        format!(
            "variant {} nodes {} hidden {} epochs {} seed {} random-plies {} games {} match-games {}",
            s.rules.variant.name,
            self.nodes,
            self.hidden,
            self.epochs.map_or("default".to_string(), |e| e.to_string()),
            s.seed,
            self.random_plies,
            given(s.games),
            given(s.match_games.map(|m| m.next_multiple_of(2)))
        )
    }

    /// The self-play options of generation `g`'s games with `players`.
    fn options(&self, seed: u64, players: Players) -> Options {
        Options {
            nodes: self.nodes,
            random_plies: self.random_plies,
            max_plies: MAX_PLIES,
            adjudicate_cp: ADJUDICATE_CP,
            seed,
            players,
        }
    }
}

/// The seed of generation `g`'s self-play openings (`salt` 0) or match openings
/// (`salt` 1), from the run's seed.
fn generation_seed(seed: u64, g: u32, salt: u64) -> u64 {
    mix64(absorb(absorb(mix64(seed), g as u64), salt)) >> 1
}

/// The work directory's file of generation `g`: `gen-G.EXT`.
fn gen_file(work: &Path, g: u32, ext: &str) -> PathBuf {
    work.join(format!("gen-{g}.{ext}"))
}

/// The state file of a work directory.
pub fn state_path(work: &Path) -> PathBuf {
    work.join("state.txt")
}

/// A run under way: the settings, its choices and its state.
struct Run<'a> {
    s: &'a Settings,
    fixed: Fixed,
    state: State,
    state_file: PathBuf,
    /// Since when this process's time is not yet in the state's seconds.
    phase_started: Instant,
    report: &'a mut (dyn FnMut(Event) + Send),
}

/// Run (or go on with) the learning run of `settings`, reporting to `report`.
pub fn learn(
    settings: &Settings,
    report: &mut (dyn FnMut(Event) + Send),
) -> Result<Outcome, LearnError> {
    let s = settings;
    std::fs::create_dir_all(&s.work).map_err(|source| LearnError::Io {
        file: s.work.display().to_string(),
        source,
    })?;
    let fixed = Fixed::new(s);
    let args = fixed.args(s);
    let state_file = state_path(&s.work);
    let state = match std::fs::read_to_string(&state_file) {
        Ok(text) => {
            let state = State::read(&state_file, &text)?;
            if state.args != args {
                return Err(LearnError::OtherArguments {
                    file: state_file.display().to_string(),
                    found: state.args,
                    expected: args,
                });
            }
            state
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => State::new(args),
        Err(source) => {
            return Err(LearnError::Io {
                file: state_file.display().to_string(),
                source,
            });
        }
    };
    let mut run = Run {
        s,
        fixed,
        state,
        state_file,
        phase_started: Instant::now(),
        report,
    };
    run.state.save(&run.state_file)?;
    run.go()
}

impl Run<'_> {
    /// Seconds spent, this phase included.
    fn spent(&self) -> f64 {
        self.state.seconds + self.phase_started.elapsed().as_secs_f64()
    }

    fn seconds_left(&self) -> Option<f64> {
        self.budget().map(|b| (b - self.spent()).max(0.0))
    }

    /// The time budget: given, or an hour where no generations are given either.
    fn budget(&self) -> Option<f64> {
        match (self.s.budget_seconds, self.s.generations) {
            (Some(b), _) => Some(b),
            (None, None) => Some(DEFAULT_BUDGET_SECONDS),
            (None, Some(_)) => None,
        }
    }

    fn status(&mut self, phase: &'static str, done: u64, total: u64, extra: Status) {
        self.count_time();
        let status = Status {
            generation: self.state.generation,
            phase,
            done,
            total,
            seconds_left: self.seconds_left(),
            ..extra
        };
        (self.report)(Event::Status(status));
    }

    /// Every [`TIME_SAVE_SECONDS`] during a phase, the time spent goes into the
    /// state file, so that a run stopped in a long phase does not forget it (the
    /// phase itself resumes from its own file). A failed write is not fatal here:
    /// the phase's end writes the state again and reports a failure.
    fn count_time(&mut self) {
        if self.phase_started.elapsed().as_secs_f64() >= TIME_SAVE_SECONDS {
            self.state.seconds = self.spent();
            self.phase_started = Instant::now();
            let _ = self.state.save(&self.state_file);
        }
    }

    fn line(&mut self, text: String) {
        (self.report)(Event::Line(text));
    }

    /// End the phase: count its time, move to `next`, save the state.
    fn finish_phase(&mut self, next: Phase) -> Result<(), LearnError> {
        self.state.seconds = self.spent();
        self.phase_started = Instant::now();
        self.state.phase = next;
        self.state.save(&self.state_file)
    }

    /// Whether to start generation `g` (the state's): not past the generations
    /// asked for, and time left for at least half a generation.
    fn start_another(&self) -> bool {
        let g = self.state.generation;
        if self.s.generations.is_some_and(|n| g > n) {
            return false;
        }
        let Some(budget) = self.budget() else {
            return true;
        };
        let spent = self.spent();
        if spent >= budget {
            return false;
        }
        // After the first generation the time of one is known roughly: start
        // another only if half of it fits.
        match (&self.state.sizes, self.state.results.first()) {
            (Some(sizes), Some(_)) if g > 1 => {
                let per_game = self.state.seconds / self.games_played().max(1) as f64;
                spent + 0.5 * plan::generation_seconds(sizes, per_game) <= budget
            }
            _ => true,
        }
    }

    /// Self-play and match games played in finished generations.
    fn games_played(&self) -> u64 {
        let matches = self.state.sizes.map_or(0, |s| s.match_games);
        self.state
            .results
            .iter()
            .map(|r| r.games + matches)
            .sum::<u64>()
    }

    fn go(&mut self) -> Result<Outcome, LearnError> {
        loop {
            if self.state.phase == Phase::Selfplay && !self.start_another() {
                break;
            }
            match self.state.phase {
                Phase::Selfplay => self.selfplay()?,
                Phase::Train => self.train()?,
                Phase::Match => self.play_match()?,
            }
        }
        let best = self.state.best.as_ref().map(|b| self.s.work.join(b));
        let wrote_out = best.is_some();
        Ok(Outcome {
            results: self.state.results.clone(),
            best,
            wrote_out,
            seconds: self.state.seconds,
        })
    }

    fn threads(&self) -> usize {
        match self.s.threads {
            0 => crate::search::max_threads(),
            t => t,
        }
    }

    /// The current best evaluation: `None` for the hand-crafted one.
    fn best_net(&self) -> Result<Option<Arc<Nnue>>, LearnError> {
        match &self.state.best {
            None => Ok(None),
            Some(name) => Ok(Some(Arc::new(Nnue::load(
                &self.s.work.join(name),
                &self.s.rules,
            )?))),
        }
    }

    /// The self-play games of the state's generation, into `gen-G.data`
    /// (continued where it stopped). Generation 1 times its first games to size
    /// the run when sizes are not given.
    fn selfplay(&mut self) -> Result<(), LearnError> {
        let g = self.state.generation;
        let path = gen_file(&self.s.work, g, "data");
        let best = self.best_net()?;
        let opts = self
            .fixed
            .options(generation_seed(self.s.seed, g, 0), Players::both(best));
        let header = Header::new(&self.s.rules.variant.name, &opts);
        let mut data = DataFile::open(&path, &header)?;
        if self.state.sizes.is_none() {
            // Time the next games of generation 1 (they are part of its data),
            // unless every size is given.
            let measured =
                (data.games + plan::MEASURED_GAMES).min(self.s.games.unwrap_or(u64::MAX));
            let need_measure = self.s.games.is_none() || self.s.match_games.is_none();
            let started = Instant::now();
            let before = data.games;
            if need_measure {
                self.play_into(&mut data, &opts, measured)?;
            }
            let per_game = match data.games - before {
                // Nothing to time (the games given are played already): a guess.
                0 => 1.0,
                n => started.elapsed().as_secs_f64() / n as f64,
            };
            let budget = self.budget().unwrap_or(DEFAULT_BUDGET_SECONDS);
            let generations = self
                .s
                .generations
                .unwrap_or_else(|| plan::planned_generations(budget));
            let sizes = plan::sizes(
                budget,
                per_game,
                generations,
                self.s.games,
                self.s.match_games,
            );
            self.state.sizes = Some(sizes);
            self.state.save(&self.state_file)?;
            if need_measure {
                self.line(format!(
                    "measured {:.2} s a game ({} games): {} games in generation 1, {} in \
                     each later one, {} match games, planned for {} generations",
                    per_game,
                    data.games - before,
                    sizes.first_games,
                    sizes.games,
                    sizes.match_games,
                    sizes.generations
                ));
            }
        }
        let sizes = self.sizes();
        let games = if g == 1 {
            sizes.first_games
        } else {
            sizes.games
        };
        self.play_into(&mut data, &opts, games)?;
        self.line(format!(
            "generation {g}: self-play {} games, {} positions ({}) in {}",
            data.games,
            data.positions,
            match &self.state.best {
                None => "hand-crafted evaluation".to_string(),
                Some(b) => b.clone(),
            },
            path.display()
        ));
        self.finish_phase(Phase::Train)
    }

    fn sizes(&self) -> Sizes {
        self.state.sizes.unwrap_or(Sizes {
            first_games: plan::MIN_GAMES,
            games: plan::MIN_GAMES,
            match_games: plan::MIN_MATCH_GAMES,
            generations: 1,
        })
    }

    /// Play `data`'s games up to `games` in all.
    fn play_into(
        &mut self,
        data: &mut DataFile,
        opts: &Options,
        games: u64,
    ) -> Result<(), LearnError> {
        if data.games >= games {
            return Ok(());
        }
        let rules = self.s.rules.clone();
        let threads = self.threads();
        let start = data.games;
        let file = data.path.display().to_string();
        let result = selfplay::generate(&rules, opts, start..games, threads, |game| {
            data.add(&game)?;
            let status = Status {
                positions: data.positions,
                ..Status::default()
            };
            self.status("selfplay", data.games, games, status);
            Ok::<(), std::io::Error>(())
        });
        result.map_err(|source| LearnError::Io { file, source })
    }

    /// Train generation G's net on the last generations' data (the checkpoint
    /// resumes a training cut short).
    fn train(&mut self) -> Result<(), LearnError> {
        let s = self.s;
        let g = self.state.generation;
        let first = g.saturating_sub(DATA_GENERATIONS - 1).max(1);
        let data: Vec<PathBuf> = (first..=g).map(|k| gen_file(&s.work, k, "data")).collect();
        let out = gen_file(&s.work, g, "nnue");
        let mut options = train::Options {
            hidden: self.fixed.hidden,
            seed: self.s.seed.wrapping_add(g as u64),
            threads: self.s.threads,
            mirror: plan::default_mirror(&s.rules),
            progress: false,
            ..Default::default()
        };
        if let Some(e) = self.fixed.epochs {
            options.epochs = e;
        }
        let command_line = format!("{} (generation {g})", s.command_line);
        let run = TrainRun {
            rules: &s.rules,
            data: &data,
            out: &out,
            options,
            command_line,
            note: None,
        };
        let summary = {
            let this = &mut *self;
            train::train(&run, &mut |p| {
                if let train::Progress::Epoch(r) = p {
                    let status = Status {
                        loss: Some(r.train_loss),
                        ..Status::default()
                    };
                    this.status("train", r.epoch as u64, r.epochs as u64, status);
                }
            })?
        };
        let loss = summary.losses.0;
        self.state.loss = Some(loss);
        self.line(format!(
            "generation {g}: trained {} on {} positions of generations {first}-{g}, loss {:.6}, held-out {}",
            out.display(),
            summary.data.train.len(),
            loss,
            train::held_out_text(summary.losses.1),
        ));
        self.finish_phase(Phase::Match)
    }

    /// The match of generation G's net against the best; keep or drop it.
    fn play_match(&mut self) -> Result<(), LearnError> {
        let g = self.state.generation;
        let candidate_file = gen_file(&self.s.work, g, "nnue");
        let candidate = Arc::new(Nnue::load(&candidate_file, &self.s.rules)?);
        let contestants = Contestants {
            candidate: Some(candidate),
            best: self.best_net()?,
        };
        let opts = self
            .fixed
            .options(generation_seed(self.s.seed, g, 1), Players::default());
        let header = match_header(&self.s.rules.variant.name, &opts, &contestants);
        let path = gen_file(&self.s.work, g, "match");
        let file_name = path.display().to_string();
        let io = |source| LearnError::Io {
            file: file_name.clone(),
            source,
        };
        let (mut file, text) = open_rw(&path).map_err(io)?;
        let resume = MatchResume::read(&text, &header).map_err(|source| LearnError::Match {
            file: file_name.clone(),
            source,
        })?;
        cut_to(&mut file, resume.keep_bytes as u64, &header).map_err(io)?;
        let total = self.sizes().match_games;
        let mut tally = resume.tally;
        if resume.games < total {
            let rules = self.s.rules.clone();
            let threads = self.threads();
            let mut writer = std::io::BufWriter::new(file);
            let played = play_match(
                &rules,
                &opts,
                &contestants,
                resume.games..total,
                threads,
                |game, points| {
                    writer.write_all(result_line(game, points).as_bytes())?;
                    writer.flush()?;
                    tally.add(points);
                    let status = Status {
                        tally: Some(tally),
                        ..Status::default()
                    };
                    self.status("match", tally.games(), total, status);
                    Ok::<(), std::io::Error>(())
                },
            );
            played.map_err(io)?;
        }
        let kept = tally.candidate_wins();
        let data = DataFile::open(
            &gen_file(&self.s.work, g, "data"),
            &Header::new(
                &self.s.rules.variant.name,
                &self.fixed.options(
                    generation_seed(self.s.seed, g, 0),
                    Players::both(self.best_net()?),
                ),
            ),
        )?;
        let loss = self.state.loss.unwrap_or(f64::NAN);
        let result = GenerationResult {
            generation: g,
            games: data.games,
            positions: data.positions,
            loss,
            tally,
            kept,
        };
        let against = self.state.best.clone().unwrap_or_else(|| "hce".into());
        self.line(format!("{} (against {against})", result.summary()));
        self.state.results.push(result);
        if kept {
            let name = format!("gen-{g}.nnue");
            self.write_out(&candidate_file)?;
            self.state.best = Some(name);
        }
        self.state.generation = g + 1;
        self.finish_phase(Phase::Selfplay)
    }

    /// Copy the new best net to `out`, its provenance naming the learn command,
    /// the seeds, the generations and their data and match results.
    fn write_out(&mut self, net_file: &Path) -> Result<(), LearnError> {
        let layout = Layout::new(&self.s.rules);
        let mut net = Net::load(net_file, &layout)?;
        let sizes = self.sizes();
        let mut text = format!(
            "{}\nmenagerie learn: generation {} of seed {}; nodes {}, hidden {}, random plies {}, \
             games {} (generation 1: {}), match games {}, {:.0} s so far",
            self.s.command_line,
            self.state.generation,
            self.s.seed,
            self.fixed.nodes,
            self.fixed.hidden,
            self.fixed.random_plies,
            sizes.games,
            sizes.first_games,
            sizes.match_games,
            self.spent()
        );
        for r in &self.state.results {
            text.push('\n');
            text.push_str(&r.summary());
        }
        text.push_str("\ntraining of this net:\n");
        text.push_str(&net.provenance);
        net.provenance = text;
        net.save(&self.s.out)?;
        self.line(format!(
            "wrote {} (generation {})",
            self.s.out.display(),
            self.state.generation
        ));
        Ok(())
    }
}

/// Open `path` for reading and writing (created if missing), with its text.
fn open_rw(path: &Path) -> std::io::Result<(std::fs::File, String)> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    let mut text = String::new();
    file.read_to_string(&mut text)?;
    Ok((file, text))
}

/// Cut `file` after its complete part (`keep` bytes), writing `header` into an
/// empty one, and leave the cursor at the end.
fn cut_to(file: &mut std::fs::File, keep: u64, header: &str) -> std::io::Result<()> {
    file.set_len(keep)?;
    file.seek(SeekFrom::End(0))?;
    if keep == 0 {
        writeln!(file, "{header}")?;
    }
    Ok(())
}

/// A self-play data file being continued: its complete games and positions.
struct DataFile {
    path: PathBuf,
    writer: std::io::BufWriter<std::fs::File>,
    games: u64,
    positions: u64,
}

impl DataFile {
    /// Open (or create) `path` for games of `header`, cut after its last complete
    /// game.
    fn open(path: &Path, header: &Header) -> Result<DataFile, LearnError> {
        let file_name = path.display().to_string();
        let io = |source| LearnError::Io {
            file: file_name.clone(),
            source,
        };
        let (mut file, text) = open_rw(path).map_err(io)?;
        let resume = Resume::read(&text, header).map_err(|source| LearnError::Data {
            file: file_name.clone(),
            source,
        })?;
        let positions = text[..resume.keep_bytes]
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .count() as u64;
        cut_to(&mut file, resume.keep_bytes as u64, &header.0).map_err(io)?;
        Ok(DataFile {
            path: path.to_path_buf(),
            writer: std::io::BufWriter::new(file),
            games: resume.games,
            positions,
        })
    }

    /// Append a finished game, whole, before the next.
    fn add(&mut self, game: &selfplay::Game) -> std::io::Result<()> {
        self.writer
            .write_all(selfplay::file::game_text(game).as_bytes())?;
        self.writer.flush()?;
        self.games += 1;
        self.positions += game.kept.len() as u64;
        Ok(())
    }
}
