//! The thread's caches: of whole evaluations (the search meets a position again
//! where the transposition table kept no evaluation of it), of the pawn structure
//! (it changes far less often than the position), of the pawn terms that read the
//! royal pieces, and the first pass's scratch sets, kept so that the hot path
//! neither allocates nor clears more than it uses. Each cache is direct-mapped
//! and allocated at its first use; every key mixes in the evaluator's id, since
//! threads outlive evaluators.

use super::facts::{PawnMaps, PawnScore, PieceFacts};
use super::trace::{NoTrace, Trace};
use super::{EVAL_LIMIT, Evaluator, LAZY_OFF};
use crate::board::Position;
use crate::types::{Color, GOLDEN_GAMMA, MAX_WORDS, PieceType, SquareSet, Squares, absorb, mix64};
use std::cell::RefCell;
use std::sync::atomic::AtomicU64;

/// Entries of a thread's pawn cache (a power of two).
const PAWN_CACHE_SIZE: usize = 4096;

/// A pawn-cache entry: the key of [`Evaluator::pawn_key`] (0: empty), both
/// colours' pawn structure and, where the pawn's captures do not depend on the
/// occupancy, the pawn maps' pawn-only part (pushes empty). In sets of the
/// evaluation's width: a chess entry fits in two cache lines, not five.
#[derive(Clone, Copy)]
pub(super) struct PawnEntry<const W: usize> {
    key: u64,
    scores: [PawnScore<W>; 2],
    maps: PawnMaps<W>,
}

/// Entries of a thread's cache of the pawn terms that read the royal pieces (a
/// power of two).
const PAWN_KING_CACHE_SIZE: usize = 16384;

/// A cache entry of the pawn terms that read the royal pieces: the key of
/// [`Evaluator::pawn_king_key`] (0: empty) and both colours' terms (mg, eg).
#[derive(Clone, Copy)]
struct PawnKingEntry {
    key: u64,
    scores: [[i32; 2]; 2],
}

impl PawnKingEntry {
    const EMPTY: PawnKingEntry = PawnKingEntry {
        key: 0,
        scores: [[0; 2]; 2],
    };
}

impl<const W: usize> PawnEntry<W> {
    const EMPTY: PawnEntry<W> = PawnEntry {
        key: 0,
        scores: [PawnScore::EMPTY; 2],
        maps: PawnMaps {
            attacks: [Squares::EMPTY; 2],
            reach: [Squares::EMPTY; 2],
            pushes: [Squares::EMPTY; 2],
            files: [0; 2],
            pawn: 0,
        },
    };
}

/// Entries of a thread's evaluation cache (a power of two).
const EVAL_CACHE_SIZE: usize = 1 << 16;

/// No value in an evaluation-cache entry.
pub(super) const EVAL_UNKNOWN: i32 = i32::MIN;

/// An evaluation-cache entry: the position key mixed with the evaluator's id (0:
/// empty), the cheap part's score (for the lazy exit; `EVAL_UNKNOWN` where that
/// exit does not apply) and the full score, if it was computed.
#[derive(Clone, Copy)]
struct EvalEntry {
    key: u64,
    lazy: i32,
    full: i32,
}

impl EvalEntry {
    const EMPTY: EvalEntry = EvalEntry {
        key: 0,
        lazy: EVAL_UNKNOWN,
        full: EVAL_UNKNOWN,
    };
}

/// The entry for `slot` of one of the thread's direct-mapped caches, which are
/// allocated (`size` copies of `empty`) at their first use.
#[inline]
fn cache_slot<E: Copy>(cache: &mut Vec<E>, size: usize, empty: E, slot: usize) -> &mut E {
    if cache.is_empty() {
        cache.resize(size, empty);
    }
    &mut cache[slot]
}

/// A cache key from a hash whose high bits, where the slot is taken, may not
/// depend on every input bit (a multiply carries only upward: the pawn key's slot
/// once ignored most of the last colour's pawns, and 40 % of a chess search's
/// lookups missed): mixed by SplitMix64's finalizer, with bit 0 set (0 marks an
/// empty entry).
#[inline]
fn cache_key(h: u64) -> u64 {
    mix64(h) | 1
}

/// Tells evaluators apart in the caches (threads outlive evaluators).
pub(super) static NEXT_EVALUATOR_ID: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// The pawn structures met lately: they change far less often than the position.
    static PAWN_CACHE: RefCell<PawnCache> =
        const { RefCell::new(ByWidth::new()) };
    /// The pawn terms that read the royal pieces, for the pawns and royal pieces
    /// met lately: the royal pieces move more often than the pawns.
    static PAWN_KING_CACHE: RefCell<Vec<PawnKingEntry>> = const { RefCell::new(Vec::new()) };
    /// The positions evaluated lately: the search meets a position again where the
    /// transposition table kept no evaluation of it (quiescence's stand-pat cuts,
    /// nodes pruned before they store anything).
    static EVAL_CACHE: RefCell<Vec<EvalEntry>> = const { RefCell::new(Vec::new()) };
    /// The per-type square sets of [`Facts`](super::facts::Facts), kept between
    /// evaluations: the hot path neither allocates nor clears more than the
    /// variant's types (a fixed array for every possible type would be kilobytes
    /// to clear per evaluation).
    static TYPE_SETS: RefCell<TypeSetCache> =
        const { RefCell::new(ByWidth::new()) };
    /// The first pass's list of pieces, kept between evaluations (emptied, never
    /// freed: no allocation once it has held the most pieces met).
    static PIECES: RefCell<PieceCache> = const { RefCell::new(ByWidth::new()) };
}

/// One vector of a thread's cached items per set width (an evaluation uses the
/// one of its board's width).
pub(super) struct ByWidth<A, B, C> {
    one: Vec<A>,
    two: Vec<B>,
    all: Vec<C>,
}

/// The per-type square sets of [`Facts`](super::facts::Facts), one vector per width.
pub(super) type TypeSetCache = ByWidth<Squares<1>, Squares<2>, SquareSet>;

/// A thread's pawn-cache entries, one vector per width.
pub(super) type PawnCache = ByWidth<PawnEntry<1>, PawnEntry<2>, PawnEntry<MAX_WORDS>>;

/// The first pass's pieces, one vector per width.
pub(super) type PieceCache = ByWidth<PieceFacts<1>, PieceFacts<2>, PieceFacts<MAX_WORDS>>;

impl<A, B, C> ByWidth<A, B, C> {
    const fn new() -> Self {
        ByWidth {
            one: Vec::new(),
            two: Vec::new(),
            all: Vec::new(),
        }
    }
}

/// The widths the evaluation works in (boards of up to 64, 128 and 256 squares):
/// which vector of the thread's caches holds this width's items.
pub(super) trait EvalWidth<const W: usize> {
    fn type_sets(sets: &mut TypeSetCache) -> &mut Vec<Squares<W>>;
    fn pawn_entries(entries: &mut PawnCache) -> &mut Vec<PawnEntry<W>>;
    fn pieces(pieces: &mut PieceCache) -> &mut Vec<PieceFacts<W>>;
}

impl EvalWidth<1> for Squares<1> {
    fn type_sets(sets: &mut TypeSetCache) -> &mut Vec<Squares<1>> {
        &mut sets.one
    }
    fn pawn_entries(entries: &mut PawnCache) -> &mut Vec<PawnEntry<1>> {
        &mut entries.one
    }
    fn pieces(pieces: &mut PieceCache) -> &mut Vec<PieceFacts<1>> {
        &mut pieces.one
    }
}

impl EvalWidth<2> for Squares<2> {
    fn type_sets(sets: &mut TypeSetCache) -> &mut Vec<Squares<2>> {
        &mut sets.two
    }
    fn pawn_entries(entries: &mut PawnCache) -> &mut Vec<PawnEntry<2>> {
        &mut entries.two
    }
    fn pieces(pieces: &mut PieceCache) -> &mut Vec<PieceFacts<2>> {
        &mut pieces.two
    }
}

impl EvalWidth<MAX_WORDS> for SquareSet {
    fn type_sets(sets: &mut TypeSetCache) -> &mut Vec<SquareSet> {
        &mut sets.all
    }
    fn pawn_entries(entries: &mut PawnCache) -> &mut Vec<PawnEntry<MAX_WORDS>> {
        &mut entries.all
    }
    fn pieces(pieces: &mut PieceCache) -> &mut Vec<PieceFacts<MAX_WORDS>> {
        &mut pieces.all
    }
}

impl Evaluator {
    /// The evaluation when only its relation to the window (alpha, beta) matters:
    /// positions far outside it get the cheap part of the evaluation only. The flag
    /// is false for such a cheap (lazy) value.
    pub fn evaluate_window(&self, pos: &Position, alpha: i32, beta: i32) -> (i32, bool) {
        if let Some(nnue) = &self.nnue {
            return (nnue.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT), true);
        }
        let key = (pos.key() ^ self.id.wrapping_mul(GOLDEN_GAMMA)) | 1;
        // (Bit 0 is always set, marking a used entry: the slot takes the bits above.)
        let slot = (key >> 1) as usize & (EVAL_CACHE_SIZE - 1);
        let hit = EVAL_CACHE.with_borrow_mut(|cache| {
            let e = *cache_slot(cache, EVAL_CACHE_SIZE, EvalEntry::EMPTY, slot);
            (e.key == key).then_some(e)
        });
        if let Some(e) = hit {
            if e.lazy != EVAL_UNKNOWN
                && (alpha > -LAZY_OFF || beta < LAZY_OFF)
                && (e.lazy + self.lazy_margin <= alpha || e.lazy - self.lazy_margin >= beta)
            {
                return (e.lazy, false);
            }
            if e.full != EVAL_UNKNOWN {
                return (e.full, true);
            }
        }
        let mut lazy = EVAL_UNKNOWN;
        let (score, full) = self.evaluate_parts(pos, alpha, beta, &mut NoTrace, &mut lazy);
        EVAL_CACHE.with_borrow_mut(|cache| {
            cache[slot] = EvalEntry {
                key,
                lazy,
                full: if full { score } else { EVAL_UNKNOWN },
            }
        });
        (score, full)
    }

    /// The pawn structure of both colours (see [`Self::pawn_structure`]) with its
    /// terms that read the royal pieces ([`Self::pawn_king_terms`]) in the score,
    /// without the free-square term; with it the pawn maps' pawn-only part where
    /// the cache keeps them (`pawn_maps_cached`). From the thread's caches (never
    /// when tracing): the structure while the pawns stand where they stood, the
    /// royal pieces' terms while the royal pieces do too.
    pub(super) fn pawn_scores<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        p: PieceType,
        tr: &mut T,
    ) -> ([PawnScore<W>; 2], Option<PawnMaps<W>>)
    where
        Squares<W>: EvalWidth<W>,
    {
        let key = self.pawn_key::<W>(pos, p);
        let (mut scores, maps) = if T::ON {
            let scores = Color::BOTH.map(|c| self.pawn_structure(pos, c, p, tr));
            (scores, None)
        } else {
            self.cached_pawn_structure::<W>(pos, p, key)
        };
        let king_terms = |tr: &mut T, scores: &[PawnScore<W>; 2]| {
            Color::BOTH.map(|c| self.pawn_king_terms(pos, c, p, &scores[c as usize].passed, tr))
        };
        let king = if T::ON {
            king_terms(tr, &scores)
        } else {
            let key = self.pawn_king_key(pos, key);
            let slot = (key >> 50) as usize & (PAWN_KING_CACHE_SIZE - 1);
            PAWN_KING_CACHE.with_borrow_mut(|cache| {
                let entry = cache_slot(cache, PAWN_KING_CACHE_SIZE, PawnKingEntry::EMPTY, slot);
                if entry.key != key {
                    *entry = PawnKingEntry {
                        key,
                        scores: king_terms(tr, &scores),
                    };
                }
                entry.scores
            })
        };
        for (s, [a, b]) in scores.iter_mut().zip(king) {
            s.score[0] += a;
            s.score[1] += b;
        }
        (scores, maps)
    }

    /// [`Self::pawn_structure`] of both colours and the pawn maps' pawn-only part
    /// where it is kept, from the thread's pawn cache when the pawns stand where
    /// they stood (`key`: [`Self::pawn_key`]).
    fn cached_pawn_structure<const W: usize>(
        &self,
        pos: &Position,
        p: PieceType,
        key: u64,
    ) -> ([PawnScore<W>; 2], Option<PawnMaps<W>>)
    where
        Squares<W>: EvalWidth<W>,
    {
        let slot = (key >> 52) as usize & (PAWN_CACHE_SIZE - 1);
        PAWN_CACHE.with_borrow_mut(|caches| {
            let cache = Squares::<W>::pawn_entries(caches);
            let entry = cache_slot(cache, PAWN_CACHE_SIZE, PawnEntry::EMPTY, slot);
            if entry.key != key {
                let scores: [PawnScore<W>; 2] =
                    Color::BOTH.map(|c| self.pawn_structure(pos, c, p, &mut NoTrace));
                let maps = self
                    .pawn_maps_cached
                    .then(|| self.pawn_maps(pos, p, &Squares::<W>::EMPTY));
                *entry = PawnEntry {
                    key,
                    scores,
                    maps: maps.unwrap_or(PawnEntry::EMPTY.maps),
                };
                return (scores, maps);
            }
            (entry.scores, self.pawn_maps_cached.then_some(entry.maps))
        })
    }

    /// What the pawn terms that read the royal pieces depend on, hashed: the pawn
    /// key and the squares of both colours' (first) royal pieces.
    #[inline]
    fn pawn_king_key(&self, pos: &Position, pawn_key: u64) -> u64 {
        let mut h = pawn_key;
        for c in Color::BOTH {
            let royal = pos.royals(c).first().map_or(0, |k| k as u64 + 1);
            h = absorb(h, royal);
        }
        cache_key(h)
    }

    /// What the pawn structure depends on, hashed: this evaluator and both
    /// colours' pawns.
    #[inline]
    fn pawn_key<const W: usize>(&self, pos: &Position, p: PieceType) -> u64 {
        let mut h = self.id.wrapping_mul(GOLDEN_GAMMA);
        for c in Color::BOTH {
            for &w in pos.pieces_of(c, p).resized::<W>().words() {
                h = absorb(h, w);
            }
        }
        cache_key(h)
    }
}

/// Runs `f` with the thread's scratch space in sets of `W` words: `4 * n` empty
/// type sets and an empty list of pieces.
pub(super) fn with_scratch<const W: usize, R>(
    n: usize,
    f: impl FnOnce(&mut [Squares<W>], &mut Vec<PieceFacts<W>>) -> R,
) -> R
where
    Squares<W>: EvalWidth<W>,
{
    TYPE_SETS.with_borrow_mut(|sets| {
        PIECES.with_borrow_mut(|pieces| {
            let sets = Squares::<W>::type_sets(sets);
            sets.clear();
            sets.resize(4 * n, Squares::EMPTY);
            let pieces = Squares::<W>::pieces(pieces);
            pieces.clear();
            f(sets, pieces)
        })
    })
}
