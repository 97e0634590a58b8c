//! A teacher: another UCI engine that scores training positions by its own
//! search, for `menagerie rescore`. One [`Teacher`] is one process of that engine,
//! spoken to in UCI: `uci`, the options, then per position `position fen` and
//! `go nodes N`, the score taken from the last `info ... score` line before
//! `bestmove`.
//!
//! Every read waits at most [`REPLY_TIMEOUT`]: a teacher that hangs or dies ends
//! the run with an error naming it, never a stall.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;
use thiserror::Error;

/// The longest wait for any reply of the teacher (its start, a search).
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(60);

/// How to start a teacher and what to ask of it.
#[derive(Clone, Debug)]
pub struct TeacherSpec {
    /// The engine's executable.
    pub command: PathBuf,
    /// `setoption` pairs sent after `uci`, in order.
    pub options: Vec<(String, String)>,
    /// The game to play: sent as `UCI_Variant` where the teacher has that option;
    /// a teacher without it plays chess, and only chess is accepted then.
    pub variant: String,
    /// Nodes a position (`go nodes N`).
    pub nodes: u64,
}

/// A teacher's score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeacherScore {
    /// Centipawns in the teacher's own unit.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

#[derive(Debug, Error)]
pub enum TeacherError {
    #[error("cannot start the teacher {command}: {reason}")]
    Start { command: String, reason: String },
    #[error("the teacher {command} {what}")]
    Talk { command: String, what: String },
    #[error("the teacher {command} does not play {variant}: {why}")]
    Variant {
        command: String,
        variant: String,
        why: String,
    },
}

/// One running teacher process.
pub struct Teacher {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    nodes: u64,
    /// The teacher's `id name`.
    pub name: String,
}

impl Teacher {
    /// Start the engine, check that it plays the variant, set its options and
    /// wait until it is ready.
    pub fn start(spec: &TeacherSpec) -> Result<Teacher, TeacherError> {
        let command = spec.command.display().to_string();
        let mut child = Command::new(&spec.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| TeacherError::Start {
                command: command.clone(),
                reason: e.to_string(),
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(TeacherError::Start {
                command,
                reason: "no pipes to it".into(),
            });
        };
        // A reader thread, so that every wait can have a timeout.
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut teacher = Teacher {
            command,
            child,
            stdin,
            lines,
            nodes: spec.nodes,
            name: String::new(),
        };
        teacher.send("uci")?;
        let mut variants: Option<Vec<String>> = None;
        loop {
            let line = teacher.line("to `uci`")?;
            if line == "uciok" {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                teacher.name = name.trim().to_string();
            }
            if let Some(vars) = variant_values(&line) {
                variants = Some(vars);
            }
        }
        teacher.choose_variant(&spec.variant, variants)?;
        for (name, value) in &spec.options {
            teacher.send(&format!("setoption name {name} value {value}"))?;
        }
        teacher.ready()?;
        Ok(teacher)
    }

    /// Set `UCI_Variant` where the teacher has it, or accept chess alone.
    fn choose_variant(
        &mut self,
        variant: &str,
        offered: Option<Vec<String>>,
    ) -> Result<(), TeacherError> {
        let refuse = |why: String| TeacherError::Variant {
            command: self.command.clone(),
            variant: variant.to_string(),
            why,
        };
        match offered {
            None if variant == "chess" => Ok(()),
            None => Err(refuse(
                "it has no UCI_Variant option, so it plays chess".into(),
            )),
            Some(list) if list.iter().any(|v| v == variant) => {
                self.send(&format!("setoption name UCI_Variant value {variant}"))
            }
            Some(list) => Err(refuse(format!(
                "its UCI_Variant values are {}",
                list.join(" ")
            ))),
        }
    }

    /// A fresh game: the teacher forgets what it searched (so that a block of
    /// positions gets the same scores whichever process scores it).
    pub fn new_game(&mut self) -> Result<(), TeacherError> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// The teacher's score of `fen` after searching its nodes.
    pub fn score(&mut self, fen: &str) -> Result<TeacherScore, TeacherError> {
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go nodes {}", self.nodes))?;
        let mut score = None;
        loop {
            let line = self.line("to `go`")?;
            if line.starts_with("bestmove") {
                break;
            }
            if let Some(s) = info_score(&line) {
                score = Some(s);
            }
        }
        score.ok_or_else(|| self.talk(format!("gave no score for {fen}")))
    }

    fn ready(&mut self) -> Result<(), TeacherError> {
        self.send("isready")?;
        while self.line("to `isready`")? != "readyok" {}
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), TeacherError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.talk(format!("stopped reading ({e})")))
    }

    /// The next line, trimmed; an error when the teacher ended or took too long.
    fn line(&mut self, waiting: &str) -> Result<String, TeacherError> {
        match self.lines.recv_timeout(REPLY_TIMEOUT) {
            Ok(line) => Ok(line.trim().to_string()),
            Err(RecvTimeoutError::Timeout) => Err(self.talk(format!(
                "did not answer {waiting} within {} s",
                REPLY_TIMEOUT.as_secs()
            ))),
            Err(RecvTimeoutError::Disconnected) => Err(self.talk(format!(
                "ended while the engine waited for a reply {waiting}"
            ))),
        }
    }

    fn talk(&self, what: String) -> TeacherError {
        TeacherError::Talk {
            command: self.command.clone(),
            what,
        }
    }
}

impl Drop for Teacher {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // A teacher that does not quit promptly is ended.
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The values of an `option name UCI_Variant type combo ... var A var B` line.
fn variant_values(line: &str) -> Option<Vec<String>> {
    let rest = line.strip_prefix("option name UCI_Variant ")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    Some(
        words
            .windows(2)
            .filter(|w| w[0] == "var")
            .map(|w| w[1].to_string())
            .collect(),
    )
}

/// The score of an `info` line (`score cp N` or `score mate N`), if it has one.
pub fn info_score(line: &str) -> Option<TeacherScore> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    while let Some(w) = words.next() {
        if w == "string" {
            return None;
        }
        if w == "score" {
            let kind = words.next()?;
            let n: i32 = words.next()?.parse().ok()?;
            return match kind {
                "cp" => Some(TeacherScore::Cp(n)),
                "mate" => Some(TeacherScore::Mate(n)),
                _ => None,
            };
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_their_score() {
        let cp = "info depth 9 seldepth 5 multipv 1 score cp -74 nodes 2001 pv g1f3";
        assert_eq!(info_score(cp), Some(TeacherScore::Cp(-74)));
        let mate = "info depth 3 score mate -2 nodes 10 pv a1a2";
        assert_eq!(info_score(mate), Some(TeacherScore::Mate(-2)));
        assert_eq!(info_score("info string score cp 5"), None);
        assert_eq!(info_score("info depth 1 nodes 5"), None);
        assert_eq!(info_score("bestmove e2e4"), None);
    }

    #[test]
    fn the_variant_option_lists_its_values() {
        let line = "option name UCI_Variant type combo default chess var chess var crazyhouse";
        assert_eq!(
            variant_values(line),
            Some(vec!["chess".to_string(), "crazyhouse".to_string()])
        );
        assert_eq!(variant_values("option name Hash type spin"), None);
    }
}
