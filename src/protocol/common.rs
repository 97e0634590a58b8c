//! What the UCI and CECP sessions share besides the controller and the options: the
//! engine's name, the time it allows for the GUI and for emergencies, and the backlog
//! of input lines that wait for a search to end. Each value is written here once.

use crate::search::Limits;
use std::collections::VecDeque;
use std::time::Duration;

/// The name both protocols announce (UCI `id name`, CECP `myname`).
pub const ENGINE_NAME: &str = concat!("Menagerie ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Menagerie developers";

/// The licence the engine is distributed under: Cargo.toml's `license`, written once.
pub const LICENCE: &str = env!("CARGO_PKG_LICENSE");

/// What UCI_EngineAbout says: the project, what it is, and its licence.
pub fn engine_about() -> String {
    format!(
        "{ENGINE_NAME} by {ENGINE_AUTHOR}, a chess-variant engine for any variant \
         defined in a variants.ini file; licence: {LICENCE}"
    )
}

/// The largest depth, mate distance or number of moves to go a GUI may ask for;
/// larger requests are brought down to it (no search gets that far).
pub const MAX_REQUESTED_COUNT: u64 = 1000;

/// Time the GUI and the pipes take per move, taken off every budget: 30 ms, the
/// larger of the two values the protocols had (UCI 20, CECP 30), since a lost
/// millisecond costs less than a lost game on time.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// How long past a fixed move time (UCI `movetime`, CECP `st`) a search may run
/// before it is stopped whatever it does.
const MOVETIME_GRACE: Duration = Duration::from_millis(500);

/// Moves still to play assumed by the emergency stop when the clock does not say.
const EMERGENCY_MOVES_HORIZON: u32 = 20;

/// The emergency stop never comes sooner than this: 20 ms, the smaller of the two
/// values the protocols had (UCI 20, CECP 50), so that with less than 100 ms left
/// the stop still comes at half the clock and not after it.
const EMERGENCY_FLOOR: Duration = Duration::from_millis(20);

/// Time for the fallback move when a search dies: 200 ms, the smaller of the two
/// values the protocols had (UCI 200, CECP 300); the fallback only looks a few plies
/// deep and must not lose on time where the search would not have.
pub const FALLBACK_BUDGET: Duration = Duration::from_millis(200);

/// How long after its start a timed search is stopped whatever it does: well past
/// the search's own budget but before the flag falls. None for an untimed search.
/// (The caller arms it only while the search is on the engine's clock, not while it
/// ponders or analyses.)
pub fn emergency_budget(limits: &Limits) -> Option<Duration> {
    if let Some(t) = limits.movetime {
        return Some(t + MOVETIME_GRACE);
    }
    let left = limits.time_left?;
    let moves = limits.moves_to_go.unwrap_or(EMERGENCY_MOVES_HORIZON).max(1);
    let share = left / moves + limits.increment;
    Some((share * 3).min(left / 2).max(EMERGENCY_FLOOR))
}

/// Input lines that arrived while a search had to end first, run in arrival order
/// once it has.
#[derive(Debug, Default)]
pub struct Backlog {
    lines: VecDeque<String>,
    /// The line being handled came from the backlog: if it has to wait again, it
    /// goes back to the front so that later lines keep their place behind it.
    replaying: bool,
}

impl Backlog {
    /// The next line to run when `ready` (else none), remembering whether the line
    /// now being handled is a replayed one.
    pub fn next(&mut self, ready: bool) -> Option<String> {
        let line = if ready { self.lines.pop_front() } else { None };
        self.replaying = line.is_some();
        line
    }

    /// Keep a line for after the running search, in arrival order.
    pub fn defer(&mut self, line: String) {
        if self.replaying {
            self.lines.push_front(line);
        } else {
            self.lines.push_back(line);
        }
    }

    pub fn front(&self) -> Option<&str> {
        self.lines.front().map(String::as_str)
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The about text names the licence of Cargo.toml.
    #[test]
    fn about_names_the_licence() {
        assert!(engine_about().ends_with("; licence: MIT OR Apache-2.0"));
    }

    #[test]
    fn emergency_stop() {
        let ms = Duration::from_millis;
        let timed = |left, inc, mtg| Limits {
            time_left: Some(ms(left)),
            increment: ms(inc),
            moves_to_go: mtg,
            ..Limits::default()
        };
        assert_eq!(emergency_budget(&Limits::default()), None);
        let fixed = Limits {
            movetime: Some(ms(100)),
            ..Limits::default()
        };
        assert_eq!(emergency_budget(&fixed), Some(ms(600)));
        // 3 shares of 60 s / 20 moves, at most half the clock.
        assert_eq!(emergency_budget(&timed(60_000, 0, None)), Some(ms(9_000)));
        assert_eq!(
            emergency_budget(&timed(10_000, 0, Some(1))),
            Some(ms(5_000))
        );
        // Half of 60 ms, not the floor (it was 50 ms for CECP: after the clock).
        assert_eq!(emergency_budget(&timed(60, 0, Some(1))), Some(ms(30)));
        assert_eq!(emergency_budget(&timed(60, 0, None)), Some(EMERGENCY_FLOOR));
    }

    #[test]
    fn backlog_keeps_arrival_order() {
        let mut b = Backlog::default();
        b.defer("a".into());
        b.defer("b".into());
        assert_eq!(b.next(false), None);
        assert_eq!(b.next(true).as_deref(), Some("a"));
        // "a" has to wait again: it goes back before "b".
        b.defer("a".into());
        assert_eq!(b.front(), Some("a"));
        assert_eq!(b.next(true).as_deref(), Some("a"));
        assert_eq!(b.next(true).as_deref(), Some("b"));
        assert!(b.is_empty());
    }
}
