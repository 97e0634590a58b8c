//! The set of loaded variants: built-in files first, then user files; a later
//! definition of a name replaces the earlier one.
//!
//! A variant loads only if its start position can be set up. Reading a position is
//! the board layer's business, above this one, so the set is built with that test
//! ([`StartCheck`]; the engine passes `board::fen::check_start_position`).
//!
//! Each variant gets its evaluation weights here: the built-in file of its name
//! (`variants/weights/NAME.txt`), or for a variant of a user's file
//! `weights/NAME.txt` beside that file, or else its parent's when it plays with the
//! parent's pieces on the parent's board.

use super::ini::read_sections;
use super::spec::{Applier, Spec};
use super::weights::Weights;
use super::{BUILTIN_FILES, BUILTIN_WEIGHTS, LoadError, Variant};
use indexmap::IndexMap;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
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
            let report = set.load_text(&format!("builtin:{name}"), text, WeightsSource::Builtin);
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

    /// Load a file from disk (with the weights files in `weights/` beside it). An
    /// unreadable file is one error.
    pub fn load_file(&mut self, path: &Path) -> LoadReport {
        let file = path.display().to_string();
        let dir = path.parent().unwrap_or(Path::new("")).join("weights");
        match std::fs::read_to_string(path) {
            Ok(text) => self.load_text(&file, &text, WeightsSource::Dir(dir)),
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

    /// Load variant definitions from text; `file` names it in messages. Its
    /// variants get no weights file of their own (they may inherit their parent's).
    pub fn load_str(&mut self, file: &str, text: &str) -> LoadReport {
        self.load_text(file, text, WeightsSource::None)
    }

    /// Every section is independent: one bad section never stops the others.
    fn load_text(&mut self, file: &str, text: &str, weights: WeightsSource) -> LoadReport {
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
            let mut variant = variant;
            let (w, errs) = self.weights_for(&variant, &weights);
            // A bad weights line is reported; the variant still loads.
            errors.extend(errs);
            variant.weights = w;
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

    /// The weights of a variant being loaded, and the errors of its weights file.
    fn weights_for(
        &self,
        v: &Variant,
        source: &WeightsSource,
    ) -> (Option<Arc<Weights>>, Vec<LoadError>) {
        let own = match source {
            WeightsSource::Builtin => BUILTIN_WEIGHTS
                .iter()
                .find(|(n, _)| *n == v.name)
                .map(|(n, text)| (format!("builtin:weights/{n}.txt"), text.to_string())),
            WeightsSource::Dir(dir) => {
                let path = dir.join(format!("{}.txt", v.name));
                let file = path.display().to_string();
                match std::fs::read_to_string(&path) {
                    Ok(text) => Some((file, text)),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                    Err(e) => {
                        let reason = format!("cannot read the weights file: {e}");
                        return (None, vec![LoadError::new(&file, 0, &v.name, "", "", &reason)]);
                    }
                }
            }
            WeightsSource::None => None,
        };
        if let Some((file, text)) = own {
            let (w, errors) = Weights::parse(&file, &text, v);
            return (Some(Arc::new(w)), errors);
        }
        let parent = v.parent.as_ref().and_then(|p| self.variants.get(p));
        match parent {
            Some(p) if same_game_material(p, v) => (p.weights.clone(), Vec::new()),
            _ => (None, Vec::new()),
        }
    }
}

/// Where the weights files of the variants being loaded are.
enum WeightsSource {
    /// Compiled in (`BUILTIN_WEIGHTS`).
    Builtin,
    /// `NAME.txt` in this folder.
    Dir(PathBuf),
    /// None of their own.
    None,
}

/// Do two variants play with the same pieces on the same board, with the same
/// hands? Then weights fitted to one suit the other.
fn same_game_material(a: &Variant, b: &Variant) -> bool {
    a.geometry == b.geometry
        && a.pieces.len() == b.pieces.len()
        && a.pieces
            .iter()
            .zip(&b.pieces)
            .all(|(x, y)| x.letter == y.letter && x.betza == y.betza && x.royal == y.royal)
        && a.piece_drops == b.piece_drops
        && a.captures_to_hand == b.captures_to_hand
}
