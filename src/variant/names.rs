//! The names a variant is selected by (the command line, UCI `UCI_Variant`, CECP
//! `variant`) besides its section name, and the names of games Menagerie knows but
//! refuses to play, each with the rule it lacks. Every way of selecting a variant
//! goes through [`VariantSet::find`](super::VariantSet::find), so these tables are
//! the one place such names live.

use std::fmt;

/// Other names of our variants: (alias, variant). Fairy-Stockfish lists orthodox
/// chess under both names and XBoard calls it `normal`.
pub const ALIASES: &[(&str, &str)] = &[("normal", "chess")];

/// Why a two-board game is refused (by name, or by the `twoBoards` key).
pub(crate) const TWO_BOARDS: &str = "two-board games are not supported: the pieces a player \
     drops come from the partner's board, which a one-board engine does not have";

/// Games of Fairy-Stockfish's built-in list that Menagerie refuses: (name, the rule
/// that is missing).
pub const REFUSED: &[(&str, &str)] = &[
    ("bughouse", TWO_BOARDS),
    // Bughouse with commoners for kings (Fairy-Stockfish's koedem inherits bughouse).
    ("koedem", TWO_BOARDS),
    // Xiangqi with drops of the pieces the partner captured.
    ("supply", TWO_BOARDS),
];

/// The variant an alias stands for, or the name itself.
pub fn canonical_name(name: &str) -> &str {
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == name)
        .map_or(name, |&(_, ours)| ours)
}

/// Why a variant of that name cannot be selected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownVariant {
    /// No loaded variant has that name.
    NotLoaded(String),
    /// A game Menagerie knows and refuses: its name and the rule it lacks.
    Refused { name: String, rule: &'static str },
}

impl UnknownVariant {
    /// Not loaded, or refused when the name is one of [`REFUSED`].
    pub fn of(name: &str) -> UnknownVariant {
        match REFUSED.iter().find(|(n, _)| *n == name) {
            Some(&(_, rule)) => UnknownVariant::Refused {
                name: name.to_string(),
                rule,
            },
            None => UnknownVariant::NotLoaded(name.to_string()),
        }
    }
}

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnknownVariant::NotLoaded(name) => write!(f, "no variant called '{name}' is loaded"),
            UnknownVariant::Refused { name, rule } => write!(f, "{name}: {rule}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_resolve_and_other_names_stay() {
        assert_eq!(canonical_name("normal"), "chess");
        assert_eq!(canonical_name("chess"), "chess");
        assert_eq!(canonical_name("shogi"), "shogi");
    }

    #[test]
    fn two_board_games_name_the_rule() {
        let e = UnknownVariant::of("bughouse").to_string();
        assert!(
            e.starts_with("bughouse: two-board games are not supported"),
            "{e}"
        );
        assert_eq!(
            UnknownVariant::of("nosuch").to_string(),
            "no variant called 'nosuch' is loaded"
        );
    }
}
