//! The `menagerie` command: protocol mode without arguments, or a subcommand.

mod protocol;

use clap::{Parser, Subcommand};
use menagerie::board::{Position, RankNumbering};
use menagerie::movegen::{notation, perft, perft_divide, Ruleset};
use menagerie::variant::VariantSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "menagerie", version, about = "A chess-variant engine for XBoard and UCI GUIs")]
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
        /// Extra variant files (loaded after the built-in ones).
        #[arg(long = "variants")]
        variants: Vec<PathBuf>,
        /// One line per root move.
        #[arg(long)]
        divide: bool,
    },
    /// Check variant files: one line per variant, errors with file:line.
    Check { files: Vec<PathBuf> },
    /// List the loaded variants.
    Variants {
        #[arg(long = "variants")]
        variants: Vec<PathBuf>,
    },
}

fn load(files: &[PathBuf]) -> Result<VariantSet, ExitCode> {
    let mut set = VariantSet::builtin();
    let mut ok = true;
    for f in files {
        let report = set.load_file(f);
        for e in &report.errors {
            eprintln!("error: {e}");
            ok = false;
        }
    }
    if ok {
        Ok(set)
    } else {
        Err(ExitCode::from(1))
    }
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
            variants,
            divide,
        }) => {
            let set = match load(&variants) {
                Ok(s) => s,
                Err(code) => return code,
            };
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
            let start = Instant::now();
            let nodes = if divide && depth > 0 {
                let mut total = 0;
                for (m, n) in perft_divide(&mut pos, depth) {
                    println!("{}: {}", notation::move_to_string(&pos, m, RankNumbering::FromOne), n);
                    total += n;
                }
                println!();
                total
            } else {
                perft(&mut pos, depth)
            };
            let secs = start.elapsed().as_secs_f64();
            eprintln!("time {:.3} s, {:.0} nodes/s", secs, nodes as f64 / secs.max(1e-9));
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
        Some(Command::Variants { variants }) => {
            let set = match load(&variants) {
                Ok(s) => s,
                Err(code) => return code,
            };
            for v in set.iter() {
                println!("{} {}x{} {}", v.name, v.geometry.files, v.geometry.ranks, v.source);
            }
            ExitCode::SUCCESS
        }
    }
}
