//! The one loader of variant files, and `menagerie variants`.

use super::{Failed, Outcome, fail};
use crate::board::{Ruleset, check_variant};
use crate::eval::weights::load_variant_file;
use crate::variant::{UnknownVariant, VariantSet};
use std::path::PathBuf;
use std::sync::Arc;

/// The built-in variants plus `files`, and what loading them had to say: one line per
/// problem, `error: FILE:LINE: ...`, then per note, `note: ...` ([`read`]), printed on
/// stderr; protocol mode also tells them to the GUI. A section that fails is left out
/// and the rest stays usable: no command stops on a bad variant file unless it needs
/// the variant that failed.
pub fn load(files: &[PathBuf]) -> (VariantSet, Vec<String>) {
    let (set, report) = read(files);
    for line in &report {
        err!("{line}");
    }
    (set, report)
}

/// [`load`] without printing anything (for a caller that shows the report its own
/// way, such as an in-process session).
pub fn read(files: &[PathBuf]) -> (VariantSet, Vec<String>) {
    let mut set = VariantSet::builtin(check_variant);
    let mut report = Vec::new();
    for f in files {
        let r = load_variant_file(&mut set, f);
        report.extend(r.errors.iter().map(|e| format!("error: {e}")));
        report.extend(r.notes.iter().map(|n| format!("note: {n}")));
    }
    (set, report)
}

/// The rules of one variant of the built-in set plus `files`.
pub fn load_rules(files: &[PathBuf], variant: &str) -> Result<Arc<Ruleset>, Failed> {
    match load(files).0.find(variant) {
        Ok(v) => Ok(Ruleset::new(v)),
        Err(UnknownVariant::NotLoaded(_)) => Err(fail(format!("unknown variant '{variant}'"))),
        Err(e) => Err(fail(e.to_string())),
    }
}

/// `menagerie variants`: one line per loaded variant, with its size and source.
pub fn run(files: &[PathBuf]) -> Outcome {
    for v in load(files).0.iter() {
        out!(
            "{} {}x{} {}",
            v.name,
            v.geometry.files,
            v.geometry.ranks,
            v.source
        );
    }
    Ok(())
}
