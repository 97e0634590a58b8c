//! The nets compiled into the engine (`variants/nets/`), made by `menagerie
//! train` or `menagerie learn` and kept because games said so (each file's
//! provenance names the commands, seeds and data; docs/nnue.md lists them with
//! their measured gain).
//!
//! A built-in net serves a variant when two things hold: the variant's input
//! layout has the net's fingerprint (the board, pieces and hands the net reads),
//! and the variant plays the game the net learnt, its rules digest
//! ([`Variant::rules_digest`]) being that of the built-in variant named in the
//! net's header. The layout alone would give a chess net to misère chess or to
//! king of the hill, whose positions are worth something else entirely. Nothing
//! here compares a variant's name with another: the header's name only says
//! which rules the net learnt.

use super::{Layout, Net, NetError, Nnue, read_net};
use crate::board::{Ruleset, check_variant};
use crate::variant::{Variant, VariantSet};
use std::sync::{Arc, OnceLock};

/// The built-in nets: the file's name (for messages) and its bytes.
const BUILTIN: &[(&str, &[u8])] = &[
    (
        "variants/nets/crazyhouse.nnue",
        include_bytes!("../../variants/nets/crazyhouse.nnue"),
    ),
    (
        "variants/nets/minishogi.nnue",
        include_bytes!("../../variants/nets/minishogi.nnue"),
    ),
    (
        "variants/nets/shogi.nnue",
        include_bytes!("../../variants/nets/shogi.nnue"),
    ),
    (
        "variants/nets/xiangqi.nnue",
        include_bytes!("../../variants/nets/xiangqi.nnue"),
    ),
];

/// The built-in net for `variant`, whose layout is `layout`, if one was made for
/// its game.
pub fn builtin_net(layout: &Layout, variant: &Variant) -> Option<Net> {
    let mut digest = None;
    BUILTIN
        .iter()
        .enumerate()
        .find_map(|(i, (name, bytes))| match read_net(bytes, layout, name) {
            Ok(net) => {
                let own = *digest.get_or_insert_with(|| variant.rules_digest());
                (learnt_digest(i, &net) == Some(own)).then_some(net)
            }
            Err(NetError::WrongFingerprint { .. }) => None,
            // A built-in net that does not read is a build defect that
            // tests/nnue.rs catches; in play the variant keeps its evaluation.
            Err(_) => None,
        })
}

/// The rules digest of the built-in variant that built-in net `i` (read as
/// `net`) was made for; computed once per net.
fn learnt_digest(i: usize, net: &Net) -> Option<u64> {
    static DIGESTS: OnceLock<Vec<OnceLock<Option<u64>>>> = OnceLock::new();
    let cells = DIGESTS.get_or_init(|| BUILTIN.iter().map(|_| OnceLock::new()).collect());
    *cells[i].get_or_init(|| {
        let set = VariantSet::builtin(check_variant);
        set.get(&net.variant).map(|v| v.rules_digest())
    })
}

/// The built-in net for the variant of `rules`, ready to evaluate with.
pub fn builtin_nnue(rules: &Arc<Ruleset>) -> Option<Nnue> {
    let layout = Layout::new(rules);
    let net = builtin_net(&layout, &rules.variant)?;
    Some(Nnue::new(layout, net))
}

/// The built-in nets' file names and bytes (tests check that each reads for a
/// built-in variant).
pub fn builtin_nets() -> &'static [(&'static str, &'static [u8])] {
    BUILTIN
}
