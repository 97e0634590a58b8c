//! Shuffled start positions for chess960 variants (Fischer random chess, Capablanca
//! random chess): the back rank of the variant's start position rearranged, with
//! the king between its two castling rooks and colour-bound pieces (bishops) spread
//! over both square colours, Black's rank mirroring White's.

use super::Ruleset;
use crate::types::{Color, PieceType, SplitMix64, Square};

/// A shuffled start FEN of `rules`' variant, chosen by `seed`; `None` where the
/// start position has no back rank to shuffle (not exactly one castling king and
/// two castling rooks on White's castling rank, Black's rank not its mirror).
pub fn shuffled_start_fen(rules: &Ruleset, seed: u64) -> Option<String> {
    let v = &rules.variant;
    let g = v.geometry;
    let mut fields: Vec<String> = v.start_fen.split(' ').map(str::to_string).collect();
    let (board, pocket) = match fields.first()?.split_once('[') {
        Some((b, p)) => (b.to_string(), format!("[{p}")),
        None => (fields[0].clone(), String::new()),
    };
    let mut rows: Vec<String> = board.split('/').map(str::to_string).collect();
    if rows.len() != g.ranks as usize || v.castling_rank != 0 {
        return None;
    }
    let white_row = expand(rows.last()?, g.files)?;
    let black_row = expand(rows.first()?, g.files)?;
    let mirrored = white_row.iter().zip(&black_row).all(|(w, b)| {
        w.map(|c| c.to_ascii_lowercase()) == *b && w.is_none_or(|c| c.is_ascii_uppercase())
    });
    if !mirrored {
        return None;
    }
    let king = v.letter(v.castling_king_piece[0]?, Color::White);
    let is_rook = |c: char| {
        v.type_of_letter(c)
            .is_some_and(|t| v.castling_rook_pieces[0] & 1u64 << t != 0)
    };
    let occupied: Vec<u8> = (0..g.files)
        .filter(|&f| white_row[f as usize].is_some())
        .collect();
    let letters: Vec<char> = occupied
        .iter()
        .filter_map(|&f| white_row[f as usize])
        .collect();
    let kings = letters.iter().filter(|&&c| c == king).count();
    let rooks: Vec<char> = letters.iter().copied().filter(|&c| is_rook(c)).collect();
    if kings != 1 || rooks.len() != 2 {
        return None;
    }
    // The same seed gives the same position.
    let mut rng = SplitMix64::new(seed);
    let mut row: Vec<Option<char>> = vec![None; g.files as usize];
    let mut others: Vec<char> = letters
        .iter()
        .copied()
        .filter(|&c| c != king && !is_rook(c))
        .collect();
    // Colour-bound pieces first, alternating square colours.
    others.sort_by_key(|&c| !v.type_of_letter(c).is_some_and(|t| colour_bound(rules, t)));
    let mut parity = 0;
    for c in others {
        let bound = v.type_of_letter(c).is_some_and(|t| colour_bound(rules, t));
        let free: Vec<u8> = occupied
            .iter()
            .copied()
            .filter(|&f| row[f as usize].is_none() && (!bound || f % 2 == parity))
            .collect();
        let free = if free.is_empty() {
            occupied
                .iter()
                .copied()
                .filter(|&f| row[f as usize].is_none())
                .collect()
        } else {
            free
        };
        let f = free[rng.below(free.len())];
        row[f as usize] = Some(c);
        if bound {
            parity ^= 1;
        }
    }
    // The king between the rooks on the three squares left.
    let rest: Vec<u8> = occupied
        .iter()
        .copied()
        .filter(|&f| row[f as usize].is_none())
        .collect();
    for (&f, c) in rest.iter().zip([rooks[0], king, rooks[1]]) {
        row[f as usize] = Some(c);
    }
    let last = rows.len() - 1;
    let white = super::fen::board_field([row.iter().map(|c| c.map(String::from))]);
    rows[0] = white.to_ascii_lowercase();
    rows[last] = white;
    fields[0] = rows.join("/") + &pocket;
    if fields.len() > 2 && v.castling {
        fields[2] = "KQkq".to_string();
    }
    Some(fields.join(" "))
}

/// Does a piece of this type stay on squares of one colour (a bishop)?
fn colour_bound(rules: &Ruleset, t: PieceType) -> bool {
    let g = rules.variant.geometry;
    let parity = |s: Square| (g.file(s) + g.rank(s)) & 1;
    (0..g.files * g.ranks).all(|s| {
        rules.steps(Color::White, t, s).all(|step| {
            step.reach()
                .first()
                .is_none_or(|&to| parity(to) == parity(s))
        })
    })
}

/// One FEN row as squares (`None` empty); `None` if it has more than plain letters
/// and digits or is not `files` wide.
fn expand(row: &str, files: u8) -> Option<Vec<Option<char>>> {
    let mut out = Vec::new();
    let mut digits = String::new();
    for c in row.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            out.extend(std::iter::repeat_n(None, digits.parse().ok()?));
            digits.clear();
        }
        if !c.is_ascii_alphabetic() {
            return None;
        }
        out.push(Some(c));
    }
    if !digits.is_empty() {
        out.extend(std::iter::repeat_n(None, digits.parse().ok()?));
    }
    (out.len() == files as usize).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Position, check_variant};
    use crate::variant::VariantSet;

    #[test]
    fn shuffled_starts_are_chess960_positions() {
        let set = VariantSet::builtin(check_variant);
        for name in ["fischerandom", "caparandom"] {
            let rules = Ruleset::new(set.get(name).expect("built in"));
            let mut seen = std::collections::HashSet::new();
            for seed in 0..200 {
                let fen = shuffled_start_fen(&rules, seed).expect("shuffles");
                let pos = Position::from_fen(&rules, &fen).expect("reads back");
                let row = fen
                    .split('/')
                    .next_back()
                    .unwrap_or("")
                    .split(' ')
                    .next()
                    .unwrap_or("");
                let k = row.find('K').expect("king");
                let r: Vec<usize> = row.match_indices('R').map(|(i, _)| i).collect();
                assert!(r.len() == 2 && r[0] < k && k < r[1], "{fen}");
                let b: Vec<usize> = row.match_indices('B').map(|(i, _)| i).collect();
                assert!(b.len() == 2 && (b[0] + b[1]) % 2 == 1, "{fen}");
                assert_eq!(pos.state().castling[0].iter().count(), 2, "{fen}");
                seen.insert(fen);
            }
            assert!(seen.len() > 100, "{name}: {} positions", seen.len());
        }
    }
}
