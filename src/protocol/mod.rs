//! The protocol layer: XBoard/WinBoard (CECP v2) and UCI, both thin skins over one
//! engine controller (`controller.rs`). What both share is written once: the options
//! (`options.rs`: one table of what each option is and does, which each protocol
//! renders in its own syntax) and the protocol core (`common.rs`: engine name, move
//! overhead, emergency stop, fallback budget, input backlog). The first input line
//! picks the protocol (`uci`, or anything else for CECP, whose first line is
//! `xboard`); a reader thread feeds stdin into the session's channel so that the
//! engine answers while it searches. [`InProcess`] runs the same session fed and
//! read from within a program (the transcript tests use it).

mod cecp;
mod common;
mod controller;
mod fallback;
mod game_end;
mod highlight;
mod in_process;
mod io;
mod opponent;
mod options;
mod uci;
mod wire;
pub mod xboard;

use crate::variant::VariantSet;
use controller::Controller;
use io::{Input, Output};
use std::sync::mpsc::{self, Receiver, Sender};

pub use in_process::{Ended, InProcess};

/// Which protocol to speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Cecp,
    Uci,
}

/// Run a protocol session on stdin/stdout until `quit` or the end of input, then end
/// the process (at once: a search still winding down is not waited for, as the
/// protocols ask of `quit`). `startup_report` is what loading the variant files had
/// to say (told to the user after the handshake); `forced` skips the detection from
/// the first line.
pub fn run(variants: VariantSet, startup_report: Vec<String>, forced: Option<Protocol>) -> ! {
    let (tx, rx) = mpsc::channel();
    io::spawn_stdin_reader(tx.clone());
    serve(variants, startup_report, forced, (tx, rx), Output::stdout());
    std::process::exit(0)
}

/// One session: `events` is the channel its input and the search's events arrive on,
/// `out` where its replies go. Returns after `quit` or the end of input.
fn serve(
    variants: VariantSet,
    startup_report: Vec<String>,
    forced: Option<Protocol>,
    events: (Sender<Input>, Receiver<Input>),
    out: Output,
) {
    let (tx, rx) = events;
    let mut ctl = Controller::new(variants, startup_report, tx);
    options::apply_defaults(&mut ctl);
    let (protocol, first) = match forced {
        Some(p) => (p, None),
        None => loop {
            match rx.recv() {
                Ok(Input::Line(l)) if l.trim().is_empty() => continue,
                Ok(Input::Line(l)) => break (detect(&l), Some(l)),
                Ok(Input::Search(..) | Input::Perft(..)) => continue,
                Ok(Input::Eof) | Err(_) => return,
            }
        },
    };
    match protocol {
        Protocol::Cecp => cecp::Session::new(ctl, out).run(rx, first),
        Protocol::Uci => uci::Session::new(ctl, out).run(rx, first),
    }
}

/// `uci` starts UCI; everything else (normally `xboard`) starts CECP.
fn detect(first_line: &str) -> Protocol {
    if first_line.split_whitespace().next() == Some("uci") {
        Protocol::Uci
    } else {
        Protocol::Cecp
    }
}
