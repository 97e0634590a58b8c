//! Protocol transcripts: input lines and the exact replies, from data files in
//! `tests/data/protocol/` (format: `tests/protocol_support/mod.rs`).

mod protocol_support;

macro_rules! transcripts {
    ($($name:ident => $file:expr),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                protocol_support::run_transcript($file);
            }
        )*
    };
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
