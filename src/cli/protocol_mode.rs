//! No subcommand: a protocol session on stdin/stdout.

use super::Outcome;
use crate::protocol::{self, Protocol};
use std::path::PathBuf;

/// Speak CECP or UCI (`xboard`/`uci` force one, else the first input line picks).
/// Protocol mode never stops on a bad variant file: it plays the variants that
/// loaded, and reports the errors on stderr and, after the handshake, to the GUI.
/// The session ends the process (with success) when it ends.
pub fn run(files: &[PathBuf], xboard: bool, uci: bool) -> Outcome {
    let (set, report) = super::variants::load(files);
    let forced = if xboard {
        Some(Protocol::Cecp)
    } else if uci {
        Some(Protocol::Uci)
    } else {
        None
    };
    protocol::run(set, report, forced)
}
