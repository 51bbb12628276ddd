//! Golden tests of the Go backend: every `testdata/codegen/*.bw` generates exactly
//! the committed `testdata/codegen/*.go` (run with `BLESS=1` to rewrite them after an
//! intended change), generation is deterministic, and the output is already laid out
//! as gofmt lays it out (checked with `gofmt -l` when Go is installed; the generator
//! itself never runs gofmt). That the output compiles, passes `go vet` and behaves
//! is checked by `conformance/go/run.sh`, which builds the generated code of every
//! vector suite.

mod golden;

use std::path::{Path, PathBuf};
use std::process::Command;

use bitwire_compiler::codegen::go::naming::package_name;
use bitwire_compiler::codegen::{generate_go, GoOptions};

/// Every schema of the golden corpus with its generated Go code, in name order.
fn generated() -> Vec<(PathBuf, String)> {
    golden::generated(|path, schema| {
        let stem = path.file_stem().expect("a file name").to_string_lossy();
        let opts = GoOptions {
            json: true,
            bincode: false,
            source_name: schema.root_file.clone(),
            package: package_name(&stem),
        };
        generate_go(schema, &opts)
    })
}

/// The same with the bincode encoding (`--encoding bincode`, docs/spec.md §13) and
/// without JSON: the committed `testdata/codegen/*.bincode.go`.
fn generated_bincode() -> Vec<(PathBuf, String)> {
    golden::generated(|path, schema| {
        let stem = path.file_stem().expect("a file name").to_string_lossy();
        let opts = GoOptions {
            json: false,
            bincode: true,
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
fn generated_bincode_go_matches_golden_files() {
    golden::assert_matches_golden(&generated_bincode(), "bincode.go");
}

/// The bincode encoding adds to the packed code and changes nothing of it: every
/// line of the output without it is in the output with it, in the same order, but
/// the runtime API gate, which names version 6 (7, as without bincode, for a schema
/// with a bounded string: version 7 has version 6's API).
#[test]
fn bincode_only_adds_to_the_packed_code() {
    let plain = golden::generated(|path, schema| {
        let stem = path.file_stem().expect("a file name").to_string_lossy();
        let opts = GoOptions {
            json: false,
            bincode: false,
            source_name: schema.root_file.clone(),
            package: package_name(&stem),
        };
        generate_go(schema, &opts)
    });
    for ((path, without), (_, with)) in plain.iter().zip(generated_bincode()) {
        let api = if without.contains("const _ = bitwire.RuntimeAPIVersion7\n") {
            7
        } else {
            6
        };
        assert!(with.contains(&format!("const _ = bitwire.RuntimeAPIVersion{api}\n")));
        let mut lines = with.lines();
        for line in without.lines() {
            let line = line
                .replace("RuntimeAPIVersion4", &format!("RuntimeAPIVersion{api}"))
                .replace("provides version 4.", &format!("provides version {api}."));
            assert!(
                lines.any(|l| l == line),
                "{}: {line:?} is missing or out of order with bincode",
                path.display()
            );
        }
        for method in [
            "AppendBincode",
            "EncodeBincode",
            "DecodeBincode",
            "WriteBincode",
        ] {
            assert!(with.contains(&format!(") {method}(")), "{method}");
        }
    }
}

#[test]
fn go_generation_is_deterministic() {
    assert_eq!(generated(), generated());
}

#[test]
fn generated_go_is_gofmt_clean() {
    assert_gofmt_clean("golden", &generated());
    assert_gofmt_clean("bincode", &generated_bincode());
}

/// Delta messages whose arrays hold arrays or lists (`[[u4; 2]; 2]`, deeper, with
/// floats, inside optionals): their wire equality nests function literals, which gofmt
/// prints on lines of their own when they do not fit on one (found by generating
/// `conformance/rust/schemas/delta_edges.bw`, which has `[[u4; 2]; 2]`, for the Go
/// conformance runner); and the delta edge shapes themselves.
#[test]
fn delta_go_with_nested_containers_is_gofmt_clean() {
    let nested = "delta message M = 1 {\n    a: [[u4; 2]; 2],\n    b: [[[f64; 2]; 2]; 2],\n    \
                  c: optional<[[f32; 2]; 2]>,\n    d: [list<[f32; 2], max 3>; 2],\n    \
                  e: list<[[bool; 2]; 2], max 3>,\n    f: [[string<max 4>; 2]; 2],\n}\n";
    let edges =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/rust/schemas/delta_edges.bw");
    let schemas = [
        (
            PathBuf::from("nested.bw"),
            bitwire_compiler::compile_source("nested.bw", nested).expect("compiles"),
        ),
        (
            edges.clone(),
            bitwire_compiler::compile_file(&edges).expect("compiles"),
        ),
    ];
    let outputs: Vec<(PathBuf, String)> = schemas
        .iter()
        .map(|(path, schema)| {
            let opts = GoOptions {
                json: true,
                bincode: false,
                source_name: schema.root_file.clone(),
                package: "deltanested".into(),
            };
            (path.clone(), generate_go(schema, &opts))
        })
        .collect();
    assert!(
        outputs[0].1.contains("bool {\n"),
        "no function literal on lines of its own"
    );
    assert_gofmt_clean("delta", &outputs);
}

/// `gofmt -l` finds nothing to change in `outputs` (skipped without gofmt).
fn assert_gofmt_clean(what: &str, outputs: &[(PathBuf, String)]) {
    let available = Command::new("gofmt")
        .arg("-l")
        .arg(std::env::temp_dir().join("no-such-file.go"))
        .output()
        .is_ok();
    if !available {
        eprintln!("gofmt not installed; skipping the layout check");
        return;
    }
    let dir = std::env::temp_dir().join(format!("bitwire-gofmt-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut files = Vec::new();
    for (schema, code) in outputs {
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
    for (schema, code) in generated().into_iter().chain(generated_bincode()) {
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
