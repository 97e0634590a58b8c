//! Menagerie's static evaluation split by term, for finding where it parts from
//! another engine's on a position: reads lines `FEN[;...]` on stdin and prints each
//! position's score (side to move's view, as the engine has it) and then every term's
//! share, tapered by the game phase (`menagerie::eval::tune::shares`), in centipawns from White's view, largest first.
//! Lines whose FEN does not parse are skipped. With `--danger` after the variant, each
//! king's danger is also shown by its parts (the sum that is squared, before it is).
//!
//!     cargo run --release --example evalterms -- chess [--danger] < positions.txt
use menagerie::board::{Position, find_builtin_rules};
use menagerie::eval::Evaluator;
use menagerie::eval::params::slot_name;
use menagerie::eval::trace::Recorded;
use menagerie::eval::tune;
use std::collections::BTreeMap;
use std::io::BufRead;

fn main() {
    let variant = std::env::args().nth(1).unwrap_or_else(|| "chess".into());
    let parts = std::env::args().nth(2).is_some_and(|a| a == "--danger");
    let Ok(rules) = find_builtin_rules(&variant) else {
        eprintln!("unknown variant '{variant}'");
        std::process::exit(2);
    };
    let eval = Evaluator::new(&rules);
    let p = eval.params();
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let fen = line.split(';').next().unwrap_or("").trim();
        let Ok(pos) = Position::from_fen(&rules, fen) else {
            continue;
        };
        let mut tr = Recorded::default();
        let (score, _) = eval.evaluate_traced(&pos, -30_000, 30_000, &mut tr);
        tr.compact();
        let shares = tune::shares(&p.w, &tr, p.n);
        let mut terms: BTreeMap<&str, f64> = BTreeMap::new();
        for &(slot, x) in &shares.linear {
            *terms.entry(slot_name(p.n, slot as usize)).or_default() += x;
        }
        for (name, x) in [
            ("danger to White", shares.danger[0]),
            ("danger to Black", shares.danger[1]),
            ("fixed", shares.fixed),
        ] {
            if x != 0.0 {
                terms.insert(name, x);
            }
        }
        let total: f64 = terms.values().sum();
        println!("{fen}");
        println!(
            "  score {score} (side to move), terms {total:.0} (White), phase {}",
            tr.phase
        );
        let mut rows: Vec<_> = terms.into_iter().collect();
        rows.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
        for (name, x) in rows {
            println!("  {name:<22} {x:>7.1}");
        }
        if parts {
            for (side, king) in [(0, "White"), (1, "Black")] {
                let mut by: BTreeMap<&str, f64> = BTreeMap::new();
                for &(s, c) in &tr.danger[side] {
                    *by.entry(slot_name(p.n, s as usize)).or_default() +=
                        c as f64 * p.w[s as usize][0];
                }
                let line: Vec<String> = by.iter().map(|(k, x)| format!("{k} {x:.0}")).collect();
                println!("  | {king} king danger parts: {}", line.join(", "));
            }
        }
    }
}
