//! The set of loaded variants: built-in files first, then user files; a later
//! definition of a name replaces the earlier one.
//!
//! A variant loads only if its start position can be set up. Reading a position is
//! the board layer's business, above this one, so the set is built with that test
//! ([`StartCheck`]; the engine passes `board::fen::check_start_position`).

use super::ini::read_sections;
use super::spec::{Applier, Spec};
use super::{BUILTIN_FILES, LoadError, Variant};
use indexmap::IndexMap;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// What loading one file did.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    /// Names of the variants that loaded, in file order.
    pub loaded: Vec<String>,
    /// One entry per section that failed (and per syntax error).
    pub errors: Vec<LoadError>,
}

/// The start-position test a variant must pass to load: the reason it fails, if it
/// does.
pub type StartCheck = fn(&Variant) -> Result<(), String>;

#[derive(Clone)]
pub struct VariantSet {
    variants: IndexMap<String, Arc<Variant>>,
    specs: HashMap<String, Spec>,
    check_start: StartCheck,
}

impl VariantSet {
    /// No variants at all; those loaded later must pass `check_start`.
    pub fn empty(check_start: StartCheck) -> VariantSet {
        VariantSet {
            variants: IndexMap::new(),
            specs: HashMap::new(),
            check_start,
        }
    }

    /// The variants compiled into the binary (`variants/*.ini`).
    pub fn builtin(check_start: StartCheck) -> VariantSet {
        let mut set = VariantSet::empty(check_start);
        for (name, text) in BUILTIN_FILES {
            let report = set.load_str(&format!("builtin:{name}"), text);
            debug_assert!(report.errors.is_empty(), "{:?}", report.errors);
        }
        set
    }

    pub fn get(&self, name: &str) -> Option<Arc<Variant>> {
        self.variants.get(name).cloned()
    }
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.variants.keys().map(|s| s.as_str())
    }
    pub fn iter(&self) -> impl Iterator<Item = &Arc<Variant>> {
        self.variants.values()
    }
    pub fn len(&self) -> usize {
        self.variants.len()
    }
    pub fn is_empty(&self) -> bool {
        self.variants.is_empty()
    }

    /// Load a file from disk. An unreadable file is one error.
    pub fn load_file(&mut self, path: &Path) -> LoadReport {
        let file = path.display().to_string();
        match std::fs::read_to_string(path) {
            Ok(text) => self.load_str(&file, &text),
            Err(e) => LoadReport {
                loaded: Vec::new(),
                errors: vec![LoadError::new(
                    &file,
                    0,
                    "",
                    "",
                    "",
                    &format!("cannot read the file: {e}"),
                )],
            },
        }
    }

    /// Load variant definitions from text; `file` names it in messages.
    /// Every section is independent: one bad section never stops the others.
    pub fn load_str(&mut self, file: &str, text: &str) -> LoadReport {
        let (sections, mut errors) = read_sections(file, text);
        let mut loaded = Vec::new();
        for section in &sections {
            let mut spec = match &section.parent {
                None => Spec::template(),
                Some(p) => match self.specs.get(p) {
                    Some(s) => s.clone(),
                    None => {
                        errors.push(LoadError::new(
                            file,
                            section.line,
                            &section.name,
                            "parent",
                            p,
                            "no variant of that name is loaded (it is unknown or failed to load)",
                        ));
                        continue;
                    }
                },
            };
            let errs = Applier::new(file, section).apply(&mut spec);
            if !errs.is_empty() {
                errors.extend(errs);
                continue;
            }
            let variant =
                match spec.freeze(&section.name, file, section.line, section.parent.clone()) {
                    Ok(v) => v,
                    Err(errs) => {
                        errors.extend(errs);
                        continue;
                    }
                };
            if let Err(reason) = (self.check_start)(&variant) {
                let (f, l) = variant.start_fen_origin.clone();
                errors.push(LoadError::new(
                    &f,
                    l,
                    &section.name,
                    "startFen",
                    &variant.start_fen,
                    &reason,
                ));
                continue;
            }
            self.specs.insert(section.name.clone(), spec);
            // Replacing keeps the original position in the list.
            self.variants
                .insert(section.name.clone(), Arc::new(variant));
            loaded.push(section.name.clone());
        }
        LoadReport { loaded, errors }
    }
}
