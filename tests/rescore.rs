//! `menagerie rescore` with the engine itself as the teacher (a UCI engine that
//! every checkout has): the output keeps the input's lines one for one with new
//! scores, a stopped run goes on to the same file, one teacher process or two
//! write the same file, and what cannot be done is refused with the reason.

mod common;
use common::{menagerie, text};

use std::path::{Path, PathBuf};
use std::process::Output;

const ENGINE: &str = env!("CARGO_BIN_EXE_menagerie");

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menagerie-rescore-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// A small self-play file of chess games.
fn sample(dir: &Path) -> PathBuf {
    let data = dir.join("data.txt");
    let o = menagerie(&[
        "selfplay",
        "--variant",
        "chess",
        "--games",
        "6",
        "--nodes",
        "300",
        "--seed",
        "5",
        "--threads",
        "2",
        "--out",
        path(&data),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    data
}

fn rescore(data: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "rescore",
        "--variant",
        "chess",
        "--data",
        path(data),
        "--out",
        path(out),
        "--teacher",
        ENGINE,
        "--nodes",
        "3000",
    ];
    args.extend_from_slice(extra);
    menagerie(&args)
}

#[test]
fn the_teachers_scores_replace_the_files_and_a_stopped_run_goes_on() {
    let dir = scratch("scores");
    let data = sample(&dir);
    let out = dir.join("out.txt");
    let o = rescore(&data, &out, &["--threads", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    let input = std::fs::read_to_string(&data).expect("data");
    let output = std::fs::read_to_string(&out).expect("output");
    let (header, body) = output.split_once('\n').expect("a header line");
    assert!(
        header.starts_with("# menagerie rescore format 1 variant chess teacher "),
        "{header}"
    );
    assert!(header.contains(" nodes 3000 "), "{header}");
    assert!(header.contains("teacher-name Menagerie"), "{header}");
    let scale: f64 = header
        .split(" scale ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .expect("a factor");
    assert!(scale > 0.0, "{header}");
    // One line for each of the input's: comments as they are, positions with the
    // same FEN, result and move.
    let (ins, outs): (Vec<&str>, Vec<&str>) = (input.lines().collect(), body.lines().collect());
    assert_eq!(ins.len(), outs.len());
    assert!(ins.len() > 300, "{} lines", ins.len());
    let mut changed = 0;
    for (a, b) in ins.iter().zip(&outs) {
        if a.starts_with('#') {
            assert_eq!(a, b);
            continue;
        }
        let (fa, fb): (Vec<&str>, Vec<&str>) = (a.split(';').collect(), b.split(';').collect());
        assert_eq!((fa[0], fa[2], fa[3]), (fb[0], fb[2], fb[3]));
        let score: i32 = fb[1].parse().expect("a whole score");
        assert!(score.abs() <= 2000);
        changed += usize::from(fa[1] != fb[1]);
    }
    assert!(
        changed > 0,
        "the teacher searched deeper: some scores differ"
    );

    // Stopped in the middle of a line: one teacher goes on and writes the same file.
    let cut = output.len() * 2 / 3;
    std::fs::write(&out, &output[..cut]).expect("cut");
    let o = rescore(&data, &out, &["--threads", "1"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&out).expect("output"), output);

    // The data cut short (its first 100 lines): the output keeps those lines only.
    let short: Vec<&str> = input.lines().take(100).collect();
    std::fs::write(&data, short.join("\n") + "\n").expect("data");
    let o = rescore(&data, &out, &[]);
    assert!(o.status.success(), "{}", text(&o));
    let kept = std::fs::read_to_string(&out).expect("output");
    assert_eq!(kept.lines().count(), 101);
    assert!(output.starts_with(&kept));
}

#[test]
fn what_cannot_be_done_is_refused_with_the_reason() {
    let dir = scratch("refused");
    let data = dir.join("data.txt");
    std::fs::write(
        &data,
        "# a comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;30;0.5;e7e5\nbad line\n",
    )
    .expect("data");
    let out = dir.join("out.txt");
    let o = rescore(&data, &out, &[]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("data.txt:3: not FEN;SCORE;RESULT;BESTMOVE"),
        "{}",
        text(&o)
    );

    std::fs::write(&data, "# a comment\n").expect("data");
    let o = menagerie(&[
        "rescore",
        "--variant",
        "nosuchgame",
        "--data",
        path(&data),
        "--out",
        path(&out),
        "--teacher",
        ENGINE,
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("does not play nosuchgame: its UCI_Variant values are chess "),
        "{}",
        text(&o)
    );

    let o = menagerie(&[
        "rescore",
        "--variant",
        "chess",
        "--data",
        path(&data),
        "--out",
        path(&out),
        "--teacher",
        path(&dir.join("no-such-engine")),
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("cannot start the teacher"),
        "{}",
        text(&o)
    );

    // A file that is not this command's output is not written over.
    std::fs::write(&out, "something else\n").expect("out");
    let o = rescore(&data, &out, &[]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("its first line is not this command's header"),
        "{}",
        text(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&out).expect("out"),
        "something else\n"
    );
}
