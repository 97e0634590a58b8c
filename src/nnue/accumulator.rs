//! Accumulators: the first layer's output for both perspectives, computed from
//! scratch or updated from what the moves since an earlier accumulator changed.
//!
//! A thread keeps a small ring of accumulators indexed by ply, each tagged with
//! its ply and the position's key there. To evaluate, it looks back for the
//! nearest ply whose accumulator is still valid (same ply, same key: the same
//! pieces, hands and walls) and applies the squares and hands changed since, as
//! the position's change log gives them ([`Position::changes_since`]); where none
//! is found, or too much changed, it refreshes. Unmake needs no hook: the entry of
//! the ply the search returns to is still there and still valid.

use super::features::Layout;
use super::net::Net;
use crate::board::Position;
use crate::types::{Color, MAX_PIECE_TYPES, PieceType};

/// Plies kept per thread (a power of two): more than the look back, so that the
/// entries within reach never share a slot.
const RING: usize = 64;
/// How far back an evaluation looks for a valid accumulator.
const LOOK_BACK: usize = 24;
/// Beyond this many square changes a refresh is cheaper than the updates (each
/// change is up to two columns per perspective; a refresh one per piece).
const MAX_INCREMENTAL_CHANGES: usize = 32;

/// Both perspectives' accumulators: White's `hidden` values, then Black's; and
/// their linear (PSQT) sums: White's `buckets` values, then Black's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: Vec<i16>,
    hidden: usize,
    psqt: Vec<i32>,
    buckets: usize,
}

impl Accumulator {
    /// Zeros for a net of width `hidden` and `buckets` output buckets (filled by
    /// [`refresh`](Self::refresh)).
    pub fn new(hidden: usize, buckets: usize) -> Accumulator {
        Accumulator {
            values: vec![0; 2 * hidden],
            hidden,
            psqt: vec![0; 2 * buckets],
            buckets,
        }
    }

    /// The accumulator of `pos`, computed from scratch.
    pub fn from_position(net: &Net, layout: &Layout, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::new(net.hidden, net.buckets);
        acc.refresh(net, layout, pos);
        acc
    }

    /// Compute from scratch: the biases plus the column of every active input;
    /// the linear sums of the same inputs.
    pub fn refresh(&mut self, net: &Net, layout: &Layout, pos: &Position) {
        debug_assert_eq!(self.hidden, net.hidden);
        debug_assert_eq!(self.buckets, net.buckets);
        for p in Color::BOTH {
            let (half, psqt) = self.halves_mut(p);
            half.copy_from_slice(&net.feature_bias);
            psqt.fill(0);
            layout.for_each_active(pos, p, |i| {
                add(half, net.column(i));
                add_psqt(psqt, net.psqt_column(i));
            });
        }
    }

    /// Take `other`'s values (of a net of the same sizes).
    fn copy_from(&mut self, other: &Accumulator) {
        self.values.copy_from_slice(&other.values);
        self.psqt.copy_from_slice(&other.psqt);
    }

    /// The accumulator of perspective `p`.
    #[inline]
    pub fn perspective(&self, p: Color) -> &[i16] {
        let h = self.hidden;
        &self.values[p as usize * h..(p as usize + 1) * h]
    }

    /// The linear sums of perspective `p`, one per bucket.
    #[inline]
    pub fn psqt(&self, p: Color) -> &[i32] {
        let b = self.buckets;
        &self.psqt[p as usize * b..(p as usize + 1) * b]
    }

    /// Perspective `p`'s accumulator and linear sums, to change.
    #[inline]
    fn halves_mut(&mut self, p: Color) -> (&mut [i16], &mut [i32]) {
        let (h, b) = (self.hidden, self.buckets);
        (
            &mut self.values[p as usize * h..(p as usize + 1) * h],
            &mut self.psqt[p as usize * b..(p as usize + 1) * b],
        )
    }

    /// Switch input `i` on (`on`) or off in perspective `p`.
    #[inline]
    fn toggle(&mut self, net: &Net, p: Color, i: usize, on: bool) {
        let (half, psqt) = self.halves_mut(p);
        if on {
            add(half, net.column(i));
            add_psqt(psqt, net.psqt_column(i));
        } else {
            sub(half, net.column(i));
            sub_psqt(psqt, net.psqt_column(i));
        }
    }

    /// Follow the last `plies` plies of `pos` (this accumulator holds the position
    /// `plies` plies ago): each changed square's input then and now, each count in
    /// hand then and now.
    fn follow(&mut self, net: &Net, layout: &Layout, pos: &Position, plies: usize) {
        // A square may change several times: its first log entry holds its
        // contents then, the board its contents now.
        let mut seen = [0u64; 4];
        for (sq, old) in pos.changes_since(plies) {
            let (word, bit) = (sq as usize / 64, 1u64 << (sq % 64));
            if seen[word] & bit != 0 {
                continue;
            }
            seen[word] |= bit;
            let new = pos.piece_at(sq);
            if new == old {
                continue;
            }
            for p in Color::BOTH {
                if let Some(i) = layout.square_feature(p, sq, old) {
                    self.toggle(net, p, i, false);
                }
                if let Some(i) = layout.square_feature(p, sq, new) {
                    self.toggle(net, p, i, true);
                }
            }
        }
        let before = &pos.state_back(plies).hand;
        let after = &pos.state().hand;
        for c in Color::BOTH {
            for t in 0..layout.types().min(MAX_PIECE_TYPES) {
                let slots = layout.hand_slots(t as PieceType);
                let old = before[c as usize][t].min(slots);
                let new = after[c as usize][t].min(slots);
                if old == new {
                    continue;
                }
                for p in Color::BOTH {
                    for slot in new..old {
                        if let Some(i) = layout.hand_feature(p, c, t as PieceType, slot) {
                            self.toggle(net, p, i, false);
                        }
                    }
                    for slot in old..new {
                        if let Some(i) = layout.hand_feature(p, c, t as PieceType, slot) {
                            self.toggle(net, p, i, true);
                        }
                    }
                }
            }
        }
    }
}

/// `acc += column`, element-wise (wrapping, so that any order of updates gives
/// the same bits as a refresh); written plainly so that LLVM vectorises it.
#[inline]
fn add(acc: &mut [i16], column: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(column) {
        *a = a.wrapping_add(w);
    }
}

/// `acc -= column`, element-wise.
#[inline]
fn sub(acc: &mut [i16], column: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(column) {
        *a = a.wrapping_sub(w);
    }
}

/// `psqt += column`, element-wise (wrapping, as [`add`]; the trainer bounds the
/// weights so that no sum wraps).
#[inline]
fn add_psqt(psqt: &mut [i32], column: &[i32]) {
    for (a, &w) in psqt.iter_mut().zip(column) {
        *a = a.wrapping_add(w);
    }
}

/// `psqt -= column`, element-wise.
#[inline]
fn sub_psqt(psqt: &mut [i32], column: &[i32]) {
    for (a, &w) in psqt.iter_mut().zip(column) {
        *a = a.wrapping_sub(w);
    }
}

/// One ply's accumulator, tagged with what it is valid for.
#[derive(Clone)]
struct Entry {
    valid: bool,
    ply: usize,
    key: u64,
    acc: Accumulator,
}

/// A thread's accumulators for one net, by ply.
pub struct AccumulatorStack {
    /// The net the entries were computed with (0: none yet).
    net_id: u64,
    entries: Vec<Entry>,
    /// How the last [`update`](Self::update) got its accumulator (for tests).
    last_path: UpdatePath,
}

/// How an accumulator was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpdatePath {
    /// Already there for this ply.
    Kept,
    /// Updated from the valid entry this many plies back.
    Incremental(usize),
    /// Computed from scratch.
    Refreshed,
}

impl Default for AccumulatorStack {
    fn default() -> Self {
        AccumulatorStack::new()
    }
}

impl AccumulatorStack {
    /// An empty stack (allocated at its first use).
    pub const fn new() -> AccumulatorStack {
        AccumulatorStack {
            net_id: 0,
            entries: Vec::new(),
            last_path: UpdatePath::Refreshed,
        }
    }

    /// How the last update got its accumulator.
    pub fn last_path(&self) -> UpdatePath {
        self.last_path
    }

    /// The accumulator of `pos` for `net`: kept, updated from the nearest valid
    /// earlier ply, or refreshed.
    pub fn update(&mut self, net: &Net, layout: &Layout, pos: &Position) -> &Accumulator {
        if self.net_id != net.id || self.entries.is_empty() {
            self.net_id = net.id;
            self.entries = vec![
                Entry {
                    valid: false,
                    ply: 0,
                    key: 0,
                    acc: Accumulator::new(net.hidden, net.buckets),
                };
                RING
            ];
        }
        let n = pos.ply_count();
        let slot = n % RING;
        let found = (0..=LOOK_BACK.min(n)).find(|&back| {
            let e = &self.entries[(n - back) % RING];
            e.valid && e.ply == n - back && e.key == pos.state_back(back).key
        });
        self.last_path = match found {
            Some(0) => UpdatePath::Kept,
            Some(back) if pos.changes_since(back).count() <= MAX_INCREMENTAL_CHANGES => {
                let from = (n - back) % RING;
                let (src, dst) = two_mut(&mut self.entries, from, slot);
                dst.acc.copy_from(&src.acc);
                dst.acc.follow(net, layout, pos, back);
                UpdatePath::Incremental(back)
            }
            _ => {
                self.entries[slot].acc.refresh(net, layout, pos);
                UpdatePath::Refreshed
            }
        };
        let e = &mut self.entries[slot];
        e.valid = true;
        e.ply = n;
        e.key = pos.key();
        &e.acc
    }
}

/// Two distinct entries, the first shared, the second mutable.
fn two_mut(entries: &mut [Entry], a: usize, b: usize) -> (&Entry, &mut Entry) {
    debug_assert_ne!(a, b);
    if a < b {
        let (lo, hi) = entries.split_at_mut(b);
        (&lo[a], &mut hi[0])
    } else {
        let (lo, hi) = entries.split_at_mut(a);
        (&hi[0], &mut lo[b])
    }
}
