//! The learned evaluation's inputs and files: in every built-in variant the
//! accumulators (and their linear PSQT sums) updated move by move equal those
//! computed from scratch, whatever the moves did; the linear path adds half the
//! difference of the perspectives' sums; net files round-trip bit for bit and a damaged or mismatched
//! file is refused with its reason.

use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::nnue::accumulator::AccumulatorStack;
use menagerie::nnue::format::FORMAT_VERSION;
use menagerie::nnue::{Accumulator, Layout, Net, NetError, Nnue, UpdatePath, read_net, write_net};
use menagerie::types::{Color, MoveKind, MoveList, RankNumbering};
use menagerie::variant::VariantSet;
use std::sync::Arc;

mod common;
use common::{Rng, builtin_rules};

/// Accumulator width of the test nets: small, the updates are the same code at
/// any width.
const HIDDEN: usize = 16;

/// What the playouts made the accumulators follow, over all variants.
#[derive(Default, Debug)]
struct Seen {
    drops: u32,
    promotions: u32,
    multi_leg: u32,
    castlings: u32,
    wall_changes: u32,
    incremental: u32,
    multi_ply: u32,
    kept_after_unmake: u32,
}

/// Check the stack's accumulator for `pos` against a refresh: the i16 values
/// and the i32 linear sums of both perspectives.
fn check(stack: &mut AccumulatorStack, nnue: &Nnue, pos: &Position, what: &str) -> UpdatePath {
    let fresh = Accumulator::from_position(nnue.net(), nnue.layout(), pos);
    let acc = stack.update(nnue.net(), nnue.layout(), pos);
    for c in [Color::White, Color::Black] {
        assert_eq!(
            acc.psqt(c),
            fresh.psqt(c),
            "{what}: {c:?}'s linear sums differ from a refresh at {}",
            pos.fen()
        );
    }
    assert!(
        acc == &fresh,
        "{what}: accumulator differs from a refresh at {}",
        pos.fen()
    );
    stack.last_path()
}

/// Random playouts in every built-in variant, with moves taken back and played
/// again: at every ply the accumulator kept up move by move (and those kept up
/// every third and every eighth ply, over several plies at once) equals a
/// refresh.
#[test]
fn accumulators_follow_every_move_in_every_variant() {
    let set = VariantSet::builtin(check_variant);
    let mut rng = Rng(0x5EED_0066_1234_ABCD);
    let mut seen = Seen::default();
    for v in set.iter() {
        let rules = Ruleset::new(v.clone());
        let layout = Layout::new(&rules);
        let net = Net::random(&layout, &v.name, HIDDEN, rng.next());
        let nnue = Nnue::new(layout, net);
        for game in 0..2 {
            let mut every = AccumulatorStack::new();
            let mut lazy = AccumulatorStack::new();
            let mut sparse = AccumulatorStack::new();
            let mut pos = Position::start(&rules);
            let mut list = MoveList::new();
            let what = format!("{} game {game}", v.name);
            check(&mut every, &nnue, &pos, &what);
            for ply in 0..48 {
                rules.generate_legal(&mut pos, &mut list);
                if list.is_empty() {
                    break;
                }
                // Now and then a move is tried and taken back first.
                if rng.next().is_multiple_of(4) {
                    let m = list.moves[(rng.next() % list.len() as u64) as usize];
                    pos.make(m);
                    check(&mut every, &nnue, &pos, &what);
                    pos.unmake();
                    if check(&mut every, &nnue, &pos, &what) == UpdatePath::Kept {
                        seen.kept_after_unmake += 1;
                    }
                }
                let m = list.moves[(rng.next() % list.len() as u64) as usize];
                let walls = pos.walls();
                pos.make(m);
                match m.kind() {
                    MoveKind::Drop => seen.drops += 1,
                    MoveKind::Promotion | MoveKind::PiecePromotion => seen.promotions += 1,
                    MoveKind::Castling => seen.castlings += 1,
                    _ => {}
                }
                if m.extras().any(|(_, captured)| captured) {
                    seen.multi_leg += 1;
                }
                if pos.walls() != walls {
                    seen.wall_changes += 1;
                }
                if let UpdatePath::Incremental(_) = check(&mut every, &nnue, &pos, &what) {
                    seen.incremental += 1;
                }
                if ply % 3 == 2
                    && let UpdatePath::Incremental(back) = check(&mut lazy, &nnue, &pos, &what)
                    && back > 1
                {
                    seen.multi_ply += 1;
                }
                if ply % 8 == 7 {
                    check(&mut sparse, &nnue, &pos, &what);
                }
                // The thread's own stack gives the same evaluation.
                let fresh = Accumulator::from_position(nnue.net(), nnue.layout(), &pos);
                assert_eq!(nnue.evaluate(&pos), nnue.output(&fresh, &pos), "{what}");
            }
        }
    }
    eprintln!("{seen:?}");
    assert!(seen.drops > 50, "{seen:?}");
    assert!(seen.promotions > 10, "{seen:?}");
    assert!(seen.multi_leg > 0, "{seen:?}");
    assert!(seen.castlings > 0, "{seen:?}");
    assert!(seen.wall_changes > 20, "{seen:?}");
    assert!(seen.multi_ply > 100, "{seen:?}");
    assert!(seen.kept_after_unmake > 100, "{seen:?}");
    assert!(seen.incremental > 1000, "{seen:?}");
}

fn chess_net() -> (Arc<Ruleset>, Layout, Net) {
    let rules = builtin_rules("chess");
    let layout = Layout::new(&rules);
    let net = Net::random_bucketed(&layout, "chess", 8, 4, 7);
    (rules, layout, net)
}

/// A net written and read back is the same net, and writes the same bytes.
#[test]
fn net_file_round_trips() {
    let (rules, layout, net) = chess_net();
    let bytes = write_net(&net);
    let again = read_net(&bytes, &layout, "mem").expect("own file reads back");
    assert!(again == net);
    assert_eq!(write_net(&again), bytes);
    // Through a file too, and the evaluations agree.
    let path = std::env::temp_dir().join(format!("menagerie-nnue-{}.nnue", std::process::id()));
    net.save(&path).expect("writable temp dir");
    let loaded = Nnue::load(&path, &rules).expect("saved net loads");
    let _ = std::fs::remove_file(&path);
    let pos = Position::start(&rules);
    assert_eq!(loaded.evaluate(&pos), Nnue::new(layout, net).evaluate(&pos));
}

/// The byte offsets of the header's fields (docs/nnue.md).
const VERSION_AT: usize = 8;
const FINGERPRINT_AT: usize = 12;
const INPUTS_AT: usize = 20;
const NAME_AT: usize = 24;

fn refused(bytes: &[u8], layout: &Layout) -> NetError {
    match read_net(bytes, layout, "bad.nnue") {
        Ok(_) => panic!("a malformed net file was accepted"),
        Err(e) => {
            assert!(e.to_string().starts_with("bad.nnue: "), "{e}");
            e
        }
    }
}

#[test]
fn malformed_net_files_are_refused_with_their_reason() {
    let (_, layout, net) = chess_net();
    let good = write_net(&net);

    let mut bad = good.clone();
    bad[0] = b'X';
    assert!(matches!(refused(&bad, &layout), NetError::BadMagic { .. }));

    let mut bad = good.clone();
    bad[VERSION_AT..VERSION_AT + 4].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let e = refused(&bad, &layout);
    assert!(matches!(e, NetError::UnknownVersion { found, .. } if found == FORMAT_VERSION + 1));
    // A net of version 1 (before the linear weights) says what to do.
    bad[VERSION_AT..VERSION_AT + 4].copy_from_slice(&1u32.to_le_bytes());
    assert_eq!(
        refused(&bad, &layout).to_string(),
        "bad.nnue: net format version 1, this engine reads version 2 (an older net: train it again)"
    );

    // Cut anywhere: in the header, the provenance, each block of weights, the
    // last bias. The blocks from the end: output biases (i32 per bucket), output
    // weights (i16, 2H per bucket), PSQT weights (i32, B per input), feature
    // biases and weights (i16).
    let name_len = u32::from_le_bytes(good[NAME_AT..NAME_AT + 4].try_into().unwrap()) as usize;
    let prov_at = NAME_AT + 4 + name_len + 16;
    let (n, h, b) = (layout.inputs(), net.hidden, net.buckets);
    let output_weights_at = good.len() - 4 * b - 2 * b * 2 * h;
    let psqt_at = output_weights_at - 4 * n * b;
    let feature_bias_at = psqt_at - 2 * h;
    for (cut, field) in [
        (4, "the magic"),
        (FINGERPRINT_AT + 3, "the layout fingerprint"),
        (prov_at + 6, "the provenance"),
        (feature_bias_at - 7, "the feature weights"),
        (feature_bias_at + 1, "the feature biases"),
        (psqt_at + 4 * n, "the PSQT weights"),
        (output_weights_at - 1, "the PSQT weights"),
        (output_weights_at + 3, "the output weights"),
        (good.len() - 1, "the output biases"),
        (0, "the magic"),
    ] {
        match refused(&good[..cut], &layout) {
            NetError::Truncated { field: f, .. } => assert_eq!(f, field, "cut at {cut}"),
            e => panic!("cut at {cut}: {e}"),
        }
    }

    let mut bad = good.clone();
    bad.extend_from_slice(&[0, 0, 0]);
    assert!(matches!(
        refused(&bad, &layout),
        NetError::TrailingBytes { extra: 3, .. }
    ));

    // A chess net for crazyhouse (another layout), and one with another fingerprint.
    let zh = Layout::new(&builtin_rules("crazyhouse"));
    assert!(matches!(
        refused(&good, &zh),
        NetError::WrongFingerprint { .. }
    ));
    let mut bad = good.clone();
    bad[FINGERPRINT_AT] ^= 1;
    assert!(matches!(
        refused(&bad, &layout),
        NetError::WrongFingerprint { .. }
    ));

    let mut bad = good.clone();
    bad[INPUTS_AT..INPUTS_AT + 4].copy_from_slice(&(layout.inputs() as u32 + 1).to_le_bytes());
    let e = refused(&bad, &layout);
    assert!(
        matches!(
            e,
            NetError::SizeMismatch {
                field: "the input count",
                ..
            }
        ),
        "{e}"
    );

    // A width of 0, and a width that disagrees with the weights that follow.
    let hidden_at = NAME_AT + 4 + name_len;
    let mut bad = good.clone();
    bad[hidden_at..hidden_at + 4].copy_from_slice(&0u32.to_le_bytes());
    let e = refused(&bad, &layout);
    assert!(
        matches!(
            e,
            NetError::OutOfRange {
                field: "the accumulator width",
                ..
            }
        ),
        "{e}"
    );
    let mut bad = good.clone();
    bad[hidden_at..hidden_at + 4].copy_from_slice(&4u32.to_le_bytes());
    assert!(matches!(
        refused(&bad, &layout),
        NetError::TrailingBytes { .. }
    ));
    let mut bad = good.clone();
    bad[hidden_at..hidden_at + 4].copy_from_slice(&9u32.to_le_bytes());
    assert!(matches!(refused(&bad, &layout), NetError::Truncated { .. }));

    // A file that is not there is named.
    let missing = std::path::Path::new("no/such/net.nnue");
    let e = Net::load(missing, &layout).expect_err("no file");
    assert!(matches!(e, NetError::Io { .. }));
    assert!(e.to_string().starts_with("no/such/net.nnue: "), "{e}");
}

/// A chess net whose output is `cp` centipawns for the side to move, whatever
/// the position: no weights, the output bias alone.
fn constant_chess_net(cp: i32) -> (Arc<Ruleset>, Net) {
    let rules = builtin_rules("chess");
    let layout = Layout::new(&rules);
    let mut net = Net::random(&layout, "chess", 8, 1);
    net.feature_weights.fill(0);
    net.feature_bias.fill(0);
    net.psqt_weights.fill(0);
    net.output_weights.fill(0);
    let quant = net.qa as i32 * net.qb as i32;
    net.output_bias[0] = cp * quant / net.scale;
    (rules, net)
}

/// A net of the linear path alone, material values per piece type (own +, enemy
/// -, in the output bias's unit): its output is the material difference for the
/// side to move, in the bucket the pieces on the board choose, and stays so
/// move by move through captures.
#[test]
fn the_linear_path_adds_half_the_difference() {
    let rules = builtin_rules("chess");
    let layout = Layout::new(&rules);
    let mut net = Net::random_bucketed(&layout, "chess", 8, 2, 3);
    net.feature_weights.fill(0);
    net.feature_bias.fill(0);
    net.output_weights.fill(0);
    net.output_bias.fill(0);
    // `scale` centipawns are QA * QB in the file: 900 cp is 36720 (exactly).
    let (qab, scale) = (net.qa as i32 * net.qb as i32, net.scale);
    let queen = rules.variant.type_of_letter('Q').expect("a queen");
    let pawn = rules.variant.type_of_letter('P').expect("a pawn");
    for i in 0..layout.inputs() {
        let (own, cp) = match layout.kind_of(i) {
            menagerie::nnue::InputKind::Square { own, piece_type } if piece_type == queen => {
                (own, 900)
            }
            menagerie::nnue::InputKind::Square { own, piece_type } if piece_type == pawn => {
                (own, 100)
            }
            _ => (true, 0),
        };
        let sign = if own { 1 } else { -1 };
        // Bucket 1 (the most pieces) counts double, to tell the buckets apart.
        net.psqt_weights[2 * i] = sign * cp * qab / scale;
        net.psqt_weights[2 * i + 1] = 2 * sign * cp * qab / scale;
    }
    let nnue = Nnue::new(layout, net);
    for (fen, cp) in [
        // 31 pieces: bucket 1; White, without its queen, to move.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
            -1800,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1",
            1800,
        ),
        // 5 pieces: bucket 0.
        ("4k3/8/8/8/8/8/PPP5/3QK3 b - - 0 1", -1200),
    ] {
        let pos = Position::from_fen(&rules, fen).expect("fen");
        assert_eq!(nnue.evaluate(&pos), cp, "{fen}");
    }
    // Captures: the incremental sums follow (1. e4 d5 2. exd5 Qxd5).
    let mut pos = Position::start(&rules);
    let mut stack = AccumulatorStack::new();
    for mv in ["e2e4", "d7d5", "e4d5", "d8d5"] {
        let m = menagerie::movegen::notation::parse_move(&mut pos, mv, RankNumbering::FromOne)
            .expect("legal");
        pos.make(m);
        check(&mut stack, &nnue, &pos, mv);
    }
    // Even material, Black's queen on d5, White to move.
    assert_eq!(nnue.evaluate(&pos), 0);
    pos.unmake();
    // White a pawn up, Black to move.
    assert_eq!(nnue.evaluate(&pos), -200);
}

/// The evaluator with a net evaluates with it; with a net of another layout it
/// keeps the hand-crafted evaluation.
#[test]
fn the_evaluator_uses_a_net_of_its_layout_only() {
    let (rules, net) = constant_chess_net(500);
    let nnue = Arc::new(Nnue::new(Layout::new(&rules), net));
    let mut pos = Position::start(&rules);
    let plain = menagerie::eval::Evaluator::new(&rules);
    let with_net = menagerie::eval::Evaluator::new(&rules).with_nnue(nnue.clone());
    assert!(with_net.nnue().is_some());
    assert_eq!(with_net.evaluate(&pos), 500);
    let mut list = MoveList::new();
    rules.generate_legal(&mut pos, &mut list);
    pos.make(list.moves[0]);
    assert_eq!(with_net.evaluate(&pos), 500, "for the side to move");
    assert_ne!(plain.evaluate(&pos), 500);

    let zh = builtin_rules("crazyhouse");
    let other = menagerie::eval::Evaluator::new(&zh).with_nnue(nnue);
    assert!(
        other.nnue().is_none(),
        "a chess net does not evaluate crazyhouse"
    );
}

/// EvalFile and Use NNUE over UCI: the search's scores come from the net while it
/// is on.
#[test]
fn uci_eval_file_and_use_nnue() {
    use menagerie::protocol::InProcess;
    use std::time::Duration;
    let (_, net) = constant_chess_net(500);
    let path = std::env::temp_dir().join(format!("menagerie-uci-{}.nnue", std::process::id()));
    net.save(&path).expect("writable temp dir");
    let session = InProcess::start(VariantSet::builtin(check_variant), Vec::new(), None)
        .expect("session starts");
    let wait = Duration::from_secs(20);
    // The score of a depth-1 search of the start position.
    let score = |session: &InProcess| -> String {
        session.send("position startpos");
        session.send("go depth 1");
        let mut score = String::new();
        while let Some(line) = session.next_line(wait) {
            if let Some(at) = line.find(" score ") {
                let rest = &line[at + 7..];
                score = rest.split(" nodes").next().unwrap_or("").to_string();
            }
            if line.starts_with("bestmove") {
                break;
            }
        }
        score
    };
    session.send("uci");
    while session.next_line(wait).is_some_and(|l| l != "uciok") {}
    session.send(&format!("setoption name EvalFile value {}", path.display()));
    // Every reply of the root's side is worth 500 to the opponent.
    assert_eq!(score(&session), "cp -500");
    session.send("setoption name Use NNUE value false");
    assert_ne!(score(&session), "cp -500");
    session.send("setoption name Use NNUE value true");
    assert_eq!(score(&session), "cp -500");
    // Another variant plays without it; back in chess the file is read again.
    session.send("setoption name UCI_Variant value crazyhouse");
    assert_ne!(score(&session), "cp -500");
    session.send("setoption name UCI_Variant value chess");
    assert_eq!(score(&session), "cp -500");
    session.send("quit");
    let _ = session.finish(wait);
    let _ = std::fs::remove_file(&path);
}

/// Every net compiled into the engine reads, whole, for the built-in variant it
/// was made for (a net for no variant, or one cut short, fails here).
#[test]
fn every_builtin_net_reads_for_a_builtin_variant() {
    use menagerie::nnue::builtin::{builtin_net, builtin_nets};
    let set = VariantSet::builtin(check_variant);
    for (name, bytes) in builtin_nets() {
        let served: Vec<String> = set
            .names()
            .filter_map(|v| {
                let rules = Ruleset::new(set.get(v)?);
                let layout = Layout::new(&rules);
                read_net(bytes, &layout, name).ok()?;
                builtin_net(&layout, &rules.variant)?;
                Some(v.to_string())
            })
            .collect();
        assert!(!served.is_empty(), "{name} fits no built-in variant");
    }
}

/// A built-in net serves the game it learnt, under any name, and no other game
/// on the same board with the same pieces: crazyhouse's net plays a variant
/// file's copy of crazyhouse, not placement (crazyhouse's pieces and hands, a
/// placement phase first) nor a crazyhouse whose stalemate wins.
#[test]
fn a_builtin_net_serves_its_own_game_only() {
    use menagerie::nnue::builtin::builtin_nnue;
    let mut set = VariantSet::builtin(check_variant);
    let report = set.load_str(
        "test.ini",
        "[myhouse:crazyhouse]\n[stalehouse:crazyhouse]\nstalemateValue = win\n",
    );
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let served = |name: &str| {
        let rules = Ruleset::new(set.get(name).expect("loaded"));
        builtin_nnue(&rules).is_some()
    };
    assert!(served("crazyhouse"));
    assert!(served("myhouse"));
    for other in ["placement", "stalehouse"] {
        let layout = Layout::new(&Ruleset::new(set.get(other).expect("loaded")));
        let house = Layout::new(&Ruleset::new(set.get("crazyhouse").expect("loaded")));
        assert_eq!(layout.fingerprint(), house.fingerprint(), "{other}");
        assert!(!served(other), "{other}");
    }
    assert!(served("mini"), "minishogi under its second name");
    assert!(served("shogi"));
    assert!(served("xiangqi"));
    // Every built-in variant a built-in net serves: each net its own game (and
    // minishogi's second name), whatever else shares its board and pieces.
    let all: Vec<&str> = set.names().filter(|v| served(v)).collect();
    assert_eq!(
        all,
        [
            "crazyhouse",
            "shogi",
            "minishogi",
            "mini",
            "xiangqi",
            "myhouse"
        ]
    );
}

/// A built-in variant with a compiled-in net plays with it by default (no option
/// set): its depth-1 score differs from the hand-crafted evaluation's
/// (`Use NNUE` off) and comes back when the option is on again; `EvalFile` set to
/// a file replaces it.
#[test]
fn a_builtin_net_is_used_by_default() {
    use menagerie::protocol::InProcess;
    use std::time::Duration;
    let set = VariantSet::builtin(check_variant);
    let session = InProcess::start(set, Vec::new(), None).expect("session starts");
    let wait = Duration::from_secs(20);
    let score = |session: &InProcess| {
        common::depth1_score(session, "position startpos moves e2e4 d7d5 e4d5 d8d5", wait)
    };
    session.send("uci");
    while session.next_line(wait).is_some_and(|l| l != "uciok") {}
    session.send("setoption name UCI_Variant value crazyhouse");
    let with_net = score(&session);
    session.send("setoption name Use NNUE value false");
    let hand_crafted = score(&session);
    assert_ne!(with_net, hand_crafted);
    session.send("setoption name Use NNUE value true");
    assert_eq!(score(&session), with_net);
    session.send("quit");
    let _ = session.finish(wait);
}
