//! Time management: how long the main thread may think. Two budgets: the optimum
//! (start no new iteration past it, scaled by how stable the best move is) and the
//! maximum (abort the iteration). With CECP `nps` the budgets are counted in nodes.

use super::Limits;
use std::time::{Duration, Instant};

pub struct TimeManager {
    start: Instant,
    /// Soft and hard budgets in microseconds (of wall time, or of node time with nps).
    optimum: Option<u64>,
    maximum: Option<u64>,
    nps: Option<u64>,
    /// Clock limits are off (infinite, or pondering before ponderhit).
    pub suspended: bool,
}

/// Guess of the moves still to play when the clock has no moves-to-go.
const MOVES_HORIZON: u64 = 32;
/// Never plan to leave less than this on the clock (beyond the move overhead).
const SAFETY_US: u64 = 5_000;

impl TimeManager {
    pub fn new(limits: &Limits, start: Instant) -> TimeManager {
        let overhead = limits.move_overhead.as_micros() as u64;
        let (mut optimum, mut maximum) = (None, None);
        if let Some(t) = limits.movetime {
            let t = (t.as_micros() as u64).saturating_sub(overhead).max(1_000);
            optimum = Some(t);
            maximum = Some(t);
        } else if let Some(left) = limits.time_left {
            let left = left.as_micros() as u64;
            let inc = limits.increment.as_micros() as u64;
            let mtg = limits
                .moves_to_go
                .map(|m| (m as u64).clamp(1, 50))
                .unwrap_or(MOVES_HORIZON);
            // What may be spent without risking the flag: the clock less the overhead
            // of every move still to come before the next time control (or a few).
            let reserve = overhead * mtg.min(8) + SAFETY_US;
            let usable = left.saturating_sub(reserve).max(left / 20);
            let opt = usable / mtg + if mtg > 1 { inc * 3 / 4 } else { 0 };
            let cap = if mtg == 1 { usable * 2 / 3 } else { usable / 3 };
            let opt = opt.min(cap);
            let max = (opt * 5).min(cap).max(opt);
            // Hard floor: a move always gets a millisecond; hard ceiling: the clock.
            let ceiling = left.saturating_sub(overhead + 1_000).max(1_000);
            optimum = Some(opt.clamp(1_000, ceiling));
            maximum = Some(max.clamp(1_000, ceiling));
        }
        TimeManager {
            start,
            optimum,
            maximum,
            nps: limits.nps.filter(|&n| n > 0),
            suspended: limits.infinite || limits.ponder,
        }
    }

    /// Time used, in microseconds (node time with nps: nodes / nps).
    pub fn elapsed_us(&self, nodes: u64) -> u64 {
        match self.nps {
            Some(n) => nodes.saturating_mul(1_000_000) / n,
            None => self.start.elapsed().as_micros() as u64,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Abort now?
    pub fn hard_stop(&self, nodes: u64) -> bool {
        !self.suspended && self.maximum.is_some_and(|m| self.elapsed_us(nodes) >= m)
    }

    /// Start no new iteration? `scale` grows when the best move is unstable.
    pub fn soft_stop(&self, nodes: u64, scale: f64) -> bool {
        if self.suspended {
            return false;
        }
        match (self.optimum, self.maximum) {
            (Some(o), Some(m)) => {
                let budget = ((o as f64 * scale) as u64).min(m);
                self.elapsed_us(nodes) >= budget
            }
            _ => false,
        }
    }

    /// Fixed-time searches (movetime) use the whole budget.
    pub fn is_fixed(&self) -> bool {
        self.optimum.is_some() && self.optimum == self.maximum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(left_ms: u64, inc_ms: u64, mtg: Option<u32>) -> (u64, u64) {
        let l = Limits {
            time_left: Some(Duration::from_millis(left_ms)),
            increment: Duration::from_millis(inc_ms),
            moves_to_go: mtg,
            move_overhead: Duration::from_millis(10),
            ..Default::default()
        };
        let tm = TimeManager::new(&l, Instant::now());
        (tm.optimum.unwrap(), tm.maximum.unwrap())
    }

    #[test]
    fn budgets_stay_inside_the_clock() {
        for left in [5, 20, 50, 100, 1000, 10_000, 600_000] {
            for inc in [0, 10, 100] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let (o, m) = budget(left, inc, mtg);
                    assert!(o <= m, "{left} {inc} {mtg:?}");
                    assert!(
                        m <= (left * 1000).saturating_sub(10_000).max(1_000),
                        "{left} {inc} {mtg:?}: {m}"
                    );
                }
            }
        }
    }
}
