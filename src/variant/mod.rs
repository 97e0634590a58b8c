//! Variants as data: the INI reader, the key table, inheritance, built-in piece names,
//! and the frozen [`Variant`] that the rest of the engine reads.

mod builtin;
mod connect;
mod ini;
pub mod names;
pub mod pieces;
mod registry;
mod spec;
pub mod weights;

pub use builtin::{BUILTIN_FILES, BUILTIN_WEIGHTS};
pub use connect::{ConnectRules, Enclosing};
pub use names::UnknownVariant;
pub use registry::{BUILTIN_SOURCE, LoadCheck, LoadReport, Refusal, VariantSet};

use crate::types::{Color, Geometry, PieceType, SquareSet, TypeSet};
use crate::xbetza::PieceMoves;
use std::fmt;
use std::sync::Arc;
use weights::WeightsFile;

/// The result of a game-ending rule for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameValue {
    Win,
    Loss,
    Draw,
    /// The rule does not apply.
    None,
}

impl GameValue {
    pub fn negate(self) -> GameValue {
        match self {
            GameValue::Win => GameValue::Loss,
            GameValue::Loss => GameValue::Win,
            v => v,
        }
    }
}

/// How a game that the rules draw is decided instead (Fairy-Stockfish's
/// `materialCounting`): by who has more pieces on the board, or by draw odds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaterialCounting {
    /// A draw is a draw.
    None,
    /// The side with more pieces on the board wins; equal counts draw.
    Unweighted,
    /// Every draw is a win for White.
    WhiteDrawOdds,
    /// Every draw is a win for Black (armageddon).
    BlackDrawOdds,
    /// Janggi's points (rook 13, cannon 7, horse 5, elephant 3, advisor 3, soldier 2;
    /// Black, the second player, gets 1 more): the side with more wins.
    Janggi,
}

/// Which south-east Asian counting rule ends a game that one side cannot win
/// (`countingRule`): once counting starts, the game is drawn when the count passes
/// its limit (see `board/counting.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountingRule {
    None,
    /// Thai makruk: board's honour (64 moves) and pieces' honour.
    Makruk,
    /// Cambodian ouk chatrang: as makruk, one move shorter.
    Cambodian,
    /// ASEAN chess: only against a bare king, no pawns on the board.
    Asean,
}

/// Where a move's wall square may go (Fairy-Stockfish's `wallingRule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WallingRule {
    /// No walls are placed.
    None,
    /// Where the moved piece could move next from its destination (amazons).
    Arrow,
    /// Any empty square; the wall (the duck) moves: the old one goes.
    Duck,
    /// A square on the board's edge or next to a wall (atlantis).
    Edge,
    /// The square the piece left (snailtrail, joust).
    Past,
    /// Any empty square of the walling region (isolation).
    Static,
}

/// One piece type of a variant.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// The key that declared it: a built-in name (`knight`, `king`) or `customPieceN`.
    pub slot: String,
    /// Its letter, upper case (White); Black uses the lower-case letter.
    pub letter: char,
    /// The XBetza of its moves, as written (Fairy-Stockfish dialect).
    pub betza: String,
    pub moves: PieceMoves,
    /// Royal: may not be left in check (the `king` slot).
    pub royal: bool,
}

impl PieceDef {
    pub fn is_pawn_slot(&self) -> bool {
        self.slot == "pawn"
    }
}

/// Bits of [`Variant::castling_wins`] for White; Black's are shifted left by two
/// (Fairy-Stockfish's `KQkq` order).
pub const CASTLING_WINS_KINGSIDE: u8 = 1;
pub const CASTLING_WINS_QUEENSIDE: u8 = 2;

/// A variant, frozen: everything the engine knows about the rules of a game.
#[derive(Clone, Debug)]
pub struct Variant {
    pub name: String,
    /// Where it was defined: file path (or `builtin:NAME.ini`) and line of its header.
    pub source: String,
    pub line: usize,
    pub parent: Option<String>,
    pub geometry: Geometry,
    pub pieces: Vec<PieceDef>,
    pub start_fen: String,
    /// File and line that set the start position.
    pub start_fen_origin: (String, usize),
    pub chess960: bool,
    /// Castling wins (`castlingWins`): the castlings that win, as bits
    /// [`CASTLING_WINS_KINGSIDE`] << 2·colour and [`CASTLING_WINS_QUEENSIDE`] << 2·colour.
    /// A side that castles one of its own wins; a side left with none of its own
    /// rights among them loses.
    pub castling_wins: u8,

    // XBoard and evaluation hints.
    pub variant_template: String,
    pub piece_to_char_table: Option<String>,
    pub pocket_size: Option<u32>,
    pub piece_value_mg: Vec<Option<i32>>,
    pub piece_value_eg: Vec<Option<i32>>,

    // Promotion.
    pub promotion_region: [SquareSet; 2],
    pub promotion_pawn_types: [TypeSet; 2],
    pub main_promotion_pawn_type: [Option<PieceType>; 2],
    pub promotion_piece_types: [TypeSet; 2],
    pub promoted_piece_type: Vec<Option<PieceType>>,
    pub promotion_limit: Vec<u32>,
    pub mandatory_pawn_promotion: bool,
    pub mandatory_piece_promotion: bool,
    pub piece_promotion_on_capture: bool,
    pub immobility_illegal: bool,

    // Pawn moves.
    pub double_step: bool,
    pub double_step_region: [SquareSet; 2],
    pub triple_step_region: [SquareSet; 2],
    pub en_passant_region: [SquareSet; 2],
    pub en_passant_types: [TypeSet; 2],
    pub n_move_rule_types: [TypeSet; 2],
    /// Relative rank (1-based) from which a `soldier` also moves sideways.
    pub soldier_promotion_rank: u8,

    // Castling.
    pub castling: bool,
    pub castling_dropped_piece: bool,
    pub castling_kingside_file: u8,
    pub castling_queenside_file: u8,
    /// Relative rank, 0-based.
    pub castling_rank: u8,
    pub castling_king_file: u8,
    pub castling_king_piece: [Option<PieceType>; 2],
    pub castling_rook_kingside_file: u8,
    pub castling_rook_queenside_file: u8,
    pub castling_rook_pieces: [TypeSet; 2],
    pub opposite_castling: bool,

    // Drops and hands.
    pub piece_drops: bool,
    pub captures_to_hand: bool,
    pub drop_loop: bool,
    pub first_rank_pawn_drops: bool,
    pub promotion_zone_pawn_drops: bool,
    pub drop_region: [SquareSet; 2],
    pub drop_promoted: bool,
    pub drop_no_doubled: Option<PieceType>,
    pub drop_no_doubled_count: u32,
    pub drop_checks: bool,
    pub shogi_pawn_drop_mate_illegal: bool,
    pub must_drop: bool,
    /// `None` = every type.
    pub must_drop_type: Option<PieceType>,
    pub drop_opposite_colored_bishop: bool,
    pub gating: bool,
    pub seirawan_gating: bool,

    // Movement restrictions.
    pub mobility_region: [Vec<Option<SquareSet>>; 2],
    pub flying_general: bool,
    /// A royal piece in check may move only to capture the one piece giving check
    /// (makpong).
    pub makpong_rule: bool,

    // Game end.
    pub checking: bool,
    pub must_capture: bool,
    pub checkmate_value: GameValue,
    /// Shatar's mating rules: a mate by knights alone does not count, and a mate
    /// counts only if the checks that led to it include a shak (a check by a knight,
    /// rook or bers); otherwise the game is drawn.
    pub shatar_mate_rule: bool,
    pub stalemate_value: GameValue,
    pub stalemate_piece_count: bool,
    pub n_move_rule: u32,
    /// The n-move rule counted as the Asian (AXF) xiangqi rules count it: once the
    /// side that gave more checks since the count began has given ten, its further
    /// checks and the replies to them do not count
    /// ([`rules::n_move_rule_over`](crate::rules::n_move_rule_over)).
    pub n_move_rule_axf: bool,
    pub n_fold_rule: u32,
    pub n_fold_value: GameValue,
    pub n_fold_value_absolute: bool,
    pub perpetual_check_illegal: bool,
    /// A side that moves one piece back and forth four times in a row (not in
    /// check, the piece able to reach the other royal's region) loses
    /// ([`rules::repetition_result`](crate::rules::repetition_result)).
    pub move_repetition_illegal: bool,
    /// Applied to stalemate, n-move and repetition draws (not to a draw a rule
    /// gives as its own value, such as an extinction draw).
    pub material_counting: MaterialCounting,
    pub extinction_value: GameValue,
    pub extinction_claim: bool,
    pub extinction_pseudo_royal: bool,
    /// Duple check: a side whose pieces of the extinction types are all attacked is
    /// in check (spartan's two kings), however many of them there are.
    pub duple_check: bool,
    pub extinction_piece_types: TypeSet,
    /// True when `extinctionPieceTypes = *` (every type, including ones in hand only).
    pub extinction_all_types: bool,
    pub extinction_piece_count: u32,
    pub extinction_opponent_piece_count: u32,
    pub flag_piece: [Option<PieceType>; 2],
    pub flag_region: [SquareSet; 2],
    pub flag_piece_count: u32,
    pub flag_piece_blocked_win: bool,
    pub flag_move: bool,
    /// A flag piece wins only where no enemy piece attacks it (when exactly the
    /// required number of them is in the region).
    pub flag_piece_safe: bool,
    pub check_counting: bool,
    pub blast_on_capture: bool,
    pub blast_immune_types: TypeSet,
    pub mutually_immune_types: TypeSet,
    pub pass: [bool; 2],
    pub pass_on_stalemate: [bool; 2],

    // Connect-N wins, enclosing drops and flipping.
    pub connect: ConnectRules,
    // Piece demotion, Cambodian first moves, counting rules.
    /// A promoted piece may turn back into its original type by a move, under the
    /// same conditions as a piece promotion (kyotoshogi).
    pub piece_demotion: bool,
    /// Cambodian chess: a king on its gate square (from the FEN's gating field) may
    /// leap like a knight to the next rank forward, and a met (`fers`) on its gate
    /// two squares straight forward, onto empty squares and not out of check; a
    /// rook that moves into line with the enemy king takes away the king's leap.
    pub cambodian_moves: bool,
    pub counting_rule: CountingRule,
    // Janggi and sittuyin rules.
    /// Squares on the marked diagonals (janggi's palace lines): from one of them
    /// the rook, advisor (wazir), soldier, wazir-moving king and janggi cannon also
    /// move along the diagonals, to other marked squares.
    pub diagonal_lines: SquareSet,
    /// Bikjang: kings facing each other on an open line must be separated (or the
    /// side to move passes, which ends the game by material counting or as a draw).
    pub bikjang_rule: bool,
    /// Sittuyin promotion: a pawn (in the zone, or the last one anywhere) turns into
    /// a promotion type on its square or one that type steps to, without checking
    /// or attacking an enemy piece.
    pub sittuyin_promotion: bool,
    /// Sittuyin set-up: rooks are dropped on the first rank only.
    pub sittuyin_rook_drop: bool,
    // Walls and petrification (walls.rs in board/).
    pub walling_rule: WallingRule,
    /// Per side, where its wall squares may go.
    pub walling_region: [SquareSet; 2],
    /// A side either moves or places a wall (with a pass), not both.
    pub wall_or_move: bool,
    /// A capturing piece of these types turns into a wall square.
    pub petrify_on_capture_types: TypeSet,
    /// The pieces a blast destroys turn into wall squares too.
    pub petrify_blast_pieces: bool,

    /// Evaluation weights from the variant's weights file (or its parent's, when
    /// the child plays with the same pieces); `None`: derived from the pieces.
    pub weights: Option<Arc<WeightsFile>>,
    /// The net named by the section's `nnue` key (not inherited), where it has one.
    pub net: Option<NetKey>,
}

/// A variant's `nnue = FILE` key: the file as written, the path it stands for
/// (relative to the variants file's folder), and where the key is, for messages.
/// The net is read by whoever uses it (the protocols, `menagerie check`): the
/// variant loads whether or not the net fits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetKey {
    pub path: std::path::PathBuf,
    pub value: String,
    pub file: String,
    pub line: usize,
}

impl Variant {
    /// A digest of the game this variant plays: every rule, piece and the start
    /// position, but not its names, where it was defined, how it is shown, the
    /// evaluation's own settings (piece values, weights, net) nor whether the back
    /// rank is shuffled (chess960 plays the game of its start position). Two
    /// variants with the same digest are one game under two names: a net made for
    /// one serves the other. (Computed from the frozen definition's `Debug` text,
    /// which holds no unordered collection; a digest is compared within one run
    /// only, never stored.)
    pub fn rules_digest(&self) -> u64 {
        let mut game = self.clone();
        game.name.clear();
        game.source.clear();
        game.line = 0;
        game.parent = None;
        game.start_fen_origin = Default::default();
        game.chess960 = false;
        game.variant_template.clear();
        game.piece_to_char_table = None;
        game.piece_value_mg.clear();
        game.piece_value_eg.clear();
        game.weights = None;
        game.net = None;
        format!("{game:?}")
            .bytes()
            .fold(0x5EED, |h, b| crate::types::absorb(h, b as u64))
    }

    /// Compiled into the binary (not from a user's file).
    pub fn is_builtin(&self) -> bool {
        self.source.starts_with(BUILTIN_SOURCE)
    }
    pub fn num_types(&self) -> usize {
        self.pieces.len()
    }
    /// The piece type written with `letter` (either case).
    pub fn type_of_letter(&self, letter: char) -> Option<PieceType> {
        let up = letter.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.letter == up)
            .map(|i| i as PieceType)
    }
    pub fn letter(&self, pt: PieceType, color: Color) -> char {
        let l = self.pieces[pt as usize].letter;
        match color {
            Color::White => l,
            Color::Black => l.to_ascii_lowercase(),
        }
    }
    pub fn royal_types(&self) -> TypeSet {
        self.pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.royal)
            .fold(0, |acc, (i, _)| acc | 1 << i)
    }
    pub fn type_by_slot(&self, slot: &str) -> Option<PieceType> {
        self.pieces
            .iter()
            .position(|p| p.slot == slot)
            .map(|i| i as PieceType)
    }
    /// Every type as a set.
    pub fn all_types(&self) -> TypeSet {
        if self.pieces.len() >= 64 {
            u64::MAX
        } else {
            (1u64 << self.pieces.len()) - 1
        }
    }
    /// A piece in hand is demoted on capture unless drop loop is on.
    pub fn has_hands(&self) -> bool {
        self.piece_drops || self.captures_to_hand || self.gating
    }
}

/// An error while loading variant files: names file:line, the variant, the key and
/// the value, and says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    pub line: usize,
    pub variant: String,
    pub key: String,
    pub value: String,
    pub reason: String,
}

impl LoadError {
    pub fn new(
        file: &str,
        line: usize,
        variant: &str,
        key: &str,
        value: &str,
        reason: &str,
    ) -> LoadError {
        LoadError {
            file: file.to_string(),
            line,
            variant: variant.to_string(),
            key: key.to_string(),
            value: value.to_string(),
            reason: reason.to_string(),
        }
    }
    pub fn syntax(file: &str, line: usize, text: &str, reason: &str) -> LoadError {
        LoadError::new(file, line, "", text, "", reason)
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Line 0 is the file as a whole (it could not be read).
        if self.line == 0 {
            write!(f, "{}: ", self.file)?;
        } else {
            write!(f, "{}:{}: ", self.file, self.line)?;
        }
        if !self.variant.is_empty() {
            write!(f, "[{}] ", self.variant)?;
        }
        if !self.key.is_empty() {
            if self.value.is_empty() {
                write!(f, "{}: ", self.key)?;
            } else {
                write!(f, "{} = {}: ", self.key, self.value)?;
            }
        }
        write!(f, "{}", self.reason)
    }
}

impl std::error::Error for LoadError {}
