//! `menagerie show`: a variant's page for designers, one self-contained HTML file
//! ([`crate::diagram::page`] draws it).

use super::variants::load_rules;
use super::{Outcome, write_file};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct ShowArgs {
    #[arg(long)]
    variant: String,
    /// Extra variant files (loaded after the built-in ones).
    #[arg(long = "variants")]
    variants: Vec<PathBuf>,
    /// The HTML file to write.
    #[arg(long)]
    html: PathBuf,
}

pub fn run(args: ShowArgs) -> Outcome {
    let rules = load_rules(&args.variants, &args.variant)?;
    write_file(&args.html, &crate::diagram::page::variant_page(&rules))
}
