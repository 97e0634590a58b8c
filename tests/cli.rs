//! The `menagerie` subcommands: exact output and exit status.

mod common;
use common::menagerie;

use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_counts() {
    let o = menagerie(&["perft", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("Nodes searched: 8902\n"),
        "{}",
        stdout(&o)
    );
    let o = menagerie(&[
        "perft",
        "2",
        "--fen",
        "k7/8/8/8/8/8/8/K7[q] w - - 0 1",
        "--variant",
        "crazyhouse",
        "--divide",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "a1a2: 65\na1b2: 65\na1b1: 65\n\nNodes searched: 195\n"
    );
}

/// perft reads its FEN as `setboard` and UCI `position fen` do: a position that cannot
/// be played is refused with the same reason (tests/data/protocol/cecp_game.txt and
/// uci_session.txt have the protocol side).
#[test]
fn perft_refuses_what_setboard_refuses() {
    for (fen, why) in [
        (
            "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1",
            "error: illegal position: the side that is not to move is in check\n",
        ),
        (
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "error: illegal position: White has no king\n",
        ),
        (
            "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1 extra",
            "error: bad FEN: unexpected text 'extra' at the end\n",
        ),
    ] {
        let o = menagerie(&["perft", "2", "--fen", fen]);
        assert_eq!(o.status.code(), Some(1), "{fen}");
        assert_eq!(stderr(&o), why, "{fen}");
        assert_eq!(stdout(&o), "", "{fen}");
    }
}

#[test]
fn perft_refuses_bad_moves_and_variants() {
    let o = menagerie(&["perft", "1", "--moves", "e2e4 e2e4"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "error: move e2e4: not legal in this position\n");
    let o = menagerie(&["perft", "1", "--variant", "atlantis"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "error: unknown variant 'atlantis'\n");
}

/// `normal` is chess on the command line as in UCI and CECP (the alias table,
/// src/variant/names.rs).
#[test]
fn perft_and_bench_take_normal_for_chess() {
    let o = menagerie(&["perft", "3", "--variant", "normal"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("Nodes searched: 8902\n"),
        "{}",
        stdout(&o)
    );
    let o = menagerie(&["bench", "1", "--variant", "normal"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(" chess "), "{}", stdout(&o));
    let o = menagerie(&["perft", "1", "--variant", "supply"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: supply: two-board games are not supported"),
        "{}",
        stderr(&o)
    );
    let o = menagerie(&["bench", "1", "--variant", "atlantis"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: no variant called 'atlantis' is loaded\n"
    );
}

/// `bench --nnue` searches with a variant's built-in net (minishogi has one: other
/// nodes) and leaves a variant without one (chess) as it was.
#[test]
fn bench_nnue_uses_the_built_in_nets() {
    let nodes = |args: &[&str]| {
        let o = menagerie(args);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        out.lines()
            .find_map(|l| l.strip_prefix("Nodes searched: "))
            .unwrap_or_else(|| panic!("no node count in {out}"))
            .to_string()
    };
    let mini = ["bench", "6", "--variant", "minishogi"];
    let chess = ["bench", "4", "--variant", "chess"];
    assert_ne!(nodes(&mini), nodes(&[&mini[..], &["--nnue"]].concat()));
    assert_eq!(nodes(&chess), nodes(&[&chess[..], &["--nnue"]].concat()));
}

#[test]
fn moves_of_a_piece() {
    let o = menagerie(&["moves", "N", "--square", "a1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "b3 c2\n");
}

/// `tune --start` fits from a weights file; a bad line in it is refused with its
/// file:line, the term and the value, before any fitting.
#[test]
fn tune_starts_from_a_weights_file() {
    let dir = std::env::temp_dir().join(format!("menagerie-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let data = dir.join("data.txt");
    std::fs::write(
        &data,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;-30;0.5;e7e5\n",
    )
    .expect("write data");
    let good = dir.join("good.txt");
    std::fs::write(&good, "tempo = 50 20\n").expect("write weights");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "tempo = 50 20\nvalue N = many\n").expect("write weights");
    let tune = |start: &std::path::Path| {
        let (d, s) = (data.to_str().unwrap(), start.to_str().unwrap());
        menagerie(&[
            "tune",
            "--variant",
            "chess",
            "--data",
            d,
            "--start",
            s,
            "--epochs",
            "0",
        ])
    };
    let o = tune(&good);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = tune(&bad);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("bad.txt:2") && err.contains("value N") && err.contains("many"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Every subcommand loads variant files with the one loader (src/cli/variants.rs): a
/// bad section is reported as `error: FILE:LINE: ...`, as protocol mode reports it,
/// and the sections that load stay usable.
#[test]
fn variant_file_errors_read_the_same_everywhere() {
    let dir = std::env::temp_dir().join(format!("menagerie-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("mixed.ini");
    std::fs::write(&file, "[bad2:chess]\nfoo = 1\n[good:chess]\n").expect("write ini");
    let path = file.to_str().expect("UTF-8 temp path");
    let expected = format!("error: {path}:2: [bad2] foo = 1: unknown key\n");
    let o = menagerie(&["variants", "--variants", path]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o), expected);
    assert!(stdout(&o).lines().any(|l| l.starts_with("good 8x8 ")));
    let o = menagerie(&["perft", "2", "--variant", "good", "--variants", path]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).starts_with(&expected), "{}", stderr(&o));
    assert!(stdout(&o).ends_with("Nodes searched: 400\n"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `check` refuses a variant whose start position `perft --fen` refuses, for the
/// same reason, at the line that sets it; a start where the game is over loads, and
/// the sections beside the bad one load too.
#[test]
fn check_refuses_a_start_position_that_fen_refuses() {
    let illegal = "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1";
    let o = menagerie(&["perft", "1", "--fen", illegal]);
    assert_eq!(
        stderr(&o),
        "error: illegal position: the side that is not to move is in check\n"
    );
    let dir = std::env::temp_dir().join(format!("menagerie-start-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("starts.ini");
    std::fs::write(
        &file,
        format!(
            "[fine:chess]\n\n[checked:chess]\nstartFen = {illegal}\n\n\
             [mated:chess]\nstartFen = 4k3/8/8/8/8/8/5PPP/r5K1 w - - 0 1\n"
        ),
    )
    .expect("write ini");
    let path = file.to_str().expect("UTF-8 temp path");
    let o = menagerie(&["check", path]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert_eq!(
        stdout(&o),
        format!(
            "ok fine 8x8 6 pieces\n\
             ok mated 8x8 6 pieces\n\
             error {path}:4: [checked] startFen = {illegal}: the side that is not to move is in check\n"
        )
    );
    std::fs::remove_dir_all(&dir).ok();
}
