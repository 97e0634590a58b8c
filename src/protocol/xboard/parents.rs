//! What XBoard 4.9.1 itself knows about the variants it builds in: board size,
//! holdings, its piece table and start position, and the moves it gives each piece
//! image (xboard-variants.md §3-4). Used twice: to decide whether a variant of ours
//! with a built-in name matches XBoard's (then no `setup` is needed), and to decide
//! which pieces of an engine-defined variant need a `piece` command because the
//! parent variant moves their image differently.
//!
//! Moves are written as XBetza and compared in canonical form; two pseudo-signatures
//! stand for pieces whose rules XBetza cannot hold: [`FIDE_PAWN`] and [`SOLDIER`].

/// The King image: the last entry of each half of a piece table.
pub const KING_IMAGE: u8 = 65;
/// The Lance image: XBoard promotes a piece on it that reaches the last rank.
pub const LANCE_IMAGE: u8 = 18;

/// The FIDE pawn with its double step (its signature is its XBetza).
pub const FIDE_PAWN: &str = "fmWfceFifmnD";
/// A pawn without double step and en passant (shatranj, makruk, ...).
pub const PLAIN_PAWN: &str = "fmWfcF";
/// The xiangqi soldier: forward, and sideways too after crossing the river.
pub const SOLDIER: &str = "soldier";

/// A built-in XBoard variant.
pub struct Parent {
    pub name: &'static str,
    pub files: u8,
    pub ranks: u8,
    pub holdings: u8,
    /// XBoard's piece table, white half (images in order, the King image last).
    pub table: &'static str,
    /// XBoard's start position, board part, in its letters.
    pub start: &'static str,
    /// (image, moves) for every image whose moves XBoard builds in for this parent
    /// and that we can rely on.
    pub moves: &'static [(u8, &'static str)],
    /// Image of the royal piece.
    pub royal_image: u8,
    /// False where the king is an ordinary piece (giveaway, suicide).
    pub royal_king: bool,
    /// Pieces on images up to this one can promote with `+` to their partner image.
    pub promotable_max: u8,
    /// A shuffle variant with Chess960 castling (XBoard shuffles `start` itself).
    pub chess960: bool,
}

const CHESS_MOVES: &[(u8, &str)] = &[
    (0, FIDE_PAWN),
    (1, "N"),
    (2, "B"),
    (3, "R"),
    (4, "Q"),
    (KING_IMAGE, "K"),
];
const CAPABLANCA_MOVES: &[(u8, &str)] = &[
    (0, FIDE_PAWN),
    (1, "N"),
    (2, "B"),
    (3, "R"),
    (4, "Q"),
    (7, "BN"),
    (8, "RN"),
    (KING_IMAGE, "K"),
];
const SHOGI_MOVES: &[(u8, &str)] = &[
    (0, "fW"),
    (1, "fN"),
    (2, "B"),
    (3, "R"),
    (4, "fR"),
    (5, "FfW"),
    (9, "WfF"),
    (11, "WfF"),
    (12, "WfF"),
    (13, "BW"),
    (14, "RF"),
    (15, "WfF"),
    (16, "WfF"),
    (KING_IMAGE, "K"),
];
const XIANGQI_MOVES: &[(u8, &str)] = &[
    (0, SOLDIER),
    (1, "nN"),
    (3, "R"),
    (5, "F"),
    (6, "nA"),
    (9, "W"),
    (11, "mRcpR"),
];
const SHATRANJ_MOVES: &[(u8, &str)] = &[
    (0, PLAIN_PAWN),
    (1, "N"),
    (3, "R"),
    (5, "F"),
    (6, "A"),
    (KING_IMAGE, "K"),
];
const MAKRUK_MOVES: &[(u8, &str)] = &[
    (0, PLAIN_PAWN),
    (1, "N"),
    (3, "R"),
    (5, "F"),
    (10, "FfW"),
    (KING_IMAGE, "K"),
];

const KNIGHTMATE_MOVES: &[(u8, &str)] = &[
    (0, FIDE_PAWN),
    (2, "B"),
    (3, "R"),
    (4, "Q"),
    (10, "K"),
    (20, "N"),
];

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

const fn chess_like(name: &'static str) -> Parent {
    Parent {
        name,
        files: 8,
        ranks: 8,
        holdings: 0,
        table: "PNBRQ...........K",
        start: CHESS_START,
        moves: CHESS_MOVES,
        royal_image: KING_IMAGE,
        royal_king: true,
        promotable_max: 10,
        chess960: false,
    }
}

/// Built-in variants whose rules we describe exactly; every other built-in name is
/// treated like `normal` on 8x8 (its pieces are the orthodox ones).
const PARENTS: &[Parent] = &[
    chess_like("normal"),
    Parent {
        table: "PNBRQFEACWMOHIJGDVLSUK",
        ..chess_like("fairy")
    },
    Parent {
        holdings: 5,
        table: "PNBRQ.......~~~~K",
        ..chess_like("crazyhouse")
    },
    Parent {
        name: "shogi",
        files: 9,
        ranks: 9,
        holdings: 7,
        table: "PNBRLS...G.++++++K",
        start: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
        moves: SHOGI_MOVES,
        royal_image: KING_IMAGE,
        royal_king: true,
        promotable_max: 8,
        chess960: false,
    },
    Parent {
        name: "xiangqi",
        files: 9,
        ranks: 10,
        holdings: 0,
        table: "PH.R.AE..K.C.",
        start: "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR",
        moves: XIANGQI_MOVES,
        royal_image: 9,
        royal_king: true,
        promotable_max: 0,
        chess960: false,
    },
    Parent {
        name: "capablanca",
        files: 10,
        table: "PNBRQ..ACK",
        start: "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR",
        moves: CAPABLANCA_MOVES,
        ..chess_like("capablanca")
    },
    Parent {
        chess960: true,
        ..chess_like("fischerandom")
    },
    Parent {
        name: "caparandom",
        files: 10,
        table: "PNBRQ..ACK",
        start: "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR",
        moves: CAPABLANCA_MOVES,
        chess960: true,
        ..chess_like("caparandom")
    },
    Parent {
        name: "gothic",
        files: 10,
        table: "PNBRQ..ACK",
        start: "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR",
        moves: CAPABLANCA_MOVES,
        ..chess_like("gothic")
    },
    Parent {
        table: "PN.R.QB....K",
        start: "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR",
        moves: SHATRANJ_MOVES,
        ..chess_like("shatranj")
    },
    Parent {
        table: "PN.R.M....SK",
        start: "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR",
        moves: MAKRUK_MOVES,
        ..chess_like("makruk")
    },
    // The royal piece moves as a knight, on the Unicorn image; a commoner instead.
    Parent {
        table: "P.BRQ.....M.........K.",
        start: "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR",
        moves: KNIGHTMATE_MOVES,
        royal_image: 20,
        ..chess_like("knightmate")
    },
    // The king is an ordinary piece.
    Parent {
        royal_king: false,
        ..chess_like("giveaway")
    },
    Parent {
        royal_king: false,
        ..chess_like("suicide")
    },
];

/// What XBoard knows about the built-in variant `name` (a name returned by
/// [`super::names::builtin_variant`]).
pub fn parent(name: &str) -> Parent {
    match PARENTS.iter().find(|p| p.name == name) {
        Some(p) => Parent { ..*p },
        None => Parent {
            name: super::names::static_name(name).unwrap_or("fairy"),
            ..chess_like("normal")
        },
    }
}

/// The parent to name in `setup` for a variant's `variantTemplate`, and whether the
/// variant has holdings. `bughouse` needs a partner board, so it becomes crazyhouse.
pub fn parent_for_template(template: &str, has_holdings: bool) -> &'static str {
    let t = template.to_ascii_lowercase();
    match super::names::builtin_variant(&t) {
        Some("bughouse") => "crazyhouse",
        Some("fairy") | Some("normal") | None if has_holdings => "crazyhouse",
        Some(p) => p,
        None => "fairy",
    }
}

/// Preferred images per parent: (moves, images), moves in any XBetza spelling.
const SHOGI_IMAGES: &[(&str, &[u8])] = &[
    ("fW", &[0]),
    ("fN", &[1]),
    ("fR", &[4]),
    ("FfW", &[5]),
    ("WfF", &[9]),
];
const XIANGQI_IMAGES: &[(&str, &[u8])] = &[
    (SOLDIER, &[0]),
    ("nN", &[1]),
    ("nA", &[6]),
    ("F", &[5]),
    ("W", &[9]),
    ("mRcpR", &[11]),
];
const GENERIC_IMAGES: &[(&str, &[u8])] = &[
    (FIDE_PAWN, &[0]),
    (PLAIN_PAWN, &[0]),
    ("fW", &[0]),
    (SOLDIER, &[0]),
    ("N", &[1, 20]),
    ("nN", &[1, 20]),
    ("B", &[2]),
    ("R", &[3]),
    ("Q", &[4]),
    ("F", &[5]),
    ("A", &[6]),
    ("nA", &[6]),
    ("FA", &[6]),
    ("BN", &[7]),
    ("RN", &[8]),
    ("W", &[9]),
    ("WfF", &[9]),
    ("K", &[10]),
    ("FfW", &[10]),
    ("mRcpR", &[11]),
    ("pR", &[11]),
    ("N0", &[12]),
    ("BW", &[13]),
    ("RF", &[14]),
    ("gQ", &[15]),
    ("fR", &[59]),
    ("KN", &[48, 10]),
    ("QN", &[29]),
    ("NC", &[31]),
    ("FC", &[35]),
    ("C", &[24]),
    ("Z", &[23]),
];

/// Preferred images for a piece whose canonical moves are `signature`, best first.
/// The picture should look like the piece; where the parent does not know the moves
/// of the image they are sent with `piece` anyway. `canon` turns an XBetza text into
/// the canonical form the signature is in.
pub fn preferred_images(signature: &str, parent: &str, canon: impl Fn(&str) -> String) -> Vec<u8> {
    let specific: &[(&str, &[u8])] = match parent {
        "shogi" => SHOGI_IMAGES,
        "xiangqi" => XIANGQI_IMAGES,
        _ => &[],
    };
    let mut out: Vec<u8> = Vec::new();
    for (key, images) in specific.iter().chain(GENERIC_IMAGES) {
        if canon(key) == signature {
            for &i in images.iter() {
                if !out.contains(&i) {
                    out.push(i);
                }
            }
        }
    }
    if signature.contains("caK") || signature.contains("cafK") {
        out.push(21); // the Lion
    }
    out
}

/// Images to use when no preferred image is free, in order. Image 18 (the Lance) is
/// left out because XBoard promotes it like a pawn; 11-21 come late because they are
/// the promotion partners of images 0-10.
pub fn fallback_images() -> impl Iterator<Item = u8> {
    // (18 = LANCE_IMAGE is never in this list.)
    (22..=64u8).chain([5, 6, 7, 8, 9, 10, 16, 17, 19, 20, 21, 11, 12, 13, 14, 15])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_well_formed() {
        for p in PARENTS {
            // The royal image is either the King (last entry) or a lettered image.
            assert!(p.table.len() >= 6, "{}", p.name);
            for &(img, _) in p.moves {
                let ch = if img == KING_IMAGE {
                    p.table.chars().last()
                } else {
                    p.table.chars().nth(img as usize)
                };
                assert!(ch.is_some_and(|c| c != '.'), "{} image {img}", p.name);
            }
        }
    }

    #[test]
    fn templates() {
        assert_eq!(parent_for_template("fairy", false), "fairy");
        assert_eq!(parent_for_template("fairy", true), "crazyhouse");
        assert_eq!(parent_for_template("bughouse", true), "crazyhouse");
        assert_eq!(parent_for_template("shogi", true), "shogi");
        assert_eq!(parent_for_template("makruk", false), "makruk");
    }
}
