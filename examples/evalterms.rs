//! Menagerie's static evaluation split by term, for finding where it parts from
//! another engine's on a position: reads lines `FEN[;...]` on stdin and prints each
//! position's score (side to move's view, as the engine has it) and then every term's
//! share, tapered by the game phase, in centipawns from White's view, largest first.
//! Lines whose FEN does not parse are skipped. With `--danger` after the variant, each
//! king's danger is also shown by its parts (the sum that is squared, before it is).
//!
//!     cargo run --release --example evalterms -- chess [--danger] < positions.txt
use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::eval::Evaluator;
use menagerie::eval::params::Params;
use menagerie::eval::trace::Recorded;
use menagerie::variant::VariantSet;
use menagerie::variant::weights::{GlobalTerm, PieceTerm};
use std::collections::BTreeMap;
use std::io::BufRead;

/// The name of the term whose weight lives in `slot`.
fn term_name(p: &Params, slot: usize) -> &'static str {
    let pieces = p.n * PieceTerm::COUNT;
    if slot < pieces {
        PieceTerm::ALL[slot % PieceTerm::COUNT].name()
    } else if slot < pieces + GlobalTerm::COUNT {
        GlobalTerm::ALL[slot - pieces].name()
    } else {
        "piece-square"
    }
}

fn main() {
    let variant = std::env::args().nth(1).unwrap_or_else(|| "chess".into());
    let parts = std::env::args().nth(2).is_some_and(|a| a == "--danger");
    let set = VariantSet::builtin(check_variant);
    let Ok(v) = set.find(&variant) else {
        eprintln!("unknown variant '{variant}'");
        std::process::exit(2);
    };
    let rules = Ruleset::new(v);
    let eval = Evaluator::new(&rules);
    let p = eval.params();
    let eg_rate = p.global(GlobalTerm::KingDangerEg)[0];
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let fen = line.split(';').next().unwrap_or("").trim();
        let Ok(pos) = Position::from_fen(&rules, fen) else {
            continue;
        };
        let mut tr = Recorded::default();
        let (score, _) = eval.evaluate_traced(&pos, -30_000, 30_000, &mut tr);
        tr.compact();
        let phase = tr.phase as f64 / 256.0;
        let eg_scale = tr.eg_scale as f64 / 64.0;
        let taper = |mg: f64, eg: f64| mg * phase + eg * eg_scale * (1.0 - phase);
        let mut terms: BTreeMap<&str, f64> = BTreeMap::new();
        for &(slot, c) in &tr.linear {
            let [mg, eg] = p.w[slot as usize];
            *terms.entry(term_name(p, slot as usize)).or_default() +=
                taper(c as f64 * mg, c as f64 * eg);
        }
        // King danger: quadratic in the middlegame, linear in the endgame; White's
        // own danger counts against White.
        for (side, name, sign) in [(0, "danger to White", -1.0), (1, "danger to Black", 1.0)] {
            let d: f64 = tr.danger[side]
                .iter()
                .map(|&(s, c)| c as f64 * p.w[s as usize][0])
                .sum();
            if d > 0.0 {
                terms.insert(name, sign * taper(d * d / 4096.0, d * eg_rate / 64.0));
            }
        }
        let fixed = taper(tr.fixed[0] as f64, tr.fixed[1] as f64);
        if fixed != 0.0 {
            terms.insert("fixed", fixed);
        }
        let total: f64 = terms.values().sum();
        println!("{fen}");
        println!(
            "  score {score} (side to move), terms {total:.0} (White), phase {:.2}",
            phase
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
                    *by.entry(term_name(p, s as usize)).or_default() +=
                        c as f64 * p.w[s as usize][0];
                }
                let line: Vec<String> = by.iter().map(|(k, x)| format!("{k} {x:.0}")).collect();
                println!("  | {king} king danger parts: {}", line.join(", "));
            }
        }
    }
}
