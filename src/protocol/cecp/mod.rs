//! CECP (XBoard protocol v2) session.
//!
//! The engine is in one of four modes (playing White, playing Black, force,
//! analyze) and does one thing at a time (idle, thinking on its move, pondering on
//! the opponent's expected move, analysing). A line that arrives while it searches is
//! either answered at once (`ping` when not thinking, `.`, `time`, `lift`, `post`, ...)
//! or backlogged: the search is asked to stop, and the line is executed when the
//! search has reported its end — as the pseudo-code of cecp-v2-compact.txt does.

mod clock;
mod command;

use super::controller::{Controller, Wake};
use super::fallback;
use super::highlight::{MoveEntry, Reply};
use super::io::{Input, Output};
use super::wire;
use super::xboard::{self, XbVariant};
use clock::Clock;
use command::{Command, ParseError};
use menagerie::board::{Color, Position, RankNumbering};
use menagerie::movegen::Move;
use menagerie::search::{Event, Info, Score};
use std::collections::VecDeque;
use std::path::Path;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// What the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Force,
    Plays(Color),
    Analyze,
}

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Activity {
    Idle,
    Think,
    /// Searching the position after the opponent's expected move.
    Ponder(Move),
    Analyze,
}

/// Whether a thinking search that is being stopped still plays its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Abort {
    PlayMove,
    Discard,
}

/// Lines of the obsolete `edit` command being collected.
struct EditBoard {
    white: bool,
    pieces: Vec<(menagerie::board::Square, Color, char)>,
}

pub struct Session {
    ctl: Controller,
    out: Output,
    xb: XbVariant,
    mode: Mode,
    activity: Activity,
    /// Set while waiting for a stopped search to report its end.
    aborting: Option<Abort>,
    /// Lines to execute once the search has ended.
    backlog: VecDeque<String>,
    /// The position the running search started from (for PV text).
    search_root: Option<Position>,
    search_started: Instant,
    /// Stop a thinking search at this instant whatever it is doing.
    deadline: Option<Instant>,
    last_info: Option<Info>,
    clock: Clock,
    post: bool,
    ponder: bool,
    debug: bool,
    paused: bool,
    draw_offered: bool,
    book_enabled: bool,
    multi_pv: usize,
    /// The reply the engine expects (for `hint` and pondering).
    expected_reply: Option<Move>,
    /// Moves excluded from analysis.
    excluded: Vec<Move>,
    /// The game-end claim was already made in the current position.
    claimed: bool,
    entry: MoveEntry,
    edit: Option<EditBoard>,
    /// Settings to apply when no search runs (they would wait for it).
    pending_threads: Option<usize>,
    pending_hash: Option<usize>,
    /// The position in which a search died or an analysis ended by itself (no new
    /// analysis or ponder search is started there).
    failed_key: Option<u64>,
}

const ENGINE_NAME: &str = concat!("Menagerie ", env!("CARGO_PKG_VERSION"));

impl Session {
    pub fn new(ctl: Controller) -> Session {
        let xb = XbVariant::new(ctl.variant());
        Session {
            ctl,
            out: Output::stdout(),
            xb,
            mode: Mode::Plays(Color::Black),
            activity: Activity::Idle,
            aborting: None,
            backlog: VecDeque::new(),
            search_root: None,
            search_started: Instant::now(),
            deadline: None,
            last_info: None,
            clock: Clock::default(),
            post: false,
            ponder: false,
            debug: false,
            paused: false,
            draw_offered: false,
            book_enabled: true,
            multi_pv: 1,
            expected_reply: None,
            excluded: Vec::new(),
            claimed: false,
            entry: MoveEntry::default(),
            edit: None,
            pending_threads: None,
            pending_hash: None,
            failed_key: None,
        }
    }

    /// Run until `quit` or the end of input. `first` is the line that chose CECP.
    pub fn run(mut self, rx: Receiver<Input>, first: Option<String>) {
        if let Some(line) = first {
            self.on_line(line);
        }
        loop {
            // Backlogged lines run in order once no stopped search is pending; a ping
            // waits for the move while the engine thinks (later lines that can be
            // answered during the search are not held up by it).
            let ping_waits = self.activity == Activity::Think
                && self.backlog.front().is_some_and(|l| l.starts_with("ping"));
            let next = if self.aborting.is_none() && !ping_waits {
                self.backlog.pop_front()
            } else {
                None
            };
            let input = match next {
                Some(line) => Input::Line(line),
                None => match self.receive(&rx) {
                    Some(i) => i,
                    None => continue,
                },
            };
            match input {
                Input::Line(line) => self.on_line(line),
                Input::Search(id, event) => self.on_search_event(id, event),
                Input::Eof => self.quit(),
            }
            self.start_activity();
        }
    }

    /// The next input; None after handling a deadline or a dead search.
    fn receive(&mut self, rx: &Receiver<Input>) -> Option<Input> {
        let searching = self.activity != Activity::Idle;
        let deadline = self.deadline.filter(|_| self.activity == Activity::Think);
        match self.ctl.next_input(rx, searching, deadline) {
            Wake::Input(i) => Some(i),
            Wake::Deadline => {
                self.deadline = None;
                self.ctl.stop_search();
                None
            }
            Wake::SearchDied => {
                self.search_died();
                None
            }
        }
    }

    /// The search thread ended without a best move: play a fallback move if one was
    /// due, and do not restart a search on this position.
    fn search_died(&mut self) {
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
        let budget = self
            .clock
            .limits(0)
            .movetime
            .unwrap_or(Duration::from_millis(300))
            .min(Duration::from_millis(300));
        let depth = self.clock.max_depth.unwrap_or(4);
        let Some(c) = fallback::choose(self.ctl.position(), budget, depth, &[]) else {
            if playing {
                self.play_move(Move::NONE, None);
            }
            return;
        };
        let info = Info {
            depth: c.depth,
            seldepth: c.depth,
            multipv: 1,
            score: c.score,
            nodes: 0,
            nps: 0,
            time: Duration::ZERO,
            pv: vec![c.best],
            hashfull: 0,
        };
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

    fn quit(&mut self) -> ! {
        self.ctl.stop_search();
        std::process::exit(0)
    }

    fn debug_line(&mut self, text: &str) {
        if self.debug {
            self.out.line(&format!("# {text}"));
        }
    }

    // ------------------------------------------------------------------ input

    fn on_line(&mut self, line: String) {
        let line = line.trim().to_string();
        if line.is_empty() {
            return;
        }
        // Edit mode takes every line except the two that must always work.
        if self.edit.is_some() {
            match command::parse(&line) {
                Ok(Command::Quit) => self.quit(),
                Ok(Command::Ping(n)) => self.out.line(&format!("pong {n}")),
                _ => self.on_edit_line(&line),
            }
            return;
        }
        let cmd = match command::parse(&line) {
            Ok(c) => c,
            Err(ParseError::Unknown) => {
                if line.starts_with('#') {
                    return;
                }
                self.out.line(&format!("Error (unknown command): {line}"));
                return;
            }
            Err(ParseError::BadParameters(why)) => {
                self.out.line(&format!("Error ({why}): {line}"));
                return;
            }
        };
        if matches!(cmd, Command::Quit) {
            self.quit();
        }
        if self.aborting.is_some() {
            // Order is kept: everything waits for the stopped search.
            self.backlog.push_back(line);
            return;
        }
        if self.activity != Activity::Idle {
            match self.during_search(&cmd, &line) {
                None => return,
                Some(abort) => {
                    self.abort(abort);
                    self.backlog.push_back(line);
                    return;
                }
            }
        }
        self.execute(cmd, &line);
    }

    /// Handle a command while a search runs. Returns None when it was handled, or
    /// how to stop the search before executing it.
    fn during_search(&mut self, cmd: &Command, line: &str) -> Option<Abort> {
        use Command::*;
        let thinking = self.activity == Activity::Think;
        match cmd {
            Ping(n) if !thinking => self.out.line(&format!("pong {n}")),
            // A ping while thinking is answered after the move, without hurrying it.
            Ping(_) => {
                self.backlog_ping(cmd);
                return None;
            }
            MoveNow => {
                if thinking {
                    self.ctl.stop_search();
                }
            }
            Stat => self.stat(),
            Time(cs) => self.clock.mine = Some(clock::centiseconds(*cs)),
            Otim(cs) => self.clock.theirs = Some(clock::centiseconds(*cs)),
            Post => self.post = true,
            NoPost => self.post = false,
            Hard => self.ponder = true,
            Easy => {
                self.ponder = false;
                if matches!(self.activity, Activity::Ponder(_)) {
                    return Some(Abort::Discard);
                }
            }
            Draw => self.draw_offered = true,
            Random | Info | Accepted(_) | Rejected(_) => self.execute(cmd.clone(), line),
            Cores(n) => self.pending_threads = Some(*n),
            Memory(mb) => self.pending_hash = Some(*mb),
            Bk | Hint | Lift(_) | Put(_) | Hover(_) => self.execute(cmd.clone(), line),
            Move(text) if matches!(self.activity, Activity::Ponder(_)) => {
                let Activity::Ponder(expected) = self.activity else {
                    unreachable!()
                };
                let parsed = wire::cecp_parse(self.ctl.position_mut(), text, &self.xb);
                if parsed == Ok(expected) {
                    // Ponder hit: the search goes on, now on the clock.
                    self.ctl.play(expected);
                    self.after_position_change();
                    self.ctl.ponderhit();
                    self.activity = Activity::Think;
                    self.search_started = Instant::now();
                    let limits = self.think_limits();
                    self.deadline = self.clock.deadline(&limits).map(|d| Instant::now() + d);
                    self.debug_line("ponder hit");
                    return None;
                }
                return Some(Abort::Discard);
            }
            New | Variant(_) | Force | Result(_) | SetBoard(_) | Edit | Undo | Remove | Analyze
            | Exit | Pause => {
                return Some(Abort::Discard);
            }
            Move(_) | Exclude(_) | Include(_) if self.activity == Activity::Analyze => {
                return Some(Abort::Discard);
            }
            _ if thinking => return Some(Abort::PlayMove),
            _ => return Some(Abort::Discard),
        }
        None
    }

    /// Keep a ping for after the move; later lines that must wait keep their turn
    /// behind it.
    fn backlog_ping(&mut self, cmd: &Command) {
        if let Command::Ping(n) = cmd {
            self.backlog.push_back(format!("ping {n}"));
        }
    }

    fn abort(&mut self, how: Abort) {
        self.aborting = Some(how);
        self.ctl.stop_search();
    }

    fn execute(&mut self, cmd: Command, line: &str) {
        use Command::*;
        match cmd {
            Xboard => {}
            Protover(_) => self.features(),
            Accepted(f) => {
                if f == "debug" {
                    self.debug = true;
                }
            }
            Rejected(_) | Info => {}
            New => self.new_game(),
            Variant(name) => self.variant(&name, line),
            Quit => self.quit(),
            Random => {}
            Force => self.mode = Mode::Force,
            Go => self.mode = Mode::Plays(self.ctl.position().side_to_move()),
            PlayOther => self.mode = Mode::Plays(self.ctl.position().side_to_move().flip()),
            Color(white) => {
                // Obsolete: the engine plays the other colour.
                self.mode = Mode::Plays(if white {
                    menagerie::board::Color::Black
                } else {
                    menagerie::board::Color::White
                });
            }
            Level(l) => self.clock.set_level(l),
            St(t) => self.clock.set_per_move(t),
            Sd(d) => self.clock.max_depth = Some(d.max(1)),
            Nps(n) => self.clock.nps = (n > 0).then_some(n),
            Time(cs) => self.clock.mine = Some(clock::centiseconds(cs)),
            Otim(cs) => self.clock.theirs = Some(clock::centiseconds(cs)),
            Move(text) => self.user_move(&text),
            MoveNow => {}
            Ping(n) => self.out.line(&format!("pong {n}")),
            Draw => self.draw_offered = true,
            Result(_) => {
                self.mode = Mode::Force;
                self.claimed = true;
            }
            SetBoard(fen) => self.set_board(&fen, line),
            Edit => {
                let pos = self.ctl.position();
                let g = pos.variant().geometry;
                let mut pieces = Vec::new();
                for sq in g.squares() {
                    let p = pos.piece_at(sq);
                    if p.is_some() {
                        pieces.push((sq, p.color(), self.xb.letter(pos.variant(), p.kind())));
                    }
                }
                self.edit = Some(EditBoard {
                    white: true,
                    pieces,
                });
            }
            Hint => self.hint(),
            Bk => self.book(),
            Undo => self.take_back(1, line),
            Remove => self.take_back(2, line),
            Hard => self.ponder = true,
            Easy => self.ponder = false,
            Post => self.post = true,
            NoPost => self.post = false,
            Analyze => {
                self.mode = Mode::Analyze;
                self.excluded.clear();
            }
            Exit => {
                if self.mode == Mode::Analyze {
                    self.mode = Mode::Force;
                }
                self.excluded.clear();
            }
            Stat => self.stat(),
            Pause => self.paused = true,
            Resume => self.paused = false,
            Memory(mb) => self.ctl.set_hash_mb(mb.max(1)),
            Cores(n) => self.ctl.set_threads(n),
            Option(name, value) => self.option(&name, value.as_deref(), line),
            Exclude(m) => self.exclude(m.as_deref(), true, line),
            Include(m) => self.exclude(m.as_deref(), false, line),
            Lift(sq) => {
                let legal = self.ctl.legal_moves();
                let reply = self.entry.lift(self.ctl.position(), &legal, &self.xb, &sq);
                self.reply(reply, line);
            }
            Put(sq) => {
                let legal = self.ctl.legal_moves();
                if let Some(r) = self.entry.put(self.ctl.position(), &legal, &self.xb, &sq) {
                    self.reply(r, line);
                }
            }
            Hover(sq) => {
                let legal = self.ctl.legal_moves();
                if let Some(r) = self.entry.hover(self.ctl.position(), &legal, &sq) {
                    self.reply(r, line);
                }
            }
        }
    }

    fn reply(&mut self, reply: Reply, line: &str) {
        match reply {
            Reply::Highlight(fen) => self.out.line(&format!("highlight {fen}")),
            Reply::Choice(pieces) => self.out.line(&format!("choice {pieces}")),
            Reply::Error(why) => self.out.line(&format!("Error ({why}): {line}")),
        }
    }

    fn features(&mut self) {
        let mut names: Vec<String> = Vec::new();
        for n in self.ctl.variants().names() {
            let x = xboard::xboard_name(n).to_string();
            if !names.contains(&x) && !x.contains([',', ' ', '"']) {
                names.push(x);
            }
        }
        self.out.line("feature done=0");
        self.out.line(&format!(
            "feature myname=\"{ENGINE_NAME}\" ping=1 setboard=1 usermove=1 time=1 draw=1 sigint=0 sigterm=0 \
             reuse=1 analyze=1 colors=0 playother=1 pause=1 nps=1 debug=1 memory=1 smp=1 exclude=1 \
             highlight=1 name=0 san=0"
        ));
        self.out
            .line(&format!("feature variants=\"{}\"", names.join(",")));
        self.out.line("feature option=\"VariantPath -file \"");
        self.out.line("feature option=\"MultiPV -spin 1 1 64\"");
        self.out.line("feature option=\"Book -check 1\"");
        self.out.line("feature option=\"Clear Hash -button\"");
        self.out.line("feature done=1");
    }

    // ------------------------------------------------------------------ game state

    /// Forget what belonged to the previous position.
    fn after_position_change(&mut self) {
        self.claimed = false;
        self.excluded.clear();
        self.entry.reset();
    }

    fn new_game(&mut self) {
        if let Err(e) = self.ctl.select_variant(xboard::CHESS) {
            self.out.line(&format!("Error ({e}): new"));
        }
        self.xb = XbVariant::new(self.ctl.variant());
        if self.mode != Mode::Analyze {
            self.mode = Mode::Plays(Color::Black);
        }
        self.clock.max_depth = None;
        self.clock.nps = None;
        self.draw_offered = false;
        self.expected_reply = None;
        self.after_position_change();
        self.ctl.clear_hash();
    }

    fn variant(&mut self, name: &str, line: &str) {
        let ours = xboard::our_name(name);
        if let Err(e) = self.ctl.select_variant(ours) {
            self.out.line(&format!("Error ({e}): {line}"));
            return;
        }
        self.xb = XbVariant::new(self.ctl.variant());
        for l in self.xb.announce.clone() {
            self.out.line(&l);
        }
        if let Mode::Plays(_) = self.mode {
            self.mode = Mode::Plays(self.ctl.position().side_to_move().flip());
        }
        self.expected_reply = None;
        self.after_position_change();
    }

    fn set_board(&mut self, fen: &str, line: &str) {
        let ours = self.xb.fen_from_xboard(self.ctl.variant(), fen);
        match self.ctl.set_fen(&ours) {
            Ok(()) => {
                self.expected_reply = None;
                self.after_position_change();
            }
            Err(e) => {
                self.out
                    .line(&format!("tellusererror Illegal position: {e}"));
                self.out.line(&format!("Error ({e}): {line}"));
            }
        }
    }

    fn take_back(&mut self, n: usize, line: &str) {
        for _ in 0..n {
            if !self.ctl.undo() {
                self.out
                    .line(&format!("Error (no move to take back): {line}"));
                break;
            }
        }
        self.expected_reply = None;
        self.after_position_change();
    }

    fn user_move(&mut self, text: &str) {
        match wire::cecp_parse(self.ctl.position_mut(), text, &self.xb) {
            Ok(m) => {
                self.ctl.play(m);
                self.after_position_change();
                self.expected_reply = None;
                // The result must be claimed in force mode too.
                if self.mode == Mode::Force {
                    self.claim_if_over();
                }
            }
            Err(why) => self.out.line(&format!("Illegal move ({why}): {text}")),
        }
    }

    /// Print the result if the game is over; true when it is.
    fn claim_if_over(&mut self) -> bool {
        match self.ctl.game_end() {
            Some(end) => {
                if !self.claimed {
                    self.out.line(&end.line());
                    self.claimed = true;
                }
                true
            }
            None => false,
        }
    }

    fn on_edit_line(&mut self, line: &str) {
        let Some(edit) = self.edit.as_mut() else {
            return;
        };
        match line {
            "." => {
                let edit = self.edit.take().expect("in edit mode");
                self.finish_edit(edit);
            }
            "#" => edit.pieces.clear(),
            "c" => edit.white = !edit.white,
            _ => {
                let g = self.ctl.variant().geometry;
                let mut cs = line.chars();
                let placed = cs.next().and_then(|letter| {
                    let sq = g.parse_square(cs.as_str(), RankNumbering::XBoard)?;
                    letter
                        .is_ascii_alphabetic()
                        .then_some((letter.to_ascii_uppercase(), sq))
                });
                match placed {
                    Some((letter, sq)) => {
                        let color = if edit.white {
                            Color::White
                        } else {
                            Color::Black
                        };
                        edit.pieces.retain(|(s, _, _)| *s != sq);
                        if letter != 'X' {
                            edit.pieces.push((sq, color, letter));
                        }
                    }
                    None => self.out.line(&format!("Error (bad edit line): {line}")),
                }
            }
        }
    }

    /// Build a FEN from the edited board; pieces on their start squares keep their
    /// castling rights (the FEN reader drops rights that do not apply).
    fn finish_edit(&mut self, edit: EditBoard) {
        let v = self.ctl.variant().clone();
        let g = v.geometry;
        let mut rows = Vec::new();
        for r in (0..g.ranks).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for f in 0..g.files {
                let sq = g.square(f, r);
                match edit.pieces.iter().find(|(s, _, _)| *s == sq) {
                    Some(&(_, c, letter)) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(if c == Color::White {
                            letter
                        } else {
                            letter.to_ascii_lowercase()
                        });
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let side = if self.ctl.position().side_to_move() == Color::White {
            "w"
        } else {
            "b"
        };
        let hands = if v.piece_drops { "[]" } else { "" };
        let castling = if v.castling { "KQkq" } else { "-" };
        let fen = format!("{}{hands} {side} {castling} - 0 1", rows.join("/"));
        self.set_board(&fen, "edit");
    }

    fn hint(&mut self) {
        let pos = self.ctl.position().clone();
        let legal = self.ctl.legal_moves();
        let hint = self
            .expected_reply
            .filter(|m| legal.contains(m))
            .or_else(|| self.ctl.book_moves().first().map(|(m, _)| *m));
        if let Some(m) = hint {
            self.out
                .line(&format!("Hint: {}", wire::cecp_text(&pos, m, &self.xb)));
        }
    }

    fn book(&mut self) {
        let pos = self.ctl.position().clone();
        let moves = self.ctl.book_moves();
        let total: u64 = moves.iter().map(|&(_, w)| w as u64).sum::<u64>().max(1);
        if moves.is_empty() {
            self.out.line(" no book moves");
        }
        for (m, w) in moves {
            self.out.line(&format!(
                " {} {}%",
                wire::cecp_text(&pos, m, &self.xb),
                w as u64 * 100 / total
            ));
        }
        self.out.line("");
    }

    fn stat(&mut self) {
        if self.activity != Activity::Analyze {
            return;
        }
        let total = self.ctl.legal_moves().len();
        let (nodes, depth) = self
            .last_info
            .as_ref()
            .map_or((0, 0), |i| (i.nodes, i.depth));
        let cs = self.search_started.elapsed().as_millis() / 10;
        self.out
            .line(&format!("stat01 {cs} {nodes} {depth} 0 {total}"));
    }

    fn option(&mut self, name: &str, value: Option<&str>, line: &str) {
        match (name, value) {
            ("VariantPath", Some(path)) => {
                if path.is_empty() {
                    return;
                }
                let (loaded, errors) = self.ctl.load_variant_file(Path::new(path));
                if let Some(e) = errors.first() {
                    self.out.line(&format!("tellusererror {e}"));
                    self.out.line(&format!(
                        "Error ({} errors in the variant file): {line}",
                        errors.len()
                    ));
                }
                if !loaded.is_empty() {
                    self.out
                        .line(&format!("telluser loaded {}", loaded.join(", ")));
                    let names: Vec<String> = self
                        .ctl
                        .variants()
                        .names()
                        .map(|n| xboard::xboard_name(n).to_string())
                        .collect();
                    self.out
                        .line(&format!("feature variants=\"{}\"", names.join(",")));
                }
            }
            ("MultiPV", Some(v)) => match v.parse::<usize>() {
                Ok(n) if (1..=64).contains(&n) => self.multi_pv = n,
                _ => self
                    .out
                    .line(&format!("Error (MultiPV must be 1 to 64): {line}")),
            },
            ("Book", Some(v)) => self.book_enabled = v != "0",
            ("Clear Hash", _) => self.ctl.clear_hash(),
            _ => self.out.line(&format!("Error (unknown option): {line}")),
        }
    }

    fn exclude(&mut self, text: Option<&str>, exclude: bool, line: &str) {
        match text {
            None => {
                self.excluded = if exclude {
                    self.ctl.legal_moves()
                } else {
                    Vec::new()
                };
            }
            Some(t) => match wire::cecp_parse(self.ctl.position_mut(), t, &self.xb) {
                Ok(m) => {
                    self.excluded.retain(|&x| x != m);
                    if exclude {
                        self.excluded.push(m);
                    }
                }
                Err(why) => self.out.line(&format!("Error ({why}): {line}")),
            },
        }
    }

    // ------------------------------------------------------------------ searching

    fn think_limits(&self) -> menagerie::search::Limits {
        let moves_made = self.ctl.position().game_ply() / 2;
        let mut limits = self.clock.limits(moves_made);
        limits.multi_pv = self.multi_pv;
        limits
    }

    /// Start whatever the mode asks for, when nothing runs (the main loop of the
    /// protocol's pseudo-code).
    fn start_activity(&mut self) {
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
            self.ctl.set_threads(n);
        }
        if let Some(mb) = self.pending_hash.take() {
            self.ctl.set_hash_mb(mb.max(1));
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
                let mut limits = menagerie::search::Limits {
                    infinite: true,
                    multi_pv: self.multi_pv,
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
                if self.book_enabled
                    && let Some(&(m, _)) = self.ctl.book_moves().first()
                {
                    self.play_move(m, None);
                    return;
                }
                let limits = self.think_limits();
                self.deadline = self.clock.deadline(&limits).map(|d| Instant::now() + d);
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
                self.start_search(pos, limits, Activity::Ponder(expected));
            }
        }
    }

    fn start_search(
        &mut self,
        pos: Position,
        limits: menagerie::search::Limits,
        activity: Activity,
    ) {
        self.search_root = Some(pos.clone());
        self.search_started = Instant::now();
        self.last_info = None;
        self.activity = activity;
        self.ctl.start_search(pos, limits);
    }

    fn on_search_event(&mut self, id: u64, event: Event) {
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
    fn thinking_line(&self, info: &Info) -> String {
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

    /// Play the engine's move: print it (leg by leg), make it, claim a result.
    fn play_move(&mut self, best: Move, reply: Option<Move>) {
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
        if self.draw_offered {
            let losing = self.last_info.as_ref().is_some_and(|i| {
                matches!(i.score, Score::Cp(x) if x < -300)
                    || matches!(i.score, Score::Mate(n) if n < 0)
            });
            if losing {
                self.out.line("offer draw");
            }
        }
        let pos = self.ctl.position().clone();
        let text = wire::cecp_text(&pos, m, &self.xb);
        let legs: Vec<&str> = text.split(',').collect();
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
