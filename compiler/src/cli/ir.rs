//! `bitwire check`, `bitwire ir` and `bitwire plan`: run the front end and report
//! diagnostics, or print the compiled IR or its codec plan as JSON.

use super::term;
use std::io::Write;
use std::process::ExitCode;

use super::SchemaArg;
use crate::sema::{self, FsLoader};

/// Compiles the schema, printing every diagnostic (warnings included) to stderr.
fn compile(args: &SchemaArg) -> Option<crate::ir::Schema> {
    let (schema, diags) = sema::compile(&args.schema.to_string_lossy(), &FsLoader::new(""));
    if !diags.items.is_empty() {
        term::eprint_report(&diags.render());
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
    print_json(&serde_json::to_value(&schema).expect("the IR always serializes"))
}

/// `bitwire plan SCHEMA`: print the codec plan (every wire operation, check and
/// allocation charge the code generators print, ADR 0010) as pretty JSON.
pub fn plan(args: &SchemaArg) -> ExitCode {
    let Some(schema) = compile(args) else {
        return ExitCode::FAILURE;
    };
    let plan = crate::plan::CodecPlan::build(&schema);
    let mut json = serde_json::to_value(&plan).expect("the plan always serializes");
    let delta = crate::plan::delta::DeltaPlan::build(&schema, &plan);
    if !delta.messages.is_empty() {
        json["delta"] = serde_json::to_value(&delta).expect("the plan always serializes");
    }
    print_json(&json)
}

fn print_json(value: &serde_json::Value) -> ExitCode {
    let json = serde_json::to_string_pretty(value).expect("JSON prints");
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{json}").is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
