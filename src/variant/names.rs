//! The names a variant is selected by (the command line, UCI `UCI_Variant`, CECP
//! `variant`) besides its section name. Every way of selecting a variant
//! goes through [`VariantSet::find`](super::VariantSet::find), so these tables are
//! the one place such names live.

use std::fmt;

/// Other names of our variants: (alias, variant). Fairy-Stockfish lists orthodox
/// chess under both names and XBoard calls it `normal`.
pub const ALIASES: &[(&str, &str)] = &[("normal", "chess")];

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
}

impl UnknownVariant {
    pub fn of(name: &str) -> UnknownVariant {
        UnknownVariant::NotLoaded(name.to_string())
    }
}

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnknownVariant::NotLoaded(name) => write!(f, "no variant called '{name}' is loaded"),
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
}
