//! Perft suites: exact node counts for every shipped variant (start position and
//! tricky positions), from `tests/data/perft/*.epd`. Counts come from the
//! Fairy-Stockfish oracle (see tools/make_perft_data.py).

use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::movegen::perft;
use menagerie::variant::VariantSet;
use std::path::Path;

/// Deeper counts are checked outside the test suite (tools/perft_reference_check.py).
const MAX_NODES: u64 = 2_000_000;

struct Case {
    file: String,
    line: usize,
    variant: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

/// The suites' cases, from every file whose place in the sorted list of suite files
/// `keep` accepts.
fn read_cases(keep: impl Fn(usize) -> bool) -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft");
    let mut cases = Vec::new();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return cases;
    };
    let mut files: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    files.retain(|path| {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        name.ends_with(".epd") && name != "random-positions.epd"
    });
    files.sort();
    for (index, path) in files.into_iter().enumerate() {
        if !keep(index) {
            continue;
        }
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        let text = std::fs::read_to_string(&path).expect("readable test data");
        let mut variant = name.trim_end_matches(".epd").to_string();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if let Some(v) = line.strip_prefix("# variant:") {
                variant = v.trim().to_string();
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or("").trim().to_string();
            let mut counts = Vec::new();
            for p in parts {
                let p = p.trim();
                if let Some(rest) = p.strip_prefix('D') {
                    let mut it = rest.split_whitespace();
                    let d: u32 = it.next().and_then(|x| x.parse().ok()).expect("depth");
                    let n: u64 = it.next().and_then(|x| x.parse().ok()).expect("count");
                    counts.push((d, n));
                }
            }
            cases.push(Case {
                file: name.clone(),
                line: i + 1,
                variant: variant.clone(),
                fen,
                counts,
            });
        }
    }
    cases
}

/// The suites run as several tests, the suite files dealt out to them in turn, so
/// that the test harness runs them on every core; together they check every count.
macro_rules! perft_shards {
    ($($name:ident = $shard:literal),* $(,)?) => {
        const SHARDS: usize = [$($shard),*].len();
        $(
            #[test]
            fn $name() {
                check_suites(|index| index % SHARDS == $shard);
            }
        )*
    };
}

perft_shards! {
    perft_suites_0 = 0,
    perft_suites_1 = 1,
    perft_suites_2 = 2,
    perft_suites_3 = 3,
    perft_suites_4 = 4,
    perft_suites_5 = 5,
    perft_suites_6 = 6,
    perft_suites_7 = 7,
}

/// Every count of the suite files `keep` accepts (by their place in the sorted
/// list) up to [`MAX_NODES`].
fn check_suites(keep: impl Fn(usize) -> bool) {
    let set = VariantSet::builtin(check_variant);
    let cases = read_cases(keep);
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut rules_cache: Vec<(String, std::sync::Arc<Ruleset>)> = Vec::new();
    for case in &cases {
        let Some(v) = set.get(&case.variant) else {
            failures.push(format!(
                "{}:{}: variant {} is not built in",
                case.file, case.line, case.variant
            ));
            continue;
        };
        let rules = match rules_cache.iter().find(|(n, _)| *n == case.variant) {
            Some((_, r)) => r.clone(),
            None => {
                let r = Ruleset::new(v);
                rules_cache.push((case.variant.clone(), r.clone()));
                r
            }
        };
        let mut pos = match Position::from_fen(&rules, &case.fen) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{}:{}: bad FEN: {e}", case.file, case.line));
                continue;
            }
        };
        for &(d, want) in &case.counts {
            if want > MAX_NODES {
                continue;
            }
            let got = perft(&mut pos, d);
            checked += 1;
            if got != want {
                failures.push(format!(
                    "{}:{}: {} perft({d}) = {got}, expected {want} ({})",
                    case.file, case.line, case.variant, case.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures of {checked} counts:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{checked} perft counts checked");
}

/// A position whose game is over is read (as pyffish 0.0.90 reads it) and has no
/// moves at any depth: atomic after Black's king exploded, dobutsu after White's
/// lion was taken.
#[test]
fn finished_games_count_no_nodes() {
    let set = VariantSet::builtin(check_variant);
    for (variant, fen) in [
        (
            "atomic",
            "rnb4r/1ppp2pp/p7/4p3/8/4P3/PPPP1PPP/RNBQK1NR b KQ - 0 4",
        ),
        ("dobutsu", "l1e/1C1/g1G/E2[Cl] w - - 0 4"),
    ] {
        let v = set.get(variant).expect("built-in variant");
        let mut pos = Position::from_fen(&Ruleset::new(v), fen)
            .unwrap_or_else(|e| panic!("{variant} {fen}: {e}"));
        for depth in 1..=2 {
            assert_eq!(perft(&mut pos, depth), 0, "{variant} perft({depth}) {fen}");
        }
    }
}

#[test]
fn every_builtin_variant_has_a_perft_suite() {
    let set = VariantSet::builtin(check_variant);
    let covered: Vec<String> = read_cases(|_| true)
        .into_iter()
        .map(|c| c.variant)
        .collect();
    let missing: Vec<&str> = set
        .names()
        .filter(|n| !covered.iter().any(|c| c == n))
        .collect();
    assert!(missing.is_empty(), "no perft suite for: {missing:?}");
}
