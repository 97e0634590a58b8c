//! Variant files are read as Fairy-Stockfish reads them: the expected values below
//! were checked against pyffish (the rules oracle).

use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::movegen::notation;
use menagerie::types::{MoveList, RankNumbering};
use menagerie::variant::VariantSet;

/// Load `text` on top of the built-in variants; every section must load.
fn load(text: &str) -> VariantSet {
    let mut set = VariantSet::builtin(check_variant);
    let report = set.load_str("test.ini", text);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    set
}

/// White's legal drops in `fen`, as move strings.
fn drops(set: &VariantSet, variant: &str, fen: &str) -> Vec<String> {
    let rules = Ruleset::new(set.get(variant).expect("loaded"));
    let mut pos = Position::from_fen(&rules, fen).expect("FEN");
    let mut list = MoveList::new();
    rules.generate_legal(&mut pos, &mut list);
    list.iter()
        .filter(|m| m.is_drop())
        .map(|&m| notation::move_to_string(&pos, m, RankNumbering::FromOne))
        .collect()
}

#[test]
fn a_lone_star_in_a_region_is_empty_and_ends_it() {
    let set = load(
        "\
[star:crazyhouse]
dropRegionWhite = *
dropRegionBlack = *

[star-middle:crazyhouse]
dropRegionWhite = a3 * a4
",
    );
    let star = set.get("star").expect("loaded");
    assert!(star.drop_region[0].is_empty() && star.drop_region[1].is_empty());
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1";
    // pyffish: no drop at all, and N@a3 only (reading stops at the '*').
    assert_eq!(drops(&set, "star", fen), Vec::<String>::new());
    assert_eq!(drops(&set, "star-middle", fen), vec!["N@a3".to_string()]);
    assert_eq!(drops(&set, "crazyhouse", fen).len(), 32);
}

#[test]
fn a_byte_order_mark_starts_no_line() {
    let mut set = VariantSet::builtin(check_variant);
    let report = set.load_str(
        "bom.ini",
        "\u{feff}[bom:chess]\ncastling = false\n\n[bom-key:chess]\nfrobnicate = 1\n",
    );
    assert_eq!(report.loaded, vec!["bom".to_string()]);
    let msgs: Vec<String> = report.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(msgs, ["bom.ini:5: [bom-key] frobnicate = 1: unknown key"]);
    assert!(!set.get("bom").expect("loaded").castling);

    // A mark before a comment or a key: line numbers are unchanged.
    let report = set.load_str("bom2.ini", "\u{feff}stray = 1\n[ok:chess]\n");
    let msgs: Vec<String> = report.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        msgs,
        ["bom2.ini:1: stray = 1: a key outside of any [section]"]
    );
    assert_eq!(report.loaded, vec!["ok".to_string()]);
}

#[test]
fn a_weights_file_beside_a_variant_file_is_read_and_its_errors_name_file_and_line() {
    use menagerie::eval::Evaluator;
    let dir = std::env::temp_dir().join(format!("menagerie-weights-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("weights")).expect("temp dir");
    let ini = dir.join("mine.ini");
    std::fs::write(&ini, "[mine:chess]\n\n[other:chess]\n").expect("write");
    let weights = dir.join("weights").join("mine.txt");
    std::fs::write(&weights, "tempo = 30 20\nvalue N = 333\n").expect("write");
    let mut set = VariantSet::builtin(check_variant);
    let report = menagerie::eval::weights::load_variant_file(&mut set, &ini);
    // (The evaluation layer reads the terms: it adds the errors of the weights.)
    let _ = std::fs::remove_dir_all(&dir);
    // A bad line is an error with the file and line; the variant still loads.
    assert_eq!(report.loaded, vec!["mine".to_string(), "other".to_string()]);
    let msgs: Vec<String> = report.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        msgs,
        [format!(
            "{}:2: [mine] value N = 333: this term takes two numbers (middlegame, endgame)",
            weights.display()
        )]
    );
    // The good line counts; a variant without a file of its own plays with its
    // parent's weights when it has the parent's pieces.
    let eval = |name: &str| Evaluator::new(&Ruleset::new(set.get(name).expect("loaded")));
    let (mine, other, chess) = (eval("mine"), eval("other"), eval("chess"));
    use menagerie::eval::terms::GlobalTerm;
    assert_eq!(mine.params().global(GlobalTerm::Tempo), [30.0, 20.0]);
    assert_eq!(other.params(), chess.params());
}
