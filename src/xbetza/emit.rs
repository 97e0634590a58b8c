//! [`PieceMoves`] → XBetza text in the form XBoard 4.9.1 reads correctly
//! (xbetza.md §9): modifiers in the fixed order `i`, directions, `m c d e t p g o y n j`,
//! then `a` and the next leg; no direction letters on K/Q (they are split into their
//! W and F parts); direction groups always written as two letters so that XBoard
//! cannot pair them differently.

use super::types::*;

/// Canonical XBoard text for a parsed description. The result describes the same
/// moves on every board.
pub fn to_xboard(moves: &PieceMoves) -> String {
    let mut out = String::new();
    for c in &moves.components {
        emit_component(c, &mut out);
    }
    out
}

fn emit_component(c: &Component, out: &mut String) {
    // K and Q with a partial first-leg direction set are split into W and F parts.
    if c.atom.shape == AtomShape::King && c.legs.len() == 1 {
        let dirs = &c.legs[0].directions;
        if dirs.len() != 8 {
            let orth: Vec<RingIndex> = dirs.iter().copied().filter(|d| d % 2 == 0).collect();
            let diag: Vec<RingIndex> = dirs.iter().copied().filter(|d| d % 2 == 1).collect();
            for (part, shape, letter_leap, letter_ride) in [
                (orth, AtomShape::Orthogonal, 'W', 'R'),
                (diag, AtomShape::Diagonal, 'F', 'B'),
            ] {
                if part.is_empty() {
                    continue;
                }
                let mut sub = c.clone();
                sub.atom = Atom {
                    shape,
                    long: 1,
                    short: if shape == AtomShape::Diagonal { 1 } else { 0 },
                    letter: if c.legs[0].range == Range::Unlimited {
                        letter_ride
                    } else {
                        letter_leap
                    },
                };
                sub.legs[0].directions = part;
                emit_component(&sub, out);
            }
            return;
        }
    }
    if c.initial {
        out.push('i');
    }
    let n = c.legs.len();
    for (k, leg) in c.legs.iter().enumerate() {
        if k > 0 {
            out.push('a');
            if leg.mode.contains(Mode::SAME_LENGTH) {
                out.push('i');
            }
            out.push_str(&relative_letters(&c.atom, &leg.directions));
        } else {
            out.push_str(&absolute_letters(&c.atom, &leg.directions));
        }
        out.push_str(&mode_letters(leg, k + 1 == n));
    }
    let (letter, range) = atom_text(c);
    out.push(letter);
    out.push_str(&range);
}

fn atom_text(c: &Component) -> (char, String) {
    let range = c.legs[0].range;
    let letter = c.atom.letter;
    let rider_letter = matches!(letter, 'R' | 'B' | 'Q');
    let text = match (range, rider_letter) {
        (Range::Unlimited, true) => String::new(),
        (Range::Unlimited, false) => "0".to_string(),
        (Range::Leap, true) => "1".to_string(),
        (Range::Leap, false) => String::new(),
        (Range::Limited(n), _) => n.to_string(),
    };
    // XBoard reads J and L the other way round from Fairy-Stockfish: always write C and Z.
    let letter = match (c.atom.shape, c.atom.long, c.atom.short) {
        (AtomShape::Oblique, 3, 1) => 'C',
        (AtomShape::Oblique, 3, 2) => 'Z',
        _ => letter,
    };
    (letter, text)
}

fn mode_letters(leg: &Leg, last: bool) -> String {
    let m = leg.mode;
    let mut s = String::new();
    let hop = m.intersects(Mode::HOP | Mode::GRASSHOP);
    let default = if last {
        m.contains(Mode::MOVE | Mode::CAPTURE) && !m.intersects(Mode::DESTROY | Mode::EN_PASSANT)
    } else {
        m.contains(Mode::MOVE) && !m.intersects(Mode::CAPTURE | Mode::DESTROY) && !hop
            || m.contains(Mode::TOGGLE)
    };
    if !default {
        if m.contains(Mode::MOVE) {
            s.push('m');
        }
        if m.contains(Mode::CAPTURE) {
            s.push('c');
        }
        if m.contains(Mode::DESTROY) {
            s.push('d');
        }
        if m.contains(Mode::EN_PASSANT) {
            s.push('e');
        }
    }
    if m.contains(Mode::TAME) {
        s.push('t');
    }
    if m.contains(Mode::HOP) {
        s.push('p');
    }
    if m.contains(Mode::GRASSHOP) {
        s.push('g');
    }
    if m.contains(Mode::CYLINDER) {
        s.push('o');
    }
    if m.contains(Mode::TOGGLE) {
        s.push('y');
    }
    if m.contains(Mode::LAME) {
        s.push('n');
    }
    for _ in 0..leg.jumps {
        s.push('j');
    }
    s
}

fn absolute_letters(atom: &Atom, dirs: &[RingIndex]) -> String {
    let mut all = atom.all_directions();
    all.sort_unstable();
    let mut d: Vec<RingIndex> = dirs.to_vec();
    d.sort_unstable();
    if d == all {
        return String::new();
    }
    let has = |x: RingIndex| d.contains(&x);
    let mut s = String::new();
    match atom.shape {
        AtomShape::Orthogonal | AtomShape::Castle => {
            for (r, g) in [(0, "ff"), (2, "rr"), (4, "bb"), (6, "ll")] {
                if has(r) {
                    s.push_str(g);
                }
            }
        }
        AtomShape::Diagonal => {
            let mut done = Vec::new();
            for (a, b, g) in [(1, 7, "ff"), (3, 5, "bb")] {
                if has(a) && has(b) {
                    s.push_str(g);
                    done.push(a);
                    done.push(b);
                }
            }
            for (r, g) in [(1, "fr"), (3, "br"), (5, "bl"), (7, "fl")] {
                if has(r) && !done.contains(&r) {
                    s.push_str(g);
                }
            }
        }
        AtomShape::Oblique => {
            let mut done = Vec::new();
            for (a, b, g) in [(0, 7, "ff"), (3, 4, "bb"), (5, 6, "ll"), (1, 2, "rr")] {
                if has(a) && has(b) {
                    s.push_str(g);
                    done.push(a);
                    done.push(b);
                }
            }
            for (r, g) in [
                (0, "rf"),
                (1, "fr"),
                (2, "br"),
                (3, "rb"),
                (4, "lb"),
                (5, "bl"),
                (6, "fl"),
                (7, "lf"),
            ] {
                if has(r) && !done.contains(&r) {
                    s.push_str(g);
                }
            }
        }
        AtomShape::King => {
            // Only reached for multi-leg K/Q components; use the 8-direction system.
            s = relative_letters(atom, dirs);
        }
    }
    s
}

fn relative_letters(atom: &Atom, dirs: &[RingIndex]) -> String {
    let mut d: Vec<RingIndex> = dirs.to_vec();
    d.sort_unstable();
    let default: Vec<RingIndex> = match atom.shape {
        AtomShape::King | AtomShape::Oblique => vec![0, 1, 2, 3, 5, 6, 7],
        _ => vec![0, 2, 6],
    };
    if d == default {
        return String::new();
    }
    let mut s = String::new();
    for (r, g) in [
        (0, "ff"),
        (1, "fr"),
        (2, "rr"),
        (3, "br"),
        (4, "bb"),
        (5, "bl"),
        (6, "ll"),
        (7, "fl"),
    ] {
        if d.contains(&r) {
            s.push_str(g);
        }
    }
    s
}
