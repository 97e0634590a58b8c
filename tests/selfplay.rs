//! `menagerie selfplay`: the number of games written, files that do not depend on the
//! thread count, resuming a cut file, the positions written (readable, quiet, with
//! a legal move), and errors for bad arguments.

mod common;
use common::menagerie;

use menagerie::board::{Position, find_builtin_rules};
use menagerie::eval::Evaluator;
use menagerie::eval::tune::Data;
use menagerie::movegen::notation;
use menagerie::types::{MoveKind, RankNumbering};
use std::path::{Path, PathBuf};
use std::process::Output;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("menagerie-selfplay-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Run `selfplay` for `variant` into `out`: small games (few nodes, a ply cap).
fn selfplay(variant: &str, games: u32, threads: u32, out: &Path) -> Output {
    let (games, threads) = (games.to_string(), threads.to_string());
    let out = out.to_str().expect("a UTF-8 path");
    menagerie(&[
        "selfplay",
        "--variant",
        variant,
        "--games",
        &games,
        "--nodes",
        "200",
        "--max-plies",
        "80",
        "--seed",
        "7",
        "--threads",
        &threads,
        "--out",
        out,
    ])
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("the data file")
}

fn markers(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("# game ")).collect()
}

/// Every position line: its FEN reads, the side to move is not in check, the move
/// is legal and captures nothing, the score and result are numbers the tune reader
/// takes; and the tune reader reads the whole file without a bad line.
fn check_positions(variant: &str, text: &str) -> usize {
    let rules = find_builtin_rules(variant).expect("built-in variant");
    let mut count = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(';').collect();
        let [fen, score, result, best] = fields[..] else {
            panic!("not FEN;SCORE;RESULT;BESTMOVE: {line}");
        };
        let mut pos = Position::from_fen(&rules, fen).expect("the FEN reads");
        assert!(!pos.in_check(), "in check: {line}");
        let m = notation::parse_move(&mut pos, best, RankNumbering::FromOne)
            .unwrap_or_else(|e| panic!("illegal move ({e}): {line}"));
        let victim = pos.piece_at(m.to());
        let captures = m.kind() == MoveKind::EnPassant
            || m.extras().any(|(_, captured)| captured)
            || (m.kind() != MoveKind::Drop
                && victim.is_some()
                && victim.color() != pos.side_to_move());
        assert!(!captures, "a capture: {line}");
        let score: i32 = score.parse().expect("a score in centipawns");
        assert!(score.abs() <= 2000, "{line}");
        assert!(["1", "0.5", "0"].contains(&result), "{line}");
        count += 1;
    }
    let data = Data::read(&Evaluator::new(&rules), "data", text, 0);
    assert_eq!((data.bad, data.lines), (0, count), "{:?}", data.errors);
    count
}

#[test]
fn tiny_runs_write_every_game_and_readable_quiet_positions() {
    let dir = scratch("tiny");
    for variant in ["chess", "crazyhouse", "minishogi", "fischerandom"] {
        let out = dir.join(format!("{variant}.txt"));
        let o = selfplay(variant, 2, 2, &out);
        assert!(o.status.success(), "{variant}: {}", stderr(&o));
        let text = read(&out);
        assert!(text.starts_with("# menagerie selfplay format 1 variant "));
        let games = markers(&text);
        assert_eq!(games.len(), 2, "{variant}: {text}");
        assert!(games[0].starts_with("# game 0 result "));
        assert!(games[1].starts_with("# game 1 result "));
        // The markers count the positions written.
        let said: usize = games
            .iter()
            .map(|g| {
                let words: Vec<&str> = g.split(' ').collect();
                let at = words
                    .iter()
                    .position(|&w| w == "positions")
                    .expect("positions");
                words[at + 1].parse::<usize>().expect("a count")
            })
            .sum();
        let written = check_positions(variant, &text);
        assert_eq!(said, written, "{variant}");
        assert!(written > 0, "{variant}: no position kept");
    }
}

#[test]
fn the_file_does_not_depend_on_the_thread_count() {
    let dir = scratch("threads");
    let (one, two) = (dir.join("one.txt"), dir.join("two.txt"));
    for (file, threads) in [(&one, 1), (&two, 2)] {
        let o = selfplay("crazyhouse", 3, threads, file);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(read(&one), read(&two));
}

#[test]
fn a_cut_file_resumes_into_the_uninterrupted_one() {
    let dir = scratch("resume");
    let whole = dir.join("whole.txt");
    let o = selfplay("minishogi", 3, 2, &whole);
    assert!(o.status.success(), "{}", stderr(&o));
    let full = read(&whole);
    let marker_zero = full.find("# game 0 ").expect("game 0's marker");
    // Cut inside the header, inside a position line of game 1, inside game 1's marker,
    // and after a complete game.
    let end_of_one = full[marker_zero..].find('\n').expect("a newline") + marker_zero + 1;
    let marker_one = full.find("# game 1 ").expect("game 1's marker");
    for cut in [10, end_of_one + 7, marker_one + 5, end_of_one] {
        let part = dir.join(format!("cut{cut}.txt"));
        std::fs::write(&part, &full[..cut]).expect("write the cut file");
        let o = selfplay("minishogi", 3, 1, &part);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(read(&part), full, "cut at byte {cut}");
    }
    // More games continue the same file; as many as there are leave it alone.
    let o = selfplay("minishogi", 3, 2, &whole);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read(&whole), full);
    let o = selfplay("minishogi", 4, 2, &whole);
    assert!(o.status.success(), "{}", stderr(&o));
    let more = read(&whole);
    assert!(more.starts_with(&full));
    assert_eq!(markers(&more).len(), 4);
}

#[test]
fn bad_arguments_are_errors_not_panics() {
    let dir = scratch("errors");
    let out = dir.join("data.txt");
    let out_s = out.to_str().expect("UTF-8");
    let refused = |args: &[&str], says: &str| {
        let o = menagerie(args);
        let e = stderr(&o);
        // 1: refused by the command; 2: by the argument parser (clap).
        assert!(matches!(o.status.code(), Some(1 | 2)), "{args:?}: {e}");
        assert!(e.contains(says), "{args:?}: {e}");
        assert!(!e.contains("panicked"), "{args:?}: {e}");
    };
    let base = ["selfplay", "--games", "1", "--nodes", "100", "--out", out_s];
    let with = |extra: &[&'static str]| -> Vec<&str> {
        base.iter().copied().chain(extra.iter().copied()).collect()
    };
    refused(
        &with(&["--variant", "nosuchgame"]),
        "unknown variant 'nosuchgame'",
    );
    refused(
        &[
            "selfplay",
            "--variant",
            "chess",
            "--games",
            "1",
            "--nodes",
            "0",
            "--out",
            out_s,
        ],
        "--nodes",
    );
    refused(
        &with(&["--variant", "chess", "--threads", "0"]),
        "--threads",
    );
    refused(
        &with(&["--variant", "chess", "--adjudicate=-5"]),
        "--adjudicate",
    );
    refused(
        &[
            "selfplay",
            "--variant",
            "chess",
            "--nodes",
            "100",
            "--out",
            out_s,
        ],
        "--games",
    );
    let missing = dir.join("no/such/dir/data.txt");
    let missing_s = missing.to_str().expect("UTF-8");
    refused(
        &[
            "selfplay",
            "--variant",
            "chess",
            "--games",
            "1",
            "--nodes",
            "100",
            "--out",
            missing_s,
        ],
        &format!("error: cannot open {missing_s}"),
    );
    // A file made with other arguments is not continued, nor changed.
    std::fs::write(
        &out,
        "# menagerie selfplay format 1 variant shogi nodes 5\n",
    )
    .expect("write");
    refused(
        &with(&["--variant", "chess"]),
        &format!("error: {out_s}:line 1: the file was made with other arguments"),
    );
    assert_eq!(
        read(&out),
        "# menagerie selfplay format 1 variant shogi nodes 5\n"
    );
}

/// `--eval-file`: the games of a net name it in the header (the hand-crafted
/// evaluation's header names none), differ from the hand-crafted games, and a file
/// of one evaluation is not continued with another.
#[test]
fn a_nets_games_name_it_and_are_not_mixed_with_others() {
    use menagerie::nnue::{Layout, Net};
    let dir = scratch("eval-file");
    let rules = find_builtin_rules("gardner").expect("built-in gardner");
    let net_path = dir.join("gardner.nnue");
    Net::random(&Layout::new(&rules), "gardner", 8, 3)
        .save(&net_path)
        .expect("writes the net");
    let run = |out: &Path, net: Option<&Path>| {
        let mut args = vec![
            "selfplay",
            "--variant",
            "gardner",
            "--games",
            "2",
            "--nodes",
            "100",
            "--max-plies",
            "40",
            "--threads",
            "1",
            "--out",
            out.to_str().expect("UTF-8 path"),
        ];
        if let Some(net) = net {
            args.extend(["--eval-file", net.to_str().expect("UTF-8 path")]);
        }
        menagerie(&args)
    };
    let with_net = dir.join("net.data");
    let o = run(&with_net, Some(&net_path));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = read(&with_net);
    let header = text.lines().next().unwrap_or("");
    assert!(header.starts_with("# menagerie selfplay format 1 variant gardner nodes 100 "));
    let id = header.split(" eval net ").nth(1).unwrap_or("");
    assert_eq!(id.len(), 16, "{header}");
    let plain = dir.join("plain.data");
    let o = run(&plain, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let plain_text = read(&plain);
    assert!(!plain_text.lines().next().unwrap_or("").contains("eval"));
    assert_ne!(plain_text.lines().nth(1), text.lines().nth(1));
    // Continued without the net, or with another net: refused, untouched.
    let o = run(&with_net, None);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("line 1: the file was made with other arguments"));
    let other = dir.join("other.nnue");
    Net::random(&Layout::new(&rules), "gardner", 8, 4)
        .save(&other)
        .expect("writes the net");
    let o = run(&with_net, Some(&other));
    assert!(!o.status.success());
    assert_eq!(read(&with_net), text);
    // A net of another variant is refused with the reason.
    let chess = find_builtin_rules("chess").expect("built-in chess");
    let chess_net = dir.join("chess.nnue");
    Net::random(&Layout::new(&chess), "chess", 8, 3)
        .save(&chess_net)
        .expect("writes the net");
    let o = run(&dir.join("x.data"), Some(&chess_net));
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("chess.nnue: made for another feature layout"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
