//! Laying our pieces out on XBoard's piece images: matching XBoard's own version of
//! a variant, reading a table given in the variant file, or deriving one; then the
//! `setup` and `piece` commands that announce it.

use super::XbVariant;
use super::kinds::{Form, Kind, builtin_matches, canonical_text};
use super::parents::{self, KING_IMAGE, LANCE_IMAGE, Parent};
use super::table::{Entry, Table};
use crate::board::{PROMOTED_UNKNOWN, fen};
use crate::types::{Color, PieceType};
use crate::variant::Variant;

// ---------------------------------------------------------------------- native

/// The variant as XBoard plays it natively, if ours is the same game: same board,
/// holdings, pieces (by moves) and start position.
pub(super) fn native(v: &Variant, kinds: &[Kind], parent: &Parent) -> Option<XbVariant> {
    let g = v.geometry;
    if g.files != parent.files || g.ranks != parent.ranks || v.chess960 != parent.chess960 {
        return None;
    }
    let has_hand = kinds.iter().any(|k| k.in_hand);
    if has_hand != (parent.holdings > 0) {
        return None;
    }
    let half = format!("{}{}", parent.table, parent.table.to_ascii_lowercase());
    let table = Table::parse(&half).ok()?;
    // Match every image XBoard uses with exactly one kind of ours, by moves.
    let mut assigned: Vec<Option<u8>> = vec![None; kinds.len()];
    for (image, entry) in &table.entries {
        let form = match entry {
            Entry::Piece(_) => Form::Base,
            Entry::Plus | Entry::Caret(_) => Form::Promoted,
            Entry::Tilde => Form::Tilde,
        };
        let royal = *image == parent.royal_image && parent.royal_king;
        let candidates: Vec<usize> = (0..kinds.len())
            .filter(|&k| {
                assigned[k].is_none()
                    && kinds[k].form == form
                    && kinds[k].royal == (royal && form == Form::Base)
                    && builtin_matches(parent, *image, &kinds[k].signature)
            })
            .collect();
        // Promoted forms must also belong to the right unpromoted piece.
        let pick = candidates.into_iter().find(|&k| match form {
            Form::Base => true,
            _ => {
                let partner = table.partner_letter(*image);
                let base_image = partner.and_then(|l| table.image_of(l));
                base_image.is_some_and(|bi| {
                    kinds.iter().zip(&assigned).any(|(b, a)| {
                        *a == Some(bi) && b.form == Form::Base && b.ty == kinds[k].base
                    })
                })
            }
        });
        match pick {
            Some(k) => assigned[k] = Some(*image),
            None => {
                // A Tilde image of a piece we cannot promote to is harmless; anything
                // else means XBoard has a piece we do not.
                if form != Form::Tilde {
                    return None;
                }
            }
        }
    }
    if assigned
        .iter()
        .zip(kinds)
        .any(|(a, k)| a.is_none() && k.form != Form::Tilde)
    {
        return None;
    }
    let letters = letters_of(v, kinds, &table, &assigned);
    let slots = slots_of(kinds, &table, &assigned);
    let held_ok = kinds.iter().filter(|k| k.in_hand).all(|k| {
        slots
            .iter()
            .position(|s| *s == Some(k.ty))
            .is_some_and(|i| i < parent.holdings as usize)
    });
    if !held_ok {
        return None;
    }
    // Same start position, in XBoard's letters.
    let ours = start_board(v, &letters)?;
    if ours != parent.start {
        return None;
    }
    Some(XbVariant {
        announce: Vec::new(),
        letters,
        slots,
        holdings: parent.holdings as usize,
        defers_with_equals: parent.name == "shogi",
    })
}

// ---------------------------------------------------------------------- tables

/// A table given in the variant file, if it describes every piece we have.
pub(super) fn given_table(
    text: &str,
    v: &Variant,
    kinds: &[Kind],
    parent: &Parent,
) -> Option<(Table, Vec<Option<u8>>)> {
    let table = Table::parse(text).ok()?;
    let mut assigned: Vec<Option<u8>> = vec![None; kinds.len()];
    for (image, entry) in &table.entries {
        let k = match entry {
            Entry::Piece(letter) => {
                let t = v.type_of_letter(*letter)?;
                let royal_here = *image == parent.royal_image || *image == KING_IMAGE;
                kinds.iter().position(|k| {
                    k.form == Form::Base && k.ty == t && (k.royal == royal_here || !k.royal)
                })?
            }
            Entry::Plus | Entry::Caret(_) | Entry::Tilde => {
                let base = v.type_of_letter(table.partner_letter(*image)?)?;
                let form = if *entry == Entry::Tilde {
                    Form::Tilde
                } else {
                    Form::Promoted
                };
                match kinds.iter().position(|k| k.form == form && k.base == base) {
                    Some(k) => k,
                    None if form == Form::Tilde => continue,
                    None => return None,
                }
            }
        };
        if assigned[k].is_some() {
            return None;
        }
        assigned[k] = Some(*image);
    }
    // Every piece and every shogi-promoted piece must have an image.
    if assigned
        .iter()
        .zip(kinds)
        .any(|(a, k)| a.is_none() && k.form != Form::Tilde)
    {
        return None;
    }
    Some((table, assigned))
}

/// Choose images for our pieces: pictures that fit, holdings pieces first (they must
/// come first in image order), promoting pieces where the parent lets them promote.
pub(super) fn derive_table(
    kinds: &[Kind],
    v: &Variant,
    parent: &Parent,
) -> (Table, Vec<Option<u8>>) {
    let mut table = Table::default();
    let mut assigned: Vec<Option<u8>> = vec![None; kinds.len()];
    let promotes = |k: &Kind| v.promoted_piece_type[k.base as usize].is_some();
    let has_tilde = kinds.iter().any(|k| k.form == Form::Tilde);
    let letter = |k: &Kind| v.pieces[k.ty as usize].letter;

    // The royal piece first (the King image, or the parent's royal image).
    if let Some(k) = kinds.iter().position(|k| k.form == Form::Base && k.royal) {
        table.set(parent.royal_image, Entry::Piece(letter(&kinds[k])));
        assigned[k] = Some(parent.royal_image);
    }
    // Then the other unpromoted pieces, most constrained first.
    let mut order: Vec<usize> = (0..kinds.len())
        .filter(|&k| kinds[k].form == Form::Base && assigned[k].is_none())
        .collect();
    order.sort_by_key(|&k| {
        (
            !(kinds[k].in_hand && promotes(&kinds[k])),
            !kinds[k].in_hand,
            !promotes(&kinds[k]),
        )
    });
    let shogi_special = |img: u8| parent.name == "shogi" && matches!(img, 0 | 1 | 4);
    let tilde_base = |k: &Kind| {
        kinds
            .iter()
            .any(|t| t.form == Form::Tilde && t.base == k.ty)
    };
    for k in order {
        let kind = &kinds[k];
        let limit = if promotes(kind) {
            parent.promotable_max
        } else {
            64
        };
        let preferred = parents::preferred_images(&kind.signature, parent.name, canonical_text);
        // Unknown pieces get images whose pictures mean nothing in particular; held
        // ones low images (see below).
        let low = kind.in_hand && has_tilde || tilde_base(kind);
        let fallback: Vec<u8> = if low || kind.in_hand {
            [5u8, 6, 7, 8, 9, 10, 2, 3]
                .into_iter()
                .chain(parents::fallback_images())
                .collect()
        } else {
            parents::fallback_images().collect()
        };
        // A piece with a crazyhouse-promoted twin whose own picture is one of the
        // images 11-21 goes on the image 11 below it: the twin is then drawn with
        // the piece's picture (the base image of the pair cannot be above 10, see
        // below; a Lion on image 5 had its promoted twin drawn as a Chancellor).
        let twin_first: Vec<u8> = match preferred.first() {
            Some(&p) if tilde_base(kind) && (11..=21).contains(&p) => vec![p - 11],
            _ => Vec::new(),
        };
        let candidates: Vec<u8> = twin_first
            .into_iter()
            .chain(preferred.iter().copied())
            .chain(fallback.into_iter().filter(|&i| !shogi_special(i)))
            .filter(|&i| i <= limit && i != KING_IMAGE)
            .collect();
        // Held pieces and pieces with a crazyhouse-promoted twin go on images 0-10:
        // held pieces must come before the `~` images in slot order, and a `~` twin
        // lives on the image 11 places up.
        let pick = candidates
            .iter()
            .copied()
            .find(|&i| (!low || i <= 10) && table.is_free(i))
            .or_else(|| candidates.iter().copied().find(|&i| table.is_free(i)));
        if let Some(i) = pick {
            table.set(i, Entry::Piece(letter(kind)));
            assigned[k] = Some(i);
        }
    }
    // Promoted forms: the default partner image when free, else any image with `^`.
    for k in 0..kinds.len() {
        let kind = &kinds[k];
        if kind.form == Form::Base {
            continue;
        }
        let Some(base_image) = kinds
            .iter()
            .zip(&assigned)
            .find(|(b, _)| b.form == Form::Base && b.ty == kind.base)
            .and_then(|(_, a)| *a)
        else {
            continue;
        };
        let partner = base_image + 11;
        // Image 18 (the Lance) promotes like a pawn on the last rank whatever moves it
        // is given, so it is no home for a promoted piece.
        if base_image <= 10 && partner != LANCE_IMAGE && table.is_free(partner) {
            let entry = if kind.form == Form::Tilde {
                Entry::Tilde
            } else {
                Entry::Plus
            };
            table.set(partner, entry);
            assigned[k] = Some(partner);
            continue;
        }
        if kind.form == Form::Tilde {
            continue;
        }
        let preferred = parents::preferred_images(&kind.signature, parent.name, canonical_text);
        let pick = preferred
            .into_iter()
            .chain(parents::fallback_images())
            .find(|&i| table.is_free(i) && !(11..=21).contains(&i));
        if let Some(i) = pick {
            table.set(i, Entry::Caret(v.pieces[kind.base as usize].letter));
            assigned[k] = Some(i);
        }
    }
    table.width = table
        .entries
        .iter()
        .map(|(i, _)| *i)
        .filter(|&i| i != KING_IMAGE)
        .max()
        .map_or(0, |i| i + 1);
    (table, assigned)
}

// ---------------------------------------------------------------------- results

fn letters_of(
    v: &Variant,
    kinds: &[Kind],
    table: &Table,
    assigned: &[Option<u8>],
) -> Vec<Option<char>> {
    let mut letters = vec![None; v.num_types()];
    for (k, a) in kinds.iter().zip(assigned) {
        if k.form != Form::Base {
            continue;
        }
        if let Some(Entry::Piece(c)) = a.and_then(|i| table.get(i)) {
            letters[k.ty as usize] = Some(*c);
        }
    }
    letters
}

fn slots_of(kinds: &[Kind], table: &Table, assigned: &[Option<u8>]) -> Vec<Option<PieceType>> {
    let mut slots = Vec::new();
    for (image, entry) in &table.entries {
        match entry {
            Entry::Piece(_) => {
                let t = kinds
                    .iter()
                    .zip(assigned)
                    .find(|(k, a)| k.form == Form::Base && **a == Some(*image))
                    .map(|(k, _)| k.ty);
                slots.push(t);
            }
            Entry::Tilde => slots.push(None),
            _ => {}
        }
    }
    slots
}

/// The board part of the start position in XBoard letters (None if a piece has no
/// XBoard letter).
fn start_board(v: &Variant, letters: &[Option<char>]) -> Option<String> {
    let setup = fen::parse(v, &v.start_fen).ok()?;
    let g = v.geometry;
    let mut grid: Vec<Option<String>> = vec![None; g.num_squares()];
    for &(sq, p, promoted) in &setup.board {
        if p.is_wall() {
            // A hole: XBoard's FEN reads `*` as an off-board square.
            grid[sq as usize] = Some("*".to_string());
            continue;
        }
        let case = |c: char| {
            if p.color() == Color::White {
                c
            } else {
                c.to_ascii_lowercase()
            }
        };
        let text = if promoted != 0 && promoted != PROMOTED_UNKNOWN {
            format!("+{}", case(letters[(promoted - 1) as usize]?))
        } else if promoted == PROMOTED_UNKNOWN {
            format!("{}~", case(letters[p.kind() as usize]?))
        } else {
            case(letters[p.kind() as usize]?).to_string()
        };
        grid[sq as usize] = Some(text);
    }
    Some(fen::board_field((0..g.ranks).rev().map(|r| {
        let grid = &grid;
        (0..g.files).map(move |f| grid[g.square(f, r) as usize].as_deref())
    })))
}

/// The commands defining an engine-defined variant.
pub(super) fn engine_defined(
    v: &Variant,
    kinds: &[Kind],
    parent: &Parent,
    table: &Table,
    assigned: &[Option<u8>],
) -> XbVariant {
    let letters = letters_of(v, kinds, table, assigned);
    let slots = slots_of(kinds, table, assigned);
    let needed = kinds
        .iter()
        .filter(|k| k.in_hand)
        .filter_map(|k| slots.iter().position(|s| *s == Some(k.ty)))
        .map(|i| i + 1)
        .max()
        .unwrap_or(0);
    // The variant's pocket size when it fits (more slots than ranks would make XBoard
    // grow the board), else just the slots needed.
    let pocket = v.pocket_size.unwrap_or(0) as usize;
    let holdings = if needed > 0 && pocket >= needed && pocket <= v.geometry.ranks as usize {
        pocket
    } else {
        needed
    };
    let g = v.geometry;
    let board = start_board(v, &letters)
        .unwrap_or_else(|| v.start_fen.split(' ').next().unwrap_or("").to_string());
    let hands = if holdings > 0 {
        let mut h = String::new();
        if let Ok(setup) = fen::parse(v, &v.start_fen) {
            for c in Color::BOTH {
                for t in slots.iter().flatten() {
                    for _ in 0..setup.hands[c as usize][*t as usize] {
                        let l = letters[*t as usize].unwrap_or('P');
                        h.push(if c == Color::White {
                            l
                        } else {
                            l.to_ascii_lowercase()
                        });
                    }
                }
            }
        }
        format!("[{}]", if h.is_empty() { "-".to_string() } else { h })
    } else {
        String::new()
    };
    let rest = v.start_fen.split_once(' ').map_or("w - - 0 1", |(_, r)| r);
    let mut announce = vec![format!(
        "setup ({}) {}x{}+{}_{} {}{} {}",
        table.to_xboard(),
        g.files,
        g.ranks,
        holdings,
        parent.name,
        board,
        hands,
        rest
    )];
    for (k, a) in kinds.iter().zip(assigned) {
        let Some(image) = *a else { continue };
        if k.form == Form::Tilde
            || k.betza.is_empty()
            || builtin_matches(parent, image, &k.signature)
        {
            continue;
        }
        let base_letter = v.pieces[k.base as usize].letter;
        let id = match k.form {
            Form::Promoted => format!("+{base_letter}"),
            _ => base_letter.to_string(),
        };
        let mut betza = k.betza.clone();
        if k.royal && v.castling && !betza.contains('O') {
            let d = v.castling_kingside_file.abs_diff(v.castling_king_file);
            betza.push_str(&format!("isO{d}"));
        }
        announce.push(format!("piece {id}& {betza}"));
    }
    XbVariant {
        announce,
        letters,
        slots,
        holdings,
        defers_with_equals: parent.name == "shogi",
    }
}
