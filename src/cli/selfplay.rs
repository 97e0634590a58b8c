//! `menagerie selfplay`: training data from the engine's own games. The arguments,
//! the file (created, or continued after its last complete game) and the progress
//! bar are here; the games are played by [`crate::search::selfplay`].

use super::variants::load_rules;
use super::{Outcome, fail, open_to_continue, progress_bar};
use crate::nnue::Nnue;
use crate::search::max_threads;
use crate::search::selfplay::{
    self, Game, Header, Options, Players, Resume, default_random_plies, file::game_text,
};
use clap::Args;
use std::io::{Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// The file format, shown after the options in `--help`.
const FORMAT_HELP: &str = "\
The file: one kept position a line, FEN;SCORE;RESULT;BESTMOVE, the lines `menagerie tune`
reads. SCORE: the search's score for the side to move in centipawns, clamped to +-2000 (a
mate is +-2000); RESULT: the game's result for White (1, 0.5, 0); BESTMOVE: the move played
(coordinate notation, ranks from 1). Kept: positions after the random opening where the
side to move is not in check and the move played captures nothing. Lines starting with #
are comments: a header naming the arguments (and the net of --eval-file), and after each game
`# game I result R plies P positions N end rules|adjudicated|plies`.

Game I depends only on the seed, I and the arguments, not on --threads. Run the same
command again (more --games if wanted) to continue after the last complete game: the
result is the file an uninterrupted run writes. See docs/selfplay.md.";

#[derive(Args)]
#[command(after_help = FORMAT_HELP)]
pub struct SelfplayArgs {
    /// The variant to play.
    #[arg(long)]
    variant: String,
    /// Extra variant files (loaded after the built-in ones).
    #[arg(long = "variants")]
    variants: Vec<PathBuf>,
    /// Games in the file when done (a file that has some already is continued).
    #[arg(long)]
    games: u64,
    /// Nodes searched for each move (one search thread per game).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// The data file, created or continued.
    #[arg(long)]
    out: PathBuf,
    /// Seed of the random openings (game I's depends on the seed and I only).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random legal moves that start each game (default: 8 on a 64-square board,
    /// scaled with the square root of the board's area, at least 2).
    #[arg(long)]
    random_plies: Option<u32>,
    /// Games played at once, one thread each (default: every core of the machine).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    threads: Option<u64>,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..))]
    max_plies: u32,
    /// Adjudicate a win once both sides' searches give one side at least this many
    /// centipawns for 6 plies in a row (0: never).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(i32).range(0..))]
    adjudicate: i32,
    /// Play both sides with this net (docs/nnue.md) instead of the hand-crafted
    /// evaluation; the file's header names it, and a file of another evaluation
    /// is not continued.
    #[arg(long)]
    eval_file: Option<PathBuf>,
}

pub fn run(args: SelfplayArgs) -> Outcome {
    let rules = load_rules(&args.variants, &args.variant)?;
    let net = match &args.eval_file {
        None => None,
        Some(path) => Some(Arc::new(Nnue::load(path, &rules).map_err(fail)?)),
    };
    let opts = Options {
        nodes: args.nodes,
        random_plies: args
            .random_plies
            .unwrap_or_else(|| default_random_plies(rules.variant.geometry.num_squares())),
        max_plies: args.max_plies,
        adjudicate_cp: args.adjudicate,
        seed: args.seed,
        players: Players::both(net),
    };
    let header = Header::new(&rules.variant.name, &opts);
    let path = args.out.display().to_string();
    let (mut file, text) = open_to_continue(&args.out)?;
    let resume = Resume::read(&text, &header).map_err(|e| fail(format!("{path}:{e}")))?;
    // Cut a game that was being written when the last run stopped.
    let cleared = file
        .set_len(resume.keep_bytes as u64)
        .and_then(|()| file.seek(SeekFrom::End(0)))
        .and_then(|_| match resume.keep_bytes {
            0 => writeln!(file, "{}", header.0),
            _ => Ok(()),
        });
    cleared.map_err(|e| fail(format!("cannot write {path}: {e}")))?;
    if resume.games >= args.games {
        err!("{path} already has {} games", resume.games);
        return Ok(());
    }
    let threads = args
        .threads
        .map_or_else(max_threads, |t| t.min(1024) as usize);
    let progress = progress_bar(args.games, resume.games, "games");
    let started = Instant::now();
    let mut positions = 0u64;
    let mut writer = std::io::BufWriter::new(file);
    let written = selfplay::generate(
        &rules,
        &opts,
        resume.games..args.games,
        threads,
        |game: Game| {
            writer.write_all(game_text(&game).as_bytes())?;
            // Each game reaches the file whole before the next: a stop between
            // games leaves only complete games.
            writer.flush()?;
            positions += game.kept.len() as u64;
            let secs = started.elapsed().as_secs_f64().max(1e-3);
            progress.set_message(format!(
                "{positions} positions, {:.0}/s",
                positions as f64 / secs
            ));
            progress.inc(1);
            Ok::<(), std::io::Error>(())
        },
    );
    progress.finish_and_clear();
    written.map_err(|e| fail(format!("cannot write {path}: {e}")))?;
    let secs = started.elapsed().as_secs_f64().max(1e-3);
    err!(
        "{path}: {} games played, {positions} positions in {secs:.1} s ({:.0} positions/s); {} games in the file",
        args.games - resume.games,
        positions as f64 / secs,
        args.games
    );
    Ok(())
}
