//! Built-in piece names of the variant-file dialect and the moves they stand for.

/// A built-in piece: its key name in variant files and its XBetza.
pub struct BuiltinPiece {
    pub name: &'static str,
    pub betza: &'static str,
}

/// Every built-in piece name, in the order Fairy-Stockfish lists them.
pub const BUILTIN_PIECES: &[BuiltinPiece] = &[
    BuiltinPiece {
        name: "pawn",
        betza: "fmWfceF",
    },
    BuiltinPiece {
        name: "knight",
        betza: "N",
    },
    BuiltinPiece {
        name: "bishop",
        betza: "B",
    },
    BuiltinPiece {
        name: "rook",
        betza: "R",
    },
    BuiltinPiece {
        name: "queen",
        betza: "Q",
    },
    BuiltinPiece {
        name: "fers",
        betza: "F",
    },
    BuiltinPiece {
        name: "alfil",
        betza: "A",
    },
    BuiltinPiece {
        name: "fersAlfil",
        betza: "FA",
    },
    BuiltinPiece {
        name: "silver",
        betza: "FfW",
    },
    BuiltinPiece {
        name: "aiwok",
        betza: "RNF",
    },
    BuiltinPiece {
        name: "bers",
        betza: "RF",
    },
    BuiltinPiece {
        name: "archbishop",
        betza: "BN",
    },
    BuiltinPiece {
        name: "chancellor",
        betza: "RN",
    },
    BuiltinPiece {
        name: "amazon",
        betza: "QN",
    },
    BuiltinPiece {
        name: "knibis",
        betza: "mNcB",
    },
    BuiltinPiece {
        name: "biskni",
        betza: "mBcN",
    },
    BuiltinPiece {
        name: "kniroo",
        betza: "mNcR",
    },
    BuiltinPiece {
        name: "rookni",
        betza: "mRcN",
    },
    BuiltinPiece {
        name: "shogiPawn",
        betza: "fW",
    },
    BuiltinPiece {
        name: "lance",
        betza: "fR",
    },
    BuiltinPiece {
        name: "shogiKnight",
        betza: "fN",
    },
    BuiltinPiece {
        name: "gold",
        betza: "WfF",
    },
    BuiltinPiece {
        name: "dragonHorse",
        betza: "BW",
    },
    BuiltinPiece {
        name: "clobber",
        betza: "cW",
    },
    BuiltinPiece {
        name: "breakthrough",
        betza: "fmWfF",
    },
    BuiltinPiece {
        name: "immobile",
        betza: "",
    },
    BuiltinPiece {
        name: "cannon",
        betza: "mRcpR",
    },
    BuiltinPiece {
        name: "janggiCannon",
        betza: "pR",
    },
    BuiltinPiece {
        name: "soldier",
        betza: "fsW",
    },
    BuiltinPiece {
        name: "horse",
        betza: "nN",
    },
    BuiltinPiece {
        name: "elephant",
        betza: "nA",
    },
    BuiltinPiece {
        name: "janggiElephant",
        betza: "nZ",
    },
    BuiltinPiece {
        name: "banner",
        betza: "RcpRnN",
    },
    BuiltinPiece {
        name: "wazir",
        betza: "W",
    },
    BuiltinPiece {
        name: "commoner",
        betza: "K",
    },
    BuiltinPiece {
        name: "centaur",
        betza: "KN",
    },
    BuiltinPiece {
        name: "king",
        betza: "K",
    },
];

/// Built-in pieces whose Fairy-Stockfish rules go beyond XBetza, so that playing
/// them by their Betza alone would be wrong: name and why they are refused.
const UNSUPPORTED_BUILTINS: &[(&str, &str)] = &[];

/// Why the built-in piece `name` cannot be used without its own moves, if it cannot.
pub fn unsupported_builtin(name: &str) -> Option<&'static str> {
    UNSUPPORTED_BUILTINS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, why)| why)
}

pub fn builtin(name: &str) -> Option<&'static BuiltinPiece> {
    BUILTIN_PIECES.iter().find(|p| p.name == name)
}

/// `customPieceN` → N.
pub fn custom_slot_number(name: &str) -> Option<u32> {
    let n = name.strip_prefix("customPiece")?;
    if n.is_empty() || n.starts_with('0') || !n.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    n.parse().ok().filter(|&n| n >= 1)
}

/// The piece name as it appears inside `mobilityRegion{White,Black}<Name>` keys.
pub fn capitalized(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}
