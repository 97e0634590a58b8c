//! Evaluation weights as data: the vocabulary of a weights file and its reader.
//!
//! A weights file belongs to one variant (`variants/weights/NAME.txt` for the
//! built-in ones, `weights/NAME.txt` beside a user's variant file). Each line sets
//! one weight of the evaluation:
//!
//! ```text
//! # comment
//! tempo = 18 9            a term of the whole position: middlegame, endgame
//! value N = 310 295       a term of one piece type (its letter): middlegame, endgame
//! attacker N = 40         a king-danger term: one number (danger units)
//! square N c3 = 12 -4     a piece-square term: the piece on a square, White's view
//! ```
//!
//! A piece-square term is a middlegame and an endgame value for a piece of the type
//! on the square (Black's on the square with the ranks flipped). Tables are
//! symmetric left to right: a square of the right half sets its mirror image in
//! the left half (on a chess board, `square N f3` is `square N c3`).
//!
//! Terms marked *danger* add up to the king-danger units of a side, which the
//! evaluation turns into a penalty (quadratic in the middlegame); every other term
//! is a middlegame and an endgame value in centipawns per unit of its feature, but
//! those set by hand rather than fitted (`lazy_margin`, the `scale_*` terms: see
//! [`GlobalTerm::is_fixed`]), whose numbers their own documentation describes.
//! What each term measures is the evaluation's business (`eval`); this layer
//! knows only the names, reads the numbers and says where a file is wrong. A term
//! the file leaves out keeps the value the evaluation derives from the pieces.

use super::{LoadError, Variant};
use crate::types::{Geometry, RankNumbering};

/// What the two numbers of most terms are.
const MG_EG: &str = "middlegame, endgame";

/// The name of the piece-square term.
const SQUARE_TERM: &str = "square";

/// The cells of a piece-square table on a board: one per square of the left half
/// (middle file included).
pub fn square_cells(g: &Geometry) -> usize {
    (g.files as usize).div_ceil(2) * g.ranks as usize
}

/// The cell of a square seen from White: its file folded onto the left half.
pub fn square_cell(g: &Geometry, file: u8, rank: u8) -> usize {
    let half = (g.files as usize).div_ceil(2);
    let folded = file.min(g.files - 1 - file) as usize;
    rank as usize * half + folded
}

/// A term of one piece type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceTerm {
    /// Material on the board.
    Value,
    /// Material in hand.
    Hand,
    /// Per square the piece can move to, beyond what the type typically has.
    Mobility,
    /// Per square the piece can move to that no enemy pawn attacks.
    SafeMobility,
    /// By the square root of the squares the piece can move to (with `mobility`, a
    /// curve: the first squares count most, a piece with none is all but trapped).
    MobilityRoot,
    /// By the piece's relative rank, 0 on its first rank to 1 on the last.
    Advance,
    /// By the square of the relative rank.
    Advance2,
    /// By how central its file is (0 on an edge file, 1 in the middle).
    Centre,
    /// By how many squares the piece reaches from its square on an empty board,
    /// against its average (in pawns of estimated value).
    Reach,
    /// By its closeness to the enemy royal piece (1 next to it, 0 across the board).
    Proximity,
    /// Once for two or more pieces of the type on the board (a bishop pair).
    Pair,
    /// On a file without pawns (variants with pawns).
    OpenFile,
    /// On a file with enemy pawns only.
    SemiOpenFile,
    /// On a square in the enemy half that an own pawn protects and no enemy pawn
    /// can ever attack.
    Outpost,
    /// Right behind an own pawn (on the square it advanced from).
    BehindPawn,
    /// Per piece of the type attacked by a safe enemy pawn (one not attacked, or
    /// defended): the pawn's bonus, by its victim's type.
    ThreatByPawn,
    /// Per piece of the type that the enemy attacks and that is weak: no pawn of
    /// its own defends it, and it is not defended twice against a single attack.
    Threat,
    /// Per own pawn on a square of the piece's colour (pieces that keep to the
    /// squares of one colour, like a bishop; 0 for the others).
    SameColourPawns,
    /// Danger: the piece attacks a square next to the enemy royal piece.
    Attacker,
    /// Danger: a piece of the type can give a safe check by moving.
    Check,
    /// Danger: a piece of the type in hand can give a safe check by a drop.
    DropCheck,
    /// Danger: per piece of the type in hand (at most two) that can be dropped next
    /// to the enemy royal piece.
    HandDanger,
    /// Danger (usually negative): per own piece of the type next to the royal piece.
    Defender,
    /// Danger: the enemy has a piece of the type on the board (the attacker
    /// that matters most, a chess queen, makes every other attack worse).
    Presence,
}

/// A term of the whole position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalTerm {
    /// For the side to move.
    Tempo,
    /// Per pawn with another of its side on its file.
    Doubled,
    /// Per pawn with no pawn of its side on a neighbouring file.
    Isolated,
    /// Per pawn protected by a pawn or beside one.
    Connected,
    /// Per passed pawn, by its relative rank (0..1).
    Passed,
    /// Per passed pawn, by the square of its relative rank.
    Passed2,
    /// Per enemy piece attacked and not defended, or (not a pawn, where the
    /// variant has pawns) attacked twice, defended once and by no pawn: by its
    /// estimated value in pawns.
    Hanging,
    /// Per enemy piece attacked by a cheaper piece, by its estimated value in pawns.
    ThreatByLesser,
    /// Per own pawn on the royal piece's file or a neighbouring one, one or two
    /// ranks in front of it.
    Shelter,
    /// Per enemy pawn on the royal piece's file or a neighbouring one, one to three
    /// ranks in front of it.
    Storm,
    /// Per passed pawn whose square ahead is empty, by its relative rank (0..1).
    PassedFree,
    /// Per passed pawn, by its relative rank times the distance (at most 5) from
    /// its own royal piece to the square ahead of it.
    PassedOwnKing,
    /// The same with the enemy royal piece's distance.
    PassedEnemyKing,
    /// Per enemy piece (not royal, not a pawn) that a safe pawn push would attack.
    PawnPushThreat,
    /// Per square the enemy attacks, that we attack too and no enemy pawn holds:
    /// the enemy pieces' moves there are contested.
    Restricted,
    /// The distance from the royal piece to its nearest own pawn (at most 5).
    KingPawnDistance,
    /// Per pawn that has no own pawn beside or behind it on a neighbouring file
    /// and whose square ahead an enemy pawn attacks.
    Backward,
    /// Space: per square of the own camp's central files (all but two on each
    /// side, from the second rank up to the middle) that no own pawn occupies and
    /// no enemy pawn attacks, twice where an own pawn stands one or two squares
    /// ahead of it; times the square of the own pieces on the board less one, over
    /// 256.
    Space,
    /// Per square of the royal piece's flank (its file and two on each side, in
    /// its own half) that the enemy attacks, and again where it attacks twice.
    FlankAttacks,
    /// The royal piece stands on a flank without pawns.
    PawnlessFlank,
    /// Danger: per attack on a square next to the enemy royal piece.
    KingHits,
    /// Danger: per square next to the enemy royal piece that we attack and the
    /// enemy does not defend.
    KingWeak,
    /// Danger: per piece type that can check the royal piece, but only on squares
    /// the defender holds.
    KingUnsafeCheck,
    /// Danger: per piece type that has no safe check but can check on a square that
    /// only the royal piece holds, with a second attacker behind the checker (a
    /// dropped checker: with one supporter), where the royal piece cannot take back.
    KingWeakCheck,
    /// Danger: the flank attacks (see `flank_attacks`) squared, over 8.
    KingFlankAttacks,
    /// Danger: per square of the royal piece's flank that its side attacks.
    KingFlankDefense,
    /// Danger: the enemy's mobility less ours (squares reached, all pieces).
    KingMobility,
    /// Danger: a constant (usually negative: a few attacks are harmless).
    KingOffset,
    /// The endgame penalty per danger unit, in 64ths of a centipawn.
    KingDangerEg,
    /// How far the terms after the evaluation's cheap part (material, squares, pawns)
    /// may move the score, in centipawns: beyond it from the search window, the cheap
    /// part is taken for the whole (lazy evaluation). The tuner measures it on its
    /// data; it is not fitted.
    LazyMargin,
    /// The endgame scale (64ths) is at most the first number plus the second per
    /// pawn of the side ahead: an endgame with few pawns is harder to win. Two
    /// numbers, but not a middlegame/endgame pair; not fitted (64 0: off).
    ScalePawns,
    /// The same when each side has one colour-bound piece (a bishop) and the two
    /// stand on squares of opposite colours; not fitted (64 0: off).
    ScaleOpposite,
    /// The endgame scale when those two are the only pieces but royals and pawns;
    /// not fitted (64: off).
    ScaleOppositeAlone,
}

impl PieceTerm {
    pub const ALL: [PieceTerm; 24] = [
        PieceTerm::Value,
        PieceTerm::Hand,
        PieceTerm::Mobility,
        PieceTerm::SafeMobility,
        PieceTerm::MobilityRoot,
        PieceTerm::Advance,
        PieceTerm::Advance2,
        PieceTerm::Centre,
        PieceTerm::Reach,
        PieceTerm::Proximity,
        PieceTerm::Pair,
        PieceTerm::OpenFile,
        PieceTerm::SemiOpenFile,
        PieceTerm::Outpost,
        PieceTerm::BehindPawn,
        PieceTerm::ThreatByPawn,
        PieceTerm::Threat,
        PieceTerm::SameColourPawns,
        PieceTerm::Attacker,
        PieceTerm::Check,
        PieceTerm::DropCheck,
        PieceTerm::HandDanger,
        PieceTerm::Defender,
        PieceTerm::Presence,
    ];
    pub const COUNT: usize = PieceTerm::ALL.len();

    pub fn name(self) -> &'static str {
        match self {
            PieceTerm::Value => "value",
            PieceTerm::Hand => "hand",
            PieceTerm::Mobility => "mobility",
            PieceTerm::SafeMobility => "safe_mobility",
            PieceTerm::MobilityRoot => "mobility_root",
            PieceTerm::Advance => "advance",
            PieceTerm::Advance2 => "advance2",
            PieceTerm::Centre => "centre",
            PieceTerm::Reach => "reach",
            PieceTerm::Proximity => "proximity",
            PieceTerm::Pair => "pair",
            PieceTerm::OpenFile => "open_file",
            PieceTerm::SemiOpenFile => "semi_open_file",
            PieceTerm::Outpost => "outpost",
            PieceTerm::BehindPawn => "behind_pawn",
            PieceTerm::ThreatByPawn => "threat_by_pawn",
            PieceTerm::Threat => "threat",
            PieceTerm::SameColourPawns => "same_colour_pawns",
            PieceTerm::Attacker => "attacker",
            PieceTerm::Check => "check",
            PieceTerm::DropCheck => "drop_check",
            PieceTerm::HandDanger => "hand_danger",
            PieceTerm::Defender => "defender",
            PieceTerm::Presence => "presence",
        }
    }

    /// Danger terms are one number; the others a middlegame and an endgame value.
    pub fn is_danger(self) -> bool {
        matches!(
            self,
            PieceTerm::Attacker
                | PieceTerm::Check
                | PieceTerm::DropCheck
                | PieceTerm::HandDanger
                | PieceTerm::Defender
                | PieceTerm::Presence
        )
    }
}

impl GlobalTerm {
    pub const ALL: [GlobalTerm; 33] = [
        GlobalTerm::Tempo,
        GlobalTerm::Doubled,
        GlobalTerm::Isolated,
        GlobalTerm::Connected,
        GlobalTerm::Passed,
        GlobalTerm::Passed2,
        GlobalTerm::Hanging,
        GlobalTerm::ThreatByLesser,
        GlobalTerm::Shelter,
        GlobalTerm::Storm,
        GlobalTerm::PassedFree,
        GlobalTerm::PassedOwnKing,
        GlobalTerm::PassedEnemyKing,
        GlobalTerm::PawnPushThreat,
        GlobalTerm::Restricted,
        GlobalTerm::KingPawnDistance,
        GlobalTerm::Backward,
        GlobalTerm::Space,
        GlobalTerm::FlankAttacks,
        GlobalTerm::PawnlessFlank,
        GlobalTerm::KingHits,
        GlobalTerm::KingWeak,
        GlobalTerm::KingUnsafeCheck,
        GlobalTerm::KingWeakCheck,
        GlobalTerm::KingFlankAttacks,
        GlobalTerm::KingFlankDefense,
        GlobalTerm::KingMobility,
        GlobalTerm::KingOffset,
        GlobalTerm::KingDangerEg,
        GlobalTerm::LazyMargin,
        GlobalTerm::ScalePawns,
        GlobalTerm::ScaleOpposite,
        GlobalTerm::ScaleOppositeAlone,
    ];
    pub const COUNT: usize = GlobalTerm::ALL.len();

    pub fn name(self) -> &'static str {
        match self {
            GlobalTerm::Tempo => "tempo",
            GlobalTerm::Doubled => "doubled",
            GlobalTerm::Isolated => "isolated",
            GlobalTerm::Connected => "connected",
            GlobalTerm::Passed => "passed",
            GlobalTerm::Passed2 => "passed2",
            GlobalTerm::Hanging => "hanging",
            GlobalTerm::ThreatByLesser => "threat_by_lesser",
            GlobalTerm::Shelter => "shelter",
            GlobalTerm::Storm => "storm",
            GlobalTerm::PassedFree => "passed_free",
            GlobalTerm::PassedOwnKing => "passed_own_king",
            GlobalTerm::PassedEnemyKing => "passed_enemy_king",
            GlobalTerm::PawnPushThreat => "pawn_push_threat",
            GlobalTerm::Restricted => "restricted",
            GlobalTerm::KingPawnDistance => "king_pawn_distance",
            GlobalTerm::Backward => "backward",
            GlobalTerm::Space => "space",
            GlobalTerm::FlankAttacks => "flank_attacks",
            GlobalTerm::PawnlessFlank => "pawnless_flank",
            GlobalTerm::KingHits => "king_hits",
            GlobalTerm::KingWeak => "king_weak",
            GlobalTerm::KingUnsafeCheck => "king_unsafe_check",
            GlobalTerm::KingWeakCheck => "king_weak_check",
            GlobalTerm::KingFlankAttacks => "king_flank_attacks",
            GlobalTerm::KingFlankDefense => "king_flank_defense",
            GlobalTerm::KingMobility => "king_mobility",
            GlobalTerm::KingOffset => "king_offset",
            GlobalTerm::KingDangerEg => "king_danger_eg",
            GlobalTerm::LazyMargin => "lazy_margin",
            GlobalTerm::ScalePawns => "scale_pawns",
            GlobalTerm::ScaleOpposite => "scale_opposite",
            GlobalTerm::ScaleOppositeAlone => "scale_opposite_alone",
        }
    }

    /// One number (danger units, or a scale) rather than a middlegame/endgame pair.
    pub fn is_single(self) -> bool {
        matches!(
            self,
            GlobalTerm::KingHits
                | GlobalTerm::KingWeak
                | GlobalTerm::KingUnsafeCheck
                | GlobalTerm::KingWeakCheck
                | GlobalTerm::KingFlankAttacks
                | GlobalTerm::KingFlankDefense
                | GlobalTerm::KingMobility
                | GlobalTerm::KingOffset
                | GlobalTerm::KingDangerEg
                | GlobalTerm::LazyMargin
                | GlobalTerm::ScaleOppositeAlone
        )
    }

    /// Set by hand or measured, never fitted: the tuner leaves it as it is.
    pub fn is_fixed(self) -> bool {
        matches!(
            self,
            GlobalTerm::LazyMargin
                | GlobalTerm::ScalePawns
                | GlobalTerm::ScaleOpposite
                | GlobalTerm::ScaleOppositeAlone
        )
    }
}

/// Which weight a line sets.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Piece(usize, usize),
    Global(usize),
    /// Type, cell.
    Square(usize, usize),
}

/// The weights a file gives: `None` where it leaves a term out. Single-number
/// terms keep their number in both places of the pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Where the weights come from (a path, or `builtin:weights/NAME.txt`).
    pub file: String,
    /// Per piece type, per [`PieceTerm`].
    pub piece: Vec<[Option<[f64; 2]>; PieceTerm::COUNT]>,
    /// Per [`GlobalTerm`].
    pub global: [Option<[f64; 2]>; GlobalTerm::COUNT],
    /// Per piece type, per cell of its piece-square table (see [`square_cell`]).
    pub square: Vec<Vec<Option<[f64; 2]>>>,
}

impl Weights {
    /// No weight given.
    pub fn empty(file: &str, num_types: usize, cells: usize) -> Weights {
        Weights {
            file: file.to_string(),
            piece: vec![[None; PieceTerm::COUNT]; num_types],
            global: [None; GlobalTerm::COUNT],
            square: vec![vec![None; cells]; num_types],
        }
    }

    /// Read a weights file for `variant`. Every bad line is one error (file:line,
    /// the key, the value, why); the lines that are right still count.
    pub fn parse(file: &str, text: &str, variant: &Variant) -> (Weights, Vec<LoadError>) {
        let g = &variant.geometry;
        let mut w = Weights::empty(file, variant.num_types(), square_cells(g));
        let mut errors = Vec::new();
        let mut seen: Vec<(Slot, usize)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let raw = if i == 0 {
                raw.trim_start_matches('\u{feff}')
            } else {
                raw
            };
            let text = raw.split('#').next().unwrap_or("").trim();
            if text.is_empty() {
                continue;
            }
            let err = |key: &str, value: &str, reason: &str| {
                LoadError::new(file, line, &variant.name, key, value, reason)
            };
            let Some((key, value)) = text.split_once('=') else {
                errors.push(LoadError::syntax(
                    file,
                    line,
                    text,
                    "expected 'term = numbers' or 'term LETTER = numbers'",
                ));
                continue;
            };
            let (key, value) = (key.trim(), value.trim());
            let mut words = key.split_whitespace();
            let name = words.next().unwrap_or("");
            let letter = words.next();
            let square = if name == SQUARE_TERM {
                words.next()
            } else {
                None
            };
            if words.next().is_some() {
                errors.push(err(
                    key,
                    value,
                    "a key is a term name and at most one piece letter (a square after it for 'square')",
                ));
                continue;
            }
            let numbers: Option<Vec<f64>> = value
                .split_whitespace()
                .map(|x| {
                    x.parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite() && x.abs() < 1e6)
                })
                .collect();
            let Some(numbers) = numbers else {
                errors.push(err(
                    key,
                    value,
                    "the values must be numbers (like 12, -3.5)",
                ));
                continue;
            };
            // `two` says what a pair of numbers is, for the error.
            let pair = |single: bool, two: &str| -> Result<[f64; 2], String> {
                match (single, numbers.as_slice()) {
                    (true, [x]) => Ok([*x, *x]),
                    (false, [m, e]) => Ok([*m, *e]),
                    (true, _) => Err("this term takes one number".to_string()),
                    (false, _) => Err(format!("this term takes two numbers ({two})")),
                }
            };
            let letter_type = |letter: Option<&str>| -> Result<usize, String> {
                let mut chars = letter.unwrap_or("").chars();
                match (chars.next(), chars.next()) {
                    (None, _) => Err("a piece term needs a piece letter".to_string()),
                    (Some(c), None) => variant
                        .type_of_letter(c)
                        .map(|t| t as usize)
                        .ok_or_else(|| "no piece of the variant has that letter".to_string()),
                    _ => Err("a piece letter is one character".to_string()),
                }
            };
            // Which weight the line sets, and its numbers.
            let target = if name == SQUARE_TERM {
                letter_type(letter).and_then(|t| {
                    let sq = square
                        .and_then(|s| g.parse_square(s, RankNumbering::FromOne))
                        .ok_or_else(|| {
                            "a piece-square term is 'square LETTER SQUARE', e.g. 'square N c3'"
                                .to_string()
                        })?;
                    let cell = square_cell(g, g.file(sq), g.rank(sq));
                    pair(false, MG_EG).map(|p| (Slot::Square(t, cell), p))
                })
            } else if let Some(term) = PieceTerm::ALL.iter().find(|t| t.name() == name) {
                letter_type(letter).and_then(|t| {
                    pair(term.is_danger(), MG_EG).map(|p| (Slot::Piece(t, *term as usize), p))
                })
            } else if let Some(term) = GlobalTerm::ALL.iter().find(|t| t.name() == name) {
                if letter.is_some() {
                    Err("this term takes no piece letter".to_string())
                } else {
                    let two = match term {
                        GlobalTerm::ScalePawns | GlobalTerm::ScaleOpposite => {
                            "a scale in 64ths, and per pawn"
                        }
                        _ => MG_EG,
                    };
                    pair(term.is_single(), two).map(|p| (Slot::Global(*term as usize), p))
                }
            } else {
                Err("unknown term".to_string())
            };
            let (slot, numbers) = match target {
                Ok(x) => x,
                Err(reason) => {
                    errors.push(err(key, value, &reason));
                    continue;
                }
            };
            if let Some((_, first)) = seen.iter().find(|(s, _)| *s == slot) {
                errors.push(err(
                    key,
                    value,
                    &format!("set twice (first on line {first})"),
                ));
                continue;
            }
            seen.push((slot, line));
            match slot {
                Slot::Piece(t, k) => w.piece[t][k] = Some(numbers),
                Slot::Global(k) => w.global[k] = Some(numbers),
                Slot::Square(t, cell) => w.square[t][cell] = Some(numbers),
            }
        }
        (w, errors)
    }

    /// The file text for these weights (every term given), after `header` lines
    /// (written as comments).
    pub fn to_text(&self, variant: &Variant, header: &[String]) -> String {
        let mut out = String::new();
        for h in header {
            if h.is_empty() {
                out.push_str("#\n");
            } else {
                out.push_str(&format!("# {h}\n"));
            }
        }
        out.push('\n');
        for term in GlobalTerm::ALL {
            if let Some([m, e]) = self.global[term as usize] {
                if term.is_single() {
                    out.push_str(&format!("{} = {}\n", term.name(), number(m)));
                } else {
                    out.push_str(&format!("{} = {} {}\n", term.name(), number(m), number(e)));
                }
            }
        }
        for term in PieceTerm::ALL {
            out.push('\n');
            for (t, p) in self.piece.iter().enumerate() {
                if let Some([m, e]) = p[term as usize] {
                    let letter = variant.pieces[t].letter;
                    if term.is_danger() {
                        out.push_str(&format!("{} {letter} = {}\n", term.name(), number(m)));
                    } else {
                        out.push_str(&format!(
                            "{} {letter} = {} {}\n",
                            term.name(),
                            number(m),
                            number(e)
                        ));
                    }
                }
            }
        }
        let g = &variant.geometry;
        for (t, cells) in self.square.iter().enumerate() {
            if cells.iter().all(Option::is_none) {
                continue;
            }
            out.push('\n');
            let letter = variant.pieces[t].letter;
            for rank in 0..g.ranks {
                for file in 0..g.files.div_ceil(2) {
                    if let Some([m, e]) = cells[square_cell(g, file, rank)] {
                        let name = g.name(g.square(file, rank), RankNumbering::FromOne);
                        out.push_str(&format!(
                            "{SQUARE_TERM} {letter} {name} = {} {}\n",
                            number(m),
                            number(e)
                        ));
                    }
                }
            }
        }
        out
    }
}

/// A weight as written: whole numbers without a point, others to a tenth.
fn number(x: f64) -> String {
    let tenth = (x * 10.0).round() / 10.0;
    if tenth == tenth.trunc() {
        format!("{}", tenth as i64)
    } else {
        format!("{tenth:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::VariantSet;

    fn chess() -> std::sync::Arc<Variant> {
        // (The layers above check variants; this one only reads them.)
        let set = VariantSet::builtin(|_| Ok(()));
        set.get("chess").unwrap()
    }

    #[test]
    fn a_good_file_sets_the_weights_it_names() {
        let v = chess();
        let text = "# a comment\ntempo = 18 9\nvalue N = 310 295  # knight\nattacker Q = 40\n\n";
        let (w, errors) = Weights::parse("w.txt", text, &v);
        assert!(errors.is_empty(), "{errors:?}");
        let n = v.type_of_letter('n').unwrap() as usize;
        let q = v.type_of_letter('q').unwrap() as usize;
        assert_eq!(w.global[GlobalTerm::Tempo as usize], Some([18.0, 9.0]));
        assert_eq!(w.piece[n][PieceTerm::Value as usize], Some([310.0, 295.0]));
        assert_eq!(w.piece[q][PieceTerm::Attacker as usize], Some([40.0, 40.0]));
        assert_eq!(w.piece[n][PieceTerm::Mobility as usize], None);
        // What the file says, written back, reads the same.
        let (again, errors) = Weights::parse("w.txt", &w.to_text(&v, &["h".to_string()]), &v);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(again, w);
    }

    #[test]
    fn every_bad_line_is_an_error_with_file_and_line() {
        let v = chess();
        let text = "\
tempo = 18 9
tempo 18
value Z = 100 100
value N = 300
attacker N = 1 2
bishop_pair = 30 30
tempo = 1 1
value N = abc 3
value = 1 2
value N B = 1 2
tempo N = 1 2
value N = inf 1
mobility B = 4 3
scale_pawns = 36
";
        let (w, errors) = Weights::parse("my/weights.txt", text, &v);
        let got: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        let want = [
            "my/weights.txt:2: tempo 18: expected 'term = numbers' or 'term LETTER = numbers'",
            "my/weights.txt:3: [chess] value Z = 100 100: no piece of the variant has that letter",
            "my/weights.txt:4: [chess] value N = 300: this term takes two numbers (middlegame, endgame)",
            "my/weights.txt:5: [chess] attacker N = 1 2: this term takes one number",
            "my/weights.txt:6: [chess] bishop_pair = 30 30: unknown term",
            "my/weights.txt:7: [chess] tempo = 1 1: set twice (first on line 1)",
            "my/weights.txt:8: [chess] value N = abc 3: the values must be numbers (like 12, -3.5)",
            "my/weights.txt:9: [chess] value = 1 2: a piece term needs a piece letter",
            "my/weights.txt:10: [chess] value N B = 1 2: a key is a term name and at most one piece letter (a square after it for 'square')",
            "my/weights.txt:11: [chess] tempo N = 1 2: this term takes no piece letter",
            "my/weights.txt:12: [chess] value N = inf 1: the values must be numbers (like 12, -3.5)",
            "my/weights.txt:14: [chess] scale_pawns = 36: this term takes two numbers (a scale in 64ths, and per pawn)",
        ];
        assert_eq!(got, want);
        // The good lines still count.
        let b = v.type_of_letter('b').unwrap() as usize;
        assert_eq!(w.global[GlobalTerm::Tempo as usize], Some([18.0, 9.0]));
        assert_eq!(w.piece[b][PieceTerm::Mobility as usize], Some([4.0, 3.0]));
    }
    #[test]
    fn a_square_term_sets_one_cell_of_a_left_right_symmetric_table() {
        let v = chess();
        let g = &v.geometry;
        let text = "square N c3 = 12 -4\nsquare P h2 = -3 1\nsquare N f3 = 1 1\nsquare N z9 = 1 1\nsquare N = 1 1\nsquare N e4 = 5\n";
        let (w, errors) = Weights::parse("w.txt", text, &v);
        let got: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        let want = [
            "w.txt:3: [chess] square N f3 = 1 1: set twice (first on line 1)",
            "w.txt:4: [chess] square N z9 = 1 1: a piece-square term is 'square LETTER SQUARE', e.g. 'square N c3'",
            "w.txt:5: [chess] square N = 1 1: a piece-square term is 'square LETTER SQUARE', e.g. 'square N c3'",
            "w.txt:6: [chess] square N e4 = 5: this term takes two numbers (middlegame, endgame)",
        ];
        assert_eq!(got, want);
        assert_eq!(square_cells(g), 32);
        let n = v.type_of_letter('n').unwrap() as usize;
        let p = v.type_of_letter('p').unwrap() as usize;
        // c3 and f3 share a cell; h2 is a2's.
        assert_eq!(square_cell(g, 2, 2), square_cell(g, 5, 2));
        assert_eq!(w.square[n][square_cell(g, 2, 2)], Some([12.0, -4.0]));
        assert_eq!(w.square[p][square_cell(g, 0, 1)], Some([-3.0, 1.0]));
        assert_eq!(w.square[n].iter().flatten().count(), 1);
        // Written back (left half only), it reads the same.
        let text = w.to_text(&v, &[]);
        assert!(text.contains("square N c3 = 12 -4\n") && text.contains("square P a2 = -3 1\n"));
        let (again, errors) = Weights::parse("w.txt", &text, &v);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(again, w);
    }

    /// tools/scale_weights.py keeps its own list of the king-danger terms (`--danger`):
    /// it must name exactly the terms summed into the danger.
    #[test]
    fn the_scaling_tool_names_every_danger_term() {
        let tool = include_str!("../../tools/scale_weights.py");
        let list = tool
            .split("DANGER = (")
            .nth(1)
            .and_then(|rest| rest.split(").split()").next())
            .expect("the tool's DANGER list");
        let mut named: Vec<&str> = list
            .split('"')
            .skip(1)
            .step_by(2)
            .flat_map(str::split_whitespace)
            .collect();
        let mut danger: Vec<&str> = PieceTerm::ALL
            .iter()
            .filter(|t| t.is_danger())
            .map(|t| t.name())
            .chain(
                GlobalTerm::ALL
                    .iter()
                    .filter(|t| {
                        t.is_single() && !t.is_fixed() && !matches!(t, GlobalTerm::KingDangerEg)
                    })
                    .map(|t| t.name()),
            )
            .collect();
        named.sort_unstable();
        danger.sort_unstable();
        assert_eq!(named, danger);
    }
}
