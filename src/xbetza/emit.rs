//! [`PieceMoves`] → XBetza text in the form XBoard 4.9.1 reads correctly
//! (xbetza.md §5, §9): modifiers in the fixed order `i`, directions,
//! `m c d e t p g o y n j`, then `a` and the next leg; no direction letters on a
//! single-leg K or Q (they are split into their W and F parts); direction letters
//! grouped so that XBoard's parser cannot pair them differently from what is meant.
//!
//! Where XBoard cannot read a description exactly, the text describes what it can:
//! - Fairy-Stockfish's `n` on a long leap (the whole stepped path must be empty) is
//!   spelled out as legs when all directions are used (`nZ` → `mafsmafW`);
//! - oblique atoms in later legs are broken in 4.9.1: a straight multi-leg oblique
//!   move through empty squares is written as a limited rider, which also allows the
//!   shorter leaps (a superset; the engine rejects the extra moves).

use super::types::*;

/// Canonical XBoard text for a parsed description.
pub fn to_xboard(moves: &PieceMoves) -> String {
    let mut out = String::new();
    for c in &moves.components {
        emit_component(c, &mut out);
    }
    out
}

fn emit_component(c: &Component, out: &mut String) {
    // K and Q with a partial first-leg direction set are split into W and F parts.
    if c.atom.shape == AtomShape::King && c.legs.len() == 1 && c.legs[0].directions.len() != 8 {
        emit_king_split(c, out);
        return;
    }
    if let Some(text) = spelled_lame_leap(c) {
        out.push_str(&text);
        return;
    }
    if let Some(rider) = oblique_multi_leg_as_rider(c) {
        emit_component(&rider, out);
        return;
    }
    // A later leg whose directions XBoard would misread is split into several
    // components with fewer directions each (the union is the same set of moves).
    for k in 0..c.legs.len() {
        let uses_king_system = k > 0 || c.atom.shape == AtomShape::King;
        if uses_king_system
            && king_system_letters(&c.legs[k].directions, leg_default(c, k)).is_none()
        {
            for &d in &c.legs[k].directions {
                let mut part = c.clone();
                part.legs[k].directions = vec![d];
                emit_component(&part, out);
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
        }
        let letters = if k > 0 || c.atom.shape == AtomShape::King {
            king_system_letters(&leg.directions, leg_default(c, k)).unwrap_or_default()
        } else {
            absolute_letters(&c.atom, &leg.directions)
        };
        out.push_str(&letters);
        out.push_str(&mode_letters(leg, k + 1 == n));
    }
    let (letter, range) = atom_text(c);
    out.push(letter);
    out.push_str(&range);
}

/// A single-leg K or Q limited to some directions: its orthogonal part as W or R,
/// its diagonal part as F or B (XBoard's K/Q direction letters mean something else
/// than Fairy-Stockfish's, xbetza.md §5.4).
fn emit_king_split(c: &Component, out: &mut String) {
    let dirs = &c.legs[0].directions;
    let orth: Vec<RingIndex> = dirs.iter().copied().filter(|d| d % 2 == 0).collect();
    let diag: Vec<RingIndex> = dirs.iter().copied().filter(|d| d % 2 == 1).collect();
    for (part, shape, leap, ride) in [
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
                ride
            } else {
                leap
            },
        };
        sub.legs[0].directions = part;
        emit_component(&sub, out);
    }
}

/// Directions XBoard assumes for a leg without direction letters.
fn leg_default(c: &Component, k: usize) -> Vec<RingIndex> {
    if k == 0 {
        return (0..8).collect();
    }
    match c.atom.shape {
        AtomShape::King | AtomShape::Oblique => vec![0, 1, 2, 3, 5, 6, 7],
        _ => vec![0, 2, 6],
    }
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
    // The final leg defaults to `mc`. A stop on an empty square is written `m` (the
    // default XBoard also assumes, but explicit is clearer), except with `y`, which
    // implies it; `p`/`g` stops have no modality letter of their own.
    let default = if last {
        m.contains(Mode::MOVE | Mode::CAPTURE) && !m.intersects(Mode::DESTROY | Mode::EN_PASSANT)
    } else {
        m.contains(Mode::TOGGLE) && !m.intersects(Mode::CAPTURE | Mode::DESTROY)
            || hop && !m.intersects(Mode::MOVE | Mode::CAPTURE | Mode::DESTROY)
    };
    if !default {
        for (flag, letter) in [
            (Mode::MOVE, 'm'),
            (Mode::CAPTURE, 'c'),
            (Mode::DESTROY, 'd'),
            (Mode::EN_PASSANT, 'e'),
        ] {
            if m.contains(flag) {
                s.push(letter);
            }
        }
    }
    for (flag, letter) in [
        (Mode::TAME, 't'),
        (Mode::HOP, 'p'),
        (Mode::GRASSHOP, 'g'),
        (Mode::CYLINDER, 'o'),
        (Mode::TOGGLE, 'y'),
        (Mode::LAME, 'n'),
    ] {
        if m.contains(flag) {
            s.push(letter);
        }
    }
    for _ in 0..leg.jumps {
        s.push('j');
    }
    s
}

fn sorted(dirs: &[RingIndex]) -> Vec<RingIndex> {
    let mut d = dirs.to_vec();
    d.sort_unstable();
    d.dedup();
    d
}

/// Direction letters of a first leg of a W/F/N-like atom.
fn absolute_letters(atom: &Atom, dirs: &[RingIndex]) -> String {
    let d = sorted(dirs);
    if d == sorted(&atom.all_directions()) {
        return String::new();
    }
    let has = |x: RingIndex| d.contains(&x);
    let mut s = String::new();
    match atom.shape {
        AtomShape::Orthogonal | AtomShape::Castle => {
            // Letters never combine on orthogonal atoms: v = f+b, s = l+r.
            match (has(0), has(4)) {
                (true, true) => s.push('v'),
                (true, false) => s.push('f'),
                (false, true) => s.push('b'),
                _ => {}
            }
            match (has(2), has(6)) {
                (true, true) => s.push('s'),
                (true, false) => s.push('r'),
                (false, true) => s.push('l'),
                _ => {}
            }
        }
        AtomShape::Diagonal => {
            // `f`/`b` alone name a pair, two perpendicular letters one diagonal. A
            // pair is only ever followed by a single of the other vertical side
            // (`fbr`), which XBoard does not combine with it.
            let mut done = Vec::new();
            for (a, b, g) in [(1, 7, "f"), (3, 5, "b")] {
                if has(a) && has(b) {
                    s.push_str(g);
                    done.extend([a, b]);
                }
            }
            for (r, g) in [(1, "fr"), (3, "br"), (5, "bl"), (7, "fl")] {
                if has(r) && !done.contains(&r) {
                    s.push_str(g);
                }
            }
        }
        AtomShape::Oblique => {
            // Every group is two letters that XBoard reads together.
            let mut done = Vec::new();
            for (a, b, g) in [(0, 7, "ff"), (3, 4, "bb"), (5, 6, "ll"), (1, 2, "rr")] {
                if has(a) && has(b) {
                    s.push_str(g);
                    done.extend([a, b]);
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
        AtomShape::King => unreachable!("K/Q directions use the 8-direction system"),
    }
    s
}

/// Letters for a direction set in XBoard's 8-direction (K/Q) system, used for K/Q
/// atoms and for every later leg (directions relative to the previous leg). None when
/// XBoard cannot read the set from one group of letters: a lone orthogonal direction
/// combines with a following perpendicular letter (`f` then `r` reads as `fr`), so
/// two lone perpendicular directions cannot be written together.
fn king_system_letters(dirs: &[RingIndex], default: Vec<RingIndex>) -> Option<String> {
    let mut rest = sorted(dirs);
    if rest == sorted(&default) {
        return Some(String::new());
    }
    let mut take = |set: &[RingIndex]| -> bool {
        if set.iter().all(|d| rest.contains(d)) {
            rest.retain(|d| !set.contains(d));
            true
        } else {
            false
        }
    };
    let mut out = String::new();
    // `s` and `v` never pair up with the letter after them: write them first.
    for (set, g) in [(&[2u8, 6][..], "s"), (&[0, 4], "v")] {
        if take(set) {
            out.push_str(g);
        }
    }
    // Two-letter groups that XBoard reads as one.
    for (set, g) in [
        (&[1u8, 7][..], "fs"),
        (&[3, 5], "bs"),
        (&[1, 3], "rv"),
        (&[5, 7], "lv"),
        (&[1], "fr"),
        (&[3], "br"),
        (&[5], "bl"),
        (&[7], "fl"),
    ] {
        if take(set) {
            out.push_str(g);
        }
    }
    // At most one lone orthogonal direction, written last so nothing follows it.
    match rest.as_slice() {
        [] => {}
        [d] => out.push(match d {
            0 => 'f',
            2 => 'r',
            4 => 'b',
            _ => 'l',
        }),
        _ => return None,
    }
    Some(out)
}

/// Fairy-Stockfish's `n` on a long leap blocks on every square of the stepped path;
/// XBoard's `n` tests one square. With all directions, spell the path as legs
/// (xbetza.md §6.3): Z = orthogonal step then two outward diagonal steps, H and G =
/// three steps straight on.
fn spelled_lame_leap(c: &Component) -> Option<String> {
    let leg = c.legs.first()?;
    if c.legs.len() != 1
        || !leg.mode.contains(Mode::LAME | Mode::LAME_FULL_PATH)
        || leg.range != Range::Leap
        || c.initial
        || sorted(&leg.directions) != sorted(&c.atom.all_directions())
    {
        return None;
    }
    let final_modes = mode_letters(
        &Leg {
            mode: leg.mode.without(Mode::LAME | Mode::LAME_FULL_PATH),
            ..leg.clone()
        },
        true,
    );
    match (c.atom.shape, c.atom.long, c.atom.short) {
        (AtomShape::Oblique, 3, 2) => Some(format!("mafsmaf{final_modes}W")),
        (AtomShape::Orthogonal, 3, 0) => Some(format!("mafmaf{final_modes}W")),
        (AtomShape::Diagonal, 3, 3) => Some(format!("mafmaf{final_modes}F")),
        _ => None,
    }
}

/// A multi-leg oblique move that goes straight on through empty squares is a
/// limited rider without its shorter leaps; XBoard 4.9.1 misreads oblique atoms in
/// later legs, so describe the rider (a superset).
fn oblique_multi_leg_as_rider(c: &Component) -> Option<Component> {
    if c.atom.shape != AtomShape::Oblique || c.legs.len() < 2 || c.legs[0].range != Range::Leap {
        return None;
    }
    let plain_stops = c.legs[..c.legs.len() - 1]
        .iter()
        .all(|l| l.mode == Mode::MOVE && l.jumps == 0);
    let straight = c.legs[1..]
        .iter()
        .all(|l| l.directions == [0] && !l.mode.contains(Mode::SAME_LENGTH));
    if !plain_stops || !straight {
        return None;
    }
    let last = c.final_leg().clone();
    Some(Component {
        atom: c.atom,
        legs: vec![Leg {
            directions: c.legs[0].directions.clone(),
            mode: last.mode,
            range: Range::Limited(c.legs.len() as u8),
            jumps: last.jumps,
        }],
        initial: c.initial,
        text: c.text.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xbetza::{Dialect, parse};

    fn xb(text: &str, dialect: Dialect) -> String {
        to_xboard(&parse(text, dialect).expect("valid XBetza"))
    }

    /// How XBoard 4.9.1 reads direction letters in its 8-direction system
    /// (`moves.c`, the K/Q branch): a doubled letter stands alone; a vertical or
    /// horizontal letter followed by a perpendicular one (including `s`/`v`) is one
    /// diagonal group; `s`/`v` stand alone.
    fn xboard_king_system(letters: &str) -> Vec<RingIndex> {
        let kind = |c: char| match c {
            'f' | 'b' => 1,
            'l' | 'r' => 2,
            'h' => 4,
            'v' => 5,
            's' => 6,
            _ => 0,
        };
        let narrow = |c: char| -> u8 {
            match c {
                'f' => 0x01,
                'r' => 0x04,
                'b' => 0x10,
                'l' => 0x40,
                's' => 0x44,
                'v' => 0x11,
                _ => 0xFF,
            }
        };
        let wide = |c: char| -> u8 {
            match c {
                'f' => 0x83,
                'r' => 0x0E,
                'b' => 0x38,
                'l' => 0xE0,
                's' => 0xEE,
                'v' => 0xBB,
                _ => 0xFF,
            }
        };
        let cs: Vec<char> = letters.chars().collect();
        let mut set = 0u8;
        let mut i = 0;
        while i < cs.len() {
            let c = cs[i];
            let mut b = narrow(c);
            let next = cs.get(i + 1).copied();
            if next == Some(c) {
                i += 1;
            } else if let Some(n) = next
                .filter(|n| n.is_ascii_lowercase() && kind(c) < 4 && (kind(c) | kind(*n)) & 3 == 3)
            {
                b = wide(c) & wide(n);
                i += 2;
                set |= b;
                continue;
            } else {
                i += 1;
            }
            set |= b;
        }
        (0..8).filter(|k| set & 1 << k != 0).collect()
    }

    #[test]
    fn king_system_letters_read_back_exactly() {
        // Every non-empty direction set either reads back exactly or is refused.
        for mask in 1u16..256 {
            let dirs: Vec<RingIndex> = (0..8).filter(|k| mask & 1 << k != 0).collect();
            match king_system_letters(&dirs, (0..8).collect()) {
                Some(letters) if !letters.is_empty() => {
                    assert_eq!(
                        xboard_king_system(&letters),
                        dirs,
                        "{dirs:?} written as {letters}"
                    )
                }
                Some(_) => assert_eq!(dirs.len(), 8),
                None => {
                    let lone: Vec<_> = dirs.iter().filter(|d| *d % 2 == 0).collect();
                    assert!(lone.len() >= 2, "{dirs:?} refused");
                }
            }
        }
    }

    #[test]
    fn canonical_modifier_order() {
        // Out-of-order modifiers (accepted when reading) come out in XBoard's order.
        assert_eq!(xb("mfWcfF", Dialect::FairyStockfish), "fmWfcF");
        assert_eq!(xb("fmWfceFifmnD", Dialect::XBoard), "fmWfceFifmnD");
        assert_eq!(xb("mRcpR", Dialect::XBoard), "mRcpR");
        assert_eq!(xb("FAmsW", Dialect::FairyStockfish), "FAsmW");
    }

    #[test]
    fn orthogonal_letters_are_short() {
        assert_eq!(xb("vRsW", Dialect::XBoard), "vRsW");
        assert_eq!(xb("fsW", Dialect::XBoard), "fsW");
        assert_eq!(xb("fFvW", Dialect::XBoard), "fFvW");
    }

    #[test]
    fn king_and_queen_directions_are_split() {
        // Fairy-Stockfish's fK is the three forward steps.
        assert_eq!(xb("fK", Dialect::FairyStockfish), "fWfF");
        assert_eq!(xb("fQ", Dialect::FairyStockfish), "fRfB");
        assert_eq!(xb("K", Dialect::XBoard), "K");
    }

    #[test]
    fn multi_leg_pieces() {
        assert_eq!(xb("KNADcaKmcabK", Dialect::XBoard), "KNADcaKmcabK");
        assert_eq!(xb("fcafF", Dialect::XBoard), "fcafF");
        assert_eq!(xb("FyafsF", Dialect::XBoard), "FyafsF");
        assert_eq!(xb("mafsmafW", Dialect::XBoard), "mafsmafW");
        // A later leg with two lone perpendicular turns is split.
        assert_eq!(xb("caffrrK", Dialect::XBoard), "cafKcarK");
    }

    #[test]
    fn long_lame_leaps_are_spelled_out() {
        assert_eq!(xb("nZ", Dialect::FairyStockfish), "mafsmafW");
        assert_eq!(xb("nN", Dialect::FairyStockfish), "nN");
        assert_eq!(xb("nA", Dialect::FairyStockfish), "nA");
    }

    #[test]
    fn oblique_multi_leg_becomes_a_rider() {
        assert_eq!(xb("mafN", Dialect::XBoard), "N2");
        assert_eq!(xb("J", Dialect::FairyStockfish), "Z");
        assert_eq!(xb("L", Dialect::FairyStockfish), "C");
    }
}
