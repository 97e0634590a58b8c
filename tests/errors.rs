//! Bad input never panics: variant files, FENs and XBetza give errors that say where
//! and why.

use menagerie::board::{Position, Ruleset, SetupError, check_variant, fen};
use menagerie::movegen::notation;
use menagerie::types::{Color, RankNumbering};
use menagerie::variant::VariantSet;
use menagerie::xbetza::{self, Dialect};

mod common;
use common::Rng;

#[test]
fn xbetza_errors_name_position_and_reason() {
    let e = xbetza::parse("fmX", Dialect::XBoard).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad XBetza 'fmX' at position 3: unknown atom 'X'"
    );
    let e = xbetza::parse("fmW3q", Dialect::XBoard).unwrap_err();
    assert_eq!(e.position, 4);
    assert!(e.reason.contains("unknown modifier 'q'"), "{}", e.reason);
    let e = xbetza::parse("R123", Dialect::XBoard).unwrap_err();
    assert!(e.reason.contains("at most two digits"), "{}", e.reason);
    let e = xbetza::parse("Nfm", Dialect::XBoard).unwrap_err();
    assert!(e.reason.contains("not followed by an atom"), "{}", e.reason);
    let e = xbetza::parse("isO", Dialect::XBoard).unwrap_err();
    assert!(e.reason.contains("needs a distance"), "{}", e.reason);
    let e = xbetza::parse("3N", Dialect::XBoard).unwrap_err();
    assert!(e.reason.contains("must follow an atom"), "{}", e.reason);
    assert!(
        xbetza::parse("", Dialect::XBoard).is_ok(),
        "empty = immobile piece"
    );
}

#[test]
fn random_xbetza_never_panics() {
    let mut rng = Rng(12345);
    let alphabet = b"WFDNAHCZGKRBQOJLmcdetpgoynjiafbvlrsh0123456789xqz@ ";
    for _ in 0..20000 {
        let s = rng.string(alphabet, 14);
        for d in [Dialect::XBoard, Dialect::FairyStockfish] {
            if let Ok(m) = xbetza::parse(&s, d) {
                let _ = xbetza::to_xboard(&m);
            }
        }
    }
}

#[test]
fn variant_file_errors_name_file_line_key_and_value() {
    let text = "\
# a comment
[good:chess]
maxFile = 10
startFen = rnbqkbnrrr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBNRRR w - - 0 1

[badkey:chess]
frobnicate = true

[badvalue:chess]
castling = maybe

[badbetza:chess]
customPiece1 = z:fmX

[badfen:chess]
startFen = rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1

[orphan:nosuchparent]
castling = false

[unsupported:chess]
wallingRule = sideways

[big:chess]
maxRank = 17

[chasing:chess]
chasingRule = axf

[bughouse:crazyhouse]
twoBoards = true

[counting:chess]
materialCounting = points
";
    let mut set = VariantSet::builtin(check_variant);
    let report = set.load_str("user.ini", text);
    assert_eq!(report.loaded, vec!["good".to_string()]);
    let msgs: Vec<String> = report.errors.iter().map(|e| e.to_string()).collect();
    let expect = [
        "user.ini:7: [badkey] frobnicate = true: unknown key",
        "user.ini:10: [badvalue] castling = maybe: expected true or false",
        "user.ini:13: [badbetza] customPiece1 = z:fmX: bad XBetza 'fmX' at position 3: unknown atom 'X'",
        "user.ini:16: [badfen] startFen = rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1: rank 7 has 7 files instead of 8",
        "user.ini:18: [orphan] parent = nosuchparent: no variant of that name is loaded (it is unknown or failed to load)",
        "user.ini:22: [unsupported] wallingRule = sideways: expected none, arrow, duck, edge, past or static",
        "user.ini:25: [big] maxRank = 17: the board has 1 to 16 ranks",
        "user.ini:28: [chasing] chasingRule = axf: the chasing rules are not supported",
        "user.ini:31: [bughouse] twoBoards = true: two-board games are not supported: the pieces a player drops come from the partner's board, which a one-board engine does not have",
        "user.ini:34: [counting] materialCounting = points: expected janggi, none, unweighted, whitedrawodds or blackdrawodds",
    ];
    for e in expect {
        assert!(
            msgs.iter().any(|m| m == e),
            "missing error '{e}' in:\n{}",
            msgs.join("\n")
        );
    }
    assert_eq!(msgs.len(), expect.len(), "{}", msgs.join("\n"));
    assert!(set.get("good").is_some() && set.get("chess").is_some());
}

#[test]
fn syntax_errors_spare_other_sections() {
    let mut set = VariantSet::empty(check_variant);
    let report = set.load_str("x.ini", "stray = 1\n[a]\nking = k\nthis line has no equals\n[b]\nking = k\nstartFen = 8/8/8/8/8/8/8/K7 w - - 0 1\n");
    assert_eq!(report.loaded, vec!["b".to_string()]);
    assert_eq!(report.errors.len(), 2, "{:?}", report.errors);
    assert_eq!(report.errors[0].line, 1);
    assert_eq!(report.errors[1].line, 4);
}

#[test]
fn random_files_never_panic() {
    let mut rng = Rng(777);
    let keys = [
        "maxRank",
        "maxFile",
        "king",
        "pawn",
        "customPiece1",
        "startFen",
        "promotionRegionWhite",
        "pieceDrops",
        "castling",
        "promotedPieceType",
        "mobilityRegionWhiteKing",
        "extinctionPieceTypes",
        "pocketSize",
        "dropNoDoubled",
    ];
    let alphabet = b"kqrbnpKQRBNP0123456789/[]-*: ~+wmfsWFN";
    for i in 0..2000 {
        let mut text = format!("[v{i}:chess]\n");
        for _ in 0..(rng.next() % 5) {
            let k = keys[(rng.next() % keys.len() as u64) as usize];
            text.push_str(&format!("{k} = {}\n", rng.string(alphabet, 20)));
        }
        let mut set = VariantSet::builtin(check_variant);
        let report = set.load_str("r.ini", &text);
        for name in report.loaded {
            let v = set.get(&name).expect("loaded");
            let rules = Ruleset::new(v);
            let mut pos = Position::start(&rules);
            let _ = menagerie::movegen::perft(&mut pos, 2);
        }
    }
}

#[test]
fn bad_fens_are_errors() {
    let set = VariantSet::builtin(check_variant);
    let rules = Ruleset::new(set.get("chess").expect("chess"));
    for (fen, why) in [
        ("", "empty FEN"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
            "the board has 8 ranks but the FEN gives 7",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 6 has 9 files instead of 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "'X' is not a piece of chess",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move 'x' is neither w nor b",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
            "bad en passant square 'z9'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "bad halfmove clock 'x'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            "unexpected text 'extra' at the end",
        ),
    ] {
        let e = Position::from_fen(&rules, fen).unwrap_err();
        assert_eq!(e.to_string(), why, "FEN '{fen}'");
    }
    // Missing trailing fields are fine.
    assert!(Position::from_fen(&rules, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").is_ok());
    assert!(Position::from_fen(&rules, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b").is_ok());
}

/// FENs that read but cannot be played are refused by `Position::from_setup` (the one
/// check every caller gets: CLI, CECP `setboard`, UCI `position fen`).
#[test]
fn unplayable_positions_are_errors() {
    let set = VariantSet::builtin(check_variant);
    let refused = |variant: &str, fen: &str| {
        let rules = Ruleset::new(set.get(variant).expect("built in"));
        let setup = fen::parse(&rules.variant, fen).expect("the text reads");
        match Position::from_setup(&rules, &setup) {
            Ok(_) => None,
            Err(e) => {
                assert_eq!(Position::from_fen(&rules, fen).unwrap_err(), e.into());
                Some(e)
            }
        }
    };
    use SetupError::*;
    let b = Color::Black;
    let w = Color::White;
    assert_eq!(
        refused("chess", "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1"),
        Some(OpponentInCheck)
    );
    assert_eq!(
        refused("chess", "8/8/8/8/8/8/8/4K3 w - - 0 1"),
        Some(NoKing(b))
    );
    assert_eq!(
        refused("chess", "4k3/8/8/8/8/8/8/8 b - - 0 1"),
        Some(NoKing(w))
    );
    assert_eq!(
        NoKing(w).to_string(),
        "White has no king",
        "the words the protocols show"
    );
    // Horde's White has no king to begin with.
    assert_eq!(refused("horde", "4k3/8/8/8/8/8/PPPPPPPP/8 w - - 0 1"), None);
    // A game that is over is a position (as pyffish accepts it): antichess's side
    // without pieces has won, atomic's side whose king exploded has lost.
    assert_eq!(refused("antichess", "8/8/8/8/8/8/8/1Q6 b - - 0 1"), None);
    assert_eq!(refused("atomic", "4k3/8/8/8/8/8/8/8 w - - 0 1"), None);
    // Spartan's kings are pseudo-royal: never captured, so never all gone.
    assert_eq!(
        refused(
            "spartan",
            "lgkcckwl/hhhhhhhh/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1"
        ),
        Some(NoVitalPieces(w))
    );
    // Without royal pieces there is no check to forbid.
    assert_eq!(
        refused("antichess", "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1"),
        None
    );
}

/// The loader takes the built-in variants' start positions on trust (setting up
/// every variant's rules at each run would be slow): each one passes the checks a
/// user's file gets, those of `--fen`.
#[test]
fn every_builtin_start_position_passes_the_fen_checks() {
    let set = VariantSet::builtin(check_variant);
    let mut checked = 0;
    for name in set.names() {
        let v = set.get(name).expect("listed");
        if let Err(e) = fen::check_start_position(&v) {
            panic!("{name}: start position {}: {e}", v.start_fen);
        }
        checked += 1;
    }
    assert!(checked > 50, "only {checked} built-in variants");
}

#[test]
fn random_fens_and_moves_never_panic() {
    let set = VariantSet::builtin(check_variant);
    let mut rng = Rng(4242);
    let alphabet = b"kqrbnpKQRBNP12345678/[]-+~ wb0123456789@";
    for v in set.iter() {
        let rules = Ruleset::new(v.clone());
        for _ in 0..500 {
            let fen = rng.string(alphabet, 60);
            if let Ok(mut pos) = Position::from_fen(&rules, &fen) {
                let _ = menagerie::movegen::perft(&mut pos, 1);
                let _ = pos.fen();
            }
        }
        let mut pos = Position::start(&rules);
        for _ in 0..500 {
            let mv = rng.string(b"abcdefghijklmnop0123456789@+=,PNQx", 9);
            let _ = notation::parse_move(&mut pos, &mv, RankNumbering::XBoard);
        }
    }
}

#[test]
fn readme_examples_load() {
    let readme = include_str!("../README.md");
    let mut set = VariantSet::builtin(check_variant);
    let mut blocks = 0;
    for block in readme.split("```ini\n").skip(1) {
        let text = block.split("```").next().unwrap_or("");
        let report = set.load_str("README.md", text);
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        blocks += 1;
    }
    assert!(blocks > 0);
}
