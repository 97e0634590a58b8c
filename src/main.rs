//! The `menagerie` command: protocol mode without arguments, or a subcommand.

mod protocol;

use clap::{Args, Parser, Subcommand};
use menagerie::board::fen::FenError;
use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::book::{self, build::BuildOptions};
use menagerie::movegen::bench_piece::piece_targets;
use menagerie::movegen::{notation, perft, perft_divide};
use menagerie::search::Score;
use menagerie::search::bench::{self, BenchSpec};
use menagerie::types::RankNumbering;
use menagerie::variant::weights::Weights;
use menagerie::variant::{UnknownVariant, VariantSet};
use menagerie::xbetza::Dialect;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A line on stdout. When nobody reads it any more (a closed pipe, as in
/// `menagerie check FILE | head -1`) the command ends there, quietly and successfully:
/// what it had to say was not wanted.
macro_rules! out {
    () => { say(format_args!("")) };
    ($($arg:tt)*) => { say(format_args!($($arg)*)) };
}

/// A line on stderr; a closed stderr is ignored.
macro_rules! err {
    ($($arg:tt)*) => { let _ = writeln!(std::io::stderr(), $($arg)*); };
}

fn say(line: std::fmt::Arguments) {
    if writeln!(std::io::stdout(), "{line}").is_err() {
        std::process::exit(0);
    }
}

#[derive(Parser)]
#[command(
    name = "menagerie",
    version,
    about = "A chess-variant engine for XBoard and UCI GUIs"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Protocol mode: extra variant files (loaded after the built-in ones).
    #[arg(long = "variants")]
    variants: Vec<PathBuf>,
    /// Protocol mode: speak CECP (XBoard) without waiting for the first line.
    #[arg(long, conflicts_with = "uci")]
    xboard: bool,
    /// Protocol mode: speak UCI without waiting for the first line.
    #[arg(long)]
    uci: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree.
    Perft(PerftArgs),
    /// Check variant files: one line per variant, errors with file:line.
    Check { files: Vec<PathBuf> },
    /// Show the moves of one XBetza piece on a scratch board (a tool for variant designers).
    Moves(MovesArgs),
    /// Search fixed positions of many variants to a fixed depth; prints the total node
    /// count (a regression signature at one thread) and the speed.
    Bench(BenchArgs),
    /// Opening books.
    Book {
        #[command(subcommand)]
        action: BookAction,
    },
    /// Fit a variant's evaluation weights to labelled positions (Texel tuning) and
    /// write them as a weights file; see src/eval/tune.rs and variants/weights/.
    Tune(TuneArgs),
    /// Write a variant's page for designers: board, regions, pieces with their move
    /// diagrams, the rules in words (one self-contained HTML file).
    Show(ShowArgs),
    /// List the loaded variants.
    Variants {
        #[arg(long = "variants")]
        variants: Vec<PathBuf>,
    },
}

#[derive(Args)]
struct PerftArgs {
    depth: u32,
    #[arg(long, default_value = "chess")]
    variant: String,
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from that position first (space or comma separated).
    #[arg(long)]
    moves: Option<String>,
    /// Extra variant files (loaded after the built-in ones).
    #[arg(long = "variants")]
    variants: Vec<PathBuf>,
    /// One line per root move.
    #[arg(long)]
    divide: bool,
}

#[derive(Args)]
struct MovesArgs {
    /// The piece's moves in XBetza, e.g. `KNADcaKmcabK`.
    betza: String,
    /// Board size, files x ranks.
    #[arg(long, default_value = "8x8")]
    board: String,
    /// The piece's square.
    #[arg(long, default_value = "d4")]
    square: String,
    /// Other pieces: `Pd5,pe6` (upper case = own, lower case = enemy, K/k kings),
    /// `@moved` (the piece has moved), `@ep=e6`.
    #[arg(long, default_value = "-")]
    occupancy: String,
    /// Read the XBetza as Fairy-Stockfish does instead of as XBoard does.
    #[arg(long)]
    fairy_stockfish: bool,
    /// Also write the move diagram as SVG to this file.
    #[arg(long)]
    svg: Option<PathBuf>,
}

#[derive(Args)]
struct ShowArgs {
    #[arg(long)]
    variant: String,
    /// Extra variant files (loaded after the built-in ones).
    #[arg(long = "variants")]
    variants: Vec<PathBuf>,
    /// The HTML file to write.
    #[arg(long)]
    html: PathBuf,
}

#[derive(Args)]
struct BenchArgs {
    /// Search every position to this depth (plies); default: each position's
    /// own depth, chosen so that all cost about the same.
    depth: Option<u32>,
    /// Add this many plies to every position's depth (a longer run, e.g. to
    /// measure thread scaling).
    #[arg(long, default_value_t = 0)]
    extra_depth: u32,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Search each position this many milliseconds instead of to a depth (speed
    /// measurement; the node count is then not a signature).
    #[arg(long)]
    movetime: Option<u64>,
    /// Only the start position of this variant (repeatable).
    #[arg(long)]
    variant: Vec<String>,
    /// Only position N of the table, numbered as in the output (repeatable).
    #[arg(long)]
    position: Vec<usize>,
}

#[derive(Args)]
struct TuneArgs {
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

#[derive(Subcommand)]
enum BookAction {
    /// Build a book from the engine's own searches (written to book/VARIANT.txt
    /// unless --output says otherwise); the file header records the command.
    Build(BookBuildArgs),
}

#[derive(Args)]
struct BookBuildArgs {
    #[arg(long)]
    variant: String,
    /// Plies from the start position the book covers.
    #[arg(long, default_value_t = 6)]
    plies: u32,
    /// Search depth per position.
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Principal variations searched per position.
    #[arg(long, default_value_t = 3)]
    width: usize,
    /// Keep moves within this many centipawns of the best.
    #[arg(long, default_value_t = 40)]
    margin: i32,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Extra variant files (loaded after the built-in ones).
    #[arg(long = "variants")]
    variants: Vec<PathBuf>,
    #[arg(long)]
    output: Option<PathBuf>,
}

/// A failed command: the message is already printed, the process exits with 1.
struct Failed;

type Outcome = Result<(), Failed>;

/// Print `error: MESSAGE` and fail.
fn fail(message: impl std::fmt::Display) -> Failed {
    err!("error: {message}");
    Failed
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        None => protocol_mode(&cli.variants, cli.xboard, cli.uci),
        Some(Command::Perft(args)) => perft_command(args),
        Some(Command::Check { files }) => check_command(&files),
        Some(Command::Moves(args)) => moves_command(args),
        Some(Command::Bench(args)) => bench_command(args),
        Some(Command::Book {
            action: BookAction::Build(args),
        }) => book_build_command(args),
        Some(Command::Tune(args)) => tune_command(args),
        Some(Command::Show(args)) => load_rules(&args.variants, &args.variant).and_then(|rules| {
            write_file(&args.html, &menagerie::diagram::page::variant_page(&rules))
        }),
        Some(Command::Variants { variants }) => variants_command(&variants),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failed) => ExitCode::from(1),
    }
}

/// Built-in variants plus the given files. Sections that fail are reported on stderr;
/// the others are usable.
fn load(files: &[PathBuf]) -> VariantSet {
    let mut set = VariantSet::builtin(check_variant);
    for f in files {
        let report = set.load_file(f);
        for e in report.errors {
            err!("warning: {e}");
        }
        for n in report.notes {
            err!("note: {n}");
        }
    }
    set
}

/// The rules of one variant of the built-in set plus `files`.
fn load_rules(files: &[PathBuf], variant: &str) -> Result<Arc<Ruleset>, Failed> {
    match load(files).find(variant) {
        Ok(v) => Ok(Ruleset::new(v)),
        Err(UnknownVariant::NotLoaded(_)) => Err(fail(format!("unknown variant '{variant}'"))),
        Err(e) => Err(fail(e.to_string())),
    }
}

/// No subcommand: speak CECP or UCI on stdin/stdout. Protocol mode never stops on a
/// bad variant file: it plays the variants that loaded, and reports the errors on
/// stderr and, after the handshake, to the GUI.
fn protocol_mode(files: &[PathBuf], xboard: bool, uci: bool) -> Outcome {
    let mut set = VariantSet::builtin(check_variant);
    let mut report = Vec::new();
    for f in files {
        let r = set.load_file(f);
        report.extend(r.errors.iter().map(|e| format!("error: {e}")));
        report.extend(r.notes.iter().map(|n| format!("note: {n}")));
    }
    for line in &report {
        err!("{line}");
    }
    let forced = if xboard {
        Some(protocol::Protocol::Cecp)
    } else if uci {
        Some(protocol::Protocol::Uci)
    } else {
        None
    };
    protocol::run(set, report, forced);
    Ok(())
}

fn perft_command(args: PerftArgs) -> Outcome {
    let rules = load_rules(&args.variants, &args.variant)?;
    let mut pos = match &args.fen {
        // The same checks as CECP `setboard` and UCI `position fen`.
        Some(f) => Position::from_fen(&rules, f).map_err(|e| match e {
            FenError::Syntax(e) => fail(format!("bad FEN: {e}")),
            FenError::Illegal(e) => fail(format!("illegal position: {e}")),
        })?,
        None => Position::start(&rules),
    };
    for text in args.moves.as_deref().unwrap_or("").split_whitespace() {
        let m = notation::parse_move(&mut pos, text, RankNumbering::FromOne)
            .map_err(|e| fail(format!("move {text}: {e}")))?;
        pos.make(m);
    }
    if args.moves.is_some() {
        pos.clear_history();
        err!("position: {}", pos.fen());
    }
    let start = Instant::now();
    let nodes = if args.divide && args.depth > 0 {
        let mut total = 0;
        for (m, n) in perft_divide(&mut pos, args.depth) {
            out!(
                "{}: {}",
                notation::move_to_string(&pos, m, RankNumbering::FromOne),
                n
            );
            total += n;
        }
        out!();
        total
    } else {
        perft(&mut pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    err!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    out!("Nodes searched: {nodes}");
    Ok(())
}

/// One `ok` line per variant that loads, one `error` line per problem; fails if
/// any file has an error.
fn check_command(files: &[PathBuf]) -> Outcome {
    let mut set = VariantSet::builtin(check_variant);
    let mut ok = true;
    for f in files {
        let report = set.load_file(f);
        for name in &report.loaded {
            if let Some(v) = set.get(name) {
                out!(
                    "ok {} {}x{} {} pieces",
                    name,
                    v.geometry.files,
                    v.geometry.ranks,
                    v.pieces.len()
                );
            }
        }
        for e in &report.errors {
            out!("error {e}");
            ok = false;
        }
        for n in &report.notes {
            out!("note {n}");
        }
    }
    if ok { Ok(()) } else { Err(Failed) }
}

fn moves_command(args: MovesArgs) -> Outcome {
    let dialect = if args.fairy_stockfish {
        Dialect::FairyStockfish
    } else {
        Dialect::XBoard
    };
    let targets = piece_targets(
        &args.board,
        &args.square,
        &args.betza,
        &args.occupancy,
        dialect,
    )
    .map_err(fail)?;
    if let Some(file) = &args.svg {
        let svg = menagerie::diagram::piece_svg(
            &args.board,
            &args.square,
            &args.betza,
            &args.occupancy,
            dialect,
        )
        .map_err(fail)?;
        write_file(file, &svg)?;
    }
    if targets.is_empty() {
        out!("-");
    } else {
        out!("{}", targets.join(" "));
    }
    Ok(())
}

/// Write `text` to `file`, or fail naming the file.
fn write_file(file: &std::path::Path, text: &str) -> Outcome {
    std::fs::write(file, text).map_err(|e| fail(format!("cannot write {}: {e}", file.display())))
}

fn bench_command(args: BenchArgs) -> Outcome {
    let spec = BenchSpec {
        depth: args.depth.map(|d| d.max(1)),
        extra_depth: args.extra_depth,
        only: args.position,
        movetime: args.movetime.map(Duration::from_millis),
        threads: args.threads.max(1),
        hash_mb: args.hash,
        variants: args.variant,
    };
    let total = bench::run_spec(&spec, |l| {
        let score = match l.score {
            Score::Cp(c) => format!("cp {c}"),
            Score::Mate(m) => format!("mate {m}"),
        };
        out!(
            "Position {:2} {:<13} depth {:2} best {:<8} score {:<9} nodes {:>10} time {:>6} ms  {}",
            l.index,
            l.variant,
            l.depth,
            l.best,
            score,
            l.nodes,
            l.time.as_millis(),
            l.fen
        );
    })
    .map_err(fail)?;
    let secs = total.time.as_secs_f64().max(1e-9);
    out!("===========================");
    out!("Total time (ms) : {}", total.time.as_millis());
    out!("Nodes searched: {}", total.nodes);
    out!("Nodes/second: {}", (total.nodes as f64 / secs) as u64);
    Ok(())
}

fn book_build_command(args: BookBuildArgs) -> Outcome {
    let rules = load_rules(&args.variants, &args.variant)?;
    let start = Position::start(&rules);
    let command_line: Vec<String> = std::env::args().skip(1).collect();
    let header = vec![
        "menagerie opening book (format: see src/book/mod.rs)".to_string(),
        format!("variant: {}", args.variant),
        format!("command: menagerie {}", command_line.join(" ")),
    ];
    let opts = BuildOptions {
        plies: args.plies,
        depth: args.depth,
        width: args.width.max(1),
        margin: args.margin,
        threads: args.threads.max(1),
        ..Default::default()
    };
    let text = book::build::build(&start, &opts, &header, |n, line| {
        err!("{n:5} {line}");
    })
    .map_err(fail)?;
    let path = args
        .output
        .unwrap_or_else(|| PathBuf::from(format!("book/{}.txt", args.variant)));
    std::fs::write(&path, text)
        .map_err(|e| fail(format!("cannot write {}: {e}", path.display())))?;
    err!("wrote {}", path.display());
    Ok(())
}

fn tune_command(args: TuneArgs) -> Outcome {
    use menagerie::eval::Evaluator;
    use menagerie::eval::basis::Basis;
    use menagerie::eval::params::{Params, global_slot};
    use menagerie::eval::tune::{self, Data, Options};
    use menagerie::variant::weights::GlobalTerm;
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
        println!(
            "{} positions, {:.0} ns per evaluation (checksum {sum})",
            positions.len(),
            started.elapsed().as_secs_f64() * 1e9 / calls
        );
        println!(
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
        eprintln!("warning: {e}");
    }
    eprintln!(
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
        eprintln!("step {step:5}: training error {err:.6}");
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
        println!("{l}");
    }
    eprintln!("time {:.1} s", started.elapsed().as_secs_f64());
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
        eprintln!("wrote {}", out.display());
    }
    Ok(())
}

fn variants_command(files: &[PathBuf]) -> Outcome {
    for v in load(files).iter() {
        out!(
            "{} {}x{} {}",
            v.name,
            v.geometry.files,
            v.geometry.ranks,
            v.source
        );
    }
    Ok(())
}
