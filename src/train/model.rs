//! The float model: exactly the engine's architecture (docs/nnue.md) in `f32`.
//! Inputs -> H accumulator shared by both perspectives -> `clamp(x, 0, 1)²` ->
//! both halves, side to move first -> one of B outputs. Its output is in the
//! net's unit (`scale` centipawns), and quantising it gives the engine's net.

use super::data::bucket_of;
use crate::board::Position;
use crate::nnue::Layout;
use crate::nnue::Net;
use crate::nnue::net::{DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE};
use crate::types::{SplitMix64, splitmix64};

/// Centipawns per unit of the logistic: a score `s` is a winning chance
/// `σ(s / K_CP)`. With the nets' scale of 400 centipawns per output unit the
/// net's prediction is `σ(out * scale / K_CP) = σ(out)`.
pub const K_CP: f32 = 400.0;

/// The sizes of a model and where each group of weights lies in its one flat
/// vector of parameters (feature weights, feature biases, output weights,
/// output biases), so that Adam and the checkpoint treat them alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub inputs: usize,
    pub hidden: usize,
    pub buckets: usize,
}

impl Shape {
    pub fn feature_bias(&self) -> usize {
        self.inputs * self.hidden
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
}

impl Bounds {
    /// The accumulator holds `bias + Σ weights` of the active inputs in i16 (and
    /// the engine adds them with wrapping arithmetic, so a sum past i16 would
    /// silently turn into nonsense). At most `max_active` inputs of a perspective
    /// are on together; with every |weight| and |bias| at most `feature_q`,
    /// `(max_active + 1) * feature_q <= i16::MAX` keeps every accumulator inside
    /// i16 whatever the position.
    pub fn new(max_active: usize) -> Bounds {
        let feature_q = (i16::MAX as usize / (max_active + 1)).max(1) as i16;
        Bounds {
            feature_q,
            output_q: i16::MAX,
        }
    }

    pub fn feature(&self) -> f32 {
        self.feature_q as f32 / DEFAULT_QA as f32
    }
    pub fn output(&self) -> f32 {
        self.output_q as f32 / DEFAULT_QB as f32
    }
}

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
    /// Random weights from `seed`: feature weights small (a few dozen inputs are
    /// on together), biases so that most accumulators start inside the
    /// activation's live range `0..1`, output weights scaled to the width.
    pub fn new(shape: Shape, seed: u64, bounds: Bounds) -> Model {
        let mut rng = SplitMix64::new(splitmix64(seed ^ 0x6E6E_7565_696E_6974));
        let mut params = vec![0.0; shape.len()];
        let fb = shape.feature_bias();
        let ow = shape.output_weights();
        let ob = shape.output_bias();
        let feature = 0.1f32.min(bounds.feature());
        for w in &mut params[..fb] {
            *w = uniform(&mut rng, feature);
        }
        for b in &mut params[fb..ow] {
            *b = 0.25 + uniform(&mut rng, 0.25f32.min(bounds.feature()));
        }
        let out = 1.0 / (2.0 * shape.hidden as f32).sqrt();
        for w in &mut params[ow..ob] {
            *w = uniform(&mut rng, out);
        }
        Model { shape, params }
    }

    /// The output (net units) for inputs `own` (side to move) and `other`.
    pub fn forward(&self, own: &[u32], other: &[u32], bucket: usize, f: &mut Forward) {
        let h = self.shape.hidden;
        let bias = &self.params[self.shape.feature_bias()..self.shape.output_weights()];
        let (acc_own, acc_other) = f.acc.split_at_mut(h);
        for (acc, inputs) in [(acc_own, own), (acc_other, other)] {
            acc.copy_from_slice(bias);
            for &i in inputs {
                let col = &self.params[i as usize * h..(i as usize + 1) * h];
                for (a, w) in acc.iter_mut().zip(col) {
                    *a += w;
                }
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
        f.out = sum + self.params[self.shape.output_bias() + bucket];
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
        let (f, o) = (bounds.feature(), bounds.output());
        let ow = self.shape.output_weights();
        let ob = self.shape.output_bias();
        for w in &mut self.params[..ow] {
            *w = w.clamp(-f, f);
        }
        for w in &mut self.params[ow..ob] {
            *w = w.clamp(-o, o);
        }
    }

    /// The engine's net: weights times QA (accumulator) and QB (output), output
    /// biases times QA·QB, each rounded to nearest and clamped to `bounds`.
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
        let feature_weights = p[..s.feature_bias()]
            .iter()
            .map(|w| q16(w, qa, fq))
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
                let x = (b as f64 * qa as f64 * qb as f64).round();
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
            (feature_weights, feature_bias, output_weights, output_bias),
        )
    }
}
