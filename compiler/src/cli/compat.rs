//! `bitwire compat OLD.bw NEW.bw`: every wire-relevant change between two versions
//! of a schema, classified by the evolution rules of spec §9.
//!
//! Exit codes: 0 when no change is breaking, 1 when one is, 2 when a schema does not
//! compile.

use super::term;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::compat;

/// Arguments of `bitwire compat`.
#[derive(Debug, clap::Args)]
pub struct CompatArgs {
    /// The old version of the schema.
    pub old: PathBuf,
    /// The new version of the schema.
    pub new: PathBuf,
}

/// Prints the report to standard output and exits 1 if any change is breaking.
pub fn run(args: &CompatArgs) -> ExitCode {
    match compat::compare_files(&args.old, &args.new) {
        Ok(report) => {
            term::print_report(&report.render());
            if report.is_breaking() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(diags) => {
            term::eprint_report(&diags.render());
            ExitCode::from(2)
        }
    }
}
