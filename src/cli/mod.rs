//! The `menagerie` command: its arguments (clap), and one driver per subcommand.
//! `main.rs` parses the arguments and calls the driver; everything a driver prints
//! goes through the `out!` (stdout) and `err!` (stderr) macros, whose closed-pipe
//! behaviour is written once, in [`say`] and [`say_err`].

use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;

/// A line on stdout. When nobody reads it any more (a closed pipe, as in
/// `menagerie check FILE | head -1`) the command ends there, quietly and successfully:
/// what it had to say was not wanted.
macro_rules! out {
    () => { $crate::cli::say(format_args!("")) };
    ($($arg:tt)*) => { $crate::cli::say(format_args!($($arg)*)) };
}

/// A line on stderr; a closed stderr is ignored.
macro_rules! err {
    ($($arg:tt)*) => { $crate::cli::say_err(format_args!($($arg)*)) };
}

pub mod bench;
pub mod book;
pub mod check;
pub mod learn;
pub mod moves;
pub mod perft;
pub mod protocol_mode;
pub mod rescore;
pub mod selfplay;
pub mod show;
pub mod train;
pub mod tune;
pub mod variants;

/// Write a line on stdout; a closed stdout ends the process with success (see
/// [`out!`](crate::cli)).
pub fn say(line: std::fmt::Arguments) {
    if writeln!(std::io::stdout(), "{line}").is_err() {
        std::process::exit(0);
    }
}

/// Write a line on stderr, ignoring a closed stderr: the diagnostics had nowhere to
/// go, the command's work is not undone for that.
pub fn say_err(line: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

#[derive(Parser)]
#[command(
    name = "menagerie",
    version,
    about = "A chess-variant engine for XBoard and UCI GUIs"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Protocol mode: extra variant files (loaded after the built-in ones).
    #[arg(long = "variants")]
    pub variants: Vec<PathBuf>,
    /// Protocol mode: speak CECP (XBoard) without waiting for the first line.
    #[arg(long, conflicts_with = "uci")]
    pub xboard: bool,
    /// Protocol mode: speak UCI without waiting for the first line.
    #[arg(long)]
    pub uci: bool,
}

#[derive(Subcommand)]
pub enum Command {
    /// Count the leaf nodes of the legal move tree.
    Perft(perft::PerftArgs),
    /// Check variant files: one line per variant, errors with file:line.
    Check { files: Vec<PathBuf> },
    /// Show the moves of one XBetza piece on a scratch board (a tool for variant designers).
    Moves(moves::MovesArgs),
    /// Search fixed positions of many variants to a fixed depth; prints the total node
    /// count (a regression signature at one thread) and the speed.
    Bench(bench::BenchArgs),
    /// Opening books.
    Book {
        #[command(subcommand)]
        action: BookAction,
    },
    /// Fit a variant's evaluation weights to labelled positions (Texel tuning) and
    /// write them as a weights file; see src/eval/tune/ and variants/weights/.
    Tune(tune::TuneArgs),
    /// Training data from self-play: the engine plays itself (seeded random openings,
    /// a fixed node budget a move) and writes quiet positions with their search
    /// scores and game results, the lines `tune` reads; resumable. See docs/selfplay.md.
    Selfplay(selfplay::SelfplayArgs),
    /// Score a data file's positions again with a teacher (another UCI engine's
    /// search), in the engine's centipawns; resumable. See docs/nnue.md, "Teacher labels".
    Rescore(rescore::RescoreArgs),
    /// Train a variant's learned evaluation (NNUE) on labelled positions and write
    /// the net file; see docs/nnue.md, "Training".
    Train(train::TrainArgs),
    /// Teach the engine a variant: generations of self-play, training and a match
    /// that keeps the new net only when it wins, until the time is spent; resumable.
    /// See docs/learn.md.
    Learn(learn::LearnArgs),
    /// Write a variant's page for designers: board, regions, pieces with their move
    /// diagrams, the rules in words (one self-contained HTML file).
    Show(show::ShowArgs),
    /// List the loaded variants.
    Variants {
        #[arg(long = "variants")]
        variants: Vec<PathBuf>,
    },
}

#[derive(Subcommand)]
pub enum BookAction {
    /// Build a book from the engine's own searches (written to book/VARIANT.txt
    /// unless --output says otherwise); the file header records the command.
    Build(book::BookBuildArgs),
}

/// A failed command: the message is already printed, the process exits with 1.
#[derive(Debug)]
pub struct Failed;

/// What a driver returns.
pub type Outcome = Result<(), Failed>;

/// Write `text` to `file`, or fail naming the file.
pub fn write_file(file: &std::path::Path, text: &str) -> Outcome {
    std::fs::write(file, text).map_err(|e| fail(format!("cannot write {}: {e}", file.display())))
}

/// The file at `path` opened to be continued (created when missing, never
/// truncated here), with what it holds so far; or fail naming it.
pub fn open_to_continue(path: &std::path::Path) -> Result<(std::fs::File, String), Failed> {
    use std::io::Read;
    let name = path.display();
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| fail(format!("cannot open {name}: {e}")))?;
    let mut text = String::new();
    file.read_to_string(&mut text)
        .map_err(|e| fail(format!("cannot read {name}: {e}")))?;
    Ok((file, text))
}

/// A progress bar on stderr (drawn only when stderr is a terminal) for `total`
/// `unit`s of which `done` are done: the count, the driver's message, the time
/// elapsed and the ETA (counted from now, not from the work done before).
pub fn progress_bar(total: u64, done: u64, unit: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template(&format!(
        "{{bar:30}} {{pos}}/{{len}} {unit}, {{msg}}, {{elapsed_precise}} elapsed, ETA {{eta_precise}}"
    ));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar.set_position(done);
    bar.reset_eta();
    bar
}

/// Print `error: MESSAGE` and fail.
pub fn fail(message: impl std::fmt::Display) -> Failed {
    err!("error: {message}");
    Failed
}
