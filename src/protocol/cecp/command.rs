//! CECP input lines → typed commands. Parsing looks at the text only; whether a
//! command makes sense now is the session's business.

use crate::protocol::common::MAX_REQUESTED_COUNT;
use crate::protocol::options;
use std::time::Duration;

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Xboard,
    Protover(u32),
    Accepted(String),
    Rejected(String),
    New,
    Variant(String),
    Quit,
    Random,
    Force,
    Go,
    PlayOther,
    /// Obsolete `white` / `black`: set the side to move, engine plays the other.
    Color(bool),
    Level(Level),
    /// `st`: time per move.
    St(Duration),
    Sd(u32),
    Nps(u64),
    /// `time` and `otim`, in centiseconds.
    Time(i64),
    Otim(i64),
    /// A move, with or without the `usermove` prefix.
    Move(String),
    /// `?`: move now.
    MoveNow,
    /// `ping N`: the text of N is echoed.
    Ping(String),
    Draw,
    Result(String),
    SetBoard(String),
    Edit,
    Hint,
    Bk,
    Undo,
    Remove,
    Hard,
    Easy,
    Post,
    NoPost,
    Analyze,
    Exit,
    /// `.`: analysis status.
    Stat,
    Pause,
    Resume,
    /// `memory`, brought within the limits of the Hash option, and `cores`.
    Memory(usize),
    Cores(usize),
    /// `option NAME[=VALUE]`.
    Option(String, Option<String>),
    /// `exclude`/`include` a move, or all moves (None).
    Exclude(Option<String>),
    Include(Option<String>),
    Lift(String),
    Put(String),
    Hover(String),
    /// `name X`: the opponent's name.
    Name(String),
    /// `rating ENGINE OPPONENT`: the opponent's rating (None when 0: unrated).
    Rating(Option<u32>),
    /// `computer`: the opponent is a computer.
    Computer,
    /// Information the engine may ignore (`ics`, `egtpath`, `holding`, `partner`,
    /// `ptell`, `setscore`).
    Info,
}

/// A time control: moves per session (0 = whole game), base time, increment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    pub moves: u32,
    pub base: Duration,
    pub increment: Duration,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The first word is not a command.
    Unknown,
    /// The command is known but its parameters are not usable.
    BadParameters(String),
}

/// Parse one line (already trimmed, not empty).
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let bad = |why: &str| Err(ParseError::BadParameters(why.to_string()));
    let number = |what: &str| -> std::result::Result<i64, ParseError> {
        rest.split_whitespace()
            .next()
            .and_then(|s| s.parse::<i64>().ok())
            .ok_or_else(|| ParseError::BadParameters(format!("{what} must be a whole number")))
    };
    let non_negative = |what: &str| -> std::result::Result<i64, ParseError> {
        match number(what)? {
            n if n < 0 => Err(ParseError::BadParameters(format!(
                "{what} must not be negative"
            ))),
            n => Ok(n),
        }
    };
    use Command::*;
    let cmd = match word {
        "xboard" => Xboard,
        "protover" => Protover(non_negative("the protocol version")?.min(u32::MAX as i64) as u32),
        "accepted" => Accepted(rest.to_string()),
        "rejected" => Rejected(rest.to_string()),
        "new" => New,
        "variant" => {
            if rest.is_empty() {
                return bad("no variant name");
            }
            Variant(rest.to_string())
        }
        "quit" => Quit,
        "random" => Random,
        "force" => Force,
        "go" => Go,
        "playother" => PlayOther,
        "white" => Color(true),
        "black" => Color(false),
        "level" => Level(parse_level(rest)?),
        "st" => St(parse_seconds(rest)
            .ok_or_else(|| ParseError::BadParameters("st needs seconds".into()))?),
        "sd" => Sd(non_negative("the depth")?.min(MAX_REQUESTED_COUNT as i64) as u32),
        "nps" => Nps(non_negative("the node rate")? as u64),
        "time" => Time(number("the time")?),
        "otim" => Otim(number("the time")?),
        "usermove" => {
            if rest.is_empty() {
                return bad("no move");
            }
            Move(rest.to_string())
        }
        "?" => MoveNow,
        "ping" => Ping(rest.to_string()),
        "draw" => Draw,
        "result" => Result(rest.to_string()),
        "setboard" => {
            if rest.is_empty() {
                return bad("no FEN");
            }
            SetBoard(rest.to_string())
        }
        "edit" => Edit,
        "hint" => Hint,
        "bk" => Bk,
        "undo" => Undo,
        "remove" => Remove,
        "hard" => Hard,
        "easy" => Easy,
        "post" => Post,
        "nopost" => NoPost,
        "analyze" => Analyze,
        "exit" => Exit,
        "." => Stat,
        "pause" => Pause,
        "resume" => Resume,
        "memory" => Memory(options::HASH.clamp(non_negative("the memory size")? as usize)),
        // Brought down to what the machine runs well when applied (and said so).
        "cores" => Cores(non_negative("the number of cores")? as usize),
        "option" => match rest.split_once('=') {
            Some((n, v)) if !n.trim().is_empty() => {
                Option(n.trim().to_string(), Some(v.trim().to_string()))
            }
            None if !rest.is_empty() => Option(rest.to_string(), None),
            _ => return bad("no option name"),
        },
        "exclude" | "include" => {
            if rest.is_empty() {
                return bad("no move");
            }
            let which = (rest != "all").then(|| rest.to_string());
            if word == "exclude" {
                Exclude(which)
            } else {
                Include(which)
            }
        }
        "lift" | "put" | "hover" => {
            if rest.is_empty() {
                return bad("no square");
            }
            let sq = rest.to_string();
            match word {
                "lift" => Lift(sq),
                "put" => Put(sq),
                _ => Hover(sq),
            }
        }
        "name" => Name(rest.to_string()),
        "rating" => {
            let theirs = rest
                .split_whitespace()
                .nth(1)
                .and_then(|r| r.parse::<u32>().ok())
                .ok_or_else(|| {
                    ParseError::BadParameters("rating needs two whole numbers".into())
                })?;
            Rating((theirs > 0).then_some(theirs))
        }
        "computer" => Computer,
        "ics" | "egtpath" | "holding" | "partner" | "ptell" | "setscore" => Info,
        _ if looks_like_move(word) => Move(line.to_string()),
        _ => return Err(ParseError::Unknown),
    };
    Ok(cmd)
}

/// A bare move, as the protocol example recognises them: the second character is not
/// a letter (`e2e4`, `P@e4`, `@@@@`, `O-O`).
fn looks_like_move(word: &str) -> bool {
    let mut cs = word.chars();
    match (cs.next(), cs.next()) {
        (Some(a), Some(b)) => (a.is_ascii_alphabetic() || a == '@') && !b.is_ascii_alphabetic(),
        _ => false,
    }
}

/// `MPS BASE INC` with BASE in minutes or MIN:SEC and INC in (fractional) seconds.
fn parse_level(text: &str) -> Result<Level, ParseError> {
    let bad = |why: &str| ParseError::BadParameters(why.to_string());
    let parts: Vec<&str> = text.split_whitespace().collect();
    if parts.len() < 3 {
        return Err(bad("level needs moves, base time and increment"));
    }
    let moves: u32 = parts[0].parse().map_err(|_| bad("bad number of moves"))?;
    let base = match parts[1].split_once(':') {
        Some((m, s)) => {
            let m: f64 = m.parse().map_err(|_| bad("bad minutes"))?;
            let s: f64 = s.parse().map_err(|_| bad("bad seconds"))?;
            m * 60.0 + s
        }
        None => parts[1].parse::<f64>().map_err(|_| bad("bad base time"))? * 60.0,
    };
    let inc: f64 = parts[2].parse().map_err(|_| bad("bad increment"))?;
    let secs = |x: f64| -> Result<Duration, ParseError> {
        if x.is_finite() && (0.0..1e9).contains(&x.abs()) {
            Ok(Duration::from_secs_f64(x.abs()))
        } else {
            Err(bad("time out of range"))
        }
    };
    Ok(Level {
        moves,
        base: secs(base)?,
        increment: secs(inc)?,
    })
}

fn parse_seconds(text: &str) -> Option<Duration> {
    let x: f64 = text.split_whitespace().next()?.parse().ok()?;
    (x.is_finite() && (0.0..1e9).contains(&x)).then(|| Duration::from_secs_f64(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        let l = parse_level("40 5 0").unwrap();
        assert_eq!(
            (l.moves, l.base, l.increment),
            (40, Duration::from_secs(300), Duration::ZERO)
        );
        let l = parse_level("0 2:30 1.5").unwrap();
        assert_eq!(
            (l.base, l.increment),
            (Duration::from_secs(150), Duration::from_millis(1500))
        );
        assert_eq!(
            parse_level("0 x 1"),
            Err(ParseError::BadParameters("bad base time".into()))
        );
        assert_eq!(
            parse_level("0 1"),
            Err(ParseError::BadParameters(
                "level needs moves, base time and increment".into()
            ))
        );
    }

    #[test]
    fn moves_and_errors() {
        assert_eq!(parse("e2e4"), Ok(Command::Move("e2e4".into())));
        assert_eq!(parse("usermove P@e4"), Ok(Command::Move("P@e4".into())));
        assert_eq!(parse("@@@@"), Ok(Command::Move("@@@@".into())));
        assert_eq!(parse("foozle 42"), Err(ParseError::Unknown));
        assert!(matches!(parse("sd x"), Err(ParseError::BadParameters(_))));
        assert!(matches!(
            parse("level 1"),
            Err(ParseError::BadParameters(_))
        ));
        assert_eq!(
            parse("option Hash=64"),
            Ok(Command::Option("Hash".into(), Some("64".into())))
        );
        assert_eq!(
            parse("option Clear Hash"),
            Ok(Command::Option("Clear Hash".into(), None))
        );
        assert_eq!(parse("exclude all"), Ok(Command::Exclude(None)));
    }
}
