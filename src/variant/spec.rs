//! The variant builder: a mutable copy of a parent (or of the template) that a
//! section's keys are applied to, in the order Fairy-Stockfish applies them, and
//! that is then frozen into a [`Variant`](super::Variant).
//!
//! While building, pieces are identified by their slot (`knight`, `customPiece3`):
//! sets of pieces and promotion partners refer to slots, as in Fairy-Stockfish, so
//! that re-lettering a piece in a child keeps the parent's rules about it.
//!
//! [`keys`] reads a section's keys into a [`Spec`] (one table row per key);
//! [`freeze`] turns a finished spec into the variant the engine reads.

mod freeze;
mod keys;

pub(super) use keys::Applier;

use super::{CountingRule, Enclosing, GameValue, MaterialCounting, WallingRule};
use crate::types::SquareSet;
use crate::xbetza::Dialect;
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
    // Castling wins (castlingWins): see Variant::castling_wins.
    castling_wins: u8,
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
    makpong_rule: bool,

    checking: bool,
    must_capture: bool,
    checkmate_value: GameValue,
    shatar_mate_rule: bool,
    stalemate_value: GameValue,
    stalemate_piece_count: bool,
    n_move_rule: u32,
    n_move_rule_axf: bool,
    n_fold_rule: u32,
    n_fold_value: GameValue,
    n_fold_value_absolute: bool,
    perpetual_check_illegal: bool,
    move_repetition_illegal: bool,
    material_counting: MaterialCounting,
    extinction_value: GameValue,
    extinction_claim: bool,
    extinction_pseudo_royal: bool,
    duple_check: bool,
    extinction_piece_types: SlotSet,
    extinction_piece_count: u32,
    extinction_opponent_piece_count: u32,
    flag_piece: [Option<String>; 2],
    flag_region: [Region; 2],
    flag_piece_count: u32,
    flag_piece_blocked_win: bool,
    flag_move: bool,
    flag_piece_safe: bool,
    check_counting: bool,
    blast_on_capture: bool,
    blast_immune_types: SlotSet,
    mutually_immune_types: SlotSet,
    pass: [bool; 2],
    pass_on_stalemate: [bool; 2],

    // Connect-N wins, enclosing drops and flipping (variant/connect.rs).
    enclosing_drop: Enclosing,
    enclosing_drop_start: Region,
    flip_enclosed_pieces: Enclosing,
    free_drops: bool,
    adjudicate_full_board: bool,
    connect_n: u32,
    connect_piece_types: SlotSet,
    connect_horizontal: bool,
    connect_vertical: bool,
    connect_diagonal: bool,
    connect_region1: [Region; 2],
    connect_region2: [Region; 2],
    connect_nxn: u32,
    collinear_n: u32,
    connect_value: GameValue,
    // Piece demotion (kyotoshogi), Cambodian first moves, counting rules.
    piece_demotion: bool,
    cambodian_moves: bool,
    counting_rule: CountingRule,
    // Janggi and sittuyin rules.
    diagonal_lines: Region,
    bikjang_rule: bool,
    sittuyin_promotion: bool,
    sittuyin_rook_drop: bool,
    // Walls and petrification.
    walling_rule: WallingRule,
    walling_region: [Region; 2],
    wall_or_move: bool,
    petrify_on_capture_types: SlotSet,
    petrify_blast_pieces: bool,
    /// Menagerie's `nnue` key: the net file as written and the key's line. Not
    /// inherited (a child's pieces, and so its net, may differ).
    net: Option<(String, usize)>,
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
            castling_wins: 0,
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
            makpong_rule: false,
            checking: true,
            must_capture: false,
            checkmate_value: GameValue::Loss,
            shatar_mate_rule: false,
            stalemate_value: GameValue::Draw,
            stalemate_piece_count: false,
            n_move_rule: 50,
            n_move_rule_axf: false,
            n_fold_rule: 3,
            n_fold_value: GameValue::Draw,
            n_fold_value_absolute: false,
            perpetual_check_illegal: false,
            move_repetition_illegal: false,
            material_counting: MaterialCounting::None,
            extinction_value: GameValue::None,
            extinction_claim: false,
            extinction_pseudo_royal: false,
            duple_check: false,
            extinction_piece_types: SlotSet::default(),
            extinction_piece_count: 0,
            extinction_opponent_piece_count: 0,
            flag_piece: [None, None],
            flag_region: [Region::EMPTY, Region::EMPTY],
            flag_piece_count: 1,
            flag_piece_blocked_win: false,
            flag_move: false,
            flag_piece_safe: false,
            check_counting: false,
            blast_on_capture: false,
            blast_immune_types: SlotSet::default(),
            mutually_immune_types: SlotSet::default(),
            pass: [false, false],
            pass_on_stalemate: [false, false],
            enclosing_drop: Enclosing::None,
            enclosing_drop_start: Region::EMPTY,
            flip_enclosed_pieces: Enclosing::None,
            free_drops: false,
            adjudicate_full_board: false,
            connect_n: 0,
            connect_piece_types: SlotSet {
                all: true,
                slots: Vec::new(),
            },
            connect_horizontal: true,
            connect_vertical: true,
            connect_diagonal: true,
            connect_region1: [Region::EMPTY, Region::EMPTY],
            connect_region2: [Region::EMPTY, Region::EMPTY],
            connect_nxn: 0,
            collinear_n: 0,
            connect_value: GameValue::Win,
            piece_demotion: false,
            cambodian_moves: false,
            counting_rule: CountingRule::None,
            diagonal_lines: Region::EMPTY,
            bikjang_rule: false,
            sittuyin_promotion: false,
            sittuyin_rook_drop: false,
            walling_rule: WallingRule::None,
            walling_region: [region_all(), region_all()],
            wall_or_move: false,
            petrify_on_capture_types: SlotSet::default(),
            petrify_blast_pieces: false,
            net: None,
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
