//! The `menagerie tune` command's work, as a library function: read the data,
//! pick the starting weights, fit them (or only time the evaluation), measure
//! the lazy margin and write the weights file with a header that says how it was
//! made. The command line parses the arguments, loads the variant and prints.

use super::{Data, Options, fit, measure_lazy_margin};
use crate::board::{Position, Ruleset};
use crate::eval::Evaluator;
use crate::eval::basis::Basis;
use crate::eval::params::{Params, global_slot};
use crate::eval::terms::GlobalTerm;
use crate::eval::weights::Weights;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// What `menagerie tune` is asked to do (the command's options but the variant,
/// which the caller loads).
#[derive(Clone, Debug)]
pub struct TuneRun {
    /// Labelled positions, lines `FEN;SCORE;RESULT;BESTMOVE` (tools/make_tuning_data.py).
    pub data: PathBuf,
    /// The weights file to write (none: only report).
    pub out: Option<PathBuf>,
    /// The command that made the data, recorded in the weights file's header.
    pub data_command: Option<String>,
    /// The fit's settings: lambda, epochs, rate, pull, holdout.
    pub fit: Options,
    /// Start from the generic weights instead of the variant's weights file.
    pub generic: bool,
    /// Start from this weights file (over the generic weights) instead.
    pub start: Option<PathBuf>,
    /// Only time the evaluation on the data's positions and measure the lazy margin.
    pub speed: bool,
    /// Positions on which the lazy margin is measured instead of the data's.
    pub margin_data: Option<PathBuf>,
    /// The lazy margin is this percentile of what the evaluation's costly part adds.
    pub margin_percentile: f64,
    /// The command line as typed, for the header (`menagerie` and its arguments
    /// after it).
    pub command_line: String,
}

/// Why a tune run failed.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    #[error("--margin-percentile {0}: a percentile is between 0 and 100")]
    Percentile(f64),
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
    /// A starting weights file with an error (its first, with file and line).
    #[error("{0}")]
    StartWeights(String),
    #[error("{0}: no readable positions")]
    NoPositions(String),
    #[error("no quiet positions to fit")]
    NoQuietPositions,
    /// The report could not be written (a closed pipe): the caller ends quietly.
    #[error("output closed: {0}")]
    Output(std::io::Error),
}

/// Run `run` for `rules`' variant: report lines (the fit's summary, or the speed
/// and margin measurement) go to `report`, progress lines (data counts, unreadable
/// lines, every hundredth step, the time, the file written) to `progress`, whose
/// write errors are ignored.
pub fn run_tune(
    rules: &Arc<Ruleset>,
    run: &TuneRun,
    report: &mut dyn Write,
    progress: &mut dyn Write,
) -> Result<(), TuneError> {
    let percentile = run.margin_percentile;
    if !(0.0..=100.0).contains(&percentile) {
        return Err(TuneError::Percentile(percentile));
    }
    let text = read(&run.data)?;
    let basis = Basis::new(rules);
    let start = if let Some(path) = &run.start {
        let file = path.display().to_string();
        let (weights, errors) = Weights::parse(&file, &read(path)?, &rules.variant);
        if let Some(e) = errors.first() {
            return Err(TuneError::StartWeights(e.to_string()));
        }
        Params::over_generic(rules, &basis, Some(&weights))
    } else if run.generic {
        Params::generic(rules, &basis)
    } else {
        Params::for_variant(rules, &basis)
    };
    // Traced with the starting weights: the parts the trace records as they are
    // (the endgame scale) must be the ones the fit starts from.
    let eval = Evaluator::with_params(rules, basis, start.clone());
    let positions = read_positions(rules, &text);
    let margin_data = match &run.margin_data {
        Some(path) => {
            let positions = read_positions(rules, &read(path)?);
            if positions.is_empty() {
                return Err(TuneError::NoPositions(path.display().to_string()));
            }
            Some(positions)
        }
        None => None,
    };
    let margin_positions = margin_data.as_deref().unwrap_or(&positions);
    let margin_source = run
        .margin_data
        .as_ref()
        .map_or("its positions".to_string(), |p| p.display().to_string());
    let mut say = |line: String| writeln!(report, "{line}").map_err(TuneError::Output);
    if run.speed {
        let mut sum = 0i64;
        let started = Instant::now();
        let rounds = (2_000_000 / positions.len().max(1)).max(1);
        for _ in 0..rounds {
            for p in &positions {
                sum += eval.evaluate(p) as i64;
            }
        }
        let calls = (rounds * positions.len()) as f64;
        say(format!(
            "{} positions, {:.0} ns per evaluation (checksum {sum})",
            positions.len(),
            started.elapsed().as_secs_f64() * 1e9 / calls
        ))?;
        return say(format!(
            "lazy margin: {} in use, {} measured at percentile {percentile} on {} ({} positions)",
            eval.lazy_margin(),
            measure_lazy_margin(&eval, margin_positions, percentile),
            margin_source,
            margin_positions.len()
        ));
    }
    let file = run.data.display().to_string();
    let mut data = Data::read(&eval, &file, &text, run.fit.holdout);
    for e in &data.errors {
        let _ = writeln!(progress, "warning: {e}");
    }
    let _ = writeln!(
        progress,
        "{} lines, {} games: {} quiet positions, {} not quiet, {} unreadable",
        data.lines,
        data.games,
        data.samples.len(),
        data.noisy,
        data.bad
    );
    if data.samples.is_empty() {
        return Err(TuneError::NoQuietPositions);
    }
    let started = Instant::now();
    let (mut params, fitted) = fit(&start, &mut data, &run.fit, |step, err| {
        let _ = writeln!(progress, "step {step:5}: training error {err:.6}");
    });
    // The lazy margin is measured with the fitted weights.
    let fitted_eval = Evaluator::with_params(rules, Basis::new(rules), params.clone());
    let margin = measure_lazy_margin(&fitted_eval, margin_positions, percentile);
    params.w[global_slot(params.n, GlobalTerm::LazyMargin)] = [margin, margin];
    let opts = &run.fit;
    let summary = vec![
        format!(
            "positions: {} quiet of {} lines ({} games); fitted on {}, {} held out (one game in {})",
            data.samples.len(),
            data.lines,
            data.games,
            fitted.train,
            fitted.held_out,
            opts.holdout
        ),
        format!(
            "label = {} * result + {} * sigmoid(score / {:.1}); eval scale K = {:.1}",
            opts.lambda,
            1.0 - opts.lambda,
            fitted.score_scale,
            fitted.eval_scale
        ),
        format!(
            "mean squared error, fitted / held out: before {:.6} / {:.6}, after {:.6} / {:.6}",
            fitted.before.0, fitted.before.1, fitted.after.0, fitted.after.1
        ),
        format!(
            "lazy margin {margin}: percentile {percentile}, on {margin_source}, of what the terms after the lazy exit add"
        ),
    ];
    for l in &summary {
        say(l.clone())?;
    }
    let _ = writeln!(progress, "time {:.1} s", started.elapsed().as_secs_f64());
    if let Some(out) = &run.out {
        let mut header = vec![
            format!(
                "Evaluation weights for {} (format: src/eval/terms.rs).",
                rules.variant.name
            ),
            String::new(),
            "Made by:".to_string(),
        ];
        if let Some(d) = &run.data_command {
            header.push(format!("  {d}"));
        }
        header.push(format!("  {}", run.command_line));
        header.push(String::new());
        header.extend(summary);
        let weights = params.to_weights(&out.display().to_string());
        let text = weights.to_text(&rules.variant, &header);
        std::fs::write(out, text).map_err(|source| TuneError::Write {
            path: out.display().to_string(),
            source,
        })?;
        let _ = writeln!(progress, "wrote {}", out.display());
    }
    Ok(())
}

/// The command line as typed in a shell, for a weights file's header: `menagerie`
/// and the arguments, those with spaces or quotes quoted.
pub fn command_line(args: impl IntoIterator<Item = String>) -> String {
    let quoted: Vec<String> = args
        .into_iter()
        .map(|a| {
            if a.contains([' ', '"', '$']) {
                format!("'{a}'")
            } else {
                a
            }
        })
        .collect();
    format!("menagerie {}", quoted.join(" "))
}

fn read(path: &Path) -> Result<String, TuneError> {
    std::fs::read_to_string(path).map_err(|source| TuneError::Read {
        path: path.display().to_string(),
        source,
    })
}

/// Every readable position of a data file (lines starting with a FEN), noisy ones
/// included: for timing and for the lazy margin, since the search evaluates those
/// too.
fn read_positions(rules: &Arc<Ruleset>, text: &str) -> Vec<Position> {
    text.lines()
        .filter_map(|l| Position::from_fen(rules, l.split(';').next()?.trim()).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin_rules;

    fn run_for(data: &Path, percentile: f64) -> TuneRun {
        TuneRun {
            data: data.to_path_buf(),
            out: None,
            data_command: None,
            fit: Options {
                epochs: 0,
                ..Options::default()
            },
            generic: false,
            start: None,
            speed: false,
            margin_data: None,
            margin_percentile: percentile,
            command_line: command_line(["tune".to_string(), "--data".to_string()]),
        }
    }

    /// The summary goes to the report, the unreadable lines and the counts to
    /// the progress; a percentile outside 0-100 and a missing file are typed
    /// errors, before any work.
    #[test]
    fn a_run_reports_its_fit_and_refuses_bad_options() {
        let rules = builtin_rules("chess");
        let dir = std::env::temp_dir().join(format!("menagerie-run-tune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let data = dir.join("t.data");
        std::fs::write(
            &data,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;-30;0.5;e7e5\n\
             bad line\n\
             rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2;10;0.5;g1f3\n",
        )
        .expect("write data");
        let (mut report, mut progress) = (Vec::new(), Vec::new());
        let result = run_tune(&rules, &run_for(&data, 99.0), &mut report, &mut progress);
        let (report, progress) = (
            String::from_utf8(report).expect("utf-8"),
            String::from_utf8(progress).expect("utf-8"),
        );
        let missing = run_tune(
            &rules,
            &run_for(&dir.join("none.data"), 99.0),
            &mut Vec::new(),
            &mut Vec::new(),
        );
        let _ = std::fs::remove_dir_all(&dir);
        assert!(result.is_ok(), "{result:?}");
        assert!(
            report.starts_with("positions: 2 quiet of 3 lines (1 games)"),
            "{report}"
        );
        assert_eq!(report.lines().count(), 4, "{report}");
        let file = data.display();
        assert!(
            progress.starts_with(&format!(
                "warning: {file}:2: expected FEN;SCORE;RESULT;BESTMOVE\n\
                 3 lines, 1 games: 2 quiet positions, 0 not quiet, 1 unreadable\n"
            )),
            "{progress}"
        );
        assert!(matches!(missing, Err(TuneError::Read { .. })));
        let bad = run_tune(
            &rules,
            &run_for(&data, 101.0),
            &mut Vec::new(),
            &mut Vec::new(),
        );
        assert_eq!(
            bad.map_err(|e| e.to_string()),
            Err("--margin-percentile 101: a percentile is between 0 and 100".to_string())
        );
    }
}
