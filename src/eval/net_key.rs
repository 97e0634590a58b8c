//! A variant's own net: the file its `nnue` key names (relative to the variants
//! file), read for its rules. A key whose net cannot be used is an error that
//! names the variants file and the key's line; the variant itself still loads
//! and plays with the hand-crafted evaluation.

use crate::board::Ruleset;
use crate::nnue::{NetError, Nnue};
use crate::variant::{LoadError, LoadReport, Variant, VariantSet};
use std::sync::Arc;

/// The net of `rules`' variant (`None`: it names none), or why it cannot be used.
pub fn variant_net(rules: &Arc<Ruleset>) -> Option<Result<Nnue, LoadError>> {
    let key = rules.variant.net.as_ref()?;
    Some(Nnue::load(&key.path, rules).map_err(|e| key_error(&rules.variant, &e)))
}

/// The error of a variant's `nnue` key whose net did not read: at the key's line,
/// with the net's problem. A net of another layout is "made for another variant or
/// another piece set": the fingerprint covers the board, the pieces and the hands.
fn key_error(v: &Variant, e: &NetError) -> LoadError {
    let reason = match e {
        NetError::WrongFingerprint {
            origin,
            found,
            expected,
        } => format!(
            "{origin}: made for another variant or another piece set (layout fingerprint \
             {found:016x}, this variant's is {expected:016x})"
        ),
        other => other.to_string(),
    };
    let (file, line, value) = v.net.as_ref().map_or((v.source.as_str(), v.line, ""), |k| {
        (k.file.as_str(), k.line, k.value.as_str())
    });
    LoadError::new(file, line, &v.name, "nnue", value, &reason)
}

/// Adds to `report`, what loading a variant file into `set` did, the errors of the
/// `nnue` keys of the variants it loaded (each net is read once here, to check it).
pub fn add_net_errors(set: &VariantSet, report: &mut LoadReport) {
    for name in &report.loaded {
        let Some(variant) = set.get(name) else {
            continue;
        };
        if variant.net.is_none() {
            continue;
        }
        if let Some(Err(e)) = variant_net(&Ruleset::new(variant)) {
            report.errors.push(e);
        }
    }
}
