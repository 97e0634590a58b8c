//! The `menagerie` command: protocol mode without arguments, or a subcommand. This
//! file only parses the arguments and dispatches; the drivers are the library's
//! [`menagerie::cli`] modules.

use clap::Parser;
use menagerie::cli::{self, BookAction, Cli, Command, Failed};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = Cli::parse();
    let outcome = match args.command {
        None => cli::protocol_mode::run(&args.variants, args.xboard, args.uci),
        Some(Command::Perft(a)) => cli::perft::run(a),
        Some(Command::Check { files }) => cli::check::run(&files),
        Some(Command::Moves(a)) => cli::moves::run(a),
        Some(Command::Bench(a)) => cli::bench::run(a),
        Some(Command::Book {
            action: BookAction::Build(a),
        }) => cli::book::build(a),
        Some(Command::Tune(a)) => cli::tune::tune_command(a),
        Some(Command::Selfplay(a)) => cli::selfplay::run(a),
        Some(Command::Rescore(a)) => cli::rescore::run(a),
        Some(Command::Train(a)) => cli::train::run(a),
        Some(Command::Learn(a)) => cli::learn::run(a),
        Some(Command::Show(a)) => cli::show::run(a),
        Some(Command::Variants { variants }) => cli::variants::run(&variants),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failed) => ExitCode::from(1),
    }
}
