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
mod game;
mod thinking;

use super::common::{Backlog, ENGINE_NAME, emergency_budget};
use super::controller::{Controller, Wake};
use super::highlight::{MoveEntry, Reply};
use super::io::{Input, Output};
use super::options::{self, EngineOption, Kind, Settings};
use super::wire;
use super::xboard::{self, XbVariant};
use crate::board::Position;
use crate::search::Info;
use crate::types::{Color, Move};
use clock::Clock;
use command::{Command, ParseError};
use std::sync::mpsc::Receiver;
use std::time::Instant;

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
    pieces: Vec<(crate::types::Square, Color, char)>,
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
    backlog: Backlog,
    /// The position the running search started from (for PV text).
    search_root: Option<Position>,
    search_started: Instant,
    /// Stop a thinking search at this instant whatever it is doing.
    deadline: Option<Instant>,
    last_info: Option<Info>,
    /// The root move the search is on and its number (for `.`), once reported.
    curr_move: Option<(Move, usize)>,
    clock: Clock,
    post: bool,
    ponder: bool,
    debug: bool,
    paused: bool,
    draw_offered: bool,
    /// The engine's own searches in a row that found the game lost (`Resign`).
    lost_searches: u32,
    settings: Settings,
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
    /// The last `memory` size refused (the user is told once per size).
    refused_memory: Option<usize>,
    /// The position in which a search died or an analysis ended by itself (no new
    /// analysis or ponder search is started there).
    failed_key: Option<u64>,
    /// `quit` came or the input ended: [`Session::run`] returns.
    ended: bool,
}

impl Session {
    pub fn new(ctl: Controller, out: Output) -> Session {
        let xb = XbVariant::new(ctl.variant());
        Session {
            ctl,
            out,
            ended: false,
            xb,
            mode: Mode::Plays(Color::Black),
            activity: Activity::Idle,
            aborting: None,
            backlog: Backlog::default(),
            search_root: None,
            search_started: Instant::now(),
            deadline: None,
            last_info: None,
            curr_move: None,
            clock: Clock::default(),
            post: false,
            ponder: false,
            debug: false,
            paused: false,
            draw_offered: false,
            lost_searches: 0,
            settings: Settings::default(),
            expected_reply: None,
            excluded: Vec::new(),
            claimed: false,
            entry: MoveEntry::default(),
            edit: None,
            pending_threads: None,
            pending_hash: None,
            refused_memory: None,
            failed_key: None,
        }
    }

    /// Run until `quit` or the end of input. `first` is the line that chose CECP.
    pub fn run(mut self, rx: Receiver<Input>, first: Option<String>) {
        if let Some(line) = first {
            self.on_line(line);
        }
        while !self.ended {
            // Backlogged lines run in order once no stopped search is pending; a ping
            // waits for the move while the engine thinks (later lines that can be
            // answered during the search are not held up by it).
            let ping_waits = self.activity == Activity::Think
                && self.backlog.front().is_some_and(|l| l.starts_with("ping"));
            let next = self.backlog.next(self.aborting.is_none() && !ping_waits);
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
                // CECP has no perft command.
                Input::Perft(..) => {}
                Input::Eof => self.quit(),
            }
            if !self.ended {
                self.start_activity();
            }
        }
    }

    /// End the session (`quit`, or the end of input).
    fn quit(&mut self) {
        self.ctl.end_session();
        self.ended = true;
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

    /// A comment for the GUI's log (XBoard ignores lines starting with `#`).
    fn note(&mut self, text: &str) {
        self.out.line(&format!("# {text}"));
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
            return;
        }
        if self.aborting.is_some() {
            // Order is kept: everything waits for the stopped search.
            self.backlog.defer(line);
            return;
        }
        if self.activity != Activity::Idle {
            match self.during_search(&cmd, &line) {
                None => return,
                Some(abort) => {
                    self.abort(abort);
                    self.backlog.defer(line);
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
            Random | Info | Accepted(_) | Rejected(_) | Name(_) | Rating(_) | Computer => {
                self.execute(cmd.clone(), line)
            }
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
                    self.deadline = emergency_budget(&limits).map(|d| Instant::now() + d);
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
            self.backlog.defer(format!("ping {n}"));
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
            Name(name) => {
                self.settings.opponent.name = name;
                self.opponent_changed();
            }
            Rating(elo) => {
                self.settings.opponent.elo = elo;
                self.opponent_changed();
            }
            Computer => {
                self.settings.opponent.computer = Some(true);
                self.opponent_changed();
            }
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
                    crate::types::Color::Black
                } else {
                    crate::types::Color::White
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
            Memory(mb) => self.set_memory(mb),
            Cores(n) => self.set_cores(n),
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
        self.out.line("feature done=0");
        self.out.line(&format!(
            "feature myname=\"{ENGINE_NAME}\" ping=1 setboard=1 usermove=1 time=1 draw=1 sigint=0 sigterm=0 \
             reuse=1 analyze=1 colors=0 playother=1 pause=1 nps=1 debug=1 memory=1 smp=1 exclude=1 \
             highlight=1 name=0 san=0"
        ));
        let variants = self.variants_feature();
        self.out.line(&variants);
        for option in &options::OPTIONS {
            if let Some(line) = option_feature(option) {
                self.out.line(&line);
            }
        }
        self.out.line("feature done=1");
        // Only now can XBoard show what the variant files had to say.
        let report = self.ctl.take_startup_report();
        self.tell_report("Menagerie: the variant files say", &report);
    }

    /// Show what loading variant files said: errors in XBoard's error dialog (with
    /// the notes, if any). Notes alone only go to XBoard's log as comments: a user
    /// who plays with Fairy-Stockfish's variants.ini (which redefines many built-in
    /// variants) would otherwise get a dialog at every start.
    pub(super) fn tell_report(&mut self, title: &str, lines: &[String]) {
        if lines.iter().any(|l| l.starts_with("error")) {
            self.tell_user("tellusererror", title, lines);
        } else {
            for line in lines {
                self.note(line);
            }
        }
    }

    /// Show `lines` under `title` in an XBoard dialog (`command` is `telluser` or
    /// `tellusererror`): the text starts with `\\` so that XBoard turns `\n` into line
    /// breaks; a very long text is split over several dialogs (XBoard reads engine
    /// lines of up to 8 KB).
    fn tell_user(&mut self, command: &str, title: &str, lines: &[String]) {
        const MAX_TEXT: usize = 4000;
        let escape = |s: &str| s.replace('\\', "\\\\");
        let head = escape(title);
        let mut text = head.clone();
        for line in lines {
            let item = escape(&wrap(line, DIALOG_COLUMNS)).replace('\n', "\\n");
            if text.len() > head.len() && text.len() + item.len() + 2 > MAX_TEXT {
                self.out.line(&format!("{command} \\\\{text}"));
                text = format!("{head} (continued)");
            }
            text.push_str("\\n");
            text.push_str(&item);
        }
        self.out.line(&format!("{command} \\\\{text}"));
    }

    /// `feature variants="..."`: every loaded variant under the name XBoard knows it
    /// by, once, leaving out names the feature's syntax cannot carry. XBoard's New
    /// Variant dialog has buttons for the first 22 names it does not know itself, so
    /// the user's own variants come first, then the built-in ones most played.
    fn variants_feature(&self) -> String {
        let variants = self.ctl.variants();
        let users = variants
            .iter()
            .filter(|v| !v.is_builtin())
            .map(|v| v.name.as_str());
        let most_played = xboard::MOST_PLAYED
            .iter()
            .copied()
            .filter(|n| variants.get(n).is_some());
        let mut names: Vec<&str> = Vec::new();
        for n in users.chain(most_played).chain(variants.names()) {
            let x = xboard::xboard_name(n);
            if !names.contains(&x) && !x.contains([',', ' ', '"']) {
                names.push(x);
            }
        }
        format!("feature variants=\"{}\"", names.join(","))
    }
}

/// Width of the lines of a dialog text: XBoard's dialogs do not wrap long lines.
const DIALOG_COLUMNS: usize = 100;

/// `text` broken into lines of at most `width` characters at spaces (a longer word
/// stays whole), continuation lines indented.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut column = 0;
    for word in text.split(' ') {
        let len = word.chars().count();
        if column > 0 && column + 1 + len > width {
            out.push_str("\n    ");
            column = 4;
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += len;
    }
    out
}

/// An option's CECP `feature option="..."` line; None for an option that CECP sets
/// another way or not at all.
fn option_feature(option: &EngineOption) -> Option<String> {
    let name = option.cecp?;
    let kind = match option.kind {
        Kind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
        Kind::Check { default } => format!("-check {}", default as u8),
        Kind::Button => "-button".to_string(),
        Kind::File => "-file ".to_string(),
        Kind::Text => "-string ".to_string(),
        // CECP chooses variants with its `variant` command, and has no place for a
        // description.
        Kind::Variant | Kind::About => return None,
    };
    Some(format!("feature option=\"{name} {kind}\""))
}

#[cfg(test)]
mod tests {
    use super::{option_feature, options, wrap};

    #[test]
    fn option_features() {
        assert_eq!(
            option_feature(&options::MULTI_PV).as_deref(),
            Some("feature option=\"MultiPV -spin 1 1 64\"")
        );
        assert_eq!(
            option_feature(&options::BOOK).as_deref(),
            Some("feature option=\"Book -check 0\"")
        );
        assert_eq!(option_feature(&options::HASH), None, "CECP has `memory`");
    }

    #[test]
    fn dialog_lines_are_wrapped_at_spaces() {
        assert_eq!(wrap("a bb ccc dddd", 6), "a bb\n    ccc\n    dddd");
        assert_eq!(wrap("short", 100), "short");
        assert_eq!(
            wrap("averyveryverylongword x", 5),
            "averyveryverylongword\n    x"
        );
    }
}
