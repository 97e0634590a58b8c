//! Board geometry: files x ranks up to 16 x 16, square indices and names.

use super::{MAX_WORDS, SquareSet};

/// A square index: `rank * files + file` (see [`Geometry`]). On a 16 x 16 board every
/// value is a square, so none may mean "no square": that is `Option<Square>`.
pub type Square = u8;

pub const MAX_FILES: u8 = 16;
pub const MAX_RANKS: u8 = 16;

/// How ranks are numbered in square names on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankNumbering {
    /// Ranks counted from 1 on every board (FEN, UCI, Fairy-Stockfish).
    FromOne,
    /// XBoard: ranks counted from 0 on boards of exactly 10 ranks, else from 1.
    XBoard,
}

/// The shape of a board. Square index = rank * files + file, file 0 = `a`,
/// rank 0 = White's first rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    pub files: u8,
    pub ranks: u8,
}

impl Geometry {
    pub fn new(files: u8, ranks: u8) -> Option<Geometry> {
        if (1..=MAX_FILES).contains(&files) && (1..=MAX_RANKS).contains(&ranks) {
            Some(Geometry { files, ranks })
        } else {
            None
        }
    }

    #[inline]
    pub fn num_squares(&self) -> usize {
        self.files as usize * self.ranks as usize
    }
    #[inline]
    pub fn square(&self, file: u8, rank: u8) -> Square {
        rank * self.files + file
    }
    #[inline]
    pub fn file(&self, sq: Square) -> u8 {
        sq % self.files
    }
    #[inline]
    pub fn rank(&self, sq: Square) -> u8 {
        sq / self.files
    }
    /// The square `(dx, dy)` away, if it is on the board.
    #[inline]
    pub fn offset(&self, sq: Square, dx: i32, dy: i32) -> Option<Square> {
        let f = self.file(sq) as i32 + dx;
        let r = self.rank(sq) as i32 + dy;
        if f >= 0 && r >= 0 && f < self.files as i32 && r < self.ranks as i32 {
            Some(self.square(f as u8, r as u8))
        } else {
            None
        }
    }
    /// Like [`offset`](Self::offset) but files wrap around (cylinder boards).
    #[inline]
    pub fn offset_wrapping(&self, sq: Square, dx: i32, dy: i32) -> Option<Square> {
        let n = self.files as i32;
        let f = ((self.file(sq) as i32 + dx) % n + n) % n;
        let r = self.rank(sq) as i32 + dy;
        if r >= 0 && r < self.ranks as i32 {
            Some(self.square(f as u8, r as u8))
        } else {
            None
        }
    }
    /// Rank as seen by `color`'s side: 0 = its own first rank.
    #[inline]
    pub fn relative_rank(&self, sq: Square, white: bool) -> u8 {
        if white {
            self.rank(sq)
        } else {
            self.ranks - 1 - self.rank(sq)
        }
    }

    /// Every square of the board: the squares up to the last one, cut from a full
    /// set word by word (the evaluation and drop generation ask for it at every node).
    #[inline]
    pub fn all(&self) -> SquareSet {
        let last = (self.num_squares() - 1) as Square;
        SquareSet::from_words([u64::MAX; MAX_WORDS]).at_or_below(last)
    }
    pub fn rank_set(&self, rank: u8) -> SquareSet {
        (0..self.files).map(|f| self.square(f, rank)).collect()
    }
    pub fn file_set(&self, file: u8) -> SquareSet {
        (0..self.ranks).map(|r| self.square(file, r)).collect()
    }
    pub fn squares(&self) -> impl Iterator<Item = Square> {
        (0..self.num_squares() as u16).map(|s| s as Square)
    }

    fn rank_base(&self, numbering: RankNumbering) -> u32 {
        match numbering {
            RankNumbering::XBoard if self.ranks == 10 => 0,
            _ => 1,
        }
    }

    /// The name of a square, e.g. `e4`, `a10`.
    pub fn name(&self, sq: Square, numbering: RankNumbering) -> String {
        let f = (b'a' + self.file(sq)) as char;
        format!("{}{}", f, self.rank(sq) as u32 + self.rank_base(numbering))
    }

    /// Parse a square name at the start of `text`; returns the square and the
    /// number of bytes used. Two-digit ranks are read greedily when they exist.
    pub fn parse_square_prefix(
        &self,
        text: &str,
        numbering: RankNumbering,
    ) -> Option<(Square, usize)> {
        let b = text.as_bytes();
        if b.is_empty() || !(b'a'..=b'p').contains(&b[0]) {
            return None;
        }
        let file = b[0] - b'a';
        if file >= self.files {
            return None;
        }
        let base = self.rank_base(numbering);
        let mut digits = 0;
        while digits < 2 && 1 + digits < b.len() && b[1 + digits].is_ascii_digit() {
            digits += 1;
        }
        // Prefer the longest number that names a rank on this board.
        for len in (1..=digits).rev() {
            let s = std::str::from_utf8(&b[1..1 + len]).ok()?;
            if len == 2 && s.starts_with('0') {
                continue;
            }
            let n: u32 = s.parse().ok()?;
            if n >= base && n - base < self.ranks as u32 {
                return Some((self.square(file, (n - base) as u8), 1 + len));
            }
        }
        None
    }

    /// Parse a whole square name.
    pub fn parse_square(&self, text: &str, numbering: RankNumbering) -> Option<Square> {
        match self.parse_square_prefix(text, numbering) {
            Some((sq, n)) if n == text.len() => Some(sq),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `all` holds exactly the board's squares, on boards that fill their words
    /// exactly and on ones that end inside a word.
    #[test]
    fn all_is_every_square_and_nothing_else() {
        for (files, ranks) in [(1, 1), (5, 5), (8, 8), (9, 9), (10, 8), (8, 16), (16, 16)] {
            let g = Geometry::new(files, ranks).unwrap();
            let one_by_one: SquareSet = g.squares().collect();
            assert_eq!(g.all(), one_by_one, "{files} x {ranks}");
            assert_eq!(g.all().count() as usize, g.num_squares());
        }
    }
}
