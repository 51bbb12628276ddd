//! Golden tests of the Rust backend: every `testdata/codegen/*.bw` generates exactly
//! the committed `testdata/codegen/*.rs` (run with `BLESS=1` to rewrite them after an
//! intended change), generation is deterministic, and the output is already laid out
//! as rustfmt would lay it out. That the output compiles and passes clippy is checked
//! by the `bitwire-conformance` crate, which builds the generated code of every suite.

mod golden;

use std::path::PathBuf;
use std::process::{Command, Stdio};

use bitwire_compiler::codegen::{generate_rust, RustOptions};

/// The options of the golden files: JSON conversions, and the bincode encoding when
/// `bincode` (`<schema>.bincode.rs`).
fn options(schema: &bitwire_compiler::ir::Schema, bincode: bool) -> RustOptions {
    RustOptions {
        json: true,
        bincode,
        source_name: schema.root_file.clone(),
        module_file: true,
    }
}

/// Every schema of the golden corpus with its generated Rust, in name order.
fn generated() -> Vec<(PathBuf, String)> {
    golden::generated(|_, schema| generate_rust(schema, &options(schema, false)))
}

/// The same with the bincode encoding (docs/spec.md §13).
fn generated_bincode() -> Vec<(PathBuf, String)> {
    golden::generated(|_, schema| generate_rust(schema, &options(schema, true)))
}

#[test]
fn generated_code_matches_golden_files() {
    golden::assert_matches_golden(&generated(), "rs");
}

#[test]
fn bincode_code_matches_golden_files() {
    golden::assert_matches_golden(&generated_bincode(), "bincode.rs");
}

#[test]
fn generation_is_deterministic() {
    let first = generated();
    let second = generated();
    assert_eq!(first, second);
    assert_eq!(generated_bincode(), generated_bincode());
}

#[test]
fn bincode_only_adds_its_impls() {
    // With the bincode encoding the file is the packed one plus one `impl Bincode` per
    // named type: every line of the packed file is there, in order.
    for ((path, packed), (_, with)) in generated().iter().zip(&generated_bincode()) {
        let mut rest = with.lines();
        for line in packed.lines() {
            assert!(
                rest.any(|l| l == line),
                "{}: {line:?} is missing or out of order with bincode",
                path.display()
            );
        }
        let impls = with.matches("impl ::bitwire::Bincode for ").count();
        let schema = bitwire_compiler::compile_file(path).expect("compiles");
        assert_eq!(impls, schema.types.len(), "{}", path.display());
    }
}

/// Generated Rust for every schema of the repository (vector suites, the example, the
/// lab's, the test-only ones), without and with the bincode encoding, for the layout
/// check.
fn every_schema() -> Vec<(PathBuf, String)> {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut paths = vec![
        root.join("examples/game.bw"),
        root.join("bench/schemas/pod.bw"),
    ];
    for dir in [
        "testdata/vectors",
        "testdata/vectors/delta",
        "testdata/vectors/bincode",
        "testdata/codegen",
        "conformance/rust/schemas",
    ] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("a schema directory")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "bw"))
            .collect();
        found.sort();
        paths.extend(found);
    }
    paths
        .into_iter()
        .flat_map(|path| {
            let schema = bitwire_compiler::compile_file(&path).expect("compiles");
            [false, true].map(|bincode| {
                (
                    path.clone(),
                    generate_rust(&schema, &options(&schema, bincode)),
                )
            })
        })
        .collect()
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
    for (schema, code) in every_schema() {
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
