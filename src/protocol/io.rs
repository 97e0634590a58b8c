//! The two ends of a protocol session: a thread that reads stdin into a channel, and
//! an output that writes whole lines and flushes each one.
//!
//! Everything the session reacts to arrives on one channel: input lines, the end of
//! input, and the events of the search thread. The session therefore runs on a single
//! thread and its output is always in a well-defined order.

use crate::search::Event;
use crate::types::Move;
use std::io::{BufRead, Write};
use std::sync::mpsc::Sender;

/// Something the session has to react to.
pub enum Input {
    /// One line of input, without the line end.
    Line(String),
    /// Standard input was closed.
    Eof,
    /// An event of the search with this id.
    Search(u64, Event),
    /// A result of the perft with this id (perft runs like a search).
    Perft(u64, PerftEvent),
}

/// What a perft running in the background reports.
pub enum PerftEvent {
    /// The count under one root move.
    Move(Move, u64),
    /// The end: every root move was counted, or the count was stopped.
    Done { stopped: bool },
}

/// Read stdin line by line on a thread of its own. Bytes that are not UTF-8 are
/// replaced rather than refused: a bad line is an error message, never a crash.
pub fn spawn_stdin_reader(tx: Sender<Input>) {
    let reader = std::thread::Builder::new()
        .name("stdin-reader".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match lock.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Input::Eof);
                        return;
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf);
                        let line = text.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(Input::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
    if reader.is_err() {
        // (eprintln! would panic on a closed stderr; the exit status still tells.)
        let _ = writeln!(std::io::stderr(), "error: cannot start the input thread");
        std::process::exit(1);
    }
}

/// Line output. On stdout a failed write means the GUI is gone: the engine then exits
/// quietly. In-process ([`Output::lines`]) each line is sent to the reader; one who
/// has stopped reading is not waited for.
pub struct Output {
    sink: Sink,
}

enum Sink {
    Stdout(std::io::Stdout),
    Lines(Sender<String>),
}

impl Output {
    pub fn stdout() -> Output {
        Output {
            sink: Sink::Stdout(std::io::stdout()),
        }
    }

    /// Lines sent to a channel instead of written (an in-process session).
    pub fn lines(to: Sender<String>) -> Output {
        Output {
            sink: Sink::Lines(to),
        }
    }

    /// Write one line and flush it.
    pub fn line(&mut self, text: &str) {
        match &mut self.sink {
            Sink::Stdout(out) => {
                let ok = out.write_all(text.as_bytes()).is_ok()
                    && out.write_all(b"\n").is_ok()
                    && out.flush().is_ok();
                if !ok {
                    std::process::exit(0);
                }
            }
            Sink::Lines(to) => {
                let _ = to.send(text.to_string());
            }
        }
    }
}
