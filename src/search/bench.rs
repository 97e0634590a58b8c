//! `menagerie bench`: fixed positions from many variants searched to a fixed depth.
//! At one thread the total node count is the same on every run and machine: a
//! regression signature for changes to the search (quote it in commit messages).

use super::tt::TableError;
use super::{Callback, Limits, Searcher, ThreadsError};
use crate::board::{Position, Ruleset, check_variant};
use crate::movegen::notation;
use crate::nnue::builtin::builtin_nnue;
use crate::types::RankNumbering;
use crate::variant::{UnknownVariant, VariantSet, names::canonical_name};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Variant definitions the bench falls back on for names the binary does not build in.
pub const BENCH_VARIANTS_INI: &str = include_str!("../../tests/data/search/bench-variants.ini");

/// The depth for the start position of a variant the table does not have.
const START_DEPTH: u32 = 12;

/// (variant, FEN (empty = the variant's start position), depth). The depths are
/// chosen so that every position costs about the same (0.2 to 1 s at one thread):
/// a bench dominated by one position would measure only that position.
pub const POSITIONS: &[(&str, &str, u32)] = &[
    ("chess", "", 15),
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        11,
    ),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 18),
    (
        "chess",
        "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        14,
    ),
    ("crazyhouse", "", 14),
    (
        "crazyhouse",
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
        11,
    ),
    ("shogi", "", 14),
    (
        "shogi",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL[RGgsnppppp] b 0 1",
        7,
    ),
    ("minishogi", "1bssk/5/1Gg2/2rR1/K4[PPb] w - - 1 13", 10),
    ("xiangqi", "", 16),
    (
        "xiangqi",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        14,
    ),
    ("capablanca", "", 13),
    (
        "capablanca",
        "rn1bqk2nr/1pppp1pcp1/10/2a2p1p2/p4P3p/6C1P1/P1PPPBPP1P/RN1BQK2NR w KQkq - 0 11",
        13,
    ),
    (
        "makruk",
        "rn1mk3/1s3s2/1pp2prp/3nP1p1/6P1/P1PPM1NP/2S2R2/RN1K1S2 w - - 3 16",
        15,
    ),
    (
        "atomic",
        "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
        9,
    ),
    (
        "3check",
        "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1+3 1 39",
        9,
    ),
    ("kingofthehill", "", 15),
    ("giveaway", "", 17),
];

/// The built-in variants, plus the bench's own definitions for the ones missing.
pub fn variant_set() -> (VariantSet, VariantSet) {
    let builtin = VariantSet::builtin(check_variant);
    let mut extra = VariantSet::builtin(check_variant);
    let report = extra.load_str("bench-variants.ini", BENCH_VARIANTS_INI);
    debug_assert!(report.errors.is_empty(), "{:?}", report.errors);
    (builtin, extra)
}

/// Look a variant up: built in first, else the bench file.
pub fn find_variant(name: &str) -> Option<Arc<crate::variant::Variant>> {
    let (builtin, extra) = variant_set();
    find_in(&builtin, &extra, name).ok()
}

/// `name` (or the variant its alias stands for) among the built-in variants, else
/// among the bench's own.
fn find_in(
    builtin: &VariantSet,
    extra: &VariantSet,
    name: &str,
) -> Result<Arc<crate::variant::Variant>, UnknownVariant> {
    builtin.find(name).or_else(|_| extra.find(name))
}

pub struct BenchLine {
    pub index: usize,
    pub variant: String,
    pub fen: String,
    pub best: String,
    pub score: super::Score,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
}

/// Why the bench could not run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("{0}")]
    Threads(ThreadsError),
    #[error("hash table: {0}")]
    Table(TableError),
    /// A variant asked for by name (or one of the table's) is not loaded.
    #[error("{0}")]
    Variant(UnknownVariant),
}

pub struct BenchTotal {
    pub nodes: u64,
    pub time: Duration,
}

/// Search every bench position to `depth` (None: the table's depths) with `threads`
/// threads, calling `line` after each. The table and histories are cleared before
/// every position so that each result depends only on the position. Fails when the
/// table or the threads cannot be had.
pub fn run(
    depth: Option<u32>,
    threads: usize,
    hash_mb: usize,
    line: impl FnMut(&BenchLine),
) -> Result<BenchTotal, BenchError> {
    run_spec(
        &BenchSpec {
            depth,
            threads,
            hash_mb,
            ..Default::default()
        },
        line,
    )
}

/// What to search: the bench positions to their own depths (the default), all to
/// `depth`, or for `movetime` each (a speed measurement); `variants` non-empty:
/// only the start positions of those variants.
#[derive(Clone, Debug, Default)]
pub struct BenchSpec {
    pub depth: Option<u32>,
    /// Added to every position's depth (a longer bench, e.g. for thread scaling).
    pub extra_depth: u32,
    /// Only these positions of the table (numbered from 1 as in the output); empty:
    /// all.
    pub only: Vec<usize>,
    pub movetime: Option<Duration>,
    pub threads: usize,
    pub hash_mb: usize,
    pub variants: Vec<String>,
    /// Search with the built-in nets where a variant has one (else every
    /// variant with the hand-crafted evaluation, the default signature).
    pub nnue: bool,
}

pub fn run_spec(
    spec: &BenchSpec,
    mut line: impl FnMut(&BenchLine),
) -> Result<BenchTotal, BenchError> {
    let (builtin, extra) = variant_set();
    let threads = spec.threads.max(1);
    let mut searcher = Searcher::new();
    searcher.set_threads(threads).map_err(BenchError::Threads)?;
    searcher
        .set_hash_mb(spec.hash_mb.max(1))
        .map_err(BenchError::Table)?;
    let mut total_nodes = 0;
    let mut total_time = Duration::ZERO;
    let quiet: Callback = Arc::new(|_| {});
    // (A start position asked for by name gets the depth of the variant's start
    // position in the table, else START_DEPTH.)
    let start_depth = |name: &str| {
        POSITIONS
            .iter()
            .find(|(v, f, _)| f.is_empty() && *v == name)
            .map_or(START_DEPTH, |p| p.2)
    };
    let positions: Vec<(&str, &str, u32)> = if spec.variants.is_empty() {
        POSITIONS.to_vec()
    } else {
        spec.variants
            .iter()
            .map(|v| (canonical_name(v), "", start_depth(canonical_name(v))))
            .collect()
    };
    for (i, (name, fen, table_depth)) in positions.into_iter().enumerate() {
        if !spec.only.is_empty() && !spec.only.contains(&(i + 1)) {
            continue;
        }
        let v = find_in(&builtin, &extra, name).map_err(BenchError::Variant)?;
        let rules = Ruleset::new(v);
        let pos = if fen.is_empty() {
            Position::start(&rules)
        } else {
            match Position::from_fen(&rules, fen) {
                Ok(p) => p,
                Err(_) => continue,
            }
        };
        searcher.clear();
        searcher.set_nnue(if spec.nnue {
            builtin_nnue(&rules).map(Arc::new)
        } else {
            None
        });
        let limits = Limits {
            depth: if spec.movetime.is_some() {
                spec.depth
            } else {
                Some(spec.depth.unwrap_or(table_depth) + spec.extra_depth)
            },
            movetime: spec.movetime,
            ..Default::default()
        };
        let start = Instant::now();
        let out = searcher.think(pos.clone(), limits, quiet.clone());
        let time = start.elapsed();
        let nodes = if threads == 1 {
            out.main_nodes
        } else {
            out.nodes
        };
        total_nodes += nodes;
        total_time += time;
        line(&BenchLine {
            index: i + 1,
            variant: name.to_string(),
            fen: pos.fen(),
            best: if out.best.is_none() {
                "(none)".to_string()
            } else {
                notation::move_to_string(&pos, out.best, RankNumbering::FromOne)
            },
            score: out.score,
            depth: out.depth,
            nodes,
            time,
        });
    }
    Ok(BenchTotal {
        nodes: total_nodes,
        time: total_time,
    })
}
