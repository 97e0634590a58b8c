//! The `menagerie` command: protocol mode without arguments, or a subcommand.

mod protocol;

use clap::{Parser, Subcommand};
use menagerie::board::{Position, RankNumbering};
use menagerie::movegen::bench_piece::piece_targets;
use menagerie::movegen::{Ruleset, notation, perft, perft_divide};
use menagerie::variant::VariantSet;
use menagerie::xbetza::Dialect;
use std::path::PathBuf;
use std::process::ExitCode;
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
    /// List the loaded variants.
    Variants {
        #[arg(long = "variants")]
        variants: Vec<PathBuf>,
    },
}

/// Built-in variants plus the given files. Sections that fail are reported on stderr;
/// the others are usable.
fn load(files: &[PathBuf]) -> VariantSet {
    let mut set = VariantSet::builtin();
    for f in files {
        for e in set.load_file(f).errors {
            eprintln!("warning: {e}");
        }
    }
    set
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            // Protocol mode never stops on a bad variant file: it reports the errors
            // and plays the variants that loaded.
            let mut set = VariantSet::builtin();
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
            let set = load(&variants);
            let Some(v) = set.get(&variant) else {
                eprintln!("error: unknown variant '{variant}'");
                return ExitCode::from(1);
            };
            let rules = Ruleset::new(v);
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
            let mut set = VariantSet::builtin();
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
