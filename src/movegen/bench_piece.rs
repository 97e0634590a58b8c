//! A test bench for XBetza: the moves of one white piece on a scratch board with given
//! neighbours, written the way `betza-vectors.txt` writes them. Used by the vector
//! tests and by `menagerie moves` for variant designers.

use crate::board::{Position, Ruleset, check_variant};
use crate::types::{Color, Move, MoveKind, MoveList, RankNumbering, Square};
use crate::variant::{LoadError, VariantSet};
use crate::xbetza::Dialect;

/// Why the bench cannot set up a piece's scratch board: an argument that does not
/// read, or a bench variant the loader refuses.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("bad board size '{0}'")]
    BoardSize(String),
    #[error("board size out of range")]
    BoardOutOfRange,
    #[error("empty occupant")]
    EmptyOccupant,
    /// An occupant token that does not start with a piece letter.
    #[error("bad occupant '{0}'")]
    Occupant(String),
    /// Every letter but the king's is taken by the occupants.
    #[error("no free letter for the piece")]
    NoFreeLetter,
    #[error("bad square '{0}'")]
    Square(String),
    /// The variant the bench writes for the piece does not load (boxed: the error
    /// is large and rare).
    #[error(transparent)]
    Variant(Box<LoadError>),
    #[error("the bench variant did not load")]
    NotLoaded,
}

/// Targets of a piece described by `betza` standing on `square` of a `WxH` board.
/// `occupancy`: comma-separated `Xsq` tokens (upper case = own, lower case = enemy,
/// `K`/`k` are kings), `@moved` (the piece is not virgin), `@ep=SQ`; or `-`.
pub fn piece_targets(
    board: &str,
    square: &str,
    betza: &str,
    occupancy: &str,
    dialect: Dialect,
) -> Result<Vec<String>, BenchError> {
    let bench = bench_moves(board, square, betza, occupancy, dialect)?;
    let mut out: Vec<String> = Vec::new();
    for (_, text) in bench.moves {
        if !out.contains(&text) {
            out.push(text);
        }
    }
    out.sort();
    Ok(out)
}

/// The scratch board of [`piece_targets`] and the piece's pseudo-legal moves on it,
/// each with the text `piece_targets` writes for it (several moves may share a text:
/// promotions to different pieces). Move diagrams (`crate::diagram`) draw these, so
/// that a picture shows exactly the squares the text lists.
pub struct Bench {
    pub rules: std::sync::Arc<Ruleset>,
    pub position: Position,
    /// The piece's square.
    pub origin: Square,
    pub moves: Vec<(Move, String)>,
}

/// [`piece_targets`]' board, position and moves, unsorted and with duplicates.
pub fn bench_moves(
    board: &str,
    square: &str,
    betza: &str,
    occupancy: &str,
    dialect: Dialect,
) -> Result<Bench, BenchError> {
    let (w, h) = board
        .split_once('x')
        .and_then(|(a, b)| Some((a.trim().parse::<u8>().ok()?, b.trim().parse::<u8>().ok()?)))
        .ok_or_else(|| BenchError::BoardSize(board.to_string()))?;
    let mut occupants: Vec<(char, String)> = Vec::new();
    let mut moved = false;
    let mut ep: Option<String> = None;
    for tok in occupancy
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty() && *t != "-")
    {
        if tok == "@moved" {
            moved = true;
        } else if let Some(sq) = tok.strip_prefix("@ep=") {
            ep = Some(sq.to_string());
        } else {
            let mut cs = tok.chars();
            let letter = cs.next().ok_or(BenchError::EmptyOccupant)?;
            if !letter.is_ascii_alphabetic() {
                return Err(BenchError::Occupant(tok.to_string()));
            }
            occupants.push((letter, cs.as_str().to_string()));
        }
    }
    let castle = betza.contains('O');
    let used: Vec<char> = occupants
        .iter()
        .map(|(l, _)| l.to_ascii_lowercase())
        .collect();
    let mover = if castle {
        'k'
    } else {
        ('a'..='z')
            .rev()
            .find(|c| !used.contains(c) && *c != 'k')
            .ok_or(BenchError::NoFreeLetter)?
    };
    let dialect_name = match dialect {
        Dialect::XBoard => "xboard",
        Dialect::FairyStockfish => "fairy-stockfish",
    };
    let mut ini = format!(
        "[bench]\nmaxFile = {w}\nmaxRank = {h}\nbetzaDialect = {dialect_name}\ncastling = {castle}\ndoubleStepRegionWhite = {}\n",
        if moved {
            "-".to_string()
        } else {
            square.to_string()
        }
    );
    let mut n = 1;
    let mut letters: Vec<char> = Vec::new();
    for (l, _) in &occupants {
        let lower = l.to_ascii_lowercase();
        if letters.contains(&lower) {
            continue;
        }
        letters.push(lower);
        if lower == 'k' && !castle {
            ini.push_str("king = k\n");
        } else {
            ini.push_str(&format!("customPiece{n} = {lower}:\n"));
            n += 1;
        }
    }
    if castle {
        ini.push_str(&format!("king = k:{betza}\ncastlingRookPieces = r\n"));
    } else {
        ini.push_str(&format!("customPiece{n} = {mover}:{betza}\n"));
    }
    // Board text.
    let mut grid = vec![vec![None; w as usize]; h as usize];
    let mut set = VariantSet::empty(check_variant);
    let geometry = crate::types::Geometry::new(w, h).ok_or(BenchError::BoardOutOfRange)?;
    let at = |s: &str| {
        geometry
            .parse_square(s, RankNumbering::FromOne)
            .ok_or_else(|| BenchError::Square(s.to_string()))
    };
    let origin = at(square)?;
    grid[geometry.rank(origin) as usize][geometry.file(origin) as usize] =
        Some(mover.to_ascii_uppercase());
    let mut rook_files = String::new();
    for (l, s) in &occupants {
        let sq = at(s)?;
        grid[geometry.rank(sq) as usize][geometry.file(sq) as usize] = Some(*l);
        if castle && *l == 'R' && geometry.rank(sq) == 0 && !moved {
            rook_files.push((b'A' + geometry.file(sq)) as char);
        }
    }
    let mut fen = crate::board::fen::board_field(
        grid[..h as usize]
            .iter()
            .rev()
            .map(|row| row.iter().map(|c| c.map(String::from))),
    );
    let castling_field = if rook_files.is_empty() {
        "-".to_string()
    } else {
        rook_files
    };
    fen.push_str(&format!(
        " w {castling_field} {} 0 1",
        ep.as_deref().unwrap_or("-")
    ));
    ini.push_str(&format!("startFen = {fen}\n"));
    let report = set.load_str("bench", &ini);
    if let Some(e) = report.errors.into_iter().next() {
        return Err(BenchError::Variant(Box::new(e)));
    }
    let variant = set.get("bench").ok_or(BenchError::NotLoaded)?;
    let rules = Ruleset::new(variant);
    let pos = Position::start(&rules);
    let mut list = MoveList::new();
    rules.generate_pseudo(&pos, &mut list);
    let name = |s| geometry.name(s, RankNumbering::FromOne);
    let mut moves = Vec::new();
    for &m in list.iter() {
        if m.from() != origin || m.is_drop() {
            continue;
        }
        let text = match m.kind() {
            MoveKind::Pass => name(origin),
            MoveKind::Castling => name(
                rules
                    .castling_destinations(Color::White, m.from(), m.to())
                    .0,
            ),
            MoveKind::EnPassant => format!("x{}", name(m.to())),
            _ if m.has_extra() => {
                let mut legs = Vec::new();
                let mut cur = m.from();
                for (sq, captured) in m.extras() {
                    legs.push(format!(
                        "{}{}{}",
                        name(cur),
                        if captured { "x" } else { "" },
                        name(sq)
                    ));
                    cur = sq;
                }
                let last_capture = m.to() != m.from() && pos.piece_at(m.to()).is_some();
                legs.push(format!(
                    "{}{}{}",
                    name(cur),
                    if last_capture { "x" } else { "" },
                    name(m.to())
                ));
                legs.join(",")
            }
            _ => {
                if pos.piece_at(m.to()).is_some() {
                    format!("x{}", name(m.to()))
                } else {
                    name(m.to())
                }
            }
        };
        moves.push((m, text));
    }
    Ok(Bench {
        rules,
        position: pos,
        origin,
        moves,
    })
}
