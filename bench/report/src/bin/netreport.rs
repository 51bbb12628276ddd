//! `netreport --results DIR [--check]`: reads `DIR/results.json` (the network benchmark,
//! `bench/net/README.md`) and `DIR/notes.md` if present, writes `DIR/summary.md` and
//! `DIR/report.html`.

use bitwire_report::goals::Status;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: netreport --results DIR [--check]\n\
  reads DIR/results.json (bitwire-netbench/1, bench/net/README.md) and DIR/notes.md if it\n\
  exists (the lead's profile notes, included as written), writes DIR/summary.md and\n\
  DIR/report.html.\n\
  --check: exit 1 (after writing) if a cell failed, a cell of the matrix is missing or a\n\
  server reported an error (its served check)";

fn main() -> ExitCode {
    let mut results = None;
    let mut check = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--results" => results = args.next().map(PathBuf::from),
            "--check" => check = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("netreport: unknown argument {other:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(dir) = results else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let w = match bitwire_report::net::write_report(&dir) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("netreport: {e}");
            return ExitCode::FAILURE;
        }
    };
    let r = &w.results;
    let (failed, missing) = (r.failed().len(), r.missing().len());
    let met = w.goals.iter().filter(|g| g.status == Status::Met).count();
    println!(
        "{}: {} cells of {} servers ({failed} failed, {missing} missing); goals met {met}/{}; wrote summary.md, report.html",
        dir.display(),
        r.cells.len(),
        r.servers.len(),
        w.goals.len()
    );
    for c in r.failed() {
        eprintln!(
            "netreport: failed: {} {}: {}",
            c.server,
            r.key(c),
            c.error_text()
        );
    }
    let servers = r.servers.iter().filter(|s| s.error.is_some()).count();
    for s in r.servers.iter().filter(|s| s.error.is_some()) {
        eprintln!(
            "netreport: server {}: {}",
            s.id,
            s.error.as_deref().unwrap_or_default()
        );
    }
    if check && (failed > 0 || missing > 0 || servers > 0) {
        eprintln!(
            "netreport: --check: {failed} failed and {missing} missing cells, {servers} servers with errors"
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
