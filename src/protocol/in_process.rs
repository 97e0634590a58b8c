//! A protocol session run from within a program instead of over stdin/stdout: lines
//! go in through [`InProcess::send`] and replies come back from
//! [`InProcess::next_line`], exactly as a GUI would write and read them. The
//! transcript tests drive the engine this way, without a process per test.

use super::io::{Input, Output};
use super::{Protocol, serve};
use crate::variant::VariantSet;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A session on a thread of its own.
pub struct InProcess {
    input: Sender<Input>,
    replies: Receiver<String>,
    thread: JoinHandle<()>,
}

/// How a session ended, as [`InProcess::finish`] saw it.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    /// It returned after `quit` or the end of input.
    Quit,
    /// Its thread panicked, with this message.
    Panicked(String),
    /// It was still running when the wait was over.
    StillRunning,
}

impl InProcess {
    /// Start a session with these variants, as protocol mode does (`startup_report`
    /// and `forced` as in [`super::run`]). Fails only when no thread can be started.
    pub fn start(
        variants: VariantSet,
        startup_report: Vec<String>,
        forced: Option<Protocol>,
    ) -> std::io::Result<InProcess> {
        let (input, rx) = mpsc::channel();
        let (out, replies) = mpsc::channel();
        let events = input.clone();
        let thread = std::thread::Builder::new()
            .name("protocol-session".into())
            .spawn(move || {
                serve(
                    variants,
                    startup_report,
                    forced,
                    (events, rx),
                    Output::lines(out),
                )
            })?;
        Ok(InProcess {
            input,
            replies,
            thread,
        })
    }

    /// Send one input line (without its line end). A session that has ended ignores
    /// it.
    pub fn send(&self, line: &str) {
        let _ = self.input.send(Input::Line(line.to_string()));
    }

    /// The next reply line, or None when none came within `timeout` (or the session
    /// has ended and said everything).
    pub fn next_line(&self, timeout: Duration) -> Option<String> {
        self.replies.recv_timeout(timeout).ok()
    }

    /// End the input (as a GUI closing the pipe would) and wait up to `timeout` for
    /// the session to end.
    pub fn finish(self, timeout: Duration) -> Ended {
        let _ = self.input.send(Input::Eof);
        let end = Instant::now() + timeout;
        while !self.thread.is_finished() {
            if Instant::now() >= end {
                return Ended::StillRunning;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        match self.thread.join() {
            Ok(()) => Ended::Quit,
            Err(payload) => Ended::Panicked(
                payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default(),
            ),
        }
    }
}
