//! The protocol fuzzer: random and malformed CECP and UCI input, and mutated variant
//! files, sent to the `menagerie` binary. It checks that the engine never aborts,
//! never panics and never hangs, that every `ping` and `isready` is answered (and how
//! fast: the worst latency is reported, and can be bounded), and that the engine
//! still plays a legal move afterwards.
//!
//! It is a test target (`harness = false`, see Cargo.toml), so `cargo test` runs its
//! short form. The long form and the options are in tools/README.md:
//!
//!     cargo test --release --test protocol_fuzz -- --long --max-latency-ms 100
//!
//! Everything is decided by the seed: the same seed sends the same lines and writes
//! the same files. Lines are sent in batches; after each batch the fuzzer
//! synchronises (CECP: `?` to end any thinking, then `ping`; UCI: `stop`, then
//! `isready`) and times the answer from the moment the `ping`/`isready` was sent.

mod protocol_support;

use menagerie::board::{Position, Ruleset, check_variant};
use menagerie::movegen::notation;
use menagerie::types::RankNumbering;
use menagerie::variant::{BUILTIN_FILES, VariantSet};
use protocol_support::Engine;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// How many lines and files each form sends.
#[derive(Clone, Debug)]
struct Config {
    seed: u64,
    cecp_lines: usize,
    uci_lines: usize,
    files: usize,
    /// Fail when a ping or isready takes longer (None: only report the worst).
    max_latency: Option<Duration>,
    /// No answer within this is a hang.
    hang: Duration,
    /// Print the input of the slowest batch.
    show_slow: bool,
    /// Write every line sent to the protocol runs here (`--dump DIR`: cecp.txt and
    /// uci.txt, the synchronisation lines included), to replay a run by hand.
    dump: Option<PathBuf>,
}

impl Config {
    fn short() -> Config {
        Config {
            seed: 1,
            cecp_lines: 1_000,
            uci_lines: 1_000,
            files: 40,
            max_latency: None,
            hang: Duration::from_secs(20),
            show_slow: false,
            dump: None,
        }
    }

    fn long() -> Config {
        Config {
            cecp_lines: 10_000,
            uci_lines: 10_000,
            files: 1_000,
            ..Config::short()
        }
    }
}

/// Lines per batch between two synchronisations.
const BATCH: usize = 25;
/// Variant files loaded by one engine process (the set of loaded variants grows).
const FILES_PER_ENGINE: usize = 100;

/// A small deterministic generator (64-bit LCG, high bits).
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
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// What the run found; any count but `syncs` above zero fails it.
#[derive(Default)]
struct Report {
    sent: usize,
    syncs: usize,
    /// Every latency, in microseconds.
    latencies: Vec<u64>,
    worst: Duration,
    worst_at: String,
    hangs: Vec<String>,
    deaths: Vec<String>,
    panics: Vec<String>,
    illegal: Vec<String>,
    slow: usize,
    /// The input of the slowest batch (shown with --show-slow).
    worst_input: Vec<String>,
    batch_input: Vec<String>,
    files_loaded: usize,
    variants_played: usize,
}

impl Report {
    fn latency(&mut self, took: Duration, what: &str, cfg: &Config) {
        self.syncs += 1;
        self.latencies.push(took.as_micros() as u64);
        if took > self.worst {
            self.worst = took;
            self.worst_at = what.to_string();
            self.worst_input = self.batch_input.clone();
        }
        if cfg.max_latency.is_some_and(|m| took > m) {
            self.slow += 1;
        }
    }

    fn failed(&self) -> bool {
        !(self.hangs.is_empty()
            && self.deaths.is_empty()
            && self.panics.is_empty()
            && self.illegal.is_empty())
            || self.slow > 0
    }
}

// ------------------------------------------------------------------ input lines

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
];

const VARIANTS: &[&str] = &[
    "crazyhouse",
    "shogi",
    "xiangqi",
    "lionhouse",
    "zoo12",
    "kirinshogi",
    "minishogi",
    "normal",
    "chess",
    "atomic",
    "capablanca",
    "grand",
    "nope",
    "",
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
    let len = if r.chance(50) { 20_000 } else { r.below(60) };
    let mut out: Vec<u8> = (0..len)
        .map(|_| (r.next() & 0xFF) as u8)
        .filter(|&b| b != b'\n')
        .collect();
    if out.split(|b| b.is_ascii_whitespace()).next() == Some(b"quit") {
        out.insert(0, b'x');
    }
    out
}

/// Special files the fuzzer offers as variant files.
struct Files {
    /// Table sizes this machine refuses (the fuzzer never asks for a table it would
    /// really allocate beyond 256 MB).
    huge_hash: Vec<String>,
    paths: Vec<String>,
}

impl Files {
    fn path(&self, r: &mut Rng) -> String {
        self.paths[r.below(self.paths.len())].clone()
    }
}

fn cecp_line(r: &mut Rng, files: &Files) -> Vec<u8> {
    let text = match r.below(17) {
        0 => return garbage(r),
        1 => format!("usermove {}", move_text(r)),
        2 => move_text(r),
        3 => format!("setboard {}", fen(r)),
        4 => format!("variant {}", r.pick(VARIANTS)),
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
                "Book=1",
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
        // The cases of issue 10: resource requests beyond the machine, background
        // table preparation, variant files that are not files or too large to walk.
        11 => match r.below(4) {
            0 if !files.huge_hash.is_empty() => format!("memory {}", files.huge_hash[0]),
            1 => format!("memory {}", r.pick(&["1", "16", "64", "256"])),
            2 => format!("cores {}", r.pick(&["1", "2", "100000", "0"])),
            _ => "new".to_string(),
        },
        12 => format!("option VariantPath={}", files.path(r)),
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
                "ping 7",
                "setscore 1",
                "holding [P] [p]",
                "st 0.05",
                "sd 2",
            ])
            .to_string(),
    };
    text.into_bytes()
}

fn uci_line(r: &mut Rng, files: &Files) -> Vec<u8> {
    let text = match r.below(13) {
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
                "perft",
                ""
            ]),
            r.pick(&["2", "20", "-5", "x", "e2e4", "", "100", "7", "64"])
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
                "OwnBook",
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
        // The cases of issue 10.
        5 => match r.below(4) {
            0 if !files.huge_hash.is_empty() => {
                format!(
                    "setoption name Hash value {}",
                    files.huge_hash[r.below(files.huge_hash.len())]
                )
            }
            1 => format!(
                "setoption name Threads value {}",
                r.pick(&["1", "2", "512"])
            ),
            2 => format!("go perft {}", r.pick(&["7", "64", "3"])),
            _ => "ucinewgame".to_string(),
        },
        6 => format!("setoption name VariantPath value {}", files.path(r)),
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

// ------------------------------------------------------------------ variant files

/// The sections of the built-in variant files, as text.
fn corpus() -> Vec<String> {
    let mut sections = Vec::new();
    for (_, text) in BUILTIN_FILES {
        let mut current = String::new();
        for line in text.lines() {
            if line.starts_with('[') && !current.is_empty() {
                sections.push(std::mem::take(&mut current));
            }
            if line.starts_with('[') || !current.is_empty() {
                current.push_str(line);
                current.push('\n');
            }
        }
        if !current.is_empty() {
            sections.push(current);
        }
    }
    sections
}

const KEYS: &[&str] = &[
    "maxRank",
    "maxFile",
    "startFen",
    "pieceDrops",
    "capturesToHand",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "dropRegionWhite",
    "promotedPieceType",
    "customPiece1",
    "customPiece2",
    "king",
    "rook",
    "pawn",
    "castling",
    "doubleStep",
    "nFoldRule",
    "checkmateValue",
    "extinctionPieceTypes",
    "mobilityRegionWhiteKing",
    "pieceToCharTable",
    "pocketSize",
    "variantTemplate",
    "betzaDialect",
    "flagRegionWhite",
];

const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "16",
    "17",
    "255",
    "99999999999999999999",
    "",
    "*",
    "-",
    "a1 b2 *3",
    "true",
    "maybe",
    "a:QN",
    "b:KNADcaKmcabK",
    "c:mamamamamamamamaW",
    "d:papapaQ",
    "e:xyz",
    "f:",
    "k:W",
    "p:g",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3[Aa] w - - 0 1",
    "PNBRQ..........K",
    "shogi",
    "xboard",
    "win",
    "loss",
];

/// A mutated variant file: one to three built-in sections under new names, changed
/// by a few random edits (values, keys, lines, bytes).
fn mutated_file(r: &mut Rng, corpus: &[String], index: usize) -> Vec<u8> {
    let mut text = String::new();
    for s in 0..1 + r.below(3) {
        let section = &corpus[r.below(corpus.len())];
        let mut lines: Vec<String> = section.lines().map(str::to_string).collect();
        // A new name: the section's parent (if any) is a loaded built-in variant.
        let header = &lines[0];
        let parent = header
            .trim_matches(['[', ']'])
            .split_once(':')
            .map(|(_, p)| p.to_string());
        let name = format!("fz{index}x{s}");
        lines[0] = match (&parent, r.below(8)) {
            (_, 0) => format!(
                "[{name}:{}]",
                r.pick(&["chess", "shogi", "nope", "fz0x0", ""])
            ),
            (Some(p), _) => format!("[{name}:{p}]"),
            (None, _) => format!("[{name}]"),
        };
        for _ in 0..r.below(6) {
            let n = lines.len();
            match r.below(7) {
                0 if n > 1 => {
                    let i = 1 + r.below(n - 1);
                    let key = lines[i].split('=').next().unwrap_or("").trim().to_string();
                    lines[i] = format!("{key} = {}", r.pick(VALUES));
                }
                1 if n > 1 => {
                    lines.remove(1 + r.below(n - 1));
                }
                2 if n > 1 => {
                    let i = 1 + r.below(n - 1);
                    let l = lines[i].clone();
                    lines.insert(i, l);
                }
                3 => lines.push(format!("{} = {}", r.pick(KEYS), r.pick(VALUES))),
                4 => {
                    let bytes: String = (0..r.below(30))
                        .map(|_| char::from_u32(r.next() as u32 % 0x250).unwrap_or('?'))
                        .filter(|&c| c != '\n' && c != '\r')
                        .collect();
                    lines.push(bytes);
                }
                5 => lines.push(format!("[{}", r.pick(&["", "x:", "BAD]", "a b]"]))),
                _ => {
                    let i = r.below(n);
                    let cut = lines[i].len() / 2;
                    let mut cut_at = cut;
                    while !lines[i].is_char_boundary(cut_at) {
                        cut_at -= 1;
                    }
                    lines[i].truncate(cut_at);
                }
            }
        }
        text.push_str(&lines.join("\n"));
        text.push('\n');
    }
    let mut bytes = text.into_bytes();
    match r.below(12) {
        0 => bytes.splice(0..0, "\u{feff}".bytes()).for_each(drop),
        1 => {
            bytes = String::from_utf8_lossy(&bytes)
                .replace('\n', "\r\n")
                .into_bytes()
        }
        2 => bytes.push(0xff),
        3 => {
            let keep = r.below(bytes.len().max(1));
            bytes.truncate(keep);
        }
        _ => {}
    }
    bytes
}

// ------------------------------------------------------------------ the runs

fn start(args: &[&str]) -> Engine {
    Engine::start(args)
}

/// Synchronise: CECP `resume` (a paused engine may start thinking), `?` (end
/// thinking), `.`, `ping N`; UCI `stop`,
/// `isready` (after `earlier` isready lines of the random input, each answered with
/// a `readyok` of its own: ours is the last). The latency runs from our
/// `ping`/`isready` to its answer.
fn sync(
    e: &mut Engine,
    uci: bool,
    tag: usize,
    earlier: usize,
    cfg: &Config,
    rep: &mut Report,
    what: &str,
) {
    let (want, count, sent) = if uci {
        e.send("stop");
        let t = Instant::now();
        e.send("isready");
        ("readyok".to_string(), earlier + 1, t)
    } else {
        // A ping while thinking is answered after the move (CECP), so `?` comes
        // after `resume`, which may start a search.
        e.send("resume");
        e.send("?");
        e.send(".");
        let t = Instant::now();
        // Tags the random `ping 7` lines never use.
        e.send(&format!("ping {}", 1_000_000 + tag));
        (format!("pong {}", 1_000_000 + tag), 1, t)
    };
    let mut seen = 0;
    while seen < count {
        let left = cfg.hang.saturating_sub(sent.elapsed());
        match e.next_line(left) {
            Some(l) if l == want => seen += 1,
            Some(_) => {}
            None => {
                rep.hangs.push(format!(
                    "{what}: {seen} of {count} '{want}'; last lines:\n{}",
                    e.tail()
                ));
                return;
            }
        }
    }
    rep.latency(sent.elapsed(), what, cfg);
}

/// End a session: `quit`, exit status 0, no panic.
fn finish(e: Engine, rep: &mut Report, what: &str) {
    let (status, stderr) = e.finish(true);
    if status != Some(0) {
        rep.deaths
            .push(format!("{what}: exit status {status:?}; stderr:\n{stderr}"));
    }
    if stderr.contains("panicked") {
        rep.panics.push(format!("{what}: {stderr}"));
    }
}

/// The engine answers 1. e4 with a legal move (CECP, chess).
fn plays_legal_move(e: &mut Engine, cfg: &Config, rep: &mut Report, what: &str) {
    e.send("new");
    e.send("st 0.1");
    e.send("e2e4");
    let reply = e.wait_for(cfg.hang, |l| {
        l.starts_with("move ") || l.starts_with("Illegal")
    });
    let Some(reply) = reply else {
        rep.hangs
            .push(format!("{what}: no move; last lines:\n{}", e.tail()));
        return;
    };
    let set = VariantSet::builtin(check_variant);
    let Some(chess) = set.get("chess") else {
        return;
    };
    let rules = Ruleset::new(chess);
    let mut pos = Position::start(&rules);
    if let Ok(m) = notation::parse_move(&mut pos, "e2e4", RankNumbering::XBoard) {
        pos.make(m);
    }
    let text = reply.strip_prefix("move ").unwrap_or(&reply);
    if notation::parse_move(&mut pos, text, RankNumbering::XBoard).is_err() {
        rep.illegal.push(format!("{what}: {reply}"));
    }
}

fn protocol_run(uci: bool, lines: usize, cfg: &Config, files: &Files, rep: &mut Report) {
    let name = if uci { "UCI" } else { "CECP" };
    let mut r = Rng(cfg.seed ^ if uci { 0x05ee_d0c1 } else { 0x5eed_cecf });
    let mut e = start(&[]);
    if let Some(dir) = &cfg.dump {
        e.log_to(&dir.join(if uci { "uci.txt" } else { "cecp.txt" }));
    }
    e.send(if uci { "uci" } else { "xboard" });
    if !uci {
        e.send("protover 2");
    }
    let mut sent = 0;
    let mut batch = 0;
    while sent < lines {
        let mut isready = 0;
        for _ in 0..BATCH.min(lines - sent) {
            let line = if uci {
                uci_line(&mut r, files)
            } else {
                cecp_line(&mut r, files)
            };
            if uci
                && line
                    .split(|b| b.is_ascii_whitespace())
                    .find(|w| !w.is_empty())
                    == Some(b"isready")
            {
                isready += 1;
            }
            e.send_bytes(&line);
            rep.batch_input
                .push(String::from_utf8_lossy(&line).chars().take(120).collect());
            sent += 1;
            rep.sent += 1;
        }
        batch += 1;
        sync(
            &mut e,
            uci,
            batch,
            isready,
            cfg,
            rep,
            &format!("{name} batch {batch}"),
        );
        rep.batch_input.clear();
        if !e.alive() {
            rep.deaths
                .push(format!("{name}: the engine died in batch {batch}"));
            return;
        }
        if !rep.hangs.is_empty() {
            break;
        }
    }
    if !uci {
        // Out of edit mode, back to a plain game.
        e.send(".");
        e.send("exit");
        e.send("force");
        plays_legal_move(&mut e, cfg, rep, name);
    } else {
        // The UCI session's move, checked the same way from a CECP session below.
        e.send("ucinewgame");
        e.send("setoption name UCI_Variant value chess");
        e.send("position startpos moves e2e4");
        e.send("go movetime 100");
        match e.wait_for(cfg.hang, |l| l.starts_with("bestmove")) {
            Some(l) => {
                let set = VariantSet::builtin(check_variant);
                if let Some(chess) = set.get("chess") {
                    let rules = Ruleset::new(chess);
                    let mut pos = Position::start(&rules);
                    if let Ok(m) = notation::parse_move(&mut pos, "e2e4", RankNumbering::FromOne) {
                        pos.make(m);
                    }
                    let mv = l.split_whitespace().nth(1).unwrap_or("");
                    if notation::parse_move(&mut pos, mv, RankNumbering::FromOne).is_err() {
                        rep.illegal.push(format!("{name}: {l}"));
                    }
                }
            }
            None => rep.hangs.push(format!("{name}: no bestmove at the end")),
        }
    }
    finish(e, rep, name);
}

/// Load mutated files one by one (UCI), play each variant that loads for a moment,
/// and check its move; every tenth file also goes through CECP (XBoard's view of the
/// variant: `variant`, `setup`, a move).
fn file_run(cfg: &Config, dir: &Path, rep: &mut Report) {
    let corpus = corpus();
    let mut r = Rng(cfg.seed ^ 0xf11e);
    let mut engine: Option<Engine> = None;
    let mut xboard: Option<Engine> = None;
    let mut set = VariantSet::builtin(check_variant);
    for i in 0..cfg.files {
        if i % FILES_PER_ENGINE == 0 {
            if let Some(e) = engine.take() {
                finish(e, rep, "file run (UCI)");
            }
            if let Some(e) = xboard.take() {
                finish(e, rep, "file run (CECP)");
            }
            let mut e = start(&[]);
            e.send("uci");
            engine = Some(e);
            let mut x = start(&[]);
            x.send("xboard");
            x.send("protover 2");
            xboard = Some(x);
            set = VariantSet::builtin(check_variant);
        }
        let path = dir.join(format!("fuzz-{i}.ini"));
        let bytes = mutated_file(&mut r, &corpus, i);
        if std::fs::write(&path, &bytes).is_err() {
            continue;
        }
        let p = path.display().to_string();
        let report = set.load_file(&path);
        rep.files_loaded += 1;
        let Some(e) = engine.as_mut() else { return };
        e.send(&format!("setoption name VariantPath value {p}"));
        sync(e, true, i, 0, cfg, rep, &format!("file {i} (UCI load)"));
        for name in report.loaded.iter().take(2) {
            e.send(&format!("setoption name UCI_Variant value {name}"));
            e.send("position startpos");
            e.send("go movetime 30");
            let got = e.wait_for(cfg.hang, |l| l.starts_with("bestmove"));
            let Some(line) = got else {
                rep.hangs
                    .push(format!("file {i} variant {name}: no bestmove; {p}"));
                break;
            };
            rep.variants_played += 1;
            if let Some(v) = set.get(name) {
                let rules = Ruleset::new(v);
                let mut pos = Position::start(&rules);
                let mv = line.split_whitespace().nth(1).unwrap_or("");
                let ok = if mv == "(none)" {
                    let mut list = menagerie::types::MoveList::new();
                    rules.generate_legal(&mut pos, &mut list);
                    list.is_empty()
                } else {
                    notation::parse_move(&mut pos, mv, RankNumbering::FromOne).is_ok()
                };
                if !ok {
                    rep.illegal
                        .push(format!("file {i} variant {name}: {line} ({p})"));
                }
            }
            sync(
                e,
                true,
                i,
                0,
                cfg,
                rep,
                &format!("file {i} variant {name} (UCI)"),
            );
        }
        if !e.alive() {
            rep.deaths
                .push(format!("file {i}: the UCI engine died ({p})"));
            return;
        }
        if i % 10 == 0
            && let Some(x) = xboard.as_mut()
        {
            x.send(&format!("option VariantPath={p}"));
            for name in report.loaded.iter().take(2) {
                x.send("new");
                x.send(&format!("variant {name}"));
                x.send("force");
                x.send("st 0.03");
                x.send("go");
                sync(
                    x,
                    false,
                    i,
                    0,
                    cfg,
                    rep,
                    &format!("file {i} variant {name} (CECP)"),
                );
                rep.variants_played += 1;
            }
            if !x.alive() {
                rep.deaths
                    .push(format!("file {i}: the CECP engine died ({p})"));
                return;
            }
        }
        if !rep.hangs.is_empty() {
            break;
        }
    }
    if let Some(e) = engine.take() {
        finish(e, rep, "file run (UCI)");
    }
    if let Some(mut x) = xboard.take() {
        x.send("new");
        x.send("force");
        plays_legal_move(&mut x, cfg, rep, "file run (CECP)");
        finish(x, rep, "file run (CECP)");
    }
}

/// Table sizes in MB this machine refuses (7/8 of MemAvailable is the limit), among
/// the two the issue names.
fn refused_hash_sizes() -> Vec<String> {
    let Ok(text) = std::fs::read_to_string("/proc/meminfo") else {
        return Vec::new();
    };
    let free_mb = text
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<usize>().ok())
        .map_or(0, |kb| kb / 1024);
    let limit = free_mb / 8 * 7;
    [65536usize, 32768]
        .iter()
        .filter(|&&mb| mb > limit + 1024)
        .map(|mb| mb.to_string())
        .collect()
}

/// The special files: a FIFO with no writer, a directory, a piece beyond the walk
/// budget, a missing file.
fn special_files(dir: &Path) -> Vec<String> {
    let mut paths = vec![
        dir.display().to_string(),
        dir.join("missing.ini").display().to_string(),
    ];
    let long = dir.join("long-legs.ini");
    let text = format!("[longlegs:chess]\ncustomPiece1 = a:{}W\n", "ma".repeat(16));
    if std::fs::write(&long, text).is_ok() {
        paths.push(long.display().to_string());
    }
    let fifo = dir.join("no-writer.ini");
    let _ = std::fs::remove_file(&fifo);
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        paths.push(fifo.display().to_string());
    }
    paths
}

fn parse_args() -> Option<Config> {
    let mut cfg = Config::short();
    let mut args = std::env::args().skip(1);
    let mut filters = Vec::new();
    while let Some(a) = args.next() {
        let mut num = |what: &str| -> u64 {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{what} needs a number"))
        };
        match a.as_str() {
            "--long" => {
                let seed = cfg.seed;
                cfg = Config::long();
                cfg.seed = seed;
            }
            "--seed" => cfg.seed = num("--seed"),
            "--cecp" => cfg.cecp_lines = num("--cecp") as usize,
            "--uci" => cfg.uci_lines = num("--uci") as usize,
            "--files" => cfg.files = num("--files") as usize,
            "--max-latency-ms" => {
                cfg.max_latency = Some(Duration::from_millis(num("--max-latency-ms")))
            }
            "--hang-s" => cfg.hang = Duration::from_secs(num("--hang-s")),
            "--show-slow" => cfg.show_slow = true,
            "--dump" => cfg.dump = args.next().map(PathBuf::from),
            // What cargo's test runner may pass: listing runs nothing.
            "--list" => return None,
            a if a.starts_with('-') => {}
            f => filters.push(f.to_string()),
        }
    }
    // A test filter that does not name this tool skips it.
    if !filters.is_empty() && !filters.iter().any(|f| "protocol_fuzz".contains(f.as_str())) {
        return None;
    }
    Some(cfg)
}

fn main() -> ExitCode {
    let Some(cfg) = parse_args() else {
        return ExitCode::SUCCESS;
    };
    let dir: PathBuf = std::env::temp_dir().join(format!("menagerie-fuzz-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        eprintln!("cannot make {}", dir.display());
        return ExitCode::FAILURE;
    }
    let files = Files {
        huge_hash: refused_hash_sizes(),
        paths: special_files(&dir),
    };
    let started = Instant::now();
    let mut rep = Report::default();
    protocol_run(false, cfg.cecp_lines, &cfg, &files, &mut rep);
    protocol_run(true, cfg.uci_lines, &cfg, &files, &mut rep);
    file_run(&cfg, &dir, &mut rep);
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "protocol_fuzz seed {}: {} CECP + {} UCI lines, {} variant files ({} variants played) in {:.1} s",
        cfg.seed,
        cfg.cecp_lines,
        cfg.uci_lines,
        rep.files_loaded,
        rep.variants_played,
        started.elapsed().as_secs_f64()
    );
    let mut sorted = rep.latencies.clone();
    sorted.sort_unstable();
    let pct = |p: usize| {
        sorted
            .get((sorted.len() * p / 100).min(sorted.len().saturating_sub(1)))
            .map_or(0.0, |&us| us as f64 / 1000.0)
    };
    let over_100 = sorted.iter().filter(|&&us| us > 100_000).count();
    println!(
        "{} pings/isready: median {:.1} ms, 99% {:.1} ms, worst {:.1} ms ({}); {} over 100 ms, {} over the bound; {} hangs, {} aborts, {} panics, {} illegal moves",
        rep.syncs,
        pct(50),
        pct(99),
        rep.worst.as_secs_f64() * 1000.0,
        rep.worst_at,
        over_100,
        rep.slow,
        rep.hangs.len(),
        rep.deaths.len(),
        rep.panics.len(),
        rep.illegal.len()
    );
    if cfg.show_slow {
        for l in &rep.worst_input {
            println!("  slowest batch: {l}");
        }
    }
    for problem in rep
        .hangs
        .iter()
        .chain(&rep.deaths)
        .chain(&rep.panics)
        .chain(&rep.illegal)
    {
        println!("FAIL {problem}");
    }
    if rep.failed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
