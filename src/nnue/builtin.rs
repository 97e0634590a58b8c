//! The nets compiled into the engine (`variants/nets/`), made by `menagerie
//! train` or `menagerie learn` and kept because games said so (each file's
//! provenance names the commands, seeds and data; docs/nnue.md lists them with
//! their measured gain). A net serves the variants whose layout has its
//! fingerprint: nothing here looks at a variant's name.

use super::{Layout, Net, NetError, Nnue, read_net};
use crate::board::Ruleset;
use std::sync::Arc;

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
];

/// The built-in net for `layout`, if one was made for it.
pub fn builtin_net(layout: &Layout) -> Option<Net> {
    BUILTIN
        .iter()
        .find_map(|(name, bytes)| match read_net(bytes, layout, name) {
            Ok(net) => Some(net),
            Err(NetError::WrongFingerprint { .. }) => None,
            // A built-in net that does not read is a build defect that
            // tests/nnue.rs catches; in play the variant keeps its evaluation.
            Err(_) => None,
        })
}

/// The built-in net for the variant of `rules`, ready to evaluate with.
pub fn builtin_nnue(rules: &Arc<Ruleset>) -> Option<Nnue> {
    let layout = Layout::new(rules);
    let net = builtin_net(&layout)?;
    Some(Nnue::new(layout, net))
}

/// The built-in nets' file names and bytes (tests check that each reads for a
/// built-in variant).
pub fn builtin_nets() -> &'static [(&'static str, &'static [u8])] {
    BUILTIN
}
