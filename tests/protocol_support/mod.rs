//! Driving the engine in tests: the `menagerie` binary over its stdin/stdout (an
//! engine process with a reader thread), or a session of the library in-process; and
//! transcripts (input lines and the exact replies expected) kept as data files in
//! `tests/data/protocol/`, run either way.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/protocol");

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    /// Everything read so far (for failure messages).
    pub seen: Vec<String>,
    /// Where to copy every line sent, if anywhere.
    log: Option<std::fs::File>,
}

impl Engine {
    /// Start the engine with these arguments (`{DATA}` is replaced by the data folder).
    pub fn start(args: &[&str]) -> Engine {
        let args: Vec<String> = args.iter().map(|a| a.replace("{DATA}", DATA)).collect();
        let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
            .args(&args)
            .env("RUST_BACKTRACE", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            return;
                        }
                    }
                    Err(_) => return,
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err_pipe = child.stderr.take().expect("piped stderr");
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = String::new();
            let _ = err_pipe.read_to_string(&mut buf);
            if let Ok(mut s) = sink.lock() {
                s.push_str(&buf);
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            stderr,
            seen: Vec::new(),
            log: None,
        }
    }

    /// Copy every line sent from now on into `path`.
    pub fn log_to(&mut self, path: &std::path::Path) {
        self.log = std::fs::File::create(path).ok();
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.write_all(b"\n").expect("the engine reads its input");
        stdin.flush().expect("flush");
        if let Some(log) = self.log.as_mut() {
            let _ = log.write_all(bytes).and_then(|_| log.write_all(b"\n"));
        }
    }

    /// The next output line, or None after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.seen.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Read until a line satisfies `pred`; returns it, or None after `timeout`.
    pub fn wait_for(&mut self, timeout: Duration, pred: impl Fn(&str) -> bool) -> Option<String> {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let line = self.next_line(left)?;
            if pred(&line) {
                return Some(line);
            }
        }
    }

    /// Still running?
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Close stdin (or send `quit`) and wait for the exit status.
    pub fn finish(mut self, quit: bool) -> (Option<i32>, String) {
        if quit {
            self.send("quit");
        }
        drop(self.stdin.take());
        let end = Instant::now() + Duration::from_secs(10);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break s.code(),
                Ok(None) if Instant::now() < end => std::thread::sleep(Duration::from_millis(20)),
                _ => {
                    let _ = self.child.kill();
                    break None;
                }
            }
        };
        std::thread::sleep(Duration::from_millis(50));
        let err = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        (status, err)
    }

    pub fn tail(&self) -> String {
        let n = self.seen.len();
        self.seen[n.saturating_sub(12)..].join("\n")
    }
}

/// What a transcript needs of an engine, in a process or in-process.
trait Wire {
    fn send(&mut self, line: &str);
    fn next_line(&mut self, timeout: Duration) -> Option<String>;
    /// The last lines read (for failure messages).
    fn tail(&self) -> String;
    /// Send `quit` and check that the session ended cleanly.
    fn finish_cleanly(self, path: &str);
}

impl Wire for Engine {
    fn send(&mut self, line: &str) {
        Engine::send(self, line);
    }
    fn next_line(&mut self, timeout: Duration) -> Option<String> {
        Engine::next_line(self, timeout)
    }
    fn tail(&self) -> String {
        Engine::tail(self)
    }
    fn finish_cleanly(self, path: &str) {
        let (status, stderr) = self.finish(true);
        assert_eq!(status, Some(0), "{path}: exit status; stderr:\n{stderr}");
        assert!(
            !stderr.contains("thread 'main' panicked"),
            "{path}: the protocol thread panicked:\n{stderr}"
        );
    }
}

/// A session of the library on a thread of the test.
pub struct InEngine {
    session: menagerie::protocol::InProcess,
    pub seen: Vec<String>,
}

impl InEngine {
    /// Start a session with protocol mode's arguments (only `--variants FILE` is
    /// understood; `{DATA}` is replaced by the data folder).
    pub fn start(args: &[&str]) -> InEngine {
        let mut files = Vec::new();
        let mut rest = args.iter();
        while let Some(a) = rest.next() {
            match (*a, rest.next()) {
                ("--variants", Some(f)) => files.push(f.replace("{DATA}", DATA).into()),
                _ => panic!("in-process sessions take only --variants FILE, not {args:?}"),
            }
        }
        let (variants, report) = menagerie::cli::variants::read(&files);
        let session = menagerie::protocol::InProcess::start(variants, report, None)
            .expect("the session thread starts");
        InEngine {
            session,
            seen: Vec::new(),
        }
    }
}

impl Wire for InEngine {
    fn send(&mut self, line: &str) {
        self.session.send(line);
    }
    fn next_line(&mut self, timeout: Duration) -> Option<String> {
        let line = self.session.next_line(timeout)?;
        self.seen.push(line.clone());
        Some(line)
    }
    fn tail(&self) -> String {
        let n = self.seen.len();
        self.seen[n.saturating_sub(12)..].join("\n")
    }
    fn finish_cleanly(self, path: &str) {
        self.session.send("quit");
        let ended = self.session.finish(Duration::from_secs(10));
        assert_eq!(ended, menagerie::protocol::Ended::Quit, "{path}");
    }
}

/// Where a transcript runs the engine.
#[derive(Clone, Copy, Debug)]
pub enum Run {
    /// The `menagerie` binary, over its stdin and stdout.
    Process,
    /// A session of the library on a thread of the test.
    InProcess,
}

/// One expectation of a transcript.
enum Expect {
    /// `< text`: the next line is exactly this.
    Exact(String),
    /// `<~ regex`: the next line matches.
    Matches(regex::Regex),
    /// `<* regex`: skip lines until one matches.
    Eventually(regex::Regex),
}

/// Run a transcript file: `> line` is sent, `< line` must be the next reply (exactly),
/// `<~ regex` the next reply matching, `<* regex` some later reply; `! ARGS` (first)
/// gives the command-line arguments. Lines starting with `#` are comments, and the
/// engine's `#` debug lines are skipped. After the last line the engine must have
/// nothing more to say before answering a final ping (`isready` in UCI), and end
/// cleanly after `quit`.
pub fn run_transcript(name: &str, how: Run) {
    let path = format!("{DATA}/{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut args: Vec<String> = Vec::new();
    let mut steps: Vec<(usize, Result<String, Expect>)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        if let Some(a) = raw.strip_prefix("! ") {
            args = a.split_whitespace().map(str::to_string).collect();
        } else if let Some(l) = raw.strip_prefix("> ") {
            steps.push((n, Ok(l.replace("{DATA}", DATA))));
        } else if raw == ">" {
            steps.push((n, Ok(String::new())));
        } else if let Some(r) = raw.strip_prefix("<~ ") {
            steps.push((n, Err(Expect::Matches(regex(r, &path, n)))));
        } else if let Some(r) = raw.strip_prefix("<* ") {
            steps.push((n, Err(Expect::Eventually(regex(r, &path, n)))));
        } else if let Some(l) = raw.strip_prefix("< ") {
            steps.push((n, Err(Expect::Exact(l.to_string()))));
        } else if raw == "<" {
            steps.push((n, Err(Expect::Exact(String::new()))));
        } else {
            panic!("{path}:{n}: cannot read '{raw}'");
        }
    }
    let arg_refs: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    let uci = steps.iter().any(|(_, s)| matches!(s, Ok(l) if l == "uci"));
    match how {
        Run::Process => play(Engine::start(&arg_refs), &path, &steps, uci),
        Run::InProcess => play(InEngine::start(&arg_refs), &path, &steps, uci),
    }
}

/// Play a transcript's steps against `engine`.
fn play(mut engine: impl Wire, path: &str, steps: &[(usize, Result<String, Expect>)], uci: bool) {
    let timeout = Duration::from_secs(20);
    for (n, step) in steps {
        match step {
            Ok(line) => engine.send(line),
            Err(expect) => {
                let got = loop {
                    match engine.next_line(timeout) {
                        Some(l) if l.starts_with('#') => continue,
                        Some(l) => {
                            if let Expect::Eventually(re) = expect
                                && !re.is_match(&l)
                            {
                                continue;
                            }
                            break Some(l);
                        }
                        None => break None,
                    }
                };
                let Some(got) = got else {
                    panic!(
                        "{path}:{n}: no reply within {timeout:?}; last lines:\n{}",
                        engine.tail()
                    );
                };
                let ok = match expect {
                    Expect::Exact(want) => &got == want,
                    Expect::Matches(re) | Expect::Eventually(re) => re.is_match(&got),
                };
                assert!(
                    ok,
                    "{path}:{n}: got '{got}'; last lines:\n{}",
                    engine.tail()
                );
            }
        }
    }
    // Nothing unexpected afterwards.
    let (sync, reply) = if uci {
        ("isready", "readyok")
    } else {
        ("ping 424242", "pong 424242")
    };
    engine.send(sync);
    loop {
        match engine.next_line(timeout) {
            Some(l) if l.starts_with('#') => continue,
            Some(l) if uci && l.starts_with("info") => continue,
            Some(l) => {
                assert_eq!(
                    l,
                    reply,
                    "{path}: unexpected output at the end; last lines:\n{}",
                    engine.tail()
                );
                break;
            }
            None => panic!(
                "{path}: no '{reply}' at the end; last lines:\n{}",
                engine.tail()
            ),
        }
    }
    engine.finish_cleanly(path);
}

fn regex(text: &str, path: &str, n: usize) -> regex::Regex {
    regex::Regex::new(&format!("^(?:{text})$"))
        .unwrap_or_else(|e| panic!("{path}:{n}: bad regex: {e}"))
}
