//! Golden tests of the TypeScript backend: every `testdata/codegen/*.bw` generates
//! exactly the committed `testdata/codegen/*.ts`; `kitchen_sink.bw` with the bincode
//! encoding (docs/spec.md §13) `kitchen_sink.bincode.ts`, and with typed arrays too
//! `kitchen_sink.typed.ts` (run with `BLESS=1` to rewrite them after an intended
//! change); generation is deterministic. That the output
//! type-checks under `tsc --strict` and runs on Node, Bun and Deno is checked by
//! `conformance/ts/run.sh`, which compiles these schemas and every vector suite.

mod golden;

use std::path::PathBuf;

use bitwire_compiler::codegen::{generate_ts, TsOptions};

/// Every schema of the golden corpus with its generated TypeScript, in name order.
fn generated() -> Vec<(PathBuf, String)> {
    generated_with(false)
}

/// The corpus generated with or without the bincode encoding.
fn generated_with(bincode: bool) -> Vec<(PathBuf, String)> {
    generated_opts(bincode, false)
}

fn generated_opts(bincode: bool, typed_arrays: bool) -> Vec<(PathBuf, String)> {
    golden::generated(|_, schema| {
        let opts = TsOptions {
            json: true,
            bincode,
            typed_arrays,
            source_name: schema.root_file.clone(),
            ..TsOptions::default()
        };
        generate_ts(schema, &opts)
    })
}

/// `kitchen_sink.bw` (every type expression) with the bincode encoding.
fn generated_bincode() -> Vec<(PathBuf, String)> {
    kitchen_sink(generated_with(true))
}

/// `kitchen_sink.bw` with the bincode encoding and typed arrays.
fn generated_typed() -> Vec<(PathBuf, String)> {
    kitchen_sink(generated_opts(true, true))
}

fn kitchen_sink(outputs: Vec<(PathBuf, String)>) -> Vec<(PathBuf, String)> {
    let one: Vec<_> = outputs
        .into_iter()
        .filter(|(schema, _)| schema.ends_with("kitchen_sink.bw"))
        .collect();
    assert_eq!(one.len(), 1, "kitchen_sink.bw is in the corpus");
    one
}

#[test]
fn generated_typescript_matches_golden_files() {
    golden::assert_matches_golden(&generated(), "ts");
}

#[test]
fn generated_bincode_typescript_matches_golden_file() {
    golden::assert_matches_golden(&generated_bincode(), "bincode.ts");
}

#[test]
fn generated_typed_arrays_typescript_matches_golden_file() {
    golden::assert_matches_golden(&generated_typed(), "typed.ts");
}

#[test]
fn typescript_generation_is_deterministic() {
    let first = generated_with(true);
    let second = generated_with(true);
    assert_eq!(first, second);
}

#[test]
fn typescript_lines_stay_short() {
    // The backend breaks long expressions itself; nothing formats its output.
    let all = generated()
        .into_iter()
        .chain(generated_bincode())
        .chain(generated_typed());
    for (schema, code) in all {
        for (n, line) in code.lines().enumerate() {
            assert!(
                line.chars().count() <= 100,
                "{}: line {} is {} characters: {line}",
                schema.display(),
                n + 1,
                line.chars().count()
            );
            assert_eq!(
                line,
                line.trim_end(),
                "{}: trailing space on line {}",
                schema.display(),
                n + 1
            );
        }
    }
}
