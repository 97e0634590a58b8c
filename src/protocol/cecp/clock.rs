//! CECP time controls (`level`, `st`, `time`/`otim`, `sd`, `nps`) turned into search
//! limits (the emergency stop is [`crate::protocol::common::emergency_budget`]).

use super::command::Level;
use crate::protocol::common::MOVE_OVERHEAD;
use crate::search::Limits;
use std::time::Duration;

/// The shortest `st` move time left after the move overhead.
const MIN_PER_MOVE: Duration = Duration::from_millis(10);

/// The thinking time without any time control.
const DEFAULT_PER_MOVE: Duration = Duration::from_secs(5);

#[derive(Clone, Debug, Default)]
pub struct Clock {
    pub level: Option<Level>,
    /// `st`: fixed time per move (replaces `level`).
    pub per_move: Option<Duration>,
    /// `time` / `otim`: the clocks of the engine's side and the opponent.
    pub mine: Option<Duration>,
    pub theirs: Option<Duration>,
    pub max_depth: Option<u32>,
    pub nps: Option<u64>,
}

/// Centiseconds (possibly negative when a flag fell) to a duration.
pub fn centiseconds(cs: i64) -> Duration {
    Duration::from_millis(cs.max(0) as u64 * 10)
}

impl Clock {
    pub fn set_level(&mut self, level: Level) {
        self.level = Some(level);
        self.per_move = None;
        self.mine = None;
        self.theirs = None;
    }

    pub fn set_per_move(&mut self, t: Duration) {
        self.per_move = Some(t);
        self.level = None;
    }

    /// Limits for thinking on a move, `moves_made` being the number of moves the side
    /// to move has made in the game (for classical time controls).
    pub fn limits(&self, moves_made: u32) -> Limits {
        let mut limits = Limits {
            depth: self.max_depth,
            nps: self.nps,
            move_overhead: MOVE_OVERHEAD,
            multi_pv: 1,
            ..Limits::default()
        };
        if let Some(t) = self.per_move {
            limits.movetime = Some(t.saturating_sub(MOVE_OVERHEAD).max(MIN_PER_MOVE));
        } else if let Some(level) = self.level {
            limits.time_left = Some(self.mine.unwrap_or(level.base));
            limits.increment = level.increment;
            if level.moves > 0 {
                limits.moves_to_go = Some(level.moves - moves_made % level.moves);
            }
        } else if let Some(mine) = self.mine {
            limits.time_left = Some(mine);
        } else if self.max_depth.is_none() {
            // No time control at all: think a few seconds.
            limits.movetime = Some(DEFAULT_PER_MOVE);
        }
        limits
    }
}
