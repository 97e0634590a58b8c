//! Playing weaker on purpose (`Skill Level`, `UCI_LimitStrength` + `UCI_Elo`).
//!
//! A weakened engine should lose the way a weaker player loses: it does not see as far
//! ahead, and among the moves that look about equally good to it, it does not always
//! find the best one. So a level is two things, both generic (nothing here knows a
//! variant):
//!
//! - a horizon: a node budget and a depth cap per move, growing with the level (the
//!   clock still applies: a weakened engine never thinks longer than the full one);
//! - a choice: the search runs in MultiPV mode behind the scenes, and the move is drawn
//!   among the near-best root moves of the last completed iteration, each with weight
//!   `exp(-(best - score) / temperature)`, moves more than `margin` below the best
//!   never. The temperature and the margin shrink as the level grows.
//!
//! The search sees a [`Skill`] only through [`Skill::restrict`] (the budget in the
//! search limits) and [`Picker`] (the choice made from the reported lines after the
//! search), so the weakening keeps working as the search itself changes.
//!
//! Levels run from [`MIN_LEVEL`] (weakest) to [`MAX_LEVEL`] (full strength, no limit);
//! in between the strength is continuous, so that an Elo maps onto a fractional level.
//! The nominal Elo of the levels is [`NOMINAL_ELO`] (see the README's calibration
//! section for how it is measured).

use super::{Callback, Event, Info, Limits, Score};
use crate::types::splitmix64;
use std::sync::{Arc, Mutex};

/// The weakest level.
pub const MIN_LEVEL: i32 = -20;
/// Full strength: no limit at all.
pub const MAX_LEVEL: i32 = 20;

/// Nominal Elo of the levels (piecewise linear in between, increasing), on the scale of
/// Fairy-Stockfish 11.1's `UCI_Elo` at 10+0.1: a level of nominal Elo E is meant to score
/// 50% against Fairy-Stockfish with `UCI_LimitStrength` at `UCI_Elo` E (below its range
/// of 1350 to 2850, through matches against the levels above). Fitted through the chess
/// levels tools/calibrate.py measured (-20, -10, 0, 10, 19; 40 games each, 2026-11-24,
/// with the tuned chess weights; the table for all three variants is in the README,
/// "Playing at a lower level").
pub const NOMINAL_ELO: [(i32, i32); 9] = [
    (-20, 1168),
    (-15, 1242),
    (-10, 1315),
    (-5, 1544),
    (0, 1773),
    (5, 1906),
    (10, 2039),
    (15, 2220),
    (19, 2364),
];

/// The Elo range `UCI_Elo` offers: the weakest level's nominal Elo to the strongest
/// limited level's.
pub const MIN_ELO: i32 = NOMINAL_ELO[0].1;
pub const MAX_ELO: i32 = NOMINAL_ELO[NOMINAL_ELO.len() - 1].1;
/// The Elo `UCI_Elo` starts at: a club player's.
pub const DEFAULT_ELO: i32 = 1500;

/// Node budget: 2^(NODES_LOG2_MIN) at the weakest level, doubling every
/// `NODES_LEVELS_PER_DOUBLING` levels.
const NODES_LOG2_MIN: f64 = 8.0;
const NODES_LEVELS_PER_DOUBLING: f64 = 3.0;
/// Depth cap: 1 ply at the weakest level, one more every `DEPTH_LEVELS_PER_PLY` levels.
const DEPTH_LEVELS_PER_PLY: f64 = 3.5;
/// Temperature of the choice in centipawns: `TEMP_MIN + TEMP_SPAN * w^2`, where w is the
/// weakness (1 at the weakest level, 0 at full strength).
const TEMP_MIN: f64 = 8.0;
const TEMP_SPAN: f64 = 150.0;
/// Moves further below the best than this many temperatures are never chosen.
const MARGIN_TEMPERATURES: f64 = 3.0;
/// Root moves searched as candidates: `CANDIDATES_MIN + CANDIDATES_SPAN * w`.
const CANDIDATES_MIN: f64 = 2.0;
const CANDIDATES_SPAN: f64 = 6.0;
/// Mate scores count as this many centipawns (less the distance) in the choice: far
/// above any material score, so a found mate is always played and a mated move never
/// chosen when another exists.
const MATE_CP: i64 = 100_000;

/// A strength limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// From MIN_LEVEL up to (not including) MAX_LEVEL.
    level: f64,
    /// Seed of the choice; None: taken from the clock when the search starts.
    seed: Option<u64>,
}

impl Skill {
    /// The limit of a `Skill Level`; None at full strength (MAX_LEVEL and above).
    pub fn from_level(level: i32) -> Option<Skill> {
        (level < MAX_LEVEL).then(|| Skill {
            level: level.max(MIN_LEVEL) as f64,
            seed: None,
        })
    }

    /// The limit that plays at `elo` on the nominal scale (brought within MIN_ELO to
    /// MAX_ELO).
    pub fn from_elo(elo: i32) -> Skill {
        let elo = elo.clamp(MIN_ELO, MAX_ELO) as f64;
        let mut level = NOMINAL_ELO[NOMINAL_ELO.len() - 1].0 as f64;
        for w in NOMINAL_ELO.windows(2) {
            let ((l0, e0), (l1, e1)) = (w[0], w[1]);
            if elo <= e1 as f64 {
                let f = (elo - e0 as f64) / (e1 - e0) as f64;
                level = l0 as f64 + f * (l1 - l0) as f64;
                break;
            }
        }
        Skill { level, seed: None }
    }

    /// The same limit with a fixed seed for the choice (tests, reproducible games).
    pub fn with_seed(self, seed: u64) -> Skill {
        Skill {
            seed: Some(seed),
            ..self
        }
    }

    pub fn level(&self) -> f64 {
        self.level
    }

    /// The nominal Elo of this strength ([`NOMINAL_ELO`] interpolated).
    pub fn nominal_elo(&self) -> i32 {
        let mut elo = MAX_ELO as f64;
        for w in NOMINAL_ELO.windows(2) {
            let ((l0, e0), (l1, e1)) = (w[0], w[1]);
            if self.level <= l1 as f64 {
                let f = (self.level - l0 as f64) / (l1 - l0) as f64;
                elo = e0 as f64 + f * (e1 - e0) as f64;
                break;
            }
        }
        elo.round() as i32
    }

    /// 1 at the weakest level, 0 at full strength.
    fn weakness(&self) -> f64 {
        ((MAX_LEVEL as f64 - self.level) / (MAX_LEVEL - MIN_LEVEL) as f64).clamp(0.0, 1.0)
    }

    /// Nodes per move (the main thread's).
    pub fn node_budget(&self) -> u64 {
        let doublings = (self.level - MIN_LEVEL as f64) / NODES_LEVELS_PER_DOUBLING;
        2f64.powf(NODES_LOG2_MIN + doublings) as u64
    }

    /// Deepest iteration.
    pub fn depth_cap(&self) -> u32 {
        1 + ((self.level - MIN_LEVEL as f64) / DEPTH_LEVELS_PER_PLY) as u32
    }

    /// Root moves searched as candidates (MultiPV lines).
    pub fn candidates(&self) -> usize {
        (CANDIDATES_MIN + CANDIDATES_SPAN * self.weakness()).round() as usize
    }

    /// Centipawns below the best that make a move e (2.718...) times less likely.
    pub fn temperature(&self) -> f64 {
        TEMP_MIN + TEMP_SPAN * self.weakness() * self.weakness()
    }

    /// Centipawns below the best beyond which a move is never chosen.
    pub fn margin(&self) -> f64 {
        MARGIN_TEMPERATURES * self.temperature()
    }

    /// Limits for the search behind a weakened move: within the node budget and the
    /// depth cap (and whatever the limits already said), with enough principal
    /// variations to choose from.
    pub fn restrict(&self, limits: &mut Limits) {
        let nodes = self.node_budget();
        limits.nodes = Some(limits.nodes.map_or(nodes, |n| n.min(nodes)));
        let depth = self.depth_cap();
        limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
        limits.multi_pv = limits.multi_pv.max(self.candidates());
    }

    /// Index of the line to play among `scores` (best first, centipawns or
    /// [`Score::Mate`]), drawn with `seed`.
    pub fn choose(&self, scores: &[Score], seed: u64) -> usize {
        let values: Vec<i64> = scores.iter().map(|&s| choice_value(s)).collect();
        let Some(&best) = values.iter().max() else {
            return 0;
        };
        let t = self.temperature();
        let weights: Vec<f64> = values
            .iter()
            .map(|&v| {
                let behind = (best - v) as f64;
                if behind > self.margin() {
                    0.0
                } else {
                    (-behind / t).exp()
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        // A uniform draw in [0, total).
        let mut x = (splitmix64(seed) >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        values.iter().position(|&v| v == best).unwrap_or(0)
    }
}

/// A score as a number for the choice.
fn choice_value(s: Score) -> i64 {
    match s {
        Score::Cp(x) => x as i64,
        Score::Mate(n) if n > 0 => MATE_CP - n as i64,
        Score::Mate(n) => -MATE_CP - n as i64,
    }
}

/// The weakened choice around one search: it sees the search's reports (passing on
/// only the lines the GUI asked for) and, after the search, picks the move to play
/// from the last complete set of lines.
pub struct Picker {
    skill: Skill,
    seed: u64,
    /// Lines the GUI asked for (the others are searched only to choose from).
    shown: usize,
    /// Lines in a complete set (the candidates, at most the number of root moves).
    wanted: usize,
    lines: Mutex<Lines>,
}

#[derive(Default)]
struct Lines {
    /// The set being reported.
    current: Vec<Info>,
    /// The last complete set.
    complete: Vec<Info>,
}

impl Picker {
    /// `limits` are the search's limits before [`Skill::restrict`]; `root_moves` the
    /// number of legal root moves; `key` mixes the position into a clock seed.
    pub fn new(skill: Skill, limits: &Limits, root_moves: usize, key: u64) -> Picker {
        let seed = skill.seed.unwrap_or_else(|| {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            now ^ key
        });
        Picker {
            skill,
            seed,
            shown: limits.multi_pv.max(1),
            wanted: skill
                .candidates()
                .max(limits.multi_pv)
                .clamp(1, root_moves.max(1)),
            lines: Mutex::new(Lines::default()),
        }
    }

    /// A callback that records lines for the choice and passes the rest of the
    /// search's events on to `inner`, lines beyond those shown left out.
    pub fn wrap(self: &Arc<Self>, inner: Callback) -> Callback {
        let me = self.clone();
        Arc::new(move |event| {
            if let Event::Info(info) = &event {
                me.record(info);
                if info.multipv > me.shown {
                    return;
                }
            }
            inner(event)
        })
    }

    fn record(&self, info: &Info) {
        let mut l = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        if info.multipv == 1 {
            l.current.clear();
        }
        if info.multipv == l.current.len() + 1 {
            l.current.push(info.clone());
            if l.current.len() == self.wanted {
                l.complete = l.current.clone();
            }
        }
    }

    /// The line to play, or None when no iteration was completed with every line (the
    /// search's own move is then played).
    pub fn choose(&self) -> Option<Info> {
        let l = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        let lines: Vec<&Info> = l.complete.iter().filter(|i| !i.pv.is_empty()).collect();
        if lines.is_empty() {
            return None;
        }
        let scores: Vec<Score> = lines.iter().map(|i| i.score).collect();
        let i = self.skill.choose(&scores, self.seed);
        Some(lines[i].clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_monotonically() {
        let mut prev: Option<Skill> = None;
        for l in MIN_LEVEL..MAX_LEVEL {
            let s = Skill::from_level(l).expect("limited below MAX_LEVEL");
            if let Some(p) = prev {
                assert!(s.node_budget() > p.node_budget(), "level {l}");
                assert!(s.depth_cap() >= p.depth_cap(), "level {l}");
                assert!(s.temperature() < p.temperature(), "level {l}");
                assert!(s.candidates() <= p.candidates(), "level {l}");
                assert!(s.nominal_elo() > p.nominal_elo(), "level {l}");
            }
            prev = Some(s);
        }
        assert_eq!(Skill::from_level(MAX_LEVEL), None);
        let weakest = Skill::from_level(-99).expect("brought up to MIN_LEVEL");
        assert_eq!(weakest.level(), MIN_LEVEL as f64);
        assert_eq!(weakest.depth_cap(), 1);
        assert_eq!(weakest.node_budget(), 256);
        assert_eq!(weakest.candidates(), 8);
    }

    #[test]
    fn elo_maps_onto_levels() {
        assert!((MIN_ELO..=MAX_ELO).contains(&DEFAULT_ELO));
        assert_eq!(Skill::from_elo(0).level(), MIN_LEVEL as f64);
        assert_eq!(Skill::from_elo(9999).level(), 19.0);
        for &(level, elo) in &NOMINAL_ELO {
            assert_eq!(Skill::from_elo(elo).level(), level as f64);
            assert_eq!(Skill::from_elo(elo).nominal_elo(), elo);
        }
        // Between two table points the level is interpolated linearly.
        let ((l0, e0), (l1, e1)) = (NOMINAL_ELO[4], NOMINAL_ELO[5]);
        let elo = (e0 + e1) / 2;
        let expected = l0 as f64 + (elo - e0) as f64 / (e1 - e0) as f64 * (l1 - l0) as f64;
        assert!((Skill::from_elo(elo).level() - expected).abs() < 1e-9);
    }

    #[test]
    fn restrict_keeps_the_tighter_limits() {
        let s = Skill::from_level(0).unwrap();
        let mut l = Limits {
            multi_pv: 1,
            ..Limits::default()
        };
        s.restrict(&mut l);
        assert_eq!(l.nodes, Some(s.node_budget()));
        assert_eq!(l.depth, Some(s.depth_cap()));
        assert_eq!(l.multi_pv, s.candidates());
        let mut l = Limits {
            nodes: Some(10),
            depth: Some(1),
            multi_pv: 20,
            ..Limits::default()
        };
        s.restrict(&mut l);
        assert_eq!((l.nodes, l.depth, l.multi_pv), (Some(10), Some(1), 20));
    }

    fn histogram(skill: Skill, scores: &[Score]) -> Vec<u32> {
        let mut h = vec![0; scores.len()];
        for seed in 0..4000 {
            h[skill.choose(scores, seed)] += 1;
        }
        h
    }

    #[test]
    fn the_choice_prefers_better_moves() {
        let scores = [
            Score::Cp(50),
            Score::Cp(20),
            Score::Cp(-50),
            Score::Cp(-900),
        ];
        // The weakest level: every move within the margin, the better more often, a
        // queen down never.
        let h = histogram(Skill::from_level(MIN_LEVEL).unwrap(), &scores);
        assert!(h[0] > h[1] && h[1] > h[2] && h[2] > 0, "{h:?}");
        assert_eq!(h[3], 0, "{h:?}");
        // Level 19: only moves within a few centipawns compete.
        let h = histogram(Skill::from_level(19).unwrap(), &scores);
        assert_eq!(h, vec![4000, 0, 0, 0]);
        // A mate is always played, a move that gets mated never chosen.
        let mates = [Score::Mate(3), Score::Cp(900)];
        assert_eq!(
            histogram(Skill::from_level(MIN_LEVEL).unwrap(), &mates),
            vec![4000, 0]
        );
        let mated = [Score::Cp(-500), Score::Mate(-2)];
        assert_eq!(
            histogram(Skill::from_level(MIN_LEVEL).unwrap(), &mated),
            vec![4000, 0]
        );
        // The same seed, the same choice.
        let s = Skill::from_level(-5).unwrap();
        assert_eq!(s.choose(&scores, 7), s.choose(&scores, 7));
    }
}
