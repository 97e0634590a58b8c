//! CECP thinking: what to start when nothing runs (think, ponder, analyse), search
//! events (thinking output, the move), and the fallback when a search dies.

use super::{Abort, Activity, Mode, Session};
use crate::board::Position;
use crate::protocol::common::emergency_budget;
use crate::protocol::{fallback, options, wire};
use crate::search::{Event, Info, LiveReports, Score};
use crate::types::Move;
use std::time::Instant;

/// Centipawns behind from which the engine accepts a draw its opponent offered.
const DRAW_ACCEPT_BEHIND: i32 = 300;

impl Session {
    /// The search thread ended without a best move: play a fallback move if one was
    /// due, and do not restart a search on this position.
    pub(super) fn search_died(&mut self) {
        let activity = self.activity;
        let abort = self.aborting.take();
        self.activity = Activity::Idle;
        self.deadline = None;
        self.search_root = None;
        self.failed_key = Some(self.ctl.position().key());
        self.debug_line("the search ended without a move");
        let playing = activity == Activity::Think && abort != Some(Abort::Discard);
        let analysing = activity == Activity::Analyze && abort.is_none();
        if !playing && !analysing {
            return;
        }
        let limits = self.think_limits();
        let Some(c) = fallback::choose(self.ctl.position(), &limits) else {
            if playing {
                self.play_move(Move::NONE, None);
            }
            return;
        };
        let info = c.info();
        if self.post {
            self.search_root = Some(self.ctl.position().clone());
            let line = self.thinking_line(&info);
            self.out.line(&line);
            self.search_root = None;
        }
        self.last_info = Some(info);
        if playing {
            self.play_move(c.best, None);
        }
    }

    pub(super) fn think_limits(&self) -> crate::search::Limits {
        let moves_made = self.ctl.position().game_ply() / 2;
        let mut limits = self.clock.limits(moves_made);
        limits.multi_pv = self.settings.multi_pv;
        limits.skill = self.settings.skill();
        limits
    }

    /// Start whatever the mode asks for, when nothing runs (the main loop of the
    /// protocol's pseudo-code).
    pub(super) fn start_activity(&mut self) {
        if self.activity != Activity::Idle
            || self.aborting.is_some()
            || self.paused
            || self.edit.is_some()
        {
            return;
        }
        if !self.backlog.is_empty() {
            return;
        }
        if let Some(n) = self.pending_threads.take() {
            self.set_cores(n);
        }
        if let Some(mb) = self.pending_hash.take() {
            self.set_memory(mb);
        }
        let stm = self.ctl.position().side_to_move();
        if self.failed_key == Some(self.ctl.position().key())
            && !matches!(self.mode, Mode::Plays(c) if c == stm)
        {
            return;
        }
        match self.mode {
            Mode::Force => {}
            Mode::Analyze => {
                let mut limits = crate::search::Limits {
                    infinite: true,
                    multi_pv: self.settings.multi_pv,
                    // For the `.` command's current move.
                    live: LiveReports {
                        curr_move: true,
                        ..Default::default()
                    },
                    ..Default::default()
                };
                limits.exclude_moves = self.excluded.clone();
                let pos = self.ctl.position().clone();
                self.start_search(pos, limits, Activity::Analyze);
            }
            Mode::Plays(c) if c == stm => {
                if self.claim_if_over() {
                    self.mode = Mode::Force;
                    return;
                }
                if self.settings.book
                    && let Some(&(m, _)) = self.ctl.book_moves().first()
                {
                    // A book move takes no thinking time; with `post` it is shown as a
                    // depth-0 line so that the GUI's engine output says where it came from.
                    self.search_started = Instant::now();
                    // No search judged this move (nor the game: no resigning on it).
                    self.last_info = None;
                    if self.post {
                        let text = wire::cecp_text(self.ctl.position(), m, &self.xb);
                        self.out.line(&format!("0 0 0 0 {text} (book)"));
                    }
                    self.play_move(m, None);
                    return;
                }
                let limits = self.think_limits();
                self.deadline = emergency_budget(&limits).map(|d| Instant::now() + d);
                let pos = self.ctl.position().clone();
                self.start_search(pos, limits, Activity::Think);
            }
            Mode::Plays(_) => {
                // Ponder on the expected reply, except in the start position.
                let Some(expected) = self.expected_reply else {
                    return;
                };
                if !self.ponder
                    || self.ctl.position().ply_count() == 0
                    || self.ctl.game_end().is_some()
                {
                    return;
                }
                if !self.ctl.legal_moves().contains(&expected) {
                    self.expected_reply = None;
                    return;
                }
                let mut pos = self.ctl.position().clone();
                let text = wire::cecp_text(&pos, expected, &self.xb);
                pos.make(expected);
                self.out.line(&format!("Hint: {text}"));
                let moves_made = pos.game_ply() / 2;
                let mut limits = self.clock.limits(moves_made);
                limits.ponder = true;
                // Pondering prepares the move played at ponderhit: at the same strength.
                limits.skill = self.settings.skill();
                self.start_search(pos, limits, Activity::Ponder(expected));
            }
        }
    }

    pub(super) fn start_search(
        &mut self,
        pos: Position,
        limits: crate::search::Limits,
        activity: Activity,
    ) {
        self.search_root = Some(pos.clone());
        self.search_started = Instant::now();
        self.last_info = None;
        self.curr_move = None;
        self.activity = activity;
        self.ctl.start_search(pos, limits);
    }

    pub(super) fn on_search_event(&mut self, id: u64, event: Event) {
        if self.activity == Activity::Idle || !self.ctl.is_current_search(id) {
            return;
        }
        match event {
            Event::Info(info) => {
                if self.post && self.aborting != Some(Abort::Discard) {
                    let line = self.thinking_line(&info);
                    self.out.line(&line);
                }
                self.last_info = Some(info);
            }
            Event::CurrMove { mv, number } => self.curr_move = Some((mv, number)),
            // Asked for by UCI options only.
            Event::CurrLine(_) | Event::Refutation(_) => {}
            Event::BestMove { best, ponder } => {
                let abort = self.aborting.take();
                let activity = self.activity;
                self.activity = Activity::Idle;
                self.deadline = None;
                self.search_root = None;
                if activity == Activity::Think && abort != Some(Abort::Discard) {
                    self.play_move(best, ponder);
                } else if abort.is_none() {
                    // An analysis or ponder search that ended by itself (nothing left
                    // to search) is not restarted in the same position.
                    self.failed_key = Some(self.ctl.position().key());
                }
            }
        }
    }

    /// `depth score time nodes pv`, score in centipawns or 100000+N for mate in N.
    pub(super) fn thinking_line(&self, info: &Info) -> String {
        let score = match info.score {
            Score::Cp(x) => x as i64,
            Score::Mate(n) if n > 0 => 100000 + n as i64,
            Score::Mate(n) => -100000 - n.unsigned_abs() as i64,
        };
        let mut pv = String::new();
        if let Some(root) = &self.search_root {
            let mut p = root.clone();
            for &m in &info.pv {
                let text = wire::cecp_text(&p, m, &self.xb);
                pv.push(' ');
                pv.push_str(&text);
                p.make(m);
            }
        }
        format!(
            "{} {} {} {}{}",
            info.depth,
            score,
            info.time.as_millis() / 10,
            info.nodes,
            pv
        )
    }

    /// The search that just ended found the engine `cp` centipawns or more behind,
    /// or mated.
    fn found_behind(&self, cp: i32) -> bool {
        self.last_info.as_ref().is_some_and(|i| match i.score {
            Score::Cp(x) => x <= -cp,
            Score::Mate(n) => n < 0,
        })
    }

    /// Count the search that just ended towards resigning (the `Resign` option):
    /// true when it and the ones before it found the game lost often enough.
    fn resigns(&mut self) -> bool {
        let limit = self.settings.resign;
        let lost = limit > 0 && self.found_behind(limit);
        self.lost_searches = if lost { self.lost_searches + 1 } else { 0 };
        self.lost_searches >= options::RESIGN_AFTER
    }

    /// Play the engine's move (or resign, see [`Self::resigns`]): print it (leg by
    /// leg), make it, claim a result.
    pub(super) fn play_move(&mut self, best: Move, reply: Option<Move>) {
        let legal = self.ctl.legal_moves();
        let m = if legal.contains(&best) {
            best
        } else {
            match legal.first() {
                Some(&m) => m,
                None => {
                    self.claim_if_over();
                    self.mode = Mode::Force;
                    return;
                }
            }
        };
        if self.resigns() {
            self.out.line("resign");
            self.mode = Mode::Force;
            return;
        }
        // A draw offered is accepted (offered back) when the game looks lost.
        if self.draw_offered && self.found_behind(DRAW_ACCEPT_BEHIND) {
            self.out.line("offer draw");
        }
        let pos = self.ctl.position().clone();
        let text = wire::cecp_text(&pos, m, &self.xb);
        // A wall square is written as a second leg; such a move goes on one line, as
        // Fairy-Stockfish sends it.
        let legs: Vec<&str> = if m.wall().is_some() || pos.rules().walls_instead {
            vec![&text]
        } else {
            text.split(',').collect()
        };
        for (i, leg) in legs.iter().enumerate() {
            let comma = if i + 1 < legs.len() { "," } else { "" };
            self.out.line(&format!("move {leg}{comma}"));
        }
        let used = self.search_started.elapsed();
        if let (Some(mine), Some(level)) = (self.clock.mine, self.clock.level) {
            self.clock.mine = Some(mine.saturating_sub(used) + level.increment);
        }
        self.ctl.play(m);
        self.after_position_change();
        self.draw_offered = false;
        self.expected_reply = reply;
        if self.claim_if_over() {
            self.mode = Mode::Force;
        }
    }
}
