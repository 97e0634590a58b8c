//! Helpers shared by the integration tests.

/// A small deterministic random generator (xorshift), so tests need no extra crate.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A random string of up to `max - 1` characters from `alphabet`.
    #[allow(dead_code)]
    pub fn string(&mut self, alphabet: &[u8], max: usize) -> String {
        let n = (self.next() % max as u64) as usize;
        (0..n)
            .map(|_| alphabet[(self.next() % alphabet.len() as u64) as usize] as char)
            .collect()
    }
}

use menagerie::board::{Position, Ruleset, check_variant, fen};
use menagerie::movegen::notation;
use menagerie::types::{MoveList, RankNumbering};
use menagerie::variant::VariantSet;
use std::sync::Arc;

/// The rules of a built-in variant.
#[allow(dead_code)]
pub fn builtin_rules(name: &str) -> Arc<Ruleset> {
    let set = VariantSet::builtin(check_variant);
    Ruleset::new(
        set.get(name)
            .unwrap_or_else(|| panic!("{name} is built in")),
    )
}

/// A position as written, also a finished game or one that cannot arise in play
/// (the rules core must judge those too; protocols refuse them).
#[allow(dead_code)]
pub fn unchecked_position(rules: &Arc<Ruleset>, fen: &str) -> Position {
    let setup = fen::parse(&rules.variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    Position::from_setup_unchecked(rules, &setup)
}

/// The legal moves in UCI notation, sorted.
#[allow(dead_code)]
pub fn legal_moves(p: &mut Position) -> Vec<String> {
    let r = p.rules().clone();
    let mut list = MoveList::new();
    r.generate_legal(p, &mut list);
    let mut out: Vec<String> = list
        .iter()
        .map(|&m| notation::move_to_string(p, m, RankNumbering::FromOne))
        .collect();
    out.sort();
    out
}

/// Play space-separated moves in UCI notation.
#[allow(dead_code)]
pub fn play(p: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = notation::parse_move(p, m, RankNumbering::FromOne)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        p.make(mv);
    }
}

/// The score (`cp N` or `mate N`) of a depth-1 UCI search of `position` in a
/// running session: the last `score` before `bestmove`.
#[allow(dead_code)]
pub fn depth1_score(
    session: &menagerie::protocol::InProcess,
    position: &str,
    wait: std::time::Duration,
) -> String {
    session.send(position);
    session.send("go depth 1");
    let mut score = String::new();
    while let Some(line) = session.next_line(wait) {
        if let Some(at) = line.find(" score ") {
            score = line[at + 7..]
                .split(" nodes")
                .next()
                .unwrap_or("")
                .to_string();
        }
        if line.starts_with("bestmove") {
            break;
        }
    }
    score
}

/// Run the `menagerie` binary with `args` and wait for it.
#[allow(dead_code)]
pub fn menagerie(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// What a finished command printed: stdout, then stderr.
#[allow(dead_code)]
pub fn text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
