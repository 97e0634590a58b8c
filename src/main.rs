//! The `menagerie` command: protocol mode without arguments, or a subcommand.

mod protocol;

use clap::{Parser, Subcommand};
use menagerie::board::{Position, Ruleset, fen};
use menagerie::movegen::bench_piece::piece_targets;
use menagerie::movegen::{notation, perft, perft_divide};
use menagerie::types::RankNumbering;
use menagerie::variant::VariantSet;
use menagerie::xbetza::Dialect;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

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
    Perft {
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
    },
    /// Check variant files: one line per variant, errors with file:line.
    Check { files: Vec<PathBuf> },
    /// Show the moves of one XBetza piece on a scratch board (a tool for variant designers).
    Moves {
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
    },
    /// Search fixed positions of many variants to a fixed depth; prints the total node
    /// count (a regression signature at one thread) and the speed.
    Bench {
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
    },
    /// Opening books.
    Book {
        #[command(subcommand)]
        action: BookAction,
    },
    /// List the loaded variants.
    Variants {
        #[arg(long = "variants")]
        variants: Vec<PathBuf>,
    },
}

#[derive(Subcommand)]
enum BookAction {
    /// Build a book from the engine's own searches (written to book/VARIANT.txt
    /// unless --output says otherwise); the file header records the command.
    Build {
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
    },
}

/// Built-in variants plus the given files. Sections that fail are reported on stderr;
/// the others are usable.
fn load(files: &[PathBuf]) -> VariantSet {
    let mut set = VariantSet::builtin(fen::check_start_position);
    for f in files {
        for e in set.load_file(f).errors {
            eprintln!("warning: {e}");
        }
    }
    set
}

/// The rules of one variant of the built-in set plus `files`, or an error line.
fn load_rules(files: &[PathBuf], variant: &str) -> Result<Arc<Ruleset>, ExitCode> {
    match load(files).get(variant) {
        Some(v) => Ok(Ruleset::new(v)),
        None => {
            eprintln!("error: unknown variant '{variant}'");
            Err(ExitCode::from(1))
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            // Protocol mode never stops on a bad variant file: it reports the errors
            // and plays the variants that loaded.
            let mut set = VariantSet::builtin(fen::check_start_position);
            for f in &cli.variants {
                for e in set.load_file(f).errors {
                    eprintln!("error: {e}");
                }
            }
            let forced = if cli.xboard {
                Some(protocol::Protocol::Cecp)
            } else if cli.uci {
                Some(protocol::Protocol::Uci)
            } else {
                None
            };
            protocol::run(set, forced);
            ExitCode::SUCCESS
        }
        Some(Command::Perft {
            depth,
            variant,
            fen,
            moves,
            variants,
            divide,
        }) => {
            let rules = match load_rules(&variants, &variant) {
                Ok(r) => r,
                Err(code) => return code,
            };
            let mut pos = match &fen {
                Some(f) => match Position::from_fen(&rules, f) {
                    Ok(p) => p,
                    Err(e) => {
                        eprintln!("error: bad FEN: {e}");
                        return ExitCode::from(1);
                    }
                },
                None => Position::start(&rules),
            };
            for text in moves.as_deref().unwrap_or("").split_whitespace() {
                match notation::parse_move(&mut pos, text, RankNumbering::FromOne) {
                    Ok(m) => pos.make(m),
                    Err(e) => {
                        eprintln!("error: move {text}: {e}");
                        return ExitCode::from(1);
                    }
                }
            }
            if moves.is_some() {
                pos.clear_history();
                eprintln!("position: {}", pos.fen());
            }
            let start = Instant::now();
            let nodes = if divide && depth > 0 {
                let mut total = 0;
                for (m, n) in perft_divide(&mut pos, depth) {
                    println!(
                        "{}: {}",
                        notation::move_to_string(&pos, m, RankNumbering::FromOne),
                        n
                    );
                    total += n;
                }
                println!();
                total
            } else {
                perft(&mut pos, depth)
            };
            let secs = start.elapsed().as_secs_f64();
            eprintln!(
                "time {:.3} s, {:.0} nodes/s",
                secs,
                nodes as f64 / secs.max(1e-9)
            );
            println!("Nodes searched: {nodes}");
            ExitCode::SUCCESS
        }
        Some(Command::Check { files }) => {
            let mut set = VariantSet::builtin(fen::check_start_position);
            let mut ok = true;
            for f in &files {
                let report = set.load_file(f);
                for name in &report.loaded {
                    if let Some(v) = set.get(name) {
                        println!(
                            "ok {} {}x{} {} pieces",
                            name,
                            v.geometry.files,
                            v.geometry.ranks,
                            v.pieces.len()
                        );
                    }
                }
                for e in &report.errors {
                    println!("error {e}");
                    ok = false;
                }
            }
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Some(Command::Moves {
            betza,
            board,
            square,
            occupancy,
            fairy_stockfish,
        }) => {
            let dialect = if fairy_stockfish {
                Dialect::FairyStockfish
            } else {
                Dialect::XBoard
            };
            match piece_targets(&board, &square, &betza, &occupancy, dialect) {
                Ok(targets) => {
                    println!(
                        "{}",
                        if targets.is_empty() {
                            "-".to_string()
                        } else {
                            targets.join(" ")
                        }
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Some(Command::Bench {
            depth,
            extra_depth,
            threads,
            hash,
            movetime,
            variant,
            position,
        }) => {
            let spec = menagerie::search::bench::BenchSpec {
                depth: depth.map(|d| d.max(1)),
                extra_depth,
                only: position,
                movetime: movetime.map(std::time::Duration::from_millis),
                threads: threads.max(1),
                hash_mb: hash,
                variants: variant,
            };
            let total = menagerie::search::bench::run_spec(&spec, |l| {
                let score = match l.score {
                    menagerie::search::Score::Cp(c) => format!("cp {c}"),
                    menagerie::search::Score::Mate(m) => format!("mate {m}"),
                };
                println!(
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
            });
            let secs = total.time.as_secs_f64().max(1e-9);
            println!("===========================");
            println!("Total time (ms) : {}", total.time.as_millis());
            println!("Nodes searched: {}", total.nodes);
            println!("Nodes/second: {}", (total.nodes as f64 / secs) as u64);
            ExitCode::SUCCESS
        }
        Some(Command::Book {
            action:
                BookAction::Build {
                    variant,
                    plies,
                    depth,
                    width,
                    margin,
                    threads,
                    variants,
                    output,
                },
        }) => {
            let rules = match load_rules(&variants, &variant) {
                Ok(r) => r,
                Err(code) => return code,
            };
            let start = Position::start(&rules);
            let args: Vec<String> = std::env::args().skip(1).collect();
            let header = vec![
                "menagerie opening book (format: see src/book/mod.rs)".to_string(),
                format!("variant: {variant}"),
                format!("command: menagerie {}", args.join(" ")),
            ];
            let opts = menagerie::book::build::BuildOptions {
                plies,
                depth,
                width: width.max(1),
                margin,
                threads: threads.max(1),
                ..Default::default()
            };
            let text = menagerie::book::build::build(&start, &opts, &header, |n, line| {
                eprintln!("{n:5} {line}");
            });
            let path = output.unwrap_or_else(|| PathBuf::from(format!("book/{variant}.txt")));
            if let Err(e) = std::fs::write(&path, text) {
                eprintln!("error: cannot write {}: {e}", path.display());
                return ExitCode::from(1);
            }
            eprintln!("wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Some(Command::Variants { variants }) => {
            let set = load(&variants);
            for v in set.iter() {
                println!(
                    "{} {}x{} {}",
                    v.name, v.geometry.files, v.geometry.ranks, v.source
                );
            }
            ExitCode::SUCCESS
        }
    }
}
