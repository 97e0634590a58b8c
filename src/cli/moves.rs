//! `menagerie moves`: one XBetza piece's moves on a scratch board, for variant
//! designers.

use super::{Outcome, fail, write_file};
use crate::movegen::bench_piece::piece_targets;
use crate::xbetza::Dialect;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct MovesArgs {
    /// The piece's moves in XBetza, e.g. `KNADcaKmcabK`.
    betza: String,
    /// Board size, files x ranks.
    #[arg(long, default_value = "8x8")]
    board: String,
    /// The piece's square.
    #[arg(long, default_value = "d4")]
    square: String,
    /// Other pieces: `Pd5,pe6` (upper case = own, lower case = enemy, K/k kings),
    /// `@moved` (the piece has moved), `@ep=e6`.
    #[arg(long, default_value = "-")]
    occupancy: String,
    /// Read the XBetza as Fairy-Stockfish does instead of as XBoard does.
    #[arg(long)]
    fairy_stockfish: bool,
    /// Also write the move diagram as SVG to this file.
    #[arg(long)]
    svg: Option<PathBuf>,
}

/// The target squares on one line (`-` for none), and with `--svg` the diagram.
pub fn run(args: MovesArgs) -> Outcome {
    let dialect = if args.fairy_stockfish {
        Dialect::FairyStockfish
    } else {
        Dialect::XBoard
    };
    let targets = piece_targets(
        &args.board,
        &args.square,
        &args.betza,
        &args.occupancy,
        dialect,
    )
    .map_err(fail)?;
    if let Some(file) = &args.svg {
        let svg = crate::diagram::piece_svg(
            &args.board,
            &args.square,
            &args.betza,
            &args.occupancy,
            dialect,
        )
        .map_err(fail)?;
        write_file(file, &svg)?;
    }
    if targets.is_empty() {
        out!("-");
    } else {
        out!("{}", targets.join(" "));
    }
    Ok(())
}
