//! Golden tests of the TypeScript backend: every `testdata/codegen/*.bw` generates
//! exactly the committed `testdata/codegen/*.ts` (run with `BLESS=1` to rewrite them
//! after an intended change), and generation is deterministic. That the output
//! type-checks under `tsc --strict` and runs on Node, Bun and Deno is checked by
//! `conformance/ts/run.sh`, which compiles these schemas and every vector suite.

mod golden;

use std::path::PathBuf;

use bitwire_compiler::codegen::{generate_ts, TsOptions};

/// Every schema of the golden corpus with its generated TypeScript, in name order.
fn generated() -> Vec<(PathBuf, String)> {
    golden::generated(|_, schema| {
        let opts = TsOptions {
            json: true,
            bincode: false,
            source_name: schema.root_file.clone(),
            ..TsOptions::default()
        };
        generate_ts(schema, &opts)
    })
}

#[test]
fn generated_typescript_matches_golden_files() {
    golden::assert_matches_golden(&generated(), "ts");
}

#[test]
fn typescript_generation_is_deterministic() {
    let first = generated();
    let second = generated();
    assert_eq!(first, second);
}

#[test]
fn typescript_lines_stay_short() {
    // The backend breaks long expressions itself; nothing formats its output.
    for (schema, code) in generated() {
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
