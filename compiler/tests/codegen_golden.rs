//! Golden tests of the Rust backend: every `testdata/codegen/*.bw` generates exactly
//! the committed `testdata/codegen/*.rs` (run with `BLESS=1` to rewrite them after an
//! intended change), generation is deterministic, and the output is already laid out
//! as rustfmt would lay it out. That the output compiles and passes clippy is checked
//! by the `bitwire-conformance` crate, which builds the generated code of every suite.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use bitwire_compiler::codegen::{generate_rust, RustOptions};

fn codegen_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/codegen")
}

/// Every schema of the golden corpus with its generated code, in name order.
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
            let opts = RustOptions {
                json: true,
                source_name: schema.root_file.clone(),
            };
            let code = generate_rust(&schema, &opts);
            (path, code)
        })
        .collect()
}

#[test]
fn generated_code_matches_golden_files() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut stale = Vec::new();
    for (schema, code) in generated() {
        let golden = schema.with_extension("rs");
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
        "generated code differs from {stale:?}; rerun with BLESS=1 if intended"
    );
}

#[test]
fn generation_is_deterministic() {
    let first = generated();
    let second = generated();
    assert_eq!(first, second);
}

#[test]
fn generated_code_is_rustfmt_clean() {
    // The generator never runs rustfmt; this checks that it did not need to.
    let available = Command::new("rustfmt")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !available {
        eprintln!("rustfmt not installed; skipping the layout check");
        return;
    }
    for (schema, code) in generated() {
        let mut child = Command::new("rustfmt")
            .args(["--edition", "2021", "--emit", "stdout"])
            // Outside the repository, so no project rustfmt.toml applies.
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn rustfmt");
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(code.as_bytes())
            .expect("feed rustfmt");
        let out = child.wait_with_output().expect("rustfmt runs");
        assert!(
            out.status.success(),
            "rustfmt failed on {}: {}",
            schema.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let formatted = String::from_utf8(out.stdout).expect("utf-8");
        if formatted != code {
            let first = formatted
                .lines()
                .zip(code.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "{}: generated code is not rustfmt-formatted; first difference at line {}:\n  generated: {:?}\n  rustfmt:   {:?}",
                schema.display(),
                first + 1,
                code.lines().nth(first),
                formatted.lines().nth(first)
            );
        }
    }
}
