//! `menagerie learn`: teach the engine a variant in one command. The arguments,
//! the progress line and the closing advice are here; [`crate::learn`] runs the
//! generations.

use super::variants::load_rules;
use super::{Outcome, fail};
use crate::eval::tune::command_line;
use crate::learn::{self, Event, Settings, Status, state_path};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};

const LEARN_HELP: &str = "\
Each generation plays self-play games with the current best evaluation (the hand-crafted
one first), trains a new net on the last 3 generations' data and plays it against the
current best (paired openings, both sides the same nodes a move); the net is kept when it
scores above 50 % by at least one standard error, and then copied to --out. The work
directory (default: --out's name with the extension .learn) holds state.txt and each
generation's gen-N.data, gen-N.nnue and gen-N.match. Stopped at any moment (Ctrl-C), the
same command goes on from there; --hours/--minutes count over all runs. Sizes not given
follow from the variant and the time (docs/learn.md).";

#[derive(Args)]
#[command(after_help = LEARN_HELP)]
pub struct LearnArgs {
    /// The variant to learn.
    #[arg(long)]
    variant: String,
    /// Extra variant files (loaded after the built-in ones).
    #[arg(long = "variants")]
    variants: Vec<PathBuf>,
    /// Time to spend in hours, over all runs of the work directory (default: one
    /// hour, or until --generations are done where those are given).
    #[arg(long, conflicts_with = "minutes")]
    hours: Option<f64>,
    /// Time to spend in minutes (instead of --hours).
    #[arg(long)]
    minutes: Option<f64>,
    /// The net to write (default: VARIANT.nnue in the current directory).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The work directory (default: --out with the extension .learn).
    #[arg(long)]
    work: Option<PathBuf>,
    /// Stop after this many generations in all.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    generations: Option<u32>,
    /// Nodes searched for each move of self-play and matches (default: 1000, fewer on
    /// boards over 64 squares).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Self-play games per generation (default: from the time and a measured speed).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Match games per generation, made even (default: from the time).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    match_games: Option<u64>,
    /// The net's accumulator width (default: 64 under 64 squares, 128, or 256 on large
    /// boards with many piece types).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hidden: Option<u64>,
    /// Training epochs per generation (default: the trainer's).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    epochs: Option<u32>,
    /// Seeds the openings, the nets' initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once and training threads (default: every core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

pub fn run(args: LearnArgs) -> Outcome {
    let rules = load_rules(&args.variants, &args.variant)?;
    let name = rules.variant.name.clone();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{name}.nnue")));
    let work = args
        .work
        .clone()
        .unwrap_or_else(|| out.with_extension("learn"));
    let budget = match (args.hours, args.minutes) {
        (Some(h), _) => Some(h * 3600.0),
        (_, Some(m)) => Some(m * 60.0),
        _ => None,
    };
    if let Some(b) = budget
        && !(b.is_finite() && b > 0.0)
    {
        return Err(fail("--hours or --minutes must be a positive number"));
    }
    let settings = Settings {
        rules: rules.clone(),
        work: work.clone(),
        out: out.clone(),
        budget_seconds: budget,
        generations: args.generations,
        nodes: args.nodes,
        games: args.games,
        match_games: args.match_games,
        hidden: args.hidden.map(|h| h as usize),
        epochs: args.epochs,
        seed: args.seed,
        threads: args.threads,
        command_line: command_line(std::env::args().skip(1)),
    };
    out!(
        "learning {name}: work directory {} (state {}), net {}",
        work.display(),
        state_path(&work).display(),
        out.display()
    );
    let bar = status_bar();
    let outcome = learn::learn(&settings, &mut |event| match event {
        Event::Status(s) => bar.set_message(status_text(&s)),
        Event::Line(line) => bar.suspend(|| out!("{line}")),
    });
    bar.finish_and_clear();
    let outcome = outcome.map_err(fail)?;
    let generations = outcome.results.len();
    out!(
        "{generations} generations in {:.0} s in all",
        outcome.seconds
    );
    match &outcome.best {
        None => {
            out!(
                "no net beat the hand-crafted evaluation: {} not written (the candidates \
                 stay in {})",
                out.display(),
                work.display()
            );
        }
        Some(_) => {
            out!("the best net is {}", out.display());
            let v = &rules.variant;
            if v.is_builtin() {
                out!(
                    "{name} is built in: play with it through the EvalFile option (e.g. \
                     `setoption name EvalFile value {}`)",
                    out.display()
                );
            } else {
                out!(
                    "to play with it, add this line to the [{name}] section of {}: nnue = {}",
                    v.source,
                    key_value(Path::new(&v.source), &out)
                );
            }
        }
    }
    Ok(())
}

/// The `nnue` key's value for the net at `net`: relative to the variants file's
/// folder where the net is inside it, else the net's full path.
fn key_value(variants_file: &Path, net: &Path) -> String {
    let full = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let net = full(net);
    let dir = variants_file.parent().map(full);
    match dir.as_deref().and_then(|d| net.strip_prefix(d).ok()) {
        Some(rel) => rel.display().to_string(),
        None => net.display().to_string(),
    }
}

/// The status line on stderr (drawn only when stderr is a terminal).
fn status_bar() -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    bar
}

/// `generation 2 match 12/40 | 5230 positions | loss 0.0312 | +5 -3 =4 0.583 | 1h12m left`.
fn status_text(s: &Status) -> String {
    let mut parts = vec![format!(
        "generation {} {} {}/{}",
        s.generation, s.phase, s.done, s.total
    )];
    if s.positions > 0 {
        parts.push(format!("{} positions", s.positions));
    }
    if let Some(loss) = s.loss {
        parts.push(format!("loss {loss:.6}"));
    }
    if let Some(t) = &s.tally {
        parts.push(format!(
            "+{} -{} ={} score {:.3}",
            t.wins,
            t.losses,
            t.draws,
            t.score()
        ));
    }
    if let Some(left) = s.seconds_left {
        let m = (left / 60.0).round() as u64;
        parts.push(format!("{}h{:02}m left", m / 60, m % 60));
    }
    parts.join(" | ")
}
