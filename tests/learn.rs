//! `menagerie learn` on a tiny variant (tests/data/learn/tiny.ini) with a tiny
//! budget: it makes a net that loads; a second run with more generations goes on
//! from the state; a run stopped in the middle of a generation goes on from its
//! files and ends with a net; a state of other arguments is refused. And the
//! variant file's `nnue` key: `check` shows a net that fits and refuses, with the
//! reason, one made for another variant or another piece set.

mod common;
use common::{menagerie, text};
use menagerie::board::Ruleset;
use menagerie::nnue::Nnue;
use menagerie::variant::VariantSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/learn")
        .join(name)
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menagerie-learn-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The tiny variant's rules from `file`.
fn rules(file: &Path) -> Arc<Ruleset> {
    let mut set = VariantSet::builtin(menagerie::board::check_variant);
    let report = set.load_file(file);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    Ruleset::new(set.find("tiny").expect("tiny loads"))
}

/// The learn command's arguments for the tiny budget, writing into `dir`;
/// `extra` is option-value pairs that replace the tiny budget's or add to them.
fn learn_args(dir: &Path, generations: u32, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "learn",
        "--variants",
        data("tiny.ini").to_str().expect("UTF-8 path"),
        "--variant",
        "tiny",
        "--games",
        "8",
        "--nodes",
        "50",
        "--match-games",
        "4",
        "--epochs",
        "2",
        "--hidden",
        "8",
        "--threads",
        "2",
        "--out",
        dir.join("tiny.nnue").to_str().expect("UTF-8 path"),
    ]
    .map(String::from)
    .to_vec();
    args.push("--generations".into());
    args.push(generations.to_string());
    for pair in extra.chunks(2) {
        let [option, value] = pair else {
            panic!("options come in pairs: {extra:?}");
        };
        match args.iter().position(|a| a == option) {
            Some(i) => args[i + 1] = value.to_string(),
            None => args.extend([option.to_string(), value.to_string()]),
        }
    }
    args
}

fn learn(dir: &Path, generations: u32, extra: &[&str]) -> Output {
    let args = learn_args(dir, generations, extra);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    menagerie(&refs)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_tiny_run_makes_a_net_and_a_second_goes_on_from_its_state() {
    let dir = scratch("run");
    let o = learn(&dir, 1, &[]);
    assert!(o.status.success(), "{}", text(&o));
    let work = dir.join("tiny.learn");
    let tiny = rules(&data("tiny.ini"));
    let net = Nnue::load(&work.join("gen-1.nnue"), &tiny).expect("generation 1's net loads");
    assert_eq!(net.net().hidden, 8);
    assert_eq!(net.net().variant, "tiny");
    let state = read(&work.join("state.txt"));
    assert!(
        state.contains("\ngeneration 2\nphase selfplay\n"),
        "{state}"
    );
    assert!(state.contains("\nresult 1 games 8 positions "), "{state}");
    let out = text(&o);
    assert!(out.contains("generation 1: self-play 8 games"), "{out}");
    assert!(out.contains("generation 1: 8 games, "), "{out}");
    // Written only when the candidate beat the hand-crafted evaluation.
    let wrote = dir.join("tiny.nnue").exists();
    assert_eq!(wrote, state.contains(" kept\n"), "{state}");
    if wrote {
        let best = Nnue::load(&dir.join("tiny.nnue"), &tiny).expect("the output loads");
        assert!(best.net().provenance.starts_with("menagerie learn "));
    } else {
        assert!(
            out.contains("no net beat the hand-crafted evaluation"),
            "{out}"
        );
    }
    let match_lines = read(&work.join("gen-1.match")).lines().count();
    assert_eq!(match_lines, 1 + 4);

    // Again with two generations: generation 1 is not played again.
    let first_data = read(&work.join("gen-1.data"));
    let o = learn(&dir, 2, &[]);
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    assert!(!out.contains("generation 1:"), "{out}");
    assert!(out.contains("generation 2: self-play 8 games"), "{out}");
    assert_eq!(read(&work.join("gen-1.data")), first_data);
    Nnue::load(&work.join("gen-2.nnue"), &tiny).expect("generation 2's net loads");
    let state = read(&work.join("state.txt"));
    assert!(state.contains("\ngeneration 3\n"), "{state}");
    assert!(state.contains("\nresult 2 games 8 "), "{state}");
    // The data of generation 2 is of the best evaluation then, named in its header.
    let header = read(&work.join("gen-2.data"));
    let header = header.lines().next().unwrap_or("");
    assert_eq!(
        header.contains(" eval net "),
        state.contains("result 1") && state.contains(" kept\n"),
        "{header}"
    );

    // Nothing left to do: the same command stops at once.
    let o = learn(&dir, 2, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("2 generations in"), "{}", text(&o));

    // Other arguments that change the games: refused, naming the state file.
    let o = learn(&dir, 3, &["--seed", "2"]);
    assert!(!o.status.success());
    let err = text(&o);
    assert!(
        err.contains("state.txt: the run there was started with other arguments")
            && err.contains("seed 1")
            && err.contains("seed 2"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Run `args` and kill the process once `file` holds `lines` lines starting with
/// `prefix` (or once it ended by itself).
fn kill_when(args: &[String], file: &Path, prefix: &str, lines: usize) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    loop {
        let done = std::fs::read_to_string(file)
            .map(|t| t.lines().filter(|l| l.starts_with(prefix)).count())
            .unwrap_or(0);
        if done >= lines || child.try_wait().ok().flatten().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Killed while generation 1's games are being played, or during its match, the
/// same command goes on from the files and ends with a net; the data and the
/// match results are those of a run that was never stopped.
#[test]
fn a_killed_run_goes_on_from_its_files() {
    let sizes = ["--nodes", "2000", "--games", "16", "--match-games", "12"];
    let unstopped = scratch("unkilled");
    let args = learn_args(&unstopped, 1, &sizes);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = menagerie(&refs);
    assert!(o.status.success(), "{}", text(&o));
    let work = unstopped.join("tiny.learn");
    let (data_text, match_text) = (
        read(&work.join("gen-1.data")),
        read(&work.join("gen-1.match")),
    );
    assert_eq!(data_text.matches("\n# game ").count(), 16);
    assert_eq!(
        match_text
            .lines()
            .filter(|l| l.starts_with("game "))
            .count(),
        12
    );

    let tiny = rules(&data("tiny.ini"));
    for (test, file, prefix) in [
        ("killed-games", "gen-1.data", "# game "),
        ("killed-match", "gen-1.match", "game "),
    ] {
        let dir = scratch(test);
        let args = learn_args(&dir, 1, &sizes);
        let work = dir.join("tiny.learn");
        kill_when(&args, &work.join(file), prefix, 1);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = menagerie(&refs);
        assert!(o.status.success(), "{test}: {}", text(&o));
        Nnue::load(&work.join("gen-1.nnue"), &tiny).expect("the net loads");
        assert_eq!(read(&work.join("gen-1.data")), data_text, "{test}");
        assert_eq!(read(&work.join("gen-1.match")), match_text, "{test}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _ = std::fs::remove_dir_all(&unstopped);
}

/// A variants file naming `net` in the tiny variant's section (the tiny.ini
/// variant, or the changed one without bishops), written into `dir`.
fn variants_with_net(dir: &Path, source: &str, net: &str) -> PathBuf {
    let text = read(&data(source));
    let text = if text.contains("nnue = NET") {
        text.replace("nnue = NET", &format!("nnue = {net}"))
    } else {
        format!("{text}nnue = {net}\n")
    };
    let path = dir.join(source);
    std::fs::write(&path, text).expect("writes the variants file");
    path
}

/// `check` shows a net that fits, and refuses, at the key's line and with the
/// reason, a net of another variant, one of another piece set, and a missing one.
#[test]
fn check_shows_the_net_or_why_it_does_not_fit() {
    let dir = scratch("check");
    let o = learn(&dir, 1, &[]);
    assert!(o.status.success(), "{}", text(&o));
    std::fs::rename(dir.join("tiny.learn/gen-1.nnue"), dir.join("tiny-net.nnue"))
        .expect("moves the net");

    // The net beside the variants file, named relative to it.
    let good = variants_with_net(&dir, "tiny.ini", "tiny-net.nnue");
    let o = menagerie(&["check", good.to_str().expect("UTF-8")]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("ok tiny 5x5"), "{out}");
    assert!(
        out.contains("net tiny ") && out.contains("(made for tiny, ") && out.contains(" 8 hidden"),
        "{out}"
    );
    // The engine plays with it: the variant's rules find it.
    let mut set = VariantSet::builtin(menagerie::board::check_variant);
    let report = menagerie::eval::weights::load_variant_file(&mut set, &good);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let tiny = Ruleset::new(set.find("tiny").expect("tiny"));
    assert!(matches!(
        menagerie::eval::net_key::variant_net(&tiny),
        Some(Ok(_))
    ));

    // Another piece set under the same name.
    let changed = variants_with_net(&dir, "tiny-changed.ini", "tiny-net.nnue");
    let o = menagerie(&["check", changed.to_str().expect("UTF-8")]);
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    let line = read(&changed)
        .lines()
        .position(|l| l.starts_with("nnue ="))
        .map(|i| i + 1)
        .expect("the key's line");
    let at = format!(
        "{}:{line}: [tiny] nnue = tiny-net.nnue: ",
        changed.display()
    );
    assert!(
        out.contains("ok tiny 5x5"),
        "the variant still loads: {out}"
    );
    assert!(
        out.contains(&format!("error {at}"))
            && out.contains("made for another variant or another piece set"),
        "{out}"
    );

    // Another variant: Los Alamos chess (6x6) with the tiny net.
    let other = dir.join("other.ini");
    std::fs::write(&other, "[mylosalamos:losalamos]\nnnue = tiny-net.nnue\n").expect("writes");
    let o = menagerie(&["check", other.to_str().expect("UTF-8")]);
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    assert!(
        out.contains(&format!(
            "error {}:2: [mylosalamos] nnue = tiny-net.nnue: ",
            other.display()
        )) && out.contains("made for another variant or another piece set"),
        "{out}"
    );

    // A missing file.
    let missing = variants_with_net(&dir, "tiny.ini", "nowhere.nnue");
    let o = menagerie(&["check", missing.to_str().expect("UTF-8")]);
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    assert!(out.contains("nowhere.nnue: cannot read"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The engine plays a variant with the net its `nnue` key names, with no option
/// set (UCI here; both protocols share the controller): with a net that says 500
/// for the side to move, a depth-1 search of the start position scores 500 (every
/// pawn move is taken back by a pawn in the quiescence search, so the root's side
/// moves last). `Use NNUE` off, or another variant, plays without it.
#[test]
fn the_engine_plays_with_the_variant_files_net() {
    use menagerie::nnue::{Layout, Net};
    use menagerie::protocol::InProcess;
    use std::time::Duration;
    let dir = scratch("uci");
    let tiny = rules(&data("tiny.ini"));
    let layout = Layout::new(&tiny);
    let mut net = Net::random(&layout, "tiny", 8, 1);
    net.feature_weights.fill(0);
    net.feature_bias.fill(0);
    net.output_weights.fill(0);
    net.psqt_weights.fill(0);
    net.output_bias[0] = 500 * (net.qa as i32 * net.qb as i32) / net.scale;
    net.save(&dir.join("constant.nnue"))
        .expect("writes the net");
    let file = variants_with_net(&dir, "tiny.ini", "constant.nnue");
    let mut set = VariantSet::builtin(menagerie::board::check_variant);
    let report = menagerie::eval::weights::load_variant_file(&mut set, &file);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let session = InProcess::start(set, Vec::new(), None).expect("session starts");
    let wait = Duration::from_secs(20);
    let score = |session: &InProcess| common::depth1_score(session, "position startpos", wait);
    session.send("uci");
    while session.next_line(wait).is_some_and(|l| l != "uciok") {}
    session.send("setoption name UCI_Variant value tiny");
    assert_eq!(score(&session), "cp 500");
    session.send("setoption name Use NNUE value false");
    assert_ne!(score(&session), "cp 500");
    session.send("setoption name Use NNUE value true");
    assert_eq!(score(&session), "cp 500");
    session.send("setoption name UCI_Variant value gardner");
    assert_ne!(score(&session), "cp 500");
    session.send("setoption name UCI_Variant value tiny");
    assert_eq!(score(&session), "cp 500");
    session.send("quit");
    let _ = session.finish(wait);
    let _ = std::fs::remove_dir_all(&dir);
}
