//! `bitwire-report --results DIR [--notes FILE] [--size-reference FILE]`: merges
//! `DIR/raw/*.json` with `DIR/machine.json` and writes `DIR/results.json`, `DIR/summary.md`
//! and `DIR/report.html`. The raw-size goal compares bitwire's sizes with those of
//! `--size-reference` (default: the committed run `bench/results/2026-11-27/results.json`).

use std::path::PathBuf;

use bitwire_report::size_reference::{self, SizeReference};
use std::process::ExitCode;

const USAGE: &str = "usage: bitwire-report --results DIR [--notes FILE] [--size-reference FILE]\n\
  reads DIR/raw/*.json (result format 1, bench/README.md) and DIR/machine.json,\n\
  writes DIR/results.json, DIR/summary.md and DIR/report.html.\n\
  --notes: the goals' explanations (default bench/report/goals-notes.md)\n\
  --size-reference: the results.json whose bitwire raw sizes this run must not exceed\n\
  (default bench/results/2026-11-27/results.json)";

fn main() -> ExitCode {
    let mut results = None;
    let mut notes = None;
    let mut reference = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--results" => results = args.next().map(PathBuf::from),
            "--notes" => notes = args.next().map(PathBuf::from),
            "--size-reference" => reference = args.next().map(PathBuf::from),
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("bitwire-report: unknown argument {other:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(dir) = results else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let required = notes.is_some();
    let notes =
        notes.unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("goals-notes.md"));
    let reference = match reference {
        Some(path) => {
            let label = path.display().to_string();
            SizeReference::read(&path, &label)
        }
        None => SizeReference::read(&size_reference::default_path(), size_reference::DEFAULT_RUN),
    };
    match bitwire_report::write_report_with(&dir, &notes, required, reference) {
        Ok(w) => {
            let met = w
                .goals
                .iter()
                .filter(|g| g.status == bitwire_report::goals::Status::Met)
                .count();
            println!(
                "{}: {} records, {} scaling points from {} files; goals met {met}/{}; wrote results.json, summary.md, report.html",
                dir.display(),
                w.results.rows.len(),
                w.results.scaling.len(),
                w.results.files.len(),
                w.goals.len()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("bitwire-report: {e}");
            ExitCode::FAILURE
        }
    }
}
