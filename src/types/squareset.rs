//! Sets of squares on boards of up to 16 x 16: bitvec bit arrays of up to 256 bits.
//! Hot paths use the word-level operations below; the `bitvec` API is there for
//! everything else.
//!
//! The set type is generic over its number of 64-bit words: [`SquareSet`], the one
//! the board keeps, has four (every square of a 16 x 16 board); a board of up to 64
//! (128) squares has all its squares in the first word (two), and code that does much
//! set arithmetic on such a board (the evaluation) works on [`Squares`] of one (two)
//! words, [`Squares::resized`] from the board's sets, at a quarter (half) the cost.

use bitvec::prelude::*;

use super::Square;

/// The bit storage of `W` words, one bit per square index.
pub type SquareBits<const W: usize> = BitArray<[u64; W], Lsb0>;

/// A set of the squares numbered below `64 * W`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Squares<const W: usize>(pub SquareBits<W>);

/// The largest number of words a set needs: 256 squares.
pub const MAX_WORDS: usize = 4;

/// A set of squares of any board.
pub type SquareSet = Squares<MAX_WORDS>;

/// The narrowest sets that hold every square of a board: code generic over the
/// width matches on this to pick `Squares<1>`, `Squares<2>` or [`SquareSet`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    One,
    Two,
    Full,
}

impl Width {
    pub fn for_squares(squares: usize) -> Width {
        match squares {
            0..=64 => Width::One,
            65..=128 => Width::Two,
            _ => Width::Full,
        }
    }
}

impl<const W: usize> std::fmt::Debug for Squares<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<const W: usize> Squares<W> {
    pub const EMPTY: Squares<W> = Squares(BitArray::ZERO);

    #[inline]
    pub fn words(&self) -> &[u64; W] {
        &self.0.data
    }
    #[inline]
    fn words_mut(&mut self) -> &mut [u64; W] {
        &mut self.0.data
    }

    /// The same squares in a set of `V` words. Narrowing drops the words beyond
    /// `V`: only for sets of a board whose squares all lie below `64 * V`.
    #[inline(always)]
    pub fn resized<const V: usize>(&self) -> Squares<V> {
        debug_assert!(self.words().iter().skip(V).all(|&w| w == 0));
        let w = self.words();
        Squares::from_words(std::array::from_fn(|i| if i < W { w[i] } else { 0 }))
    }

    #[inline]
    pub fn single(sq: Square) -> Squares<W> {
        let mut s = Squares::EMPTY;
        s.insert(sq);
        s
    }
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        self.words()[(sq >> 6) as usize] >> (sq & 63) & 1 != 0
    }
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.words_mut()[(sq >> 6) as usize] |= 1u64 << (sq & 63);
    }
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.words_mut()[(sq >> 6) as usize] &= !(1u64 << (sq & 63));
    }
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.words_mut()[(sq >> 6) as usize] ^= 1u64 << (sq & 63);
    }
    #[inline]
    pub fn set(&mut self, sq: Square, on: bool) {
        if on { self.insert(sq) } else { self.remove(sq) }
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.words().iter().fold(0, |acc, &w| acc | w) == 0
    }
    #[inline]
    pub fn count(&self) -> u32 {
        self.words().iter().map(|w| w.count_ones()).sum()
    }
    /// The lowest square of the set.
    #[inline]
    pub fn first(&self) -> Option<Square> {
        for (i, &w) in self.words().iter().enumerate() {
            if w != 0 {
                return Some((i as u32 * 64 + w.trailing_zeros()) as Square);
            }
        }
        None
    }
    /// The highest square of the set.
    #[inline]
    pub fn last(&self) -> Option<Square> {
        for (i, &w) in self.words().iter().enumerate().rev() {
            if w != 0 {
                return Some((i as u32 * 64 + 63 - w.leading_zeros()) as Square);
            }
        }
        None
    }
    /// The squares of the set numbered `sq` or lower.
    #[inline]
    pub fn at_or_below(&self, sq: Square) -> Squares<W> {
        self.cut(sq, u64::MAX >> (63 - (sq & 63)), |i, w| i < w)
    }
    /// The squares of the set numbered `sq` or higher.
    #[inline]
    pub fn at_or_above(&self, sq: Square) -> Squares<W> {
        self.cut(sq, u64::MAX << (sq & 63), |i, w| i > w)
    }
    /// The set with the word of `sq` masked by `mask`, the words for which
    /// `keep(index, index of sq's word)` holds kept whole and the others cleared.
    #[inline(always)]
    fn cut(&self, sq: Square, mask: u64, keep: impl Fn(usize, usize) -> bool) -> Squares<W> {
        let w = (sq >> 6) as usize;
        let mut out = *self.words();
        for (i, word) in out.iter_mut().enumerate() {
            *word &= if i == w {
                mask
            } else if keep(i, w) {
                u64::MAX
            } else {
                0
            };
        }
        Squares::from_words(out)
    }
    #[inline]
    pub fn iter(&self) -> SquareIter<W> {
        let words = *self.words();
        // One past the last word with a square (at least one word).
        let mut end = W;
        while end > 1 && words[end - 1] == 0 {
            end -= 1;
        }
        SquareIter {
            current: words[0],
            base: 0,
            words,
            next: 1,
            end,
        }
    }
    #[inline]
    pub fn intersects(&self, other: &Squares<W>) -> bool {
        let (a, b) = (self.words(), other.words());
        (0..W).fold(0, |acc, i| acc | (a[i] & b[i])) != 0
    }
    #[inline]
    pub fn and(&self, other: &Squares<W>) -> Squares<W> {
        let (a, b) = (self.words(), other.words());
        Squares::from_words(std::array::from_fn(|i| a[i] & b[i]))
    }
    #[inline]
    pub fn or(&self, other: &Squares<W>) -> Squares<W> {
        let (a, b) = (self.words(), other.words());
        Squares::from_words(std::array::from_fn(|i| a[i] | b[i]))
    }
    #[inline]
    pub fn minus(&self, other: &Squares<W>) -> Squares<W> {
        let (a, b) = (self.words(), other.words());
        Squares::from_words(std::array::from_fn(|i| a[i] & !b[i]))
    }
    #[inline]
    pub fn from_words(w: [u64; W]) -> Squares<W> {
        Squares(BitArray::new(w))
    }
}

impl<const W: usize> std::ops::BitAnd for Squares<W> {
    type Output = Squares<W>;
    fn bitand(self, rhs: Squares<W>) -> Squares<W> {
        self.and(&rhs)
    }
}
impl<const W: usize> std::ops::BitOr for Squares<W> {
    type Output = Squares<W>;
    fn bitor(self, rhs: Squares<W>) -> Squares<W> {
        self.or(&rhs)
    }
}
impl<const W: usize> std::ops::BitOrAssign for Squares<W> {
    fn bitor_assign(&mut self, rhs: Squares<W>) {
        *self = self.or(&rhs)
    }
}
impl<const W: usize> std::ops::BitAndAssign for Squares<W> {
    fn bitand_assign(&mut self, rhs: Squares<W>) {
        *self = self.and(&rhs)
    }
}

impl<const W: usize> FromIterator<Square> for Squares<W> {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut s = Squares::EMPTY;
        for sq in iter {
            s.insert(sq);
        }
        s
    }
}

/// Iterates the squares of a set in increasing order, one word at a time up to
/// the last word with a square: the sets of boards of up to 64 squares end
/// without a look at the other words.
pub struct SquareIter<const W: usize> {
    /// The squares of the current word not yet given.
    current: u64,
    /// The square of the current word's lowest bit.
    base: u32,
    words: [u64; W],
    /// The next word to load, and one past the last word with a square.
    next: usize,
    end: usize,
}

impl<const W: usize> Iterator for SquareIter<W> {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        while self.current == 0 {
            if self.next >= self.end {
                return None;
            }
            self.current = self.words[self.next];
            self.base = self.next as u32 * 64;
            self.next += 1;
        }
        let sq = self.base + self.current.trailing_zeros();
        self.current &= self.current - 1;
        Some(sq as Square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resizing_keeps_the_squares_and_narrow_sets_work_alike() {
        let wide: SquareSet = [0, 9, 63].into_iter().collect();
        let one: Squares<1> = wide.resized();
        let two: Squares<2> = wide.resized();
        assert_eq!(one.resized::<MAX_WORDS>(), wide);
        assert_eq!(two.resized::<MAX_WORDS>(), wide);
        let other: SquareSet = [9, 10].into_iter().collect();
        let both = |s: &Squares<1>| s.iter().collect::<Vec<Square>>();
        assert_eq!(both(&one.and(&other.resized())), [9]);
        assert_eq!(both(&one.or(&other.resized())), [0, 9, 10, 63]);
        assert_eq!(both(&one.minus(&other.resized())), [0, 63]);
        assert_eq!(one.at_or_above(9).count(), 2);
        assert_eq!(one.last(), Some(63));
        // A square of the second word survives a round trip through two words.
        let high: SquareSet = [64, 127].into_iter().collect();
        assert_eq!(high.resized::<2>().resized::<MAX_WORDS>(), high);
        assert_eq!(high.resized::<2>().first(), Some(64));
    }

    #[test]
    fn range_cuts_and_last_cross_word_boundaries() {
        let s: SquareSet = [3, 63, 64, 130, 255].into_iter().collect();
        assert_eq!(s.last(), Some(255));
        assert_eq!(SquareSet::EMPTY.last(), None);
        let below: Vec<Square> = s.at_or_below(64).iter().collect();
        assert_eq!(below, [3, 63, 64]);
        let above: Vec<Square> = s.at_or_above(63).iter().collect();
        assert_eq!(above, [63, 64, 130, 255]);
        assert_eq!(s.at_or_below(255), s);
        assert_eq!(s.at_or_above(0), s);
        assert!(s.at_or_below(2).is_empty());
    }
}
