//! The variant files shipped in `variants/`, compiled into the binary.

/// (file name, contents) of every built-in variant file, in load order: a file may
/// only inherit from variants of files listed before it (or of its own file).
pub const BUILTIN_FILES: &[(&str, &str)] =
    &[("chess.ini", include_str!("../../variants/chess.ini"))];
