//! The variant files shipped in `variants/`, compiled into the binary.

/// (file name, contents) of every built-in variant file, in load order: a file may
/// only inherit from variants of files listed before it (or of its own file).
pub const BUILTIN_FILES: &[(&str, &str)] = &[
    ("chess.ini", include_str!("../../variants/chess.ini")),
    (
        "fairy-pieces.ini",
        include_str!("../../variants/fairy-pieces.ini"),
    ),
    (
        "objectives.ini",
        include_str!("../../variants/objectives.ini"),
    ),
    (
        "antichess.ini",
        include_str!("../../variants/antichess.ini"),
    ),
    ("atomic.ini", include_str!("../../variants/atomic.ini")),
    (
        "crazyhouse.ini",
        include_str!("../../variants/crazyhouse.ini"),
    ),
    ("seirawan.ini", include_str!("../../variants/seirawan.ini")),
    ("shatranj.ini", include_str!("../../variants/shatranj.ini")),
    ("makruk.ini", include_str!("../../variants/makruk.ini")),
    (
        "minichess.ini",
        include_str!("../../variants/minichess.ini"),
    ),
    (
        "capablanca.ini",
        include_str!("../../variants/capablanca.ini"),
    ),
    ("grand.ini", include_str!("../../variants/grand.ini")),
    ("shogi.ini", include_str!("../../variants/shogi.ini")),
    ("xiangqi.ini", include_str!("../../variants/xiangqi.ini")),
    ("janggi.ini", include_str!("../../variants/janggi.ini")),
    ("games.ini", include_str!("../../variants/games.ini")),
    ("reversi.ini", include_str!("../../variants/reversi.ini")),
    ("walls.ini", include_str!("../../variants/walls.ini")),
    (
        "menagerie.ini",
        include_str!("../../variants/menagerie.ini"),
    ),
];

/// (variant name, contents) of the evaluation weights in `variants/weights/`: one
/// file per tuned variant, each with the commands that made it in its header.
pub const BUILTIN_WEIGHTS: &[(&str, &str)] = &[
    ("chess", include_str!("../../variants/weights/chess.txt")),
    (
        "crazyhouse",
        include_str!("../../variants/weights/crazyhouse.txt"),
    ),
    ("shogi", include_str!("../../variants/weights/shogi.txt")),
    (
        "xiangqi",
        include_str!("../../variants/weights/xiangqi.txt"),
    ),
];
