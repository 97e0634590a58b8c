//! The net: inputs -> H accumulator (shared by both perspectives) -> squared
//! clipped ReLU of both accumulators, side to move first -> one output, chosen
//! among B output buckets by the number of pieces on the board; beside it a
//! linear path (PSQT): each input has B weights, summed per perspective, and half
//! the side to move's sum minus the other's is added to the output. The linear
//! path holds what is additive (material, above all), so that the nonlinear part
//! learns only the rest; a trainer starts it from the variant's piece values.
//!
//! Quantisation: the accumulator's weights and biases are scaled by `qa`, the
//! output weights by `qb`, the output bias and the PSQT weights by `qa * qb`. An
//! accumulator value `a` becomes `clamp(a, 0, qa)²` (scale `qa²`); the sum of
//! those times the output weights has scale `qa² * qb`, is divided by `qa` to the
//! bias's scale `qa * qb`, the bias and the PSQT term are added in that scale, and
//! the total times `scale / (qa * qb)` is the evaluation in centipawns for the
//! side to move.

use super::features::Layout;
use crate::types::{Color, SplitMix64};
use std::sync::atomic::{AtomicU64, Ordering};

/// Tells nets apart in the threads' accumulator stacks (threads outlive nets).
static NEXT_NET_ID: AtomicU64 = AtomicU64::new(1);

/// A quantised net for one variant's layout. The weights are open to a trainer;
/// change them only before the net's first evaluation (the threads keep
/// accumulators per net): a changed copy should be a clone, which is another net.
#[derive(Debug)]
pub struct Net {
    /// Unique per net in this process (not stored): keys the threads' stacks.
    pub(super) id: u64,
    pub fingerprint: u64,
    pub inputs: usize,
    pub variant: String,
    /// Accumulator width per perspective.
    pub hidden: usize,
    /// Output buckets (at least 1).
    pub buckets: usize,
    /// The activation's clip and the accumulator's weight scale.
    pub qa: i16,
    /// The output weights' scale.
    pub qb: i16,
    /// Centipawns per unit of the net's dequantised output.
    pub scale: i32,
    /// How the net was made (commands, seeds, data counts).
    pub provenance: String,
    /// `inputs * hidden`, input-major: input `i`'s column is `[i * hidden ..]`.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// `inputs * buckets`, input-major: input `i`'s linear weight per bucket, in
    /// the output bias's unit (`qa * qb`).
    pub psqt_weights: Vec<i32>,
    /// `buckets * 2 * hidden`: per bucket, the side to move's half first.
    pub output_weights: Vec<i16>,
    pub output_bias: Vec<i32>,
}

impl Clone for Net {
    /// A copy is another net for the accumulator stacks (its weights may change).
    fn clone(&self) -> Net {
        Net {
            id: NEXT_NET_ID.fetch_add(1, Ordering::Relaxed),
            fingerprint: self.fingerprint,
            inputs: self.inputs,
            variant: self.variant.clone(),
            hidden: self.hidden,
            buckets: self.buckets,
            qa: self.qa,
            qb: self.qb,
            scale: self.scale,
            provenance: self.provenance.clone(),
            feature_weights: self.feature_weights.clone(),
            feature_bias: self.feature_bias.clone(),
            psqt_weights: self.psqt_weights.clone(),
            output_weights: self.output_weights.clone(),
            output_bias: self.output_bias.clone(),
        }
    }
}

impl PartialEq for Net {
    /// Equal when everything stored in a net file is (the process-local id aside).
    fn eq(&self, o: &Net) -> bool {
        self.fingerprint == o.fingerprint
            && self.inputs == o.inputs
            && self.variant == o.variant
            && self.hidden == o.hidden
            && self.buckets == o.buckets
            && self.qa == o.qa
            && self.qb == o.qb
            && self.scale == o.scale
            && self.provenance == o.provenance
            && self.feature_weights == o.feature_weights
            && self.feature_bias == o.feature_bias
            && self.psqt_weights == o.psqt_weights
            && self.output_weights == o.output_weights
            && self.output_bias == o.output_bias
    }
}

/// Default quantisation of new nets: the activation clips at 255, output weights
/// are scaled by 64 (the common choice of small engines' nets).
pub const DEFAULT_QA: i16 = 255;
pub const DEFAULT_QB: i16 = 64;
/// Default output scale: a dequantised output of 1 is 400 centipawns.
pub const DEFAULT_SCALE: i32 = 400;

/// The weights of a net, in the order of its file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Weights {
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    pub psqt_weights: Vec<i32>,
    pub output_weights: Vec<i16>,
    pub output_bias: Vec<i32>,
}

impl Net {
    /// A net from its parts (the reader and trainer check the sizes before they
    /// call).
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        layout_fingerprint: u64,
        inputs: usize,
        variant: String,
        hidden: usize,
        buckets: usize,
        quant: (i16, i16, i32),
        provenance: String,
        weights: Weights,
    ) -> Net {
        let (qa, qb, scale) = quant;
        let Weights {
            feature_weights,
            feature_bias,
            psqt_weights,
            output_weights,
            output_bias,
        } = weights;
        debug_assert_eq!(feature_weights.len(), inputs * hidden);
        debug_assert_eq!(feature_bias.len(), hidden);
        debug_assert_eq!(psqt_weights.len(), inputs * buckets);
        debug_assert_eq!(output_weights.len(), buckets * 2 * hidden);
        debug_assert_eq!(output_bias.len(), buckets);
        Net {
            id: NEXT_NET_ID.fetch_add(1, Ordering::Relaxed),
            fingerprint: layout_fingerprint,
            inputs,
            variant,
            hidden,
            buckets,
            qa,
            qb,
            scale,
            provenance,
            feature_weights,
            feature_bias,
            psqt_weights,
            output_weights,
            output_bias,
        }
    }

    /// A net of random weights for `layout` (tests): small weights, so that the
    /// accumulators stay well inside i16 and the activation sees both sides of
    /// its clip; the linear weights are of the order of a pawn's worth.
    pub fn random(layout: &Layout, variant: &str, hidden: usize, seed: u64) -> Net {
        Net::random_bucketed(layout, variant, hidden, 1, seed)
    }

    /// [`random`](Self::random) with `buckets` output buckets.
    pub fn random_bucketed(
        layout: &Layout,
        variant: &str,
        hidden: usize,
        buckets: usize,
        seed: u64,
    ) -> Net {
        let mut rng = SplitMix64::new(seed);
        let mut small = |range: i64| (rng.next_u64() % (2 * range as u64 + 1)) as i64 - range;
        let inputs = layout.inputs();
        let feature_weights = (0..inputs * hidden).map(|_| small(40) as i16).collect();
        let feature_bias = (0..hidden).map(|_| small(100) as i16).collect();
        let psqt_weights = (0..inputs * buckets)
            .map(|_| small(10_000) as i32)
            .collect();
        let output_weights = (0..buckets * 2 * hidden)
            .map(|_| small(100) as i16)
            .collect();
        let output_bias = (0..buckets).map(|_| small(10_000) as i32).collect();
        Net::from_parts(
            layout.fingerprint(),
            inputs,
            variant.to_string(),
            hidden,
            buckets,
            (DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE),
            format!("Net::random(hidden {hidden}, buckets {buckets}, seed {seed})"),
            Weights {
                feature_weights,
                feature_bias,
                psqt_weights,
                output_weights,
                output_bias,
            },
        )
    }

    /// The column of input `i`: what it adds to an accumulator.
    #[inline]
    pub fn column(&self, i: usize) -> &[i16] {
        &self.feature_weights[i * self.hidden..(i + 1) * self.hidden]
    }

    /// The linear weights of input `i`, one per bucket.
    #[inline]
    pub fn psqt_column(&self, i: usize) -> &[i32] {
        &self.psqt_weights[i * self.buckets..(i + 1) * self.buckets]
    }

    /// The output bucket for `pieces` pieces on the board: the range
    /// `0..=start_pieces` cut into `buckets` equal parts, more pieces than at the
    /// start in the last.
    #[inline]
    pub fn bucket(&self, layout: &Layout, pieces: u32) -> usize {
        let b = pieces as usize * self.buckets / (layout.start_pieces() as usize + 1);
        b.min(self.buckets - 1)
    }

    /// The evaluation in centipawns for the side to move `stm`, from both
    /// perspectives' accumulators (`acc[Color]`, each `hidden` long) and linear
    /// sums (`psqt[Color]`, each `buckets` long).
    pub fn output(&self, acc: [&[i16]; 2], psqt: [&[i32]; 2], stm: Color, bucket: usize) -> i32 {
        let h = self.hidden;
        let weights = &self.output_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
        let (own_w, their_w) = weights.split_at(h);
        let sum = activate_dot(acc[stm as usize], own_w, self.qa)
            + activate_dot(acc[stm.flip() as usize], their_w, self.qa);
        let qa = self.qa as i64;
        let qab = qa * self.qb as i64;
        // In i64: each sum is inside i32 (the trainer bounds the weights), their
        // difference need not be.
        let linear =
            (psqt[stm as usize][bucket] as i64 - psqt[stm.flip() as usize][bucket] as i64) / 2;
        let raw = sum / qa + self.output_bias[bucket] as i64 + linear;
        (raw * self.scale as i64 / qab) as i32
    }
}

/// `Σ clamp(a, 0, qa)² * w` over one accumulator: each product `clamp * w` fits
/// an i32, the second factor is taken in i64 (`qa² * w` does not fit i32).
#[inline]
fn activate_dot(acc: &[i16], w: &[i16], qa: i16) -> i64 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| {
            let c = a.clamp(0, qa) as i32;
            (c * w as i32) as i64 * c as i64
        })
        .sum()
}
