//! Training positions, read once into a compact form: per position the active
//! inputs of both perspectives (the side to move's first), its output bucket,
//! its score and result from the side to move's view. Epochs then never parse a
//! FEN again.
//!
//! The files are labelled positions ([`crate::movegen::labelled`]: the lines
//! `menagerie selfplay` writes and `menagerie tune` reads); as for tuning, only
//! quiet positions are kept. The held-out positions keep the hand-crafted
//! evaluation's score too, the baseline a net has to beat.

use super::TrainError;
use crate::board::{Position, Ruleset};
use crate::eval::Evaluator;
use crate::movegen::labelled::{GameCounter, parse_line};
use crate::nnue::Layout;
use crate::types::{Color, absorb, mix64};
use std::path::Path;
use std::sync::Arc;

/// One position as the trainer uses it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Where its inputs start in [`Dataset::features`].
    pub start: u32,
    /// How many of them belong to the side to move's perspective (the rest, up to
    /// the next sample's start, to the other side's).
    pub own: u16,
    pub other: u16,
    pub stm: Color,
    pub bucket: u8,
    /// Centipawns, the side to move's view.
    pub score: f32,
    /// The game's result for the side to move (1 win, 0.5 draw, 0 loss).
    pub result: f32,
}

/// What one data file gave.
#[derive(Clone, Debug, PartialEq)]
pub struct FileCount {
    pub file: String,
    /// Positions kept (quiet), and positions left out as not quiet.
    pub kept: usize,
    pub noisy: usize,
    /// Where the labels came from: the file's first `# menagerie` line (the
    /// header of `selfplay` or of `rescore`, which names the teacher), if any.
    pub labels: Option<String>,
}

/// Every kept position of the data files, split into training and held-out sets.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// The active inputs of all samples, one after another.
    pub features: Vec<u32>,
    pub train: Vec<Sample>,
    pub held_out: Vec<Sample>,
    /// Per held-out position, the hand-crafted static evaluation (centipawns,
    /// the side to move's view).
    pub held_out_hand_crafted: Vec<f32>,
    pub files: Vec<FileCount>,
    pub games: u32,
}

/// Which output bucket `pieces` pieces on the board fall in: the engine's rule
/// (`Net::bucket`), written here for a net that does not exist yet.
pub fn bucket_of(layout: &Layout, buckets: usize, pieces: u32) -> usize {
    (pieces as usize * buckets / (layout.start_pieces() as usize + 1)).min(buckets - 1)
}

/// Whether game `game` is held out: one in `holdout`, chosen by a hash of the
/// seed and the game's number (whole games, so that near-identical positions of
/// one game do not sit on both sides).
pub fn is_held_out(seed: u64, holdout: u32, game: u32) -> bool {
    holdout > 0 && mix64(absorb(absorb(0x4F1D, seed), game as u64)).is_multiple_of(holdout as u64)
}

/// What a reader needs besides the text.
pub struct ReadSettings<'a> {
    pub rules: &'a Arc<Ruleset>,
    pub layout: &'a Layout,
    pub buckets: usize,
    pub holdout: u32,
    pub seed: u64,
    /// The variant's hand-crafted evaluation, for the held-out baseline.
    pub hand_crafted: &'a Evaluator,
    /// Also train on each training position mirrored left to right (files
    /// reversed), with the same labels; held-out positions are never mirrored.
    pub mirror: bool,
}

impl Dataset {
    /// Read the files in order (a game never spans two files).
    pub fn read_files(files: &[impl AsRef<Path>], s: &ReadSettings) -> Result<Dataset, TrainError> {
        let mut data = Dataset::default();
        for f in files {
            let path = f.as_ref();
            let name = path.display().to_string();
            let text = std::fs::read_to_string(path).map_err(|source| TrainError::Io {
                file: name.clone(),
                source,
            })?;
            data.add_text(&name, &text, s)?;
        }
        Ok(data)
    }

    /// Add the positions of `text`, the contents of `file`. A game ends at a
    /// `# game` marker line, where the move number goes back, or where the result
    /// changes (files without markers).
    pub fn add_text(&mut self, file: &str, text: &str, s: &ReadSettings) -> Result<(), TrainError> {
        let mut count = FileCount {
            file: file.to_string(),
            kept: 0,
            noisy: 0,
            labels: None,
        };
        let mut games = GameCounter::after(self.games);
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.starts_with("# game") {
                games.marker();
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                if count.labels.is_none() && line.starts_with("# menagerie") {
                    count.labels = Some(line.trim_start_matches("# ").to_string());
                }
                continue;
            }
            let read = parse_line(s.rules, line).map_err(|problem| TrainError::Line {
                file: file.to_string(),
                line: i + 1,
                problem,
            })?;
            let game = games.position(&read);
            if !read.quiet {
                count.noisy += 1;
                continue;
            }
            let sample = self.push_features(
                &read.position,
                read.score as f32,
                read.result_white as f32,
                s,
            )?;
            if is_held_out(s.seed, s.holdout, game) {
                self.held_out.push(sample);
                let cp = s.hand_crafted.evaluate(&read.position);
                self.held_out_hand_crafted.push(cp as f32);
            } else {
                self.train.push(sample);
                if s.mirror {
                    let mirrored = self.push_mirrored(&sample, s.layout)?;
                    self.train.push(mirrored);
                }
            }
            count.kept += 1;
        }
        self.games = games.games();
        self.files.push(count);
        Ok(())
    }

    fn push_features(
        &mut self,
        pos: &Position,
        score: f32,
        result_white: f32,
        s: &ReadSettings,
    ) -> Result<Sample, TrainError> {
        let start = self.features.len();
        let stm = pos.side_to_move();
        let features = &mut self.features;
        s.layout
            .for_each_active(pos, stm, |i| features.push(i as u32));
        let own = features.len() - start;
        s.layout
            .for_each_active(pos, stm.flip(), |i| features.push(i as u32));
        let other = features.len() - start - own;
        let start = u32::try_from(start).map_err(|_| TrainError::TooMuchData)?;
        let bucket = bucket_of(s.layout, s.buckets, pos.occupied().count()) as u8;
        Ok(Sample {
            start,
            own: own as u16,
            other: other as u16,
            stm,
            bucket,
            score,
            result: if stm == Color::White {
                result_white
            } else {
                1.0 - result_white
            },
        })
    }

    /// A copy of `sample` on the board mirrored left to right: its inputs
    /// mirrored one by one, its labels the same.
    fn push_mirrored(&mut self, sample: &Sample, layout: &Layout) -> Result<Sample, TrainError> {
        let start = self.features.len();
        let (a, n) = (
            sample.start as usize,
            sample.own as usize + sample.other as usize,
        );
        for k in a..a + n {
            let i = self.features[k] as usize;
            self.features.push(layout.mirror_input(i) as u32);
        }
        let start = u32::try_from(start).map_err(|_| TrainError::TooMuchData)?;
        Ok(Sample { start, ..*sample })
    }

    /// The inputs of `s`: the side to move's perspective, then the other's.
    #[inline]
    pub fn inputs(&self, s: &Sample) -> (&[u32], &[u32]) {
        let a = s.start as usize;
        let b = a + s.own as usize;
        (
            &self.features[a..b],
            &self.features[b..b + s.other as usize],
        )
    }

    /// All positions kept, training and held out.
    pub fn len(&self) -> usize {
        self.train.len() + self.held_out.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
