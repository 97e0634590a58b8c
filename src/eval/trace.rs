//! What the evaluation can report besides its score: each weight's coefficient in
//! the position (a trace), so that the tuner evaluates any weights on a stored
//! position with a dot product instead of a new evaluation. The engine evaluates
//! with [`NoTrace`], whose calls compile to nothing.

use crate::types::Color;

/// Receives the evaluation's terms as it computes them.
pub trait Trace {
    /// False for the engine's evaluation: skip the bookkeeping.
    const ON: bool;
    /// `coef` units of the pair-valued weight `slot` for colour `c`.
    fn linear(&mut self, c: Color, slot: usize, coef: f32);
    /// `coef` units of the danger weight `slot` in the king danger of colour `c`
    /// (the side whose royal piece is in danger).
    fn danger(&mut self, c: Color, slot: usize, coef: f32);
    /// A fixed (untuned) part of the score for colour `c`.
    fn fixed(&mut self, c: Color, mg: i32, eg: i32);
    /// The taper: the game phase (0..=256, 256 = all material left) and the scale
    /// of the endgame part (64 = unscaled).
    fn taper(&mut self, phase: i32, eg_scale: i32);
}

/// The engine's evaluation: no trace.
pub struct NoTrace;

impl Trace for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn linear(&mut self, _: Color, _: usize, _: f32) {}
    #[inline(always)]
    fn danger(&mut self, _: Color, _: usize, _: f32) {}
    #[inline(always)]
    fn fixed(&mut self, _: Color, _: i32, _: i32) {}
    #[inline(always)]
    fn taper(&mut self, _: i32, _: i32) {}
}

/// A recorded trace, White's view: coefficients summed per weight, White's minus
/// Black's for the linear part; the danger terms per side.
#[derive(Clone, Debug, Default)]
pub struct Recorded {
    /// (slot, coefficient), White minus Black.
    pub linear: Vec<(u32, f32)>,
    /// (slot, coefficient) of the king danger of White, of Black.
    pub danger: [Vec<(u32, f32)>; 2],
    /// Fixed score, White minus Black (mg, eg).
    pub fixed: [i32; 2],
    pub phase: i32,
    pub eg_scale: i32,
}

impl Recorded {
    /// Merge repeated slots and drop zero coefficients.
    pub fn compact(&mut self) {
        fn merge(v: &mut Vec<(u32, f32)>) {
            v.sort_by_key(|&(s, _)| s);
            let mut out: Vec<(u32, f32)> = Vec::with_capacity(v.len());
            for &(s, c) in v.iter() {
                match out.last_mut() {
                    Some(last) if last.0 == s => last.1 += c,
                    _ => out.push((s, c)),
                }
            }
            out.retain(|&(_, c)| c != 0.0);
            *v = out;
        }
        merge(&mut self.linear);
        merge(&mut self.danger[0]);
        merge(&mut self.danger[1]);
    }
}

impl Trace for Recorded {
    const ON: bool = true;
    fn linear(&mut self, c: Color, slot: usize, coef: f32) {
        let sign = if c == Color::White { 1.0 } else { -1.0 };
        self.linear.push((slot as u32, sign * coef));
    }
    fn danger(&mut self, c: Color, slot: usize, coef: f32) {
        self.danger[c as usize].push((slot as u32, coef));
    }
    fn fixed(&mut self, c: Color, mg: i32, eg: i32) {
        let sign = if c == Color::White { 1 } else { -1 };
        self.fixed[0] += sign * mg;
        self.fixed[1] += sign * eg;
    }
    fn taper(&mut self, phase: i32, eg_scale: i32) {
        self.phase = phase;
        self.eg_scale = eg_scale;
    }
}
