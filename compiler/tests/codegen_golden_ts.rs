//! Golden tests of the TypeScript backend: every `testdata/codegen/*.bw` generates
//! exactly the committed `testdata/codegen/*.ts` (run with `BLESS=1` to rewrite them
//! after an intended change), and generation is deterministic. That the output
//! type-checks under `tsc --strict` and runs on Node, Bun and Deno is checked by
//! `conformance/ts/run.sh`, which compiles these schemas and every vector suite.

use std::path::{Path, PathBuf};

use bitwire_compiler::codegen::{generate_ts, TsOptions};

fn codegen_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/codegen")
}

/// Every schema of the golden corpus with its generated TypeScript, in name order.
fn generated() -> Vec<(PathBuf, String)> {
    let mut schemas: Vec<PathBuf> = std::fs::read_dir(codegen_dir())
        .expect("testdata/codegen exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "bw"))
        .collect();
    schemas.sort();
    assert!(!schemas.is_empty(), "no schemas in testdata/codegen");
    schemas
        .into_iter()
        .map(|path| {
            let schema = bitwire_compiler::compile_file(&path)
                .unwrap_or_else(|d| panic!("{} does not compile:\n{}", path.display(), d.render()));
            let opts = TsOptions {
                json: true,
                source_name: schema.root_file.clone(),
                ..TsOptions::default()
            };
            let code = generate_ts(&schema, &opts);
            (path, code)
        })
        .collect()
}

#[test]
fn generated_typescript_matches_golden_files() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut stale = Vec::new();
    for (schema, code) in generated() {
        let golden = schema.with_extension("ts");
        if bless {
            std::fs::write(&golden, &code).expect("write golden file");
            continue;
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        if expected != code {
            stale.push(golden.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "generated TypeScript differs from {stale:?}; rerun with BLESS=1 if intended"
    );
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
