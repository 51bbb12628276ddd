//! The golden corpus shared by every backend's golden test: `testdata/codegen/*.bw`,
//! each with one committed output file per language (`.rs`, `.go`, `.ts`).

use std::path::{Path, PathBuf};

use bitwire_compiler::ir::Schema;

/// Every schema of the corpus (in name order) with the code `gen` makes of it.
pub fn generated(gen: impl Fn(&Path, &Schema) -> String) -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/codegen");
    let mut schemas: Vec<PathBuf> = std::fs::read_dir(dir)
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
            let code = gen(&path, &schema);
            (path, code)
        })
        .collect()
}

/// Asserts that each output equals the committed file with extension `ext` beside its
/// schema; with `BLESS=1` in the environment, rewrites those files instead.
pub fn assert_matches_golden(outputs: &[(PathBuf, String)], ext: &str) {
    let bless = std::env::var_os("BLESS").is_some();
    let mut stale = Vec::new();
    for (schema, code) in outputs {
        let golden = schema.with_extension(ext);
        if bless {
            std::fs::write(&golden, code).expect("write golden file");
            continue;
        }
        if std::fs::read_to_string(&golden).unwrap_or_default() != *code {
            stale.push(golden.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "generated code differs from {stale:?}; rerun with BLESS=1 if intended"
    );
}
