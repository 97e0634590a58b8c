//! A position and what its pieces may do: the compiled variant ([`Ruleset`]: move
//! tables, private to this module, and derived facts), the walker over a piece's
//! targets that every layer above uses ([`Ruleset::walk`], [`Ruleset::steps`],
//! [`Ruleset::probes`]), attack and check tests, pseudo-legal move generation, the
//! legality test of one move ([`Ruleset::is_legal`]), the [`Position`] with
//! make/unmake, its validated construction from a [`Setup`], FEN and Zobrist keys.
//! Making a move needs the check test and the move tables, so they live here; the
//! legality test lives here too because the game-end rules above (racing kings'
//! last chance to reach the goal) need it, and the legal move list above them
//! needs the game-end rules.

mod attacks;
mod cambodian;
mod counting;
mod drops;
mod enclosing;
mod extinction;
pub mod fen;
mod generate;
mod legal;
mod palace;
mod position;
mod ruleset;
mod see;
mod setup;
mod shuffle;
mod sittuyin;
mod tables;
mod walk;
mod walls;
pub mod zobrist;

pub use legal::NodeInfo;
pub use position::{PROMOTED_UNKNOWN, Position, StateInfo};
pub use ruleset::Ruleset;
pub use setup::{Setup, SetupError};
pub use shuffle::shuffled_start_fen;
pub use walk::{
    MultiLeg, Occupancy, ProbeKind, ProbeView, StepKind, StepMode, StepView, Target, Visit,
};

use crate::variant::{Refusal, Variant};

/// The test a variant must pass to load (the variant set runs it on every section
/// it reads): its pieces' moves within the move generator's walk budget, checked
/// before any table is built, then a start position that `--fen` would accept.
pub fn check_variant(variant: &std::sync::Arc<Variant>) -> Result<(), Refusal> {
    tables::check_walk_budget(variant).map_err(|over| Refusal::PieceMoves {
        piece: over.piece,
        reason: over.to_string(),
    })?;
    // The built-in variants' start positions are known to be legal (a test sets
    // each up through the FEN checks): setting up every variant's rules to check
    // them again would cost each run of the engine about half a second.
    if variant.source.starts_with(crate::variant::BUILTIN_SOURCE) {
        return fen::parse(variant, &variant.start_fen)
            .map(|_| ())
            .map_err(|e| Refusal::StartPosition(e.to_string()));
    }
    // (The variant layer below keeps the reason as text: it cannot name this
    // layer's error type.)
    fen::check_start_position(variant).map_err(|e| Refusal::StartPosition(e.to_string()))
}

/// The rules of the built-in variant `name` (or one of its other names).
pub fn find_builtin_rules(
    name: &str,
) -> Result<std::sync::Arc<Ruleset>, crate::variant::UnknownVariant> {
    let set = crate::variant::VariantSet::builtin(check_variant);
    set.find(name).map(Ruleset::new)
}

/// The rules of a built-in variant, for tests.
#[cfg(test)]
pub(crate) fn builtin_rules(name: &str) -> std::sync::Arc<Ruleset> {
    find_builtin_rules(name).expect("built-in variant")
}
