//! The set of loaded variants: built-in files first, then user files; a later
//! definition of a name replaces the earlier one.
//!
//! A variant loads only if the engine can play it: its pieces' moves stay within the
//! move generator's walk budget and its start position can be set up. Both are the
//! board layer's business, above this one, so the set is built with that test
//! ([`LoadCheck`]; the engine passes `board::check_variant`).
//!
//! Each variant gets its evaluation weights here: the built-in file of its name
//! (`variants/weights/NAME.txt`), or for a variant of a user's file
//! `weights/NAME.txt` beside that file, or else its parent's when it plays with the
//! parent's pieces on the parent's board.

use super::ini::{Section, read_sections};
use super::names::{UnknownVariant, canonical_name};
use super::spec::{Applier, Spec};
use super::weights::WeightsFile;
use super::{BUILTIN_FILES, BUILTIN_WEIGHTS, LoadError, Variant};
use crate::types::PieceType;
use indexmap::IndexMap;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What loading one file did.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    /// Names of the variants that loaded, in file order.
    pub loaded: Vec<String>,
    /// One entry per section that failed (and per syntax error).
    pub errors: Vec<LoadError>,
    /// Things the user should know that are not errors: a section that replaces a
    /// variant loaded before (a built-in one, say) under the same name.
    pub notes: Vec<LoadError>,
}

/// How the built-in files are named in `Variant::source` and in messages
/// (`builtin:chess.ini`).
pub const BUILTIN_SOURCE: &str = "builtin:";

/// A variant file larger than this is refused unread (Fairy-Stockfish's whole
/// variants.ini is about 100 KB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Why a variant or weights file gives no text (the reason of the error the loader
/// reports for that file).
#[derive(Debug, thiserror::Error)]
enum FileReadError {
    #[error("cannot read the file: {0}")]
    Unreadable(#[from] std::io::Error),
    #[error("cannot read the file: it is a directory")]
    Directory,
    #[error("cannot read the file: it is not a regular file (a pipe or a device?)")]
    NotRegular,
    /// Its size in bytes, over [`MAX_FILE_BYTES`].
    #[error("the file has {0} bytes; a variant file may have at most {MAX_FILE_BYTES}")]
    TooLarge(u64),
    /// The 1-based number of the first byte that is not UTF-8.
    #[error("the file is not UTF-8 text (byte {0} is not)")]
    NotUtf8(usize),
}

/// The text of a variant file. Only a regular file is opened: opening a FIFO blocks
/// until someone writes to it, and a device may never end.
fn read_variant_file(path: &Path) -> Result<String, FileReadError> {
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Err(FileReadError::Directory);
    }
    if !meta.is_file() {
        return Err(FileReadError::NotRegular);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(FileReadError::TooLarge(meta.len()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path).and_then(|f| f.take(MAX_FILE_BYTES).read_to_end(&mut bytes))?;
    String::from_utf8(bytes).map_err(|e| FileReadError::NotUtf8(e.utf8_error().valid_up_to() + 1))
}

/// Why the layers above refuse a variant that reads: the message says what is wrong,
/// the kind says which line of the section it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The moves of this piece (with those of the others) are more than the move
    /// generator will walk.
    PieceMoves { piece: PieceType, reason: String },
    /// The start position cannot be set up.
    StartPosition(String),
}

/// The test a variant must pass to load: why it is refused, if it is. (It takes
/// the variant as it will be shared, so that a test which sets up the variant's
/// rules need not copy it.)
pub type LoadCheck = fn(&Arc<Variant>) -> Result<(), Refusal>;

#[derive(Clone)]
pub struct VariantSet {
    variants: IndexMap<String, Arc<Variant>>,
    specs: HashMap<String, Spec>,
    check: LoadCheck,
}

impl VariantSet {
    /// No variants at all; those loaded later must pass `check`.
    pub fn empty(check: LoadCheck) -> VariantSet {
        VariantSet {
            variants: IndexMap::new(),
            specs: HashMap::new(),
            check,
        }
    }

    /// The variants compiled into the binary (`variants/*.ini`).
    pub fn builtin(check: LoadCheck) -> VariantSet {
        let mut set = VariantSet::empty(check);
        for (name, text) in BUILTIN_FILES {
            let report = set.load_text(
                &format!("{BUILTIN_SOURCE}{name}"),
                text,
                WeightsSource::Builtin,
            );
            debug_assert!(report.errors.is_empty(), "{:?}", report.errors);
        }
        set
    }

    /// The variant loaded under exactly this name.
    pub fn get(&self, name: &str) -> Option<Arc<Variant>> {
        self.variants.get(name).cloned()
    }

    /// The variant a user means by `name`: a loaded variant of that name, else the
    /// one its alias stands for ([`names`](super::names)). Everything that selects a
    /// variant by name (command line, UCI, CECP) goes through here.
    pub fn find(&self, name: &str) -> Result<Arc<Variant>, UnknownVariant> {
        self.get(name)
            .or_else(|| self.get(canonical_name(name)))
            .ok_or_else(|| UnknownVariant::of(name))
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

    /// Load a file from disk (with the weights files in `weights/` beside it). A
    /// file that cannot be read is one error, at line 0 (the whole file).
    pub fn load_file(&mut self, path: &Path) -> LoadReport {
        let file = path.display().to_string();
        let dir = path.parent().unwrap_or(Path::new("")).join("weights");
        match read_variant_file(path) {
            Ok(text) => self.load_text(&file, &text, WeightsSource::Dir(dir)),
            Err(reason) => LoadReport {
                errors: vec![LoadError::new(&file, 0, "", "", "", &reason.to_string())],
                ..LoadReport::default()
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
        let mut notes = Vec::new();
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
            let variant = Arc::new(variant);
            if let Err(refusal) = (self.check)(&variant) {
                errors.push(match refusal {
                    Refusal::PieceMoves { piece, reason } => {
                        piece_moves_error(file, section, &variant, piece, &reason)
                    }
                    Refusal::StartPosition(reason) => {
                        start_position_error(file, section, &variant, &reason)
                    }
                });
                continue;
            }
            if let Some(old) = self.variants.get(&section.name) {
                notes.push(LoadError::new(
                    file,
                    section.line,
                    &section.name,
                    "",
                    "",
                    &format!(
                        "replaces the variant of that name defined at {}:{}",
                        old.source, old.line
                    ),
                ));
            }
            self.specs.insert(section.name.clone(), spec);
            // Replacing keeps the original position in the list.
            self.variants.insert(section.name.clone(), variant);
            loaded.push(section.name.clone());
        }
        LoadReport {
            loaded,
            errors,
            notes,
        }
    }

    /// The weights of a variant being loaded, and the errors of its weights file.
    fn weights_for(
        &self,
        v: &Variant,
        source: &WeightsSource,
    ) -> (Option<Arc<WeightsFile>>, Vec<LoadError>) {
        let own = match source {
            WeightsSource::Builtin => BUILTIN_WEIGHTS
                .iter()
                .find(|(n, _)| *n == v.name)
                .map(|(n, text)| (format!("{BUILTIN_SOURCE}weights/{n}.txt"), text.to_string())),
            WeightsSource::Dir(dir) => {
                let path = dir.join(format!("{}.txt", v.name));
                let file = path.display().to_string();
                if !path.exists() {
                    None
                } else {
                    match read_variant_file(&path) {
                        Ok(text) => Some((file, text)),
                        Err(reason) => {
                            let reason = format!("weights file: {reason}");
                            return (
                                None,
                                vec![LoadError::new(&file, 0, &v.name, "", "", &reason)],
                            );
                        }
                    }
                }
            }
            WeightsSource::None => None,
        };
        if let Some((file, text)) = own {
            let (w, errors) = WeightsFile::parse(&file, &text, v);
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

/// The line of the section that set `key`, or the section's header when the key
/// comes from a parent.
fn key_line(section: &Section, key: &str) -> (usize, bool) {
    match section.entries.iter().rev().find(|e| e.key == key) {
        Some(e) => (e.line, true),
        None => (section.line, false),
    }
}

/// A piece whose moves the engine refuses, at the line that defined it (or the
/// section's header, for a piece of the parent on a larger board).
fn piece_moves_error(
    file: &str,
    section: &Section,
    v: &Variant,
    piece: PieceType,
    reason: &str,
) -> LoadError {
    let piece = &v.pieces[piece as usize];
    let (line, here) = key_line(section, &piece.slot);
    let value = if here {
        section
            .entries
            .iter()
            .rev()
            .find(|e| e.key == piece.slot)
            .map_or(String::new(), |e| e.value.clone())
    } else {
        format!("{}:{} (from the parent)", piece.letter, piece.betza)
    };
    LoadError::new(file, line, &section.name, &piece.slot, &value, reason)
}

/// A start position that does not fit the variant: at the `startFen` line when the
/// section sets it, else at the section's header, naming where the inherited FEN
/// comes from (a child that changes the board size must give its own FEN).
fn start_position_error(file: &str, section: &Section, v: &Variant, reason: &str) -> LoadError {
    let (line, here) = key_line(section, "startFen");
    if here {
        return LoadError::new(file, line, &section.name, "startFen", &v.start_fen, reason);
    }
    let (from_file, from_line) = &v.start_fen_origin;
    LoadError::new(
        file,
        line,
        &section.name,
        "startFen",
        &v.start_fen,
        &format!(
            "{reason} (the start position is inherited from {from_file}:{from_line}; \
             this section must set its own startFen)"
        ),
    )
}
