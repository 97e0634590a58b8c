//! The variant builder: a mutable copy of a parent (or of the template) that a
//! section's keys are applied to, in the order Fairy-Stockfish applies them, and
//! that is then frozen into a [`Variant`].
//!
//! While building, pieces are identified by their slot (`knight`, `customPiece3`):
//! sets of pieces and promotion partners refer to slots, as in Fairy-Stockfish, so
//! that re-lettering a piece in a child keeps the parent's rules about it.

use super::ini::{Entry, Section};
use super::pieces::{
    BUILTIN_PIECES, builtin, capitalized, custom_slot_number, unsupported_builtin,
};
use super::{GameValue, LoadError, PieceDef, Variant};
use crate::types::{Geometry, MAX_PIECE_TYPES, PieceType, SquareSet, TypeSet};
use crate::xbetza::{self, Dialect};
use std::collections::BTreeMap;

/// Regions are kept on a universal 16 x 16 grid while building (index rank*16+file),
/// because a child may change the board size after the parent set the region.
type Region = SquareSet;

const U: u8 = 16;

fn region_rank(rank: u8) -> Region {
    (0..U).map(|f| rank * U + f).collect()
}
fn region_file(file: u8) -> Region {
    (0..U).map(|r| r * U + file).collect()
}
fn region_all() -> Region {
    (0..=255u8).collect()
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct SlotSet {
    /// `*`: every piece (counted together where that matters, as in Fairy-Stockfish).
    all: bool,
    slots: Vec<String>,
}

impl SlotSet {
    fn of(slots: &[&str]) -> SlotSet {
        SlotSet {
            all: false,
            slots: slots.iter().map(|s| s.to_string()).collect(),
        }
    }
    fn insert(&mut self, s: &str) {
        if !self.slots.iter().any(|x| x == s) {
            self.slots.push(s.to_string());
        }
    }
    fn remove(&mut self, s: &str) {
        self.slots.retain(|x| x != s);
    }
}

#[derive(Clone, Debug)]
struct Slot {
    name: String,
    letter: char,
    /// Betza given in the file (custom pieces, king, or an override of a built-in).
    betza: Option<String>,
}

/// Everything a section can set. Defaults are the template's (Fairy-Stockfish's).
#[derive(Clone, Debug)]
pub(super) struct Spec {
    max_rank: u8,
    max_file: u8,
    /// How piece XBetza is read (Menagerie key `betzaDialect`).
    dialect: Dialect,
    slots: Vec<Slot>,
    start_fen: String,
    /// File and line where `startFen` was set (for error messages).
    start_fen_origin: Option<(String, usize)>,
    chess960: bool,
    variant_template: String,
    piece_to_char_table: Option<String>,
    pocket_size: Option<u32>,
    piece_value: [BTreeMap<String, i32>; 2],

    promotion_region: [Region; 2],
    promotion_pawn_types: [SlotSet; 2],
    main_promotion_pawn_type: [Option<String>; 2],
    promotion_piece_types: [SlotSet; 2],
    promoted_piece_type: BTreeMap<String, String>,
    promotion_limit: BTreeMap<String, u32>,
    mandatory_pawn_promotion: bool,
    mandatory_piece_promotion: bool,
    piece_promotion_on_capture: bool,
    immobility_illegal: bool,

    double_step: bool,
    double_step_region: [Region; 2],
    triple_step_region: [Region; 2],
    en_passant_region: [Region; 2],
    en_passant_types: [SlotSet; 2],
    n_move_rule_types: [SlotSet; 2],
    soldier_promotion_rank: u8,

    castling: bool,
    castling_dropped_piece: bool,
    castling_kingside_file: u8,
    castling_queenside_file: u8,
    castling_rank: u8,
    castling_king_file: u8,
    castling_king_piece: [Option<String>; 2],
    castling_rook_kingside_file: u8,
    castling_rook_queenside_file: u8,
    castling_rook_pieces: [SlotSet; 2],
    opposite_castling: bool,

    piece_drops: bool,
    captures_to_hand: bool,
    drop_loop: bool,
    first_rank_pawn_drops: bool,
    promotion_zone_pawn_drops: bool,
    drop_region: [Region; 2],
    drop_promoted: bool,
    drop_no_doubled: Option<String>,
    drop_no_doubled_count: u32,
    drop_checks: bool,
    shogi_pawn_drop_mate_illegal: bool,
    must_drop: bool,
    must_drop_type: Option<String>,
    drop_opposite_colored_bishop: bool,
    gating: bool,
    seirawan_gating: bool,

    mobility_region: [BTreeMap<String, Region>; 2],
    flying_general: bool,

    checking: bool,
    must_capture: bool,
    checkmate_value: GameValue,
    stalemate_value: GameValue,
    stalemate_piece_count: bool,
    n_move_rule: u32,
    n_fold_rule: u32,
    n_fold_value: GameValue,
    n_fold_value_absolute: bool,
    perpetual_check_illegal: bool,
    extinction_value: GameValue,
    extinction_claim: bool,
    extinction_pseudo_royal: bool,
    extinction_piece_types: SlotSet,
    extinction_piece_count: u32,
    extinction_opponent_piece_count: u32,
    flag_piece: [Option<String>; 2],
    flag_region: [Region; 2],
    flag_piece_count: u32,
    flag_piece_blocked_win: bool,
    flag_move: bool,
    check_counting: bool,
    blast_on_capture: bool,
    blast_immune_types: SlotSet,
    mutually_immune_types: SlotSet,
    pass: [bool; 2],
    pass_on_stalemate: [bool; 2],
}

impl Spec {
    /// The template a section without a parent starts from: 8x8, no pieces,
    /// orthodox-chess rule defaults.
    pub(super) fn template() -> Spec {
        Spec {
            max_rank: 8,
            max_file: 8,
            dialect: Dialect::FairyStockfish,
            slots: Vec::new(),
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            start_fen_origin: None,
            chess960: false,
            variant_template: "fairy".into(),
            piece_to_char_table: None,
            pocket_size: None,
            piece_value: [BTreeMap::new(), BTreeMap::new()],
            promotion_region: [region_rank(7), region_rank(0)],
            promotion_pawn_types: [SlotSet::of(&["pawn"]), SlotSet::of(&["pawn"])],
            main_promotion_pawn_type: [Some("pawn".into()), Some("pawn".into())],
            promotion_piece_types: [SlotSet::default(), SlotSet::default()],
            promoted_piece_type: BTreeMap::new(),
            promotion_limit: BTreeMap::new(),
            mandatory_pawn_promotion: true,
            mandatory_piece_promotion: false,
            piece_promotion_on_capture: false,
            immobility_illegal: false,
            double_step: true,
            double_step_region: [region_rank(1), region_rank(6)],
            triple_step_region: [Region::EMPTY, Region::EMPTY],
            en_passant_region: [region_all(), region_all()],
            en_passant_types: [SlotSet::of(&["pawn"]), SlotSet::of(&["pawn"])],
            n_move_rule_types: [SlotSet::of(&["pawn"]), SlotSet::of(&["pawn"])],
            soldier_promotion_rank: 1,
            castling: true,
            castling_dropped_piece: false,
            castling_kingside_file: 6,
            castling_queenside_file: 2,
            castling_rank: 0,
            castling_king_file: 4,
            castling_king_piece: [Some("king".into()), Some("king".into())],
            castling_rook_kingside_file: U - 1,
            castling_rook_queenside_file: 0,
            castling_rook_pieces: [SlotSet::of(&["rook"]), SlotSet::of(&["rook"])],
            opposite_castling: false,
            piece_drops: false,
            captures_to_hand: false,
            drop_loop: false,
            first_rank_pawn_drops: false,
            promotion_zone_pawn_drops: false,
            drop_region: [region_all(), region_all()],
            drop_promoted: false,
            drop_no_doubled: None,
            drop_no_doubled_count: 1,
            drop_checks: true,
            shogi_pawn_drop_mate_illegal: false,
            must_drop: false,
            must_drop_type: None,
            drop_opposite_colored_bishop: false,
            gating: false,
            seirawan_gating: false,
            mobility_region: [BTreeMap::new(), BTreeMap::new()],
            flying_general: false,
            checking: true,
            must_capture: false,
            checkmate_value: GameValue::Loss,
            stalemate_value: GameValue::Draw,
            stalemate_piece_count: false,
            n_move_rule: 50,
            n_fold_rule: 3,
            n_fold_value: GameValue::Draw,
            n_fold_value_absolute: false,
            perpetual_check_illegal: false,
            extinction_value: GameValue::None,
            extinction_claim: false,
            extinction_pseudo_royal: false,
            extinction_piece_types: SlotSet::default(),
            extinction_piece_count: 0,
            extinction_opponent_piece_count: 0,
            flag_piece: [None, None],
            flag_region: [Region::EMPTY, Region::EMPTY],
            flag_piece_count: 1,
            flag_piece_blocked_win: false,
            flag_move: false,
            check_counting: false,
            blast_on_capture: false,
            blast_immune_types: SlotSet::default(),
            mutually_immune_types: SlotSet::default(),
            pass: [false, false],
            pass_on_stalemate: [false, false],
        }
    }

    fn slot_of_letter(&self, c: char) -> Option<&Slot> {
        let up = c.to_ascii_uppercase();
        self.slots.iter().find(|s| s.letter == up)
    }

    fn remove_slot(&mut self, name: &str) {
        self.slots.retain(|s| s.name != name);
        for c in 0..2 {
            self.promotion_piece_types[c].remove(name);
        }
    }

    fn add_slot(&mut self, name: &str, letter: char, betza: Option<String>) {
        let up = letter.to_ascii_uppercase();
        if let Some(other) = self
            .slots
            .iter()
            .find(|s| s.letter == up)
            .map(|s| s.name.clone())
        {
            self.remove_slot(&other);
        }
        if let Some(slot) = self.slots.iter_mut().find(|s| s.name == name) {
            slot.letter = up;
            slot.betza = betza;
        } else {
            self.slots.push(Slot {
                name: name.to_string(),
                letter: up,
                betza,
            });
        }
    }
}

/// Keys of Fairy-Stockfish's dialect that Menagerie does not implement. A section
/// using one of them with a value other than its neutral default is not loaded.
const UNSUPPORTED_KEYS: &[(&str, &str)] = &[
    ("twoBoards", "false"),
    ("sittuyinPromotion", "false"),
    ("pieceDemotion", "false"),
    ("petrifyOnCaptureTypes", "-"),
    ("petrifyBlastPieces", "false"),
    ("enclosingDrop", "none"),
    ("enclosingDropStart", "-"),
    ("sittuyinRookDrop", "false"),
    ("wallingRule", "none"),
    ("wallingRegionWhite", "*"),
    ("wallingRegionBlack", "*"),
    ("wallingRegion", "*"),
    ("wallOrMove", "false"),
    ("cambodianMoves", "false"),
    ("diagonalLines", "-"),
    ("makpongRule", "false"),
    ("flipEnclosedPieces", "none"),
    ("moveRepetitionIllegal", "false"),
    ("chasingRule", "none"),
    ("shatarMateRule", "false"),
    ("bikjangRule", "false"),
    ("dupleCheck", "false"),
    ("flagPieceSafe", "false"),
    ("connectN", "0"),
    ("connectPieceTypes", "*"),
    ("connectHorizontal", "true"),
    ("connectVertical", "true"),
    ("connectDiagonal", "true"),
    ("connectRegion1White", "-"),
    ("connectRegion2White", "-"),
    ("connectRegion1Black", "-"),
    ("connectRegion2Black", "-"),
    ("connectNxN", "0"),
    ("collinearN", "0"),
    ("connectValue", "win"),
    ("materialCounting", "none"),
    ("adjudicateFullBoard", "false"),
    ("countingRule", "none"),
    ("castlingWins", "-"),
    ("dropOnTop", "false"),
    ("freeDrops", "false"),
];

/// Applies one section's entries to a spec, collecting every error.
pub(super) struct Applier<'a> {
    file: &'a str,
    variant: &'a str,
    entries: BTreeMap<String, Entry>,
    errors: Vec<LoadError>,
}

impl<'a> Applier<'a> {
    pub(super) fn new(file: &'a str, section: &'a Section) -> Applier<'a> {
        let mut entries = BTreeMap::new();
        for e in &section.entries {
            // A later line for the same key wins.
            entries.insert(e.key.clone(), e.clone());
        }
        Applier {
            file,
            variant: &section.name,
            entries,
            errors: Vec::new(),
        }
    }

    fn error(&mut self, e: &Entry, reason: impl Into<String>) {
        self.errors.push(LoadError::new(
            self.file,
            e.line,
            self.variant,
            &e.key,
            &e.value,
            &reason.into(),
        ));
    }

    /// Take a key out of the section (so that leftovers can be reported as unknown).
    fn take(&mut self, key: &str) -> Option<Entry> {
        self.entries.remove(key)
    }

    fn bool(&mut self, key: &str, target: &mut bool) {
        if let Some(e) = self.take(key) {
            match e.value.as_str() {
                "true" => *target = true,
                "false" => *target = false,
                _ => self.error(&e, "expected true or false"),
            }
        }
    }

    fn int(&mut self, key: &str, target: &mut u32) {
        if let Some(e) = self.take(key) {
            match e.value.parse::<u32>() {
                Ok(v) => *target = v,
                Err(_) => self.error(&e, "expected a whole number"),
            }
        }
    }

    fn value(&mut self, key: &str, target: &mut GameValue) {
        if let Some(e) = self.take(key) {
            *target = match e.value.as_str() {
                "win" => GameValue::Win,
                "loss" => GameValue::Loss,
                "draw" => GameValue::Draw,
                "none" => GameValue::None,
                _ => {
                    self.error(&e, "expected win, loss, draw or none");
                    return;
                }
            }
        }
    }

    /// Rank: 1-based number, stored 0-based.
    fn rank(&mut self, key: &str, target: &mut u8) {
        if let Some(e) = self.take(key) {
            match e.value.parse::<u8>() {
                Ok(v) if (1..=U).contains(&v) => *target = v - 1,
                _ => self.error(&e, "expected a rank number from 1 to 16"),
            }
        }
    }

    /// File: letter or 1-based number, stored 0-based.
    fn file_value(&mut self, key: &str, target: &mut u8) {
        if let Some(e) = self.take(key) {
            let v = e.value.as_str();
            let parsed = if let Ok(n) = v.parse::<u8>() {
                (1..=U).contains(&n).then(|| n - 1)
            } else {
                let b = v.as_bytes();
                (b.len() == 1 && (b'a'..b'a' + U).contains(&b[0])).then(|| b[0] - b'a')
            };
            match parsed {
                Some(f) => *target = f,
                None => self.error(&e, "expected a file letter (a-p) or number (1-16)"),
            }
        }
    }

    fn region(&mut self, key: &str, target: &mut Region) -> bool {
        let Some(e) = self.take(key) else {
            return false;
        };
        match parse_region(&e.value) {
            Ok(r) => {
                *target = r;
                true
            }
            Err(reason) => {
                self.error(&e, reason);
                false
            }
        }
    }

    /// `BASE` (both sides), then `BASEWhite` and `BASEBlack`.
    fn sided_piece_sets(&mut self, spec: &Spec, base: &str, target: &mut [SlotSet; 2]) {
        for (key, sides) in sided_keys(base) {
            if self.entries.contains_key(&key) {
                let mut s = SlotSet::default();
                self.piece_set(spec, &key, &mut s);
                for &c in sides {
                    target[c] = s.clone();
                }
            }
        }
    }

    fn sided_piece_types(&mut self, spec: &Spec, base: &str, target: &mut [Option<String>; 2]) {
        for (key, sides) in sided_keys(base) {
            if self.entries.contains_key(&key) {
                let mut t = None;
                self.piece_type(spec, &key, &mut t);
                for &c in sides {
                    target[c] = t.clone();
                }
            }
        }
    }

    /// A region key per side: `[white key, black key]`.
    fn sided_regions(&mut self, keys: [&str; 2], target: &mut [Region; 2]) {
        for (c, key) in keys.iter().enumerate() {
            let mut r = target[c];
            if self.region(key, &mut r) {
                target[c] = r;
            }
        }
    }

    fn piece_set(&mut self, spec: &Spec, key: &str, target: &mut SlotSet) {
        let Some(e) = self.take(key) else {
            return;
        };
        match parse_piece_set(spec, &e.value) {
            Ok(s) => *target = s,
            Err(reason) => self.error(&e, reason),
        }
    }

    fn piece_type(&mut self, spec: &Spec, key: &str, target: &mut Option<String>) {
        let Some(e) = self.take(key) else {
            return;
        };
        let v = e.value.trim();
        if v == "*" {
            *target = None;
            return;
        }
        if v == "-" {
            *target = None;
            return;
        }
        let mut chars = v.chars();
        let first = chars.next();
        match first.and_then(|c| spec.slot_of_letter(c)) {
            Some(slot) => *target = Some(slot.name.clone()),
            None => self.error(&e, "no piece of the variant has this letter"),
        }
    }

    /// `letter:value` pairs.
    fn map(&mut self, spec: &Spec, key: &str) -> Option<(Entry, Vec<(String, String)>)> {
        let e = self.take(key)?;
        let mut out = Vec::new();
        for item in e.value.split_whitespace() {
            let Some((l, v)) = item.split_once(':') else {
                self.error(&e, format!("'{item}' is not a letter:value pair"));
                return None;
            };
            let mut lc = l.chars();
            let (Some(c), None) = (lc.next(), lc.next()) else {
                self.error(&e, format!("'{l}' is not a piece letter"));
                return None;
            };
            let Some(slot) = spec.slot_of_letter(c) else {
                self.error(&e, format!("no piece of the variant has the letter '{c}'"));
                return None;
            };
            out.push((slot.name.clone(), v.to_string()));
        }
        Some((e, out))
    }

    /// Apply every key of the section to `spec`; returns the errors (empty = success).
    pub(super) fn apply(mut self, spec: &mut Spec) -> Vec<LoadError> {
        // Board size first: regions and pieces do not depend on it, FEN checks do.
        let mut max_rank = spec.max_rank as u32;
        let mut max_file_e = spec.max_file - 1;
        if let Some(e) = self.take("maxRank") {
            match e.value.parse::<u32>() {
                Ok(v) if (1..=16).contains(&v) => max_rank = v,
                _ => self.error(&e, "the board has 1 to 16 ranks"),
            }
        }
        self.file_value("maxFile", &mut max_file_e);
        spec.max_rank = max_rank as u8;
        spec.max_file = max_file_e + 1;
        if let Some(e) = self.take("betzaDialect") {
            match e.value.as_str() {
                "xboard" => spec.dialect = Dialect::XBoard,
                "fairy-stockfish" => spec.dialect = Dialect::FairyStockfish,
                _ => self.error(&e, "expected xboard or fairy-stockfish"),
            }
        }

        self.apply_pieces(spec);

        // Piece values.
        for (i, key) in ["pieceValueMg", "pieceValueEg"].iter().enumerate() {
            if let Some((e, pairs)) = self.map(spec, key) {
                for (slot, v) in pairs {
                    match v.parse::<i32>() {
                        Ok(n) => {
                            spec.piece_value[i].insert(slot, n);
                        }
                        Err(_) => self.error(&e, format!("'{v}' is not a number")),
                    }
                }
            }
        }

        // Deprecated spellings Fairy-Stockfish still reads.
        if let Some(e) = self.take("promotionRank") {
            match e.value.parse::<u8>() {
                Ok(r) if (1..=U).contains(&r) => {
                    let r = r - 1;
                    let rows = spec.max_rank;
                    spec.promotion_region[0] =
                        (r..rows).fold(Region::EMPTY, |a, x| a | region_rank(x));
                    let br = rows.saturating_sub(1).saturating_sub(r);
                    spec.promotion_region[1] =
                        (0..=br).fold(Region::EMPTY, |a, x| a | region_rank(x));
                }
                _ => self.error(&e, "expected a rank number"),
            }
        }
        if self.entries.contains_key("doubleStepRank")
            || self.entries.contains_key("doubleStepRankMin")
        {
            let mut hi = 1u8;
            let mut lo = 1u8;
            self.rank("doubleStepRank", &mut hi);
            self.rank("doubleStepRankMin", &mut lo);
            let rows = spec.max_rank;
            spec.double_step_region[0] = (lo..=hi).fold(Region::EMPTY, |a, x| a | region_rank(x));
            spec.double_step_region[1] = (lo..=hi)
                .filter(|&x| x < rows)
                .fold(Region::EMPTY, |a, x| a | region_rank(rows - 1 - x));
        }
        let mut r = spec.flag_region[0];
        if self.region("whiteFlag", &mut r) {
            spec.flag_region[0] = r;
        }
        let mut r = spec.flag_region[1];
        if self.region("blackFlag", &mut r) {
            spec.flag_region[1] = r;
        }
        let mut rp = spec.castling_rook_pieces[0].clone();
        if self.entries.contains_key("castlingRookPiece") {
            self.piece_set(spec, "castlingRookPiece", &mut rp);
            spec.castling_rook_pieces = [rp.clone(), rp];
        }
        self.sided_regions(
            ["whiteDropRegion", "blackDropRegion"],
            &mut spec.drop_region,
        );

        // pawnTypes sets every pawn-related set at once.
        if let Some(e) = self.entries.get("pawnTypes").cloned() {
            match parse_piece_set(spec, &e.value) {
                Ok(s) => {
                    let main = first_slot(spec, &e.value);
                    for c in 0..2 {
                        spec.main_promotion_pawn_type[c] = main.clone();
                        spec.promotion_pawn_types[c] = s.clone();
                        spec.en_passant_types[c] = s.clone();
                        spec.n_move_rule_types[c] = s.clone();
                    }
                }
                Err(reason) => self.error(&e, reason),
            }
            self.take("pawnTypes");
        }

        if let Some(e) = self.take("variantTemplate") {
            spec.variant_template = e.value.clone();
        }
        if let Some(e) = self.take("pieceToCharTable") {
            spec.piece_to_char_table = if e.value == "-" {
                None
            } else {
                Some(e.value.clone())
            };
        }
        let mut pocket = spec.pocket_size.unwrap_or(0);
        if self.entries.contains_key("pocketSize") {
            self.int("pocketSize", &mut pocket);
            spec.pocket_size = (pocket > 0).then_some(pocket);
        }
        self.bool("chess960", &mut spec.chess960);
        if let Some(e) = self.take("startFen") {
            spec.start_fen = e.value.clone();
            spec.start_fen_origin = Some((self.file.to_string(), e.line));
        }
        self.sided_regions(
            ["promotionRegionWhite", "promotionRegionBlack"],
            &mut spec.promotion_region,
        );
        for (key, colors) in [
            ("promotionPawnTypes", &[0usize, 1][..]),
            ("promotionPawnTypesWhite", &[0][..]),
            ("promotionPawnTypesBlack", &[1][..]),
        ] {
            if let Some(e) = self.entries.get(key).cloned() {
                match parse_piece_set(spec, &e.value) {
                    Ok(s) => {
                        let main = first_slot(spec, &e.value);
                        for &c in colors {
                            spec.promotion_pawn_types[c] = s.clone();
                            spec.main_promotion_pawn_type[c] = main.clone();
                        }
                    }
                    Err(reason) => self.error(&e, reason),
                }
                self.take(key);
            }
        }
        let mut sets = spec.promotion_piece_types.clone();
        self.sided_piece_sets(spec, "promotionPieceTypes", &mut sets);
        spec.promotion_piece_types = sets;
        if let Some((e, pairs)) = self.map(spec, "promotionLimit") {
            spec.promotion_limit.clear();
            for (slot, v) in pairs {
                match v.parse::<u32>() {
                    Ok(n) => {
                        spec.promotion_limit.insert(slot, n);
                    }
                    Err(_) => self.error(&e, format!("'{v}' is not a count")),
                }
            }
        }
        if let Some(e) = self.entries.get("promotedPieceType").cloned() {
            for item in e.value.split_whitespace() {
                let parts: Vec<&str> = item.split(':').collect();
                let ok = parts.len() == 2
                    && parts[0].chars().count() == 1
                    && parts[1].chars().count() == 1;
                if !ok {
                    self.error(&e, format!("'{item}' is not a letter:letter pair"));
                    continue;
                }
                let from = parts[0]
                    .chars()
                    .next()
                    .and_then(|c| spec.slot_of_letter(c))
                    .map(|s| s.name.clone());
                let to_c = parts[1].chars().next().unwrap_or('-');
                match from {
                    None => self.error(
                        &e,
                        format!("no piece of the variant has the letter '{}'", parts[0]),
                    ),
                    Some(from) if to_c == '-' => {
                        spec.promoted_piece_type.remove(&from);
                    }
                    Some(from) => match spec.slot_of_letter(to_c).map(|s| s.name.clone()) {
                        Some(to) => {
                            spec.promoted_piece_type.insert(from, to);
                        }
                        None => self.error(
                            &e,
                            format!("no piece of the variant has the letter '{to_c}'"),
                        ),
                    },
                }
            }
            self.take("promotedPieceType");
        }
        self.bool(
            "piecePromotionOnCapture",
            &mut spec.piece_promotion_on_capture,
        );
        self.bool("mandatoryPawnPromotion", &mut spec.mandatory_pawn_promotion);
        self.bool(
            "mandatoryPiecePromotion",
            &mut spec.mandatory_piece_promotion,
        );
        self.bool("blastOnCapture", &mut spec.blast_on_capture);
        let mut s = spec.blast_immune_types.clone();
        self.piece_set(spec, "blastImmuneTypes", &mut s);
        spec.blast_immune_types = s;
        let mut s = spec.mutually_immune_types.clone();
        self.piece_set(spec, "mutuallyImmuneTypes", &mut s);
        spec.mutually_immune_types = s;
        self.bool("doubleStep", &mut spec.double_step);
        self.sided_regions(
            ["doubleStepRegionWhite", "doubleStepRegionBlack"],
            &mut spec.double_step_region,
        );
        self.sided_regions(
            ["tripleStepRegionWhite", "tripleStepRegionBlack"],
            &mut spec.triple_step_region,
        );
        let mut r = Region::EMPTY;
        if self.region("enPassantRegion", &mut r) {
            spec.en_passant_region = [r, r];
        }
        self.sided_regions(
            ["enPassantRegionWhite", "enPassantRegionBlack"],
            &mut spec.en_passant_region,
        );
        let mut sets = spec.en_passant_types.clone();
        self.sided_piece_sets(spec, "enPassantTypes", &mut sets);
        spec.en_passant_types = sets;
        self.bool("castling", &mut spec.castling);
        self.bool("castlingDroppedPiece", &mut spec.castling_dropped_piece);
        self.file_value("castlingKingsideFile", &mut spec.castling_kingside_file);
        self.file_value("castlingQueensideFile", &mut spec.castling_queenside_file);
        self.rank("castlingRank", &mut spec.castling_rank);
        self.file_value("castlingKingFile", &mut spec.castling_king_file);
        let mut types = spec.castling_king_piece.clone();
        self.sided_piece_types(spec, "castlingKingPiece", &mut types);
        spec.castling_king_piece = types;
        self.file_value(
            "castlingRookKingsideFile",
            &mut spec.castling_rook_kingside_file,
        );
        self.file_value(
            "castlingRookQueensideFile",
            &mut spec.castling_rook_queenside_file,
        );
        let mut sets = spec.castling_rook_pieces.clone();
        self.sided_piece_sets(spec, "castlingRookPieces", &mut sets);
        spec.castling_rook_pieces = sets;
        self.bool("oppositeCastling", &mut spec.opposite_castling);
        self.bool("checking", &mut spec.checking);
        self.bool("dropChecks", &mut spec.drop_checks);
        self.bool("mustCapture", &mut spec.must_capture);
        self.bool("mustDrop", &mut spec.must_drop);
        if self.entries.contains_key("mustDropType") {
            let mut t = None;
            self.piece_type(spec, "mustDropType", &mut t);
            spec.must_drop_type = t;
        }
        self.bool("pieceDrops", &mut spec.piece_drops);
        self.bool("dropLoop", &mut spec.drop_loop);
        self.bool("capturesToHand", &mut spec.captures_to_hand);
        self.bool("firstRankPawnDrops", &mut spec.first_rank_pawn_drops);
        self.bool(
            "promotionZonePawnDrops",
            &mut spec.promotion_zone_pawn_drops,
        );
        self.sided_regions(
            ["dropRegionWhite", "dropRegionBlack"],
            &mut spec.drop_region,
        );
        self.bool(
            "dropOppositeColoredBishop",
            &mut spec.drop_opposite_colored_bishop,
        );
        self.bool("dropPromoted", &mut spec.drop_promoted);
        if self.entries.contains_key("dropNoDoubled") {
            let mut t = None;
            self.piece_type(spec, "dropNoDoubled", &mut t);
            spec.drop_no_doubled = t;
        }
        self.int("dropNoDoubledCount", &mut spec.drop_no_doubled_count);
        self.bool("immobilityIllegal", &mut spec.immobility_illegal);
        self.bool("gating", &mut spec.gating);
        self.bool("seirawanGating", &mut spec.seirawan_gating);
        let mut p = false;
        if self.entries.contains_key("pass") {
            self.bool("pass", &mut p);
            spec.pass = [p, p];
        }
        self.bool("passWhite", &mut spec.pass[0]);
        self.bool("passBlack", &mut spec.pass[1]);
        if self.entries.contains_key("passOnStalemate") {
            self.bool("passOnStalemate", &mut p);
            spec.pass_on_stalemate = [p, p];
        }
        self.bool("passOnStalemateWhite", &mut spec.pass_on_stalemate[0]);
        self.bool("passOnStalemateBlack", &mut spec.pass_on_stalemate[1]);
        self.bool("flyingGeneral", &mut spec.flying_general);
        if let Some(e) = self.take("soldierPromotionRank") {
            match e.value.parse::<u8>() {
                Ok(v) if (1..=U).contains(&v) => spec.soldier_promotion_rank = v,
                _ => self.error(&e, "expected a rank number from 1 to 16"),
            }
        }
        let mut sets = spec.n_move_rule_types.clone();
        self.sided_piece_sets(spec, "nMoveRuleTypes", &mut sets);
        spec.n_move_rule_types = sets;
        self.int("nMoveRule", &mut spec.n_move_rule);
        self.int("nFoldRule", &mut spec.n_fold_rule);
        self.value("nFoldValue", &mut spec.n_fold_value);
        self.bool("nFoldValueAbsolute", &mut spec.n_fold_value_absolute);
        self.bool("perpetualCheckIllegal", &mut spec.perpetual_check_illegal);
        self.value("stalemateValue", &mut spec.stalemate_value);
        self.bool("stalematePieceCount", &mut spec.stalemate_piece_count);
        self.value("checkmateValue", &mut spec.checkmate_value);
        self.bool(
            "shogiPawnDropMateIllegal",
            &mut spec.shogi_pawn_drop_mate_illegal,
        );
        self.value("extinctionValue", &mut spec.extinction_value);
        self.bool("extinctionClaim", &mut spec.extinction_claim);
        self.bool("extinctionPseudoRoyal", &mut spec.extinction_pseudo_royal);
        let mut s = spec.extinction_piece_types.clone();
        self.piece_set(spec, "extinctionPieceTypes", &mut s);
        spec.extinction_piece_types = s;
        self.int("extinctionPieceCount", &mut spec.extinction_piece_count);
        self.int(
            "extinctionOpponentPieceCount",
            &mut spec.extinction_opponent_piece_count,
        );
        let mut types = spec.flag_piece.clone();
        self.sided_piece_types(spec, "flagPiece", &mut types);
        spec.flag_piece = types;
        let mut r = Region::EMPTY;
        if self.region("flagRegion", &mut r) {
            spec.flag_region = [r, r];
        }
        self.sided_regions(
            ["flagRegionWhite", "flagRegionBlack"],
            &mut spec.flag_region,
        );
        self.int("flagPieceCount", &mut spec.flag_piece_count);
        self.bool("flagPieceBlockedWin", &mut spec.flag_piece_blocked_win);
        self.bool("flagMove", &mut spec.flag_move);
        self.bool("checkCounting", &mut spec.check_counting);

        // Keys of the dialect that Menagerie cannot play: accepted only at their
        // neutral value, otherwise the section is refused by name.
        for (key, neutral) in UNSUPPORTED_KEYS {
            if let Some(e) = self.take(key)
                && e.value.trim() != *neutral
            {
                self.error(&e, "this rule is not supported by Menagerie");
            }
        }
        let leftover: Vec<Entry> = self.entries.values().cloned().collect();
        for e in leftover {
            self.error(&e, "unknown key");
        }
        self.errors
    }

    fn apply_pieces(&mut self, spec: &mut Spec) {
        // Built-in names in Fairy-Stockfish's order, then custom slots by number.
        let mut names: Vec<String> = BUILTIN_PIECES
            .iter()
            .filter(|p| p.name != "king")
            .map(|p| p.name.to_string())
            .collect();
        let mut customs: Vec<(u32, String)> = self
            .entries
            .keys()
            .filter_map(|k| custom_slot_number(k).map(|n| (n, k.clone())))
            .collect();
        customs.sort();
        names.extend(customs.into_iter().map(|(_, k)| k));
        names.push("king".to_string());
        for name in &names {
            let Some(e) = self.take(name) else {
                continue;
            };
            let v = e.value.trim();
            let mut chars = v.chars();
            let Some(first) = chars.next() else {
                self.error(&e, "expected a piece letter");
                continue;
            };
            if first == '-' && v.len() == 1 {
                spec.remove_slot(name);
                continue;
            }
            if !first.is_ascii_alphabetic() {
                self.error(&e, "a piece letter must be a letter a-z");
                continue;
            }
            let rest = chars.as_str();
            let betza = if rest.is_empty() {
                None
            } else if let Some(b) = rest.strip_prefix(':') {
                Some(b.to_string())
            } else {
                self.error(&e, "expected 'letter' or 'letter:XBetza'");
                continue;
            };
            let is_custom = custom_slot_number(name).is_some();
            if is_custom && betza.is_none() {
                self.error(&e, "a custom piece needs its moves in XBetza ('x:XBETZA')");
                continue;
            }
            if betza.is_none()
                && let Some(why) = unsupported_builtin(name)
            {
                self.error(&e, why);
                continue;
            }
            if name == "pawn" && betza.is_some() {
                self.error(
                    &e,
                    "the pawn's moves are fixed by the pawn rules; define a custom piece and list it in pawnTypes",
                );
                continue;
            }
            if let Some(b) = &betza {
                if let Err(err) = xbetza::parse(b, spec.dialect) {
                    self.error(&e, err.to_string());
                    continue;
                }
                if is_custom && b.contains('e') {
                    for c in 0..2 {
                        spec.en_passant_types[c].insert(name);
                    }
                }
            }
            spec.add_slot(name, first, betza);
        }
        // Mobility regions, for every slot name (defined or not).
        let region_keys: Vec<(String, String, usize)> = self
            .entries
            .keys()
            .filter_map(|k| {
                let (c, rest) = if let Some(r) = k.strip_prefix("mobilityRegionWhite") {
                    (0, r)
                } else if let Some(r) = k.strip_prefix("mobilityRegionBlack") {
                    (1, r)
                } else {
                    return None;
                };
                Some((k.clone(), rest.to_string(), c))
            })
            .collect();
        for (key, piece, c) in region_keys {
            let slot = names.iter().find(|n| capitalized(n) == piece).cloned();
            let Some(slot) = slot else {
                let e = self.take(&key).expect("present");
                self.error(&e, format!("'{piece}' is not a piece name"));
                continue;
            };
            let mut r = Region::EMPTY;
            if self.region(&key, &mut r) {
                spec.mobility_region[c].insert(slot, r);
            }
        }
    }
}

/// `BASE` for both sides, then `BASEWhite`, `BASEBlack`.
fn sided_keys(base: &str) -> [(String, &'static [usize]); 3] {
    [
        (base.to_string(), &[0, 1]),
        (format!("{base}White"), &[0]),
        (format!("{base}Black"), &[1]),
    ]
}

fn first_slot(spec: &Spec, value: &str) -> Option<String> {
    value
        .chars()
        .find(|c| !c.is_whitespace())
        .and_then(|c| spec.slot_of_letter(c))
        .map(|s| s.name.clone())
}

fn parse_piece_set(spec: &Spec, value: &str) -> Result<SlotSet, String> {
    let mut s = SlotSet::default();
    for c in value.chars().filter(|c| !c.is_whitespace()) {
        match c {
            '-' => {}
            '*' => s.all = true,
            _ => match spec.slot_of_letter(c) {
                Some(slot) => s.insert(&slot.name.clone()),
                None => return Err(format!("no piece of the variant has the letter '{c}'")),
            },
        }
    }
    Ok(s)
}

/// `a1 b2 *3 c*`, or `-` for none.
fn parse_region(value: &str) -> Result<Region, String> {
    let mut r = Region::EMPTY;
    for sym in value.split_whitespace() {
        if sym == "-" {
            break;
        }
        let b = sym.as_bytes();
        if sym == "*" {
            r |= region_all();
        } else if b[0] == b'*' {
            let n: u8 = sym[1..]
                .parse()
                .map_err(|_| format!("'{sym}' is not a rank"))?;
            if !(1..=U).contains(&n) {
                return Err(format!("'{sym}' is not a rank from 1 to 16"));
            }
            r |= region_rank(n - 1);
        } else if b.len() == 2 && b[1] == b'*' {
            let f = b[0].to_ascii_lowercase();
            if !(b'a'..b'a' + U).contains(&f) {
                return Err(format!("'{sym}' is not a file"));
            }
            r |= region_file(f - b'a');
        } else {
            let f = b[0].to_ascii_lowercase();
            let n: u8 = sym
                .get(1..)
                .and_then(|x| x.parse().ok())
                .ok_or_else(|| format!("'{sym}' is not a square"))?;
            if !(b'a'..b'a' + U).contains(&f) || !(1..=U).contains(&n) {
                return Err(format!("'{sym}' is not a square"));
            }
            r.insert((n - 1) * U + (f - b'a'));
        }
    }
    Ok(r)
}

impl Spec {
    /// Freeze the spec into a [`Variant`]. Errors name the section header line.
    pub(super) fn freeze(
        &self,
        name: &str,
        file: &str,
        line: usize,
        parent: Option<String>,
    ) -> Result<Variant, Vec<LoadError>> {
        let err = |key: &str, value: &str, reason: String| {
            LoadError::new(file, line, name, key, value, &reason)
        };
        let geometry = Geometry::new(self.max_file, self.max_rank).ok_or_else(|| {
            vec![err(
                "maxFile",
                &format!("{}x{}", self.max_file, self.max_rank),
                "boards are 1x1 to 16x16".into(),
            )]
        })?;
        if self.slots.is_empty() {
            return Err(vec![err("", "", "the variant defines no pieces".into())]);
        }
        if self.slots.len() > MAX_PIECE_TYPES {
            return Err(vec![err(
                "",
                "",
                format!("at most {MAX_PIECE_TYPES} piece types are supported"),
            )]);
        }
        let mut pieces = Vec::new();
        let mut errors = Vec::new();
        for slot in &self.slots {
            let betza = match (&slot.betza, builtin(&slot.name)) {
                (Some(b), _) => b.clone(),
                (None, Some(p)) => p.betza.to_string(),
                (None, None) => String::new(),
            };
            // Built-in names keep Fairy-Stockfish's meaning whatever the dialect.
            let dialect = if slot.betza.is_some() {
                self.dialect
            } else {
                Dialect::FairyStockfish
            };
            match xbetza::parse(&betza, dialect) {
                Ok(moves) => {
                    if moves.has_castling() && slot.name != "king" {
                        errors.push(err(
                            &slot.name,
                            &betza,
                            "the castling atom O is only allowed on the king".into(),
                        ));
                    }
                    pieces.push(PieceDef {
                        slot: slot.name.clone(),
                        letter: slot.letter,
                        betza,
                        moves,
                        royal: slot.name == "king",
                    })
                }
                Err(e) => errors.push(err(&slot.name, &betza, e.to_string())),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let index_of = |slot: &str| -> Option<PieceType> {
            self.slots
                .iter()
                .position(|s| s.name == slot)
                .map(|i| i as PieceType)
        };
        let set = |s: &SlotSet| -> TypeSet {
            s.slots
                .iter()
                .filter_map(|x| index_of(x))
                .fold(0, |a, i| a | 1u64 << i)
        };
        let opt = |s: &Option<String>| s.as_deref().and_then(index_of);
        let to_board = |r: &Region| -> SquareSet {
            r.iter()
                .filter_map(|u| {
                    let (f, rk) = (u % U, u / U);
                    (f < geometry.files && rk < geometry.ranks).then(|| geometry.square(f, rk))
                })
                .collect()
        };
        let n = pieces.len();
        let mut promoted_piece_type = vec![None; n];
        for (from, to) in &self.promoted_piece_type {
            if let (Some(f), Some(t)) = (index_of(from), index_of(to)) {
                promoted_piece_type[f as usize] = Some(t);
            }
        }
        let mut promotion_limit = vec![0; n];
        for (slot, lim) in &self.promotion_limit {
            if let Some(i) = index_of(slot) {
                promotion_limit[i as usize] = *lim;
            }
        }
        let mut mobility_region: [Vec<Option<SquareSet>>; 2] = [vec![None; n], vec![None; n]];
        for (regions, given) in mobility_region.iter_mut().zip(&self.mobility_region) {
            for (slot, r) in given {
                if let Some(i) = index_of(slot) {
                    regions[i as usize] = Some(to_board(r));
                }
            }
        }
        let values = |m: &BTreeMap<String, i32>| -> Vec<Option<i32>> {
            let mut v = vec![None; n];
            for (slot, x) in m {
                if let Some(i) = index_of(slot) {
                    v[i as usize] = Some(*x);
                }
            }
            v
        };
        let last_file = geometry.files - 1;
        Ok(Variant {
            name: name.to_string(),
            source: file.to_string(),
            line,
            parent,
            geometry,
            pieces,
            start_fen: self.start_fen.clone(),
            start_fen_origin: self
                .start_fen_origin
                .clone()
                .unwrap_or((file.to_string(), line)),
            chess960: self.chess960,
            variant_template: self.variant_template.clone(),
            piece_to_char_table: self.piece_to_char_table.clone(),
            pocket_size: self.pocket_size,
            piece_value_mg: values(&self.piece_value[0]),
            piece_value_eg: values(&self.piece_value[1]),
            promotion_region: [
                to_board(&self.promotion_region[0]),
                to_board(&self.promotion_region[1]),
            ],
            promotion_pawn_types: [
                set(&self.promotion_pawn_types[0]),
                set(&self.promotion_pawn_types[1]),
            ],
            main_promotion_pawn_type: [
                opt(&self.main_promotion_pawn_type[0]),
                opt(&self.main_promotion_pawn_type[1]),
            ],
            promotion_piece_types: [
                set(&self.promotion_piece_types[0]),
                set(&self.promotion_piece_types[1]),
            ],
            promoted_piece_type,
            promotion_limit,
            mandatory_pawn_promotion: self.mandatory_pawn_promotion,
            mandatory_piece_promotion: self.mandatory_piece_promotion,
            piece_promotion_on_capture: self.piece_promotion_on_capture,
            immobility_illegal: self.immobility_illegal,
            double_step: self.double_step,
            double_step_region: [
                to_board(&self.double_step_region[0]),
                to_board(&self.double_step_region[1]),
            ],
            triple_step_region: [
                to_board(&self.triple_step_region[0]),
                to_board(&self.triple_step_region[1]),
            ],
            en_passant_region: [
                to_board(&self.en_passant_region[0]),
                to_board(&self.en_passant_region[1]),
            ],
            en_passant_types: [
                set(&self.en_passant_types[0]),
                set(&self.en_passant_types[1]),
            ],
            n_move_rule_types: [
                set(&self.n_move_rule_types[0]),
                set(&self.n_move_rule_types[1]),
            ],
            soldier_promotion_rank: self.soldier_promotion_rank,
            castling: self.castling,
            castling_dropped_piece: self.castling_dropped_piece,
            castling_kingside_file: self.castling_kingside_file.min(last_file),
            castling_queenside_file: self.castling_queenside_file.min(last_file),
            castling_rank: self.castling_rank,
            castling_king_file: self.castling_king_file.min(last_file),
            castling_king_piece: [
                opt(&self.castling_king_piece[0]),
                opt(&self.castling_king_piece[1]),
            ],
            castling_rook_kingside_file: self.castling_rook_kingside_file.min(last_file),
            castling_rook_queenside_file: self.castling_rook_queenside_file.min(last_file),
            castling_rook_pieces: [
                set(&self.castling_rook_pieces[0]),
                set(&self.castling_rook_pieces[1]),
            ],
            opposite_castling: self.opposite_castling,
            piece_drops: self.piece_drops,
            captures_to_hand: self.captures_to_hand,
            drop_loop: self.drop_loop,
            first_rank_pawn_drops: self.first_rank_pawn_drops,
            promotion_zone_pawn_drops: self.promotion_zone_pawn_drops,
            drop_region: [
                to_board(&self.drop_region[0]),
                to_board(&self.drop_region[1]),
            ],
            drop_promoted: self.drop_promoted,
            drop_no_doubled: opt(&self.drop_no_doubled),
            drop_no_doubled_count: self.drop_no_doubled_count,
            drop_checks: self.drop_checks,
            shogi_pawn_drop_mate_illegal: self.shogi_pawn_drop_mate_illegal,
            must_drop: self.must_drop,
            must_drop_type: opt(&self.must_drop_type),
            drop_opposite_colored_bishop: self.drop_opposite_colored_bishop,
            gating: self.gating,
            seirawan_gating: self.seirawan_gating,
            mobility_region,
            flying_general: self.flying_general,
            checking: self.checking,
            must_capture: self.must_capture,
            checkmate_value: self.checkmate_value,
            stalemate_value: self.stalemate_value,
            stalemate_piece_count: self.stalemate_piece_count,
            n_move_rule: self.n_move_rule,
            n_fold_rule: self.n_fold_rule,
            n_fold_value: self.n_fold_value,
            n_fold_value_absolute: self.n_fold_value_absolute,
            perpetual_check_illegal: self.perpetual_check_illegal,
            extinction_value: self.extinction_value,
            extinction_claim: self.extinction_claim,
            extinction_pseudo_royal: self.extinction_pseudo_royal,
            extinction_piece_types: set(&self.extinction_piece_types),
            extinction_all_types: self.extinction_piece_types.all,
            extinction_piece_count: self.extinction_piece_count,
            extinction_opponent_piece_count: self.extinction_opponent_piece_count,
            flag_piece: [opt(&self.flag_piece[0]), opt(&self.flag_piece[1])],
            flag_region: [
                to_board(&self.flag_region[0]),
                to_board(&self.flag_region[1]),
            ],
            flag_piece_count: self.flag_piece_count,
            flag_piece_blocked_win: self.flag_piece_blocked_win,
            flag_move: self.flag_move,
            check_counting: self.check_counting,
            blast_on_capture: self.blast_on_capture,
            blast_immune_types: set(&self.blast_immune_types),
            mutually_immune_types: set(&self.mutually_immune_types),
            pass: self.pass,
            pass_on_stalemate: self.pass_on_stalemate,
        })
    }
}
