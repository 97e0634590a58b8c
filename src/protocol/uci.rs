//! UCI session. The engine searches only when told (`go`), answers `isready` at once
//! even while searching, and reports every search with exactly one `bestmove`.
//! Input it cannot use is ignored with an `info string` that says why.

use super::common::{
    Backlog, ENGINE_AUTHOR, ENGINE_NAME, MAX_REQUESTED_COUNT, MOVE_OVERHEAD, emergency_budget,
    engine_about,
};
use super::controller::{Controller, Wake};
use super::io::{Input, Output, PerftEvent};
use super::options::{self, Applied, EngineOption, Kind, Settings};
use super::{fallback, wire};
use crate::board::Position;
use crate::search::{Event, Info, Limits, LiveReports, Score};
use crate::types::{Color, Move};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

const MAX_PERFT_DEPTH: u32 = 64;

/// A UCI command, parsed.
#[derive(Debug, PartialEq)]
enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    NewGame,
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(Vec<String>),
    Stop,
    PonderHit,
    Quit,
}

/// Why a UCI line is not a usable command.
#[derive(Debug, PartialEq, thiserror::Error)]
enum CommandError {
    #[error("empty line")]
    Empty,
    #[error("setoption without 'name'")]
    SetOptionWithoutNameWord,
    #[error("setoption without a name")]
    SetOptionWithoutName,
    #[error("position needs 'startpos' or 'fen FEN'")]
    PositionWithoutStart,
    #[error("unknown command '{0}'")]
    Unknown(String),
}

fn parse(line: &str) -> Result<Command, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Err(CommandError::Empty);
    };
    let rest = &words[1..];
    Ok(match first {
        "uci" => Command::Uci,
        "debug" => Command::Debug(rest.first() != Some(&"off")),
        "isready" => Command::IsReady,
        "setoption" => {
            // setoption name N... [value V...]; names may contain spaces.
            if rest.first() != Some(&"name") {
                return Err(CommandError::SetOptionWithoutNameWord);
            }
            let after = &rest[1..];
            let (name, value) = match after.iter().position(|&w| w == "value") {
                Some(i) => (after[..i].join(" "), Some(after[i + 1..].join(" "))),
                None => (after.join(" "), None),
            };
            if name.is_empty() {
                return Err(CommandError::SetOptionWithoutName);
            }
            Command::SetOption { name, value }
        }
        "register" => Command::Register,
        "ucinewgame" => Command::NewGame,
        "position" => {
            let moves_at = rest.iter().position(|&w| w == "moves");
            let head = &rest[..moves_at.unwrap_or(rest.len())];
            let moves = moves_at.map_or(Vec::new(), |i| {
                rest[i + 1..].iter().map(|s| s.to_string()).collect()
            });
            let fen = match head.first() {
                Some(&"startpos") => None,
                Some(&"fen") if head.len() > 1 => Some(head[1..].join(" ")),
                _ => return Err(CommandError::PositionWithoutStart),
            };
            Command::Position { fen, moves }
        }
        "go" => Command::Go(rest.iter().map(|s| s.to_string()).collect()),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        other => return Err(CommandError::Unknown(other.to_string())),
    })
}

pub struct Session {
    ctl: Controller,
    out: Output,
    searching: bool,
    /// A stopped search has to report before backlogged lines run.
    stopping: bool,
    backlog: Backlog,
    /// The position the running search started from (for PV text).
    search_root: Option<Position>,
    /// The limits of the running search (for `ponderhit` and the fallback move).
    search_limits: Limits,
    /// Emergency stop for timed searches (armed at `ponderhit` when pondering).
    deadline: Option<Instant>,
    debug: bool,
    settings: Settings,
    /// The running "search" is a perft; the nodes of the root moves counted so far.
    perft: Option<u64>,
    /// `quit` came or the input ended: [`Session::run`] returns.
    ended: bool,
}

impl Session {
    pub fn new(ctl: Controller, out: Output) -> Session {
        Session {
            ctl,
            out,
            ended: false,
            searching: false,
            stopping: false,
            backlog: Backlog::default(),
            search_root: None,
            search_limits: Limits::default(),
            deadline: None,
            debug: false,
            settings: Settings::default(),
            perft: None,
        }
    }

    pub fn run(mut self, rx: Receiver<Input>, first: Option<String>) {
        if let Some(line) = first {
            self.on_line(line);
        }
        while !self.ended {
            // Backlogged lines run in order as soon as no stopped search is pending.
            let next = self.backlog.next(!self.stopping);
            let input = if let Some(l) = next {
                Input::Line(l)
            } else if !self.searching {
                rx.recv().unwrap_or(Input::Eof)
            } else {
                match self.ctl.next_input(&rx, true, self.deadline) {
                    Wake::Input(i) => i,
                    Wake::Deadline => {
                        self.deadline = None;
                        self.ctl.stop_search();
                        continue;
                    }
                    Wake::SearchDied => {
                        self.search_died();
                        continue;
                    }
                }
            };
            match input {
                Input::Line(l) => self.on_line(l),
                Input::Search(id, ev) => self.on_search_event(id, ev),
                Input::Perft(id, ev) => self.on_perft_event(id, ev),
                Input::Eof => self.quit(),
            }
        }
    }

    /// End the session (`quit`, or the end of input).
    fn quit(&mut self) {
        self.ctl.end_session();
        self.ended = true;
    }

    /// The search thread ended without a best move: answer with a fallback move so
    /// that the GUI gets its `bestmove`.
    fn search_died(&mut self) {
        self.searching = false;
        self.stopping = false;
        self.deadline = None;
        if self.perft.take().is_some() {
            self.search_root = None;
            self.info_string("the perft ended without a result");
            return;
        }
        let Some(root) = self.search_root.take() else {
            return;
        };
        self.info_string("the search ended without a move; playing a fallback move");
        match fallback::choose(&root, &self.search_limits) {
            Some(c) => {
                let info = c.info();
                self.search_root = Some(root.clone());
                let line = self.info_line(&info);
                self.search_root = None;
                self.out.line(&line);
                self.out
                    .line(&format!("bestmove {}", wire::uci_text(&root, c.best)));
            }
            None => self.out.line("bestmove (none)"),
        }
    }

    fn info_string(&mut self, text: &str) {
        self.out.line(&format!("info string {text}"));
    }

    fn on_line(&mut self, line: String) {
        let line = line.trim().to_string();
        if line.is_empty() {
            return;
        }
        let cmd = match parse(&line) {
            Ok(c) => c,
            Err(why) => {
                self.info_string(&format!("ignored ({why}): {line}"));
                return;
            }
        };
        if matches!(cmd, Command::Quit) {
            self.quit();
            return;
        }
        // While a stopped search winds down, everything keeps its order (a `stop`
        // meant for the next search must not hit this one).
        if self.stopping {
            self.backlog.defer(line);
            return;
        }
        match cmd {
            Command::Quit => {
                self.quit();
                return;
            }
            Command::IsReady => {
                self.out.line("readyok");
                return;
            }
            Command::Debug(on) => {
                self.debug = on;
                return;
            }
            Command::Stop if self.searching => {
                self.ctl.stop_search();
                return;
            }
            Command::PonderHit if self.searching && self.perft.is_none() => {
                self.ctl.ponderhit();
                self.deadline = emergency_budget(&self.search_limits).map(|b| Instant::now() + b);
                return;
            }
            Command::Stop | Command::PonderHit => return,
            _ => {}
        }
        if self.searching {
            // Not expected during a search: finish it first, then do this.
            self.stopping = true;
            self.ctl.stop_search();
            self.backlog.defer(line);
            return;
        }
        self.execute(cmd);
    }

    fn execute(&mut self, cmd: Command) {
        match cmd {
            Command::Uci => self.identify(),
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register | Command::Debug(_) | Command::Stop | Command::PonderHit => {}
            Command::NewGame => {
                self.ctl.clear_hash();
                self.ctl.reset();
            }
            Command::Position { fen, moves } => self.position(fen.as_deref(), &moves),
            Command::Go(args) => self.go(&args),
            Command::Quit => self.quit(),
        }
    }

    fn identify(&mut self) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line(&format!("id author {ENGINE_AUTHOR}"));
        for option in &options::OPTIONS {
            if let Some(line) = option_line(option, &self.ctl) {
                self.out.line(&line);
            }
        }
        self.out.line("uciok");
        for line in self.ctl.take_startup_report() {
            self.info_string(&line);
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some(option) = options::find(name, |o| o.uci) else {
            self.info_string(&format!("ignored: unknown option '{name}'"));
            return;
        };
        let applied = option
            .parse(name, value)
            .and_then(|v| options::apply(option, v, &mut self.ctl, &mut self.settings));
        match applied {
            Ok(Applied::Done) => {
                if self.debug && option.effect == options::Effect::Opponent {
                    let text = format!("opponent: {}", self.settings.opponent);
                    self.info_string(&text);
                }
            }
            Ok(Applied::Adjusted(note)) => self.info_string(&note),
            Ok(Applied::VariantFile(report)) => {
                for e in &report.errors {
                    self.info_string(&format!("variant file error: {e}"));
                }
                for n in &report.notes {
                    self.info_string(&format!("variant file note: {n}"));
                }
                if !report.loaded.is_empty() {
                    self.info_string(&format!("loaded variants: {}", report.loaded.join(" ")));
                }
            }
            Err(why) => self.info_string(&format!("ignored: {why}")),
        }
    }

    fn position(&mut self, fen: Option<&str>, moves: &[String]) {
        match fen {
            None => self.ctl.reset(),
            Some(f) => {
                if let Err(e) = self.ctl.set_fen(f) {
                    self.info_string(&format!("ignored position (bad FEN: {e}): {f}"));
                    return;
                }
            }
        }
        for text in moves {
            match wire::uci_parse(self.ctl.position_mut(), text) {
                Ok(m) => self.ctl.play(m),
                Err(why) => {
                    self.info_string(&format!("ignored the moves from {text} on ({why})"));
                    break;
                }
            }
        }
    }

    fn go(&mut self, args: &[String]) {
        if args.first().map(String::as_str) == Some("perft") {
            self.perft(args.get(1));
            return;
        }
        let us = self.ctl.position().side_to_move();
        let mut limits = Limits {
            multi_pv: self.settings.multi_pv,
            move_overhead: MOVE_OVERHEAD,
            live: LiveReports {
                curr_move: true,
                curr_line: self.settings.show_curr_line,
                refutations: self.settings.show_refutations,
            },
            ..Limits::default()
        };
        let mut i = 0;
        let ms = |s: Option<&String>| {
            s.and_then(|x| x.parse::<i64>().ok())
                .map(|x| Duration::from_millis(x.max(0) as u64))
        };
        let count = |s: Option<&String>| s.and_then(|x| x.parse::<u64>().ok());
        let at_most = |n: u64| n.clamp(1, MAX_REQUESTED_COUNT) as u32;
        while i < args.len() {
            let next = args.get(i + 1);
            let mut used = 2;
            match args[i].as_str() {
                "wtime" if us == Color::White => limits.time_left = ms(next),
                "btime" if us == Color::Black => limits.time_left = ms(next),
                "winc" if us == Color::White => limits.increment = ms(next).unwrap_or_default(),
                "binc" if us == Color::Black => limits.increment = ms(next).unwrap_or_default(),
                "wtime" | "btime" | "winc" | "binc" => {}
                "movestogo" => limits.moves_to_go = count(next).map(at_most),
                "depth" => limits.depth = count(next).map(at_most),
                "nodes" => limits.nodes = count(next),
                "movetime" => limits.movetime = ms(next),
                "mate" => limits.mate = count(next).map(at_most),
                "infinite" => {
                    limits.infinite = true;
                    used = 1;
                }
                "ponder" => {
                    limits.ponder = true;
                    used = 1;
                }
                "searchmoves" => {
                    used = 1;
                    while let Some(t) = args.get(i + used) {
                        match wire::uci_parse(self.ctl.position_mut(), t) {
                            Ok(m) => limits.search_moves.push(m),
                            Err(_) => break,
                        }
                        used += 1;
                    }
                }
                other => {
                    self.info_string(&format!("ignored go parameter '{other}'"));
                    used = 1;
                }
            }
            i += used;
        }
        // A game move may be played weaker; an analysis or a mate search is at full
        // strength.
        if !limits.infinite && limits.mate.is_none() {
            limits.skill = self.settings.skill();
        }
        if self.settings.book
            && !limits.infinite
            && !limits.ponder
            && let Some(&(m, _)) = self.ctl.book_moves().first()
        {
            let pos = self.ctl.position().clone();
            self.out
                .line(&format!("bestmove {}", wire::uci_text(&pos, m)));
            return;
        }
        self.deadline = if limits.ponder || limits.infinite {
            None
        } else {
            emergency_budget(&limits).map(|b| Instant::now() + b)
        };
        let pos = self.ctl.position().clone();
        self.search_root = Some(pos.clone());
        self.search_limits = limits.clone();
        self.searching = true;
        self.ctl.start_search(pos, limits);
    }

    /// `go perft N`, answered as Fairy-Stockfish does: one `MOVE: COUNT` line per
    /// legal root move, a blank line, then `Nodes searched: N`. It runs like a
    /// search: in the background, `isready` answered meanwhile, ended by `stop`
    /// (then an `info string` says so instead of the total).
    fn perft(&mut self, depth: Option<&String>) {
        // The depth is capped: perft allocates one move list per ply up front.
        let Some(depth) = depth
            .and_then(|d| d.parse::<u32>().ok())
            .filter(|d| (1..=MAX_PERFT_DEPTH).contains(d))
        else {
            self.info_string(&format!(
                "ignored: go perft needs a depth from 1 to {MAX_PERFT_DEPTH}"
            ));
            return;
        };
        match self.ctl.start_perft(depth) {
            Ok(_) => {
                self.search_root = Some(self.ctl.position().clone());
                self.searching = true;
                self.deadline = None;
                self.perft = Some(0);
            }
            Err(why) => self.info_string(&format!("ignored: {why}")),
        }
    }

    fn on_perft_event(&mut self, id: u64, event: PerftEvent) {
        if !self.searching || !self.ctl.is_current_search(id) {
            return;
        }
        let Some(total) = self.perft.as_mut() else {
            return;
        };
        match event {
            PerftEvent::Move(m, n) => {
                *total += n;
                if let Some(root) = &self.search_root {
                    let line = format!("{}: {n}", wire::uci_text(root, m));
                    self.out.line(&line);
                }
            }
            PerftEvent::Done { stopped } => {
                let total = *total;
                self.perft = None;
                self.searching = false;
                self.stopping = false;
                self.search_root = None;
                if stopped {
                    self.info_string(&format!(
                        "perft stopped: {total} nodes under the moves above"
                    ));
                } else {
                    self.out.line("");
                    self.out.line(&format!("Nodes searched: {total}"));
                }
            }
        }
    }

    fn on_search_event(&mut self, id: u64, event: Event) {
        if !self.searching || !self.ctl.is_current_search(id) {
            return;
        }
        match event {
            Event::Info(info) => {
                let line = self.info_line(&info);
                self.out.line(&line);
            }
            Event::CurrMove { mv, number } => {
                let text = self.line_text(&[mv]);
                self.out
                    .line(&format!("info currmove{text} currmovenumber {number}"));
            }
            Event::CurrLine(moves) => {
                let text = self.line_text(&moves);
                self.out.line(&format!("info currline{text}"));
            }
            Event::Refutation(moves) => {
                let text = self.line_text(&moves);
                self.out.line(&format!("info refutation{text}"));
            }
            Event::BestMove { best, ponder } => {
                self.searching = false;
                self.stopping = false;
                self.deadline = None;
                let Some(root) = self.search_root.take() else {
                    return;
                };
                if best.is_none() {
                    self.out.line("bestmove (none)");
                    return;
                }
                let mut line = format!("bestmove {}", wire::uci_text(&root, best));
                if let Some(p) = ponder {
                    let mut after = root.clone();
                    after.make(best);
                    if legal_in(&mut after, p) {
                        line.push_str(&format!(" ponder {}", wire::uci_text(&after, p)));
                    }
                }
                self.out.line(&line);
            }
        }
    }

    fn info_line(&self, info: &Info) -> String {
        let score = match info.score {
            Score::Cp(x) => format!("cp {x}"),
            Score::Mate(n) => format!("mate {n}"),
        };
        let pv = self.line_text(&info.pv);
        format!(
            "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv{}",
            info.depth,
            info.seldepth.max(info.depth),
            info.multipv.max(1),
            score,
            info.nodes,
            info.nps,
            info.hashfull,
            info.time.as_millis(),
            pv
        )
    }

    /// Moves from the search's root, each after a space (a null move is `0000`).
    fn line_text(&self, moves: &[Move]) -> String {
        let mut text = String::new();
        let Some(root) = &self.search_root else {
            return text;
        };
        let mut p = root.clone();
        for &m in moves {
            text.push(' ');
            if m.is_none() {
                text.push_str("0000");
                p.make_null();
            } else {
                text.push_str(&wire::uci_text(&p, m));
                p.make(m);
            }
        }
        text
    }
}

fn legal_in(pos: &mut Position, m: Move) -> bool {
    let rules = pos.rules().clone();
    let mut list = crate::types::MoveList::new();
    rules.generate_legal(pos, &mut list);
    list.contains(m)
}

/// An option's UCI `option name ...` line (None for a CECP-only option); the variant
/// combo lists the loaded variants with the current one as default.
fn option_line(option: &EngineOption, ctl: &Controller) -> Option<String> {
    let name = option.uci?;
    let kind = match option.kind {
        Kind::Spin { default, min, max } => {
            format!("type spin default {default} min {min} max {max}")
        }
        Kind::Check { default } => format!("type check default {default}"),
        Kind::Button => "type button".to_string(),
        Kind::File | Kind::Text => "type string default <empty>".to_string(),
        Kind::About => format!("type string default {}", engine_about()),
        Kind::Variant => {
            let vars: String = ctl
                .variants()
                .names()
                .map(|n| format!(" var {n}"))
                .collect();
            format!("type combo default {}{vars}", ctl.variant().name)
        }
    };
    Some(format!("option name {name} {kind}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands() {
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption name UCI_Variant value crazyhouse"),
            Ok(Command::SetOption {
                name: "UCI_Variant".into(),
                value: Some("crazyhouse".into())
            })
        );
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(parse("position"), Err(CommandError::PositionWithoutStart));
        assert_eq!(
            parse("fly away").map_err(|e| e.to_string()),
            Err("unknown command 'fly'".into())
        );
    }
}
