//! Protocol transcripts: input lines and the exact replies, from data files in
//! `tests/data/protocol/` (format: `tests/protocol_support/mod.rs`). Each runs on a
//! session of the library in-process; two also run through the binary, so that its
//! stdin/stdout wiring and its exit are checked too.

mod protocol_support;

use protocol_support::{Run, run_transcript};

macro_rules! transcripts {
    ($($name:ident => $file:expr),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run_transcript($file, Run::InProcess);
            }
        )*
    };
}

#[test]
fn cecp_handshake_through_the_binary() {
    run_transcript("cecp_handshake.txt", Run::Process);
}

#[test]
fn uci_session_through_the_binary() {
    run_transcript("uci_session.txt", Run::Process);
}

transcripts! {
    cecp_handshake => "cecp_handshake.txt",
    cecp_game => "cecp_game.txt",
    cecp_highlight => "cecp_highlight.txt",
    cecp_variants => "cecp_variants.txt",
    cecp_search => "cecp_search.txt",
    cecp_strength => "cecp_strength.txt",
    cecp_chess960 => "cecp_chess960.txt",
    cecp_finished => "cecp_finished.txt",
    uci_session => "uci_session.txt",
    uci_options => "uci_options.txt",
    uci_chess960 => "uci_chess960.txt",
    uci_finished => "uci_finished.txt",
}
