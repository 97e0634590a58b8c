//! The loss's gradient over a mini-batch, and Adam.
//!
//! A batch is cut into chunks of [`CHUNK`] positions whatever the thread count;
//! the threads compute the chunks' gradients independently, each into its own
//! buffers, and the chunks are then added up one after another in their order.
//! Floating-point sums therefore happen in the same order with 1 thread or 16,
//! and a seed gives the same net on any machine's pool.
//!
//! The first layer's gradient is sparse: a chunk touches only the rows of the
//! inputs active in its positions (an input's row holds its feature weights and
//! its linear weights, see [`Shape`]). A chunk keeps them in a compact list of rows
//! (with a map from input to row), and Adam steps only the rows some chunk
//! touched (their moments decay only when they are stepped: "lazy" Adam, the
//! usual choice for sparse inputs, and what keeps an epoch's cost proportional to
//! the data rather than to the inputs times the batches).

use super::data::{Dataset, Sample};
use super::model::{Forward, Model, Shape, screlu, screlu_slope};
use rayon::prelude::*;

/// Positions per chunk: the unit of work of a thread and of the fixed summation
/// order.
pub const CHUNK: usize = 256;

const NO_ROW: u32 = u32::MAX;

/// The label of a sample: `(1 - λ)·σ(score / K) + λ·result`.
#[inline]
pub fn target(s: &Sample, lambda: f32) -> f32 {
    (1.0 - lambda) * sigmoid(s.score / super::model::K_CP) + lambda * s.result
}

#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// One chunk's gradient (sums over its positions, not yet divided).
pub struct ChunkGrad {
    /// Per input, its row in `rows`, or [`NO_ROW`].
    row_of: Vec<u32>,
    /// The inputs with a row, in the order first met.
    touched: Vec<u32>,
    rows: Vec<f32>,
    /// Feature biases, output weights, output biases: laid out as in the model
    /// from its feature-bias offset on.
    dense: Vec<f32>,
    loss: f64,
    forward: Forward,
    dacc: Vec<f32>,
}

impl ChunkGrad {
    pub fn new(shape: Shape) -> ChunkGrad {
        ChunkGrad {
            row_of: vec![NO_ROW; shape.inputs],
            touched: Vec::new(),
            rows: Vec::new(),
            dense: vec![0.0; shape.len() - shape.feature_bias()],
            loss: 0.0,
            forward: Forward::new(shape.hidden),
            dacc: vec![0.0; 2 * shape.hidden],
        }
    }

    fn clear(&mut self) {
        for &i in &self.touched {
            self.row_of[i as usize] = NO_ROW;
        }
        self.touched.clear();
        self.rows.clear();
        self.dense.fill(0.0);
        self.loss = 0.0;
    }

    /// The gradient of the squared error over `samples`.
    fn compute(&mut self, model: &Model, data: &Dataset, samples: &[Sample], lambda: f32) {
        self.clear();
        let s = model.shape;
        let (h, row) = (s.hidden, s.row());
        let ow = s.output_weights();
        let fb = s.feature_bias();
        for sample in samples {
            let (own, other) = data.inputs(sample);
            let bucket = sample.bucket as usize;
            model.forward(own, other, bucket, &mut self.forward);
            // The net's output is in units of `scale` centipawns and the logistic
            // is `σ(cp / K)`: with scale = K = 400 the prediction is σ(out).
            let pred = sigmoid(self.forward.out * net_units_per_logit());
            let err = pred - target(sample, lambda);
            self.loss += (err * err) as f64;
            let dout = 2.0 * err * pred * (1.0 - pred) * net_units_per_logit();
            let weights = &model.params[ow + bucket * 2 * h..ow + (bucket + 1) * 2 * h];
            let dw = &mut self.dense[ow - fb + bucket * 2 * h..ow - fb + (bucket + 1) * 2 * h];
            for (j, &a) in self.forward.acc.iter().enumerate() {
                dw[j] += dout * screlu(a);
                self.dacc[j] = dout * weights[j] * screlu_slope(a);
            }
            self.dense[s.output_bias() - fb + bucket] += dout;
            let (d_own, d_other) = self.dacc.split_at(h);
            for ((b, x), y) in self.dense[..h].iter_mut().zip(d_own).zip(d_other) {
                *b += x + y;
            }
            // The linear path adds half the own sum and takes half the other's.
            let half = 0.5 * dout;
            for (inputs, d, linear) in [(own, d_own, half), (other, d_other, -half)] {
                for &i in inputs {
                    let mut r = self.row_of[i as usize];
                    if r == NO_ROW {
                        r = self.touched.len() as u32;
                        self.row_of[i as usize] = r;
                        self.touched.push(i);
                        self.rows.resize(self.rows.len() + row, 0.0);
                    }
                    let g = &mut self.rows[r as usize * row..(r as usize + 1) * row];
                    for (g, x) in g[..h].iter_mut().zip(d) {
                        *g += x;
                    }
                    g[h + bucket] += linear;
                }
            }
        }
    }
}

/// `scale / K`: logits per net output unit.
#[inline]
fn net_units_per_logit() -> f32 {
    crate::nnue::net::DEFAULT_SCALE as f32 / super::model::K_CP
}

/// Adam's settings and state.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    pub lr: f32,
    pub step: u64,
    pub m: Vec<f32>,
    pub v: Vec<f32>,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl Adam {
    pub fn new(len: usize, lr: f32) -> Adam {
        Adam {
            lr,
            step: 0,
            m: vec![0.0; len],
            v: vec![0.0; len],
        }
    }
}

/// Everything one step needs, kept between batches so that steps allocate
/// nothing once the chunks' row lists have grown.
pub struct Stepper {
    chunks: Vec<ChunkGrad>,
    /// The batch's summed gradient (dense; only touched rows are non-zero).
    grad: Vec<f32>,
    touched: Vec<bool>,
    rows: Vec<u32>,
}

impl Stepper {
    pub fn new(shape: Shape, batch: usize) -> Stepper {
        let chunks = batch.div_ceil(CHUNK).max(1);
        Stepper {
            chunks: (0..chunks).map(|_| ChunkGrad::new(shape)).collect(),
            grad: vec![0.0; shape.len()],
            touched: vec![false; shape.inputs],
            rows: Vec::new(),
        }
    }

    /// One step of Adam on the mean squared error over `batch`; returns the
    /// batch's summed loss (before the step).
    pub fn step(
        &mut self,
        model: &mut Model,
        adam: &mut Adam,
        data: &Dataset,
        batch: &[Sample],
        lambda: f32,
    ) -> f64 {
        let parts = batch.len().div_ceil(CHUNK);
        let chunks = &mut self.chunks[..parts];
        {
            let model = &*model;
            chunks
                .par_iter_mut()
                .zip(batch.par_chunks(CHUNK))
                .for_each(|(c, samples)| c.compute(model, data, samples, lambda));
        }
        let s = model.shape;
        let row = s.row();
        let fb = s.feature_bias();
        let mut loss = 0.0;
        // The fixed order: chunk after chunk.
        for c in chunks.iter() {
            loss += c.loss;
            for (k, &i) in c.touched.iter().enumerate() {
                let i = i as usize;
                if !self.touched[i] {
                    self.touched[i] = true;
                    self.rows.push(i as u32);
                }
                let g = &mut self.grad[i * row..(i + 1) * row];
                for (g, x) in g.iter_mut().zip(&c.rows[k * row..(k + 1) * row]) {
                    *g += x;
                }
            }
            for (g, x) in self.grad[fb..].iter_mut().zip(&c.dense) {
                *g += x;
            }
        }
        adam.step += 1;
        let t = adam.step as i32;
        let correct1 = 1.0 - BETA1.powi(t);
        let correct2 = 1.0 - BETA2.powi(t);
        let scale = 1.0 / batch.len() as f32;
        let lr = adam.lr;
        let mut update = |range: std::ops::Range<usize>, grad: &mut [f32]| {
            for (k, g) in range.zip(grad.iter_mut()) {
                let g_mean = *g * scale;
                *g = 0.0;
                let m = BETA1 * adam.m[k] + (1.0 - BETA1) * g_mean;
                let v = BETA2 * adam.v[k] + (1.0 - BETA2) * g_mean * g_mean;
                adam.m[k] = m;
                adam.v[k] = v;
                model.params[k] -= lr * (m / correct1) / ((v / correct2).sqrt() + EPSILON);
            }
        };
        for &i in &self.rows {
            let i = i as usize;
            self.touched[i] = false;
            update(
                i * row..(i + 1) * row,
                &mut self.grad[i * row..(i + 1) * row],
            );
        }
        self.rows.clear();
        update(fb..s.len(), &mut self.grad[fb..]);
        loss
    }
}

/// The mean squared error of `model` over `samples`, in chunks summed in order
/// (the same value with any thread count).
pub fn mean_loss(model: &Model, data: &Dataset, samples: &[Sample], lambda: f32) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sums: Vec<f64> = samples
        .par_chunks(CHUNK)
        .map_init(
            || Forward::new(model.shape.hidden),
            |f, chunk| {
                let mut sum = 0.0f64;
                for s in chunk {
                    let (own, other) = data.inputs(s);
                    model.forward(own, other, s.bucket as usize, f);
                    let pred = sigmoid(f.out * net_units_per_logit());
                    let err = pred - target(s, lambda);
                    sum += (err * err) as f64;
                }
                sum
            },
        )
        .collect();
    sums.iter().sum::<f64>() / samples.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    /// A tiny model and three positions over 6 inputs.
    fn tiny() -> (Model, Dataset) {
        let shape = Shape {
            inputs: 6,
            hidden: 4,
            buckets: 2,
        };
        let mut params = vec![0.0f32; shape.len()];
        for (k, p) in params.iter_mut().enumerate() {
            // Accumulators land well inside 0..1, away from the clip's kinks.
            *p = 0.05 + 0.03 * ((k * 7 % 11) as f32 - 5.0) / 5.0;
        }
        for p in &mut params[shape.output_weights()..] {
            *p *= 8.0;
        }
        let features = vec![0, 2, 1, 3, 4, 5, 0, 1, 2, 5];
        let sample = |start, own, other, bucket, score, result| Sample {
            start,
            own,
            other,
            stm: Color::White,
            bucket,
            score,
            result,
        };
        let data = Dataset {
            features,
            train: vec![
                sample(0, 2, 2, 0, 150.0, 1.0),
                sample(4, 1, 1, 1, -300.0, 0.0),
                sample(6, 2, 2, 1, 20.0, 0.5),
            ],
            ..Dataset::default()
        };
        (Model { shape, params }, data)
    }

    /// The gradient of every parameter agrees with finite differences of the
    /// loss.
    #[test]
    fn gradient_matches_finite_differences() {
        let (model, data) = tiny();
        let lambda = 0.3;
        let mut c = ChunkGrad::new(model.shape);
        c.compute(&model, &data, &data.train, lambda);
        let n = data.train.len() as f64;
        let fb = model.shape.feature_bias();
        let row = model.shape.row();
        for k in 0..model.shape.len() {
            let analytic = if k >= fb {
                c.dense[k - fb] as f64
            } else {
                let input = (k / row) as u32;
                match c.touched.iter().position(|&i| i == input) {
                    Some(r) => c.rows[r * row + k % row] as f64,
                    None => 0.0,
                }
            };
            let eps = 1e-2f32;
            let mut m = model.clone();
            m.params[k] += eps;
            let up = mean_loss(&m, &data, &data.train, lambda) * n;
            m.params[k] -= 2.0 * eps;
            let down = mean_loss(&m, &data, &data.train, lambda) * n;
            let numeric = (up - down) / (2.0 * eps as f64);
            assert!(
                (numeric - analytic).abs() <= 1e-4 + 0.02 * numeric.abs(),
                "parameter {k}: analytic {analytic}, numeric {numeric}"
            );
        }
    }

    /// One step of Adam lowers the loss of the tiny set.
    #[test]
    fn a_step_lowers_the_loss() {
        let (mut model, data) = tiny();
        let before = mean_loss(&model, &data, &data.train, 0.3);
        let mut adam = Adam::new(model.shape.len(), 0.01);
        let mut stepper = Stepper::new(model.shape, 3);
        let summed = stepper.step(&mut model, &mut adam, &data, &data.train, 0.3);
        assert!((summed / 3.0 - before).abs() < 1e-6);
        assert!(mean_loss(&model, &data, &data.train, 0.3) < before);
        assert_eq!(adam.step, 1);
    }
}
