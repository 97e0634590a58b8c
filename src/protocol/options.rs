//! The engine's options, written once: [`OPTIONS`] describes each (its names, its
//! kind with default and limits, its effect); a value set from either protocol is
//! checked by [`EngineOption::parse`] and applied by [`apply`]. Each protocol renders
//! the table in its own words (UCI's `option name ...` lines in uci.rs, CECP's
//! `feature option="..."` lines in cecp/) and words the outcome; nothing here knows
//! a protocol's syntax.

use super::controller::{ControlError, Controller};
use super::opponent::{Opponent, OpponentError};
use crate::search::skill::{self, Skill};
use crate::variant::LoadReport;
use std::path::Path;

/// An option's type, with its default and limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    /// A file to read (UCI: a string, `<empty>` for none; CECP: `-file`).
    File,
    /// One of the loaded variants (UCI: a combo box of them).
    Variant,
    /// Free text (UCI: a string, `<empty>` for none).
    Text,
    /// The engine's description, for the GUI to show (UCI: a string whose default is
    /// the text; setting it changes nothing).
    About,
}

/// What setting an option does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Transposition table size in MB.
    HashMb,
    Threads,
    /// Principal variations to report ([`Settings::multi_pv`]).
    MultiPv,
    /// Play book moves when there are some ([`Settings::book`]).
    Book,
    ClearHash,
    SelectVariant,
    LoadVariantFile,
    /// [`Settings::skill_level`].
    SkillLevel,
    /// [`Settings::limit_strength`].
    LimitStrength,
    /// [`Settings::elo`].
    Elo,
    /// [`Settings::analyse_mode`].
    AnalyseMode,
    /// [`Settings::show_curr_line`].
    ShowCurrLine,
    /// [`Settings::show_refutations`].
    ShowRefutations,
    /// [`Settings::opponent`].
    Opponent,
    /// UCI_Chess960: every variant played as a chess960 variant.
    Chess960,
    /// [`Settings::resign`].
    Resign,
    /// EvalFile: the net file of the current variant.
    EvalFile,
    /// Use NNUE: the net replaces the hand-crafted evaluation.
    UseNnue,
    /// Accepted and not used: UCI asks for pondering per search (`go ponder`).
    Nothing,
}

/// One option: its names in each protocol (None: that protocol sets it another way,
/// e.g. CECP's `memory`, `cores`, `hard`/`easy` and `variant` commands), its kind
/// and what setting it does.
#[derive(Clone, Copy, Debug)]
pub struct EngineOption {
    pub uci: Option<&'static str>,
    pub cecp: Option<&'static str>,
    pub kind: Kind,
    pub effect: Effect,
}

/// 16 MB: enough for the fast games GUIs run, small enough for any machine.
pub const HASH: EngineOption = EngineOption {
    uci: Some("Hash"),
    cecp: None,
    kind: Kind::Spin {
        default: 16,
        min: 1,
        max: 65536,
    },
    effect: Effect::HashMb,
};

pub const THREADS: EngineOption = EngineOption {
    uci: Some("Threads"),
    cecp: None,
    kind: Kind::Spin {
        default: 1,
        min: 1,
        max: 512,
    },
    effect: Effect::Threads,
};

pub const MULTI_PV: EngineOption = EngineOption {
    uci: Some("MultiPV"),
    cecp: Some("MultiPV"),
    kind: Kind::Spin {
        default: 1,
        min: 1,
        max: 64,
    },
    effect: Effect::MultiPv,
};

pub const PONDER: EngineOption = EngineOption {
    uci: Some("Ponder"),
    cecp: None,
    kind: Kind::Check { default: false },
    effect: Effect::Nothing,
};

/// Off by default: GUIs and tournaments usually bring their own books.
pub const BOOK: EngineOption = EngineOption {
    uci: Some("OwnBook"),
    cecp: Some("Book"),
    kind: Kind::Check { default: false },
    effect: Effect::Book,
};

pub const CLEAR_HASH: EngineOption = EngineOption {
    uci: Some("Clear Hash"),
    cecp: Some("Clear Hash"),
    kind: Kind::Button,
    effect: Effect::ClearHash,
};

pub const VARIANT: EngineOption = EngineOption {
    uci: Some("UCI_Variant"),
    cecp: None,
    kind: Kind::Variant,
    effect: Effect::SelectVariant,
};

pub const VARIANT_PATH: EngineOption = EngineOption {
    uci: Some("VariantPath"),
    cecp: Some("VariantPath"),
    kind: Kind::File,
    effect: Effect::LoadVariantFile,
};

pub const CHESS960: EngineOption = EngineOption {
    uci: Some("UCI_Chess960"),
    cecp: None,
    kind: Kind::Check { default: false },
    effect: Effect::Chess960,
};

/// Full strength at the top level; lower levels play weaker (search/skill.rs).
pub const SKILL_LEVEL: EngineOption = EngineOption {
    uci: Some("Skill Level"),
    cecp: Some("Skill Level"),
    kind: Kind::Spin {
        default: skill::MAX_LEVEL as i64,
        min: skill::MIN_LEVEL as i64,
        max: skill::MAX_LEVEL as i64,
    },
    effect: Effect::SkillLevel,
};

/// Play at the strength `UCI_Elo` names (instead of the skill level).
pub const LIMIT_STRENGTH: EngineOption = EngineOption {
    uci: Some("UCI_LimitStrength"),
    cecp: Some("Limit Strength"),
    kind: Kind::Check { default: false },
    effect: Effect::LimitStrength,
};

/// The Elo to play at when the strength is limited; the range is that of the levels'
/// nominal Elo, the default a club player's.
pub const ELO: EngineOption = EngineOption {
    uci: Some("UCI_Elo"),
    cecp: Some("Elo"),
    kind: Kind::Spin {
        default: skill::DEFAULT_ELO as i64,
        min: skill::MIN_ELO as i64,
        max: skill::MAX_ELO as i64,
    },
    effect: Effect::Elo,
};

/// CECP analyses with its `analyze` command.
pub const ANALYSE_MODE: EngineOption = EngineOption {
    uci: Some("UCI_AnalyseMode"),
    cecp: None,
    kind: Kind::Check { default: false },
    effect: Effect::AnalyseMode,
};

/// `info currline` (CECP has nothing like it).
pub const SHOW_CURR_LINE: EngineOption = EngineOption {
    uci: Some("UCI_ShowCurrLine"),
    cecp: None,
    kind: Kind::Check { default: false },
    effect: Effect::ShowCurrLine,
};

/// `info refutation` (CECP has nothing like it).
pub const SHOW_REFUTATIONS: EngineOption = EngineOption {
    uci: Some("UCI_ShowRefutations"),
    cecp: None,
    kind: Kind::Check { default: false },
    effect: Effect::ShowRefutations,
};

/// Resign a lost game, in centipawns (0: never): see [`Settings::resign`]. CECP only:
/// UCI has no resignation (its GUIs adjudicate).
pub const RESIGN: EngineOption = EngineOption {
    uci: None,
    cecp: Some("Resign"),
    kind: Kind::Spin {
        default: 0,
        min: 0,
        max: 100_000,
    },
    effect: Effect::Resign,
};

/// A net file (docs/nnue.md) for the current variant, as Fairy-Stockfish names it
/// (empty: none).
pub const EVAL_FILE: EngineOption = EngineOption {
    uci: Some("EvalFile"),
    cecp: Some("EvalFile"),
    kind: Kind::File,
    effect: Effect::EvalFile,
};

/// The net, where one is set, evaluates instead of the hand-crafted evaluation.
pub const USE_NNUE: EngineOption = EngineOption {
    uci: Some("Use NNUE"),
    cecp: Some("Use NNUE"),
    kind: Kind::Check { default: true },
    effect: Effect::UseNnue,
};

/// Who the engine plays (CECP: the `name`, `rating` and `computer` commands).
pub const OPPONENT: EngineOption = EngineOption {
    uci: Some("UCI_Opponent"),
    cecp: None,
    kind: Kind::Text,
    effect: Effect::Opponent,
};

/// The UCI specification lists it last.
pub const ENGINE_ABOUT: EngineOption = EngineOption {
    uci: Some("UCI_EngineAbout"),
    cecp: None,
    kind: Kind::About,
    effect: Effect::Nothing,
};

/// Every option, in the order the GUIs are told about them.
pub static OPTIONS: [EngineOption; 20] = [
    HASH,
    THREADS,
    MULTI_PV,
    PONDER,
    BOOK,
    CLEAR_HASH,
    VARIANT,
    VARIANT_PATH,
    CHESS960,
    SKILL_LEVEL,
    LIMIT_STRENGTH,
    ELO,
    ANALYSE_MODE,
    SHOW_CURR_LINE,
    SHOW_REFUTATIONS,
    RESIGN,
    EVAL_FILE,
    USE_NNUE,
    OPPONENT,
    ENGINE_ABOUT,
];

/// The option a protocol calls `name` (names are not case sensitive); `name_of`
/// gives an option's name in that protocol (`|o| o.uci` or `|o| o.cecp`).
pub fn find(
    name: &str,
    name_of: impl Fn(&EngineOption) -> Option<&'static str>,
) -> Option<&'static EngineOption> {
    OPTIONS
        .iter()
        .find(|o| name_of(o).is_some_and(|n| n.eq_ignore_ascii_case(name)))
}

/// A checked value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Number(i64),
    Flag(bool),
    Text(String),
    /// A button was pressed.
    Press,
}

/// Searches in a row that must find the game lost before the engine resigns: one
/// could be a horizon effect.
pub const RESIGN_AFTER: u32 = 3;

/// The settings that options change and the sessions read when they start a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub multi_pv: usize,
    pub book: bool,
    /// `Skill Level`: skill::MAX_LEVEL is full strength.
    pub skill_level: i32,
    /// Play at [`Settings::elo`] (this comes before the skill level).
    pub limit_strength: bool,
    pub elo: i32,
    /// The GUI analyses rather than plays (UCI_AnalyseMode): full strength.
    pub analyse_mode: bool,
    pub show_curr_line: bool,
    pub show_refutations: bool,
    /// Resign when the engine's own last [`RESIGN_AFTER`] searches all found it this
    /// many centipawns or more behind, or mated (0: never).
    pub resign: i32,
    /// Who the engine plays, as far as the GUI said. Not used to play differently yet:
    /// contempt against weaker or stronger opponents stays 0 until measured.
    pub opponent: Opponent,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            multi_pv: MULTI_PV.spin_default() as usize,
            book: BOOK.check_default(),
            skill_level: SKILL_LEVEL.spin_default() as i32,
            limit_strength: LIMIT_STRENGTH.check_default(),
            elo: ELO.spin_default() as i32,
            analyse_mode: ANALYSE_MODE.check_default(),
            show_curr_line: SHOW_CURR_LINE.check_default(),
            show_refutations: SHOW_REFUTATIONS.check_default(),
            resign: RESIGN.spin_default() as i32,
            opponent: Opponent::default(),
        }
    }
}

impl Settings {
    /// The strength limit for the engine's own moves (None: full strength). Analysis
    /// is always at full strength.
    pub fn skill(&self) -> Option<Skill> {
        if self.analyse_mode {
            None
        } else if self.limit_strength {
            Some(Skill::from_elo(self.elo))
        } else {
            Skill::from_level(self.skill_level)
        }
    }
}

/// What applying an option did, for the protocol to report.
pub enum Applied {
    Done,
    /// Done, not quite as asked: the protocol tells the user this.
    Adjusted(String),
    /// A variant file was read: the variants it defined, its errors and notes.
    VariantFile(LoadReport),
}

/// Why an option was not set. The texts name the option as the GUI wrote it.
#[derive(Debug, thiserror::Error)]
pub enum OptionError {
    #[error("{name} must be {min} to {max}")]
    OutOfRange { name: String, min: i64, max: i64 },
    #[error("{name} must be true or false")]
    NotAFlag { name: String },
    #[error(transparent)]
    Opponent(#[from] OpponentError),
    /// The controller could not do it (an unknown variant, too large a table...).
    #[error(transparent)]
    Control(#[from] ControlError),
}

impl EngineOption {
    fn spin_default(&self) -> i64 {
        match self.kind {
            Kind::Spin { default, .. } => default,
            _ => 0,
        }
    }

    fn check_default(&self) -> bool {
        matches!(self.kind, Kind::Check { default: true })
    }

    /// A number brought within the limits of a spin option (CECP's `memory` and
    /// `cores` commands are obeyed as far as they can be).
    pub fn clamp(&self, n: usize) -> usize {
        match self.kind {
            Kind::Spin { min, max, .. } => {
                i64::try_from(n).unwrap_or(i64::MAX).clamp(min, max).max(0) as usize
            }
            _ => n,
        }
    }

    /// Check a value as a GUI sent it (`name` as the GUI wrote it, for messages).
    pub fn parse(&self, name: &str, value: Option<&str>) -> Result<Value, OptionError> {
        let text = value.map(str::trim).unwrap_or("");
        match self.kind {
            Kind::Spin { min, max, .. } => text
                .parse::<i64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .map(Value::Number)
                .ok_or_else(|| OptionError::OutOfRange {
                    name: name.to_string(),
                    min,
                    max,
                }),
            Kind::Check { .. } => match text.to_ascii_lowercase().as_str() {
                "true" | "1" => Ok(Value::Flag(true)),
                "false" | "0" => Ok(Value::Flag(false)),
                _ => Err(OptionError::NotAFlag {
                    name: name.to_string(),
                }),
            },
            Kind::Button => Ok(Value::Press),
            // UCI GUIs send `<empty>` for an empty string.
            Kind::File | Kind::Variant | Kind::Text | Kind::About if text == "<empty>" => {
                Ok(Value::Text(String::new()))
            }
            Kind::File | Kind::Variant | Kind::Text | Kind::About => {
                Ok(Value::Text(text.to_string()))
            }
        }
    }
}

/// Set the options that have a default in the engine (the table size and the
/// threads), at the start of a session.
pub fn apply_defaults(ctl: &mut Controller) {
    // The defaults are small: should even they fail, the engine plays with what the
    // searcher started with.
    let _ = ctl.set_hash_mb(HASH.spin_default() as usize);
    let _ = ctl.set_threads(THREADS.spin_default() as usize);
}

/// Set the search threads; fewer than asked (the machine's limit) is reported.
pub fn apply_threads(ctl: &mut Controller, n: usize) -> Result<Applied, ControlError> {
    let got = ctl.set_threads(n)?;
    Ok(if got < n {
        Applied::Adjusted(format!(
            "{n} threads are more than this machine runs well; using {got}"
        ))
    } else {
        Applied::Done
    })
}

/// Do what setting `option` to `value` (from [`EngineOption::parse`]) does.
pub fn apply(
    option: &EngineOption,
    value: Value,
    ctl: &mut Controller,
    settings: &mut Settings,
) -> Result<Applied, OptionError> {
    match (option.effect, value) {
        // (Spin values are within their limits: positive for these three.)
        (Effect::HashMb, Value::Number(mb)) => ctl.set_hash_mb(mb as usize)?,
        (Effect::Threads, Value::Number(n)) => return Ok(apply_threads(ctl, n as usize)?),
        (Effect::MultiPv, Value::Number(n)) => settings.multi_pv = n as usize,
        (Effect::Book, Value::Flag(on)) => settings.book = on,
        (Effect::SkillLevel, Value::Number(n)) => settings.skill_level = n as i32,
        (Effect::LimitStrength, Value::Flag(on)) => settings.limit_strength = on,
        (Effect::Elo, Value::Number(n)) => settings.elo = n as i32,
        (Effect::AnalyseMode, Value::Flag(on)) => settings.analyse_mode = on,
        (Effect::ShowCurrLine, Value::Flag(on)) => settings.show_curr_line = on,
        (Effect::ShowRefutations, Value::Flag(on)) => settings.show_refutations = on,
        (Effect::Resign, Value::Number(cp)) => settings.resign = cp as i32,
        (Effect::Opponent, Value::Text(text)) => settings.opponent = Opponent::parse_uci(&text)?,
        (Effect::ClearHash, _) => ctl.clear_hash(),
        (Effect::SelectVariant, Value::Text(name)) => ctl.select_variant(&name)?,
        (Effect::Chess960, Value::Flag(on)) => ctl.set_chess960(on),
        (Effect::EvalFile, Value::Text(path)) => ctl.set_eval_file(&path)?,
        (Effect::UseNnue, Value::Flag(on)) => ctl.set_use_nnue(on),
        (Effect::LoadVariantFile, Value::Text(path)) if !path.is_empty() => {
            return Ok(Applied::VariantFile(
                ctl.load_variant_file(Path::new(&path)),
            ));
        }
        _ => {}
    }
    Ok(Applied::Done)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value that parses.
    fn parsed(option: &EngineOption, name: &str, value: &str) -> Value {
        option
            .parse(name, Some(value))
            .unwrap_or_else(|e| panic!("{name} = {value:?} refused: {e}"))
    }

    /// The error of a value that does not parse.
    fn refused(option: &EngineOption, name: &str, value: &str) -> OptionError {
        match option.parse(name, Some(value)) {
            Ok(v) => panic!("{name} = {value:?} accepted as {v:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn names_and_values() {
        assert!(std::ptr::eq(
            find("ownbook", |o| o.uci).expect("OwnBook"),
            &OPTIONS[4]
        ));
        assert!(find("Book", |o| o.cecp).is_some());
        assert!(find("Hash", |o| o.cecp).is_none(), "CECP has `memory`");
        let e = refused(&MULTI_PV, "MultiPV", "0");
        assert!(matches!(
            e,
            OptionError::OutOfRange {
                min: 1,
                max: 64,
                ..
            }
        ));
        assert_eq!(e.to_string(), "MultiPV must be 1 to 64");
        assert_eq!(parsed(&HASH, "Hash", " 32 "), Value::Number(32));
        assert_eq!(parsed(&BOOK, "Book", "1"), Value::Flag(true));
        assert_eq!(parsed(&BOOK, "OwnBook", "False"), Value::Flag(false));
        let e = refused(&BOOK, "OwnBook", "maybe");
        assert!(matches!(&e, OptionError::NotAFlag { name } if name == "OwnBook"));
        assert_eq!(e.to_string(), "OwnBook must be true or false");
        assert_eq!(
            parsed(&VARIANT_PATH, "VariantPath", "<empty>"),
            Value::Text(String::new())
        );
        assert_eq!(HASH.clamp(1 << 40), 65536);
        assert!(find("Resign", |o| o.uci).is_none(), "UCI cannot resign");
        let e = refused(&RESIGN, "Resign", "-1");
        assert!(matches!(
            e,
            OptionError::OutOfRange {
                min: 0,
                max: 100000,
                ..
            }
        ));
        assert_eq!(e.to_string(), "Resign must be 0 to 100000");
        assert_eq!(Settings::default().resign, 0, "never resigns unless asked");
    }
}
