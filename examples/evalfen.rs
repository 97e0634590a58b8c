//! Menagerie's static evaluation of positions, for analysis scripts (one
//! compared it with Fairy-Stockfish's, tools/TRIED.md stop 49): reads lines `FEN[;...]` on stdin and prints
//! `FEN;EVAL`, the evaluation in centipawns from the side to move's view.
//! Lines whose FEN does not parse are skipped.
//!
//!     cargo run --release --example evalfen -- chess < positions.txt
use menagerie::board::{Position, find_builtin_rules};
use menagerie::eval::Evaluator;
use std::io::BufRead;

fn main() {
    let variant = std::env::args().nth(1).unwrap_or_else(|| "chess".into());
    let Ok(rules) = find_builtin_rules(&variant) else {
        eprintln!("unknown variant '{variant}'");
        std::process::exit(2);
    };
    let eval = Evaluator::new(&rules);
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let fen = line.split(';').next().unwrap_or("").trim();
        if let Ok(pos) = Position::from_fen(&rules, fen) {
            println!("{};{}", fen, eval.evaluate(&pos));
        }
    }
}
