//! XBetza text → [`PieceMoves`].
//!
//! The grammar is the one of `docs/xbetza.md`: per component, lower-case modifiers
//! (optionally split into legs by `a`), then one capital atom, then an optional range.
//! Modifiers are accepted in any order (as Fairy-Stockfish does); the emitter always
//! writes XBoard's canonical order.

use super::types::*;
use std::fmt;

/// Where two readings of the same XBetza string disagree (xbetza.md §10), which one
/// to follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Dialect {
    /// XBoard 4.9.1: directions on K/Q name single directions, doubled letters are
    /// two components, `J` = camel, `L` = zebra, `n` tests a single square.
    #[default]
    XBoard,
    /// Fairy-Stockfish's `variants.ini`: directions on K/Q apply to its W and F parts,
    /// doubled letters are riders, `J` = zebra, `L` = camel, `n` blocks on the whole
    /// stepped path, initial (`i`) moves never capture.
    FairyStockfish,
}

/// A malformed XBetza string: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// 0-based character position in the text.
    pub position: usize,
    pub reason: String,
    pub text: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad XBetza '{}' at position {}: {}",
            self.text,
            self.position + 1,
            self.reason
        )
    }
}

impl std::error::Error for BetzaError {}

const DIRECTION_LETTERS: &str = "fbvlrsh";
const MODE_LETTERS: &str = "mcdetpgoynji";

fn is_vertical(c: char) -> bool {
    matches!(c, 'f' | 'b' | 'v' | 'h')
}
fn is_horizontal(c: char) -> bool {
    matches!(c, 'r' | 'l' | 's' | 'h')
}

/// Parse an XBetza description.
pub fn parse(text: &str, dialect: Dialect) -> Result<PieceMoves, BetzaError> {
    let chars: Vec<char> = text.chars().collect();
    let err = |position: usize, reason: String| BetzaError {
        position,
        reason,
        text: text.to_string(),
    };
    let mut components = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_lowercase() {
            if !DIRECTION_LETTERS.contains(c) && !MODE_LETTERS.contains(c) && c != 'a' {
                return Err(err(i, format!("unknown modifier '{c}'")));
            }
            i += 1;
            continue;
        }
        if c.is_ascii_uppercase() {
            let atom_pos = i;
            i += 1;
            // Range: up to two digits.
            let digits_start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if i - digits_start > 2 {
                return Err(err(digits_start, "a range has at most two digits".into()));
            }
            let digits: String = chars[digits_start..i].iter().collect();
            let mut range_number: Option<u32> = if digits.is_empty() {
                None
            } else {
                Some(
                    digits
                        .parse()
                        .map_err(|_| err(digits_start, "bad range".into()))?,
                )
            };
            // Fairy-Stockfish reads a doubled atom letter as a rider (NN = nightrider).
            if dialect == Dialect::FairyStockfish
                && range_number.is_none()
                && i < chars.len()
                && chars[i] == c
            {
                range_number = Some(0);
                i += 1;
            }
            let modifiers: Vec<(usize, char)> = (start..atom_pos).map(|k| (k, chars[k])).collect();
            let source: String = chars[start..i].iter().collect();
            let component = build_component(c, atom_pos, range_number, &modifiers, source, dialect)
                .map_err(|(p, r)| err(p, r))?;
            components.push(component);
            start = i;
            continue;
        }
        if c.is_ascii_digit() {
            return Err(err(i, "a range number must follow an atom letter".into()));
        }
        if c.is_whitespace() {
            return Err(err(i, "spaces are not allowed".into()));
        }
        return Err(err(i, format!("unexpected character '{c}'")));
    }
    if start < chars.len() {
        return Err(err(
            chars.len() - 1,
            "modifiers at the end are not followed by an atom".into(),
        ));
    }
    Ok(PieceMoves {
        components,
        text: text.to_string(),
    })
}

type Fail = (usize, String);

fn atom_for(letter: char, dialect: Dialect) -> Option<(Atom, Option<Range>)> {
    use AtomShape::*;
    let mk = |shape, long, short| Atom {
        shape,
        long,
        short,
        letter,
    };
    // Riders carry their own default range.
    let (atom, range) = match (letter, dialect) {
        ('W', _) => (mk(Orthogonal, 1, 0), None),
        ('F', _) => (mk(Diagonal, 1, 1), None),
        ('D', _) => (mk(Orthogonal, 2, 0), None),
        ('N', _) => (mk(Oblique, 2, 1), None),
        ('A', _) => (mk(Diagonal, 2, 2), None),
        ('H', _) => (mk(Orthogonal, 3, 0), None),
        ('C', _) => (mk(Oblique, 3, 1), None),
        ('Z', _) => (mk(Oblique, 3, 2), None),
        ('G', _) => (mk(Diagonal, 3, 3), None),
        ('K', _) => (mk(King, 1, 1), None),
        ('R', _) => (mk(Orthogonal, 1, 0), Some(Range::Unlimited)),
        ('B', _) => (mk(Diagonal, 1, 1), Some(Range::Unlimited)),
        ('Q', _) => (mk(King, 1, 1), Some(Range::Unlimited)),
        ('O', _) => (mk(Castle, 1, 0), None),
        ('J', Dialect::XBoard) | ('L', Dialect::FairyStockfish) => (mk(Oblique, 3, 1), None),
        ('L', Dialect::XBoard) | ('J', Dialect::FairyStockfish) => (mk(Oblique, 3, 2), None),
        _ => return None,
    };
    Some((atom, range))
}

/// Split the modifier letters of one component into legs (separated by `a`) and
/// build the component.
fn build_component(
    letter: char,
    atom_pos: usize,
    range_number: Option<u32>,
    modifiers: &[(usize, char)],
    source: String,
    dialect: Dialect,
) -> Result<Component, Fail> {
    let (atom, rider_range) =
        atom_for(letter, dialect).ok_or_else(|| (atom_pos, format!("unknown atom '{letter}'")))?;
    let mut range = match (range_number, rider_range) {
        (Some(0), _) => Range::Unlimited,
        (Some(1), _) => Range::Leap,
        (Some(n), _) => Range::Limited(n as u8),
        (None, Some(r)) => r,
        (None, None) => Range::Leap,
    };
    if atom.shape == AtomShape::Castle {
        match range_number {
            Some(n) if n >= 1 => range = Range::Limited(n as u8),
            _ => {
                return Err((
                    atom_pos,
                    "castling atom O needs a distance (e.g. O2)".into(),
                ));
            }
        }
    }

    // Split into leg segments.
    let mut segments: Vec<Vec<(usize, char)>> = vec![Vec::new()];
    for &(p, c) in modifiers {
        if c == 'a' {
            segments.push(Vec::new());
        } else {
            segments.last_mut().expect("non-empty").push((p, c));
        }
    }
    if atom.shape == AtomShape::Castle && segments.len() > 1 {
        return Err((atom_pos, "castling cannot have several legs".into()));
    }

    let n_legs = segments.len();
    let mut legs = Vec::with_capacity(n_legs);
    let mut initial = false;
    let mut current_range = range;
    for (leg_index, segment) in segments.iter().enumerate() {
        let first = leg_index == 0;
        let last = leg_index + 1 == n_legs;
        let mut mode = Mode::default();
        let mut jumps = 0u8;
        let mut groups: Vec<String> = Vec::new();
        let mut k = 0;
        while k < segment.len() {
            let (p, c) = segment[k];
            if DIRECTION_LETTERS.contains(c) {
                // A run of direction letters pairs up as Fairy-Stockfish and XBoard read it.
                if k + 1 < segment.len() {
                    let c2 = segment[k + 1].1;
                    if DIRECTION_LETTERS.contains(c2)
                        && (c2 == c
                            || (is_vertical(c) && is_horizontal(c2))
                            || (is_horizontal(c) && is_vertical(c2)))
                    {
                        groups.push([c, c2].iter().collect());
                        k += 2;
                        continue;
                    }
                }
                groups.push([c, c].iter().collect());
                k += 1;
                continue;
            }
            match c {
                'm' => mode |= Mode::MOVE,
                'c' => mode |= Mode::CAPTURE,
                'd' => mode |= Mode::DESTROY,
                'e' => mode |= Mode::EN_PASSANT,
                't' => mode |= Mode::TAME,
                'p' => mode |= Mode::HOP,
                'g' => mode |= Mode::GRASSHOP,
                'o' => mode |= Mode::CYLINDER,
                'y' => mode |= Mode::TOGGLE,
                'n' => {
                    mode |= Mode::LAME;
                    if dialect == Dialect::FairyStockfish {
                        mode |= Mode::LAME_FULL_PATH;
                    }
                }
                'j' => jumps = jumps.saturating_add(1),
                'i' => {
                    if first {
                        if initial {
                            return Err((p, "'ii' is not supported".into()));
                        }
                        initial = true;
                    } else {
                        mode |= Mode::SAME_LENGTH;
                    }
                }
                _ => return Err((p, format!("unknown modifier '{c}'"))),
            }
            k += 1;
        }
        if mode.contains(Mode::EN_PASSANT) && !last {
            return Err((
                atom_pos,
                "'e' (en passant) only applies to the last leg".into(),
            ));
        }
        let seg_pos = segment.first().map(|x| x.0).unwrap_or(atom_pos);
        let directions = if first {
            resolve_absolute(&atom, &groups, dialect)
        } else {
            resolve_relative(&atom, &groups, seg_pos)?
        };
        // Default modality: non-final legs stop on empty squares, the final leg moves or captures.
        let modality = Mode::MOVE | Mode::CAPTURE | Mode::DESTROY | Mode::EN_PASSANT;
        if !mode.intersects(modality) {
            if last {
                // Plain p/g/y on a final leg keep the default move-or-capture.
                mode |= Mode::MOVE | Mode::CAPTURE;
            } else if !mode.intersects(Mode::HOP | Mode::GRASSHOP) || mode.contains(Mode::TOGGLE) {
                // Non-final legs stop on empty squares (y too); p/g legs need an occupied one.
                mode |= Mode::MOVE;
            }
        }
        if mode.contains(Mode::SAME_LENGTH)
            && !legs.last().is_some_and(|l: &Leg| l.range.is_slider())
        {
            return Err((
                seg_pos,
                "'i' on a later leg needs a sliding previous leg".into(),
            ));
        }
        legs.push(Leg {
            directions,
            mode,
            range: current_range,
            jumps,
        });
        // g and y toggle the range of the following legs.
        if !last && mode.intersects(Mode::GRASSHOP | Mode::TOGGLE) {
            current_range = if current_range.is_slider() {
                Range::Leap
            } else {
                Range::Unlimited
            };
        }
    }
    if initial && dialect == Dialect::FairyStockfish {
        // Fairy-Stockfish has no initial captures.
        let last = legs.last_mut().expect("at least one leg");
        if last.mode.contains(Mode::MOVE) {
            last.mode = last.mode.without(Mode::CAPTURE | Mode::DESTROY);
        }
    }
    Ok(Component {
        atom,
        legs,
        initial,
        text: source,
    })
}

/// Fairy-Stockfish's eight direction entries: for an atom with long component l and
/// short component s, entry e is the vector below and is selected by these pairs.
/// (Ring positions per shape are given next to each entry.)
struct Entry {
    pairs: &'static [&'static str],
    oblique: RingIndex,
    orthogonal: RingIndex,
    diagonal: RingIndex,
}

const ENTRIES: [Entry; 8] = [
    // (s, l)
    Entry {
        pairs: &["ff", "vv", "rf", "rv", "fh", "rh", "hr"],
        oblique: 0,
        orthogonal: 0,
        diagonal: 1,
    },
    // (-s, -l)
    Entry {
        pairs: &["bb", "vv", "lb", "lv", "bh", "lh", "hr"],
        oblique: 4,
        orthogonal: 4,
        diagonal: 5,
    },
    // (l, -s)
    Entry {
        pairs: &["rr", "ss", "br", "bs", "bh", "rh", "hr"],
        oblique: 2,
        orthogonal: 2,
        diagonal: 3,
    },
    // (-l, s)
    Entry {
        pairs: &["ll", "ss", "fl", "fs", "fh", "lh", "hr"],
        oblique: 6,
        orthogonal: 6,
        diagonal: 7,
    },
    // (l, s)
    Entry {
        pairs: &["rr", "ss", "fr", "fs", "fh", "rh", "hl"],
        oblique: 1,
        orthogonal: 2,
        diagonal: 1,
    },
    // (-l, -s)
    Entry {
        pairs: &["ll", "ss", "bl", "bs", "bh", "lh", "hl"],
        oblique: 5,
        orthogonal: 6,
        diagonal: 5,
    },
    // (s, -l)
    Entry {
        pairs: &["bb", "vv", "rb", "rv", "bh", "rh", "hl"],
        oblique: 3,
        orthogonal: 4,
        diagonal: 3,
    },
    // (-s, l)
    Entry {
        pairs: &["ff", "vv", "lf", "lv", "fh", "lh", "hl"],
        oblique: 7,
        orthogonal: 0,
        diagonal: 7,
    },
];

fn entries_for(group: &str, pick: impl Fn(&Entry) -> RingIndex) -> Vec<RingIndex> {
    ENTRIES
        .iter()
        .filter(|e| e.pairs.contains(&group))
        .map(pick)
        .collect()
}

fn add_unique(out: &mut Vec<RingIndex>, items: impl IntoIterator<Item = RingIndex>) {
    for d in items {
        if !out.contains(&d) {
            out.push(d);
        }
    }
}

/// Absolute directions (ring positions, White's view) of a first leg.
fn resolve_absolute(atom: &Atom, groups: &[String], dialect: Dialect) -> Vec<RingIndex> {
    if groups.is_empty() {
        return atom.all_directions();
    }
    let mut out = Vec::new();
    match atom.shape {
        AtomShape::Oblique => {
            for g in groups {
                add_unique(&mut out, entries_for(g, |e| e.oblique));
            }
        }
        AtomShape::Orthogonal | AtomShape::Castle => {
            for g in groups {
                // Orthogonal atoms never combine letters: a pair is the union of both.
                let b: Vec<char> = g.chars().collect();
                for c in [b[0], b[1]] {
                    let single: String = [c, c].iter().collect();
                    add_unique(&mut out, entries_for(&single, |e| e.orthogonal));
                }
            }
        }
        AtomShape::Diagonal => {
            for g in groups {
                let b: Vec<char> = g.chars().collect();
                let mixed_sv =
                    b[0] != b[1] && (matches!(b[0], 's' | 'v') || matches!(b[1], 's' | 'v'));
                if dialect == Dialect::XBoard && mixed_sv {
                    // XBoard 4.9.1: s or v combined with another letter selects nothing.
                    continue;
                }
                add_unique(&mut out, entries_for(g, |e| e.diagonal));
            }
            if out.is_empty() && dialect == Dialect::XBoard {
                // An empty selection falls back to all directions in XBoard.
                return atom.all_directions();
            }
        }
        AtomShape::King => match dialect {
            Dialect::FairyStockfish => {
                // Fairy-Stockfish applies the letters to the W and F parts separately.
                for g in groups {
                    add_unique(&mut out, entries_for(g, |e| e.orthogonal));
                    add_unique(&mut out, entries_for(g, |e| e.diagonal));
                }
            }
            Dialect::XBoard => {
                for g in groups {
                    add_unique(&mut out, king_directions(g));
                }
            }
        },
    }
    out.sort_unstable();
    out
}

/// XBoard's 8-direction system for K and Q (xbetza.md §5.4), also used for the
/// relative directions of later legs (§5.5).
fn king_directions(group: &str) -> Vec<RingIndex> {
    let single = |c: char| -> Vec<RingIndex> {
        match c {
            'f' => vec![0],
            'b' => vec![4],
            'r' => vec![2],
            'l' => vec![6],
            's' => vec![2, 6],
            'v' => vec![0, 4],
            _ => (0..8).collect(),
        }
    };
    let b: Vec<char> = group.chars().collect();
    if b[0] == b[1] {
        return single(b[0]);
    }
    let (x, y) = (b[0], b[1]);
    let pair = |a: char, c: char| -> Option<Vec<RingIndex>> {
        Some(match (a, c) {
            ('f', 'r') => vec![1],
            ('f', 'l') => vec![7],
            ('b', 'r') => vec![3],
            ('b', 'l') => vec![5],
            ('f', 's') => vec![1, 7],
            ('b', 's') => vec![3, 5],
            ('l', 'v') => vec![5, 7],
            ('r', 'v') => vec![1, 3],
            _ => return None,
        })
    };
    if x == 'h' || y == 'h' {
        return (0..8).collect();
    }
    if let Some(v) = pair(x, y).or_else(|| pair(y, x)) {
        return v;
    }
    // Letters that do not combine (v with s) stand for themselves.
    let mut out = single(x);
    add_unique(&mut out, single(y));
    out
}

/// Relative directions of a later leg (turns from the previous leg's direction).
fn resolve_relative(atom: &Atom, groups: &[String], _pos: usize) -> Result<Vec<RingIndex>, Fail> {
    if groups.is_empty() {
        return Ok(match atom.shape {
            AtomShape::King | AtomShape::Oblique => vec![0, 1, 2, 3, 5, 6, 7],
            _ => vec![0, 2, 6],
        });
    }
    let mut out = Vec::new();
    for g in groups {
        add_unique(&mut out, king_directions(g));
    }
    out.sort_unstable();
    Ok(out)
}
