//! The float model: exactly the engine's architecture (docs/nnue.md) in `f32`.
//! Inputs -> H accumulator shared by both perspectives -> `clamp(x, 0, 1)²` ->
//! both halves, side to move first -> one of B outputs, plus the linear (PSQT)
//! path: half the difference of the perspectives' sums of the inputs' weights for
//! the bucket. Its output is in the net's unit (`scale` centipawns), and
//! quantising it gives the engine's net.
//!
//! The linear path starts from the variant's piece values (the caller's
//! `material`, one value per input) and the nonlinear output weights start
//! small: a new model plays material, and training adds the rest.

use super::data::bucket_of;
use crate::board::Position;
use crate::nnue::Layout;
use crate::nnue::net::{DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE};
use crate::nnue::{Net, Weights};
use crate::types::{SplitMix64, splitmix64};

/// Centipawns per unit of the logistic: a score `s` is a winning chance
/// `σ(s / K_CP)`. With the nets' scale of 400 centipawns per output unit the
/// net's prediction is `σ(out * scale / K_CP) = σ(out)`.
pub const K_CP: f32 = 400.0;

/// The sizes of a model and where each group of weights lies in its one flat
/// vector of parameters, so that Adam and the checkpoint treat them alike: per
/// input a row of its `hidden` feature weights then its `buckets` linear (PSQT)
/// weights (an input's whole gradient is one sparse row), then the feature
/// biases, the output weights and the output biases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub inputs: usize,
    pub hidden: usize,
    pub buckets: usize,
}

impl Shape {
    /// The parameters of one input: `hidden` feature weights, `buckets` linear.
    pub fn row(&self) -> usize {
        self.hidden + self.buckets
    }
    pub fn feature_bias(&self) -> usize {
        self.inputs * self.row()
    }
    pub fn output_weights(&self) -> usize {
        self.feature_bias() + self.hidden
    }
    pub fn output_bias(&self) -> usize {
        self.output_weights() + self.buckets * 2 * self.hidden
    }
    pub fn len(&self) -> usize {
        self.output_bias() + self.buckets
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How far weights may go so that the quantised net computes what the float
/// one does (the clip is applied after every step of training, so the model
/// never relies on a weight the net cannot hold).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// |feature weight| and |feature bias|, in the net's integer unit (times QA).
    pub feature_q: i16,
    /// |output weight| in the integer unit (times QB).
    pub output_q: i16,
    /// |PSQT weight| in the integer unit (times QA·QB).
    pub psqt_q: i32,
}

impl Bounds {
    /// The accumulator holds `bias + Σ weights` of the active inputs in i16 (and
    /// the engine adds them with wrapping arithmetic, so a sum past i16 would
    /// silently turn into nonsense). At most `max_active` inputs of a perspective
    /// are on together; with every |weight| and |bias| at most `feature_q`,
    /// `(max_active + 1) * feature_q <= i16::MAX` keeps every accumulator inside
    /// i16 whatever the position. Likewise the linear sums (no bias) stay
    /// inside i32 with `max_active * psqt_q <= i32::MAX`.
    pub fn new(max_active: usize) -> Bounds {
        let feature_q = (i16::MAX as usize / (max_active + 1)).max(1) as i16;
        let psqt_q = (i32::MAX as usize / max_active.max(1)).max(1) as i32;
        Bounds {
            feature_q,
            output_q: i16::MAX,
            psqt_q,
        }
    }

    pub fn feature(&self) -> f32 {
        self.feature_q as f32 / DEFAULT_QA as f32
    }
    pub fn output(&self) -> f32 {
        self.output_q as f32 / DEFAULT_QB as f32
    }
    pub fn psqt(&self) -> f32 {
        (self.psqt_q as f64 / (DEFAULT_QA as f64 * DEFAULT_QB as f64)) as f32
    }
}

/// How much smaller than usual the nonlinear output weights start: small enough
/// that a new model's output is its material (within a few centipawns), large
/// enough to break the symmetry between the accumulator's units. Adam's steps do
/// not depend on a weight's size, so they grow as fast as the data ask.
const NONLINEAR_START: f32 = 1.0 / 64.0;

/// The float weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub shape: Shape,
    pub params: Vec<f32>,
}

/// One position's forward pass, kept for the backward pass.
pub struct Forward {
    /// The accumulators before activation, side to move's then the other's.
    pub acc: Vec<f32>,
    pub out: f32,
}

impl Forward {
    pub fn new(hidden: usize) -> Forward {
        Forward {
            acc: vec![0.0; 2 * hidden],
            out: 0.0,
        }
    }
}

/// A uniform value in `[-r, r]` from the generator.
fn uniform(rng: &mut SplitMix64, r: f32) -> f32 {
    let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (2.0 * unit - 1.0) * r
}

/// The squared clipped ReLU and its derivative.
#[inline]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}
#[inline]
pub fn screlu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 }
}

impl Model {
    /// Weights from `seed` and `material` (per input, its piece's value in net
    /// units, signed: + for the perspective's own pieces, - for the enemy's, 0
    /// for walls). Feature weights random and small (a few dozen inputs are on
    /// together), biases so that most accumulators start inside the
    /// activation's live range `0..1`, output weights scaled to the width and
    /// by [`NONLINEAR_START`]; the linear weights are `material` in every bucket.
    pub fn new(shape: Shape, seed: u64, bounds: Bounds, material: &[f32]) -> Model {
        debug_assert_eq!(material.len(), shape.inputs);
        let mut rng = SplitMix64::new(splitmix64(seed ^ 0x6E6E_7565_696E_6974));
        let mut params = vec![0.0; shape.len()];
        let (h, row) = (shape.hidden, shape.row());
        let fb = shape.feature_bias();
        let ow = shape.output_weights();
        let ob = shape.output_bias();
        let feature = 0.1f32.min(bounds.feature());
        for (r, &m) in params[..fb].chunks_exact_mut(row).zip(material) {
            let (weights, linear) = r.split_at_mut(h);
            for w in weights {
                *w = uniform(&mut rng, feature);
            }
            linear.fill(m);
        }
        for b in &mut params[fb..ow] {
            *b = 0.25 + uniform(&mut rng, 0.25f32.min(bounds.feature()));
        }
        let out = NONLINEAR_START / (2.0 * shape.hidden as f32).sqrt();
        for w in &mut params[ow..ob] {
            *w = uniform(&mut rng, out);
        }
        Model { shape, params }
    }

    /// The output (net units) for inputs `own` (side to move) and `other`.
    pub fn forward(&self, own: &[u32], other: &[u32], bucket: usize, f: &mut Forward) {
        let (h, row) = (self.shape.hidden, self.shape.row());
        let bias = &self.params[self.shape.feature_bias()..self.shape.output_weights()];
        let (acc_own, acc_other) = f.acc.split_at_mut(h);
        let mut linear = [0.0f32; 2];
        for ((acc, inputs), sum) in [(acc_own, own), (acc_other, other)]
            .into_iter()
            .zip(&mut linear)
        {
            acc.copy_from_slice(bias);
            for &i in inputs {
                let r = &self.params[i as usize * row..(i as usize + 1) * row];
                for (a, w) in acc.iter_mut().zip(&r[..h]) {
                    *a += w;
                }
                *sum += r[h + bucket];
            }
        }
        let ow = self.shape.output_weights() + bucket * 2 * h;
        let weights = &self.params[ow..ow + 2 * h];
        let sum: f32 = f
            .acc
            .iter()
            .zip(weights)
            .map(|(&a, &w)| screlu(a) * w)
            .sum();
        f.out =
            sum + self.params[self.shape.output_bias() + bucket] + 0.5 * (linear[0] - linear[1]);
    }

    /// This model's linear path alone: the nonlinear output weights and the
    /// output biases zero (of a new model, its material evaluation).
    pub fn linear_only(&self) -> Model {
        let mut m = self.clone();
        let ow = self.shape.output_weights();
        m.params[ow..].fill(0.0);
        m
    }

    /// The model's evaluation of `pos` in centipawns for the side to move (to
    /// compare with the quantised net's).
    pub fn evaluate(&self, layout: &Layout, pos: &Position) -> f32 {
        let stm = pos.side_to_move();
        let (mut own, mut other) = (Vec::new(), Vec::new());
        layout.for_each_active(pos, stm, |i| own.push(i as u32));
        layout.for_each_active(pos, stm.flip(), |i| other.push(i as u32));
        let bucket = bucket_of(layout, self.shape.buckets, pos.occupied().count());
        let mut f = Forward::new(self.shape.hidden);
        self.forward(&own, &other, bucket, &mut f);
        f.out * DEFAULT_SCALE as f32
    }

    /// Hold every weight inside what the quantised net can hold.
    pub fn clip(&mut self, bounds: Bounds) {
        let (f, o, l) = (bounds.feature(), bounds.output(), bounds.psqt());
        let (h, row) = (self.shape.hidden, self.shape.row());
        let fb = self.shape.feature_bias();
        let ow = self.shape.output_weights();
        let ob = self.shape.output_bias();
        for r in self.params[..fb].chunks_exact_mut(row) {
            let (weights, linear) = r.split_at_mut(h);
            for w in weights {
                *w = w.clamp(-f, f);
            }
            for w in linear {
                *w = w.clamp(-l, l);
            }
        }
        for w in &mut self.params[fb..ow] {
            *w = w.clamp(-f, f);
        }
        for w in &mut self.params[ow..ob] {
            *w = w.clamp(-o, o);
        }
    }

    /// The engine's net: weights times QA (accumulator) and QB (output), output
    /// biases and linear weights times QA·QB, each rounded to nearest and
    /// clamped to `bounds`.
    pub fn quantise(
        &self,
        layout: &Layout,
        variant: &str,
        provenance: String,
        bounds: Bounds,
    ) -> Net {
        let s = self.shape;
        let (qa, qb) = (DEFAULT_QA as f32, DEFAULT_QB as f32);
        let fq = bounds.feature_q as f32;
        let oq = bounds.output_q as f32;
        let q16 = |w: &f32, scale: f32, max: f32| (w * scale).round().clamp(-max, max) as i16;
        let p = &self.params;
        let rows = || p[..s.feature_bias()].chunks_exact(s.row());
        let feature_weights = rows()
            .flat_map(|r| &r[..s.hidden])
            .map(|w| q16(w, qa, fq))
            .collect();
        let qab = qa as f64 * qb as f64;
        let lq = bounds.psqt_q as f64;
        let psqt_weights = rows()
            .flat_map(|r| &r[s.hidden..])
            .map(|&w| (w as f64 * qab).round().clamp(-lq, lq) as i32)
            .collect();
        let feature_bias = p[s.feature_bias()..s.output_weights()]
            .iter()
            .map(|w| q16(w, qa, fq))
            .collect();
        let output_weights = p[s.output_weights()..s.output_bias()]
            .iter()
            .map(|w| q16(w, qb, oq))
            .collect();
        let output_bias = p[s.output_bias()..]
            .iter()
            .map(|&b| {
                let x = (b as f64 * qab).round();
                x.clamp(i32::MIN as f64, i32::MAX as f64) as i32
            })
            .collect();
        Net::from_parts(
            layout.fingerprint(),
            s.inputs,
            variant.to_string(),
            s.hidden,
            s.buckets,
            (DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE),
            provenance,
            Weights {
                feature_weights,
                feature_bias,
                psqt_weights,
                output_weights,
                output_bias,
            },
        )
    }
}
