//! The search always answers with a legal move: from every perft-suite position (and
//! the bench positions), when stopped at once, when stopped mid-search; the checking
//! drops quiescence tries are pseudo-legal drops that check, and miss no contact
//! check; bench node counts repeat exactly at one thread.

use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::search::{Callback, Event, Limits, Searcher, bench};
use menagerie::types::{Move, MoveList};
use menagerie::variant::VariantSet;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// (variant, FEN) of every perft-suite position whose variant is available, plus the
/// bench positions.
fn positions() -> Vec<(Arc<Ruleset>, String)> {
    let builtin = VariantSet::builtin(check_variant);
    let rules_of = |name: &str| {
        builtin
            .get(name)
            .or_else(|| bench::find_variant(name))
            .map(Ruleset::new)
    };
    let mut out = Vec::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft");
    if let Ok(entries) = std::fs::read_dir(&dir) {
        let mut files: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        files.sort();
        for path in files {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_string();
            if !name.ends_with(".epd") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let mut variant = name.trim_end_matches(".epd").to_string();
            for line in text.lines() {
                let line = line.trim();
                if let Some(v) = line.strip_prefix("# variant:") {
                    variant = v.trim().to_string();
                    continue;
                }
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let fen = line.split(';').next().unwrap_or("").trim().to_string();
                if let Some(r) = rules_of(&variant) {
                    out.push((r, fen));
                }
            }
        }
    }
    for (name, fen, _) in bench::POSITIONS {
        if let Some(r) = rules_of(name) {
            let fen = if fen.is_empty() {
                Position::start(&r).fen()
            } else {
                fen.to_string()
            };
            out.push((r, fen));
        }
    }
    out
}

fn legal(pos: &Position) -> Vec<Move> {
    let mut p = pos.clone();
    let mut list = MoveList::new();
    p.rules().clone().generate_legal(&mut p, &mut list);
    list.moves
}

fn quiet() -> Callback {
    Arc::new(|_| {})
}

#[test]
fn search_returns_a_legal_move_everywhere() {
    let mut s = Searcher::new();
    let mut checked = 0;
    for (rules, fen) in positions() {
        let Ok(pos) = Position::from_fen(&rules, &fen) else {
            continue;
        };
        let moves = legal(&pos);
        s.clear();
        let out = s.think(
            pos.clone(),
            Limits {
                depth: Some(3),
                ..Default::default()
            },
            quiet(),
        );
        if moves.is_empty() {
            assert!(
                out.best.is_none(),
                "{} {fen}: move in a finished game",
                rules.variant.name
            );
        } else {
            assert!(
                moves.contains(&out.best),
                "{} {fen}: illegal {:?}",
                rules.variant.name,
                out.best
            );
        }
        checked += 1;
    }
    assert!(checked >= 18, "only {checked} positions");
}

#[test]
fn checking_drops_check_and_miss_no_contact_check() {
    for (rules, fen) in positions() {
        let Ok(mut pos) = Position::from_fen(&rules, &fen) else {
            continue;
        };
        // The position and a few successors (a deterministic walk through the tree).
        for step in 0..6 {
            let mut a = MoveList::new();
            rules.generate_pseudo(&pos, &mut a);
            // Checking drops: each is a pseudo-legal move that gives check, and every
            // pseudo-legal drop that gives contact check is among them.
            let mut checks = MoveList::new();
            rules.checking_drops(&pos, &mut checks);
            for &m in &a.moves {
                if !m.is_drop() {
                    continue;
                }
                pos.make(m);
                let gives = pos.rules().royal_attacked(&pos, pos.side_to_move());
                pos.unmake();
                let g = rules.variant.geometry;
                let near = pos
                    .royals(pos.side_to_move().flip())
                    .first()
                    .is_some_and(|k| {
                        (g.file(k) as i32 - g.file(m.to()) as i32).abs() <= 1
                            && (g.rank(k) as i32 - g.rank(m.to()) as i32).abs() <= 1
                    });
                if checks.contains(m) {
                    assert!(
                        gives,
                        "{} {} {m:?} does not check",
                        rules.variant.name,
                        pos.fen()
                    );
                } else {
                    assert!(
                        !(gives && near),
                        "{} {} {m:?}: contact check missing",
                        rules.variant.name,
                        pos.fen()
                    );
                }
            }
            for &m in &checks.moves {
                assert!(
                    a.moves.contains(&m),
                    "{} {} {m:?}",
                    rules.variant.name,
                    pos.fen()
                );
            }
            let l = legal(&pos);
            if l.is_empty() {
                break;
            }
            pos.make(l[(step * 7 + 3) % l.len()]);
        }
    }
}

#[test]
fn stop_leaves_a_legal_best_move() {
    for (variant, fen) in [
        ("chess", ""),
        ("shogi", ""),
        ("xiangqi", ""),
        ("crazyhouse", ""),
    ] {
        let rules = Ruleset::new(bench::find_variant(variant).expect("variant"));
        let pos = if fen.is_empty() {
            Position::start(&rules)
        } else {
            Position::from_fen(&rules, fen).unwrap()
        };
        let moves = legal(&pos);
        for wait_ms in [0, 1, 30] {
            let best = Arc::new(Mutex::new(None));
            let b = best.clone();
            let cb: Callback = Arc::new(move |e| {
                if let Event::BestMove { best, .. } = e {
                    *b.lock().unwrap() = Some(best);
                }
            });
            let mut s = Searcher::new();
            s.set_threads(2).expect("2 threads");
            s.start(
                pos.clone(),
                Limits {
                    infinite: true,
                    ..Default::default()
                },
                cb,
            );
            std::thread::sleep(Duration::from_millis(wait_ms));
            s.stop();
            let got = best.lock().unwrap().expect("a bestmove event");
            assert!(
                moves.contains(&got),
                "{variant} after {wait_ms} ms: {got:?}"
            );
        }
    }
}

#[test]
fn bench_node_count_repeats_at_one_thread() {
    let a = bench::run(Some(4), 1, 8, |_| {}).expect("bench runs").nodes;
    let b = bench::run(Some(4), 1, 8, |_| {}).expect("bench runs").nodes;
    assert_eq!(a, b);
    assert!(a > 0);
}

#[test]
fn node_limited_search_is_deterministic_and_legal() {
    let rules = Ruleset::new(bench::find_variant("xiangqi").unwrap());
    let pos = Position::start(&rules);
    let moves = legal(&pos);
    let run = || {
        let mut s = Searcher::new();
        s.think(
            pos.clone(),
            Limits {
                nodes: Some(20_000),
                ..Default::default()
            },
            quiet(),
        )
    };
    let (a, b) = (run(), run());
    assert_eq!((a.best, a.main_nodes), (b.best, b.main_nodes));
    assert!(moves.contains(&a.best));
}

/// Lazy SMP with a depth limit: the search reaches the depth (whichever thread
/// completed it), answers with a legal move that starts its principal variation,
/// and the helpers did work too.
#[test]
fn several_threads_reach_the_depth_with_a_legal_move() {
    for (variant, threads, multi_pv) in [("chess", 2, 1), ("crazyhouse", 3, 1), ("xiangqi", 2, 3)] {
        let rules = Ruleset::new(bench::find_variant(variant).expect("variant"));
        let pos = Position::start(&rules);
        let moves = legal(&pos);
        let mut s = Searcher::new();
        s.set_threads(threads).expect("threads");
        let out = s.think(
            pos.clone(),
            Limits {
                depth: Some(6),
                multi_pv,
                ..Default::default()
            },
            quiet(),
        );
        assert!(out.depth >= 6, "{variant}: depth {}", out.depth);
        assert!(moves.contains(&out.best), "{variant}: {:?}", out.best);
        assert_eq!(out.pv.first(), Some(&out.best), "{variant}");
        assert!(out.nodes > out.main_nodes, "{variant}: helpers idle");
    }
}

/// One root move (`searchmoves`) is still searched to the depth asked for: only a game
/// clock makes a forced move worth playing at once.
#[test]
fn a_single_search_move_is_searched_to_the_depth_asked() {
    let rules = Ruleset::new(bench::find_variant("chess").unwrap());
    let pos = Position::start(&rules);
    let only = legal(&pos)[0];
    let mut s = Searcher::new();
    let out = s.think(
        pos,
        Limits {
            depth: Some(9),
            search_moves: vec![only],
            ..Default::default()
        },
        quiet(),
    );
    assert_eq!(out.best, only);
    assert!(out.depth >= 9, "depth {}", out.depth);
}
