//! `sim`: the game-server simulator's orchestrator (bench/sim/README.md; what `./run sim`
//! calls through bench/sim/run.sh). Runs every cell, writes `results.json`, `report.md`
//! and `report.html`; exits 1 if a cell failed, 2 on bad usage. `sim --report DIR`
//! rewrites the report of an earlier run from its `results.json`.

use std::path::Path;
use std::process::ExitCode;

use bitwire_sim::report;
use bitwire_sim::run::{self, options::Options, options::USAGE};

fn rewrite(dir: &Path) -> ExitCode {
    match report::read(dir).and_then(|r| report::write_report(dir, &r)) {
        Ok(w) => {
            for g in &w.goals {
                println!("{}: {}", g.id, g.status.label());
            }
            println!("sim: wrote {}/report.md and report.html", dir.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("sim: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    if args.first().map(String::as_str) == Some("--report") {
        return match args.as_slice() {
            [_, dir] => rewrite(Path::new(dir)),
            _ => {
                eprintln!("sim: --report takes one directory\n{USAGE}");
                ExitCode::from(2)
            }
        };
    }
    let options = match Options::parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("sim: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run::run(&options) {
        Ok(ok) => {
            println!(
                "sim: wrote {}/results.json, report.md and report.html",
                options.out.display()
            );
            if ok {
                ExitCode::SUCCESS
            } else {
                eprintln!("sim: some cells failed (see the errors in results.json and the report)");
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("sim: {e}");
            ExitCode::FAILURE
        }
    }
}
