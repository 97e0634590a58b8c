//! Reading a section's keys into a [`Spec`]: a table with one row per key, naming
//! how its value is read and which field of the spec it sets.
//!
//! Rows are read in table order, which is the order Fairy-Stockfish reads its keys
//! (the keys Menagerie does not implement come last). Later rows see what earlier
//! rows set: the pieces before the sets that name them, the board size before the
//! deprecated rank keys. Errors come out in that order too. Adding a key is adding
//! a row.

use super::{Region, SlotSet, Spec, U, region_file, region_rank};
use crate::variant::ini::{Entry, Section};
use crate::variant::names::TWO_BOARDS;
use crate::variant::pieces::{
    BUILTIN_PIECES, capitalized, custom_slot_number, unsupported_builtin,
};
use crate::variant::{
    CASTLING_WINS_KINGSIDE, CASTLING_WINS_QUEENSIDE, CountingRule, Enclosing, GameValue, LoadError,
    MaterialCounting, WallingRule,
};
use crate::xbetza::{self, Dialect};
use std::collections::BTreeMap;

/// How a key's value is read, and where it goes: each variant names the reader and
/// carries the setter that stores what was read. A value that does not read is an
/// error and sets nothing.
#[derive(Clone, Copy)]
enum Read {
    /// `true` or `false`.
    Bool(fn(&mut Spec, bool)),
    /// A whole number (0 or more).
    Count(fn(&mut Spec, u32)),
    /// `win`, `loss`, `draw` or `none`.
    Value(fn(&mut Spec, GameValue)),
    /// A rank number 1-16, passed on 0-based.
    Rank(fn(&mut Spec, u8)),
    /// A file letter a-p or number 1-16, passed on 0-based.
    File(fn(&mut Spec, u8)),
    /// Squares, `*N` ranks and `X*` files; see [`parse_region`].
    Region(fn(&mut Spec, Region)),
    /// Piece letters, `*` for all, `-` for none.
    Pieces(fn(&mut Spec, SlotSet)),
    /// Piece letters whose first letter is also the main one (pawn types).
    PiecesFirstMain(fn(&mut Spec, SlotSet, Option<String>)),
    /// One piece letter, or `-` / `*` for none.
    Piece(fn(&mut Spec, Option<String>)),
    /// Any text.
    Text(fn(&mut Spec, &str)),
    /// A value with its own reader (it may report several errors).
    Own(fn(&mut Applier, &mut Spec, &Entry)),
    /// A rule Menagerie does not implement: accepted only at this neutral value,
    /// otherwise the section is refused, naming the rule.
    Unsupported(&'static str, &'static str),
}

use Read::*;

/// Keys read before the pieces: the board size (the deprecated rank keys read it)
/// and how piece XBetza is read.
#[rustfmt::skip]
const BOARD_KEYS: &[(&str, Read)] = &[
    ("maxRank", Own(read_max_rank)),
    ("maxFile", File(|s, f| s.max_file = f + 1)),
    ("betzaDialect", Own(read_betza_dialect)),
];

/// Keys read after the pieces (the piece keys and `mobilityRegion...` are a family
/// of names, read by [`Applier::read_pieces`]).
#[rustfmt::skip]
const RULE_KEYS: &[(&str, Read)] = &[
    ("pieceValueMg", Own(|a, s, e| a.read_piece_values(s, e, 0))),
    ("pieceValueEg", Own(|a, s, e| a.read_piece_values(s, e, 1))),
    // Deprecated spellings Fairy-Stockfish still reads.
    ("promotionRank", Own(read_promotion_rank)),
    ("doubleStepRank", Own(read_double_step_ranks)),
    ("doubleStepRankMin", Own(read_double_step_ranks)),
    ("whiteFlag", Region(|s, r| s.flag_region[0] = r)),
    ("blackFlag", Region(|s, r| s.flag_region[1] = r)),
    ("castlingRookPiece", Pieces(|s, p| s.castling_rook_pieces = [p.clone(), p])),
    ("whiteDropRegion", Region(|s, r| s.drop_region[0] = r)),
    ("blackDropRegion", Region(|s, r| s.drop_region[1] = r)),
    // pawnTypes sets every pawn-related set at once.
    ("pawnTypes", PiecesFirstMain(set_pawn_types)),
    // Official keys.
    ("variantTemplate", Text(|s, t| s.variant_template = t.to_string())),
    ("pieceToCharTable", Text(|s, t| s.piece_to_char_table = (t != "-").then(|| t.to_string()))),
    ("pocketSize", Count(|s, n| s.pocket_size = (n > 0).then_some(n))),
    ("chess960", Bool(|s, b| s.chess960 = b)),
    ("startFen", Own(read_start_fen)),
    ("promotionRegionWhite", Region(|s, r| s.promotion_region[0] = r)),
    ("promotionRegionBlack", Region(|s, r| s.promotion_region[1] = r)),
    ("promotionPawnTypes", PiecesFirstMain(|s, p, m| set_promotion_pawns(s, &[0, 1], p, m))),
    ("promotionPawnTypesWhite", PiecesFirstMain(|s, p, m| set_promotion_pawns(s, &[0], p, m))),
    ("promotionPawnTypesBlack", PiecesFirstMain(|s, p, m| set_promotion_pawns(s, &[1], p, m))),
    ("promotionPieceTypes", Pieces(|s, p| s.promotion_piece_types = [p.clone(), p])),
    ("promotionPieceTypesWhite", Pieces(|s, p| s.promotion_piece_types[0] = p)),
    ("promotionPieceTypesBlack", Pieces(|s, p| s.promotion_piece_types[1] = p)),
    ("promotionLimit", Own(read_promotion_limit)),
    ("promotedPieceType", Own(read_promoted_piece_type)),
    ("piecePromotionOnCapture", Bool(|s, b| s.piece_promotion_on_capture = b)),
    ("mandatoryPawnPromotion", Bool(|s, b| s.mandatory_pawn_promotion = b)),
    ("mandatoryPiecePromotion", Bool(|s, b| s.mandatory_piece_promotion = b)),
    ("blastOnCapture", Bool(|s, b| s.blast_on_capture = b)),
    ("blastImmuneTypes", Pieces(|s, p| s.blast_immune_types = p)),
    ("mutuallyImmuneTypes", Pieces(|s, p| s.mutually_immune_types = p)),
    ("doubleStep", Bool(|s, b| s.double_step = b)),
    ("doubleStepRegionWhite", Region(|s, r| s.double_step_region[0] = r)),
    ("doubleStepRegionBlack", Region(|s, r| s.double_step_region[1] = r)),
    ("tripleStepRegionWhite", Region(|s, r| s.triple_step_region[0] = r)),
    ("tripleStepRegionBlack", Region(|s, r| s.triple_step_region[1] = r)),
    ("enPassantRegion", Region(|s, r| s.en_passant_region = [r, r])),
    ("enPassantRegionWhite", Region(|s, r| s.en_passant_region[0] = r)),
    ("enPassantRegionBlack", Region(|s, r| s.en_passant_region[1] = r)),
    ("enPassantTypes", Pieces(|s, p| s.en_passant_types = [p.clone(), p])),
    ("enPassantTypesWhite", Pieces(|s, p| s.en_passant_types[0] = p)),
    ("enPassantTypesBlack", Pieces(|s, p| s.en_passant_types[1] = p)),
    ("castling", Bool(|s, b| s.castling = b)),
    ("castlingDroppedPiece", Bool(|s, b| s.castling_dropped_piece = b)),
    ("castlingKingsideFile", File(|s, f| s.castling_kingside_file = f)),
    ("castlingQueensideFile", File(|s, f| s.castling_queenside_file = f)),
    ("castlingRank", Rank(|s, r| s.castling_rank = r)),
    ("castlingKingFile", File(|s, f| s.castling_king_file = f)),
    ("castlingKingPiece", Piece(|s, p| s.castling_king_piece = [p.clone(), p])),
    ("castlingKingPieceWhite", Piece(|s, p| s.castling_king_piece[0] = p)),
    ("castlingKingPieceBlack", Piece(|s, p| s.castling_king_piece[1] = p)),
    ("castlingRookKingsideFile", File(|s, f| s.castling_rook_kingside_file = f)),
    ("castlingRookQueensideFile", File(|s, f| s.castling_rook_queenside_file = f)),
    ("castlingRookPieces", Pieces(|s, p| s.castling_rook_pieces = [p.clone(), p])),
    ("castlingRookPiecesWhite", Pieces(|s, p| s.castling_rook_pieces[0] = p)),
    ("castlingRookPiecesBlack", Pieces(|s, p| s.castling_rook_pieces[1] = p)),
    ("oppositeCastling", Bool(|s, b| s.opposite_castling = b)),
    ("checking", Bool(|s, b| s.checking = b)),
    ("dropChecks", Bool(|s, b| s.drop_checks = b)),
    ("mustCapture", Bool(|s, b| s.must_capture = b)),
    ("mustDrop", Bool(|s, b| s.must_drop = b)),
    ("mustDropType", Piece(|s, p| s.must_drop_type = p)),
    ("pieceDrops", Bool(|s, b| s.piece_drops = b)),
    ("dropLoop", Bool(|s, b| s.drop_loop = b)),
    ("capturesToHand", Bool(|s, b| s.captures_to_hand = b)),
    ("firstRankPawnDrops", Bool(|s, b| s.first_rank_pawn_drops = b)),
    ("promotionZonePawnDrops", Bool(|s, b| s.promotion_zone_pawn_drops = b)),
    ("dropRegionWhite", Region(|s, r| s.drop_region[0] = r)),
    ("dropRegionBlack", Region(|s, r| s.drop_region[1] = r)),
    ("dropOppositeColoredBishop", Bool(|s, b| s.drop_opposite_colored_bishop = b)),
    ("dropPromoted", Bool(|s, b| s.drop_promoted = b)),
    ("dropNoDoubled", Piece(|s, p| s.drop_no_doubled = p)),
    ("dropNoDoubledCount", Count(|s, n| s.drop_no_doubled_count = n)),
    ("immobilityIllegal", Bool(|s, b| s.immobility_illegal = b)),
    ("gating", Bool(|s, b| s.gating = b)),
    ("seirawanGating", Bool(|s, b| s.seirawan_gating = b)),
    ("pass", Bool(|s, b| s.pass = [b, b])),
    ("passWhite", Bool(|s, b| s.pass[0] = b)),
    ("passBlack", Bool(|s, b| s.pass[1] = b)),
    ("passOnStalemate", Bool(|s, b| s.pass_on_stalemate = [b, b])),
    ("passOnStalemateWhite", Bool(|s, b| s.pass_on_stalemate[0] = b)),
    ("passOnStalemateBlack", Bool(|s, b| s.pass_on_stalemate[1] = b)),
    ("flyingGeneral", Bool(|s, b| s.flying_general = b)),
    ("makpongRule", Bool(|s, b| s.makpong_rule = b)),
    // Kept 1-based: the soldier rule compares it with a relative rank number.
    ("soldierPromotionRank", Rank(|s, r| s.soldier_promotion_rank = r + 1)),
    ("nMoveRuleTypes", Pieces(|s, p| s.n_move_rule_types = [p.clone(), p])),
    ("nMoveRuleTypesWhite", Pieces(|s, p| s.n_move_rule_types[0] = p)),
    ("nMoveRuleTypesBlack", Pieces(|s, p| s.n_move_rule_types[1] = p)),
    ("nMoveRule", Count(|s, n| s.n_move_rule = n)),
    ("nMoveRuleAxf", Bool(|s, b| s.n_move_rule_axf = b)),
    ("nFoldRule", Count(|s, n| s.n_fold_rule = n)),
    ("nFoldValue", Value(|s, v| s.n_fold_value = v)),
    ("nFoldValueAbsolute", Bool(|s, b| s.n_fold_value_absolute = b)),
    ("perpetualCheckIllegal", Bool(|s, b| s.perpetual_check_illegal = b)),
    ("materialCounting", Own(read_material_counting)),
    ("castlingWins", Own(read_castling_wins)),
    ("stalemateValue", Value(|s, v| s.stalemate_value = v)),
    ("stalematePieceCount", Bool(|s, b| s.stalemate_piece_count = b)),
    ("checkmateValue", Value(|s, v| s.checkmate_value = v)),
    ("shatarMateRule", Bool(|s, b| s.shatar_mate_rule = b)),
    ("shogiPawnDropMateIllegal", Bool(|s, b| s.shogi_pawn_drop_mate_illegal = b)),
    ("extinctionValue", Value(|s, v| s.extinction_value = v)),
    ("extinctionClaim", Bool(|s, b| s.extinction_claim = b)),
    ("extinctionPseudoRoyal", Bool(|s, b| s.extinction_pseudo_royal = b)),
    ("dupleCheck", Bool(|s, b| s.duple_check = b)),
    ("extinctionPieceTypes", Pieces(|s, p| s.extinction_piece_types = p)),
    ("extinctionPieceCount", Count(|s, n| s.extinction_piece_count = n)),
    ("extinctionOpponentPieceCount", Count(|s, n| s.extinction_opponent_piece_count = n)),
    ("flagPiece", Piece(|s, p| s.flag_piece = [p.clone(), p])),
    ("flagPieceWhite", Piece(|s, p| s.flag_piece[0] = p)),
    ("flagPieceBlack", Piece(|s, p| s.flag_piece[1] = p)),
    ("flagRegion", Region(|s, r| s.flag_region = [r, r])),
    ("flagRegionWhite", Region(|s, r| s.flag_region[0] = r)),
    ("flagRegionBlack", Region(|s, r| s.flag_region[1] = r)),
    ("flagPieceCount", Count(|s, n| s.flag_piece_count = n)),
    ("flagPieceBlockedWin", Bool(|s, b| s.flag_piece_blocked_win = b)),
    ("flagMove", Bool(|s, b| s.flag_move = b)),
    ("flagPieceSafe", Bool(|s, b| s.flag_piece_safe = b)),
    ("checkCounting", Bool(|s, b| s.check_counting = b)),
    // Janggi and sittuyin rules.
    ("sittuyinPromotion", Bool(|s, b| s.sittuyin_promotion = b)),
    ("sittuyinRookDrop", Bool(|s, b| s.sittuyin_rook_drop = b)),
    ("diagonalLines", Region(|s, r| s.diagonal_lines = r)),
    ("bikjangRule", Bool(|s, b| s.bikjang_rule = b)),
    ("pieceDemotion", Bool(|s, b| s.piece_demotion = b)),
    ("cambodianMoves", Bool(|s, b| s.cambodian_moves = b)),
    ("countingRule", Own(read_counting_rule)),
    // dropOnTop = true is an old spelling of enclosingDrop = top (read first).
    ("dropOnTop", Bool(|s, b| if b { s.enclosing_drop = Enclosing::Top })),
    ("enclosingDrop", Own(|a, s, e| a.store(e, parse_enclosing(&e.value), s, |s, r| s.enclosing_drop = r))),
    ("enclosingDropStart", Region(|s, r| s.enclosing_drop_start = r)),
    ("flipEnclosedPieces", Own(|a, s, e| a.store(e, parse_enclosing(&e.value), s, |s, r| s.flip_enclosed_pieces = r))),
    // Walls and petrification.
    ("wallingRule", Own(read_walling_rule)),
    ("wallingRegionWhite", Region(|s, r| s.walling_region[0] = r)),
    ("wallingRegionBlack", Region(|s, r| s.walling_region[1] = r)),
    ("wallingRegion", Region(|s, r| s.walling_region = [r, r])),
    ("wallOrMove", Bool(|s, b| s.wall_or_move = b)),
    ("petrifyOnCaptureTypes", Pieces(|s, p| s.petrify_on_capture_types = p)),
    ("petrifyBlastPieces", Bool(|s, b| s.petrify_blast_pieces = b)),
    ("connectN", Count(|s, n| s.connect_n = n)),
    ("connectPieceTypes", Pieces(|s, p| s.connect_piece_types = p)),
    ("connectHorizontal", Bool(|s, b| s.connect_horizontal = b)),
    ("connectVertical", Bool(|s, b| s.connect_vertical = b)),
    ("connectDiagonal", Bool(|s, b| s.connect_diagonal = b)),
    ("connectRegion1White", Region(|s, r| s.connect_region1[0] = r)),
    ("connectRegion2White", Region(|s, r| s.connect_region2[0] = r)),
    ("connectRegion1Black", Region(|s, r| s.connect_region1[1] = r)),
    ("connectRegion2Black", Region(|s, r| s.connect_region2[1] = r)),
    ("connectNxN", Count(|s, n| s.connect_nxn = n)),
    ("collinearN", Count(|s, n| s.collinear_n = n)),
    ("connectValue", Value(|s, v| s.connect_value = v)),
    ("adjudicateFullBoard", Bool(|s, b| s.adjudicate_full_board = b)),
    ("freeDrops", Bool(|s, b| s.free_drops = b)),
    // Keys of Fairy-Stockfish's dialect that Menagerie does not implement.
    ("twoBoards", Unsupported("false", TWO_BOARDS)),
    ("moveRepetitionIllegal", Bool(|s, b| s.move_repetition_illegal = b)),
    ("chasingRule", Unsupported("none", "the chasing rules are not supported")),
    // Menagerie's own: the variant's net file (`menagerie learn` writes one).
    ("nnue", Own(|_, s, e| s.net = Some((e.value.clone(), e.line)))),
];

/// Applies one section's entries to a spec, collecting every error.
pub(in crate::variant) struct Applier<'a> {
    file: &'a str,
    variant: &'a str,
    /// The section's entries not read yet (what is left at the end is unknown).
    entries: BTreeMap<String, Entry>,
    errors: Vec<LoadError>,
}

impl<'a> Applier<'a> {
    pub(in crate::variant) fn new(file: &'a str, section: &'a Section) -> Applier<'a> {
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

    /// Apply every key of the section to `spec`; returns the errors (empty = success).
    pub(in crate::variant) fn apply(mut self, spec: &mut Spec) -> Vec<LoadError> {
        // A parent's net is not the child's: the child may have other pieces.
        spec.net = None;
        self.read_table(spec, BOARD_KEYS);
        self.read_pieces(spec);
        self.read_table(spec, RULE_KEYS);
        let unknown: Vec<Entry> = std::mem::take(&mut self.entries).into_values().collect();
        for e in unknown {
            self.error(&e, "unknown key");
        }
        self.errors
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

    fn read_table(&mut self, spec: &mut Spec, table: &[(&str, Read)]) {
        for &(key, read) in table {
            if let Some(e) = self.take(key) {
                self.read(spec, &e, read);
            }
        }
    }

    /// Read one entry's value the way its row says.
    fn read(&mut self, spec: &mut Spec, e: &Entry, read: Read) {
        let v = e.value.as_str();
        match read {
            Bool(set) => self.store(e, parse_bool(v), spec, set),
            Count(set) => self.store(e, parse_count(v), spec, set),
            Value(set) => self.store(e, parse_game_value(v), spec, set),
            Rank(set) => self.store(e, parse_rank(v), spec, set),
            File(set) => self.store(e, parse_file(v), spec, set),
            Region(set) => self.store(e, parse_region(v), spec, set),
            Pieces(set) => self.store(e, parse_piece_set(spec, v), spec, set),
            PiecesFirstMain(set) => {
                let main = first_slot(spec, v);
                self.store(e, parse_piece_set(spec, v), spec, |s, p| set(s, p, main))
            }
            Piece(set) => self.store(e, parse_piece_type(spec, v), spec, set),
            Text(set) => set(spec, v),
            Own(read) => read(self, spec, e),
            Unsupported(neutral, rule) => {
                if v.trim() != neutral {
                    self.error(e, rule);
                }
            }
        }
    }

    /// A value that read, or `None` after reporting why it did not.
    fn accept<T>(&mut self, e: &Entry, read: Result<T, ValueError>) -> Option<T> {
        read.map_err(|reason| self.error(e, reason.to_string()))
            .ok()
    }

    /// Store a value that read, or report why it did not.
    fn store<T>(
        &mut self,
        e: &Entry,
        read: Result<T, ValueError>,
        spec: &mut Spec,
        set: impl FnOnce(&mut Spec, T),
    ) {
        if let Some(x) = self.accept(e, read) {
            set(spec, x);
        }
    }

    /// `letter:value` pairs, the letters turned into slots. A malformed pair is one
    /// error and nothing is read.
    fn letter_pairs(&mut self, spec: &Spec, e: &Entry) -> Option<Vec<(String, String)>> {
        let mut out = Vec::new();
        for item in e.value.split_whitespace() {
            let Some((l, v)) = item.split_once(':') else {
                self.error(e, format!("'{item}' is not a letter:value pair"));
                return None;
            };
            let mut lc = l.chars();
            let (Some(c), None) = (lc.next(), lc.next()) else {
                self.error(e, format!("'{l}' is not a piece letter"));
                return None;
            };
            let Some(slot) = spec.slot_of_letter(c) else {
                self.error(e, format!("no piece of the variant has the letter '{c}'"));
                return None;
            };
            out.push((slot.name.clone(), v.to_string()));
        }
        Some(out)
    }

    /// `pieceValueMg` (phase 0) and `pieceValueEg` (phase 1): every pair that reads
    /// is kept, every one that does not is an error.
    fn read_piece_values(&mut self, spec: &mut Spec, e: &Entry, phase: usize) {
        for (slot, v) in self.letter_pairs(spec, e).unwrap_or_default() {
            match v.parse::<i32>() {
                Ok(n) => {
                    spec.piece_value[phase].insert(slot, n);
                }
                Err(_) => self.error(e, format!("'{v}' is not a number")),
            }
        }
    }

    /// The piece keys (built-in names, `customPieceN`, `king`) in Fairy-Stockfish's
    /// order, then `mobilityRegion{White,Black}<Piece>` for those names.
    fn read_pieces(&mut self, spec: &mut Spec) {
        let names = self.piece_key_names();
        for name in &names {
            if let Some(e) = self.take(name) {
                self.read_piece(spec, name, &e);
            }
        }
        self.read_mobility_regions(spec, &names);
    }

    /// Built-in names in Fairy-Stockfish's order, then the section's custom slots by
    /// number, then `king`.
    fn piece_key_names(&self) -> Vec<String> {
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
        names
    }

    /// `name = letter`, `name = letter:XBetza`, or `name = -` (remove the piece).
    fn read_piece(&mut self, spec: &mut Spec, name: &str, e: &Entry) {
        let v = e.value.trim();
        let mut chars = v.chars();
        let Some(first) = chars.next() else {
            self.error(e, "expected a piece letter");
            return;
        };
        if first == '-' && v.len() == 1 {
            spec.remove_slot(name);
            return;
        }
        if !first.is_ascii_alphabetic() {
            self.error(e, "a piece letter must be a letter a-z");
            return;
        }
        let rest = chars.as_str();
        let betza = if rest.is_empty() {
            None
        } else if let Some(b) = rest.strip_prefix(':') {
            Some(b.to_string())
        } else {
            self.error(e, "expected 'letter' or 'letter:XBetza'");
            return;
        };
        let is_custom = custom_slot_number(name).is_some();
        if is_custom && betza.is_none() {
            self.error(e, "a custom piece needs its moves in XBetza ('x:XBETZA')");
            return;
        }
        if betza.is_none()
            && let Some(why) = unsupported_builtin(name)
        {
            self.error(e, why);
            return;
        }
        if name == "pawn" && betza.is_some() {
            self.error(
                e,
                "the pawn's moves are fixed by the pawn rules; define a custom piece and list it in pawnTypes",
            );
            return;
        }
        if let Some(b) = &betza {
            if let Err(err) = xbetza::parse(b, spec.dialect) {
                self.error(e, err.to_string());
                return;
            }
            // A custom piece that can capture en passant is an en-passant type.
            if is_custom && b.contains('e') {
                for c in 0..2 {
                    spec.en_passant_types[c].insert(name);
                }
            }
        }
        spec.add_slot(name, first, betza);
    }

    /// `mobilityRegionWhite<Piece>` / `mobilityRegionBlack<Piece>`, in key order, for
    /// the names of [`Self::piece_key_names`]: every built-in name, but only the
    /// custom pieces this section declares (Fairy-Stockfish also takes the others).
    fn read_mobility_regions(&mut self, spec: &mut Spec, names: &[String]) {
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
            let Some(e) = self.take(&key) else {
                continue;
            };
            let Some(slot) = names.iter().find(|n| capitalized(n) == piece).cloned() else {
                self.error(&e, format!("'{piece}' is not a piece name"));
                continue;
            };
            if let Some(r) = self.accept(&e, parse_region(&e.value)) {
                spec.mobility_region[c].insert(slot, r);
            }
        }
    }
}

// Own readers: keys whose value is read in a way of its own.

/// `maxRank`: 1 to 16.
fn read_max_rank(a: &mut Applier, spec: &mut Spec, e: &Entry) {
    match e.value.parse::<u8>() {
        Ok(v) if (1..=U).contains(&v) => spec.max_rank = v,
        _ => a.error(e, "the board has 1 to 16 ranks"),
    }
}

/// `castlingWins`: castling rights as in a FEN (`KQkq`), `-` for none.
fn read_castling_wins(a: &mut Applier, spec: &mut Spec, e: &Entry) {
    let mut bits = 0;
    for c in e.value.chars().filter(|&c| c != '-') {
        bits |= match c {
            'K' => CASTLING_WINS_KINGSIDE,
            'Q' => CASTLING_WINS_QUEENSIDE,
            'k' => CASTLING_WINS_KINGSIDE << 2,
            'q' => CASTLING_WINS_QUEENSIDE << 2,
            _ => {
                return a.error(
                    e,
                    format!("'{c}' is not a castling right (K, Q, k, q or -)"),
                );
            }
        };
    }
    spec.castling_wins = bits;
}

fn read_betza_dialect(a: &mut Applier, spec: &mut Spec, e: &Entry) {
    match e.value.as_str() {
        "xboard" => spec.dialect = Dialect::XBoard,
        "fairy-stockfish" => spec.dialect = Dialect::FairyStockfish,
        _ => a.error(e, "expected xboard or fairy-stockfish"),
    }
}

/// An `EnclosingRule` value (`enclosingDrop`, `flipEnclosedPieces`).
fn parse_enclosing(value: &str) -> Result<Enclosing, ValueError> {
    Enclosing::parse(value.trim()).ok_or(ValueError::NotEnclosingRule)
}

/// A `WallingRule` value.
fn read_walling_rule(a: &mut Applier, spec: &mut Spec, e: &Entry) {
    spec.walling_rule = match e.value.trim() {
        "none" => WallingRule::None,
        "arrow" => WallingRule::Arrow,
        "duck" => WallingRule::Duck,
        "edge" => WallingRule::Edge,
        "past" => WallingRule::Past,
        "static" => WallingRule::Static,
        _ => return a.error(e, "expected none, arrow, duck, edge, past or static"),
    };
}

fn read_material_counting(a: &mut Applier, spec: &mut Spec, e: &Entry) {
    spec.material_counting = match e.value.as_str() {
        "none" => MaterialCounting::None,
        "unweighted" => MaterialCounting::Unweighted,
        "whitedrawodds" => MaterialCounting::WhiteDrawOdds,
        "blackdrawodds" => MaterialCounting::BlackDrawOdds,
        "janggi" => MaterialCounting::Janggi,
        _ => {
            return a.error(
                e,
                "expected janggi, none, unweighted, whitedrawodds or blackdrawodds",
            );
        }
    };
}

fn read_counting_rule(a: &mut Applier, spec: &mut Spec, e: &Entry) {
    spec.counting_rule = match e.value.as_str() {
        "none" => CountingRule::None,
        "makruk" => CountingRule::Makruk,
        "cambodian" => CountingRule::Cambodian,
        "asean" => CountingRule::Asean,
        _ => return a.error(e, "expected makruk, cambodian, asean or none"),
    };
}

fn read_start_fen(a: &mut Applier, spec: &mut Spec, e: &Entry) {
    spec.start_fen = e.value.clone();
    spec.start_fen_origin = Some((a.file.to_string(), e.line));
}

/// Deprecated `promotionRank`: White promotes on that rank and beyond, Black on
/// the mirrored ranks of the board as sized so far.
fn read_promotion_rank(a: &mut Applier, spec: &mut Spec, e: &Entry) {
    match e.value.parse::<u8>() {
        Ok(r) if (1..=U).contains(&r) => {
            let r = r - 1;
            let rows = spec.max_rank;
            spec.promotion_region[0] = (r..rows).fold(Region::EMPTY, |a, x| a | region_rank(x));
            let br = rows.saturating_sub(1).saturating_sub(r);
            spec.promotion_region[1] = (0..=br).fold(Region::EMPTY, |a, x| a | region_rank(x));
        }
        _ => a.error(e, "expected a rank number"),
    }
}

/// Deprecated `doubleStepRank` / `doubleStepRankMin`: either sets the double-step
/// region from both (the one not given is rank 2). Called for `doubleStepRank`
/// first, which reads `doubleStepRankMin` too.
fn read_double_step_ranks(a: &mut Applier, spec: &mut Spec, e: &Entry) {
    let mut hi = 1u8;
    let mut lo = 1u8;
    let min_entry = if e.key == "doubleStepRankMin" {
        Some(e.clone())
    } else {
        hi = a.accept(e, parse_rank(&e.value)).unwrap_or(hi);
        a.take("doubleStepRankMin")
    };
    if let Some(m) = min_entry {
        lo = a.accept(&m, parse_rank(&m.value)).unwrap_or(lo);
    }
    let rows = spec.max_rank;
    spec.double_step_region[0] = (lo..=hi).fold(Region::EMPTY, |a, x| a | region_rank(x));
    spec.double_step_region[1] = (lo..=hi)
        .filter(|&x| x < rows)
        .fold(Region::EMPTY, |a, x| a | region_rank(rows - 1 - x));
}

/// `promotionLimit`: `letter:count` pairs; replaces the parent's limits.
fn read_promotion_limit(a: &mut Applier, spec: &mut Spec, e: &Entry) {
    let Some(pairs) = a.letter_pairs(spec, e) else {
        return;
    };
    spec.promotion_limit.clear();
    for (slot, v) in pairs {
        match v.parse::<u32>() {
            Ok(n) => {
                spec.promotion_limit.insert(slot, n);
            }
            Err(_) => a.error(e, format!("'{v}' is not a count")),
        }
    }
}

/// `promotedPieceType`: `letter:letter` pairs; `letter:-` removes a partner.
fn read_promoted_piece_type(a: &mut Applier, spec: &mut Spec, e: &Entry) {
    for item in e.value.split_whitespace() {
        let parts: Vec<&str> = item.split(':').collect();
        let ok = parts.len() == 2 && parts[0].chars().count() == 1 && parts[1].chars().count() == 1;
        if !ok {
            a.error(e, format!("'{item}' is not a letter:letter pair"));
            continue;
        }
        let from = parts[0]
            .chars()
            .next()
            .and_then(|c| spec.slot_of_letter(c))
            .map(|s| s.name.clone());
        let to_c = parts[1].chars().next().unwrap_or('-');
        match from {
            None => a.error(
                e,
                format!("no piece of the variant has the letter '{}'", parts[0]),
            ),
            Some(from) if to_c == '-' => {
                spec.promoted_piece_type.remove(&from);
            }
            Some(from) => match spec.slot_of_letter(to_c).map(|s| s.name.clone()) {
                Some(to) => {
                    spec.promoted_piece_type.insert(from, to);
                }
                None => a.error(
                    e,
                    format!("no piece of the variant has the letter '{to_c}'"),
                ),
            },
        }
    }
}

// Setters shared by several rows.

/// `pawnTypes`: the pawn types of promotion, en passant and the n-move rule.
fn set_pawn_types(spec: &mut Spec, pawns: SlotSet, main: Option<String>) {
    for c in 0..2 {
        spec.main_promotion_pawn_type[c] = main.clone();
        spec.promotion_pawn_types[c] = pawns.clone();
        spec.en_passant_types[c] = pawns.clone();
        spec.n_move_rule_types[c] = pawns.clone();
    }
}

fn set_promotion_pawns(spec: &mut Spec, sides: &[usize], pawns: SlotSet, main: Option<String>) {
    for &c in sides {
        spec.promotion_pawn_types[c] = pawns.clone();
        spec.main_promotion_pawn_type[c] = main.clone();
    }
}

// Value readers: text to value, or why not.

/// Why a key's value does not read (the reason of the file:line error the loader
/// reports).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum ValueError {
    #[error("expected true or false")]
    NotBool,
    #[error("expected a whole number")]
    NotCount,
    #[error("expected win, loss, draw or none")]
    NotGameValue,
    #[error("expected a rank number from 1 to 16")]
    NotRankNumber,
    #[error("expected a file letter (a-p) or number (1-16)")]
    NotFile,
    #[error("expected reversi, ataxx, quadwrangle, snort, anyside, top or none")]
    NotEnclosingRule,
    /// A letter of a piece-set value that no piece of the variant has.
    #[error("no piece of the variant has the letter '{0}'")]
    UnknownLetter(char),
    #[error("no piece of the variant has this letter")]
    UnknownPiece,
    /// A region symbol `*N` whose N is not a number.
    #[error("'{0}' is not a rank")]
    RegionRank(String),
    #[error("'{0}' is not a rank from 1 to 16")]
    RegionRankRange(String),
    #[error("'{0}' is not a file")]
    RegionFile(String),
    #[error("'{0}' is not a square")]
    RegionSquare(String),
}

fn parse_bool(v: &str) -> Result<bool, ValueError> {
    match v {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(ValueError::NotBool),
    }
}

fn parse_count(v: &str) -> Result<u32, ValueError> {
    v.parse().map_err(|_| ValueError::NotCount)
}

fn parse_game_value(v: &str) -> Result<GameValue, ValueError> {
    match v {
        "win" => Ok(GameValue::Win),
        "loss" => Ok(GameValue::Loss),
        "draw" => Ok(GameValue::Draw),
        "none" => Ok(GameValue::None),
        _ => Err(ValueError::NotGameValue),
    }
}

/// 1-based rank number, 0-based result.
fn parse_rank(v: &str) -> Result<u8, ValueError> {
    match v.parse::<u8>() {
        Ok(r) if (1..=U).contains(&r) => Ok(r - 1),
        _ => Err(ValueError::NotRankNumber),
    }
}

/// File letter or 1-based number, 0-based result.
fn parse_file(v: &str) -> Result<u8, ValueError> {
    let parsed = if let Ok(n) = v.parse::<u8>() {
        (1..=U).contains(&n).then(|| n - 1)
    } else {
        let b = v.as_bytes();
        (b.len() == 1 && (b'a'..b'a' + U).contains(&b[0])).then(|| b[0] - b'a')
    };
    parsed.ok_or(ValueError::NotFile)
}

/// The slot of the first letter of a piece-set value (the main pawn type).
fn first_slot(spec: &Spec, value: &str) -> Option<String> {
    value
        .chars()
        .find(|c| !c.is_whitespace())
        .and_then(|c| spec.slot_of_letter(c))
        .map(|s| s.name.clone())
}

fn parse_piece_set(spec: &Spec, value: &str) -> Result<SlotSet, ValueError> {
    let mut s = SlotSet::default();
    for c in value.chars().filter(|c| !c.is_whitespace()) {
        match c {
            '-' => {}
            '*' => s.all = true,
            _ => match spec.slot_of_letter(c) {
                Some(slot) => s.insert(&slot.name.clone()),
                None => return Err(ValueError::UnknownLetter(c)),
            },
        }
    }
    Ok(s)
}

/// One piece letter; `*` and `-` mean none.
fn parse_piece_type(spec: &Spec, value: &str) -> Result<Option<String>, ValueError> {
    let v = value.trim();
    if v == "*" || v == "-" {
        return Ok(None);
    }
    match v.chars().next().and_then(|c| spec.slot_of_letter(c)) {
        Some(slot) => Ok(Some(slot.name.clone())),
        None => Err(ValueError::UnknownPiece),
    }
}

/// Squares (`a1`), ranks (`*3`) and files (`c*`), read as Fairy-Stockfish reads
/// them: up to the end of the value or up to a `-` or a lone `*`, so `-` alone and
/// `*` alone are both the empty region (not the whole board: Fairy-Stockfish has
/// no symbol for every square, and Menagerie reads a file as it does).
fn parse_region(value: &str) -> Result<Region, ValueError> {
    let mut r = Region::EMPTY;
    for sym in value.split_whitespace() {
        if sym == "-" || sym == "*" {
            break;
        }
        let b = sym.as_bytes();
        if b[0] == b'*' {
            let n: u8 = sym[1..]
                .parse()
                .map_err(|_| ValueError::RegionRank(sym.to_string()))?;
            if !(1..=U).contains(&n) {
                return Err(ValueError::RegionRankRange(sym.to_string()));
            }
            r |= region_rank(n - 1);
        } else if b.len() == 2 && b[1] == b'*' {
            let f = b[0].to_ascii_lowercase();
            if !(b'a'..b'a' + U).contains(&f) {
                return Err(ValueError::RegionFile(sym.to_string()));
            }
            r |= region_file(f - b'a');
        } else {
            let f = b[0].to_ascii_lowercase();
            let n: u8 = sym
                .get(1..)
                .and_then(|x| x.parse().ok())
                .ok_or_else(|| ValueError::RegionSquare(sym.to_string()))?;
            if !(b'a'..b'a' + U).contains(&f) || !(1..=U).contains(&n) {
                return Err(ValueError::RegionSquare(sym.to_string()));
            }
            r.insert((n - 1) * U + (f - b'a'));
        }
    }
    Ok(r)
}
