//! `menagerie check FILE...`: a report on variant files for their authors.

use super::{Failed, Outcome};
use crate::board::{Ruleset, check_variant};
use crate::eval::net_key::variant_net;
use crate::eval::weights::load_variant_file;
use crate::variant::VariantSet;
use std::path::PathBuf;

/// One `ok` line per variant that loads (and a `net` line for the net its `nnue`
/// key names, where that net fits), one `error` line per problem (a net that does
/// not fit is one) and one `note` line per note, on stdout (this report is the
/// command's output, not a diagnostic); fails if any file has an error.
pub fn run(files: &[PathBuf]) -> Outcome {
    let mut set = VariantSet::builtin(check_variant);
    let mut ok = true;
    for f in files {
        let report = load_variant_file(&mut set, f);
        for name in &report.loaded {
            if let Some(v) = set.get(name) {
                out!(
                    "ok {} {}x{} {} pieces",
                    name,
                    v.geometry.files,
                    v.geometry.ranks,
                    v.pieces.len()
                );
                if let Some(Ok(nnue)) = variant_net(&Ruleset::new(v.clone())) {
                    let net = nnue.net();
                    out!(
                        "net {} {} (made for {}, {} inputs, {} hidden, {} buckets): {}",
                        name,
                        v.net
                            .as_ref()
                            .map_or(String::new(), |k| k.path.display().to_string()),
                        net.variant,
                        net.inputs,
                        net.hidden,
                        net.buckets,
                        net.provenance.lines().next().unwrap_or("no provenance")
                    );
                }
            }
        }
        for e in &report.errors {
            out!("error {e}");
            ok = false;
        }
        for n in &report.notes {
            out!("note {n}");
        }
    }
    if ok { Ok(()) } else { Err(Failed) }
}
