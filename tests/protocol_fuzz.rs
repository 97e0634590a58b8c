//! Random and malformed input in both protocols: 1000 lines each, mixing real
//! commands with bad parameters, broken FENs and moves, garbage bytes, invalid UTF-8
//! and very long lines. Every 25 lines the engine must still answer `ping`
//! (`isready`), and at the end it must quit cleanly without a panic of its own.

mod protocol_support;

use protocol_support::Engine;
use std::time::Duration;

/// A small deterministic generator (64-bit LCG).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1",
];

fn square(r: &mut Rng) -> String {
    let file = (b'a' + r.below(18) as u8) as char;
    format!("{file}{}", r.below(14) as i32 - 1)
}

/// A random move-like text: often well-formed, sometimes not.
fn move_text(r: &mut Rng) -> String {
    match r.below(6) {
        0 => format!("{}@{}", r.pick(&["P", "N", "Q", "x", "+P", "@"]), square(r)),
        1 => format!("{}{},{}{}", square(r), square(r), square(r), square(r)),
        2 => format!(
            "{}{}{}",
            square(r),
            square(r),
            r.pick(&["q", "+", "=", "z", "", "qq"])
        ),
        3 => r
            .pick(&[
                "@@@@", "0000", "O-O", "O-O-O", "e2e4", "e7e5", "g1f3", "h2e2", "c3c4",
            ])
            .to_string(),
        _ => format!("{}{}", square(r), square(r)),
    }
}

/// A FEN from the list with a few characters changed.
fn fen(r: &mut Rng) -> String {
    let mut chars: Vec<char> = r.pick(FENS).chars().collect();
    for _ in 0..r.below(4) {
        let i = r.below(chars.len());
        chars[i] = r
            .pick(&["k", "K", "/", "9", "0", " ", "[", "]", "~", "+", "x", "-"])
            .chars()
            .next()
            .unwrap_or('x');
    }
    chars.into_iter().collect()
}

fn number(r: &mut Rng) -> String {
    r.pick(&[
        "0",
        "1",
        "2",
        "-1",
        "40",
        "0.5",
        "1:30",
        "x",
        "99999999999999999999",
        "",
        "3",
    ])
    .to_string()
}

/// Random bytes: control characters, invalid UTF-8, long runs.
fn garbage(r: &mut Rng) -> Vec<u8> {
    let len = if r.below(50) == 0 {
        20_000
    } else {
        r.below(60)
    };
    let mut out: Vec<u8> = (0..len)
        .map(|_| (r.next() & 0xFF) as u8)
        .filter(|&b| b != b'\n')
        .collect();
    if out.split(|b| b.is_ascii_whitespace()).next() == Some(b"quit") {
        out.insert(0, b'x');
    }
    out
}

fn cecp_line(r: &mut Rng) -> Vec<u8> {
    let text = match r.below(14) {
        0 => return garbage(r),
        1 => format!("usermove {}", move_text(r)),
        2 => move_text(r),
        3 => format!("setboard {}", fen(r)),
        4 => format!(
            "variant {}",
            r.pick(&[
                "crazyhouse",
                "shogi",
                "xiangqi",
                "lionhouse",
                "zoo12",
                "kirinshogi",
                "minishogi",
                "normal",
                "nope",
                ""
            ])
        ),
        5 => format!(
            "{} {}",
            r.pick(&["lift", "put", "hover"]),
            r.pick(&["e2", "e4", "b7", "_1", "i1", "j3", "a10", "z0", "", "e2,"])
        ),
        6 => format!("level {} {} {}", number(r), number(r), number(r)),
        7 => format!(
            "{} {}",
            r.pick(&["st", "sd", "nps", "time", "otim", "memory", "cores"]),
            number(r)
        ),
        8 => format!(
            "option {}",
            r.pick(&[
                "MultiPV=2",
                "MultiPV=x",
                "Book=0",
                "Clear Hash",
                "VariantPath=/nonexistent",
                "Nope=1",
                "="
            ])
        ),
        9 => format!(
            "{} {}",
            r.pick(&["exclude", "include"]),
            r.pick(&["all", "e2e4", "zz"])
        ),
        10 => r.pick(&["edit", "#", "c", "Pa4", "Kz9", "."]).to_string(),
        _ => r
            .pick(&[
                "new",
                "force",
                "go",
                "playother",
                "white",
                "black",
                "?",
                "draw",
                "result 1-0 {x}",
                "result",
                "undo",
                "remove",
                "hard",
                "easy",
                "post",
                "nopost",
                "analyze",
                "exit",
                ".",
                "hint",
                "bk",
                "pause",
                "resume",
                "random",
                "computer",
                "name x",
                "rating 1 2",
                "ics -",
                "accepted debug",
                "rejected x",
                "protover 2",
                "xboard",
                "ping",
                "setscore 1",
                "holding [P] [p]",
                "st 0.05",
                "sd 2",
            ])
            .to_string(),
    };
    text.into_bytes()
}

fn uci_line(r: &mut Rng) -> Vec<u8> {
    let text = match r.below(10) {
        0 => return garbage(r),
        1 => {
            let moves: Vec<String> = (0..r.below(5)).map(|_| move_text(r)).collect();
            format!("position startpos moves {}", moves.join(" "))
        }
        2 => format!("position fen {} moves {}", fen(r), move_text(r)),
        3 => format!(
            "go {} {}",
            r.pick(&[
                "depth",
                "movetime",
                "nodes",
                "wtime",
                "btime",
                "winc",
                "movestogo",
                "mate",
                "searchmoves",
                "infinite",
                "ponder",
                ""
            ]),
            r.pick(&["2", "20", "-5", "x", "e2e4", "", "100"])
        ),
        4 => format!(
            "setoption name {} value {}",
            r.pick(&[
                "Hash",
                "Threads",
                "MultiPV",
                "UCI_Variant",
                "VariantPath",
                "Ponder",
                "Clear Hash",
                "Nope",
                ""
            ]),
            r.pick(&[
                "1",
                "2",
                "crazyhouse",
                "shogi",
                "chess",
                "lionhouse",
                "x",
                "-3",
                "/nonexistent",
                ""
            ])
        ),
        _ => r
            .pick(&[
                "uci",
                "isready",
                "ucinewgame",
                "stop",
                "ponderhit",
                "debug on",
                "debug off",
                "register later",
                "go",
                "go depth 2",
                "go movetime 20",
                "position startpos",
                "setoption",
                "position",
                "go infinite",
            ])
            .to_string(),
    };
    text.into_bytes()
}

/// 1000 generated lines; after every 25 a synchronisation that must be answered.
fn fuzz(uci: bool, seed: u64) {
    let mut engine = Engine::start(&["--variants", "{DATA}/variants.ini"]);
    let mut r = Rng(seed);
    engine.send(if uci { "uci" } else { "xboard" });
    let mut readyok_wanted = 0usize;
    let mut readyok_seen = 0usize;
    for batch in 0..40 {
        for _ in 0..25 {
            let line = if uci {
                uci_line(&mut r)
            } else {
                cecp_line(&mut r)
            };
            if uci && line.split(|b| b.is_ascii_whitespace()).next() == Some(b"isready") {
                readyok_wanted += 1;
            }
            engine.send_bytes(&line);
        }
        if uci {
            // Stop whatever runs, then every isready so far must be answered.
            engine.send("stop");
            engine.send("isready");
            readyok_wanted += 1;
            while readyok_seen < readyok_wanted {
                let line = engine.next_line(Duration::from_secs(30));
                let Some(line) = line else {
                    panic!(
                        "batch {batch}: {readyok_seen} of {readyok_wanted} readyok; last lines:\n{}",
                        engine.tail()
                    );
                };
                readyok_seen += (line == "readyok") as usize;
            }
        } else {
            // Move now if thinking, leave edit mode, resume after a pause; then the
            // ping must come back.
            engine.send("?");
            engine.send(".");
            engine.send("resume");
            let tag = format!("pong {batch}");
            engine.send(&format!("ping {batch}"));
            let got = engine.wait_for(Duration::from_secs(30), |l| l == tag);
            assert!(
                got.is_some(),
                "batch {batch}: no '{tag}'; last lines:\n{}",
                engine.tail()
            );
        }
        assert!(engine.alive(), "the engine exited in batch {batch}");
    }
    // What the input provoked (shown with --nocapture).
    let count = |prefix: &str| engine.seen.iter().filter(|l| l.starts_with(prefix)).count();
    println!(
        "{} replies: {} Error, {} Illegal move, {} tellusererror, {} move, {} highlight, {} setup, {} info string, {} bestmove, {} readyok, {} pong",
        engine.seen.len(),
        count("Error"),
        count("Illegal move"),
        count("tellusererror"),
        count("move "),
        count("highlight"),
        count("setup"),
        count("info string"),
        count("bestmove"),
        count("readyok"),
        count("pong")
    );
    let (status, stderr) = engine.finish(true);
    assert_eq!(status, Some(0), "exit status; stderr:\n{stderr}");
    for thread in ["main", "stdin-reader"] {
        assert!(
            !stderr.contains(&format!("thread '{thread}' panicked")),
            "the {thread} thread panicked:\n{stderr}"
        );
    }
}

#[test]
fn cecp_survives_random_input() {
    fuzz(false, 0x5eed_cecf);
}

#[test]
fn uci_survives_random_input() {
    fuzz(true, 0x05ee_d0c1);
}
