//! Opening books: one plain-text file per variant in `book/`, compiled in. A book
//! maps positions to weighted moves.
//!
//! # Format (`book/NAME.txt`)
//!
//! ```text
//! # menagerie opening book
//! # variant: chess
//! # command: menagerie book build --variant chess --plies 8 --depth 10
//! rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ; e2e4 100 ; d2d4 80
//! ```
//!
//! Lines starting with `#` are comments (the header records the command that made
//! the file). Every other line is a position in FEN, then `;`-separated moves in
//! UCI coordinates (ranks counted from 1, drops `P@e4`, shogi promotion `+`), each
//! followed by its weight (a positive integer; a move is chosen with probability
//! proportional to it). Move counters in the FEN are ignored for matching.
//!
//! Positions are matched by the position's hash key, computed when a book is first
//! used with a variant's rules, so the book works with any definition of the
//! variant that has the same pieces.

pub mod build;

use crate::board::Position;
use crate::movegen::notation;
use crate::types::{Move, MoveList, RankNumbering, splitmix64};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The books shipped in `book/`, by variant name.
const BUILTIN: &[(&str, &str)] = &[
    ("chess", include_str!("../../book/chess.txt")),
    ("crazyhouse", include_str!("../../book/crazyhouse.txt")),
    ("shogi", include_str!("../../book/shogi.txt")),
    ("xiangqi", include_str!("../../book/xiangqi.txt")),
];

/// An opening book for one variant.
#[derive(Clone, Debug, Default)]
pub struct Book {
    text: String,
    /// Position key → book lines (move text, weight); built on first use.
    entries: OnceLock<HashMap<u64, Vec<(String, u32)>>>,
}

impl Book {
    /// The built-in book of a variant, if one ships.
    pub fn builtin(variant: &str) -> Option<Book> {
        BUILTIN
            .iter()
            .find(|(name, _)| *name == variant)
            .map(|(_, text)| Book::from_text(text))
    }

    /// A book from text in the format above (for example a user's file).
    pub fn from_text(text: &str) -> Book {
        Book {
            text: text.to_string(),
            entries: OnceLock::new(),
        }
    }

    /// Parse the lines with the rules of `pos`'s variant. Lines that do not parse
    /// (another variant's FEN, an illegal move) are skipped.
    fn entries(&self, pos: &Position) -> &HashMap<u64, Vec<(String, u32)>> {
        self.entries.get_or_init(|| {
            let rules = pos.rules();
            let mut map: HashMap<u64, Vec<(String, u32)>> = HashMap::new();
            for line in self.text.lines() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let mut parts = line.split(';');
                let fen = parts.next().unwrap_or("").trim();
                let Ok(p) = Position::from_fen(rules, fen) else {
                    continue;
                };
                let moves: Vec<(String, u32)> = parts
                    .filter_map(|m| {
                        let mut it = m.split_whitespace();
                        let mv = it.next()?.to_string();
                        let w = it.next().and_then(|w| w.parse().ok()).unwrap_or(1);
                        Some((mv, w))
                    })
                    .collect();
                map.entry(p.key()).or_default().extend(moves);
            }
            map
        })
    }

    /// Book moves of the position (legal moves only), with weights.
    pub fn moves(&self, pos: &Position) -> Vec<(Move, u32)> {
        let Some(lines) = self.entries(pos).get(&pos.key()) else {
            return Vec::new();
        };
        let mut p = pos.clone();
        let mut legal = MoveList::new();
        p.rules().clone().generate_legal(&mut p, &mut legal);
        let mut out: Vec<(Move, u32)> = Vec::new();
        for (text, w) in lines {
            if let Ok(m) = notation::parse_move(&mut p, text, RankNumbering::FromOne)
                && legal.contains(m)
                && *w > 0
                && !out.iter().any(|(x, _)| *x == m)
            {
                out.push((m, *w));
            }
        }
        out
    }

    /// Pick a book move at random in proportion to the weights; `seed` makes the
    /// choice reproducible (any value will do, e.g. the clock).
    pub fn pick(&self, pos: &Position, seed: u64) -> Option<Move> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|&(_, w)| w as u64).sum();
        if total == 0 {
            return None;
        }
        // SplitMix64 step: enough spread for choosing among a handful of moves.
        let mut r = splitmix64(seed) % total;
        for (m, w) in moves {
            if r < w as u64 {
                return Some(m);
            }
            r -= w as u64;
        }
        None
    }

    pub fn is_empty(&self) -> bool {
        !self
            .text
            .lines()
            .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
    }
}
