//! `bitwire check` and `bitwire ir`: run the front end and report diagnostics, or
//! print the compiled IR as JSON.

use std::io::Write;
use std::process::ExitCode;

use super::SchemaArg;
use crate::sema::{self, FsLoader};

/// Compiles the schema, printing every diagnostic (warnings included) to stderr.
fn compile(args: &SchemaArg) -> Option<crate::ir::Schema> {
    let (schema, diags) = sema::compile(&args.schema.to_string_lossy(), &FsLoader::new(""));
    if !diags.items.is_empty() {
        eprint!("{}", diags.render());
    }
    schema.filter(|_| !diags.has_errors())
}

/// `bitwire check SCHEMA`: exit 0 with a one-line summary if the schema compiles,
/// 1 after printing its diagnostics otherwise.
pub fn check(args: &SchemaArg) -> ExitCode {
    let Some(schema) = compile(args) else {
        return ExitCode::FAILURE;
    };
    let messages = schema.messages().count();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    println!(
        "ok: {}: {} ({}), {}",
        args.schema.display(),
        plural(schema.types.len(), "type"),
        plural(messages, "message"),
        plural(schema.constants.len(), "constant")
    );
    ExitCode::SUCCESS
}

/// `bitwire ir SCHEMA`: print the IR as pretty JSON, or the diagnostics and exit 1.
pub fn dump(args: &SchemaArg) -> ExitCode {
    let Some(schema) = compile(args) else {
        return ExitCode::FAILURE;
    };
    let json = serde_json::to_string_pretty(&schema).expect("the IR always serializes");
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{json}").is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
