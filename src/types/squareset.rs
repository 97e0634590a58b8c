//! Sets of squares on boards of up to 16 x 16: a bitvec bit array of 256 bits.
//! Hot paths use the word-level operations below; the `bitvec` API is there for
//! everything else.

use bitvec::prelude::*;

use super::Square;

/// The bit storage: 256 bits, one per square index.
pub type SquareBits = BitArr!(for 256, in u64, Lsb0);

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SquareSet(pub SquareBits);

impl std::fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl SquareSet {
    pub const EMPTY: SquareSet = SquareSet(BitArray::ZERO);

    #[inline]
    fn words(&self) -> &[u64; 4] {
        &self.0.data
    }
    #[inline]
    fn words_mut(&mut self) -> &mut [u64; 4] {
        &mut self.0.data
    }

    #[inline]
    pub fn single(sq: Square) -> SquareSet {
        let mut s = SquareSet::EMPTY;
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
        let w = self.words();
        (w[0] | w[1] | w[2] | w[3]) == 0
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
    pub fn at_or_below(&self, sq: Square) -> SquareSet {
        self.cut(sq, u64::MAX >> (63 - (sq & 63)), |i, w| i < w)
    }
    /// The squares of the set numbered `sq` or higher.
    #[inline]
    pub fn at_or_above(&self, sq: Square) -> SquareSet {
        self.cut(sq, u64::MAX << (sq & 63), |i, w| i > w)
    }
    /// The set with the word of `sq` masked by `mask`, the words for which
    /// `keep(index, index of sq's word)` holds kept whole and the others cleared.
    #[inline(always)]
    fn cut(&self, sq: Square, mask: u64, keep: impl Fn(usize, usize) -> bool) -> SquareSet {
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
        SquareSet::from_words(out)
    }
    #[inline]
    pub fn iter(&self) -> SquareIter {
        let words = *self.words();
        let end = if words[3] != 0 {
            4
        } else if words[2] != 0 {
            3
        } else if words[1] != 0 {
            2
        } else {
            1
        };
        SquareIter {
            current: words[0],
            base: 0,
            words,
            next: 1,
            end,
        }
    }
    #[inline]
    pub fn intersects(&self, other: &SquareSet) -> bool {
        let (a, b) = (self.words(), other.words());
        (a[0] & b[0]) | (a[1] & b[1]) | (a[2] & b[2]) | (a[3] & b[3]) != 0
    }
    #[inline]
    pub fn and(&self, other: &SquareSet) -> SquareSet {
        let (a, b) = (self.words(), other.words());
        SquareSet::from_words([a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]])
    }
    #[inline]
    pub fn or(&self, other: &SquareSet) -> SquareSet {
        let (a, b) = (self.words(), other.words());
        SquareSet::from_words([a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]])
    }
    #[inline]
    pub fn minus(&self, other: &SquareSet) -> SquareSet {
        let (a, b) = (self.words(), other.words());
        SquareSet::from_words([a[0] & !b[0], a[1] & !b[1], a[2] & !b[2], a[3] & !b[3]])
    }
    #[inline]
    pub fn from_words(w: [u64; 4]) -> SquareSet {
        SquareSet(BitArray::new(w))
    }
}

impl std::ops::BitAnd for SquareSet {
    type Output = SquareSet;
    fn bitand(self, rhs: SquareSet) -> SquareSet {
        self.and(&rhs)
    }
}
impl std::ops::BitOr for SquareSet {
    type Output = SquareSet;
    fn bitor(self, rhs: SquareSet) -> SquareSet {
        self.or(&rhs)
    }
}
impl std::ops::BitOrAssign for SquareSet {
    fn bitor_assign(&mut self, rhs: SquareSet) {
        *self = self.or(&rhs)
    }
}
impl std::ops::BitAndAssign for SquareSet {
    fn bitand_assign(&mut self, rhs: SquareSet) {
        *self = self.and(&rhs)
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut s = SquareSet::EMPTY;
        for sq in iter {
            s.insert(sq);
        }
        s
    }
}

/// Iterates the squares of a set in increasing order, one word at a time up to
/// the last word with a square: the sets of boards of up to 64 squares end
/// without a look at the other three.
pub struct SquareIter {
    /// The squares of the current word not yet given.
    current: u64,
    /// The square of the current word's lowest bit.
    base: u32,
    words: [u64; 4],
    /// The next word to load, and one past the last word with a square.
    next: usize,
    end: usize,
}

impl Iterator for SquareIter {
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
