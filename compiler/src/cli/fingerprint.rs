//! `bitwire fingerprint SCHEMA`: print the schema fingerprint (`game.bw 0123…`), then one line per
//! named type (`Name 0123456789abcdef`). See `docs/tooling.md`, "Fingerprint".

use super::term;
use std::io::Write;
use std::process::ExitCode;

use super::SchemaArg;
use crate::fingerprint::{fingerprints, hex};
use crate::sema::{self, FsLoader};

/// Runs `bitwire fingerprint`: prints diagnostics (warnings included) to stderr and
/// exits 1 on errors.
pub fn run(args: &SchemaArg) -> ExitCode {
    let (schema, diags) = sema::compile(&args.schema.to_string_lossy(), &FsLoader::new(""));
    if !diags.items.is_empty() {
        term::eprint_report(&diags.render());
    }
    let Some(schema) = schema.filter(|_| !diags.has_errors()) else {
        return ExitCode::FAILURE;
    };
    let fps = fingerprints(&schema);
    let mut text = format!("{} {}\n", schema.root_file, hex(fps.schema));
    for (def, fp) in schema.types.iter().zip(&fps.types) {
        text.push_str(&format!("{} {}\n", def.name, hex(*fp)));
    }
    if std::io::stdout().lock().write_all(text.as_bytes()).is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
