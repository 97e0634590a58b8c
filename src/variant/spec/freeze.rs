//! Freezing a finished [`Spec`] into a [`Variant`]: the board is sized, every piece's
//! moves are compiled, slots become piece types and regions become squares of the
//! board. Each derived property is computed once, by a step of its own.

use super::{Region, SlotSet, Spec, U};
use crate::types::{Geometry, MAX_PIECE_TYPES, PieceType, SquareSet, TypeSet};
use crate::variant::connect::ConnectSpec;
use crate::variant::pieces::builtin;
use crate::variant::{ConnectRules, LoadError, NetKey, PieceDef, Variant};
use crate::xbetza::{self, Dialect};
use std::collections::BTreeMap;

/// Where the variant was defined, for errors (they name its section header line).
struct Origin<'a> {
    name: &'a str,
    file: &'a str,
    line: usize,
}

impl Origin<'_> {
    fn error(&self, key: &str, value: &str, reason: &str) -> LoadError {
        LoadError::new(self.file, self.line, self.name, key, value, reason)
    }
}

/// The `nnue` key's file: relative to the variants file's folder unless absolute.
fn net_path(variants_file: &str, value: &str) -> std::path::PathBuf {
    let given = std::path::Path::new(value);
    match std::path::Path::new(variants_file).parent() {
        Some(dir) if given.is_relative() => dir.join(given),
        _ => given.to_path_buf(),
    }
}

impl Spec {
    /// Freeze the spec into a [`Variant`]. Errors name the section header line.
    pub(in crate::variant) fn freeze(
        &self,
        name: &str,
        file: &str,
        line: usize,
        parent: Option<String>,
    ) -> Result<Variant, Vec<LoadError>> {
        let origin = Origin { name, file, line };
        let geometry = self.geometry(&origin)?;
        self.check_piece_count(&origin)?;
        let pieces = self.piece_defs(&origin)?;
        let types = Types {
            spec: self,
            geometry,
        };
        let last_file = geometry.files - 1;
        let file_on_board = |f: u8| f.min(last_file);
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
            castling_wins: self.castling_wins,
            variant_template: self.variant_template.clone(),
            piece_to_char_table: self.piece_to_char_table.clone(),
            pocket_size: self.pocket_size,
            piece_value_mg: types.per_type(&self.piece_value[0]),
            piece_value_eg: types.per_type(&self.piece_value[1]),
            promotion_region: types.squares_each(&self.promotion_region),
            promotion_pawn_types: types.sets_each(&self.promotion_pawn_types),
            main_promotion_pawn_type: types.types_each(&self.main_promotion_pawn_type),
            promotion_piece_types: types.sets_each(&self.promotion_piece_types),
            promoted_piece_type: types.promoted_piece_types(),
            promotion_limit: types.promotion_limits(),
            mandatory_pawn_promotion: self.mandatory_pawn_promotion,
            mandatory_piece_promotion: self.mandatory_piece_promotion,
            piece_promotion_on_capture: self.piece_promotion_on_capture,
            immobility_illegal: self.immobility_illegal,
            double_step: self.double_step,
            double_step_region: types.squares_each(&self.double_step_region),
            triple_step_region: types.squares_each(&self.triple_step_region),
            en_passant_region: types.squares_each(&self.en_passant_region),
            en_passant_types: types.sets_each(&self.en_passant_types),
            n_move_rule_types: types.sets_each(&self.n_move_rule_types),
            soldier_promotion_rank: self.soldier_promotion_rank,
            castling: self.castling,
            castling_dropped_piece: self.castling_dropped_piece,
            castling_kingside_file: file_on_board(self.castling_kingside_file),
            castling_queenside_file: file_on_board(self.castling_queenside_file),
            castling_rank: self.castling_rank,
            castling_king_file: file_on_board(self.castling_king_file),
            castling_king_piece: types.types_each(&self.castling_king_piece),
            castling_rook_kingside_file: file_on_board(self.castling_rook_kingside_file),
            castling_rook_queenside_file: file_on_board(self.castling_rook_queenside_file),
            castling_rook_pieces: types.sets_each(&self.castling_rook_pieces),
            opposite_castling: self.opposite_castling,
            piece_drops: self.piece_drops,
            captures_to_hand: self.captures_to_hand,
            drop_loop: self.drop_loop,
            first_rank_pawn_drops: self.first_rank_pawn_drops,
            promotion_zone_pawn_drops: self.promotion_zone_pawn_drops,
            drop_region: types.squares_each(&self.drop_region),
            drop_promoted: self.drop_promoted,
            drop_no_doubled: types.type_of(&self.drop_no_doubled),
            drop_no_doubled_count: self.drop_no_doubled_count,
            drop_checks: self.drop_checks,
            shogi_pawn_drop_mate_illegal: self.shogi_pawn_drop_mate_illegal,
            must_drop: self.must_drop,
            must_drop_type: types.type_of(&self.must_drop_type),
            drop_opposite_colored_bishop: self.drop_opposite_colored_bishop,
            gating: self.gating,
            seirawan_gating: self.seirawan_gating,
            mobility_region: types.mobility_regions(),
            flying_general: self.flying_general,
            makpong_rule: self.makpong_rule,
            checking: self.checking,
            must_capture: self.must_capture,
            checkmate_value: self.checkmate_value,
            shatar_mate_rule: self.shatar_mate_rule,
            stalemate_value: self.stalemate_value,
            stalemate_piece_count: self.stalemate_piece_count,
            n_move_rule: self.n_move_rule,
            n_move_rule_axf: self.n_move_rule_axf,
            n_fold_rule: self.n_fold_rule,
            n_fold_value: self.n_fold_value,
            n_fold_value_absolute: self.n_fold_value_absolute,
            perpetual_check_illegal: self.perpetual_check_illegal,
            move_repetition_illegal: self.move_repetition_illegal,
            material_counting: self.material_counting,
            extinction_value: self.extinction_value,
            extinction_claim: self.extinction_claim,
            extinction_pseudo_royal: self.extinction_pseudo_royal,
            duple_check: self.duple_check,
            extinction_piece_types: types.set(&self.extinction_piece_types),
            extinction_all_types: self.extinction_piece_types.all,
            extinction_piece_count: self.extinction_piece_count,
            extinction_opponent_piece_count: self.extinction_opponent_piece_count,
            flag_piece: types.types_each(&self.flag_piece),
            flag_region: types.squares_each(&self.flag_region),
            flag_piece_count: self.flag_piece_count,
            flag_piece_blocked_win: self.flag_piece_blocked_win,
            flag_move: self.flag_move,
            flag_piece_safe: self.flag_piece_safe,
            check_counting: self.check_counting,
            blast_on_capture: self.blast_on_capture,
            blast_immune_types: types.set(&self.blast_immune_types),
            mutually_immune_types: types.set(&self.mutually_immune_types),
            pass: self.pass,
            pass_on_stalemate: self.pass_on_stalemate,
            connect: types.connect_rules(),
            piece_demotion: self.piece_demotion,
            cambodian_moves: self.cambodian_moves,
            counting_rule: self.counting_rule,
            diagonal_lines: types.squares(&self.diagonal_lines),
            bikjang_rule: self.bikjang_rule,
            sittuyin_promotion: self.sittuyin_promotion,
            sittuyin_rook_drop: self.sittuyin_rook_drop,
            walling_rule: self.walling_rule,
            walling_region: types.squares_each(&self.walling_region),
            wall_or_move: self.wall_or_move,
            petrify_on_capture_types: types.set(&self.petrify_on_capture_types),
            petrify_blast_pieces: self.petrify_blast_pieces,
            // Set by the variant set, which knows where the weights files are.
            weights: None,
            net: self.net.as_ref().map(|(value, key_line)| NetKey {
                path: net_path(file, value),
                value: value.clone(),
                file: file.to_string(),
                line: *key_line,
            }),
        })
    }

    fn geometry(&self, origin: &Origin) -> Result<Geometry, Vec<LoadError>> {
        Geometry::new(self.max_file, self.max_rank).ok_or_else(|| {
            vec![origin.error(
                "maxFile",
                &format!("{}x{}", self.max_file, self.max_rank),
                "boards are 1x1 to 16x16",
            )]
        })
    }

    fn check_piece_count(&self, origin: &Origin) -> Result<(), Vec<LoadError>> {
        if self.slots.is_empty() {
            return Err(vec![origin.error("", "", "the variant defines no pieces")]);
        }
        if self.slots.len() > MAX_PIECE_TYPES {
            let reason = format!("at most {MAX_PIECE_TYPES} piece types are supported");
            return Err(vec![origin.error("", "", &reason)]);
        }
        Ok(())
    }

    /// Every slot's piece with its moves compiled; every piece that does not
    /// compile is an error.
    fn piece_defs(&self, origin: &Origin) -> Result<Vec<PieceDef>, Vec<LoadError>> {
        let mut pieces = Vec::new();
        let mut errors = Vec::new();
        for slot in &self.slots {
            let (betza, dialect) = match (&slot.betza, builtin_betza(&slot.name)) {
                (Some(b), _) => (b.clone(), self.dialect),
                // Built-in names keep Fairy-Stockfish's meaning whatever the dialect.
                (None, b) => (b.to_string(), Dialect::FairyStockfish),
            };
            match xbetza::parse(&betza, dialect) {
                Ok(mut moves) => {
                    if dialect == Dialect::FairyStockfish {
                        moves.without_lame_leaps_fairy_stockfish_lacks();
                    }
                    if moves.has_castling() && slot.name != "king" {
                        errors.push(origin.error(
                            &slot.name,
                            &betza,
                            "the castling atom O is only allowed on the king",
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
                Err(e) => errors.push(origin.error(&slot.name, &betza, &e.to_string())),
            }
        }
        if errors.is_empty() {
            Ok(pieces)
        } else {
            Err(errors)
        }
    }
}

/// The XBetza a built-in name stands for; empty (an immobile piece) for any other.
fn builtin_betza(name: &str) -> &'static str {
    builtin(name).map_or("", |p| p.betza)
}

/// Turns the spec's slot names into the variant's piece types (slot order) and its
/// 16 x 16 regions into squares of the variant's board.
struct Types<'a> {
    spec: &'a Spec,
    geometry: Geometry,
}

impl Types<'_> {
    fn count(&self) -> usize {
        self.spec.slots.len()
    }

    fn index_of(&self, slot: &str) -> Option<PieceType> {
        self.spec
            .slots
            .iter()
            .position(|s| s.name == slot)
            .map(|i| i as PieceType)
    }

    /// A piece type named by slot; a slot the variant no longer has is none.
    fn type_of(&self, slot: &Option<String>) -> Option<PieceType> {
        slot.as_deref().and_then(|s| self.index_of(s))
    }

    fn types_each(&self, slots: &[Option<String>; 2]) -> [Option<PieceType>; 2] {
        slots.each_ref().map(|s| self.type_of(s))
    }

    /// The types of a set of slots (slots the variant no longer has are left out).
    fn set(&self, s: &SlotSet) -> TypeSet {
        s.slots
            .iter()
            .filter_map(|x| self.index_of(x))
            .fold(0, |a, i| a | 1u64 << i)
    }

    fn sets_each(&self, sets: &[SlotSet; 2]) -> [TypeSet; 2] {
        sets.each_ref().map(|s| self.set(s))
    }

    /// The squares of a region that lie on the board.
    fn squares(&self, r: &Region) -> SquareSet {
        let g = self.geometry;
        r.iter()
            .filter_map(|u| {
                let (f, rk) = (u % U, u / U);
                (f < g.files && rk < g.ranks).then(|| g.square(f, rk))
            })
            .collect()
    }

    fn squares_each(&self, regions: &[Region; 2]) -> [SquareSet; 2] {
        regions.each_ref().map(|r| self.squares(r))
    }

    /// A per-slot map as a per-type table (`None` where a type has no entry).
    fn per_type<T: Copy>(&self, m: &BTreeMap<String, T>) -> Vec<Option<T>> {
        let mut v = vec![None; self.count()];
        for (slot, x) in m {
            if let Some(i) = self.index_of(slot) {
                v[i as usize] = Some(*x);
            }
        }
        v
    }

    /// Each type's fixed promotion partner, where both still exist.
    fn promoted_piece_types(&self) -> Vec<Option<PieceType>> {
        let mut v = vec![None; self.count()];
        for (from, to) in &self.spec.promoted_piece_type {
            if let (Some(f), Some(t)) = (self.index_of(from), self.index_of(to)) {
                v[f as usize] = Some(t);
            }
        }
        v
    }

    /// Each type's promotion limit (0 = none).
    fn promotion_limits(&self) -> Vec<u32> {
        self.per_type(&self.spec.promotion_limit)
            .into_iter()
            .map(|lim| lim.unwrap_or(0))
            .collect()
    }

    /// Each side's region per type, for the types that have one.
    fn mobility_regions(&self) -> [Vec<Option<SquareSet>>; 2] {
        self.spec.mobility_region.each_ref().map(|given| {
            let mut regions = vec![None; self.count()];
            for (slot, r) in given {
                if let Some(i) = self.index_of(slot) {
                    regions[i as usize] = Some(self.squares(r));
                }
            }
            regions
        })
    }
}

impl Types<'_> {
    /// Connect-N wins, enclosing drops and flipping, with the lines of the board.
    fn connect_rules(&self) -> ConnectRules {
        let s = self.spec;
        let mut c = ConnectRules::none();
        c.enclosing_drop = s.enclosing_drop;
        c.enclosing_drop_start = self.squares(&s.enclosing_drop_start);
        c.flip_enclosed = s.flip_enclosed_pieces;
        c.free_drops = s.free_drops;
        c.adjudicate_full_board = s.adjudicate_full_board;
        c.value = s.connect_value;
        c.region1 = self.squares_each(&s.connect_region1);
        c.region2 = self.squares_each(&s.connect_region2);
        let has_regions = !c.region1[0].is_empty() || !c.region1[1].is_empty();
        // As in Fairy-Stockfish, the connecting types count only where some
        // connection rule is on.
        if has_regions || s.connect_n > 0 || s.connect_nxn > 0 || s.collinear_n > 0 {
            c.piece_types = if s.connect_piece_types.all {
                (0..self.count()).fold(0, |a, i| a | 1u64 << i)
            } else {
                self.set(&s.connect_piece_types)
            };
        }
        c.set_lines(
            self.geometry,
            &ConnectSpec {
                connect_n: s.connect_n,
                nxn: s.connect_nxn,
                collinear_n: s.collinear_n,
                horizontal: s.connect_horizontal,
                vertical: s.connect_vertical,
                diagonal: s.connect_diagonal,
            },
        );
        c
    }
}
