//! Texel tuning: fit a variant's weights to labelled positions.
//!
//! The data are lines `FEN;SCORE;RESULT;BESTMOVE` (tools/make_tuning_data.py): a
//! position, Fairy-Stockfish's score for the side to move in centipawns, the game's
//! result for White (1, 0.5, 0) and the move played. Only quiet positions are kept:
//! the side to move is not in check and the move played neither captures nor
//! promotes (the static evaluation cannot see an exchange in progress).
//!
//! The label of a position blends the game result with the score turned into a
//! winning chance: `label = λ·result + (1-λ)·σ(score / Ks)`, where `σ(x) = 1 / (1 +
//! e^-x)` and `Ks` is fitted first so that `σ(score / Ks)` predicts the results
//! best. The evaluation `E` (White's view) predicts the label as `σ(E / K)`; `K` is
//! fitted with the starting weights and then held fixed, so that the weights keep
//! their centipawn scale. The weights minimise the mean squared error of that
//! prediction plus a small pull towards the starting weights (weights the data
//! say nothing about stay where they were), by full-batch gradient descent (Adam).
//!
//! Each position is evaluated once, with a [`Recorded`] trace: the evaluation is
//! linear in all weights but the king danger's, so the trace gives the score for
//! any weights as a dot product, and the king-danger penalty (quadratic in a sum
//! of weights) is differentiated by the chain rule. One game in `holdout` (whole
//! games, so that near-identical positions do not leak) is held out to measure the
//! fit on positions it was not fitted to.

mod run;

pub use run::{TuneError, TuneRun, command_line, run_tune};

use super::params::{Params, global_slot, is_fixed, is_single};
use super::terms::GlobalTerm;
use super::trace::Recorded;
use super::{DANGER_DIVISOR, Evaluator, PHASE_MAX, SCALE_ONE};
use crate::board::Position;
pub use crate::movegen::labelled::LineProblem;
use crate::movegen::labelled::{GameCounter, Labelled, parse_line};
use crate::types::Color;

/// The settings of a fit.
#[derive(Clone, Debug)]
pub struct Options {
    /// Weight of the game result in the label (the rest is the search score's).
    pub lambda: f64,
    /// Gradient steps.
    pub epochs: usize,
    /// Adam's step, in hundredths of a weight's size (its starting magnitude, at
    /// least 10 centipawns).
    pub rate: f64,
    /// Pull towards the starting weights: this times the mean squared relative
    /// change.
    pub pull: f64,
    /// One game in this many is held out.
    pub holdout: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            lambda: 0.2,
            epochs: 2000,
            rate: 1.0,
            pull: 1e-5,
            holdout: 10,
        }
    }
}

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Sample {
    pub trace: Recorded,
    /// The game result for White.
    pub result: f64,
    /// The search score, White's view.
    pub score: f64,
    /// The blended label (set by [`Data::label`]).
    pub label: f64,
    /// Held out of the fit.
    pub held_out: bool,
}

/// The positions of a data file.
#[derive(Clone, Debug, Default)]
pub struct Data {
    pub samples: Vec<Sample>,
    /// Lines read, positions left out as not quiet, lines that could not be read.
    pub lines: usize,
    pub noisy: usize,
    pub bad: usize,
    /// The first few unreadable lines.
    pub errors: Vec<LineError>,
    pub games: u32,
}

impl Data {
    /// Read `text` (the contents of `file`), tracing each quiet position with `eval`.
    pub fn read(eval: &Evaluator, file: &str, text: &str, holdout: u32) -> Data {
        let mut data = Data::default();
        let mut games = GameCounter::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.starts_with("# game") {
                games.marker();
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            data.lines += 1;
            match parse_line(eval.rules(), line) {
                Ok(read) => {
                    let game = games.position(&read);
                    if read.quiet {
                        let mut s = sample(eval, &read);
                        s.held_out = holdout > 0 && game % holdout == holdout - 1;
                        data.samples.push(s);
                    } else {
                        data.noisy += 1;
                    }
                }
                Err(problem) => {
                    data.bad += 1;
                    if data.errors.len() < 5 {
                        data.errors.push(LineError {
                            file: file.to_string(),
                            line: i + 1,
                            problem,
                        });
                    }
                }
            }
        }
        data.games = games.games();
        data
    }

    /// Set the labels: `λ·result + (1-λ)·σ(score / ks)`.
    pub fn label(&mut self, lambda: f64, ks: f64) {
        for s in &mut self.samples {
            s.label = lambda * s.result + (1.0 - lambda) * sigmoid(s.score / ks);
        }
    }

    pub fn train(&self) -> impl Iterator<Item = &Sample> {
        self.samples.iter().filter(|s| !s.held_out)
    }
    pub fn held_out(&self) -> impl Iterator<Item = &Sample> {
        self.samples.iter().filter(|s| s.held_out)
    }
}

/// An unreadable line of a data file, with its file and line.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{file}:{line}: {problem}")]
pub struct LineError {
    pub file: String,
    pub line: usize,
    pub problem: LineProblem,
}

/// A quiet position traced by `eval`, its score turned to White's view.
fn sample(eval: &Evaluator, read: &Labelled) -> Sample {
    let mut trace = Recorded::default();
    eval.evaluate_traced(
        &read.position,
        -super::LAZY_OFF,
        super::LAZY_OFF,
        &mut trace,
    );
    trace.compact();
    let white = read.position.side_to_move() == Color::White;
    Sample {
        trace,
        result: read.result_white,
        score: if white { read.score } else { -read.score },
        label: read.result_white,
        held_out: false,
    }
}

#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The evaluation of a traced position for weights `p`, White's view, before the
/// engine's rounding.
pub fn model_eval(p: &[[f64; 2]], s: &Recorded, n: usize) -> f64 {
    let (mg, eg) = model_parts(p, s, n);
    taper(mg, eg, s)
}

fn taper(mg: f64, eg: f64, s: &Recorded) -> f64 {
    let phase = s.phase as f64 / PHASE_MAX as f64;
    let scale = s.eg_scale as f64 / SCALE_ONE as f64;
    mg * phase + eg * scale * (1.0 - phase)
}

/// Middlegame and endgame parts (White's view).
fn model_parts(p: &[[f64; 2]], s: &Recorded, n: usize) -> (f64, f64) {
    let mut mg = s.fixed[0] as f64;
    let mut eg = s.fixed[1] as f64;
    for &(slot, c) in &s.linear {
        let w = p[slot as usize];
        mg += c as f64 * w[0];
        eg += c as f64 * w[1];
    }
    for side in 0..2 {
        let (dm, de) = danger_parts(p, s, n, side);
        mg += dm;
        eg += de;
    }
    (mg, eg)
}

/// Middlegame and endgame score of the king danger of White (`side` 0) or Black (1),
/// White's view: quadratic in the middlegame, linear in the endgame.
fn danger_parts(p: &[[f64; 2]], s: &Recorded, n: usize, side: usize) -> (f64, f64) {
    let d = danger(p, &s.danger[side]);
    if d <= 0.0 {
        return (0.0, 0.0);
    }
    let sign = if side == 0 { -1.0 } else { 1.0 };
    let eg_rate = p[global_slot(n, GlobalTerm::KingDangerEg)][0];
    (
        sign * d * d / DANGER_DIVISOR as f64,
        sign * d * eg_rate / 64.0,
    )
}

/// What each part of a traced position's evaluation adds, tapered, White's view
/// (they sum to [`model_eval`]): each linear weight's share, the king danger of
/// White and of Black, and the fixed part.
pub struct Shares {
    pub linear: Vec<(u32, f64)>,
    pub danger: [f64; 2],
    pub fixed: f64,
}

pub fn shares(p: &[[f64; 2]], s: &Recorded, n: usize) -> Shares {
    let tapered = |(mg, eg): (f64, f64)| taper(mg, eg, s);
    Shares {
        linear: s
            .linear
            .iter()
            .map(|&(slot, c)| {
                let [mg, eg] = p[slot as usize];
                (slot, tapered((c as f64 * mg, c as f64 * eg)))
            })
            .collect(),
        danger: [0, 1].map(|side| tapered(danger_parts(p, s, n, side))),
        fixed: tapered((s.fixed[0] as f64, s.fixed[1] as f64)),
    }
}

fn danger(p: &[[f64; 2]], terms: &[(u32, f32)]) -> f64 {
    terms
        .iter()
        .map(|&(slot, c)| c as f64 * p[slot as usize][0])
        .sum()
}

/// Add `de · dE/dp` for one position to `g`.
fn add_gradient(p: &[[f64; 2]], s: &Recorded, n: usize, de: f64, g: &mut [[f64; 2]]) {
    let phase = s.phase as f64 / PHASE_MAX as f64;
    let gm = de * phase;
    let ge = de * (s.eg_scale as f64 / SCALE_ONE as f64) * (1.0 - phase);
    for &(slot, c) in &s.linear {
        let gs = &mut g[slot as usize];
        gs[0] += gm * c as f64;
        gs[1] += ge * c as f64;
    }
    let eg_slot = global_slot(n, GlobalTerm::KingDangerEg);
    let eg_rate = p[eg_slot][0];
    for (side, sign) in [(0, -1.0), (1, 1.0)] {
        let d = danger(p, &s.danger[side]);
        if d <= 0.0 {
            continue;
        }
        // d(mg)/d(d) = 2d / divisor, d(eg)/d(d) = rate / 64.
        let per_unit = sign * (gm * 2.0 * d / DANGER_DIVISOR as f64 + ge * eg_rate / 64.0);
        for &(slot, c) in &s.danger[side] {
            g[slot as usize][0] += per_unit * c as f64;
        }
        g[eg_slot][0] += sign * ge * d / 64.0;
    }
}

/// Mean squared error of `σ(E / k)` against the labels.
pub fn error<'a>(
    p: &[[f64; 2]],
    n: usize,
    k: f64,
    samples: impl Iterator<Item = &'a Sample>,
) -> f64 {
    let (mut sum, mut cnt) = (0.0, 0usize);
    for s in samples {
        let e = sigmoid(model_eval(p, &s.trace, n) / k) - s.label;
        sum += e * e;
        cnt += 1;
    }
    sum / cnt.max(1) as f64
}

/// The mean squared error of `σ(E / k)` against the labels of `samples` with
/// weights `p`, and its gradient (written to `g`).
pub fn gradient(p: &[[f64; 2]], n: usize, k: f64, samples: &[&Sample], g: &mut [[f64; 2]]) -> f64 {
    g.iter_mut().for_each(|x| *x = [0.0; 2]);
    let count = samples.len().max(1) as f64;
    let mut sum = 0.0;
    for s in samples {
        let e = model_eval(p, &s.trace, n);
        let y = sigmoid(e / k);
        let err = y - s.label;
        sum += err * err;
        let de = 2.0 * err * y * (1.0 - y) / k / count;
        add_gradient(p, &s.trace, n, de, g);
    }
    sum / count
}

/// The `x` in `lo..hi` (searched on a log scale) that minimises `f`.
fn minimise(lo: f64, hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (lo.ln(), hi.ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - phi * (b - a);
        let d = a + phi * (b - a);
        if f(c.exp()) < f(d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// The scale that turns the search scores into the best prediction of the results.
pub fn fit_score_scale(data: &Data) -> f64 {
    minimise(20.0, 5000.0, |ks| {
        let mut sum = 0.0;
        for s in data.train() {
            let e = sigmoid(s.score / ks) - s.result;
            sum += e * e;
        }
        sum
    })
}

/// The scale `K` that makes `σ(E / K)` predict the labels best with weights `p`.
pub fn fit_eval_scale(p: &[[f64; 2]], n: usize, data: &Data) -> f64 {
    let evals: Vec<(f64, f64)> = data
        .train()
        .map(|s| (model_eval(p, &s.trace, n), s.label))
        .collect();
    minimise(20.0, 5000.0, |k| {
        evals
            .iter()
            .map(|&(e, l)| (sigmoid(e / k) - l).powi(2))
            .sum()
    })
}

/// How far from the search window the evaluation's cheap part may be for the lazy
/// exit: the `percentile` (99: the 99th), over `positions`, of how far the terms
/// after it moved the score, rounded up to 50 centipawns. A percentile outside 0-100
/// is taken as the nearer end (the command line refuses one with an error first; this
/// keeps the function total for any other caller).
pub fn measure_lazy_margin(eval: &Evaluator, positions: &[Position], percentile: f64) -> f64 {
    // A window far above every score makes the evaluation stop after the cheap part.
    let far = 4 * super::EVAL_LIMIT;
    let mut gaps: Vec<i32> = positions
        .iter()
        .map(|p| (eval.evaluate(p) - eval.evaluate_window(p, far, far).0).abs())
        .collect();
    if gaps.is_empty() {
        return eval.lazy_margin() as f64;
    }
    gaps.sort_unstable();
    let share = percentile.clamp(0.0, 100.0) / 100.0;
    let q = gaps[((gaps.len() - 1) as f64 * share) as usize];
    (((q + 49) / 50) * 50).max(50) as f64
}

/// What a fit did.
#[derive(Clone, Debug)]
pub struct Report {
    pub score_scale: f64,
    pub eval_scale: f64,
    /// Mean squared error (train, held out) before and after.
    pub before: (f64, f64),
    pub after: (f64, f64),
    pub train: usize,
    pub held_out: usize,
}

/// Fit the weights `start` to `data` (labels set here). Returns the new weights and
/// the report; `progress` hears every hundredth step (step, training error).
pub fn fit(
    start: &Params,
    data: &mut Data,
    opts: &Options,
    mut progress: impl FnMut(usize, f64),
) -> (Params, Report) {
    let n = start.n;
    let score_scale = fit_score_scale(data);
    data.label(opts.lambda, score_scale);
    let k = fit_eval_scale(&start.w, n, data);
    let train: Vec<&Sample> = data.train().collect();
    let before = (
        error(&start.w, n, k, data.train()),
        error(&start.w, n, k, data.held_out()),
    );
    let mut p = start.w.clone();
    let size: Vec<[f64; 2]> = start
        .w
        .iter()
        .map(|w| [w[0].abs().max(10.0), w[1].abs().max(10.0)])
        .collect();
    let (b1, b2, eps) = (0.9, 0.999, 1e-12);
    let mut m = vec![[0.0; 2]; p.len()];
    let mut v = vec![[0.0; 2]; p.len()];
    let mut g = vec![[0.0; 2]; p.len()];
    for step in 0..opts.epochs {
        let sum = gradient(&p, n, k, &train, &mut g);
        if step % 100 == 0 {
            progress(step, sum);
        }
        // Cosine decay of the step to a twentieth.
        let t = step as f64 / opts.epochs.max(1) as f64;
        let rate = opts.rate * (0.05 + 0.95 * 0.5 * (1.0 + (std::f64::consts::PI * t).cos()));
        for i in 0..p.len() {
            if is_fixed(n, i) {
                continue;
            }
            for j in 0..2 {
                if j == 1 && is_single(n, i) {
                    continue;
                }
                let rel = (p[i][j] - start.w[i][j]) / size[i][j];
                let gi = g[i][j] + opts.pull * 2.0 * rel / size[i][j];
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * gi;
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * gi * gi;
                let mh = m[i][j] / (1.0 - b1.powi(step as i32 + 1));
                let vh = v[i][j] / (1.0 - b2.powi(step as i32 + 1));
                p[i][j] -= rate * size[i][j] / 100.0 * mh / (vh.sqrt() + eps);
            }
        }
    }
    for (i, w) in p.iter_mut().enumerate() {
        if is_single(n, i) {
            w[1] = w[0];
        }
    }
    let after = (
        error(&p, n, k, data.train()),
        error(&p, n, k, data.held_out()),
    );
    let report = Report {
        score_scale,
        eval_scale: k,
        before,
        after,
        train: train.len(),
        held_out: data.held_out().count(),
    };
    (
        Params {
            n,
            cells: start.cells,
            w: p,
        },
        report,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quiet positions with pieces in hand, attacks on the king and checks.
    const CRAZYHOUSE: &str = "\
5rk1/2p2pbp/p3p1p1/1bb1p3/4PP1P/P2P2N1/BP2QPP1/3R2KQ[RNNNrp] b - - 0 42;-985;1;P@e3
r1bqkb1r/p5pp/6n1/3pp3/2Qnp3/2N5/PPPP1PPP/R1B2RK1[PPbnp] w kq - 0 19;-1416;0;c3d5
r1b2k1r/ppqnbppp/3Np3/1pPP4/3P4/B7/P1Qp1PPP/R3KB1R[NPn] w KQ - 0 22;662;1;c2d2
r2q1k2/ppNn1pp1/2ppb2r/4Pp1B/3P2P1/1P3n1P/P1Q2P2/R1B2R1K[Nbpp] b - - 1 26;507;0;d8h4
r1b1kbnr/ppp2p1p/3p2p1/8/2B1Pp1N/2NP4/PPP2PPP/n4RK1[Qqrb] w kq - 0 12;-161;0;h4f3
";
    /// Passed pawns with free and blocked squares ahead, kings near and far, pawn
    /// shelters and storms, a bishop pair, a knight outpost, rooks on open and
    /// half-open files, a bishop behind its pawn.
    const CHESS: &str = "\
r4rk1/pp3ppp/3p4/3N4/4P3/8/PPP2PPP/3R1RK1 w - - 0 20;90;1;d1d3
2r3k1/1b3ppp/pp2p3/8/3B4/1P3N2/P4PPP/2R3K1 b - - 0 24;-5;0.5;c8c1
8/5pk1/6p1/1P6/P4K2/8/5PP1/8 w - - 0 40;180;1;f4e5
6k1/1p3ppp/8/2P5/8/1B2B3/5PPP/3b2K1 w - - 0 30;120;0.5;g1f1
r1bq1rk1/ppp2ppp/2n2n2/3pp3/1bPP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 7;10;0.5;a2a3
2kr3r/ppp2ppp/2n5/8/3P2pP/2P5/PP3PP1/R3K2R b KQ - 0 16;-40;0;c6e7
";
    const SHOGI: &str = "\
1n3k1nl/4g2s1/2ps1p1g1/4n1P1p/+rPPSb1p2/4pP2P/5G1S1/2R1GB3/1+l2K3L[NLPppppppp] w - - 1 45;-827;0;L@a2
1n4G1l/2gk5/3sp1P1p/pp7/2gpP2NP/3+r1+BSP1/L1S2S3/1G2R4/3+p1K2L[NPPnlppppppb] b - - 0 85;-80;0;P@f2
lns1k1snl/1r2g1g2/ppppppbpp/6p2/9/P2P5/1PP1PPPPP/1BSR2S2/LN1GKG1NL[] b - - 9 5;-97;0;e9f9
";

    fn setup(variant: &str, text: &str) -> (Evaluator, Data) {
        // (Positions whose move captures are read but not kept.)
        let rules = crate::board::builtin_rules(variant);
        let eval = Evaluator::new(&rules);
        let mut data = Data::read(&eval, "test.data", text, 0);
        assert_eq!(data.bad, 0, "{:?}", data.errors);
        data.label(0.5, 300.0);
        (eval, data)
    }

    #[test]
    fn the_trace_reproduces_the_evaluation() {
        for (variant, text) in [
            ("crazyhouse", CRAZYHOUSE),
            ("shogi", SHOGI),
            ("chess", CHESS),
        ] {
            let (eval, _) = setup(variant, text);
            for line in text.lines() {
                let fen = line.split(';').next().unwrap();
                let pos = Position::from_fen(eval.rules(), fen).unwrap();
                let mut trace = Recorded::default();
                eval.evaluate_traced(
                    &pos,
                    -super::super::LAZY_OFF,
                    super::super::LAZY_OFF,
                    &mut trace,
                );
                let white = if pos.side_to_move() == Color::White {
                    1
                } else {
                    -1
                };
                let engine = (white * eval.evaluate(&pos)) as f64;
                let model = model_eval(&eval.params().w, &trace, eval.params().n);
                // The engine rounds each term to whole centipawns.
                assert!(
                    (engine - model).abs() < 8.0,
                    "{variant} {fen}: {engine} {model}"
                );
            }
        }
    }

    /// The lazy margin is a percentile of what the costly part adds, rounded up to
    /// 50: it grows with the percentile, and without positions it is the file's own.
    #[test]
    fn the_lazy_margin_grows_with_its_percentile() {
        let (eval, _) = setup("chess", CHESS);
        let positions: Vec<Position> = CHESS
            .lines()
            .map(|l| Position::from_fen(eval.rules(), l.split(';').next().unwrap()).unwrap())
            .collect();
        let margin = |p: f64| measure_lazy_margin(&eval, &positions, p);
        assert!(margin(0.0) <= margin(50.0) && margin(50.0) <= margin(100.0));
        assert!(margin(0.0) >= 50.0 && margin(100.0) % 50.0 == 0.0);
        assert_eq!(
            measure_lazy_margin(&eval, &[], 99.0),
            eval.lazy_margin() as f64
        );
    }

    /// The shares of a position's evaluation add up to its model evaluation.
    #[test]
    fn the_shares_add_up_to_the_evaluation() {
        for (variant, text) in [("chess", CHESS), ("crazyhouse", CRAZYHOUSE)] {
            let (eval, data) = setup(variant, text);
            let p = eval.params();
            for sample in data.train() {
                let s = shares(&p.w, &sample.trace, p.n);
                let sum = s.linear.iter().map(|&(_, x)| x).sum::<f64>()
                    + s.danger[0]
                    + s.danger[1]
                    + s.fixed;
                let model = model_eval(&p.w, &sample.trace, p.n);
                assert!(
                    (sum - model).abs() < 1e-6,
                    "{variant}: {sum} against {model}"
                );
            }
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        for (variant, text) in [("crazyhouse", CRAZYHOUSE), ("shogi", SHOGI)] {
            let (eval, data) = setup(variant, text);
            let n = eval.params().n;
            let samples: Vec<&Sample> = data.samples.iter().collect();
            // Away from the starting weights, so that every term is in play.
            let mut p = eval.params().w.clone();
            for (i, w) in p.iter_mut().enumerate() {
                let f = 1.0 + 0.01 * (i % 7) as f64;
                *w = [w[0] * f + 1.0, w[1] * f - 1.0];
            }
            let k = 300.0;
            let mut g = vec![[0.0; 2]; p.len()];
            let loss = gradient(&p, n, k, &samples, &mut g);
            assert!((loss - error(&p, n, k, samples.iter().copied())).abs() < 1e-12);
            let mut checked = 0;
            for i in 0..p.len() {
                for j in 0..2 {
                    if j == 1 && is_single(n, i) {
                        continue;
                    }
                    let h = 1e-3;
                    let mut q = p.clone();
                    q[i][j] += h;
                    let up = error(&q, n, k, samples.iter().copied());
                    q[i][j] -= 2.0 * h;
                    let down = error(&q, n, k, samples.iter().copied());
                    let numeric = (up - down) / (2.0 * h);
                    let scale = numeric.abs().max(g[i][j].abs());
                    assert!(
                        (numeric - g[i][j]).abs() <= 1e-3 * scale + 1e-10,
                        "{variant} slot {i}.{j}: analytic {} numeric {numeric}",
                        g[i][j]
                    );
                    if g[i][j] != 0.0 {
                        checked += 1;
                    }
                }
            }
            // Material, squares, mobility and king danger all had a say.
            assert!(checked > 40, "{variant}: only {checked} weights in play");
        }
    }
}
