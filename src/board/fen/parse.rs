//! Reading FEN text into a [`Setup`]: the text's fields checked one by one against the
//! variant (board size, piece letters), nothing about whether the position can be
//! played (that is [`Position::from_setup`](crate::board::Position::from_setup)).

use crate::board::{PROMOTED_UNKNOWN, Setup};
use crate::types::{Color, Geometry, MAX_PIECE_TYPES, Piece, RankNumbering, Square};
use crate::variant::Variant;

/// Why a FEN does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    #[error("empty FEN")]
    Empty,
    #[error("the FEN has characters that are not ASCII")]
    NotAscii,
    #[error("holdings '[' without ']'")]
    UnclosedHoldings,
    #[error("unexpected text after the holdings")]
    TextAfterHoldings,
    #[error("the board has {expected} ranks but the FEN gives {found}")]
    RankCount { expected: u8, found: usize },
    #[error("bad empty-square count in rank {rank}")]
    EmptyCountTooLarge { rank: u32 },
    #[error("an empty-square count of 0")]
    EmptyCountZero,
    #[error("'+' at the end of a rank")]
    PlusAtEndOfRank,
    #[error("holes in the board ('*') need a free piece slot: {0} has {max} piece types", max = crate::types::MAX_PIECE_TYPES)]
    Holes(String),
    #[error("'{letter}' is not a piece of {variant}")]
    UnknownPiece { letter: char, variant: String },
    #[error("'{0}' has no promoted form")]
    NoPromotedForm(char),
    #[error("rank {rank} has more than {files} files")]
    RankTooLong { rank: u32, files: u8 },
    #[error("rank {rank} has {found} files instead of {files}")]
    RankLength { rank: u32, found: u32, files: u8 },
    #[error("'{letter}' in the holdings is not a piece of {variant}")]
    UnknownHandPiece { letter: char, variant: String },
    #[error("too many pieces in hand")]
    HandOverflow,
    #[error("side to move '{0}' is neither w nor b")]
    BadSide(String),
    #[error("bad castling field '{0}'")]
    BadCastling(String),
    #[error("bad en passant square '{0}'")]
    BadEnPassant(String),
    #[error("bad check counter '{0}'")]
    BadCheckCounter(String),
    #[error("bad {what} '{text}'")]
    BadNumber { what: &'static str, text: String },
    #[error("unexpected text '{0}' at the end")]
    TrailingText(String),
}

/// Empty-square counts above this are refused (no board is wider).
const MAX_EMPTY_RUN: u32 = 64;

/// Read a FEN for `variant`. Every problem is an error, never a panic.
pub fn parse(variant: &Variant, fen: &str) -> Result<Setup, SyntaxError> {
    let mut fields = Fields::new(fen);
    let placement = fields.next().ok_or(SyntaxError::Empty)?;
    if !placement.is_ascii() {
        return Err(SyntaxError::NotAscii);
    }
    let (board_text, hand_text) = split_placement(variant, placement)?;
    let mut setup = Setup::new(Color::White);
    setup.board = parse_board(variant, board_text)?;
    if let Some(h) = hand_text {
        setup.hands = parse_hands(variant, h)?;
    }
    setup.side = match fields.next() {
        None | Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(s) => return Err(SyntaxError::BadSide(s.to_string())),
    };
    let mut counting_limit = None;
    // Shogi-style FENs go straight to the move counters; Fairy-Stockfish also reads
    // check counts in place of the castling field ("w 7+7 0 1": no castling, no e.p.).
    if let Some(f) = fields.next_if(|f| !is_number(f) && !is_check_count(f)) {
        setup.castling = parse_castling(f)?;
        if let Some(f) = fields.next_if(|f| !is_number(f) && !f.contains('+')) {
            setup.ep = parse_ep(variant.geometry, f)?;
        } else if fields.counting_limit_ahead() {
            counting_limit = fields.number("counting limit")?;
        }
    }
    if let Some(f) = fields.next_if(is_check_count) {
        setup.checks_remaining = Some(parse_checks_remaining(f)?);
    }
    // Fairy-Stockfish writes the counting limit of the counting rules in place of
    // the en passant square once a count is on ("... w - 128 51 149"): three
    // numbers where two are expected (see above).
    if counting_limit.is_none() && fields.numbers_ahead() == 3 {
        counting_limit = fields.number("counting limit")?;
    }
    setup.counting_limit = counting_limit.unwrap_or(0);
    setup.rule50 = fields.number("halfmove clock")?.unwrap_or(0);
    setup.fullmove = fields.number("move number")?.unwrap_or(1).max(1);
    // Lichess-style check counter: +W+B checks given (three-check).
    if let Some(f) = fields.next_if(|f| f.starts_with('+') && f.split('+').count() == 3) {
        setup.checks_remaining = Some(parse_checks_given(f)?);
    }
    match fields.rest() {
        Some(rest) => Err(SyntaxError::TrailingText(rest)),
        None => Ok(setup),
    }
}

/// `W+B`: the checks each side still has to give (three-check).
fn is_check_count(field: &str) -> bool {
    field.split_once('+').is_some_and(|(a, _)| !a.is_empty())
}

/// The whitespace-separated fields of a FEN, read front to back.
struct Fields<'a> {
    fields: Vec<&'a str>,
    next: usize,
}

impl<'a> Fields<'a> {
    fn new(fen: &'a str) -> Fields<'a> {
        Fields {
            fields: fen.split_whitespace().collect(),
            next: 0,
        }
    }

    fn next(&mut self) -> Option<&'a str> {
        let f = self.fields.get(self.next).copied();
        self.next += f.is_some() as usize;
        f
    }

    /// The next field if it satisfies `pred`.
    fn next_if(&mut self, pred: impl Fn(&str) -> bool) -> Option<&'a str> {
        let f = self.fields.get(self.next).copied().filter(|f| pred(f));
        self.next += f.is_some() as usize;
        f
    }

    /// Is the next field a counting limit: a number followed by a check counter
    /// and the two move counters, or by the two counters alone?
    fn counting_limit_ahead(&self) -> bool {
        let rest = &self.fields[self.next..];
        match rest {
            [n, c, a, b] => is_number(n) && is_check_count(c) && is_number(a) && is_number(b),
            _ => self.numbers_ahead() == 3,
        }
    }

    /// How many of the fields left in a row are numbers.
    fn numbers_ahead(&self) -> usize {
        self.fields[self.next..]
            .iter()
            .take_while(|f| is_number(f))
            .count()
    }

    /// The next field as a number (None at the end of the text).
    fn number(&mut self, what: &'static str) -> Result<Option<u32>, SyntaxError> {
        self.next()
            .map(|f| {
                f.parse::<u32>().map_err(|_| SyntaxError::BadNumber {
                    what,
                    text: f.to_string(),
                })
            })
            .transpose()
    }

    /// The fields not read, if any.
    fn rest(&self) -> Option<String> {
        (self.next < self.fields.len()).then(|| self.fields[self.next..].join(" "))
    }
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_digit())
}

/// The board and the holdings text of the placement field: holdings in `[...]`, or
/// (BFEN) as one more rank after the last one.
fn split_placement<'a>(
    variant: &Variant,
    placement: &'a str,
) -> Result<(&'a str, Option<&'a str>), SyntaxError> {
    if let Some(i) = placement.find('[') {
        let rest = &placement[i + 1..];
        let close = rest.find(']').ok_or(SyntaxError::UnclosedHoldings)?;
        if close + 1 != rest.len() {
            return Err(SyntaxError::TextAfterHoldings);
        }
        return Ok((&placement[..i], Some(&rest[..close])));
    }
    let ranks_written = placement.split('/').count();
    if ranks_written == variant.geometry.ranks as usize + 1
        && variant.has_hands()
        && let Some(i) = placement.rfind('/')
    {
        return Ok((&placement[..i], Some(&placement[i + 1..])));
    }
    Ok((placement, None))
}

/// The pieces of the board field, top rank first in the text.
fn parse_board(variant: &Variant, text: &str) -> Result<Vec<(Square, Piece, u8)>, SyntaxError> {
    let g = variant.geometry;
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != g.ranks as usize {
        return Err(SyntaxError::RankCount {
            expected: g.ranks,
            found: rows.len(),
        });
    }
    let mut board = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        parse_rank(variant, g.ranks - 1 - i as u8, row.as_bytes(), &mut board)?;
    }
    Ok(board)
}

/// One rank: runs of empty squares as numbers, pieces as letters (`+X` promoted
/// shogi-style, `X~` promoted from an unknown piece).
fn parse_rank(
    variant: &Variant,
    rank: u8,
    b: &[u8],
    board: &mut Vec<(Square, Piece, u8)>,
) -> Result<(), SyntaxError> {
    let g = variant.geometry;
    let rank_number = rank as u32 + 1;
    let mut file: u32 = 0;
    let mut k = 0;
    while k < b.len() {
        if b[k].is_ascii_digit() {
            let mut n = 0u32;
            while k < b.len() && b[k].is_ascii_digit() {
                n = n * 10 + (b[k] - b'0') as u32;
                k += 1;
                if n > MAX_EMPTY_RUN {
                    return Err(SyntaxError::EmptyCountTooLarge { rank: rank_number });
                }
            }
            if n == 0 {
                return Err(SyntaxError::EmptyCountZero);
            }
            file += n;
            continue;
        }
        let promoted_prefix = b[k] == b'+';
        if promoted_prefix {
            k += 1;
            if k >= b.len() {
                return Err(SyntaxError::PlusAtEndOfRank);
            }
        }
        let letter = b[k] as char;
        k += 1;
        if letter == '*' {
            // A wall square (a hole); its piece value takes the last type slot.
            if variant.num_types() >= MAX_PIECE_TYPES || promoted_prefix {
                return Err(SyntaxError::Holes(variant.name.clone()));
            }
            if file >= g.files as u32 {
                return Err(SyntaxError::RankTooLong {
                    rank: rank_number,
                    files: g.files,
                });
            }
            board.push((g.square(file as u8, rank), Piece::WALL, 0));
            file += 1;
            continue;
        }
        let (color, t) =
            piece_of_letter(variant, letter).ok_or_else(|| SyntaxError::UnknownPiece {
                letter,
                variant: variant.name.clone(),
            })?;
        let (mut placed, mut promoted) = (t, 0u8);
        if promoted_prefix {
            placed = variant.promoted_piece_type[t as usize]
                .ok_or(SyntaxError::NoPromotedForm(letter))?;
            promoted = t + 1;
        }
        if k < b.len() && b[k] == b'~' {
            k += 1;
            if promoted == 0 {
                promoted = PROMOTED_UNKNOWN;
            }
        }
        if file >= g.files as u32 {
            return Err(SyntaxError::RankTooLong {
                rank: rank_number,
                files: g.files,
            });
        }
        board.push((
            g.square(file as u8, rank),
            Piece::new(color, placed),
            promoted,
        ));
        file += 1;
    }
    if file != g.files as u32 {
        return Err(SyntaxError::RankLength {
            rank: rank_number,
            found: file,
            files: g.files,
        });
    }
    Ok(())
}

/// A piece letter of the variant: upper case White, lower case Black.
fn piece_of_letter(variant: &Variant, letter: char) -> Option<(Color, u8)> {
    if !letter.is_ascii_alphabetic() {
        return None;
    }
    let t = variant.type_of_letter(letter)?;
    let color = if letter.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    Some((color, t))
}

/// Piece counts in hand from the holdings text (`-` for none).
fn parse_hands(variant: &Variant, text: &str) -> Result<[[u8; MAX_PIECE_TYPES]; 2], SyntaxError> {
    let mut hands = [[0u8; MAX_PIECE_TYPES]; 2];
    for letter in text.chars().filter(|&c| c != '-') {
        let (color, t) =
            piece_of_letter(variant, letter).ok_or_else(|| SyntaxError::UnknownHandPiece {
                letter,
                variant: variant.name.clone(),
            })?;
        let slot = &mut hands[color.index()][t as usize];
        *slot = slot.checked_add(1).ok_or(SyntaxError::HandOverflow)?;
    }
    Ok(hands)
}

/// Castling (and gating) letters; `-` for none.
fn parse_castling(field: &str) -> Result<Vec<char>, SyntaxError> {
    if field == "-" {
        return Ok(Vec::new());
    }
    if !field.chars().all(|c| c.is_ascii_alphabetic()) {
        return Err(SyntaxError::BadCastling(field.to_string()));
    }
    Ok(field.chars().collect())
}

/// En passant squares written one after the other; `-` for none.
fn parse_ep(g: Geometry, field: &str) -> Result<Vec<Square>, SyntaxError> {
    let mut ep = Vec::new();
    if field == "-" {
        return Ok(ep);
    }
    let mut rest = field;
    while !rest.is_empty() {
        let (sq, n) = g
            .parse_square_prefix(rest, RankNumbering::FromOne)
            .ok_or_else(|| SyntaxError::BadEnPassant(field.to_string()))?;
        ep.push(sq);
        rest = &rest[n..];
    }
    Ok(ep)
}

/// Fairy-Stockfish's check counter `W+B`: checks each side still has to give.
fn parse_checks_remaining(field: &str) -> Result<[u8; 2], SyntaxError> {
    let bad = || SyntaxError::BadCheckCounter(field.to_string());
    let (a, b) = field.split_once('+').ok_or_else(bad)?;
    let (Ok(a), Ok(b)) = (a.parse::<u8>(), b.parse::<u8>()) else {
        return Err(bad());
    };
    Ok([a.min(31), b.min(31)])
}

/// Lichess's check counter `+W+B`: checks each side has given (of three).
fn parse_checks_given(field: &str) -> Result<[u8; 2], SyntaxError> {
    let parts: Vec<&str> = field.split('+').collect();
    let (Ok(a), Ok(b)) = (parts[1].parse::<u8>(), parts[2].parse::<u8>()) else {
        return Err(SyntaxError::BadCheckCounter(field.to_string()));
    };
    Ok([3u8.saturating_sub(a), 3u8.saturating_sub(b)])
}
