//! Never stall, never abort (issue 10): requests beyond the machine's means are
//! refused with the protocol's error and the engine plays on; perft over UCI runs like
//! a search; variant files that would hang the engine are refused when they are
//! loaded; the CLI ends quietly on a closed pipe. Each test names the case it covers.

mod protocol_support;

use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::movegen::notation;
use menagerie::types::RankNumbering;
use menagerie::variant::VariantSet;
use protocol_support::Engine;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

/// A scratch folder for this test binary's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menagerie-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir.join(name)
}

fn write(name: &str, text: &str) -> String {
    let path = scratch(name);
    std::fs::write(&path, text).expect("a scratch file");
    path.display().to_string()
}

/// The largest table (MB) the engine takes on this machine now, as it computes it:
/// 7/8 of MemAvailable (None where /proc/meminfo does not say).
fn table_limit_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: usize = text
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024 / 8 * 7)
}

fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn cecp(args: &[&str]) -> Engine {
    let mut e = Engine::start(args);
    e.send("xboard");
    e.send("protover 2");
    assert!(e.wait_for(WAIT, |l| l == "feature done=1").is_some());
    e
}

fn uci(args: &[&str]) -> Engine {
    let mut e = Engine::start(args);
    e.send("uci");
    assert!(e.wait_for(WAIT, |l| l == "uciok").is_some());
    e
}

fn ping(e: &mut Engine, n: u32) {
    e.send(&format!("ping {n}"));
    let want = format!("pong {n}");
    assert!(
        e.wait_for(WAIT, |l| l == want).is_some(),
        "no {want}; last lines:\n{}",
        e.tail()
    );
}

fn isready(e: &mut Engine) {
    e.send("isready");
    assert!(
        e.wait_for(WAIT, |l| l == "readyok").is_some(),
        "no readyok; last lines:\n{}",
        e.tail()
    );
}

/// The engine (CECP, after `new`) still answers 1. e4 with a legal move.
fn cecp_plays(e: &mut Engine) {
    e.send("new");
    e.send("st 0.2");
    e.send("e2e4");
    let reply = e.wait_for(WAIT, |l| l.starts_with("move ") || l.starts_with("Illegal"));
    let reply = reply.unwrap_or_else(|| panic!("no move; last lines:\n{}", e.tail()));
    let set = VariantSet::builtin(check_variant);
    let rules = Ruleset::new(set.get("chess").expect("chess"));
    let mut pos = Position::start(&rules);
    let e4 = notation::parse_move(&mut pos, "e2e4", RankNumbering::XBoard).expect("legal");
    pos.make(e4);
    let text = reply.strip_prefix("move ").unwrap_or(&reply);
    assert!(
        notation::parse_move(&mut pos, text, RankNumbering::XBoard).is_ok(),
        "{reply}"
    );
}

fn finish(e: Engine) {
    let (status, stderr) = e.finish(true);
    assert_eq!(status, Some(0), "stderr:\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Case: `memory 999999999` (clamped to 65536 MB) and UCI `Hash 65536` aborted the
/// process ("memory allocation of 68719476720 bytes failed", exit 134).
#[test]
fn a_table_beyond_the_machine_is_refused() {
    let Some(limit) = table_limit_mb() else {
        println!("skipped: no /proc/meminfo");
        return;
    };
    if limit >= 65536 {
        println!("skipped: this machine could give 65536 MB");
        return;
    }
    let mut e = cecp(&[]);
    e.send("memory 999999999");
    let err = e.wait_for(WAIT, |l| l.starts_with("Error ("));
    let err = err.unwrap_or_else(|| panic!("no error; last lines:\n{}", e.tail()));
    assert!(
        err.contains("65536 MB is more memory than this machine has free")
            && err.ends_with("the table stays 16 MB): memory 65536"),
        "{err}"
    );
    let told = e.wait_for(WAIT, |l| l.starts_with("tellusererror"));
    assert!(
        told.is_some_and(|t| t.contains("Hash size 65536 MB refused")),
        "{}",
        e.tail()
    );
    ping(&mut e, 1);
    cecp_plays(&mut e);
    finish(e);

    let mut e = uci(&[]);
    e.send("setoption name Hash value 65536");
    let info = e.wait_for(WAIT, |l| l.starts_with("info string"));
    assert!(
        info.as_deref().is_some_and(|i| i.starts_with(
            "info string ignored: 65536 MB is more memory than this machine has free"
        ) && i.ends_with("the table stays 16 MB")),
        "{info:?}"
    );
    isready(&mut e);
    e.send("go depth 3");
    assert!(e.wait_for(WAIT, |l| l.starts_with("bestmove ")).is_some());
    finish(e);
}

/// Case: with a large table the first `new` cleared it for seconds with no `pong`.
/// The table is now filled and cleared in the background (see the search's unit
/// test); here: a table set and cleared, then searched with at once.
#[test]
fn a_new_table_is_usable_at_once() {
    let mut e = cecp(&[]);
    e.send("memory 256");
    e.send("new");
    ping(&mut e, 1);
    e.send("new");
    ping(&mut e, 2);
    cecp_plays(&mut e);
    finish(e);
}

/// Case: `cores` / `Threads` up to 512 on 2 cores: `stop` took 3.3 s, a `ping` in
/// analysis over 60 s. Threads are now capped at the cores, and the user is told.
#[test]
fn threads_are_capped() {
    let cap = max_threads();
    if cap >= 512 {
        println!("skipped: this machine runs 512 threads");
        return;
    }
    let mut e = uci(&[]);
    e.send("setoption name Threads value 512");
    let want = format!("info string 512 threads are more than this machine runs well; using {cap}");
    assert!(e.wait_for(WAIT, |l| l == want).is_some(), "{}", e.tail());
    e.send("go infinite");
    e.send("stop");
    assert!(e.wait_for(WAIT, |l| l.starts_with("bestmove ")).is_some());
    isready(&mut e);
    finish(e);

    let mut e = cecp(&[]);
    e.send("cores 100000");
    let want = format!("# 100000 threads are more than this machine runs well; using {cap}");
    assert!(e.wait_for(WAIT, |l| l == want).is_some(), "{}", e.tail());
    e.send("new");
    e.send("force");
    e.send("post");
    e.send("analyze");
    ping(&mut e, 1);
    e.send("exit");
    ping(&mut e, 2);
    cecp_plays(&mut e);
    finish(e);
}

/// Case: `go perft 7` then `isready` waited 20 s; after `go perft 64` the engine
/// ignored `stop`, `isready` and `quit`.
#[test]
fn perft_runs_like_a_search() {
    let mut e = uci(&[]);
    e.send("go perft 7");
    e.send("isready");
    // readyok comes while the count runs: before its total.
    let first = e.wait_for(WAIT, |l| l == "readyok" || l.starts_with("Nodes searched"));
    assert_eq!(first.as_deref(), Some("readyok"), "{}", e.tail());
    e.send("stop");
    let end = e.wait_for(WAIT, |l| l.starts_with("info string perft"));
    assert!(
        end.as_deref()
            .is_some_and(|l| l.starts_with("info string perft stopped: ")),
        "{}",
        e.tail()
    );
    // A new command after a running perft waits for it to stop, and then runs.
    e.send("go perft 64");
    e.send("position startpos moves e2e4");
    e.send("go perft 1");
    assert!(
        e.wait_for(WAIT, |l| l == "Nodes searched: 20").is_some(),
        "{}",
        e.tail()
    );
    e.send("go perft 64");
    isready(&mut e);
    // quit is obeyed at once.
    finish(e);
}

/// Case: `setoption name VariantPath value` a FIFO with no writer blocked forever.
#[test]
fn only_regular_files_are_read() {
    let fifo = scratch("no-writer.ini");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        println!("skipped: no mkfifo");
        return;
    }
    let path = fifo.display().to_string();
    let mut e = uci(&[]);
    e.send(&format!("setoption name VariantPath value {path}"));
    let want = format!(
        "info string variant file error: {path}: cannot read the file: it is not a regular file (a pipe or a device?)"
    );
    assert!(e.wait_for(WAIT, |l| l == want).is_some(), "{}", e.tail());
    isready(&mut e);
    finish(e);
    let o = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(["check", &path, "/dev/zero"])
        .output()
        .expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!(
            "error {path}: cannot read the file: it is not a regular file (a pipe or a device?)\n\
             error /dev/zero: cannot read the file: it is not a regular file (a pipe or a device?)\n"
        )
    );
    let _ = std::fs::remove_file(&fifo);
}

/// Case: a piece of 17 one-step legs (`a:` + `ma` x 16 + `W`) passed `check`, then
/// building its tables took 22 s and 137 MB (20 legs: `variant` never answered, under
/// 2 GB it aborted); a rider of 7 legs took 3 s. Such variants are now refused when
/// they are loaded, at the piece's line.
#[test]
fn pieces_beyond_the_walk_budget_are_refused() {
    let long = write(
        "long.ini",
        &format!(
            "# a piece that branches at every leg\n[long:chess]\ncustomPiece1 = a:{}W\n",
            "ma".repeat(16)
        ),
    );
    let rider = write(
        "rider.ini",
        "[rider:chess]\n\ncustomPiece1 = a:papapapapapaQ\n",
    );
    let o = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(["check", &long, &rider])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with(&format!("error {long}:3: [long] customPiece1 = a:mamamama"))
            && lines[0].contains("too many move paths")
            && lines[0].ends_with("(at most 20000 are allowed)"),
        "{out}"
    );
    assert!(
        lines[1].starts_with(&format!(
            "error {rider}:3: [rider] customPiece1 = a:papapapapapaQ: too many move paths"
        )),
        "{out}"
    );
    // In XBoard: the error is shown, the variant cannot be chosen, the engine plays on.
    let mut e = cecp(&[]);
    e.send(&format!("option VariantPath={long}"));
    let told = e.wait_for(WAIT, |l| l.starts_with("tellusererror"));
    assert!(
        told.as_deref()
            .is_some_and(|t| t.contains("too many move paths")),
        "{}",
        e.tail()
    );
    e.send("variant long");
    assert!(
        e.wait_for(WAIT, |l| l
            == "Error (no variant called 'long' is loaded): variant long")
            .is_some(),
        "{}",
        e.tail()
    );
    ping(&mut e, 1);
    cecp_plays(&mut e);
    finish(e);
}

/// Case: `menagerie check FILE | head -1` and `perft 3 --divide | head -1` panicked
/// ("failed printing to stdout: Broken pipe", exit 101).
#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    // Enough output to fill any pipe buffer: 4000 one-line variants.
    let mut text = String::new();
    for i in 0..4000 {
        text.push_str(&format!("[v{i}:chess]\n"));
    }
    let many = write("many.ini", &text);
    for args in [
        vec!["check", many.as_str()],
        vec!["perft", "4", "--divide", "--variant", "shogi"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        let mut out = BufReader::new(child.stdout.take().expect("piped"));
        let mut first = String::new();
        out.read_line(&mut first).expect("one line");
        drop(out);
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        let status = child.wait().expect("ends");
        assert!(!first.is_empty());
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(status.code(), Some(0), "{args:?}: {err}");
    }
}

/// Case: XBoard's New Variant dialog shows 22 engine-defined variants, and the user's
/// own came last: they could not be chosen. Now they come first.
#[test]
fn user_variants_come_first_in_the_menu() {
    let file = write(
        "mine.ini",
        "[mygame:chess]\nqueen = q:QN\n[grandhouse2:crazyhouse]\nmaxFile = 10\nmaxRank = 10\nstartFen = rnbqkqbnrr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKQBNRR[] w - - 0 1\n",
    );
    let mut e = Engine::start(&["--variants", &file]);
    e.send("xboard");
    e.send("protover 2");
    let line = e.wait_for(WAIT, |l| l.starts_with("feature variants="));
    let line = line.unwrap_or_else(|| panic!("{}", e.tail()));
    assert!(
        line.starts_with("feature variants=\"mygame,grandhouse2,kingofthehill,racingkings,"),
        "{line}"
    );
    finish(e);
}

/// Case: errors in the user's variant files were printed before the handshake, so
/// XBoard only said "Variant badbetza not supported"; over VariantPath only the first
/// of several errors was sent. Now every error, with file:line, goes to XBoard's error
/// dialog after `feature done=1` (and over VariantPath, with the variants that loaded,
/// in one dialog: a second one would replace it).
#[test]
fn every_file_error_reaches_the_user() {
    let bad = write(
        "bad.ini",
        "[badbetza:chess]\ncustomPiece1 = a:xyzQ\n[bad2:chess]\nfoo = 1\n[good:chess]\n",
    );
    let mut e = Engine::start(&["--variants", &bad]);
    e.send("xboard");
    e.send("protover 2");
    assert!(e.wait_for(WAIT, |l| l == "feature done=1").is_some());
    // (Long lines are wrapped for the dialog: `\n` and an indent.)
    let told = e
        .next_line(WAIT)
        .unwrap_or_default()
        .replace("\\n    ", " ");
    assert_eq!(
        told,
        format!(
            "tellusererror \\\\Menagerie: the variant files say\
             \\nerror: {bad}:2: [badbetza] customPiece1 = a:xyzQ: bad XBetza 'xyzQ' at position 1: unknown modifier 'x'\
             \\nerror: {bad}:4: [bad2] foo = 1: unknown key"
        )
    );
    e.send(&format!("option VariantPath={bad}"));
    let told = e.next_line(WAIT).unwrap_or_default();
    assert!(
        told.starts_with("tellusererror \\\\Menagerie: the variant file says\\nerror: ")
            && told.matches("\\nerror: ").count() == 2
            && told.ends_with("\\nloaded: good"),
        "{told}"
    );
    assert_eq!(
        e.next_line(WAIT).as_deref(),
        Some(format!("Error (2 errors in the variant file): option VariantPath={bad}").as_str())
    );
    finish(e);
}

/// Cases: `[z:chess]` with `maxRank = 16` was reported at `builtin:chess.ini:24`; an
/// unreadable file at line 0; a section named like a built-in variant replaced it
/// silently.
#[test]
fn errors_name_the_users_file_and_line() {
    let z = write("z.ini", "# taller\n[z:chess]\nmaxRank = 16\n");
    let shogi = write(
        "shogi.ini",
        "[shogi]\nmaxRank = 9\nmaxFile = 9\nking = k\nstartFen = 4k4/9/9/9/9/9/9/9/4K4 w - - 0 1\n",
    );
    let missing = scratch("missing.ini").display().to_string();
    let o = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(["check", &z, &shogi, &missing])
        .output()
        .expect("runs");
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        vec![
            format!(
                "error {z}:2: [z] startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1: \
                 the board has 16 ranks but the FEN gives 8 (the start position is inherited from \
                 builtin:chess.ini:24; this section must set its own startFen)"
            ),
            "ok shogi 9x9 1 pieces".to_string(),
            format!(
                "note {shogi}:1: [shogi] replaces the variant of that name defined at builtin:shogi.ini:7"
            ),
            format!(
                "error {missing}: cannot read the file: No such file or directory (os error 2)"
            ),
        ]
    );
}
