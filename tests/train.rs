//! The trainer of the learned evaluation: on positions of seeded random chess
//! playouts labelled with the hand-crafted evaluation, training lowers the loss;
//! the net is the same byte for byte with 1 or 2 threads and when a run is
//! stopped and resumed; the file loads for its variant and is refused for
//! another; the quantised net evaluates as the float model does; a bad data
//! line is refused with its file and line.

use menagerie::board::Position;
use menagerie::eval::Evaluator;
use menagerie::movegen::notation;
use menagerie::nnue::{Layout, Net, NetError, Nnue};
use menagerie::train::gradient::mean_loss;
use menagerie::train::{
    self, Bounds, Model, Options, Progress, Shape, TrainError, TrainRun, material_start,
};
use menagerie::types::{MoveList, RankNumbering};
use std::path::{Path, PathBuf};

mod common;
use common::{Rng, builtin_rules};

/// `games` seeded random playouts of chess of up to `plies` plies, every
/// position labelled with the hand-crafted evaluation and the move played next.
fn playout_data(games: u32, plies: u32, seed: u64) -> String {
    let rules = builtin_rules("chess");
    let eval = Evaluator::new(&rules);
    let mut rng = Rng(seed);
    let mut text =
        String::from("# seeded random playouts, labelled by the hand-crafted evaluation\n");
    let mut list = MoveList::new();
    for g in 0..games {
        let mut pos = Position::start(&rules);
        let result = ["1", "0.5", "0"][(rng.next() % 3) as usize];
        let mut written = 0;
        for _ in 0..plies {
            rules.generate_legal(&mut pos, &mut list);
            if list.is_empty() {
                break;
            }
            let m = list.moves[(rng.next() % list.len() as u64) as usize];
            let score = eval.evaluate(&pos).clamp(-2000, 2000);
            let best = notation::move_to_string(&pos, m, RankNumbering::FromOne);
            text.push_str(&format!("{};{score};{result};{best}\n", pos.fen()));
            written += 1;
            pos.make(m);
        }
        text.push_str(&format!(
            "# game {g} result {result} plies {written} positions {written} end random\n"
        ));
    }
    text
}

/// A scratch directory of this test binary, fresh per test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menagerie-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn write_data(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("data.txt");
    std::fs::write(&path, text).expect("data file");
    path
}

fn small_options(epochs: u32, threads: usize) -> Options {
    Options {
        hidden: 16,
        buckets: 2,
        epochs,
        batch: 512,
        lr: 0.01,
        lr_decay: 0.8,
        lambda: 0.1,
        holdout: 5,
        seed: 7,
        patience: 3,
        mirror: false,
        threads,
        progress: false,
    }
}

fn train_to(data: &Path, out: &Path, options: Options) -> Result<train::Summary, TrainError> {
    let rules = builtin_rules("chess");
    let data = [data.to_path_buf()];
    let run = TrainRun {
        rules: &rules,
        data: &data,
        out,
        options,
        command_line: "menagerie train (test)".into(),
        note: None,
    };
    train::train(&run, &mut |_| {})
}

/// Training lowers the loss on the training positions, and the held-out loss
/// is reported; the provenance names the data file with its position count.
#[test]
fn training_lowers_the_loss() {
    let dir = scratch("loss");
    let data = write_data(&dir, &playout_data(24, 40, 0x7EA1));
    let options = small_options(6, 2);
    let summary = train_to(&data, &dir.join("net.nnue"), options.clone()).expect("trains");
    let rules = builtin_rules("chess");
    let layout = Layout::new(&rules);
    let bounds = Bounds::new(train::max_active_inputs(&rules, &layout));
    let material = material_start(&Evaluator::new(&rules), &layout);
    let start = Model::new(summary.model.shape, options.seed, bounds, &material);
    let d = &summary.data;
    let before = mean_loss(&start, d, &d.train, options.lambda);
    let after = mean_loss(&summary.model, d, &d.train, options.lambda);
    assert!(d.train.len() > 400, "{} training positions", d.train.len());
    assert!(!d.held_out.is_empty());
    assert!(after < 0.8 * before, "loss {before} -> {after}");
    assert!(summary.losses.1.is_finite());
    let kept = d.files[0].kept;
    assert_eq!(kept, d.train.len() + d.held_out.len());
    assert!(
        summary
            .net
            .provenance
            .contains(&format!("({kept} positions")),
        "{}",
        summary.net.provenance
    );
}

/// The same seed gives the same file with 1 and 2 threads (the batches span
/// two chunks, so the threads do split them).
#[test]
fn threads_do_not_change_the_net() {
    let dir = scratch("threads");
    let data = write_data(&dir, &playout_data(24, 40, 0x7EA2));
    let one = dir.join("one.nnue");
    let two = dir.join("two.nnue");
    train_to(&data, &one, small_options(2, 1)).expect("trains");
    train_to(&data, &two, small_options(2, 2)).expect("trains");
    let a = std::fs::read(&one).expect("net");
    let b = std::fs::read(&two).expect("net");
    assert!(a == b, "the nets differ");
}

/// A run stopped after epoch 1 and run again to 3 epochs gives the net of an
/// uninterrupted 3-epoch run; the checkpoint of another seed is refused.
#[test]
fn resumed_run_equals_uninterrupted_run() {
    let dir = scratch("resume");
    let data = write_data(&dir, &playout_data(20, 40, 0x7EA3));
    let whole = dir.join("whole.nnue");
    let parts = dir.join("parts.nnue");
    let s = train_to(&data, &whole, small_options(3, 2)).expect("trains");
    assert_eq!(s.epochs_trained, 3);
    let s = train_to(&data, &parts, small_options(1, 2)).expect("trains");
    assert_eq!(s.epochs_trained, 1);
    let s = train_to(&data, &parts, small_options(3, 1)).expect("resumes");
    assert_eq!(s.epochs_trained, 2);
    let a = std::fs::read(&whole).expect("net");
    let b = std::fs::read(&parts).expect("net");
    assert!(a == b, "the resumed net differs");
    let mut other = small_options(3, 1);
    other.seed = 8;
    let e = train_to(&data, &parts, other)
        .err()
        .expect("another run's checkpoint");
    let text = e.to_string();
    assert!(
        text.contains("parts.nnue.ckpt") && text.contains("another training run"),
        "{text}"
    );
}

/// The file loads for chess (and chess960, the same layout) and is refused
/// for a variant with other inputs; the quantised net (the engine's
/// evaluation, with its accumulators) evaluates the positions as the float model
/// does, within the weights' rounding.
#[test]
fn net_file_loads_and_matches_the_float_model() {
    let dir = scratch("load");
    let text = playout_data(12, 40, 0x7EA4);
    let data = write_data(&dir, &text);
    let out = dir.join("net.nnue");
    let summary = train_to(&data, &out, small_options(3, 2)).expect("trains");
    let rules = builtin_rules("chess");
    let layout = Layout::new(&rules);
    let net = Net::load(&out, &layout).expect("loads for chess");
    assert!(net == summary.net);
    let chess960 = builtin_rules("fischerandom");
    assert!(Net::load(&out, &Layout::new(&chess960)).is_ok());
    let crazyhouse = builtin_rules("crazyhouse");
    match Net::load(&out, &Layout::new(&crazyhouse)) {
        Err(NetError::WrongFingerprint { .. }) => {}
        other => panic!("a chess net for crazyhouse: {other:?}"),
    }
    let nnue = Nnue::new(layout.clone(), net);
    let mut worst = 0.0f32;
    let mut total = 0.0f32;
    let mut compared = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fen = line.split(';').next().expect("fen");
        let pos = Position::from_fen(&rules, fen).expect("fen");
        let float = summary.model.evaluate(&layout, &pos);
        let quantised = nnue.evaluate(&pos) as f32;
        worst = worst.max((float - quantised).abs());
        total += (float - quantised).abs();
        compared += 1;
    }
    assert!(compared > 300);
    let mean = total / compared as f32;
    // The rounding of the weights (output weights to 1/64) moves the output by
    // a few centipawns: here 2.3 on average, 8.7 at most (5.7 and 12.7 with
    // the trainer before the linear path).
    assert!(
        mean <= 8.0 && worst <= 16.0,
        "quantised and float nets differ by {mean} cp on average, {worst} at most"
    );
}

/// A bad line is refused with its file and line; so is an unreadable file.
#[test]
fn bad_data_is_refused_with_file_and_line() {
    let dir = scratch("bad");
    let mut text = playout_data(1, 3, 0x7EA5);
    text.push_str("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;12;2;e2e4\n");
    let data = write_data(&dir, &text);
    let e = train_to(&data, &dir.join("net.nnue"), small_options(1, 1))
        .err()
        .expect("refused");
    let line = text.lines().count();
    let message = e.to_string();
    assert!(
        message.ends_with(&format!(
            "data.txt:{line}: bad result '2' (1, 0.5 or 0 expected)"
        )),
        "{message}"
    );
    let missing = dir.join("missing.txt");
    let e = train_to(&missing, &dir.join("net.nnue"), small_options(1, 1))
        .err()
        .expect("refused");
    assert!(e.to_string().contains("missing.txt"), "{e}");
    let mut bad = small_options(1, 1);
    bad.hidden = 0;
    let e = train_to(&data, &dir.join("net.nnue"), bad)
        .err()
        .expect("refused");
    assert_eq!(e.to_string(), "--hidden is 0: must be 1..=4096");
    let mut bad = small_options(1, 1);
    bad.lr_decay = 1.5;
    let e = train_to(&data, &dir.join("net.nnue"), bad)
        .err()
        .expect("refused");
    assert_eq!(
        e.to_string(),
        "--lr-decay is 1.5: must be within 0 (excluded) and 1"
    );
}

/// The model's shape for chess: 768 inputs.
#[test]
fn chess_shape() {
    let rules = builtin_rules("chess");
    let layout = Layout::new(&rules);
    let shape = Shape {
        inputs: layout.inputs(),
        hidden: 8,
        buckets: 2,
    };
    // Per input 8 feature and 2 linear weights; 8 biases, 2 x 16 output weights, 2 biases.
    assert_eq!(shape.len(), 768 * (8 + 2) + 8 + 2 * 16 + 2);
    // 64 squares at most: 32767 / 65 = 504 per weight in the net's unit, and
    // (2^31 - 1) / 64 per linear weight, so that no i32 sum of 64 wraps.
    let bounds = Bounds::new(train::max_active_inputs(&rules, &layout));
    assert_eq!(bounds.feature_q, 504);
    assert_eq!(bounds.psqt_q, 33_554_431);
}

/// `menagerie train`: the held-out baselines, a line per epoch, the counts,
/// the net written with the command line in its provenance; a second run
/// resumes (no epoch left); a missing data file fails naming it.
#[test]
fn train_command() {
    let dir = scratch("command");
    let data = write_data(&dir, &playout_data(6, 30, 0x7EA6));
    let out = dir.join("cmd.nnue");
    let run = |data: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_menagerie"))
            .args(["train", "--variant", "chess", "--data"])
            .arg(data)
            .arg("--out")
            .arg(&out)
            .args([
                "--hidden",
                "8",
                "--epochs",
                "2",
                "--batch",
                "256",
                "--threads",
                "1",
                "--holdout",
                "2",
            ])
            .output()
            .expect("menagerie runs")
    };
    let o = run(&data);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        text.starts_with("held-out loss: hand-crafted eval "),
        "{text}"
    );
    assert!(text.contains("\nepoch 1/2: train loss "), "{text}");
    assert!(text.contains("\nepoch 2/2: train loss "), "{text}");
    assert!(text.contains("2 epochs trained now (2 in all)"), "{text}");
    let net = Net::load(&out, &Layout::new(&builtin_rules("chess"))).expect("loads");
    assert!(
        net.provenance
            .starts_with("menagerie train --variant chess --data ")
    );
    let again = run(&data);
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(text.contains("0 epochs trained now (2 in all)"), "{text}");
    let missing = run(&dir.join("missing.txt"));
    assert_eq!(missing.status.code(), Some(1));
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(
        err.starts_with("error: ") && err.contains("missing.txt"),
        "{err}"
    );
}

/// With nothing held out, the provenance says so instead of a loss.
#[test]
fn nothing_held_out() {
    let dir = scratch("noholdout");
    let data = write_data(&dir, &playout_data(4, 30, 0x7EA7));
    let mut options = small_options(1, 1);
    options.holdout = 0;
    let s = train_to(&data, &dir.join("net.nnue"), options).expect("trains");
    assert!(s.data.held_out.is_empty());
    assert!(
        s.net.provenance.ends_with(", held-out none"),
        "{}",
        s.net.provenance
    );
}

/// A new model plays material: its linear path starts from the hand-crafted
/// piece values (the mean of middlegame and endgame), its nonlinear part
/// starts small. A queen up it says about a queen, for either side to move, and
/// so does its quantised net.
#[test]
fn a_new_model_evaluates_material() {
    let rules = builtin_rules("chess");
    let layout = Layout::new(&rules);
    let eval = Evaluator::new(&rules);
    let (mg, eg) = menagerie::eval::values::piece_values(&rules);
    let queen = rules.variant.type_of_letter('Q').expect("a queen") as usize;
    let value = (mg[queen] + eg[queen]) as f32 / 2.0;
    let bounds = Bounds::new(train::max_active_inputs(&rules, &layout));
    let shape = Shape {
        inputs: layout.inputs(),
        hidden: 256,
        buckets: 2,
    };
    let model = Model::new(shape, 1, bounds, &material_start(&eval, &layout));
    let net = model.quantise(&layout, "chess", "test".into(), bounds);
    let nnue = Nnue::new(layout.clone(), net);
    for (fen, expected) in [
        // White has no queen: Black, to move, is a queen up.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1",
            value,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
            -value,
        ),
        (
            "rnb1kbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            -value,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            0.0,
        ),
    ] {
        let pos = Position::from_fen(&rules, fen).expect("fen");
        let float = model.evaluate(&layout, &pos);
        assert!(
            (float - expected).abs() <= 5.0,
            "{fen}: the new model says {float}, the queen is worth {expected}"
        );
        let quantised = nnue.evaluate(&pos) as f32;
        assert!(
            (quantised - expected).abs() <= 6.0,
            "{fen}: the new net says {quantised}, the queen is worth {expected}"
        );
    }
}

/// The held-out baselines are reported before the first epoch and written in
/// the provenance: on positions labelled by the hand-crafted evaluation its
/// loss is far below the material start's.
#[test]
fn the_baselines_are_reported() {
    let dir = scratch("baselines");
    let data = write_data(&dir, &playout_data(24, 40, 0x7EA8));
    let rules = builtin_rules("chess");
    let files = [data];
    let out = dir.join("net.nnue");
    let run = TrainRun {
        rules: &rules,
        data: &files,
        out: &out,
        options: small_options(1, 1),
        command_line: "menagerie train (test)".into(),
        note: None,
    };
    let mut seen = Vec::new();
    let summary = train::train(&run, &mut |p| {
        seen.push(match p {
            Progress::Baselines(b) => format!("baselines {:.6} {:.6}", b.hand_crafted, b.material),
            Progress::Epoch(r) => format!("epoch {}", r.epoch),
        })
    })
    .expect("trains");
    let b = summary.baselines.expect("positions are held out");
    assert_eq!(
        seen,
        [
            format!("baselines {:.6} {:.6}", b.hand_crafted, b.material),
            "epoch 1".to_string()
        ]
    );
    assert!(b.hand_crafted < 0.5 * b.material, "{b:?}");
    assert!(
        summary.net.provenance.contains(&format!(
            "held-out loss to beat: hand-crafted eval {:.6}, material {:.6}",
            b.hand_crafted, b.material
        )),
        "{}",
        summary.net.provenance
    );
}

/// The net written is the epoch of the lowest held-out loss; a run stops
/// `patience` epochs after it, and the same command run again trains nothing
/// more and writes the same net.
#[test]
fn the_best_epoch_is_kept() {
    let dir = scratch("best");
    let data = write_data(&dir, &playout_data(16, 40, 0x7EA9));
    let rules = builtin_rules("chess");
    let files = [data];
    let out = dir.join("net.nnue");
    let mut options = small_options(40, 2);
    // A step far too large for the data, and kept, over-fits within a few epochs.
    options.lr = 0.05;
    options.lr_decay = 1.0;
    options.patience = 2;
    let run = TrainRun {
        rules: &rules,
        data: &files,
        out: &out,
        options,
        command_line: "menagerie train (test)".into(),
        note: None,
    };
    let mut held = Vec::new();
    let summary = train::train(&run, &mut |p| {
        if let Progress::Epoch(r) = p {
            held.push((r.held_out_loss.expect("held out"), r.best_epoch));
        }
    })
    .expect("trains");
    assert!(summary.stopped_early, "{held:?}");
    assert_eq!(summary.epochs_done as usize, held.len());
    assert_eq!(summary.epochs_done, summary.best_epoch + 2);
    let (best, _) = held
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.0.total_cmp(&b.1.0))
        .expect("epochs");
    assert_eq!(summary.best_epoch as usize, best + 1);
    assert_eq!(summary.losses.1, held[best].0);
    assert_eq!(held.last().map(|h| h.1), Some(summary.best_epoch));
    let rebuilt = summary.model.quantise(
        &Layout::new(&rules),
        "chess",
        summary.net.provenance.clone(),
        Bounds::new(train::max_active_inputs(&rules, &Layout::new(&rules))),
    );
    assert!(rebuilt == summary.net);
    let first = std::fs::read(&out).expect("net");
    let again = train::train(&run, &mut |_| {}).expect("resumes");
    assert_eq!(again.epochs_trained, 0);
    assert!(std::fs::read(&out).expect("net") == first);
}
