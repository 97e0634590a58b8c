//! `menagerie tune`: Texel tuning of a variant's evaluation weights
//! ([`crate::eval::tune`] does the fitting). Moved here from main.rs as it was; its
//! data reading, margin measurement and header writing are to move into eval::tune.

use super::variants::load_rules;
use super::{Outcome, fail};
use crate::board::Position;
use crate::variant::weights::Weights;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct TuneArgs {
    #[arg(long)]
    variant: String,
    /// Labelled positions, lines `FEN;SCORE;RESULT;BESTMOVE` (tools/make_tuning_data.py).
    #[arg(long)]
    data: PathBuf,
    /// The weights file to write (default: only report).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The command that made the data, recorded in the weights file's header.
    #[arg(long)]
    data_command: Option<String>,
    /// Weight of the game result in the label; the search score has the rest.
    #[arg(long, default_value_t = 0.2)]
    lambda: f64,
    /// Gradient steps (0: only measure the current weights).
    #[arg(long, default_value_t = 2000)]
    epochs: usize,
    /// Step size, in hundredths of each weight's size.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Pull towards the starting weights.
    #[arg(long, default_value_t = 1e-5)]
    pull: f64,
    /// Hold out one game in this many.
    #[arg(long, default_value_t = 10)]
    holdout: u32,
    /// Start from the generic weights instead of the variant's weights file.
    #[arg(long)]
    generic: bool,
    /// Start from this weights file (over the generic weights) instead of the
    /// variant's own.
    #[arg(long, conflicts_with = "generic")]
    start: Option<PathBuf>,
    /// Only time the evaluation on the data's positions (nanoseconds per call), and
    /// measure the lazy margin there.
    #[arg(long)]
    speed: bool,
    /// Positions (lines starting with a FEN) on which the lazy margin is measured,
    /// instead of the data's: those of real games (tools/pgn_positions.py), whose
    /// king danger may run larger than in self-play.
    #[arg(long)]
    margin_data: Option<PathBuf>,
    /// The lazy margin is this percentile of what the evaluation's costly part adds.
    #[arg(long, default_value_t = 99.0)]
    margin_percentile: f64,
    /// Extra variant files (loaded after the built-in ones).
    #[arg(long = "variants")]
    variants: Vec<PathBuf>,
}

pub fn tune_command(args: TuneArgs) -> Outcome {
    use crate::eval::Evaluator;
    use crate::eval::basis::Basis;
    use crate::eval::params::{Params, global_slot};
    use crate::eval::tune::{self, Data, Options};
    use crate::variant::weights::GlobalTerm;
    let percentile = args.margin_percentile;
    if !(0.0..=100.0).contains(&percentile) {
        return Err(fail(format!(
            "--margin-percentile {percentile}: a percentile is between 0 and 100"
        )));
    }
    let rules = load_rules(&args.variants, &args.variant)?;
    let text = std::fs::read_to_string(&args.data)
        .map_err(|e| fail(format!("cannot read {}: {e}", args.data.display())))?;
    let basis = Basis::new(&rules);
    let start = if let Some(path) = &args.start {
        let file = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|e| fail(format!("cannot read {file}: {e}")))?;
        let (weights, errors) = Weights::parse(&file, &text, &rules.variant);
        if let Some(e) = errors.first() {
            return Err(fail(e.to_string()));
        }
        Params::over_generic(&rules, &basis, Some(&weights))
    } else if args.generic {
        Params::generic(&rules, &basis)
    } else {
        Params::for_variant(&rules, &basis)
    };
    // Traced with the starting weights: the parts the trace records as they are
    // (the endgame scale) must be the ones the fit starts from.
    let eval = Evaluator::with_params(&rules, basis, start.clone());
    let file = args.data.display().to_string();
    // Every readable position, noisy ones included (for timing and for the lazy
    // margin: the search evaluates those too).
    let read_positions = |text: &str| -> Vec<Position> {
        text.lines()
            .filter_map(|l| Position::from_fen(&rules, l.split(';').next()?.trim()).ok())
            .collect()
    };
    let positions = read_positions(&text);
    let margin_data = match &args.margin_data {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| fail(format!("cannot read {}: {e}", path.display())))?;
            let positions = read_positions(&text);
            if positions.is_empty() {
                return Err(fail(format!("{}: no readable positions", path.display())));
            }
            Some(positions)
        }
        None => None,
    };
    let margin_positions = margin_data.as_deref().unwrap_or(&positions);
    let margin_source = args
        .margin_data
        .as_ref()
        .map_or("its positions".to_string(), |p| p.display().to_string());
    if args.speed {
        let mut sum = 0i64;
        let started = Instant::now();
        let rounds = (2_000_000 / positions.len().max(1)).max(1);
        for _ in 0..rounds {
            for p in &positions {
                sum += eval.evaluate(p) as i64;
            }
        }
        let calls = (rounds * positions.len()) as f64;
        out!(
            "{} positions, {:.0} ns per evaluation (checksum {sum})",
            positions.len(),
            started.elapsed().as_secs_f64() * 1e9 / calls
        );
        out!(
            "lazy margin: {} in use, {} measured at percentile {percentile} on {} ({} positions)",
            eval.lazy_margin(),
            tune::measure_lazy_margin(&eval, margin_positions, percentile),
            margin_source,
            margin_positions.len()
        );
        return Ok(());
    }
    let mut data = Data::read(&eval, &file, &text, args.holdout);
    for e in &data.errors {
        err!("warning: {e}");
    }
    err!(
        "{} lines, {} games: {} quiet positions, {} not quiet, {} unreadable",
        data.lines,
        data.games,
        data.samples.len(),
        data.noisy,
        data.bad
    );
    if data.samples.is_empty() {
        return Err(fail("no quiet positions to fit"));
    }
    let opts = Options {
        lambda: args.lambda,
        epochs: args.epochs,
        rate: args.rate,
        pull: args.pull,
        holdout: args.holdout,
    };
    let started = Instant::now();
    let (mut params, report) = tune::fit(&start, &mut data, &opts, |step, err| {
        err!("step {step:5}: training error {err:.6}");
    });
    // The lazy margin is measured with the fitted weights.
    let fitted = Evaluator::with_params(&rules, Basis::new(&rules), params.clone());
    let margin = tune::measure_lazy_margin(&fitted, margin_positions, percentile);
    params.w[global_slot(params.n, GlobalTerm::LazyMargin)] = [margin, margin];
    let summary = vec![
        format!(
            "positions: {} quiet of {} lines ({} games); fitted on {}, {} held out (one game in {})",
            data.samples.len(),
            data.lines,
            data.games,
            report.train,
            report.held_out,
            args.holdout
        ),
        format!(
            "label = {} * result + {} * sigmoid(score / {:.1}); eval scale K = {:.1}",
            args.lambda,
            1.0 - args.lambda,
            report.score_scale,
            report.eval_scale
        ),
        format!(
            "mean squared error, fitted / held out: before {:.6} / {:.6}, after {:.6} / {:.6}",
            report.before.0, report.before.1, report.after.0, report.after.1
        ),
        format!(
            "lazy margin {margin}: percentile {percentile}, on {margin_source}, of what the terms after the lazy exit add"
        ),
    ];
    for l in &summary {
        out!("{l}");
    }
    err!("time {:.1} s", started.elapsed().as_secs_f64());
    if let Some(out) = &args.out {
        // As typed in a shell: arguments with spaces quoted.
        let command_line: Vec<String> = std::env::args()
            .skip(1)
            .map(|a| {
                if a.contains([' ', '"', '$']) {
                    format!("'{a}'")
                } else {
                    a
                }
            })
            .collect();
        let mut header = vec![
            format!(
                "Evaluation weights for {} (format: src/variant/weights.rs).",
                args.variant
            ),
            String::new(),
            "Made by:".to_string(),
        ];
        if let Some(d) = &args.data_command {
            header.push(format!("  {d}"));
        }
        header.push(format!("  menagerie {}", command_line.join(" ")));
        header.push(String::new());
        header.extend(summary);
        let weights = params.to_weights(&out.display().to_string());
        let text = weights.to_text(&rules.variant, &header);
        std::fs::write(out, text)
            .map_err(|e| fail(format!("cannot write {}: {e}", out.display())))?;
        err!("wrote {}", out.display());
    }
    Ok(())
}
