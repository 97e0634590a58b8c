//! How XBoard sees one of our variants, worked out once per `variant` command:
//! whether XBoard plays it natively, otherwise the `setup (PIECETOCHAR) WxH+S_PARENT
//! FEN` and `piece` commands that define it (xboard-variants.md), and the letters,
//! images and holdings slots XBoard will use for our pieces.

mod kinds;
mod layout;
pub mod names;
pub mod parents;
mod table;

use crate::types::PieceType;
use crate::variant::Variant;
use kinds::collect_kinds;
use layout::{derive_table, engine_defined, given_table, native};

/// Our name for orthodox chess, which XBoard calls `normal`.
pub const CHESS: &str = "chess";

/// Built-in variants XBoard has no button of its own for, most played first (by the
/// game counts of the large variant sites, lichess.org and pychess.org, as far as
/// they go): XBoard 4.9.1's New Variant dialog shows only the first 22 engine-defined
/// names of `feature variants`, after the user's own variants.
pub const MOST_PLAYED: &[&str] = &[
    "kingofthehill",
    "racingkings",
    "horde",
    "antichess",
    "minishogi",
    "placement",
    "shouse",
    "capahouse",
    "shako",
    "minixiangqi",
    "gorogoro",
    "torishogi",
    "manchu",
    "5check",
    "hoppelpoppel",
    "chaturanga",
    "embassy",
    "amazon",
    "checkshogi",
    "losalamos",
    "chessgi",
    "misere",
];

/// The name XBoard knows a variant of ours by.
pub fn xboard_name(name: &str) -> &str {
    if name == CHESS { "normal" } else { name }
}

/// A variant as XBoard sees it.
#[derive(Clone, Debug)]
pub struct XbVariant {
    /// Commands to send after `variant NAME`: `setup` and `piece` lines (none when
    /// XBoard plays the variant natively).
    pub announce: Vec<String>,
    /// XBoard's letter (upper case) for each of our piece types, where it has one.
    letters: Vec<Option<char>>,
    /// Our piece type held in each holdings slot (None: a slot XBoard counts but
    /// never fills).
    slots: Vec<Option<PieceType>>,
    /// Holdings size XBoard uses.
    pub holdings: usize,
    /// XBoard's parent is shogi: moves that could promote but do not carry `=`.
    pub defers_with_equals: bool,
}

impl XbVariant {
    /// Work out how XBoard should see `v`.
    pub fn new(v: &Variant) -> XbVariant {
        let kinds = collect_kinds(v);
        let name = xboard_name(&v.name);
        let builtin = names::builtin_variant(name);
        if let Some(b) = builtin {
            let parent = parents::parent(b);
            if let Some(native) = native(v, &kinds, &parent) {
                return native;
            }
        }
        let has_holdings = kinds.iter().any(|k| k.in_hand);
        let parent_name = match builtin {
            Some(b) => b,
            None => parents::parent_for_template(&v.variant_template, has_holdings),
        };
        let parent = parents::parent(parent_name);
        let (table, assigned) = v
            .piece_to_char_table
            .as_deref()
            .and_then(|t| given_table(t, v, &kinds, &parent))
            .unwrap_or_else(|| derive_table(&kinds, v, &parent));
        engine_defined(v, &kinds, &parent, &table, &assigned)
    }

    /// XBoard's letter for a piece type (our own letter when XBoard has none).
    pub fn letter(&self, v: &Variant, t: PieceType) -> char {
        self.letters
            .get(t as usize)
            .copied()
            .flatten()
            .unwrap_or(v.pieces[t as usize].letter)
    }

    /// Our piece type for an XBoard letter (either case).
    pub fn piece_type(&self, letter: char) -> Option<PieceType> {
        let up = letter.to_ascii_uppercase();
        self.letters
            .iter()
            .position(|l| *l == Some(up))
            .map(|i| i as PieceType)
    }

    /// The piece type in holdings slot `slot` (0-based).
    pub fn slot_type(&self, slot: usize) -> Option<PieceType> {
        if slot >= self.holdings {
            return None;
        }
        self.slots.get(slot).copied().flatten()
    }

    /// Rewrite the piece letters of a FEN from XBoard's to ours.
    pub fn fen_from_xboard(&self, v: &Variant, fen: &str) -> String {
        let (placement, rest) = fen.split_once(' ').unwrap_or((fen, ""));
        let mapped: String = placement
            .chars()
            .map(|c| match self.piece_type(c) {
                Some(t) if c.is_ascii_alphabetic() => {
                    let ours = v.pieces[t as usize].letter;
                    if c.is_ascii_uppercase() {
                        ours
                    } else {
                        ours.to_ascii_lowercase()
                    }
                }
                _ => c,
            })
            .collect();
        if rest.is_empty() {
            mapped
        } else {
            format!("{mapped} {rest}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::table::Table;
    use super::*;
    use crate::variant::VariantSet;

    fn variant(name: &str, extra: &str) -> XbVariant {
        let mut set = VariantSet::builtin(crate::board::check_variant);
        let report = set.load_str(
            "variants.ini",
            include_str!("../../../tests/data/protocol/variants.ini"),
        );
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let report = set.load_str("extra.ini", extra);
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        XbVariant::new(&set.get(name).expect("loaded"))
    }

    #[test]
    fn native_variants_need_no_setup() {
        for name in ["chess", "crazyhouse", "shogi", "xiangqi", "capablanca"] {
            assert!(variant(name, "").announce.is_empty(), "{name}");
        }
    }

    #[test]
    fn changed_native_variant_is_described() {
        // Crazyhouse on a smaller board is not XBoard's crazyhouse.
        let xb = variant(
            "crazyhouse",
            "[crazyhouse:crazyhouse]\nmaxFile = 7\nstartFen = rnbqkbn/ppppppp/7/7/7/7/PPPPPPP/RNBQKBN[] w - - 0 1\n",
        );
        assert!(
            xb.announce[0].starts_with("setup (PNBRQ")
                && xb.announce[0].contains(" 7x8+5_crazyhouse "),
            "{:?}",
            xb.announce
        );
    }

    #[test]
    fn given_table_is_used_when_it_fits() {
        let ini = "[minixq]\nvariantTemplate = xiangqi\npieceToCharTable = PN.R.....K.C.pn.r.....k.c.\nmaxRank = 7\nmaxFile = 7\nrook = r\nhorse = n\ncannon = c\nsoldier = p\nking = k:W\nflyingGeneral = true\ndoubleStep = false\ncastling = false\nstartFen = rcnkncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCR w - - 0 1\n";
        let xb = variant("minixq", ini);
        assert_eq!(
            xb.announce,
            vec!["setup (PN.R.....K.C.pn.r.....k.c.) 7x7+0_xiangqi rcnkncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCR w - - 0 1".to_string()]
        );
    }

    #[test]
    fn promoted_pieces_avoid_the_lance_image() {
        let xb = variant("kirinshogi", "");
        let table = xb.announce[0].split_whitespace().nth(1).unwrap_or("");
        // Image 18 is '.', the kirin's promotion is written with ^I elsewhere.
        let t = Table::parse(&table[1..table.len() - 1]).expect("a valid table");
        assert_eq!(t.get(18), None, "{table}");
        assert!(table.contains("^I"), "{table}");
        assert_eq!(xb.holdings, 10);
    }

    #[test]
    fn crazyhouse_style_promotions_and_holdings() {
        let xb = variant("lionhouse", "");
        // The Lion is held, so it sits before the `~` images; its promoted twin is
        // drawn with the Lion's picture (image 21), so it sits 11 below (image 10).
        assert!(
            xb.announce[0].starts_with("setup (PNBR......L.~~~......~K"),
            "{:?}",
            xb.announce
        );
        assert_eq!(xb.holdings, 5);
        assert_eq!(xb.announce[1], "piece L& KNADcaK");
    }
}
