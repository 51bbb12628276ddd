//! `deltabench`: the delta lab's Rust program (bench/delta/README.md).
//!
//! ```text
//! deltabench scenarios [--quick] --out DIR        write DIR/{world,cubes}.jsonl, manifest.json
//! deltabench measure --scenarios DIR --out FILE [--rounds N]
//!                                                 sizes, times, codes -> FILE (raw/rust.json)
//! deltabench codes --scenarios DIR                the format measurement as a Markdown table
//! deltabench report --results DIR [--check]       DIR/raw/*.json -> DIR/summary.md, report.html
//! ```

use bitwire_delta_lab::scenario::Scenarios;
use bitwire_delta_lab::{measure, report};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage:
  deltabench scenarios [--quick] --out DIR
      generate both scenarios (600 ticks; --quick: 120) into DIR
  deltabench measure --scenarios DIR --out FILE [--rounds N]
      measure the Rust encodings of DIR's scenarios into the raw file FILE
      (N timed passes per figure, default 21, 3 for quick scenarios)
  deltabench codes --scenarios DIR
      print the delta format measurement (docs/spec.md §12) as a Markdown table
  deltabench report --results DIR [--check]
      read DIR/raw/*.json, write DIR/results.json, DIR/summary.md, DIR/report.html
      (--check: exit 1 when a raw file is missing a series the report needs)";

/// Parsed arguments: the subcommand and its `--name value` / `--flag` options.
struct Args {
    command: String,
    options: Vec<(String, Option<String>)>,
}

impl Args {
    fn parse() -> Result<Args, String> {
        let mut it = std::env::args().skip(1);
        let command = it.next().ok_or("no command")?;
        let mut options = Vec::new();
        while let Some(a) = it.next() {
            let name = a
                .strip_prefix("--")
                .ok_or_else(|| format!("unexpected argument {a:?}"))?
                .to_string();
            let value = match name.as_str() {
                "quick" | "check" | "help" => None,
                _ => Some(it.next().ok_or_else(|| format!("--{name} needs a value"))?),
            };
            options.push((name, value));
        }
        Ok(Args { command, options })
    }

    fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    fn path(&self, name: &str) -> Result<PathBuf, String> {
        self.value(name)
            .map(PathBuf::from)
            .ok_or_else(|| format!("{} needs --{name}", self.command))
    }

    fn only(&self, allowed: &[&str]) -> Result<(), String> {
        match self
            .options
            .iter()
            .find(|(n, _)| !allowed.contains(&n.as_str()))
        {
            Some((n, _)) => Err(format!("{}: unknown option --{n}", self.command)),
            None => Ok(()),
        }
    }
}

/// Prints a line to stdout; a closed pipe (`deltabench codes | head`) ends the output
/// quietly instead of panicking as `println!` does.
macro_rules! out {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

fn run(args: &Args) -> Result<ExitCode, String> {
    match args.command.as_str() {
        "scenarios" => {
            args.only(&["quick", "out"])?;
            let out = args.path("out")?;
            let s = Scenarios::generate(args.flag("quick"));
            let m = s.write(&out)?;
            for f in &m.files {
                out!(
                    "{}: {} ticks, fnv1a64 {}",
                    out.join(&f.file).display(),
                    f.ticks,
                    f.fnv1a64
                );
            }
        }
        "measure" => {
            args.only(&["scenarios", "out", "rounds"])?;
            let (s, manifest) = Scenarios::read(&args.path("scenarios")?)?;
            let rounds = match args.value("rounds") {
                Some(n) => n
                    .parse()
                    .map_err(|_| format!("--rounds {n:?}: not a number"))?,
                None if s.quick => 3,
                None => measure::ROUNDS,
            };
            let raw = measure::run(&s, &manifest, rounds)?;
            let out = args.path("out")?;
            if let Some(dir) = out.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            let text = serde_json::to_string(&raw).map_err(|e| e.to_string())? + "\n";
            std::fs::write(&out, text).map_err(|e| format!("{}: {e}", out.display()))?;
            out!(
                "{}: {} series, {} timings, {} code rows",
                out.display(),
                raw.series.len(),
                raw.timings.len(),
                raw.codes.len()
            );
        }
        "codes" => {
            args.only(&["scenarios"])?;
            let (s, _) = Scenarios::read(&args.path("scenarios")?)?;
            let _ = write!(
                std::io::stdout(),
                "{}",
                report::codes::markdown(&measure::codes_rows(&s))
            );
        }
        "report" => {
            args.only(&["results", "check"])?;
            let dir = args.path("results")?;
            let w = report::write(&dir)?;
            out!("{}: {}", dir.display(), w.verdict);
            if args.flag("check") && !w.complete {
                eprintln!("deltabench report --check: {}", w.missing.join("; "));
                return Ok(ExitCode::FAILURE);
            }
        }
        other => return Err(format!("unknown command {other:?}")),
    }
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    let args = match Args::parse() {
        Ok(a) if a.flag("help") || a.command == "-h" || a.command == "--help" => {
            out!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(a) => a,
        Err(e) => {
            eprintln!("deltabench: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("deltabench: {e}");
            ExitCode::FAILURE
        }
    }
}
