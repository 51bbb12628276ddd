//! `bitwire fmt`: rewrite schema files in the canonical layout, or (`--check`)
//! list the ones that are not.

use super::term;
use std::process::ExitCode;

use super::FmtArgs;
use crate::fmt::format_source;

/// Formats every file given. With `--check`, prints the path of each file that
/// would change (and nothing else) and writes nothing. Exits 1 if a file would
/// change under `--check`, or if one cannot be read, written or parsed (its
/// diagnostics go to stderr; the other files are still processed).
pub fn run(args: &FmtArgs) -> ExitCode {
    let mut failed = false;
    for path in &args.files {
        let name = path.display().to_string();
        let source = match crate::sema::read_source(path) {
            Ok(source) => source,
            Err(e) => {
                eprintln!("error: cannot read {name}: {e}");
                failed = true;
                continue;
            }
        };
        let formatted = match format_source(&name, &source) {
            Ok(formatted) => formatted,
            Err(diags) => {
                term::eprint_report(&diags.render());
                failed = true;
                continue;
            }
        };
        if formatted == source {
            continue;
        }
        if args.check {
            println!("{name}");
            failed = true;
        } else if let Err(e) = std::fs::write(path, formatted) {
            eprintln!("error: cannot write {name}: {e}");
            failed = true;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
