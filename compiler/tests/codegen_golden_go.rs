//! Golden tests of the Go backend: every `testdata/codegen/*.bw` generates exactly
//! the committed `testdata/codegen/*.go` (run with `BLESS=1` to rewrite them after an
//! intended change), generation is deterministic, and the output is already laid out
//! as gofmt lays it out (checked with `gofmt -l` when Go is installed; the generator
//! itself never runs gofmt). That the output compiles, passes `go vet` and behaves
//! is checked by `conformance/go/run.sh`, which builds the generated code of every
//! vector suite.

mod golden;

use std::path::PathBuf;
use std::process::Command;

use bitwire_compiler::codegen::go::naming::package_name;
use bitwire_compiler::codegen::{generate_go, GoOptions};

/// Every schema of the golden corpus with its generated Go code, in name order.
fn generated() -> Vec<(PathBuf, String)> {
    golden::generated(|path, schema| {
        let stem = path.file_stem().expect("a file name").to_string_lossy();
        let opts = GoOptions {
            json: true,
            source_name: schema.root_file.clone(),
            package: package_name(&stem),
        };
        generate_go(schema, &opts)
    })
}

#[test]
fn generated_go_matches_golden_files() {
    golden::assert_matches_golden(&generated(), "go");
}

#[test]
fn go_generation_is_deterministic() {
    assert_eq!(generated(), generated());
}

#[test]
fn generated_go_is_gofmt_clean() {
    let available = Command::new("gofmt")
        .arg("-l")
        .arg(std::env::temp_dir().join("no-such-file.go"))
        .output()
        .is_ok();
    if !available {
        eprintln!("gofmt not installed; skipping the layout check");
        return;
    }
    let dir = std::env::temp_dir().join(format!("bitwire-gofmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut files = Vec::new();
    for (schema, code) in generated() {
        let name = schema.with_extension("go");
        let file = dir.join(name.file_name().expect("a file name"));
        std::fs::write(&file, code).expect("write temp file");
        files.push(file);
    }
    let out = Command::new("gofmt")
        .arg("-l")
        .args(&files)
        .output()
        .expect("gofmt runs");
    let diff = Command::new("gofmt")
        .arg("-d")
        .args(&files)
        .output()
        .expect("gofmt runs");
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        out.status.success(),
        "gofmt failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stdout.is_empty(),
        "generated Go is not gofmt-formatted:\n{}",
        String::from_utf8_lossy(&diff.stdout)
    );
}

/// Generated Go reads like code people wrap by hand: no line is wider than 100
/// columns (a tab counted as four), not even with the corpus's long names, and
/// every comment line fits in 100 too.
#[test]
fn generated_go_lines_fit_in_100_columns() {
    for (schema, code) in generated() {
        for (n, line) in code.lines().enumerate() {
            let width = line.replace('\t', "    ").chars().count();
            assert!(
                width <= 100,
                "{}: line {} is {width} columns wide:\n{line}",
                schema.display(),
                n + 1
            );
        }
    }
}
