//! `menagerie rescore`: a data file's positions scored again by a teacher engine.
//! The arguments, the file (created, or continued after its last whole block),
//! its header and the progress bar are here; the scoring is
//! [`crate::train::rescore`].

use super::{Outcome, fail, open_to_continue, progress_bar};
use crate::train::rescore::{
    self, BLOCK_LINES, BlockScores, FIT_POSITIONS, HEADER_START, block_range, engine_cp,
    fen_and_score, fit_scale, with_score,
};
use crate::train::teacher::{Teacher, TeacherError, TeacherSpec};
use clap::Args;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::time::Instant;

const FORMAT_HELP: &str = "\
The output has the input's lines one for one (comments and game markers as they are),
each position's SCORE replaced by the teacher's, after a first line naming the teacher,
its nodes and the factor that turns its centipawns into the engine's: the least-squares
slope of the input's scores on the teacher's over the first 2048 positions (pairs within
+-1000). A mate is +-2000. Run the same command again to continue a stopped run. See
docs/nnue.md, \"Teacher labels\".";

#[derive(Args)]
#[command(after_help = FORMAT_HELP)]
pub struct RescoreArgs {
    /// The variant of the positions (sent to the teacher as UCI_Variant where it
    /// has that option; a teacher without it takes chess only).
    #[arg(long)]
    variant: String,
    /// The data file (what `menagerie selfplay` writes).
    #[arg(long)]
    data: PathBuf,
    /// The file written, created or continued.
    #[arg(long)]
    out: PathBuf,
    /// The teacher: a UCI engine's executable.
    #[arg(long)]
    teacher: PathBuf,
    /// A teacher option, NAME=VALUE (sent as `setoption`; repeatable).
    #[arg(long = "option", value_parser = parse_option)]
    options: Vec<(String, String)>,
    /// Nodes the teacher searches a position.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Teacher processes at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
}

fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("{text:?} is not NAME=VALUE")),
    }
}

/// Errors of the scoring, as the driver reports them.
struct Problem(String);

impl From<TeacherError> for Problem {
    fn from(e: TeacherError) -> Problem {
        Problem(e.to_string())
    }
}

impl From<String> for Problem {
    fn from(s: String) -> Problem {
        Problem(s)
    }
}

pub fn run(args: RescoreArgs) -> Outcome {
    let data_path = args.data.display().to_string();
    let input = std::fs::read_to_string(&args.data)
        .map_err(|e| fail(format!("cannot read {data_path}: {e}")))?;
    let lines: Vec<&str> = input.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if let Some(Err(why)) = fen_and_score(line) {
            return Err(fail(format!("{data_path}:{}: {why}", i + 1)));
        }
    }
    let spec = TeacherSpec {
        command: args.teacher.clone(),
        options: args.options.clone(),
        variant: args.variant.clone(),
        nodes: args.nodes,
    };
    // Start one teacher first: a wrong command or variant fails here, once.
    let name = Teacher::start(&spec).map_err(fail)?.name.clone();
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let header_start = format!(
        "{HEADER_START} variant {} teacher {} nodes {} data {data_path}",
        args.variant,
        args.teacher.display(),
        args.nodes
    );

    let out_path = args.out.display().to_string();
    let (mut file, text) = open_to_continue(&args.out)?;
    let blocks = lines.len().div_ceil(BLOCK_LINES);
    let resumed = resume_point(&text, &header_start, &lines)
        .map_err(|why| fail(format!("{out_path}: {why}")))?;
    let io = |e: std::io::Error| fail(format!("cannot write {out_path}: {e}"));
    file.set_len(resumed.keep_bytes as u64).map_err(io)?;
    file.seek(SeekFrom::End(0)).map_err(io)?;
    let mut writer = BufWriter::new(file);
    let started = Instant::now();
    let positions_in = |r: std::ops::Range<usize>| {
        lines[r]
            .iter()
            .filter(|l| fen_and_score(l).is_some())
            .count() as u64
    };
    let progress = progress_bar(
        positions_in(0..lines.len()),
        positions_in(0..(resumed.blocks * BLOCK_LINES).min(lines.len())),
        "positions",
    );

    // The factor is written in full (Rust's shortest form that reads back the
    // same number), so that a resumed run writes what an uninterrupted one does.
    let mut first = resumed.blocks;
    let scale = match resumed.scale {
        Some(scale) => scale,
        None => {
            // A new file: score the blocks of the first positions, fit the factor,
            // write the header and those blocks.
            let fit_blocks = fit_block_count(&lines).min(blocks);
            let mut fitted: Vec<BlockScores> = Vec::new();
            rescore::score_blocks(&spec, &lines, 0..fit_blocks, threads, |_, scores| {
                progress.inc(scores.iter().flatten().count() as u64);
                fitted.push(scores);
                Ok::<(), Problem>(())
            })
            .map_err(|Problem(p)| fail(p))?;
            let pairs: Vec<(i32, _)> = fitted
                .iter()
                .enumerate()
                .flat_map(|(b, scores)| {
                    lines[block_range(b, lines.len())]
                        .iter()
                        .zip(scores)
                        .filter_map(|(line, s)| Some((fen_and_score(line)?.ok()?.1, (*s)?)))
                })
                .collect();
            let scale = fit_scale(&pairs).ok_or_else(|| {
                fail(format!(
                    "cannot fit the teacher's unit on {data_path}'s first positions: fewer than 10 \
                     pairs within +-1000 cp, or the teacher's scores do not grow with the file's"
                ))
            })?;
            writeln!(
                writer,
                "{header_start} scale {scale} fitted-on {} teacher-name {name}",
                pairs.len()
            )
            .map_err(io)?;
            for (b, scores) in fitted.iter().enumerate() {
                write_block(&mut writer, &lines, b, scores, scale).map_err(io)?;
            }
            writer.flush().map_err(io)?;
            first = fit_blocks;
            scale
        }
    };
    let written = rescore::score_blocks(&spec, &lines, first..blocks, threads, |b, scores| {
        write_block(&mut writer, &lines, b, &scores, scale)
            .and_then(|()| writer.flush())
            .map_err(|e| Problem(format!("cannot write {out_path}: {e}")))?;
        progress.inc(scores.iter().flatten().count() as u64);
        let secs = started.elapsed().as_secs_f64().max(1e-3);
        progress.set_message(format!(
            "{:.0} positions/s",
            progress.position() as f64 / secs
        ));
        Ok::<(), Problem>(())
    });
    progress.finish_and_clear();
    written.map_err(|Problem(p)| fail(p))?;
    let secs = started.elapsed().as_secs_f64().max(1e-3);
    err!(
        "{out_path}: {} positions scored by {name} at {} nodes in {secs:.1} s; factor {scale:.4}",
        positions_in((resumed.blocks * BLOCK_LINES).min(lines.len())..lines.len()),
        args.nodes
    );
    Ok(())
}

/// The blocks that hold the first [`FIT_POSITIONS`] positions.
fn fit_block_count(lines: &[&str]) -> usize {
    let mut seen = 0;
    for (i, line) in lines.iter().enumerate() {
        if fen_and_score(line).is_some() {
            seen += 1;
            if seen == FIT_POSITIONS {
                return i / BLOCK_LINES + 1;
            }
        }
    }
    lines.len().div_ceil(BLOCK_LINES)
}

fn write_block(
    w: &mut impl Write,
    lines: &[&str],
    b: usize,
    scores: &BlockScores,
    scale: f64,
) -> std::io::Result<()> {
    for (line, score) in lines[block_range(b, lines.len())].iter().zip(scores) {
        match score {
            Some(s) => writeln!(w, "{}", with_score(line, engine_cp(*s, scale)))?,
            None => writeln!(w, "{}", line.trim_end())?,
        }
    }
    Ok(())
}

/// Where an existing output goes on.
struct Resumed {
    /// Bytes kept: the header and the whole blocks.
    keep_bytes: usize,
    blocks: usize,
    /// The header's factor; `None` for a new (or empty) file.
    scale: Option<f64>,
}

fn resume_point(text: &str, header_start: &str, input: &[&str]) -> Result<Resumed, String> {
    let fresh = Resumed {
        keep_bytes: 0,
        blocks: 0,
        scale: None,
    };
    let Some((header, body)) = text.split_once('\n') else {
        return Ok(fresh);
    };
    let scale = header
        .strip_prefix(header_start)
        .and_then(|rest| rest.strip_prefix(" scale "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|s| s.parse::<f64>().ok())
        .ok_or_else(|| {
            format!("its first line is not this command's header ({header_start} ...): remove the file or choose another")
        })?;
    // Whole lines only, then whole blocks only, each line the input's.
    let complete = &body[..body.rfind('\n').map_or(0, |i| i + 1)];
    let written: Vec<&str> = complete.lines().collect();
    let blocks = (written.len() / BLOCK_LINES).min(input.len().div_ceil(BLOCK_LINES));
    let lines = (blocks * BLOCK_LINES).min(input.len());
    for (i, (out, inp)) in written[..lines].iter().zip(input).enumerate() {
        let same = match (fen_and_score(out), fen_and_score(inp)) {
            (Some(Ok((a, _))), Some(Ok((b, _)))) => a == b,
            (None, None) => out.trim_end() == inp.trim_end(),
            _ => false,
        };
        if !same {
            return Err(format!(
                "line {} is not the data's line {}: it was made from other data",
                i + 2,
                i + 1
            ));
        }
    }
    let keep_bytes = header.len() + 1 + written[..lines].iter().map(|l| l.len() + 1).sum::<usize>();
    Ok(Resumed {
        keep_bytes,
        blocks,
        scale: Some(scale),
    })
}
